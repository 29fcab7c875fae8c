"""Launch geometry: which CTA, cluster, warp and lane each simulated thread is.

A launch runs in *waves* of whole clusters (`waves`): CUDA does not promise that the CTAs of
a grid are resident together, so running a large grid a few clusters at a time is a
schedule the hardware could choose, and it keeps the checker's clocks small. A `Geometry`
describes one wave: its CTAs are *slots* 0..n-1 (each the CTA `wave[slot]` of the grid, x
fastest), and slot `s` owns threads `s * padded .. s * padded + block - 1`, where `padded`
rounds the CTA's thread count up to a whole number of warps; the padding lanes never run.
Coordinates (`%ctaid`, `%clusterid`, ...) are the grid's. A cluster's CTAs are ranked x
fastest within the cluster, as `%cluster_ctarank` is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import numpy.typing as npt

Dim3 = tuple[int, int, int]
Ints = npt.NDArray[np.int64]
WARP = 32
WARPGROUP = 128


def dim3(value: int | tuple[int, ...], what: str) -> Dim3:
    """CUDA's meaning: an int is (n, 1, 1); a tuple of up to three extents."""
    if isinstance(value, int):
        value = (value,)
    if not 1 <= len(value) <= 3 or any(not isinstance(v, int) or v < 1 for v in value):
        raise ValueError(
            f"{what} must be a positive int or a tuple of 1 to 3 of them, got {value!r}"
        )
    padded = (*value, 1, 1)
    return (padded[0], padded[1], padded[2])


def count(d: Dim3) -> int:
    return d[0] * d[1] * d[2]


def _unlinear(index: Ints, dims: Dim3) -> tuple[Ints, Ints, Ints]:
    x = index % dims[0]
    y = (index // dims[0]) % dims[1]
    z = index // (dims[0] * dims[1])
    return x, y, z


def grid_clusters(grid: Dim3, cluster: Dim3) -> Ints:
    """Every CTA of the grid, ordered cluster by cluster and by rank within each."""
    ctas = np.arange(count(grid), dtype=np.int64)
    x, y, z = _unlinear(ctas, grid)
    nx, ny = grid[0] // cluster[0], grid[1] // cluster[1]
    which = (x // cluster[0]) + nx * ((y // cluster[1]) + ny * (z // cluster[2]))
    rank = (x % cluster[0]) + cluster[0] * (
        (y % cluster[1]) + cluster[1] * (z % cluster[2])
    )
    return ctas[np.lexsort((rank, which))]


def waves(grid: Dim3, block: Dim3, cluster: Dim3, lanes: int) -> list[Ints]:
    """The grid's CTAs in waves of whole clusters, each of at most `lanes` threads (or one
    cluster, if a cluster alone has more)."""
    padded = -(-count(block) // WARP) * WARP
    per_cluster = count(cluster)
    clusters_per_wave = max(lanes // (padded * per_cluster), 1)
    ordered = grid_clusters(grid, cluster)
    step = clusters_per_wave * per_cluster
    return [ordered[i : i + step] for i in range(0, ordered.shape[0], step)]


@dataclass(frozen=True)
class Geometry:
    grid: Dim3
    block: Dim3
    cluster: Dim3
    wave: Ints = field(
        default_factory=lambda: np.zeros(0, dtype=np.int64), compare=False
    )
    """The grid's linear CTA index of each slot; empty: the whole grid, in order."""

    @cached_property
    def slots(self) -> Ints:
        if self.wave.shape[0]:
            return self.wave
        return np.arange(count(self.grid), dtype=np.int64)

    @property
    def ctas(self) -> int:
        """CTAs in this wave."""
        return int(self.slots.shape[0])

    @property
    def threads_per_cta(self) -> int:
        return count(self.block)

    @property
    def padded(self) -> int:
        return -(-self.threads_per_cta // WARP) * WARP

    @property
    def lanes(self) -> int:
        """Simulated threads, padding lanes included."""
        return self.ctas * self.padded

    @property
    def cluster_size(self) -> int:
        return count(self.cluster)

    @cached_property
    def lane_cta(self) -> Ints:
        """The slot of each lane's CTA."""
        return np.arange(self.lanes, dtype=np.int64) // self.padded

    @cached_property
    def lane_tid(self) -> Ints:
        """The thread's linear index in its CTA."""
        return np.arange(self.lanes, dtype=np.int64) % self.padded

    @cached_property
    def live(self) -> npt.NDArray[np.bool_]:
        """Lanes that are real threads (not warp padding)."""
        return self.lane_tid < self.threads_per_cta

    @cached_property
    def tid(self) -> tuple[Ints, Ints, Ints]:
        return _unlinear(self.lane_tid, self.block)

    @cached_property
    def cta_xyz(self) -> tuple[Ints, Ints, Ints]:
        """Each slot's CTA (x, y, z) in the grid."""
        return _unlinear(self.slots, self.grid)

    @cached_property
    def ctaid(self) -> tuple[Ints, ...]:
        return tuple(axis[self.lane_cta] for axis in self.cta_xyz)

    @cached_property
    def cta_rank(self) -> Ints:
        """Each slot's rank in its cluster."""
        x, y, z = self.cta_xyz
        cx, cy, cz = self.cluster
        return (x % cx) + cx * ((y % cy) + cy * (z % cz))

    @cached_property
    def _grid_cluster(self) -> Ints:
        x, y, z = self.cta_xyz
        nx, ny = self.grid[0] // self.cluster[0], self.grid[1] // self.cluster[1]
        return (x // self.cluster[0]) + nx * (
            (y // self.cluster[1]) + ny * (z // self.cluster[2])
        )

    @cached_property
    def cta_cluster(self) -> Ints:
        """Each slot's cluster, numbered within the wave."""
        return np.unique(self._grid_cluster, return_inverse=True)[1].reshape(-1)

    @cached_property
    def cluster_members(self) -> Ints:
        """[cluster of the wave, rank] -> slot."""
        members = np.zeros(
            (self.ctas // self.cluster_size, self.cluster_size), dtype=np.int64
        )
        members[self.cta_cluster, self.cta_rank] = np.arange(self.ctas)
        return members

    def describe_cta(self, slot: int) -> tuple[int, int, int]:
        x, y, z = self.cta_xyz
        return (int(x[slot]), int(y[slot]), int(z[slot]))

    def warp_of(self, lanes: Ints) -> Ints:
        """Wave-wide warp numbers."""
        return lanes // WARP

    def warpgroup_of(self, lanes: Ints) -> Ints:
        """Wave-wide warpgroup numbers (four consecutive warps of a CTA)."""
        return (
            self.lane_cta[lanes] * (-(-self.padded // WARPGROUP))
            + self.lane_tid[lanes] // WARPGROUP
        )
