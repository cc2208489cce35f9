"""Decomposition: which points are still undecided, grouped into local regions.

A point is undecided when its ownership lies strictly between -threshold and +threshold; undecided
points form 4-connected components, each a region. Small or quiet regions are kept and flagged, never
hidden. A user-given mask overrides the decomposition (a single point names the region containing it).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable, Optional

import numpy as np

from tengen.endgame.notes import Note
from tengen.go.coords import Point, neighbours
from tengen.go.grid import components

DEFAULT_THRESHOLD = 0.9
DEFAULT_HOT_SWING = 0.4  # a point is hot when who moves first changes its ownership by this much


@dataclass(frozen=True)
class Region:
    """A set of board points analyzed as one local game."""

    id: int
    points: frozenset[Point]
    source: str = "ownership"  # "ownership" or "mask"
    notes: tuple[str, ...] = field(default=())

    def __len__(self) -> int:
        return len(self.points)

    def mask(self, height: int, width: int) -> np.ndarray:
        m = np.zeros((height, width), dtype=bool)
        for p in self.points:
            m[p] = True
        return m

    def neighbourhood(self, height: int, width: int, radius: int = 1) -> frozenset[Point]:
        """The region plus every point within `radius` steps (where local replies may also stand)."""
        grown = set(self.points)
        frontier = set(self.points)
        for _ in range(radius):
            nxt = set()
            for p in frontier:
                for n in neighbours(p, height, width):
                    if n not in grown:
                        nxt.add(n)
            grown |= nxt
            frontier = nxt
        return frozenset(grown)

    def sorted_points(self) -> list[Point]:
        return sorted(self.points)


def agreed_ownership(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """Ownership that holds whoever moves next: the weaker of two same-sign values, 0 where they disagree.

    `first` and `second` are the evaluator's ownership with Black and with White to move. A point the
    side to move would simply take (a hot point) looks owned in either map alone; only the agreement of
    both shows it as undecided, which is what a region of the local game must contain."""
    a, b = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    weaker = np.where(np.abs(a) < np.abs(b), a, b)
    return np.where(np.sign(a) == np.sign(b), weaker, 0.0)


def undecided_mask(ownership: np.ndarray, threshold: float = DEFAULT_THRESHOLD) -> np.ndarray:
    """Points with -threshold < ownership < threshold."""
    return np.abs(np.asarray(ownership, dtype=float)) < threshold


def dilate(mask: np.ndarray, steps: int) -> np.ndarray:
    """Grow a mask by `steps` 4-neighbour steps (the optional margin around regions)."""
    m = mask.copy()
    for _ in range(steps):
        g = m.copy()
        g[1:, :] |= m[:-1, :]
        g[:-1, :] |= m[1:, :]
        g[:, 1:] |= m[:, :-1]
        g[:, :-1] |= m[:, 1:]
        m = g
    return m


def find_regions(ownership: np.ndarray, threshold: float = DEFAULT_THRESHOLD, margin: int = 0,
                 min_size: int = 1) -> list[Region]:
    """Regions of undecided points. Components smaller than `min_size` are still returned, with a note."""
    mask = undecided_mask(ownership, threshold)
    if margin:
        mask = dilate(mask, margin)
    regions = []
    for i, comp in enumerate(components(mask)):
        notes = () if len(comp) >= min_size else (f"smaller than {min_size} points",)
        regions.append(Region(i, frozenset(comp), "ownership", notes))
    return regions


def keep_and_find(ownership: np.ndarray, kept: Iterable[frozenset], threshold: float = DEFAULT_THRESHOLD,
                  margin: int = 0, find: Optional[Callable[[np.ndarray], list[Region]]] = None) -> list[Region]:
    """Regions when the point sets `kept` stay regions as they are (a review keeps the regions a move did not
    come near: the network's ownership of far points moves a little between positions, which would redraw
    their borders and cost their trees): the rest of the board is decomposed as usual (`find`, default
    `find_regions`) with the kept points counted as settled. Regions are numbered in board order."""
    kept = [frozenset(points) for points in kept if points]
    covered = frozenset().union(*kept) if kept else frozenset()
    masked = np.array(ownership, dtype=float)
    for p in covered:
        masked[p] = 1.0
    found = find(masked) if find is not None else find_regions(masked, threshold, margin)
    parts = [(points, "ownership", (Note("kept", "kept from the previous position: the move did not come near it"),))
             for points in kept]
    parts += [(r.points - covered, r.source, r.notes) for r in found if r.points - covered]
    parts.sort(key=lambda part: min(part[0]))
    return [Region(i, points, source, notes) for i, (points, source, notes) in enumerate(parts)]


def ownership_swing(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """How much each point's ownership depends on who moves first (Black-first minus White-first, absolute)."""
    return np.abs(np.asarray(first, dtype=float) - np.asarray(second, dtype=float))


def split_hot_spots(regions: Iterable[Region], swing: np.ndarray, hot: float = DEFAULT_HOT_SWING) -> list[Region]:
    """Split each region that holds several separate hot spots into one region per spot.

    Undecided points whose owner does not depend on who moves (a corner the network is merely unsure of)
    can join two fights into one component; its local game is then a sum, whose tree grows as the product
    of the parts and whose move choice lets one fight's moves crowd out the other's replies. Hot points
    (swing >= `hot`) within two steps of each other form one spot; every other point joins the nearest spot
    (ties to the hotter one). A region with at most one spot is kept whole. Ids are renumbered."""
    out: list[Region] = []
    for region in regions:
        parts = _hot_spot_parts(region, swing, hot)
        notes = region.notes + ((Note("split", "split from a region with several hot spots"),) if len(parts) > 1 else ())
        for part in parts:
            out.append(Region(len(out), part, region.source, notes if len(parts) > 1 else region.notes))
    return out


def _hot_spot_parts(region: Region, swing: np.ndarray, hot: float) -> list[frozenset[Point]]:
    h, w = swing.shape
    hot_points = [p for p in sorted(region.points) if swing[p] >= hot]
    spots: list[set[Point]] = []
    for p in hot_points:  # join p to every spot with a hot point within two steps (inside the region)
        near = _within(p, 2, region.points, h, w)
        touching = [s for s in spots if s & near]
        merged = {p}.union(*touching)
        spots = [s for s in spots if not any(s is t for t in touching)] + [merged]
    if len(spots) <= 1:
        return [region.points]
    spots.sort(key=lambda s: (-sum(float(swing[p]) for p in s), min(s)))
    return _nearest_spot(region.points, [frozenset(s) for s in spots], h, w)


def _within(point: Point, steps: int, points: frozenset[Point], h: int, w: int) -> set[Point]:
    """Points of `points` reachable from `point` in at most `steps` steps through `points`."""
    seen, frontier = {point}, [point]
    for _ in range(steps):
        frontier = [n for p in frontier for n in neighbours(p, h, w) if n in points and n not in seen]
        seen.update(frontier)
    return seen


def _nearest_spot(points: frozenset[Point], spots: list[frozenset[Point]], h: int, w: int) -> list[frozenset[Point]]:
    """Breadth-first growth of every spot inside `points`, one step at a time; earlier spots win ties."""
    owner = {p: i for i, spot in enumerate(spots) for p in spot}
    frontiers = [sorted(spot) for spot in spots]
    while any(frontiers):
        grown = []
        for i, frontier in enumerate(frontiers):
            nxt = []
            for p in frontier:
                for n in neighbours(p, h, w):
                    if n in points and n not in owner:
                        owner[n] = i
                        nxt.append(n)
            grown.append(nxt)
        frontiers = grown
    parts = [set() for _ in spots]
    for p in points:
        parts[owner.get(p, 0)].add(p)
    return [frozenset(part) for part in parts]


def region_from_points(points: Iterable[Point], ownership: Optional[np.ndarray] = None,
                       threshold: float = DEFAULT_THRESHOLD, region_id: int = 0) -> Region:
    """A user-named region. A single point grows to the undecided component that contains it (when
    ownership is known); several points are taken exactly as given."""
    pts = sorted(set(points))
    if not pts:
        raise ValueError("an empty region mask")
    if len(pts) == 1 and ownership is not None:
        mask = undecided_mask(ownership, threshold)
        if mask[pts[0]]:
            for comp in components(mask):
                if pts[0] in comp:
                    return Region(region_id, frozenset(comp), "mask", ("grown from one point by ownership",))
    return Region(region_id, frozenset(pts), "mask")


def sure_territory(ownership: np.ndarray, regions: Iterable[Region], threshold: float = DEFAULT_THRESHOLD) -> float:
    """Area count of everything outside the regions: each decided point counts its rounded owner."""
    own = np.asarray(ownership, dtype=float)
    outside = np.ones(own.shape, dtype=bool)
    for reg in regions:
        for p in reg.points:
            outside[p] = False
    rounded = np.where(own >= threshold, 1, np.where(own <= -threshold, -1, np.rint(own)))
    return float(rounded[outside].sum())


def wall_stones(region: Region, grid: np.ndarray) -> list[Point]:
    """Stones outside the region that touch it: the walls a local count relies on."""
    h, w = grid.shape
    walls = set()
    for p in region.points:
        for n in neighbours(p, h, w):
            if n not in region.points and grid[n] != 0:
                walls.add(n)
    return sorted(walls)


def unsure_walls(region: Region, grid: np.ndarray, ownership: np.ndarray, threshold: float = DEFAULT_THRESHOLD) -> list[Point]:
    """Wall stones the evaluator does not see as safely their owner's (|ownership| < threshold or the
    wrong sign): where these are, a count from the network's view of the surroundings is unreliable."""
    return [p for p in wall_stones(region, grid) if ownership[p] * grid[p] < threshold]
