"""WGMMA emission: `nv_tileas.dot` / `cute_nvgpu.atom.gemm` with an sm90 atom to the
NVVM four-op sequence (reference note 001, `emit_wgmma_region`; PTX ISA,
https://docs.nvidia.com/cuda/parallel-thread-execution/#asynchronous-warpgroup-level-matrix-instructions).

A tile `D = A * B + C` (A: M x K, B: K x N) with an atom `m64nNkK` becomes, in order:

1. the shared-memory descriptors, once per shared operand, from the operand's
   `#nv_tileas.shared` layout (`hw.wgmma_layout.OperandTiling`, the PTX ISA's canonical
   layouts) and its buffer address: `((ptrtoint p & 0x3FFF0) >> 4) | fields`; then the
   descriptor of every instruction tile that starts elsewhere, `desc + (byte offset >> 4)`
   (A advances by (m, k), B by (n, k); a register-resident A advances only B);
2. the per-tile accumulator fragments taken out of C (`llvm.extractvalue`), and a
   register-resident A's per-tile registers;
3. `nvvm.wgmma.fence.aligned`;
4. one `nvvm.wgmma.mma_async` per (m-tile, n-tile, k-tile), m outermost and k innermost
   (seed 001's loop nest; upstream NVGPU's order), each threading its tile's accumulator;
   scale-d is `zero` on the first K step when the dot starts from a zero accumulator
   (C an `arith.constant` zero, or `accum_c` cleared on the atom) and `one` otherwise;
   a register-resident A (`frag_kind = rs`, which `nvvm.wgmma.mma_async` cannot
   express) is the same instruction as `llvm.inline_asm` with tied accumulator operands;
5. `nvvm.wgmma.commit.group.sync.aligned` and `nvvm.wgmma.wait.group.sync.aligned N`,
   N the dot's `wait_group` (groups left in flight; 0 drains everything, the default);
6. the results packed back into the accumulator struct, which replaces the dot's result.

Everything that feeds the MMAs (descriptor arithmetic, fragment extraction, constants) is
placed before the fence, so that nothing runs between the fence and the MMAs and ptxas
never has to serialize the WGMMA pipeline.

Legality: the atom type holds the shape lattice (M = 64, K per input type, "WGMMA N must be
a multiple of 8 ..."); the emission checks the target (sm_90a only; Blackwell kernels need
tcgen05), the accumulator encoding (one warpgroup, `instr_shape` = the atom's), and that
one descriptor can walk each shared operand.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence
from typing import cast

from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float8E4M3FNType,
    Float8E5M2Type,
    IntegerAttr,
    IntegerType,
    TensorType,
    i1,
    i8,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from tileas_py.diagnostics import emit_error
from tileas_py.dialects import cute_nvgpu
from tileas_py.dialects.nv_tileas import ops as tile_ops
from tileas_py.dialects.nv_tileas.attrs import (
    MmaEncodingAttr,
    SharedEncodingAttr,
    encoding_of,
    ints,
)
from tileas_py.dialects.nvvm import wgmma as nvvm_wgmma
from tileas_py.dialects.nvvm.attrs import (
    MMALayout,
    MMALayoutAttr,
    MMAShapeAttr,
    WGMMAScaleIn,
    WGMMAScaleInAttr,
    WGMMAScaleOut,
    WGMMAScaleOutAttr,
    WGMMATypes,
    WGMMATypesAttr,
)
from tileas_py.dialects.nvvm.sreg import ThreadIdXOp
from tileas_py.dialects.nvvm.target import require_ptx
from tileas_py.hw import wgmma as hw_wgmma
from tileas_py.hw import wgmma_layout
from tileas_py.hw.arch import Arch, ArchVariant
from tileas_py.passes.lowering.tileas_to_nvvm.conventions import (
    SHARED_PTR,
    a_fragment_type,
    accumulator_problem,
    accumulator_registers,
    accumulator_shape,
    accumulator_warpgroups,
    checked_fragment_type,
    defining_op_through_casts,
    element_bits,
    extract_member,
    fragment_type,
    from_llvm,
    member_position,
    pack_members,
    scalar_constant,
    to_llvm,
)
from tileas_py.passes.lowering.tileas_to_nvvm.registers import warn_if_over_budget
from tileas_py.passes.lowering.tileas_to_nvvm.swizzle import (
    ThreadAddresses,
    splits_additively,
)
from tileas_py.passes.lowering.tileas_to_nvvm.threads import (
    constant,
    executing_warps,
    outside_loops,
    warpgroup_in_agent,
)

SM90A = Arch(90, ArchVariant.ARCH_CONDITIONAL)

_ADDRESS_MASK = 0x3FFFF & ~0xF
"""Bits 4-17 of a shared address: the 14-bit start-address field, in 16-byte units."""

_WARPGROUP_WARPS = 4


def _i64(value: int) -> int:
    """A 64-bit pattern as the signed value `llvm.mlir.constant` holds."""
    return value - (1 << 64) if value >= 1 << 63 else value


class Emitter:
    """Builds the ops of one WGMMA region before the op being replaced."""

    def __init__(self, rewriter: PatternRewriter, op: Operation) -> None:
        self.rewriter = rewriter
        self.op = op

    def add(self, new: Operation) -> SSAValue:
        self.rewriter.insert(new)
        return new.results[0]

    def emit(self, new: Operation) -> None:
        self.rewriter.insert(new)

    def constant(self, value: int, t: IntegerType = i64) -> SSAValue:
        return self.add(llvm.ConstantOp(IntegerAttr(value, t), t))


def check_target(op: Operation) -> None:
    """WGMMA exists on sm_90a only."""
    from tileas_py.passes.lowering.convert_tileas_to_nvvm import target_arch

    arch = target_arch(op)
    if arch == SM90A:
        return
    if arch is not None and arch.version >= 100:
        emit_error(
            op,
            f"WGMMA is not available on {arch}: Blackwell kernels use an sm100 atom "
            "(!cute_nvgpu.sm100.mma, tcgen05.mma)",
        )
    emit_error(
        op,
        f"WGMMA needs the sm_90a target, got {arch if arch is not None else 'none'}",
    )


MIXED_INTEGER_PTX = 84
"""WGMMA mixing s8 and u8 inputs needs PTX ISA 8.4 (ptxas: "Feature 'WGMMA with mixed
integer types' requires PTX ISA .version 8.4 or later")."""


def _zero_constant(value: SSAValue) -> bool:
    """Whether `value` is a splat zero accumulator (before or after its lowering)."""
    owner = defining_op_through_casts(value)
    if isinstance(owner, llvm.ZeroOp):
        return True
    if not isinstance(owner, arith.ConstantOp):
        return False
    dense = owner.value
    if not isinstance(dense, DenseIntOrFPElementsAttr):
        return False
    values = cast(Sequence[int | float], dense.get_values())
    return all(v == 0 for v in values)


def shared_operand_tiling(
    op: Operation,
    value: SSAValue,
    operand: str,
    *,
    k_major: bool,
    mn: int,
    k: int,
    instruction: str,
) -> wgmma_layout.OperandTiling:
    """How the descriptors of an MMA `instruction` taking `mn` x `k` of operand `operand`
    (`A`: M x K, `B`: K x N) walk the shared tile `value`; fails the pass at `op` when
    none can."""
    t = value.type
    assert isinstance(t, TensorType)
    encoding = t.encoding
    assert isinstance(encoding, SharedEncodingAttr)
    rows, cols = t.get_shape()
    k_extent, mn_extent = (cols, rows) if operand == "A" else (rows, cols)
    inner, outer = (k_extent, mn_extent) if k_major else (mn_extent, k_extent)
    layout = wgmma_layout.SharedTileLayout(
        inner=inner,
        outer=outer,
        element_bytes=element_bits(cast(Attribute, t.get_element_type())) // 8,
        swizzle=encoding.swizzle.data,
    )
    tiling = wgmma_layout.OperandTiling(layout=layout, k_major=k_major, mn=mn, k=k)
    if (problem := tiling.problem()) is not None:
        emit_error(
            op, f"no {instruction} descriptor can walk operand {operand}: {problem}"
        )
    return tiling


class WgmmaRegion:
    """What one WGMMA region is made of, read from a dot or an atom.gemm."""

    def __init__(
        self,
        op: Operation,
        atom: cute_nvgpu.SM90MmaAtomType,
        operands: tuple[SSAValue, SSAValue, SSAValue],
        wait_group: int,
        *,
        zero_start: bool,
        negate: tuple[bool, bool],
    ) -> None:
        self.op = op
        self.atom = atom
        self.a, self.b, self.c = operands
        self.wait_group = wait_group
        self.zero_start = zero_start
        self.negate = negate

    def accumulator_type(self) -> TensorType[Attribute]:
        t = self.c.type
        assert isinstance(t, TensorType)
        encoding = t.encoding
        instr = [hw_wgmma.M, self.atom.n.data, self.atom.k.data]
        if (
            not isinstance(encoding, MmaEncodingAttr)
            or list(ints(encoding.instr_shape)) != instr
        ):
            emit_error(
                self.op,
                "the accumulator of a WGMMA must be a tensor with a #nv_tileas.mma "
                f"encoding of instr_shape = {instr}, got '{t}'",
            )
        tile = cast(TensorType[Attribute], t)
        problem = accumulator_problem(tile)
        if problem is not None:
            emit_error(self.op, problem)
        groups = accumulator_warpgroups(tile)
        warps = executing_warps(self.op)
        if warps != _WARPGROUP_WARPS * groups:
            emit_error(
                self.op,
                f"the accumulator is held by {groups} warpgroup(s) (warps_per_cta = "
                f"{list(ints(encoding.warps_per_cta))}), but the dot runs on {warps} "
                "warps",
            )
        return tile

    def tiling(self, operand: str) -> wgmma_layout.OperandTiling:
        atom = self.atom
        major = atom.a_major.data if operand == "A" else atom.b_major.data
        return shared_operand_tiling(
            self.op,
            self.a if operand == "A" else self.b,
            operand,
            k_major=major == cute_nvgpu.Major.K,
            mn=hw_wgmma.M if operand == "A" else atom.n.data,
            k=atom.k.data,
            instruction="WGMMA",
        )

    def emit(self, rewriter: PatternRewriter) -> SSAValue:
        check_target(self.op)
        _, type_a, type_b = self.types()
        if type_a != type_b and {type_a, type_b} == {WGMMATypes.S8, WGMMATypes.U8}:
            require_ptx(self.op, MIXED_INTEGER_PTX)
        e = Emitter(rewriter, self.op)
        atom = self.atom
        acc_type = self.accumulator_type()
        groups = accumulator_warpgroups(acc_type)
        m_tiles, n_tiles, _ = accumulator_shape(acc_type)
        k_total = cast(TensorType[Attribute], self.a.type).get_shape()[1]
        k_tiles = k_total // atom.k.data
        register_a = atom.frag_kind.data == cute_nvgpu.FragKind.RS

        # 1. Descriptors, and every per-tile advance of them. Split over warpgroups,
        # each starts at its own rows of A.
        a_desc: dict[tuple[int, int], SSAValue] = {}
        a_regs: list[SSAValue] = []
        if register_a:
            a_regs = self.register_a(e, m_tiles, k_tiles, groups)
        else:
            a_desc = self.descriptors(
                e,
                "A",
                [(m, k) for m in range(m_tiles) for k in range(k_tiles)],
                self.warpgroup_rows(e, groups, m_tiles),
            )
        b_desc = self.descriptors(
            e, "B", [(n, k) for n in range(n_tiles) for k in range(k_tiles)]
        )

        # 2. The accumulator tiles. From a zero start the first MMA of each tile does not
        # read its accumulator (scale-d 0), so it gets undefined registers: no zeroing
        # instruction at all, before or after the fence.
        whole = fragment_type(acc_type)
        warn_if_over_budget(self.op, accumulator_registers(whole))
        if self.zero_start:
            acc = e.add(llvm.UndefOp(whole))
        else:
            acc = to_llvm(rewriter, self.c, self.op, whole)
        tiles = [
            extract_member(rewriter, acc, i, whole.types.data[i])
            for i in range(m_tiles * n_tiles)
        ]
        result = e.add(llvm.UndefOp(whole))

        # 3-5. fence, the MMAs, commit, wait.
        e.emit(nvvm_wgmma.WgmmaFenceAlignedOp())
        for m in range(m_tiles):
            for n in range(n_tiles):
                index = m * n_tiles + n
                for k in range(k_tiles):
                    scale_zero = self.zero_start and k == 0
                    if register_a:
                        tiles[index] = self.mma_rs(
                            e,
                            a_regs[m * k_tiles + k],
                            b_desc[n, k],
                            tiles[index],
                            scale_zero,
                        )
                    else:
                        tiles[index] = self.mma_ss(
                            e, a_desc[m, k], b_desc[n, k], tiles[index], scale_zero
                        )
        e.emit(nvvm_wgmma.WgmmaGroupSyncAlignedOp())
        e.emit(nvvm_wgmma.WgmmaWaitGroupSyncOp(self.wait_group))

        # 6. The accumulator, tile by tile.
        for index, tile in enumerate(tiles):
            result = e.add(
                llvm.InsertValueOp.build(
                    operands=[result, tile],
                    properties={"position": member_position(index)},
                    result_types=[whole],
                )
            )
        return from_llvm(rewriter, result, self.op, acc_type)

    def warpgroup_rows(self, e: Emitter, groups: int, m_tiles: int) -> SSAValue | None:
        """The byte offset of this warpgroup's rows of a shared A (None: one warpgroup)."""
        if groups == 1:
            return None
        tiling = self.tiling("A")
        k_tiles = cast(TensorType[Attribute], self.a.type).get_shape()[1]
        k_tiles //= self.atom.k.data
        stride = tiling.byte_offset(m_tiles, 0)
        linear = all(
            tiling.byte_offset(g * m_tiles + m, k)
            == g * stride + tiling.byte_offset(m, k)
            for g in range(groups)
            for m in range(m_tiles)
            for k in range(k_tiles)
        )
        if not linear:
            emit_error(
                self.op,
                "operand A cannot be split over warpgroups: its rows of one warpgroup "
                "do not start at a whole number of descriptor steps",
            )
        rewriter = e.rewriter
        saved = rewriter.insertion_point
        rewriter.insertion_point = InsertPoint.before(outside_loops(self.op))
        group = warpgroup_in_agent(rewriter, groups)
        size = constant(rewriter, stride)
        offset = rewriter.insert(arith.MuliOp(group, size)).result
        rewriter.insertion_point = saved
        return offset

    def descriptors(
        self,
        e: Emitter,
        operand: str,
        tiles: list[tuple[int, int]],
        offset: SSAValue | None = None,
    ) -> dict[tuple[int, int], SSAValue]:
        """The descriptor of each (mn, k) instruction tile of a shared operand, whose
        buffer starts `offset` bytes further (a warpgroup's rows)."""
        tiling = self.tiling(operand)
        value = self.a if operand == "A" else self.b
        pointer = to_llvm(e.rewriter, value, self.op, SHARED_PTR)
        if offset is not None:
            pointer = e.add(
                llvm.GEPOp.from_mixed_indices(
                    pointer, [offset], pointee_type=i8, result_type=SHARED_PTR
                )
            )
        address = e.add(llvm.PtrToIntOp(pointer, i64))
        masked = e.add(llvm.AndOp(address, e.constant(_ADDRESS_MASK)))
        start = e.add(llvm.LShrOp(masked, e.constant(4)))
        fields = tiling.descriptor().encode()
        base = e.add(llvm.OrOp(start, e.constant(_i64(fields))))
        by_increment: dict[int, SSAValue] = {0: base}
        out: dict[tuple[int, int], SSAValue] = {}
        for mn, k in tiles:
            increment = tiling.byte_offset(mn, k) >> 4
            if increment not in by_increment:
                by_increment[increment] = e.add(llvm.AddOp(base, e.constant(increment)))
            out[mn, k] = by_increment[increment]
        return out

    def register_a(
        self, e: Emitter, m_tiles: int, k_tiles: int, groups: int
    ) -> list[SSAValue]:
        """The four registers of each (m, k) tile of a register-resident A: a splat
        constant packed, a shared tile loaded with `ldmatrix`, or A's own fragments."""
        t = cast(TensorType[Attribute], self.a.type)
        whole = a_fragment_type(t, self.atom.k.data)
        member = whole.types.data[0]
        assert isinstance(member, llvm.LLVMStructType)
        splat = _splat_bits(self.a)
        if splat is not None:
            word = e.constant(splat, i32)
            words = [word] * wgmma_layout.A_REGISTERS
            return [pack_members(e.rewriter, words, member)] * (m_tiles * k_tiles)
        source = _loaded_from_shared(self.a)
        if source is not None:
            return self.ldmatrix_a(e, source, (m_tiles, k_tiles, groups), member)
        if groups > 1:
            emit_error(
                self.op,
                "a register-resident A split over warpgroups must be loaded from a "
                "shared tile (nv_tileas.convert_layout of a #nv_tileas.shared tile)",
            )
        value = to_llvm(e.rewriter, self.a, self.op, whole)
        return [
            extract_member(e.rewriter, value, i, whole.types.data[i])
            for i in range(m_tiles * k_tiles)
        ]

    def ldmatrix_a(
        self,
        e: Emitter,
        source: SSAValue,
        tiles: tuple[int, int, int],
        member: llvm.LLVMStructType,
    ) -> list[SSAValue]:
        """A register A read from a K-major shared tile: per (m, k) instruction tile one
        `ldmatrix.x4` of its four 8-row matrices (rows 0-7 and 8-15 of the warp's 16, K
        halves 0 and 1: the A fragment's four registers). Lane l gives the address of
        row `l % 8` of matrix `l / 8`."""
        m_tiles, k_tiles, groups = tiles
        t = cast(TensorType[Attribute], source.type)
        encoding = t.encoding
        assert isinstance(encoding, SharedEncodingAttr)
        rows, cols = t.get_shape()
        if ints(encoding.order) != (1, 0):
            emit_error(
                self.op,
                "a register A is loaded with ldmatrix from a K-major shared tile "
                "(order = [1, 0])",
            )
        element = element_bits(t.get_element_type()) // 8
        layout = wgmma_layout.SharedTileLayout(
            inner=cols, outer=rows, element_bytes=element, swizzle=encoding.swizzle.data
        )
        half = wgmma_layout.INSTRUCTION_K_BYTES // 2 // element
        rows_per_group = rows // groups
        threads: list[tuple[int, int]] = []
        for thread in range(_WARPGROUP_WARPS * 32 * groups):
            warp, lane = divmod(thread, 32)
            group, in_group = divmod(warp, _WARPGROUP_WARPS)
            row = group * rows_per_group + 16 * in_group + 8 * ((lane >> 3) & 1)
            threads.append((row + (lane & 7), half * (lane >> 4)))
        constants = [
            (hw_wgmma.M * m, self.atom.k.data * k)
            for m in range(m_tiles)
            for k in range(k_tiles)
        ]
        problem = layout.problem()
        column_step = layout.offset(inner=half, outer=0)
        exact = all(
            layout.offset(inner=col, outer=row)
            == row * layout.panel_bytes + column_step * (col // half)
            for row, col in threads
        )
        if problem is None and not (
            exact and splits_additively(layout, threads, constants)
        ):
            problem = "its panels split the 8x16-byte matrices ldmatrix reads"
        if problem is not None:
            emit_error(self.op, f"register A cannot be loaded from {t}: {problem}")
        rewriter = e.rewriter
        saved = rewriter.insertion_point
        rewriter.insertion_point = InsertPoint.before(outside_loops(self.op))
        thread = self.ldmatrix_thread_offset(
            rewriter, layout, rows_per_group, groups, column_step
        )
        rewriter.insertion_point = saved
        pointer = to_llvm(rewriter, source, self.op, SHARED_PTR)
        addresses = ThreadAddresses(rewriter, pointer, thread, layout)
        registers = ", ".join(f"${r}" for r in range(wgmma_layout.A_REGISTERS))
        text = (
            f"ldmatrix.sync.aligned.m8n8.x4.shared.b16 {{{registers}}}, "
            f"[${wgmma_layout.A_REGISTERS}];"
        )
        constraints = ",".join(["=r"] * wgmma_layout.A_REGISTERS + ["l"])
        loaded: list[SSAValue] = []
        for row, col in constants:
            address = addresses.address(layout.offset(inner=col, outer=row))
            load = llvm.InlineAsmOp(
                text, constraints, [address], [member], has_side_effects=True
            )
            loaded.append(e.add(load))
        return loaded

    @staticmethod
    def ldmatrix_thread_offset(
        rewriter: PatternRewriter,
        layout: wgmma_layout.SharedTileLayout,
        rows_per_group: int,
        groups: int,
        column_step: int,
    ) -> SSAValue:
        """The linear offset of the row this lane gives `ldmatrix`:
        `row * P + (lane / 16) * (offset of 16 bytes of K)`, with `row = (M / W) g +
        16 (warp % 4) + 8 ((lane / 8) % 2) + lane % 8`."""

        def binary(
            kind: type[arith.SignlessIntegerBinaryOperation], a: SSAValue, b: int
        ) -> SSAValue:
            return rewriter.insert(kind(a, constant(rewriter, b))).result

        tid = rewriter.insert(ThreadIdXOp(i32)).res
        lane = binary(arith.AndIOp, tid, 31)
        warp = binary(arith.AndIOp, binary(arith.ShRUIOp, tid, 5), _WARPGROUP_WARPS - 1)
        row = binary(arith.MuliOp, warp, 16)
        half = binary(
            arith.MuliOp, binary(arith.AndIOp, binary(arith.ShRUIOp, lane, 3), 1), 8
        )
        row = rewriter.insert(arith.AddiOp(row, half)).result
        row = rewriter.insert(arith.AddiOp(row, binary(arith.AndIOp, lane, 7))).result
        if groups > 1:
            group = warpgroup_in_agent(rewriter, groups)
            first = binary(arith.MuliOp, group, rows_per_group)
            row = rewriter.insert(arith.AddiOp(row, first)).result
        linear = binary(arith.MuliOp, row, layout.panel_bytes)
        column = binary(arith.MuliOp, binary(arith.ShRUIOp, lane, 4), column_step)
        return rewriter.insert(arith.AddiOp(linear, column)).result

    def types(self) -> tuple[WGMMATypes, WGMMATypes, WGMMATypes]:
        atom = self.atom
        return (
            WGMMATypes(cute_nvgpu.element_type_name(atom.acc_type)),
            WGMMATypes(cute_nvgpu.element_type_name(atom.a_type)),
            WGMMATypes(cute_nvgpu.element_type_name(atom.b_type)),
        )

    def mma_ss(
        self,
        e: Emitter,
        a: SSAValue,
        b: SSAValue,
        acc: SSAValue,
        scale_zero: bool,
    ) -> SSAValue:
        atom = self.atom
        type_d, type_a, type_b = self.types()
        layout_a = (
            MMALayout.ROW if atom.a_major.data == cute_nvgpu.Major.K else MMALayout.COL
        )
        layout_b = (
            MMALayout.COL if atom.b_major.data == cute_nvgpu.Major.K else MMALayout.ROW
        )
        neg_a, neg_b = self.negate
        return e.add(
            nvvm_wgmma.WgmmaMmaAsyncOp(
                a,
                b,
                acc,
                shape=MMAShapeAttr(hw_wgmma.M, atom.n.data, atom.k.data),
                type_d=WGMMATypesAttr(type_d),
                scale_d=WGMMAScaleOutAttr(
                    WGMMAScaleOut.ZERO if scale_zero else WGMMAScaleOut.ONE
                ),
                a=(
                    WGMMATypesAttr(type_a),
                    WGMMAScaleInAttr(WGMMAScaleIn.NEG if neg_a else WGMMAScaleIn.ONE),
                    MMALayoutAttr(layout_a),
                ),
                b=(
                    WGMMATypesAttr(type_b),
                    WGMMAScaleInAttr(WGMMAScaleIn.NEG if neg_b else WGMMAScaleIn.ONE),
                    MMALayoutAttr(layout_b),
                ),
            )
        )

    def mma_rs(
        self,
        e: Emitter,
        a: SSAValue,
        b: SSAValue,
        acc: SSAValue,
        scale_zero: bool,
    ) -> SSAValue:
        """`wgmma.mma_async` with A in registers, as inline PTX (the NVVM op has no
        register-A form): the accumulator registers are tied outputs."""
        atom = self.atom
        type_d, type_a, type_b = self.types()
        tile_type = acc.type
        assert isinstance(tile_type, llvm.LLVMStructType)
        count = len(tile_type.types.data)
        a_regs = [
            extract_member(e.rewriter, a, r, i32)
            for r in range(wgmma_layout.A_REGISTERS)
        ]
        d = ", ".join(f"${i}" for i in range(count))
        regs = ", ".join(f"${count + r}" for r in range(wgmma_layout.A_REGISTERS))
        desc = f"${count + wgmma_layout.A_REGISTERS}"
        operands = [f"{int(not scale_zero)}"]
        floating = type_d != WGMMATypes.S32
        if floating:
            neg_a, neg_b = self.negate
            operands += ["-1" if neg_a else "1", "-1" if neg_b else "1"]
            if hw_wgmma.supports_transpose(hw_wgmma.WgmmaType(type_a.value)):
                operands.append("0" if atom.b_major.data == cute_nvgpu.Major.K else "1")
        mnemonic = hw_wgmma.ptx_mnemonic(
            hw_wgmma.WgmmaShape(hw_wgmma.M, atom.n.data, atom.k.data),
            hw_wgmma.WgmmaType(type_d.value),
            hw_wgmma.WgmmaType(type_a.value),
            hw_wgmma.WgmmaType(type_b.value),
        )
        text = f"{mnemonic} {{{d}}}, {{{regs}}}, {desc}, {', '.join(operands)};"
        register = "f" if isinstance(tile_type.types.data[0], AnyFloat) else "r"
        constraints = ",".join(
            [f"={register}"] * count
            + ["r"] * wgmma_layout.A_REGISTERS
            + ["l"]
            + [str(i) for i in range(count)]
        )
        elements = [
            extract_member(e.rewriter, acc, i, tile_type.types.data[i])
            for i in range(count)
        ]
        return e.add(
            llvm.InlineAsmOp(
                text,
                constraints,
                [*a_regs, b, *elements],
                [tile_type],
                has_side_effects=True,
            )
        )


def _loaded_from_shared(value: SSAValue) -> SSAValue | None:
    """The shared tile a register A is converted from (`convert_layout`), if it is."""
    owner = defining_op_through_casts(value)
    if not isinstance(owner, tile_ops.ConvertLayoutOp):
        return None
    source = owner.source
    if isinstance(encoding_of(source.type), SharedEncodingAttr):
        return source
    return None


def _splat_bits(value: SSAValue) -> int | None:
    """The 32-bit register a splat constant A packs into, if A is one."""
    owner = defining_op_through_casts(value)
    if not isinstance(owner, arith.ConstantOp):
        return None
    dense = owner.value
    if not isinstance(dense, DenseIntOrFPElementsAttr):
        return None
    values = cast(Sequence[int | float], dense.get_values())
    if any(v != values[0] for v in values):
        return None
    element = cast(TensorType[Attribute], value.type).get_element_type()
    bits = element_bits(element)
    first = values[0]
    if isinstance(element, IntegerType):
        pattern = int(first) & ((1 << bits) - 1)
    else:
        packed = struct.pack("<f", float(first))
        word = int.from_bytes(packed, "little")
        if bits == 32:
            pattern = word
        elif bits == 16:
            pattern = half_bits(word, element)
        else:
            pattern = fp8_bits(float(first), element)
    per = 32 // bits
    result = 0
    for i in range(per):
        result |= pattern << (bits * i)
    return result - (1 << 32) if result >= 1 << 31 else result


def half_bits(word: int, element: Attribute) -> int:
    if isinstance(element, BFloat16Type):
        return (word + 0x7FFF + ((word >> 16) & 1)) >> 16  # round to nearest even
    half = struct.pack("<e", struct.unpack("<f", word.to_bytes(4, "little"))[0])
    return int.from_bytes(half, "little")


_FP8_FORMATS: dict[type[Attribute], tuple[int, int, int]] = {
    Float8E4M3FNType: (4, 3, 7),
    Float8E5M2Type: (5, 2, 15),
}
"""Exponent bits, mantissa bits and bias of the two WGMMA fp8 formats."""


def fp8_bits(value: float, element: Attribute) -> int:
    """The e4m3 / e5m2 bits of `value`, rounded to nearest even (values in range)."""
    exponent_bits, mantissa_bits, bias = _FP8_FORMATS[type(element)]
    sign = int(math.copysign(1.0, value) < 0) << (exponent_bits + mantissa_bits)
    magnitude = abs(value)
    if magnitude == 0:
        return sign
    fraction, exponent = math.frexp(magnitude)
    biased = exponent - 1 + bias
    if biased <= 0:
        # Subnormal; a mantissa that rounds up to 1 << mantissa_bits is the smallest normal.
        return sign | round(magnitude * 2.0 ** (bias - 1 + mantissa_bits))
    mantissa = round((2 * fraction - 1) * (1 << mantissa_bits))
    return sign | ((biased << mantissa_bits) + mantissa)


def _atom_fields(value: SSAValue, op: Operation) -> tuple[bool, bool, bool]:
    """(accum_c, neg_a, neg_b) of an atom value built by make_mma_atom / set_value."""
    fields = {
        cute_nvgpu.MmaAtomField.ACCUM_C: True,
        cute_nvgpu.MmaAtomField.NEG_A: False,
        cute_nvgpu.MmaAtomField.NEG_B: False,
    }
    chain: list[cute_nvgpu.AtomSetValueOp] = []
    owner = value.owner
    while isinstance(owner, cute_nvgpu.AtomSetValueOp):
        chain.append(owner)
        owner = owner.atom.owner
    if not isinstance(owner, cute_nvgpu.MakeMmaAtomOp):
        emit_error(
            op,
            "the atom of a WGMMA must come from cute_nvgpu.make_mma_atom and "
            "cute_nvgpu.atom.set_value",
        )
    for setter in reversed(chain):
        flag = setter.value.owner
        if not (
            isinstance(flag, arith.ConstantOp)
            and isinstance(flag.value, IntegerAttr)
            and flag.value.type == i1
        ):
            emit_error(
                setter,
                f"'{setter.field.data}' must be a constant: the WGMMA emission makes it "
                "an immediate",
            )
        fields[setter.field.data] = bool(flag.value.value.data)
    return (
        fields[cute_nvgpu.MmaAtomField.ACCUM_C],
        fields[cute_nvgpu.MmaAtomField.NEG_A],
        fields[cute_nvgpu.MmaAtomField.NEG_B],
    )


class LowerDot(RewritePattern):
    """`nv_tileas.dot` with an sm90 wgmma atom to the four-op WGMMA region."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tile_ops.DotOp, rewriter: PatternRewriter) -> None:
        atom = op.atom
        if not isinstance(atom, cute_nvgpu.SM90MmaAtomType):
            return
        region = WgmmaRegion(
            op,
            atom,
            (op.a, op.b, op.c),
            op.wait_group.value.data,
            zero_start=_zero_constant(op.c),
            negate=(False, False),
        )
        rewriter.replace(op, [], [region.emit(rewriter)])


class LowerAtomGemm(RewritePattern):
    """`cute_nvgpu.atom.gemm` with an sm90 wgmma atom to the four-op WGMMA region."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: cute_nvgpu.AtomGemmOp, rewriter: PatternRewriter
    ) -> None:
        atom = op.atom.type
        assert isinstance(atom, cute_nvgpu.SM90MmaAtomType)
        accum_c, neg_a, neg_b = _atom_fields(op.atom, op)
        region = WgmmaRegion(
            op,
            atom,
            (op.a, op.b, op.c),
            op.wait_group.value.data if op.wait_group is not None else 0,
            zero_start=not accum_c or _zero_constant(op.c),
            negate=(neg_a, neg_b),
        )
        rewriter.replace(op, [], [region.emit(rewriter)])


class EraseDeadAtom(RewritePattern):
    """An atom value nothing reads any more (its gemms are lowered) disappears."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self,
        op: cute_nvgpu.MakeMmaAtomOp | cute_nvgpu.AtomSetValueOp,
        rewriter: PatternRewriter,
    ) -> None:
        if not op.result.uses:
            rewriter.erase(op)


class LowerAccumulatorConstant(RewritePattern):
    """A splat `arith.constant` accumulator (`#nv_tileas.mma`) to its fragments:
    `llvm.mlir.zero` for zero, else every register set to the value."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: arith.ConstantOp, rewriter: PatternRewriter
    ) -> None:
        t = op.result.type
        if not isinstance(t, TensorType) or not isinstance(t.encoding, MmaEncodingAttr):
            return
        t = cast(TensorType[Attribute], t)
        dense = op.value
        assert isinstance(dense, DenseIntOrFPElementsAttr)
        values = cast(Sequence[int | float], dense.get_values())
        whole = checked_fragment_type(op, t)
        if all(v == 0 for v in values):
            zero = llvm.ZeroOp.build(result_types=[whole])
            rewriter.insert(zero)
            rewriter.replace(op, [], [from_llvm(rewriter, zero.res, op, t)])
            return
        if any(v != values[0] for v in values):
            emit_error(op, "only splat accumulator constants are supported")
        element: Attribute = t.get_element_type()
        member = whole.types.data[0]
        assert isinstance(member, llvm.LLVMStructType)
        leaf = member.types.data[0]
        if leaf != element:
            emit_error(op, "only zero f16 accumulator constants are supported")
        scalar = scalar_constant(rewriter, element, values[0])
        tile = pack_members(rewriter, [scalar] * len(member.types.data), member)
        acc = pack_members(rewriter, [tile] * len(whole.types.data), whole)
        rewriter.replace(op, [], [from_llvm(rewriter, acc, op, t)])


class EraseDeadRegisterA(RewritePattern):
    """A `convert_layout` into a register A that the WGMMAs it fed no longer read."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: tile_ops.ConvertLayoutOp, rewriter: PatternRewriter
    ) -> None:
        if not op.result.uses and encoding_of(op.result.type) is None:
            rewriter.erase(op)


class EraseDeadTileConstant(RewritePattern):
    """A tile constant nothing reads any more (a WGMMA packed it, or ignores it)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: arith.ConstantOp, rewriter: PatternRewriter
    ) -> None:
        if isinstance(op.result.type, TensorType) and not op.result.uses:
            rewriter.erase(op)


PATTERNS: tuple[RewritePattern, ...] = (
    EraseDeadTileConstant(),
    EraseDeadRegisterA(),
    LowerDot(),
    LowerAtomGemm(),
    EraseDeadAtom(),
    LowerAccumulatorConstant(),
)
