"""Leaf scoring: the evaluator's ownership at each leaf, rounded to -1/0/+1 and summed over the region
(area scoring); `probe` leaves keep the unrounded sum. Every leaf of a tree is evaluated in batches.

Only the region's points count. Counting also the changes a line makes just outside the region (or
anywhere no other region claims) was tried and rejected: kata trees cut by depth and node budgets leave
threats unanswered, and the stones those threats would capture outside then inflate the counts."""
from __future__ import annotations

from typing import Sequence

import numpy as np

from tengen.endgame.evalcache import fresh_flags
from tengen.endgame.regions import Region
from tengen.endgame.tree import LocalNode
from tengen.go.grid import components, touching_colors
from tengen.go.scoring import benson_dead_stones


def rounded_count(ownership: np.ndarray, region: Region) -> int:
    """Sum over the region of ownership rounded to the nearest of -1, 0, +1."""
    own = np.clip(np.asarray(ownership, dtype=float), -1, 1)
    return int(sum(int(np.rint(own[p])) for p in region.points))


def unrounded_count(ownership: np.ndarray, region: Region) -> float:
    own = np.asarray(ownership, dtype=float)
    return float(sum(own[p] for p in region.points))


def _unscored(leaves: Sequence[LocalNode], region: Region) -> list[LocalNode]:
    """Count the leaves whose predictor left their ownership (kata's); the rest, probes included, still need one."""
    pending = []
    for leaf in leaves:
        if leaf.ownership is not None and leaf.kind != "probe":
            leaf.value = float(rounded_count(leaf.ownership, region))
        else:
            pending.append(leaf)
    return pending


def score_leaves_with_evaluator(leaves: Sequence[LocalNode], region: Region, evaluator, batch_size: int = 32) -> int:
    """Fill `value` on every leaf/probe node; returns the number of network evaluations made."""
    pending = _unscored(leaves, region)
    made = 0
    for start in range(0, len(pending), batch_size):
        chunk = pending[start:start + batch_size]
        evals = evaluator.evaluate([leaf.board for leaf in chunk])
        made += sum(fresh_flags(evaluator, len(chunk)))
        for leaf, ev in zip(chunk, evals):
            leaf.value = float(unrounded_count(ev.ownership, region) if leaf.kind == "probe" else rounded_count(ev.ownership, region))
    return made


DEFAULT_LEAF_CONFIDENCE = 0.2  # how far from the rounding edge (|ownership| = 0.5) every region point must be


def score_leaves_with_value_net(leaves: Sequence[LocalNode], region: Region, value_net, fallback,
                                confidence: float = DEFAULT_LEAF_CONFIDENCE, batch_size: int = 64) -> tuple[int, int]:
    """Fill `value` on every leaf/probe node with tengen's value network (rounded ownership over the region);
    a leaf where the network is unsure how a region point rounds (its |ownership| within `confidence` of 0.5,
    the edge between a point and none), a probe (unrounded count) and a board the network cannot take go to
    `fallback` (KataGo). Returns (fallback network evaluations, value-network evaluations)."""
    pending = _unscored(leaves, region)
    ours, unsure = [], []
    for leaf in pending:
        takes = leaf.kind != "probe" and (leaf.board.height, leaf.board.width) == (19, 19)
        (ours if takes else unsure).append(leaf)
    points = tuple(zip(*region.points)) if region.points else ((), ())
    for start in range(0, len(ours), batch_size):
        chunk = ours[start:start + batch_size]
        owns = value_net.ownership([leaf.board for leaf in chunk])
        for leaf, own in zip(chunk, owns):
            if len(points[0]) and float(np.abs(np.abs(own[points]) - 0.5).min()) < confidence:
                unsure.append(leaf)
            else:
                leaf.value = float(rounded_count(own, region))
    made = score_leaves_with_evaluator(unsure, region, fallback) if unsure else 0
    return made, len(ours)


def local_area_count(board, region: Region) -> int:
    """Area count of a settled region seen locally: region stones count for their color (unless Benson
    proves them dead), and each connected group of empty region points counts for a color when every
    stone it touches (inside the region or on its wall) is that color's; otherwise 0 (dame).

    Looking only inside the region is what makes local diagrams on an otherwise empty board countable:
    the open board outside never leaks into the count."""
    grid = board.array()
    for p in benson_dead_stones(board):
        if p in region.points:
            grid[p] = 0
    inside = np.zeros(grid.shape, dtype=bool)
    for p in region.points:
        inside[p] = True
    total = int(grid[inside].sum())
    for group in components(inside & (grid == 0)):
        colors = touching_colors(group, grid)
        if len(colors) == 1:
            total += colors.pop() * len(group)
    return total


def score_leaves_exactly(leaves: Sequence[LocalNode], region: Region) -> int:
    """Exact local area count for settled leaves (no evaluator); see `local_area_count`."""
    for leaf in leaves:
        leaf.value = float(local_area_count(leaf.board, region))
    return 0
