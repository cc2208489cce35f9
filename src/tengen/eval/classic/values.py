"""Move values from influence, without search: a one-ply influence thermograph {L | R} per point (the
count after Black plays there, after White plays there), batched through the influence model. It values
the open board's moves and, beyond the exact valuer's cap, a sealed region (the heuristic value)."""
from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

from tengen.eval.classic.config import ClassicConfig
from tengen.eval.classic.judges import RegionValue
from tengen.eval.classic.policy import GOTE, NUMBER
from tengen.eval.influence import influence_map
from tengen.go.colors import BLACK, WHITE
from tengen.go.coords import Point


def influence_ownership(grid: np.ndarray, influence: np.ndarray, full: float) -> np.ndarray:
    """Ownership read from influence: stones their colour, empty points influence / `full`, clipped to [-1, 1]."""
    own = np.clip(influence.astype(np.float32) / full, -1.0, 1.0)
    return np.where(grid != 0, grid.astype(np.float32), own)


def one_ply_counts(grid: np.ndarray, points: Sequence[Point], config: ClassicConfig,
                   mask: Optional[np.ndarray] = None) -> tuple[np.ndarray, np.ndarray]:
    """For each point: the influence count (over `mask`, default the whole board) after a Black stone
    there, and after a White one (no captures: the atari and life stages value those)."""
    if not points:
        return np.zeros(0), np.zeros(0)
    n = len(points)
    batch = np.repeat(grid[None, :, :].astype(np.int8), 2 * n, axis=0)
    for i, p in enumerate(points):
        batch[i][p] = BLACK
        batch[n + i][p] = WHITE
    own = influence_ownership(batch, influence_map(batch, config.influence), config.influence_full)
    if mask is not None:
        own = own * mask[None, :, :]
    counts = own.reshape(2 * n, -1).sum(axis=1)
    # a stone dropped where the opponent's influence is already sure dies there: the move changes nothing
    before = influence_ownership(grid, influence_map(grid, config.influence), config.influence_full)
    now = float((before if mask is None else before * mask).sum())
    for i, p in enumerate(points):
        if before[p] <= -config.sure:
            counts[i] = now
        if before[p] >= config.sure:
            counts[n + i] = now
    return counts[:n], counts[n:]


def open_move_values(grid: np.ndarray, points: Sequence[Point], config: ClassicConfig) -> dict[Point, float]:
    """Each point's gote temperature by the one-ply influence look: (count after Black - after White) / 2,
    times `influence_weight`."""
    black, white = one_ply_counts(grid, points, config)
    return {p: config.influence_weight * float(b - w) / 2 for p, b, w in zip(points, black, white)}


def heuristic_region_value(grid: np.ndarray, points: Sequence[Point], config: ClassicConfig) -> RegionValue:
    """A sealed region beyond the exact valuer: {best Black count | best White count} over its empty points
    (counts over the region only), a gote; a region without an empty point is a number."""
    h, w = grid.shape
    mask = np.zeros((h, w), dtype=np.float32)
    for p in points:
        mask[p] = 1.0
    empty = [p for p in points if grid[p] == 0]
    base = influence_ownership(grid, influence_map(grid, config.influence), config.influence_full)
    now = float((base * mask).sum())
    if not empty:
        return RegionValue(now, -1.0, NUMBER, notes=["heuristic: no empty point"])
    black, white = one_ply_counts(grid, empty, config, mask)
    bi, wi = int(np.argmax(black)), int(np.argmin(white))
    left, right = float(black[bi]), float(white[wi])
    if left < right:  # moving makes things worse for both: cold, valued as it stands
        return RegionValue(now, -1.0, NUMBER, notes=["heuristic: cold"])
    best_black = [empty[i] for i in np.argsort(-black, kind="stable")[:3]]
    best_white = [empty[i] for i in np.argsort(white, kind="stable")[:3]]
    return RegionValue((left + right) / 2, config.influence_weight * (left - right) / 2, GOTE, best_black, best_white,
                       notes=["heuristic: one-ply influence thermograph"])
