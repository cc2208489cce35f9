"""Counting finished positions from an ownership map (hand-made maps, no network)."""
import numpy as np

from tengen.eval.katago.final_score import dead_stones, score_final_position
from tengen.go import Rules
from tengen.go.diagram import board_from_diagram

POSITION = """
    . X O . X
    . X O . .
    X X O . .
    . X O O O
    . X O . .
"""
# Black owns columns 0-1, White the rest; the X at (0,4) is dead.
OWNERSHIP = np.array([[1, 1, -1, -1, -1]] * 5, dtype=np.float32) * 0.9


def test_dead_stone_from_ownership():
    board = board_from_diagram(POSITION, rules=Rules.chinese(komi=0))
    assert dead_stones(board, OWNERSHIP) == [(0, 4)]
    assert dead_stones(board, OWNERSHIP * 0.4) == []  # not confident enough


def test_area_count_with_dead_stone_removed():
    board = board_from_diagram(POSITION, rules=Rules.chinese(komi=0.5))
    s = score_final_position(board, OWNERSHIP)
    assert (s.black, s.white) == (10, 15) and s.margin == -5.5 and s.result_string() == "W+5.5"
    assert s.dead == ((0, 4),)


def test_area_handicap_compensation_follows_the_rules():
    board = board_from_diagram(POSITION, rules=Rules.chinese(komi=0.5))
    assert score_final_position(board, OWNERSHIP, handicap=3).margin == -8.5
    aga = board_from_diagram(POSITION, rules=Rules.aga(komi=0.5))
    assert score_final_position(aga, OWNERSHIP, handicap=3).margin == -7.5


def test_territory_count_and_seki_points():
    board = board_from_diagram(POSITION, rules=Rules.japanese(komi=0))
    s = score_final_position(board, OWNERSHIP)
    assert (s.black, s.white) == (4, 9)  # 4 eye points; 8 points + the dead stone
    seki = OWNERSHIP.copy()
    seki[:, 0] = 0.0  # pretend Black's eyes are seki eyes: they count for nobody
    assert score_final_position(board, seki).black == 0
