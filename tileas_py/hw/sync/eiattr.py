"""The EIATTRs of a kernel's `.nv.info` that ptxas 13.5 derives from its synchronization.

`cuobjdump -elf` prints them per function; these are the facts measured on the sync corpus
and on probes (test/ptxas/test_sync_eiattr.py compares the predicted ones with ptxas's):

- EIATTR_MBARRIER_INSTR_OFFSETS: one entry per SASS instruction that works on an mbarrier,
  in code order, each with a kind (`MbarrierKind`, the code in the entry's 13th byte).
  `mbarrier.arrive.expect_tx`, `arrive_drop.expect_tx`, `pending_count` and the bulk copies
  that complete transactions get no entry; an out-of-line copy of a spin loop gets its own.
- EIATTR_NUM_MBARRIERS: the number of `mbarrier.init` entries, 0xffff when an init is in a
  loop (the count is then unknown); both attributes are absent without any entry.
- EIATTR_SW_WAR: a mask of software workarounds that depends only on the architecture
  (`sw_war`), recorded for every function.

The byte offsets of the entries need the full SASS layout and are not modelled.
"""

from __future__ import annotations

from enum import IntEnum

from tileas_py.hw.arch import sm_version

UNKNOWN_MBARRIER_COUNT = 0xFFFF
"""EIATTR_NUM_MBARRIERS of a kernel that initializes mbarriers in a loop."""


class MbarrierKind(IntEnum):
    """The instruction kinds of EIATTR_MBARRIER_INSTR_OFFSETS, by their code."""

    INIT = 0x00
    ARRIVE = 0x01
    ARRIVE_NOCOMPLETE = 0x02
    ARRIVE_DROP = 0x03
    ARRIVE_DROP_NOCOMPLETE = 0x04
    TEST_WAIT = 0x05
    TEST_WAIT_PARITY = 0x06
    CP_ASYNC_ARRIVE = 0x07
    INVAL = 0x08
    TRY_WAIT = 0x09
    TRY_WAIT_PARITY = 0x0A
    EXPECT_TX = 0x0B
    COMPLETE_TX = 0x0C

    @property
    def cuobjdump_name(self) -> str:
        """How `cuobjdump -elf` names the kind (it knows no name for the last two)."""
        if self in (MbarrierKind.EXPECT_TX, MbarrierKind.COMPLETE_TX):
            return "Unknown Instruction"
        return f"MBARRIER_{self.name}"


def mbarrier_kind(opcode: str) -> MbarrierKind | None:
    """The EIATTR_MBARRIER_INSTR_OFFSETS kind of a PTX instruction, None if it has none.

    `opcode` is the PTX mnemonic (`mbarrier.try_wait.parity.shared::cta.b64`,
    `cp.async.mbarrier.arrive.noinc.b64`); ptxas's `_mbarrier.try_wait` pseudo counts as its
    native form.
    """
    parts = opcode.removeprefix("_").split(".")
    if parts[:3] == ["cp", "async", "mbarrier"]:
        return MbarrierKind.CP_ASYNC_ARRIVE
    if parts[0] != "mbarrier" or len(parts) < 2:
        return None
    operation, modifiers = parts[1], set(parts[2:])
    no_complete = "noComplete" in modifiers
    if operation in ("arrive", "arrive_drop"):
        if "expect_tx" in modifiers:
            return None
        if operation == "arrive":
            return (
                MbarrierKind.ARRIVE_NOCOMPLETE if no_complete else MbarrierKind.ARRIVE
            )
        return (
            MbarrierKind.ARRIVE_DROP_NOCOMPLETE
            if no_complete
            else MbarrierKind.ARRIVE_DROP
        )
    if operation in ("test_wait", "try_wait"):
        parity = "parity" in modifiers
        if operation == "test_wait":
            return MbarrierKind.TEST_WAIT_PARITY if parity else MbarrierKind.TEST_WAIT
        return MbarrierKind.TRY_WAIT_PARITY if parity else MbarrierKind.TRY_WAIT
    return {
        "init": MbarrierKind.INIT,
        "inval": MbarrierKind.INVAL,
        "expect_tx": MbarrierKind.EXPECT_TX,
        "complete_tx": MbarrierKind.COMPLETE_TX,
    }.get(operation)


def num_mbarriers(kinds: list[MbarrierKind], init_in_loop: bool) -> int | None:
    """EIATTR_NUM_MBARRIERS for a kernel with these entries (None: no attribute)."""
    if not kinds:
        return None
    if init_in_loop:
        return UNKNOWN_MBARRIER_COUNT
    return kinds.count(MbarrierKind.INIT)


def sw_war(arch: str) -> int | None:
    """EIATTR_SW_WAR of every function compiled for `arch` (None: not recorded).

    Measured on ptxas 13.5 for each target it accepts: 0x1 on sm_75, 0x2 on sm_87, none on
    the other sm_8x, 0x8 from sm_90 to sm_110, 0x0 from sm_120 on. Options (-O0, -g, -c,
    -lineinfo) and the code do not change it.
    """
    version = sm_version(arch)
    if version >= 120:
        return 0x0
    if version >= 90:
        return 0x8
    return {75: 0x1, 87: 0x2}.get(version)
