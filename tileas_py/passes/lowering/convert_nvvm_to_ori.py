"""`convert-nvvm-to-ori`: instruction selection from NVVM-level IR to ori (PTX).

The input is what NVVM-level kernels are made of: `llvm.func` / `func.func` with `nvvm`,
`llvm`, `arith`, `cf` and `scf` ops, and `llvm.mlir.global` variables. The output is an
ori module that `-t ptx` prints as PTX the real ptxas assembles: `.version` / `.target` /
`.address_size` from the module's `#nvvm.target`, `.global` / `.shared` variables, and
one `.entry` (`nvvm.kernel`) or `.func` per function, on fresh virtual registers named as
nvcc names them (`%p`, `%rs`, `%r`, `%rd`, `%f`, `%fd`).

`scf.for` / `scf.if` / `scf.index_switch` / `scf.while` are first lowered to `cf` (xDSL's
convert-scf-to-cf patterns, plus `scf.while`). Then each function is lowered one op at a
time, in an order where every value is lowered before its uses: instruction selection
here is a walk rather than a set of rewrite patterns because ori is not SSA, and a value
becomes registers, blocks and copies that only make sense per function. Unsupported ops
and types stop the pass with a diagnostic at the op:
`convert-nvvm-to-ori: unsupported op 'nvvm.mma.sync'`.

Before:

    module attributes {nvvm.target = #nvvm.target<chip = "sm_90a">} {
      llvm.func @scale(%p: !llvm.ptr<1>, %s: f32) attributes {nvvm.kernel} {
        %tid = nvvm.read.ptx.sreg.tid.x : i32
        %q = llvm.getelementptr %p[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
        %x = llvm.load %q : !llvm.ptr<1> -> f32
        %y = llvm.fmul %x, %s : f32
        llvm.store %y, %q : f32, !llvm.ptr<1>
        llvm.return
      }
    }

After (`-t ptx`):

    .version 8.0
    .target sm_90a
    .address_size 64

    .visible .entry scale(
        .param .u64 scale_param_0,
        .param .f32 scale_param_1
    )
    {
        .reg .b32   %r<1>;
        .reg .b64   %rd<3>;
        .reg .f32   %f<3>;

        ld.param.u64    %rd0, [scale_param_0];
        ld.param.f32    %f0, [scale_param_1];
        mov.u32         %r0, %tid.x;
        mul.wide.s32    %rd1, %r0, 4;
        add.s64         %rd2, %rd0, %rd1;
        ld.global.f32   %f1, [%rd2];
        mul.f32         %f2, %f1, %f0;
        st.global.f32   [%rd2], %f2;
        ret;
    }
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriteWalker
from xdsl.transforms.convert_scf_to_cf import ForLowering, IfLowering, SwitchLowering

from tileas_py.diagnostics import emit_error
from tileas_py.dialects.nvvm.target import TARGET_ATTR_NAME
from tileas_py.hw.arch import Arch
from tileas_py.paused_gc import paused_gc

_VERSION = re.compile(r"\d+\.\d+")


def lower_structured_control_flow(module: ModuleOp) -> None:
    """`scf.for` / `scf.if` / `scf.index_switch` / `scf.while` to `cf`, in place."""
    from tileas_py.passes.lowering.nvvm_to_ori.control_flow import WhileLowering

    PatternRewriteWalker(
        GreedyRewritePatternApplier(
            [SwitchLowering(), IfLowering(), ForLowering(), WhileLowering()],
            dce_enabled=False,
        )
    ).rewrite_module(module)


@dataclass(frozen=True)
class ConvertNvvmToOriPass(ModulePass):
    """Lower NVVM-level kernels (nvvm, llvm, arith, cf, scf, func) to ori."""

    name = "convert-nvvm-to-ori"

    default_chip: str = "sm_90a"
    """The `.target` of a module without `#nvvm.target`."""

    ptx_version: str | None = None
    """The `.version` to print, instead of the one chosen from the target."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from tileas_py.passes.lowering.nvvm_to_ori.module import (
            check_module_level,
            lower_module,
        )

        if Arch.parse(self.default_chip) is None:
            emit_error(
                None,
                f"{self.name}: default-chip '{self.default_chip}' is not an SM target "
                "such as sm_90a",
            )
        if self.ptx_version is not None and not _VERSION.fullmatch(self.ptx_version):
            emit_error(
                None,
                f"{self.name}: ptx-version '{self.ptx_version}' is not MAJOR.MINOR",
            )
        check_module_level(op)
        with paused_gc():
            lower_structured_control_flow(op)
            ops = lower_module(op, self.default_chip, self.ptx_version)
        old = op.body.block
        op.body.insert_block_before(Block(ops), old)
        op.body.detach_block(old)
        op.attributes.pop(TARGET_ATTR_NAME, None)
