"""Score a finished game from a network's ownership map: dead stones, seki, and the count (`tengen score`).

A stone is dead when the ownership at its point belongs to the other color by more than `dead`. The
position is then counted under the board's rules: area = stones + single-color regions; territory =
empty points (and dead stones) of single-color regions + prisoners + dead stones, leaving out points
next to a chain in seki (one that cannot fill a shared liberty without self-atari) and points whose
ownership is below `seki` in size.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from tengen.go import BLACK, WHITE, IllegalMove
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
    """Stones whose point the network gives to the other color by more than `dead`."""
    grid = board.array()
    mask = (grid != 0) & (ownership * grid < -dead)
    return [(int(r), int(c)) for r, c in np.argwhere(mask)]


def seki_chains(board, dead: list[Point]) -> np.ndarray:
    """bool (height, width): stones of chains in seki once `dead` stones are removed.

    A living chain that cannot fill a shared liberty (an empty point next to both colors) without being
    left with at most one liberty lives only because the opponent cannot fill it either: it is in seki.
    """
    work = board.copy()
    grid = work.array()
    for p in dead:
        grid[p] = 0
    work.set_array(grid)
    h, w = grid.shape
    seki = np.zeros((h, w), dtype=bool)
    for r in range(h):
        for c in range(w):
            if grid[r, c] != 0:
                continue
            near = [(rr, cc) for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                    if 0 <= rr < h and 0 <= cc < w]
            colors = {int(grid[p]) for p in near} - {0}
            if colors != {BLACK, WHITE}:
                continue
            for color in (BLACK, WHITE):
                if _self_atari(work, color, (r, c)):
                    for p in near:
                        if grid[p] == color:
                            for q in work.chain(p):
                                seki[q] = True
    return seki


def _self_atari(board, color: int, point: Point) -> bool:
    try:
        board.play(color, point)
    except IllegalMove:
        return True
    libs = board.liberties(point)
    board.undo()
    return libs <= 1


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
        counted = ((grid == 0) | dead_mask) & (np.abs(ownership) >= seki) & ~_seki_regions(board, own, dead_pts)
        caps = board.captures
        black = float(((own == BLACK) & counted).sum() + (dead_mask & (grid == WHITE)).sum() + caps[BLACK])
        white = float(((own == WHITE) & counted).sum() + (dead_mask & (grid == BLACK)).sum() + caps[WHITE])
    else:
        bonus = getattr(rules, "white_handicap_bonus", 0)
        if handicap > 1 and bonus:
            komi += handicap if bonus == 2 else handicap - 1
        black, white = float((own == BLACK).sum()), float((own == WHITE).sum())
    return FinalScore(black - white - komi, black, white, tuple(dead_pts))


def _seki_regions(board, own: np.ndarray, dead: list[Point]) -> np.ndarray:
    """Empty or dead-stone points next to a chain in seki: they count for nobody (Japanese rules give no
    territory in seki, and a point such a chain may have to fill is no territory either)."""
    in_seki = seki_chains(board, dead)
    h, w = own.shape
    out = np.zeros((h, w), dtype=bool)
    if not in_seki.any():
        return out
    grid = board.array()
    open_pts = grid == 0
    for p in dead:
        open_pts[p] = True
    for r, c in zip(*np.nonzero(in_seki)):
        for q in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= q[0] < h and 0 <= q[1] < w and open_pts[q]:
                out[q] = True
    return out


def position_before_passes(board):
    """The position as it stood before the closing passes (networks judge it better than a finished one)."""
    earlier = board.copy()
    while earlier.moves and earlier.moves[-1][1] is None:
        earlier.undo()
    return earlier


def score_game(boards, evaluator, handicaps=None, dead: float = 0.5, seki: float = 0.3) -> list[FinalScore]:
    """Score finished positions (a batch of Boards) with `evaluator`'s ownership of each position as it
    stood before its closing passes. `handicaps`: handicap stones per board (area-scoring compensation)."""
    boards = list(boards)
    handicaps = list(handicaps) if handicaps is not None else [0] * len(boards)
    evals = evaluator.evaluate([position_before_passes(b) for b in boards])
    return [score_final_position(b, e.ownership, dead, seki, h) for b, e, h in zip(boards, evals, handicaps)]


def network_dead_stones(evaluator, dead: float = 0.5) -> Callable[[object], list[Point]]:
    """A dead-stone finder for GTP's final_score / final_status_list: the stones the evaluator's ownership
    of the position before the closing passes gives to the other color by more than `dead`."""
    def find(board) -> list[Point]:
        ownership = evaluator.evaluate([position_before_passes(board)])[0].ownership
        return dead_stones(board, ownership, dead)
    return find
