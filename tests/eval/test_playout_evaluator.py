"""`PlayoutEvaluator`: value from native random playouts, a uniform legal policy, determinism by seed."""
from __future__ import annotations

import numpy as np
import pytest

from tengen.eval.evaluation import Evaluator
from tengen.eval.playout_evaluator import PASS_PRIOR, TIE_JITTER, PlayoutEvaluator, own_eyes
from tengen.go.board import Board
from tengen.go.colors import BLACK, WHITE
from tengen.go.diagram import board_from_diagram
from tengen.go.rules import Rules

AREA = Rules("area", 0.5, "area", "simple", False, 0)

# Black owns the left four columns with two eyes; White's lone stone on the right has no room to live.
WON_FOR_BLACK = """
    . X . X .
    X X X X .
    . X . X .
    X X X X .
    . X . X O
    """


def _board(diagram: str, to_play: int, komi: float = 0.5) -> Board:
    board = board_from_diagram(diagram, AREA.with_komi(komi))
    board.to_play = to_play
    return board


def test_it_is_an_evaluator():
    assert isinstance(PlayoutEvaluator(playouts=1), Evaluator)
    with pytest.raises(ValueError):
        PlayoutEvaluator(playouts=0)


@pytest.mark.parametrize("to_play", [BLACK, WHITE])
def test_a_won_position_scores_near_1_for_the_winner(to_play):
    e = PlayoutEvaluator(playouts=32, seed=3).evaluate([_board(WON_FOR_BLACK, to_play)])[0]
    assert e.win >= 0.9 and e.winrate >= 0.9
    assert e.loss == pytest.approx(1.0 - e.win)
    assert e.score_lead > 10 and e.score_mean == e.score_lead
    assert e.ownership.shape == (5, 5) and e.ownership[1, 1] == pytest.approx(1.0)
    assert -1.0 <= e.ownership.min() and e.ownership.max() <= 1.0


def test_komi_turns_the_count_into_a_loss():
    board = _board(WON_FOR_BLACK, BLACK, komi=30.5)  # more than the whole 25-point board
    e = PlayoutEvaluator(playouts=8, seed=1).evaluate([board])[0]
    assert e.win == 0.0 and e.score_lead < 0 and e.komi == 30.5


def test_deterministic_for_a_seed_and_independent_of_the_batch():
    board = Board(9, rules=AREA.with_komi(7.5))
    board.play(BLACK, (4, 4))
    other = Board(9, rules=AREA.with_komi(7.5))
    a = PlayoutEvaluator(playouts=6, seed=11).evaluate([board])[0]
    b = PlayoutEvaluator(playouts=6, seed=11).evaluate([other, board])[1]
    assert a.win == b.win and a.score_lead == b.score_lead
    assert np.array_equal(a.ownership, b.ownership)
    seeds = {PlayoutEvaluator(playouts=6, seed=s).evaluate([board])[0].score_lead for s in range(6)}
    assert len(seeds) > 1  # another seed, other playouts


def test_the_policy_is_uniform_over_legal_non_eye_points():
    board = _board("""
        . X . O .
        X X X O O
        . . . . .
        . . O . .
        . . . . .
        """, BLACK)
    e = PlayoutEvaluator(playouts=1).evaluate([board])[0]
    eyes = own_eyes(board.array(), BLACK)
    assert eyes[0, 0] and not eyes[0, 2] and not eyes[2, 0] and int(eyes.sum()) == 1
    legal = {p for p in board.legal_moves(BLACK) if not eyes[p]}
    nonzero = {(int(r), int(c)) for r, c in np.argwhere(e.policy > 0)}
    assert nonzero == legal and (0, 4) not in nonzero  # (0, 4) is suicide for Black
    values = e.policy[e.policy > 0]
    assert np.allclose(values, values.mean(), rtol=TIE_JITTER)  # uniform up to the tie-breaking jitter
    assert len(set(values.tolist())) > 1  # ... which is there: ties no longer go to the first point
    assert e.pass_policy == PASS_PRIOR
    assert float(e.policy.sum()) + e.pass_policy == pytest.approx(1.0)


def test_only_pass_when_nothing_else_is_left():
    board = _board("""
        . X .
        X X X
        . X .
        """, BLACK)
    e = PlayoutEvaluator(playouts=2).evaluate([board])[0]
    assert e.policy.sum() == 0 and e.pass_policy == 1.0 and e.win == 1.0
