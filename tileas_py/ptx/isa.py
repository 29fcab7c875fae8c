"""Facts about PTX instructions the reader needs: names, special registers, defined operands.

PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#instructions
"""

from __future__ import annotations

import re
from functools import cache

KNOWN_ROOTS = frozenset(
    [
        "abs",
        "activemask",
        "add",
        "addc",
        "alloca",
        "and",
        "applypriority",
        "atom",
        "bar",
        "barrier",
        "bfe",
        "bfi",
        "bfind",
        "bmsk",
        "bra",
        "brev",
        "brkpt",
        "brx",
        "call",
        "clusterlaunchcontrol",
        "clz",
        "cnot",
        "copysign",
        "cos",
        "cp",
        "createpolicy",
        "cvt",
        "cvta",
        "discard",
        "div",
        "dp2a",
        "dp4a",
        "elect",
        "ex2",
        "exit",
        "fence",
        "fma",
        "fns",
        "getctarank",
        "griddepcontrol",
        "isspacep",
        "istypep",
        "ld",
        "ldmatrix",
        "ldu",
        "lg2",
        "lop3",
        "mad",
        "mad24",
        "madc",
        "mapa",
        "match",
        "max",
        "mbarrier",
        "membar",
        "min",
        "mma",
        "mov",
        "movmatrix",
        "mul",
        "mul24",
        "multimem",
        "nanosleep",
        "neg",
        "not",
        "or",
        "pmevent",
        "popc",
        "prefetch",
        "prefetchu",
        "prmt",
        "rcp",
        "red",
        "redux",
        "rem",
        "ret",
        "rsqrt",
        "sad",
        "selp",
        "set",
        "setmaxnreg",
        "setp",
        "shf",
        "shfl",
        "shl",
        "shr",
        "sin",
        "slct",
        "sqrt",
        "st",
        "stackrestore",
        "stacksave",
        "stmatrix",
        "sub",
        "subc",
        "suld",
        "suq",
        "sured",
        "sust",
        "szext",
        "tanh",
        "tcgen05",
        "tensormap",
        "testp",
        "tex",
        "tld4",
        "trap",
        "txq",
        "vabsdiff",
        "vabsdiff2",
        "vabsdiff4",
        "vadd",
        "vadd2",
        "vadd4",
        "vavrg2",
        "vavrg4",
        "vmad",
        "vmax",
        "vmax2",
        "vmax4",
        "vmin",
        "vmin2",
        "vmin4",
        "vote",
        "vset",
        "vset2",
        "vset4",
        "vshl",
        "vshr",
        "vsub",
        "vsub2",
        "vsub4",
        "wgmma",
        "wmma",
        "xor",
    ]
)
"""The first component of every PTX instruction mnemonic ptxas knows."""

_NO_DEFINITION_PREFIXES = frozenset(
    tuple(prefix.split("."))
    for prefix in [
        "st",
        "red",
        "bar",
        "barrier",
        "membar",
        "fence",
        "cp",
        "prefetch",
        "prefetchu",
        "bra",
        "brx",
        "call",
        "ret",
        "exit",
        "trap",
        "brkpt",
        "nanosleep",
        "stmatrix",
        "sust",
        "sured",
        "tensormap",
        "applypriority",
        "discard",
        "setmaxnreg",
        "griddepcontrol",
        "pmevent",
        "stackrestore",
        "wgmma.fence",
        "wgmma.commit_group",
        "wgmma.wait_group",
        "multimem.st",
        "multimem.red",
        "mbarrier.init",
        "mbarrier.inval",
        "mbarrier.expect_tx",
        "mbarrier.complete_tx",
        "clusterlaunchcontrol.try_cancel",
        "tcgen05.st",
        "tcgen05.cp",
        "tcgen05.mma",
        "tcgen05.commit",
        "tcgen05.fence",
        "tcgen05.wait",
        "tcgen05.alloc",
        "tcgen05.dealloc",
        "tcgen05.relinquish_alloc_permit",
        "tcgen05.shift",
    ]
)

_INOUT_PREFIXES = frozenset({("wgmma", "mma_async")})


@cache
def first_operand_role(opcode: str) -> str:
    """What the instruction does to the registers of its first operand.

    `def` for instructions that produce a value (PTX writes the destination first),
    `inout` for the accumulator of `wgmma.mma_async`, `use` for stores, barriers, copies,
    branches and the other instructions without a register result.
    """
    parts = tuple(opcode.split("."))
    if parts[:2] in _INOUT_PREFIXES:
        return "inout"
    if parts[0] in ("bar", "barrier") and "red" in parts:
        # The reducing barriers write their result: `bar.red.popc.u32 %r1, 0, %p1`.
        return "def"
    if parts[:1] in _NO_DEFINITION_PREFIXES or parts[:2] in _NO_DEFINITION_PREFIXES:
        return "use"
    return "def"


_SPECIAL_REGISTER = re.compile(
    r"%(?:(?:tid|ntid|ctaid|nctaid|clusterid|nclusterid|cluster_ctaid|cluster_nctaid)"
    r"(?:\.[xyz])?"
    r"|laneid|warpid|nwarpid|smid|nsmid|gridid|is_explicit_cluster|cluster_ctarank"
    r"|cluster_nctarank|lanemask_(?:eq|le|lt|ge|gt)|clock|clock_hi|clock64"
    r"|pm[0-7](?:_64)?|envreg(?:[12]?[0-9]|3[01])|globaltimer(?:_lo|_hi)?"
    r"|reserved_smem_offset_(?:begin|end|cap|[01])|total_smem_size|aggr_smem_size"
    r"|dynamic_smem_size|current_graph_exec)"
)


def is_special_register(name: str) -> bool:
    """Whether `name` (with its `%`) is a predefined read-only PTX register."""
    return _SPECIAL_REGISTER.fullmatch(name) is not None
