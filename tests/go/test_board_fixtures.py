"""Rules core, data-driven: moves on a diagram -> expected diagram, captures, ko point."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from tengen.go import BLACK, WHITE, Board, IllegalMove, Rules
from tengen.go.coords import from_gtp
from tengen.go.diagram import board_from_diagram, parse_diagram

CASES = [
    dict(
        name="corner capture",
        start="""
            . . . . .
            . . . . .
            . . . . .
            . . . . .
            O X . . .
        """,
        moves=[],
        then="""
            . . . . .
            . . . . .
            . . . . .
            X . . . .
            . X . . .
        """,
        play_first=("B", "A2"),
        captured=1,
    ),
    dict(
        name="three stones captured in the corner",
        start="""
            . . . . .
            . . . . .
            X X X . .
            O O X . .
            . O X . .
        """,
        moves=[("B", "A1")],
        then="""
            . . . . .
            . . . . .
            X X X . .
            . . X . .
            X . X . .
        """,
        play_first=None,
        captured=None,
    ),
    dict(
        name="two chains captured at once",
        start="""
            . O X . .
            O . O X .
            . O X . .
            . . . . .
            . . . . .
        """,
        moves=[],
        then="""
            . O X . .
            O X . X .
            . O X . .
            . . . . .
            . . . . .
        """,
        play_first=("B", "B4"),
        captured=1,
    ),
]


def _play_all(board: Board, moves) -> None:
    for color, vertex in moves:
        board.play(BLACK if color == "B" else WHITE, from_gtp(vertex, board.height))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_moves_give_expected_diagram(case):
    board = board_from_diagram(case["start"])
    if case["play_first"]:
        color, vertex = case["play_first"]
        captured = board.play(BLACK if color == "B" else WHITE, from_gtp(vertex, board.height))
        assert len(captured) == case["captured"]
    _play_all(board, case["moves"])
    expected, _ = parse_diagram(case["then"])
    assert np.array_equal(board.array(), expected), "\n" + str(board)


KO = """
    . X O . .
    X . X O .
    . X O . .
    . . . . .
    . . . . .
"""


def test_simple_ko_point_and_retake_rule():
    board = board_from_diagram(KO)
    board.to_play = WHITE
    captured = board.play(WHITE, from_gtp("B4", 5))  # White captures C4
    assert captured == [from_gtp("C4", 5)]
    assert board.ko_point == from_gtp("C4", 5)
    with pytest.raises(IllegalMove) as info:
        board.play(BLACK, from_gtp("C4", 5))
    assert info.value.reason == "ko"
    board.play(BLACK, from_gtp("E1", 5))  # ko threat
    board.play(WHITE, from_gtp("E2", 5))
    assert board.ko_point is None
    assert board.play(BLACK, from_gtp("C4", 5)) == [from_gtp("B4", 5)]


def test_suicide_illegal_by_default_allowed_where_rules_say():
    diagram = """
        . X . . .
        X . . . .
        . . . . .
        . . . . .
        . . . . .
    """
    board = board_from_diagram(diagram)
    assert board.legality(WHITE, (0, 0)) == "suicide"
    tt = board_from_diagram(diagram, rules=Rules.tromp_taylor())
    assert tt.legality(WHITE, (0, 0)) == "superko"  # single-stone suicide repeats the position
    loose = board_from_diagram(diagram, rules=dataclasses.replace(Rules.chinese(), suicide=True))
    assert loose.play(WHITE, (0, 0)) == [(0, 0)]  # the suicided stone is removed
    assert loose.captures[BLACK] == 1
    assert loose.get((0, 0)) == 0


def test_multi_stone_suicide_removes_the_chain():
    rules = dataclasses.replace(Rules.chinese(), suicide=True)
    board = board_from_diagram("""
        O . X . .
        X X . . .
        . . . . .
        . . . . .
        . . . . .
    """, rules=rules)
    # White B5 joins A5 into a chain without liberties: both removed
    assert sorted(board.play(WHITE, from_gtp("B5", 5))) == [(0, 0), (0, 1)]


def test_positional_superko_forbids_recreating_a_position():
    board = board_from_diagram(KO, rules=Rules.tromp_taylor())
    board.to_play = WHITE
    board.play(WHITE, from_gtp("B4", 5))
    # the retake is a simple-ko violation anyway; superko must also reject any longer cycle
    assert board.legality(BLACK, from_gtp("C4", 5)) == "ko"
    assert board.is_legal(BLACK, from_gtp("E1", 5))


def test_undo_restores_everything():
    board = Board(9)
    before = (board.array().copy(), board.hash, board.captures)
    for vertex, color in (("E5", BLACK), ("E6", WHITE), ("D6", BLACK), ("F6", BLACK), ("E7", BLACK)):
        board.play(color, from_gtp(vertex, 9))
    board.play(WHITE, None)
    for _ in range(6):
        board.undo()
    assert np.array_equal(board.array(), before[0]) and board.hash == before[1] and board.captures == before[2]
    with pytest.raises(IndexError):
        board.undo()


def test_hash_is_a_function_of_the_stones():
    a, b = Board(9), Board(9)
    a.play(BLACK, (2, 2)); a.play(WHITE, (6, 6))
    b.play(WHITE, (6, 6)); b.play(BLACK, (2, 2))
    assert a.hash == b.hash
    b.undo()
    assert a.hash != b.hash


@pytest.mark.parametrize("size", [2, 3, 19, 25])
def test_board_sizes(size):
    board = Board(size)
    board.play(BLACK, (0, 0))
    assert board.get((0, 0)) == BLACK


def test_rectangular_board():
    board = Board(7, 3)
    assert board.array().shape == (3, 7)
    board.play(BLACK, (2, 6))
    assert board.liberties((2, 6)) == 2


@pytest.mark.parametrize("size", [1, 26])
def test_unsupported_sizes_raise(size):
    with pytest.raises(ValueError):
        Board(size)


def test_setup_stones_then_play():
    board = Board(9)
    board.setup(black=[(0, 1), (1, 0)], white=[(0, 0)])
    assert board.liberties((0, 0)) == 0  # setup may leave a chain without liberties, as SGF allows
    board.setup(empty=[(0, 0)])
    assert board.get((0, 0)) == 0
    assert board.legality(WHITE, (0, 0)) == "suicide"


@pytest.mark.parametrize("color,expected", [
    (None, [[(0, 0), (0, 1), (1, 0)], [(0, 3)], [(1, 2), (2, 2)], [(3, 0)]]),
    (BLACK, [[(0, 0), (0, 1), (1, 0)], [(3, 0)]]),
    (WHITE, [[(0, 3)], [(1, 2), (2, 2)]]),
])
def test_chains_in_row_major_order_of_their_first_stone(color, expected):
    board = board_from_diagram("""
        X X . O
        X . O .
        . . O .
        X . . .
    """)
    assert [sorted(chain) for chain in board.chains(color)] == expected
