"""Region results kept between the analyses of one game's positions, so that a review costs about one
region per move instead of a whole board.

Between consecutive positions a move changes the stones of one region (and of any region it merges with
or splits from); the other regions' local games are the same, which is the assumption the whole CGT
method rests on (a region's value does not depend on the rest of the board). A region is looked up by its
points, the stones on them and within `RADIUS` points around them (its walls and their liberties), the
ko ban when it lies there, and the analysis settings; not by the side to move (a local game is valued
for both sides alike) nor by stones far away.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Hashable, Optional

from tengen.endgame.regions import Region
from tengen.endgame.results import RegionResult
from tengen.go.board import Board
from tengen.lru import LruCache

RADIUS = 2  # the walls and the points next to them: what the region's lines capture or are captured by


class RegionCache:
    """An LRU store of `RegionResult`s by region key; `hits` and `misses` count the lookups."""

    def __init__(self, capacity: int = 4096):
        self._store: LruCache[RegionResult] = LruCache(capacity)
        self.hits = 0
        self.misses = 0

    @staticmethod
    def key(board: Board, region: Region, settings: str) -> Hashable:
        around = region.neighbourhood(board.height, board.width, RADIUS)
        grid = board.array()
        stones = tuple(sorted((p, int(grid[p])) for p in around if grid[p]))
        ko = board.ko if board.ko is not None and board.ko[0] in around else None
        return region.points, stones, ko, board.rules, settings

    def get(self, board: Board, region: Region, settings: str) -> Optional[RegionResult]:
        """The result stored for this region and surroundings, relabelled as `region` (no evaluations or
        seconds spent on it now), or None."""
        found = self._store.get(self.key(board, region, settings))
        if found is None:
            self.misses += 1
            return None
        self.hits += 1
        return replace(found, region=region, evaluations=0, seconds=0.0, notes=list(found.notes), reused=True)

    def put(self, board: Board, result: RegionResult, settings: str) -> None:
        """Store a copy of `result` (its own notes list: notes the analysis adds later are not kept)."""
        self._store.put(self.key(board, result.region, settings), replace(result, notes=list(result.notes)))
