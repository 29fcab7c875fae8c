"""Bytes a CTA's TMA loads per K step, read from a kernel's PTX (issue 16's check that
multicast divides them).

A TMA load is a `cp.async.bulk.tensor ... .global.tile.mbarrier` instruction; its tensor
map is a kernel parameter (`mov.u64 %rdA, <kernel>_param_N; cvta.param.u64 %rdB, %rdA`),
whose box the lowering recorded. With the loads in the producer's K loop, one of each per
K step, the CTA issues the sum of their boxes' bytes; the full barrier's `expect_tx`
counts the bytes that arrive in its shared memory, its own and those its peers multicast.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from tileas_py.sim.launch import Prepared

_PARAM = re.compile(r"mov\.u64\s+(%rd\d+), (\w+)_param_(\d+);")
_CVTA = re.compile(r"cvta\.param\.u64\s+(%rd\d+), (%rd\d+);")
_LOAD = re.compile(
    r"cp\.async\.bulk\.tensor\.\S+\.global\.tile\.mbarrier\S*\s+\[[^]]+\], \[(%rd\d+),"
)
_EXPECT = re.compile(r"expect_tx\S*\s+_, \[[^]]+\], (\d+);")


@dataclass(frozen=True)
class KStepBytes:
    issued: int
    """Bytes the CTA's own TMA loads move per K step."""
    arriving: int
    """Bytes its full barrier expects per K step (`expect_tx`)."""
    loads: int
    multicast: int
    """How many of the loads are `.multicast::cluster`."""


def k_step_bytes(prepared: Prepared, kernel: str) -> KStepBytes:
    ptx = prepared.ptx
    params = {m[1]: int(m[3]) for m in _PARAM.finditer(ptx) if m[2] == kernel}
    maps = {m[1]: params[m[2]] for m in _CVTA.finditer(ptx) if m[2] in params}
    record = prepared.records[kernel]
    issued = loads = multicast = 0
    for line in ptx.splitlines():
        load = _LOAD.search(line)
        if load is None:
            continue
        view = record.params[maps[load[1]]]
        assert view is not None
        issued += math.prod(view.box) * np.dtype(view.dtype).itemsize
        loads += 1
        multicast += ".multicast::cluster" in line
    (expect,) = [int(m[1]) for m in _EXPECT.finditer(ptx)]
    return KStepBytes(issued, expect, loads, multicast)
