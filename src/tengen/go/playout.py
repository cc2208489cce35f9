"""Random playouts at native speed: the policy used by the speed benchmark and by Monte-Carlo code.

Policy: uniform over legal moves that do not fill the mover's own single-point eye (an empty point whose
on-board neighbours are all the mover's stones); pass when there is none; two passes in a row end the
game. Simple ko only (cycles such as triple ko are cut by `max_moves`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tengen.go.colors import BLACK


@dataclass(frozen=True)
class Playout:
    """The outcome of one random game: moves played (passes included) and the final stones."""

    moves: int
    final: np.ndarray
    ended_by_passes: bool


def random_playout(board, seed: int, max_moves: int | None = None, color: int | None = None) -> Playout:
    """Play a random game from `board` (left untouched) to the end or `max_moves`."""
    max_moves = 3 * board.width * board.height if max_moves is None else max_moves
    native = board._native.copy(False)
    color = board.to_play if color is None else color
    moves, _ = native.playout(color, seed, max_moves, board.rules.suicide)
    final = np.frombuffer(native.stones(), dtype=np.int8).reshape(board.height, board.width).copy()
    return Playout(moves, final, moves < max_moves)


def playout_area(board, seed: int, max_moves: int | None = None) -> np.ndarray:
    """The area ownership (int8 (height, width): +1 Black's, -1 White's, 0 dame) after one random playout from
    `board` (left untouched): stones and the empty regions that reach one colour only, counted natively."""
    max_moves = 3 * board.width * board.height if max_moves is None else max_moves
    native = board._native.copy(False)
    native.playout(board.to_play, seed, max_moves, board.rules.suicide)
    raw = native.area(bytes(board.width * board.height))
    return np.frombuffer(raw, dtype=np.int8).reshape(board.height, board.width)


__all__ = ["Playout", "random_playout", "playout_area", "BLACK"]


def play_uniform_random(board, rng: np.random.Generator, count: int, color: int = BLACK) -> None:
    """Play up to `count` moves on `board`, each drawn uniformly from the mover's legal moves (own eyes
    included, unlike the playouts above), colours alternating from `color`; stops early when the mover has
    none. Seeded random positions for checks and benchmarks."""
    for _ in range(count):
        moves = board.legal_moves(color)
        if not moves:
            return
        board.play(color, moves[int(rng.integers(len(moves)))])
        color = -color
