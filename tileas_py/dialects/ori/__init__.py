"""`ori`: a ptxas-like machine IR of PTX, on which ptxas's WGMMA and barrier phases run.

Ori is not SSA. PTX virtual registers are the results of `ori.reg` declarations in a
function's entry block, and every instruction names the registers it reads and writes as
plain operands; its operand layout says which positions it defines (`def`), reads (`use`)
or both (`inout`, as the accumulators of `wgmma.mma_async`). Why this shape:

- it keeps xDSL's verifier content without SSA form: the entry block dominates every block,
  so any instruction may name any register, however often it is written;
- the def/use chain of a register is its handle's use list: every instruction touching it;
- a register's PTX type, name and ptxas register class live in one place, its `ori.reg`,
  so a pass reclassifies a register (e.g. as an accumulator, class 6) with one assignment,
  and a lowering allocates a fresh virtual register by adding one declaration;
- immediates, addresses, vectors, special registers (`%tid.x`: read-only, never defined,
  so they are operands like immediates rather than handles), symbols and labels live in
  properties, so the PTX writer prints every instruction back exactly.

Each instruction keeps its full mnemonic and its source line (its location is the `.ptx`
file's `FileLineColLoc`), so diagnostics name the line ptxas names. Blocks carry explicit
successors: a guarded `bra` has a taken and a fall-through successor, and
`ori.fallthrough` makes PTX's implicit fall-through explicit; `ori.label` keeps a block's
PTX name. See `tileas_py.dialects.ori.analysis` for the accessors and the CFG passes use,
and `tileas_py.analysis` for the analyses.
PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/
"""

from xdsl.ir import Dialect

from tileas_py.dialects.ori.attributes import (
    AddressAttr,
    FloatImmAttr,
    FunctionKindAttr,
    GenericAddressAttr,
    ImmAttr,
    LinkageAttr,
    NotAttr,
    PairAttr,
    ParenAttr,
    PtxTypeAttr,
    RegisterClassAttr,
    RegisterType,
    SinkAttr,
    SlotAttr,
    SpecialRegAttr,
    StateSpaceAttr,
    VectorAttr,
)
from tileas_py.dialects.ori.declarations import DirectiveAttr, ParamAttr
from tileas_py.dialects.ori.function import (
    FallthroughOp,
    FuncOp,
    LabelOp,
    LocOp,
    RegOp,
)
from tileas_py.dialects.ori.instructions import (
    INSTRUCTION_OPS,
    BarrierOp,
    BraOp,
    BrxOp,
    CallOp,
    CpAsyncBulkCommitGroupOp,
    CpAsyncBulkOp,
    CpAsyncBulkWaitGroupOp,
    CpAsyncCommitGroupOp,
    CpAsyncMbarrierArriveOp,
    CpAsyncOp,
    CpAsyncWaitAllOp,
    CpAsyncWaitGroupOp,
    CpReduceAsyncBulkOp,
    ExitOp,
    FenceOp,
    GenericInstructionOp,
    InstructionOp,
    MbarrierOp,
    MbarrierWaitOp,
    MembarOp,
    RetOp,
    TerminatorInstructionOp,
    WarpgroupArriveOp,
    WarpgroupCommitBatchOp,
    WarpgroupWaitOp,
    WgmmaCommitGroupOp,
    WgmmaFenceOp,
    WgmmaMmaAsyncOp,
    WgmmaWaitGroupOp,
    instruction_class,
)
from tileas_py.dialects.ori.module_ops import (
    AddressSizeOp,
    FileOp,
    PragmaOp,
    SectionOp,
    TargetOp,
    VarOp,
    VersionOp,
)
from tileas_py.dialects.ori.sass import (
    CONTROL_WORD,
    SASS_OPCODE,
    ControlWord,
    ControlWordAttr,
    SassOp,
    control_word,
    sass_opcode,
    set_control_word,
    set_sass_opcode,
)

Ori = Dialect(
    "ori",
    [
        VersionOp,
        TargetOp,
        AddressSizeOp,
        PragmaOp,
        FileOp,
        SectionOp,
        VarOp,
        FuncOp,
        RegOp,
        LabelOp,
        LocOp,
        FallthroughOp,
        *INSTRUCTION_OPS,
        SassOp,
    ],
    [
        RegisterType,
        PtxTypeAttr,
        RegisterClassAttr,
        StateSpaceAttr,
        LinkageAttr,
        FunctionKindAttr,
        SlotAttr,
        ImmAttr,
        FloatImmAttr,
        SpecialRegAttr,
        SinkAttr,
        AddressAttr,
        VectorAttr,
        ParenAttr,
        PairAttr,
        NotAttr,
        GenericAddressAttr,
        ParamAttr,
        DirectiveAttr,
        ControlWordAttr,
    ],
)

__all__ = [
    "CONTROL_WORD",
    "SASS_OPCODE",
    "AddressSizeOp",
    "BarrierOp",
    "BraOp",
    "BrxOp",
    "CallOp",
    "ControlWord",
    "ControlWordAttr",
    "CpAsyncBulkCommitGroupOp",
    "CpAsyncBulkOp",
    "CpAsyncBulkWaitGroupOp",
    "CpAsyncCommitGroupOp",
    "CpAsyncMbarrierArriveOp",
    "CpAsyncOp",
    "CpAsyncWaitAllOp",
    "CpAsyncWaitGroupOp",
    "CpReduceAsyncBulkOp",
    "ExitOp",
    "FallthroughOp",
    "FenceOp",
    "FileOp",
    "FuncOp",
    "GenericInstructionOp",
    "InstructionOp",
    "LabelOp",
    "LocOp",
    "MbarrierOp",
    "MbarrierWaitOp",
    "MembarOp",
    "Ori",
    "PragmaOp",
    "RegOp",
    "RetOp",
    "SassOp",
    "SectionOp",
    "TargetOp",
    "TerminatorInstructionOp",
    "VarOp",
    "VersionOp",
    "WarpgroupArriveOp",
    "WarpgroupCommitBatchOp",
    "WarpgroupWaitOp",
    "WgmmaCommitGroupOp",
    "WgmmaFenceOp",
    "WgmmaMmaAsyncOp",
    "WgmmaWaitGroupOp",
    "control_word",
    "instruction_class",
    "sass_opcode",
    "set_control_word",
    "set_sass_opcode",
]
