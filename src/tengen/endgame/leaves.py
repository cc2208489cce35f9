"""Leaf scoring: the evaluator's ownership at each leaf, rounded to -1/0/+1 and summed over the region
(area scoring); `probe` leaves keep the unrounded sum. Every leaf of a tree is evaluated in batches. Or,
without a network: the exact local area count of a settled leaf, or the exact solver's count of the leaf's
local game (its mean: how a textbook counts a position that still has moves left).

Only the region's points count. Counting also the changes a line makes just outside the region (or
anywhere no other region claims) was tried and rejected: kata trees cut by depth and node budgets leave
threats unanswered, and the stones those threats would capture outside then inflate the counts."""
from __future__ import annotations

from collections import Counter
from typing import Optional, Sequence

import numpy as np

from tengen.endgame.evalcache import fresh_flags
from tengen.phases import note, phase
from tengen.endgame.regions import Region
from tengen.endgame.tree import LocalNode
from tengen.go.benson import unconditional_life
from tengen.go.grid import components, touching_colors
from tengen.go.scoring import benson_dead_stones


def rounded_count(ownership: np.ndarray, region: Region) -> int:
    """Sum over the region of ownership rounded to the nearest of -1, 0, +1."""
    own = np.clip(np.asarray(ownership, dtype=float), -1, 1)
    return int(sum(int(np.rint(own[p])) for p in region.points))


def unrounded_count(ownership: np.ndarray, region: Region) -> float:
    own = np.asarray(ownership, dtype=float)
    return float(sum(own[p] for p in region.points))


LeafJob = tuple[LocalNode, Region]  # a leaf and the region whose points its count sums


def _unscored(jobs: Sequence[LeafJob]) -> list[LeafJob]:
    """Count the leaves whose predictor left their ownership (kata's); the rest, probes included, still need one."""
    pending = []
    for leaf, region in jobs:
        if leaf.ownership is not None and leaf.kind != "probe":
            leaf.value = float(rounded_count(leaf.ownership, region))
        else:
            pending.append((leaf, region))
    return pending


def _charge(made: Counter, jobs: Sequence[LeafJob], fresh: Sequence[bool]) -> None:
    for (_, region), new in zip(jobs, fresh):
        made[region.id] += int(new)


def score_jobs_with_evaluator(jobs: Sequence[LeafJob], evaluator, batch_size: int = 32) -> Counter:
    """Fill `value` on every leaf/probe node of `jobs` (any mix of regions, evaluated together); returns the
    network evaluations made, by region id (cache hits are free)."""
    pending = _unscored(jobs)
    made: Counter = Counter()
    for start in range(0, len(pending), batch_size):
        chunk = pending[start:start + batch_size]
        evals = evaluator.evaluate([leaf.board for leaf, _ in chunk])
        _charge(made, chunk, fresh_flags(evaluator, len(chunk)))
        for (leaf, region), ev in zip(chunk, evals):
            leaf.value = float(unrounded_count(ev.ownership, region) if leaf.kind == "probe"
                               else rounded_count(ev.ownership, region))
    return made


DEFAULT_LEAF_CONFIDENCE = 0.2  # how far from the rounding edge (|ownership| = 0.5) every region point must be


def score_jobs_with_value_net(jobs: Sequence[LeafJob], value_net, fallback,
                              confidence: float = DEFAULT_LEAF_CONFIDENCE, batch_size: int = 64) -> tuple[Counter, int]:
    """Fill `value` on every leaf/probe node of `jobs` (any mix of regions) with tengen's value network
    (rounded ownership over the leaf's region); a leaf where the network is unsure how a region point rounds
    (its |ownership| within `confidence` of 0.5, the edge between a point and none), a probe (unrounded
    count) and a board the network cannot take go to `fallback` (KataGo), all in one pass. Returns
    (fallback network evaluations by region id, value-network evaluations); the running phase clock counts
    the deferrals by cause."""
    pending = _unscored(jobs)
    ours, unsure = [], []
    for leaf, region in pending:
        takes = leaf.kind != "probe" and (leaf.board.height, leaf.board.width) == (19, 19)
        (ours if takes else unsure).append((leaf, region))
    note("leaves deferred: probe or board size", len(unsure))
    for start in range(0, len(ours), batch_size):
        chunk = ours[start:start + batch_size]
        with phase("valuenet", rows=len(chunk)):
            owns = value_net.ownership([leaf.board for leaf, _ in chunk])
        for (leaf, region), own in zip(chunk, owns):
            doubtful = [p for p in region.points if abs(abs(float(own[p])) - 0.5) < confidence]
            owners = _benson_owners(leaf.board, doubtful) if doubtful else {}
            if owners is None:
                unsure.append((leaf, region))
                note("leaves deferred: a region point near |ownership| 0.5")
                _note_doubts(leaf.board, doubtful, _last_point(leaf))
                continue
            if owners:
                own = own.copy()
                for p, owner in owners.items():
                    own[p] = owner
            leaf.value = float(rounded_count(own, region))
    made = score_jobs_with_evaluator(unsure, fallback) if unsure else Counter()
    return made, len(ours)


def _last_point(leaf: LocalNode) -> Optional[tuple]:
    """The point of the line's last local move (None at the root or for a pass or threat stand-in)."""
    point = leaf.history[-1][1] if leaf.history else None
    return point if point is not None and point[0] >= 0 else None


def _benson_owners(board, doubtful: Sequence) -> Optional[dict]:
    """The owner (+1 / -1) of every doubtful point when Benson's unconditional life decides them all (a
    pass-alive chain, or a point of the area it makes safe): the rules, not a network, then count them.
    None when some point is left open. (On the speed bench's sixteen positions it decided none: the doubtful points are
    open boundaries next to the line's last moves.)"""
    life = unconditional_life(board)
    if any(life[p] == 0 for p in doubtful):
        return None
    note("leaves decided by Benson (no deferral)")
    return {p: float(life[p]) for p in doubtful}


def _note_doubts(board, doubtful: Sequence, last: Optional[tuple] = None) -> None:
    """Count what the doubtful points of a deferred leaf are: open points (touching both colours, one,
    or none) or stones (by their chain's liberties), and how far they lie from the line's last move, for
    the speed bench's 'why'."""
    grid = board.array()
    h, w = grid.shape
    for r, c in doubtful:
        if last is not None:
            steps = abs(r - last[0]) + abs(c - last[1])
            note(f"doubtful point at distance {min(steps, 4)}{'+' if steps >= 4 else ''} from the line's last move")
        if grid[r, c]:
            libs = board.liberties((r, c))
            note("doubtful point: a stone in atari" if libs == 1 else
                 f"doubtful point: a stone with {min(libs, 3)}{'+' if libs >= 3 else ''} liberties")
            continue
        near = {int(grid[rr, cc]) for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                if 0 <= rr < h and 0 <= cc < w and grid[rr, cc]}
        note("doubtful point: an empty point touching " + ("both colours" if len(near) == 2 else
                                                          "one colour" if near else "no stone"))


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


def score_jobs_exactly(jobs: Sequence[LeafJob]) -> Counter:
    """Exact local area count for settled leaves (no evaluator; no network rows); see `local_area_count`."""
    for leaf, region in jobs:
        leaf.value = float(local_area_count(leaf.board, region))
    return Counter()


LEAF_SOLVER_NODES = 300_000  # positions the exact solver may spend on one leaf (a count: results must not depend on load)


def score_jobs_by_solver(jobs: Sequence[LeafJob], max_nodes: int = LEAF_SOLVER_NODES) -> tuple[Counter, list[LeafJob]]:
    """Each leaf of a marked region (a user's mask: SQ[] or a given region) is counted by the mean of its local
    game, solved by the exact solver within `max_nodes` positions under the marked diagram's conventions, as at
    the root. Returns how many leaves were solved by region id, and the jobs left for another scoring: leaves of
    regions found from ownership (on a whole board the network's view of life outside a region is better than
    the local game's), leaves the solver declines (too large, a loop it cannot value) and probes."""
    from tengen.endgame.cgt_bridge import solve_exhaustively
    from tengen.endgame.exact import ExhaustiveConfig

    config = ExhaustiveConfig(max_nodes=max_nodes, seconds=None)
    solved: Counter = Counter()
    rest: list[LeafJob] = []
    for leaf, region in jobs:
        result = None
        if leaf.kind != "probe" and region.source == "mask":
            with phase("leaf solver"):
                result = solve_exhaustively(leaf.board, region, None, config)
        if result is not None and result.method == "exhaustive" and result.count is not None:
            leaf.value = float(result.count)
            solved[region.id] += 1
        else:
            rest.append((leaf, region))
    return solved, rest
