"""A region's best move outside its points is said with its reason (`tengen.endgame.outside_moves`).

Each fixture: the board (X Black, O White, `.` empty, `m` the move, itself empty), the region as a mask of the
same shape (`#` a region point, stones included), the colour that plays `m`, and the words the reason holds.
"""
from __future__ import annotations

import pytest

from tengen.endgame.notes import of_kind
from tengen.endgame.outside_moves import note_outside_moves, outside_reason
from tengen.endgame.regions import Region
from tengen.endgame.results import RegionResult
from tengen.go.board import Board
from tengen.go.colors import BLACK, WHITE
from tengen.go.coords import to_gtp
from tengen.go.diagram import parse_diagram

CASES = [
    ("captures a white stone next to the region", """
        . X . . .
        X O m . .
        . X . . .
        . . . . .
        . . . . .""", """
        . . . . .
        . . . . .
        . # . . .
        . # . . .
        . . . . .""", BLACK, "captures"),
    ("ataris it", """
        . X . . .
        X O m . .
        . . . . .
        . . . . .
        . . . . .""", """
        . . . . .
        . . . . .
        # # . . .
        . . . . .
        . . . . .""", BLACK, "ataris"),
    ("saves own stones in atari", """
        . O . . .
        O X m . .
        . O . . .
        . . . . .
        . . . . .""", """
        . . . . .
        . . . . .
        # # . . .
        . . . . .
        . . . . .""", BLACK, "more liberties"),
    ("connects two own chains, one of them at the region", """
        . . . . .
        O m O . .
        . . . . .
        . . . . .
        . . . . .""", """
        . . . . .
        . . . . .
        # . . . .
        . . . . .
        . . . . .""", WHITE, "connects"),
    ("takes a boundary point", """
        . . . . .
        . m . . .
        . . . . .
        . . . . .
        . . . . .""", """
        . . . . .
        . . . . .
        . # # . .
        . . . . .
        . . . . .""", WHITE, "boundary point"),
    ("stands near the region, not next to it", """
        m . . . .
        . . . . .
        . . . . .
        . . . . .
        . . . . .""", """
        . . . . .
        . . . . .
        . . . . .
        . . . # .
        . . . . .""", BLACK, "near it"),
]


def _setup(board_text: str, mask_text: str):
    grid, marks = parse_diagram(board_text)
    board = Board(grid.shape[1], grid.shape[0])
    board.set_array(grid)
    _, mask_marks = parse_diagram(mask_text)
    return board, set(mask_marks["#"]), marks["m"][0]


@pytest.mark.parametrize("name, board_text, mask_text, color, words", CASES, ids=[c[0] for c in CASES])
def test_an_outside_move_says_what_it_does_for_the_region(name, board_text, mask_text, color, words):
    board, points, move = _setup(board_text, mask_text)
    why = outside_reason(board, points, color, move)
    assert why is not None and words in why
    assert why.startswith(to_gtp(move, board.height) + " lies outside the region")


def test_a_move_inside_the_region_needs_no_reason():
    board, points, _ = _setup(CASES[4][1], CASES[4][2])
    assert outside_reason(board, points, BLACK, next(iter(points))) is None


def test_a_boundary_point_both_sides_want_is_said_once():
    board, points, move = _setup(CASES[4][1], CASES[4][2])
    result = RegionResult(region=Region(0, frozenset(points)))
    result.best_black, result.best_white = [move], [move]
    note_outside_moves(result, board)
    note_outside_moves(result, board)  # a cached result seen again gets no second copy
    notes = of_kind(result.notes, "outside move")
    assert notes == [f"{to_gtp(move, board.height)} lies outside the region, next to it: a boundary point both sides want"]


def test_a_move_on_another_regions_point_says_the_regions_interact():
    """Region A's best move is a point of region B: the note says the two regions interact."""
    board, points, move = _setup(CASES[4][1], CASES[4][2])  # A: the two boundary points, its move next to them
    a = RegionResult(region=Region(0, frozenset(points)))
    b = RegionResult(region=Region(1, frozenset({move, (0, 1)})))
    a.best_black = [move]
    note_outside_moves(a, board, [a, b])
    (note,) = of_kind(a.notes, "outside move")
    assert "it is a point of region B too: one move in two regions, which interact" in note
    note_outside_moves(b, board, [a, b])  # B's own moves: none outside it
    assert not of_kind(b.notes, "outside move")
