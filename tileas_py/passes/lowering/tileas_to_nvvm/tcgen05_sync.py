"""What a Blackwell MMA changes in the synchronisation lowerings of
`convert-tileas-to-nvvm`: slots released by `tcgen05.commit`, and CTA pairs.

`tcgen05.py` marks the tile IR before the patterns run (`tcgen05.prepare`), and the
pipeline, TMA and agent lowerings read the marks:

- `RELEASED_BY_COMMIT` on a `consumer_release` in an agent that issues tcgen05 MMAs: the
  slot is free once the MMAs issued so far have read it, which only `tcgen05.commit`
  tracks. The MMA issuer commits to the slot's empty barrier (one arrival for the agent,
  `pipeline.consumer_arrivals`).
- `CTA_PAIR` on a `create_pipeline` whose slots feed a `cta_group = 2` MMA (PTX ISA,
  "tcgen05 ... CTA pair"): the pair's MMA reads both CTAs' slots (each the CTA's piece of
  the pair's tile, `cta.py`), so both CTAs' TMA loads complete on the *even* CTA's full
  barrier (`.cta_group::2`, `mapa` to the even CTA), whose producer expects the bytes of
  both pieces (twice its own: `tcgen05.check_cta_groups` holds the pair's layouts, which
  split evenly); the MMA's commit releases the slot in both
  CTAs (multicast).
- `PAIR_AGENTS` on an `agent_switch`: the indices of the agents that issue `cta_group = 2`
  MMAs, which run on the even CTA of each pair only (the odd CTA's full barriers never
  complete: its loads complete on the even CTA's).

PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#tcgen05-memory-consistency-model
"""

from __future__ import annotations

from xdsl.dialects import arith, llvm
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from tileas_py.dialects.nvvm import cluster as nvvm_cluster
from tileas_py.passes.lowering.tileas_to_nvvm.cluster import cluster_rank
from tileas_py.passes.lowering.tileas_to_nvvm.threads import constant

RELEASED_BY_COMMIT = "nv_tileas.released_by_commit"
CTA_PAIR = "nv_tileas.cta_pair"
PAIR_AGENTS = "nv_tileas.pair_agents"


def released_by_commit(op: Operation) -> bool:
    return RELEASED_BY_COMMIT in op.attributes


def is_pair(op: Operation | None) -> bool:
    """Whether `op` (a `create_pipeline`, or the cast a lowered pipeline is) belongs to
    a CTA pair."""
    return op is not None and CTA_PAIR in op.attributes


def in_even_cta(rewriter: PatternRewriter) -> SSAValue:
    """An i1, true in the even CTA of each pair (the one that issues the pair's MMAs)."""
    odd = rewriter.insert(
        arith.AndIOp(cluster_rank(rewriter), constant(rewriter, 1))
    ).result
    zero = constant(rewriter, 0)
    return rewriter.insert(arith.CmpiOp(odd, zero, "eq")).result


def in_pair_leader(rewriter: PatternRewriter, address: SSAValue) -> SSAValue:
    """The shared::cluster address (`!llvm.ptr<7>`) of `address` (`!llvm.ptr<3>`) in the
    even CTA of this CTA's pair."""
    even = rewriter.insert(
        arith.AndIOp(cluster_rank(rewriter), constant(rewriter, -2))
    ).result
    return rewriter.insert(nvvm_cluster.MapaOp(address, even)).res


def remote_arrive(rewriter: PatternRewriter, barrier: SSAValue) -> None:
    """Arrive on an mbarrier of another CTA of the cluster (a shared::cluster address),
    with release semantics at cluster scope (inline PTX: NVVM's arrive takes shared::cta
    and generic barriers only)."""
    rewriter.insert(
        llvm.InlineAsmOp(
            "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [$0];",
            "l",
            [barrier],
            has_side_effects=True,
        )
    )
