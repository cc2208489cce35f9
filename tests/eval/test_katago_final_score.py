"""Counting finished positions from an ownership map (hand-made maps, no network)."""
import numpy as np

from tengen.eval.katago.final_score import dead_stones, score_final_position, seki_chains
from tengen.go import Rules
from tengen.go.diagram import board_from_diagram, parse_diagram

POSITION = """
    . X O . X
    . X O . .
    X X O . .
    . X O O O
    . X O . .
"""
# Black owns columns 0-1, White the rest (drawn as owners, 0.9 sure); the X at (0,4) is dead.
OWNERSHIP = parse_diagram("""
    X X O O O
    X X O O O
    X X O O O
    X X O O O
    X X O O O
""")[0].astype(np.float32) * 0.9


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


SEKI = """
    . . . . . . . . .
    . X X X X X X X .
    . X O O O O O X .
    . X O X X X O X .
    . X O . X . O X .
    . X O X X X O X .
    . X O O O O O X .
    . X X X X X X X .
    . . . . . . . . .
"""


def test_seki_chains_and_count():
    board = board_from_diagram(SEKI, rules=Rules.japanese(komi=0))
    seki = seki_chains(board, [])
    grid = board.array()
    assert seki[3, 3] and seki[2, 2]  # the inner black chain and the white ring share two liberties
    assert not seki[1, 1] and seki.sum() == (grid == -1).sum() + 7
    ownership = np.where(grid == 0, 0.95, 0.95 * grid).astype(np.float32)  # outside: Black's
    ownership[4, 3] = ownership[4, 5] = 0.0
    s = score_final_position(board, ownership)
    assert (s.black, s.white) == (32, 0) and s.dead == ()


def test_score_game_evaluates_the_position_before_the_closing_passes():
    from tengen.eval.katago import KataGoEvaluator
    from tengen.eval.katago.final_score import position_before_passes, score_game
    from tengen.eval.katago.tiny import random_model
    from tengen.go import BLACK, WHITE

    board = board_from_diagram(POSITION, rules=Rules.chinese(komi=0.5))
    board.play(BLACK, (4, 0))
    board.play(WHITE, None)
    board.play(BLACK, None)
    earlier = position_before_passes(board)
    assert len(earlier.moves) == 1 and len(board.moves) == 3
    ev = KataGoEvaluator(random_model(3, 15))
    (s,) = score_game([board], ev)
    expected = score_final_position(board, ev.evaluate([earlier])[0].ownership)
    assert s == expected
