"""Counting a finished position: area (stones + surrounded empty points) and territory scoring."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import numpy as np

from tengen.go.colors import BLACK, WHITE
from tengen.go.coords import Point


@dataclass(frozen=True)
class Score:
    """A count from Black's side. `margin` = black - white - komi (positive: Black wins)."""

    black: float
    white: float
    komi: float
    scoring: str

    @property
    def margin(self) -> float:
        return self.black - self.white - self.komi

    def result_string(self) -> str:
        """SGF/GTP style result: 'B+3.5', 'W+0.5', '0' for a draw."""
        m = self.margin
        if m == 0:
            return "0"
        return f"{'B' if m > 0 else 'W'}+{abs(m):g}"


def _dead_mask(board, dead: Iterable[Point]) -> np.ndarray:
    mask = np.zeros((board.height, board.width), dtype=np.int8)
    for p in dead:
        mask[p] = 1
    return mask


def area_ownership(board, dead: Iterable[Point] = ()) -> np.ndarray:
    """int8 (height, width): +1/-1 for each point counted for Black/White under area scoring, 0 dame."""
    raw = board._native.area(_dead_mask(board, dead).tobytes())
    return np.frombuffer(raw, dtype=np.int8).reshape(board.height, board.width).copy()


def area_score(board, dead: Iterable[Point] = (), komi: float | None = None) -> Score:
    """Area (Chinese / Tromp-Taylor) count: stones + empty regions that reach only one color.

    Handicap compensation follows the board's rules (`white_handicap_bonus`) when `handicap` is known
    to the caller; pass it through `komi` if needed.
    """
    own = area_ownership(board, dead)
    komi = board.rules.komi if komi is None else komi
    return Score(float((own == BLACK).sum()), float((own == WHITE).sum()), komi, "area")


def territory_score(board, dead: Iterable[Point] = (), komi: float | None = None) -> Score:
    """Territory (Japanese) count: surrounded empty points + prisoners + dead stones (seki eyes not
    distinguished: an empty region touching both colors is dame)."""
    dead = list(dead)
    own = area_ownership(board, dead)
    grid = board.array()
    empty_now = grid == 0
    dead_mask = _dead_mask(board, dead).astype(bool)
    black_terr = int(((own == BLACK) & (empty_now | dead_mask)).sum())
    white_terr = int(((own == WHITE) & (empty_now | dead_mask)).sum())
    dead_white = int((dead_mask & (grid == WHITE)).sum())
    dead_black = int((dead_mask & (grid == BLACK)).sum())
    caps = board.captures
    komi = board.rules.komi if komi is None else komi
    black = black_terr + caps[BLACK] + dead_white
    white = white_terr + caps[WHITE] + dead_black
    return Score(float(black), float(white), komi, "territory")


def score(board, dead: Iterable[Point] = (), komi: float | None = None) -> Score:
    """Score under the board's own rules (area or territory)."""
    if board.rules.scoring == "territory":
        return territory_score(board, dead, komi)
    return area_score(board, dead, komi)


def benson_dead_stones(board) -> list[Point]:
    """Stones standing in an area the opponent has made unconditionally safe: dead whatever happens."""
    from tengen.go.benson import unconditional_life

    safe = unconditional_life(board)
    grid = board.array()
    dead = np.argwhere((grid != 0) & (safe == -grid))
    return [(int(r), int(c)) for r, c in dead]
