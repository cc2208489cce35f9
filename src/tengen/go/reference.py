"""A readable pure-Python board: the reference the native board is tested against (never used in hot paths).

Everything is recomputed by flood fill from the stone array, so it is slow and obviously right.
"""
from __future__ import annotations

from typing import Optional

import numpy as np

from tengen.go.colors import BLACK, EMPTY, WHITE
from tengen.go.coords import Move, Point, neighbours


class ReferenceBoard:
    """Stones, simple ko, optional suicide; `play` returns captures or raises ValueError(reason)."""

    def __init__(self, width: int, height: Optional[int] = None, suicide: bool = False):
        self.width, self.height = width, height or width
        self.grid = np.zeros((self.height, self.width), dtype=np.int8)
        self.ko: Optional[tuple[Point, int]] = None
        self.suicide = suicide
        self.captures = {BLACK: 0, WHITE: 0}

    def neighbours(self, p: Point) -> list[Point]:
        return neighbours(p, self.height, self.width)

    def chain_and_liberties(self, p: Point) -> tuple[set[Point], set[Point]]:
        color = self.grid[p]
        chain, libs, todo = {p}, set(), [p]
        while todo:
            q = todo.pop()
            for n in self.neighbours(q):
                if self.grid[n] == EMPTY:
                    libs.add(n)
                elif self.grid[n] == color and n not in chain:
                    chain.add(n)
                    todo.append(n)
        return chain, libs

    def legality(self, color: int, p: Move) -> Optional[str]:
        if p is None:
            return None
        if self.grid[p] != EMPTY:
            return "occupied"
        if self.ko is not None and self.ko == (p, color):
            return "ko"
        trial = ReferenceBoard(self.width, self.height, self.suicide)
        trial.grid = self.grid.copy()
        captured = trial._place(color, p)
        if not captured and not trial.chain_and_liberties(p)[1] and not self.suicide:
            return "suicide"
        return None

    def _place(self, color: int, p: Point) -> list[Point]:
        self.grid[p] = color
        captured: list[Point] = []
        for n in self.neighbours(p):
            if self.grid[n] == -color:
                chain, libs = self.chain_and_liberties(n)
                if not libs:
                    for s in chain:
                        self.grid[s] = EMPTY
                    captured.extend(chain)
        return captured

    def play(self, color: int, p: Move) -> list[Point]:
        reason = self.legality(color, p)
        if reason:
            raise ValueError(reason)
        if p is None:
            self.ko = None
            return []
        captured = self._place(color, p)
        self.captures[color] += len(captured)
        chain, libs = self.chain_and_liberties(p)
        self.ko = None
        if len(captured) == 1 and len(chain) == 1 and len(libs) == 1:
            self.ko = (captured[0], -color)
        if not libs:  # suicide, where allowed
            for s in chain:
                self.grid[s] = EMPTY
            self.captures[-color] += len(chain)
            captured = captured + sorted(chain)
        return captured
