"""A simple, honest move policy: captures, escapes from atari, otherwise a random sensible move.

It never fills its own single-point eye, never plays self-atari (unless it captures), never plays inside
an area Benson's algorithm has already settled, inside its own surrounded territory, or inside a small
area the opponent surrounds, and so passes once the board is divided. Deterministic
for a given position (seeded by the board hash), so GTP transcripts are reproducible.
"""
from __future__ import annotations

import random
from typing import Optional

from tengen.go.benson import unconditional_life
from tengen.go.board import Board
from tengen.go.colors import EMPTY
from tengen.go.coords import Point, neighbours
from tengen.go.grid import components, touching_colors

SMALL_ENEMY_AREA = 8


def is_own_eye(board: Board, color: int, point: Point) -> bool:
    """Every on-board neighbour is `color`'s stone (a single-point eye, true or false)."""
    return all(board.get(n) == color for n in neighbours(point, board.height, board.width))


def _after_move_liberties(board: Board, color: int, point: Point) -> tuple[int, int]:
    """(liberties of the played chain, stones captured) if `color` plays `point` (legal moves only)."""
    captured = board.play(color, point)
    libs = board.liberties(point)
    board.undo()
    return libs, len(captured)


def choose_move(board: Board, color: int, cleanup: bool = False) -> Optional[Point]:
    """A move for `color`, or None to pass. With `cleanup`, also plays inside settled areas to remove
    dead stones (kgs-genmove_cleanup)."""
    settled = unconditional_life(board)
    enclosed = _enclosed_areas(board)
    rng = random.Random(board.hash ^ (color & 0xFF))
    candidates: list[tuple[int, Point]] = []
    for point in board.legal_moves(color):
        if is_own_eye(board, color, point):
            continue
        touches_enemy = any(board.get(n) == -color for n in neighbours(point, board.height, board.width))
        if settled[point] == color and not (cleanup and touches_enemy):
            continue  # own safe area: nothing to gain, except removing dead stones during cleanup
        if settled[point] == -color and not cleanup:
            continue
        libs, captured = _after_move_liberties(board, color, point)
        if captured:
            candidates.append((3 + captured, point))
            continue
        owner, area = enclosed.get(point, (EMPTY, 0))
        if owner == color or (owner == -color and area < SMALL_ENEMY_AREA and not cleanup):
            continue
        if libs < 2:
            continue  # self-atari without capture
        saves = any(board.get(n) == color and board.liberties(n) == 1 for n in neighbours(point, board.height, board.width))
        candidates.append((2 if saves else 1, point))
    if not candidates:
        return None
    best = max(priority for priority, _ in candidates)
    pool = [p for priority, p in candidates if priority == best]
    if best == 1:
        # quiet moves: avoid filling the last dame-like points inside one's own area late in the game
        useful = [p for p in pool if _touches_contested(board, p)] or pool
        pool = useful
    return rng.choice(pool)


def _touches_contested(board: Board, point: Point) -> bool:
    """True if the point is near stones of both colors or near empty space (not deep own territory)."""
    colors = {board.get(n) for n in neighbours(point, board.height, board.width)}
    return EMPTY in colors or len(colors - {EMPTY}) == 2


def _enclosed_areas(board: Board) -> dict[Point, tuple[int, int]]:
    """For each empty point in a region reaching only one color: (that color, region size)."""
    grid = board.array()
    out: dict[Point, tuple[int, int]] = {}
    for region in components(grid == EMPTY):
        colors = touching_colors(region, grid)
        if len(colors) == 1:
            owner = colors.pop()
            for q in region:
                out[q] = (owner, len(region))
    return out
