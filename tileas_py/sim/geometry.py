"""Launch geometry: which CTA, cluster, warp and lane each simulated thread is.

Threads are numbered grid-wide: CTA `c` (linear, x fastest) owns threads
`c * padded .. c * padded + block - 1`, where `padded` rounds the CTA's thread count up to a
whole number of warps; the padding lanes never run. A cluster's CTAs are ranked x fastest
within the cluster, as `%cluster_ctarank` is.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

Dim3 = tuple[int, int, int]
WARP = 32


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


def _count(d: Dim3) -> int:
    return d[0] * d[1] * d[2]


def _unlinear(
    index: npt.NDArray[np.int64], dims: Dim3
) -> tuple[npt.NDArray[np.int64], ...]:
    x = index % dims[0]
    y = (index // dims[0]) % dims[1]
    z = index // (dims[0] * dims[1])
    return x, y, z


@dataclass(frozen=True)
class Geometry:
    grid: Dim3
    block: Dim3
    cluster: Dim3

    @property
    def ctas(self) -> int:
        return _count(self.grid)

    @property
    def threads_per_cta(self) -> int:
        return _count(self.block)

    @property
    def padded(self) -> int:
        return -(-self.threads_per_cta // WARP) * WARP

    @property
    def lanes(self) -> int:
        """Simulated threads, padding lanes included."""
        return self.ctas * self.padded

    @property
    def cluster_size(self) -> int:
        return _count(self.cluster)

    @cached_property
    def lane_cta(self) -> npt.NDArray[np.int64]:
        return np.arange(self.lanes, dtype=np.int64) // self.padded

    @cached_property
    def lane_tid(self) -> npt.NDArray[np.int64]:
        """The thread's linear index in its CTA."""
        return np.arange(self.lanes, dtype=np.int64) % self.padded

    @cached_property
    def live(self) -> npt.NDArray[np.bool_]:
        """Lanes that are real threads (not warp padding)."""
        return self.lane_tid < self.threads_per_cta

    @cached_property
    def tid(self) -> tuple[npt.NDArray[np.int64], ...]:
        return _unlinear(self.lane_tid, self.block)

    @cached_property
    def cta_xyz(self) -> tuple[npt.NDArray[np.int64], ...]:
        """Each CTA's (x, y, z) index, by CTA."""
        return _unlinear(np.arange(self.ctas, dtype=np.int64), self.grid)

    @cached_property
    def ctaid(self) -> tuple[npt.NDArray[np.int64], ...]:
        return tuple(axis[self.lane_cta] for axis in self.cta_xyz)

    @cached_property
    def cta_rank(self) -> npt.NDArray[np.int64]:
        """Each CTA's rank in its cluster, by CTA."""
        x, y, z = self.cta_xyz
        cx, cy, cz = self.cluster
        return (x % cx) + cx * ((y % cy) + cy * (z % cz))

    @cached_property
    def cta_cluster(self) -> npt.NDArray[np.int64]:
        """Each CTA's cluster, linear over the grid of clusters, by CTA."""
        x, y, z = self.cta_xyz
        nx, ny = self.grid[0] // self.cluster[0], self.grid[1] // self.cluster[1]
        return (x // self.cluster[0]) + nx * (
            (y // self.cluster[1]) + ny * (z // self.cluster[2])
        )

    @cached_property
    def cluster_members(self) -> npt.NDArray[np.int64]:
        """[cluster, rank] -> CTA."""
        members = np.zeros(
            (self.ctas // self.cluster_size, self.cluster_size), dtype=np.int64
        )
        members[self.cta_cluster, self.cta_rank] = np.arange(self.ctas)
        return members

    def describe_cta(self, cta: int) -> tuple[int, int, int]:
        x, y, z = self.cta_xyz
        return (int(x[cta]), int(y[cta]), int(z[cta]))

    def warp_of(self, lanes: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """Grid-wide warp numbers."""
        return lanes // WARP

    def warpgroup_of(self, lanes: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """Grid-wide warpgroup numbers (four consecutive warps of a CTA)."""
        return (
            self.lane_cta[lanes] * (-(-self.padded // 128))
            + self.lane_tid[lanes] // 128
        )
