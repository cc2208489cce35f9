"""Leaf scoring: the evaluator's ownership at each leaf, rounded to -1/0/+1 and summed over the region
(area scoring); `probe` leaves keep the unrounded sum. Every leaf of a tree is evaluated in batches."""
from __future__ import annotations

from typing import Sequence

import numpy as np

from tengen.endgame.regions import Region
from tengen.endgame.tree import LocalNode
from tengen.go.scoring import area_ownership, benson_dead_stones


def rounded_count(ownership: np.ndarray, region: Region) -> int:
    """Sum over the region of ownership rounded to the nearest of -1, 0, +1."""
    own = np.clip(np.asarray(ownership, dtype=float), -1, 1)
    return int(sum(int(np.rint(own[p])) for p in region.points))


def unrounded_count(ownership: np.ndarray, region: Region) -> float:
    own = np.asarray(ownership, dtype=float)
    return float(sum(own[p] for p in region.points))


def score_leaves_with_evaluator(leaves: Sequence[LocalNode], region: Region, evaluator, batch_size: int = 32) -> int:
    """Fill `value` on every leaf/probe node; returns the number of network evaluations made."""
    pending = []
    for leaf in leaves:
        own = getattr(leaf, "extras_ownership", None)
        if own is not None and leaf.kind == "leaf":
            leaf.value = float(rounded_count(own, region))
        else:
            pending.append(leaf)
    for start in range(0, len(pending), batch_size):
        chunk = pending[start:start + batch_size]
        evals = evaluator.evaluate([leaf.board for leaf in chunk])
        for leaf, ev in zip(chunk, evals):
            leaf.value = float(rounded_count(ev.ownership, region) if leaf.kind == "leaf" else unrounded_count(ev.ownership, region))
    return len(pending)


def score_leaves_exactly(leaves: Sequence[LocalNode], region: Region) -> int:
    """Exact area count over the region for settled leaves of sealed regions (no evaluator): stones and
    empty points that reach one colour only, after removing stones Benson proves dead."""
    for leaf in leaves:
        own = area_ownership(leaf.board, benson_dead_stones(leaf.board))
        leaf.value = float(sum(int(own[p]) for p in region.points))
    return 0
