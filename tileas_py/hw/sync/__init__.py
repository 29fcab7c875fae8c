"""ptxas 13.5's synchronization facts: the SASS of PTX sync instructions and its messages.

`sass` says what ptxas emits for barriers, fences, mbarriers, cp.async groups and warp-level
synchronization; `diagnostics` holds the memory-order / mbarrier / barrier messages with
checkers that return them for a description of an instruction. Both are ground truth for the
`ori` barrier and sync phases (seed 003), taken from `test/ptxas/sync/corpus/`.
"""

from tileas_py.hw.sync.diagnostics import (
    INTRINSIC_MESSAGES,
    PTX_MESSAGES,
    SYNC_MESSAGE_BY_NAME,
    SYNC_MESSAGES,
    BulkCopyRule,
    MemoryOrder,
    MemoryOrderRule,
    Scope,
    Severity,
    StateSpace,
    SyncDiagnostic,
    SyncMessage,
    check_bulk_copy_subops,
    check_intrinsic_memory_order,
    check_ptx_barrier,
    check_ptx_fence,
    check_ptx_memory_access,
    parse_line,
    parse_ptxas_output,
)
from tileas_py.hw.sync.sass import (
    CLUSTER_WAIT_FALLBACK_BARRIER,
    CONSERVATIVE_MEMBAR_PREFIX,
    EXIT_ERRBARS,
    NAMED_BARRIERS,
    SYNC_LOWERINGS,
    SyncLowering,
    find_lowering,
    num_barriers,
    sass_opcodes,
    sm_version,
)

__all__ = [
    "CLUSTER_WAIT_FALLBACK_BARRIER",
    "CONSERVATIVE_MEMBAR_PREFIX",
    "EXIT_ERRBARS",
    "INTRINSIC_MESSAGES",
    "NAMED_BARRIERS",
    "PTX_MESSAGES",
    "SYNC_LOWERINGS",
    "SYNC_MESSAGES",
    "SYNC_MESSAGE_BY_NAME",
    "BulkCopyRule",
    "MemoryOrder",
    "MemoryOrderRule",
    "Scope",
    "Severity",
    "StateSpace",
    "SyncDiagnostic",
    "SyncLowering",
    "SyncMessage",
    "check_bulk_copy_subops",
    "check_intrinsic_memory_order",
    "check_ptx_barrier",
    "check_ptx_fence",
    "check_ptx_memory_access",
    "find_lowering",
    "num_barriers",
    "parse_line",
    "parse_ptxas_output",
    "sass_opcodes",
    "sm_version",
]
