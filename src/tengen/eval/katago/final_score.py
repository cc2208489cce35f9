"""Score a finished game from a network's ownership map: dead stones, seki, and the count (`tengen score`).

A stone is dead when the ownership at its point belongs to the other colour by more than `dead`. The
position is then counted under the board's rules: area = stones + single-colour regions; territory =
empty points (and dead stones) of single-colour regions + prisoners + dead stones, leaving out points
whose ownership is below `seki` in size (seki eyes and shared liberties count for nobody).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tengen.go import BLACK, WHITE
from tengen.go.coords import Point
from tengen.go.scoring import area_ownership


@dataclass(frozen=True)
class FinalScore:
    """Black's margin after komi (and handicap compensation), with the stones counted as dead."""

    margin: float
    black: float
    white: float
    dead: tuple[Point, ...]

    def result_string(self) -> str:
        """'B+3.5', 'W+0.5' or '0'."""
        if self.margin == 0:
            return "0"
        return f"{'B' if self.margin > 0 else 'W'}+{abs(self.margin):g}"


def dead_stones(board, ownership: np.ndarray, dead: float = 0.5) -> list[Point]:
    """Stones whose point the network gives to the other colour by more than `dead`."""
    grid = board.array()
    mask = (grid != 0) & (ownership * grid < -dead)
    return [(int(r), int(c)) for r, c in np.argwhere(mask)]


def score_final_position(board, ownership: np.ndarray, dead: float = 0.5, seki: float = 0.3,
                         handicap: int = 0) -> FinalScore:
    """Count `board` under its rules with the dead stones the ownership map implies.

    `handicap`: handicap stones, for the area-scoring compensation the rules give White
    (`Rules.white_handicap_bonus`: 2 = N points, 1 = N - 1, 0 = none).
    """
    grid = board.array()
    dead_pts = dead_stones(board, ownership, dead)
    dead_mask = np.zeros(grid.shape, dtype=bool)
    for p in dead_pts:
        dead_mask[p] = True
    own = area_ownership(board, dead_pts)
    rules = board.rules
    komi = float(rules.komi)
    if rules.scoring == "territory":
        counted = ((grid == 0) | dead_mask) & (np.abs(ownership) >= seki)
        caps = board.captures
        black = float(((own == BLACK) & counted).sum() + (dead_mask & (grid == WHITE)).sum() + caps[BLACK])
        white = float(((own == WHITE) & counted).sum() + (dead_mask & (grid == BLACK)).sum() + caps[WHITE])
    else:
        bonus = getattr(rules, "white_handicap_bonus", 0)
        if handicap > 1 and bonus:
            komi += handicap if bonus == 2 else handicap - 1
        black, white = float((own == BLACK).sum()), float((own == WHITE).sum())
    return FinalScore(black - white - komi, black, white, tuple(dead_pts))
