"""Area / territory counting and Benson's unconditional life on diagram fixtures."""
from __future__ import annotations

import numpy as np

from tengen.go import BLACK, WHITE, Rules
from tengen.go.benson import unconditional_life
from tengen.go.diagram import board_from_diagram, parse_diagram
from tengen.go.scoring import area_score, benson_dead_stones, territory_score

SPLIT = """
    . X O . .
    . X O . .
    X X O . .
    . X O O O
    . X O . .
"""

DEAD_BLACK_STONE = """
    . X O . X
    . X O . .
    X X O . .
    . X O O O
    . X O . .
"""


def test_area_score_split_board():
    s = area_score(board_from_diagram(SPLIT, rules=Rules.chinese(komi=0.5)))
    assert (s.black, s.white) == (10, 15)  # 6 stones + 4 eyes; 7 stones + 8 empty
    assert s.result_string() == "W+5.5"


def test_unmarked_dead_stone_makes_dame_marked_one_counts_for_the_owner():
    board = board_from_diagram(DEAD_BLACK_STONE, rules=Rules.chinese(komi=0))
    unmarked = area_score(board)
    assert (unmarked.black, unmarked.white) == (11, 9)
    marked = area_score(board, dead=[(0, 4)])
    assert (marked.black, marked.white) == (10, 15)


def test_territory_score_counts_dead_stones_as_prisoners():
    board = board_from_diagram(DEAD_BLACK_STONE, rules=Rules.japanese(komi=0))
    s = territory_score(board, dead=[(0, 4)])
    # Black: 4 eye points; White: 6 + 2 points of territory + 1 dead stone
    assert (s.black, s.white) == (4, 9)


def test_benson_two_eyes_alive_one_region_not():
    board = board_from_diagram(SPLIT)
    expected, _ = parse_diagram("""
        X X . . .
        X X . . .
        X X . . .
        X X . . .
        X X . . .
    """)
    assert np.array_equal(unconditional_life(board), expected)


def test_benson_dead_stones_inside_a_pass_alive_area():
    board = board_from_diagram("""
        . O X . . . .
        O O X . . . .
        X X X . . . .
        . . . . . . .
        X X X X . . .
        . X . X . . .
        . X . X . . .
    """)
    life = unconditional_life(board)
    # the Black wall with two eyes at A1/C1-C2 region... the corner White stones are not pass-alive
    assert life[(5, 0)] == BLACK and life[(5, 2)] == BLACK
    assert life[(0, 0)] == 0
    assert benson_dead_stones(board) == []


def test_benson_marks_opponent_stones_in_eye_as_dead():
    board = board_from_diagram("""
        . X O X .
        X X . X X
        . . . . .
        . . . . .
        . . . . .
    """)
    # Black's two-eye group? A5 and E5 are eyes of two separate chains joined through... not connected
    life = unconditional_life(board)
    assert life[(0, 2)] == 0  # nothing here is unconditionally alive: the chains are separate


def test_benson_whole_board_eyes():
    board = board_from_diagram("""
        . X . X .
        X X X X X
        . . . . .
        O O O O O
        . O . O .
    """)
    life = unconditional_life(board)
    assert (life[:2] == BLACK).all() and (life[3:] == WHITE).all()
    assert (life[2] == 0).all()
