"""The default network through tengen: sane opening judgements and the komi sweep (needs the real model)."""
import numpy as np
import pytest

from tengen.go import BLACK, WHITE, Board, Rules

pytestmark = pytest.mark.network_model

CORNER_POINTS = {(r, c) for r in (2, 3, 15, 16) for c in (2, 3, 15, 16)} - {(2, 2), (2, 16), (16, 2), (16, 16)}


def test_empty_board(real_evaluator):
    ev = real_evaluator.evaluate([Board(19)])[0]
    assert ev.win == pytest.approx(0.367, abs=0.005)  # the network's own number at komi 7.5
    assert -3 < ev.score_lead < 1 and 5 < ev.score_stdev < 40
    top = [p for p, _ in ev.top_moves(8)]
    assert set(top) <= CORNER_POINTS  # 3-4 and 4-4 points
    assert np.all(np.abs(ev.ownership) < 0.3)


def test_komi_sweep_on_the_empty_board(real_evaluator):
    ks = [k - 12.5 for k in range(41)]
    wr = real_evaluator.winrate_by_komi(Board(19), ks)
    assert wr[ks.index(5.5)] == pytest.approx(0.573, abs=0.005)
    assert wr[ks.index(7.5)] == pytest.approx(0.367, abs=0.005)
    assert wr[0] > 0.95 and wr[-1] < 0.05
    assert np.all(np.diff(wr) < 0.02)  # non-increasing up to noise


def test_opponent_policy_and_small_boards(real_evaluator):
    board = Board(9, rules=Rules.japanese(komi=6.5))
    board.play(BLACK, (4, 4))
    ev = real_evaluator.evaluate([board], opponent_policy=True)[0]
    assert ev.to_play == WHITE and ev.policy[4, 4] == 0
    assert ev.opponent_policy.sum() + ev.opponent_pass_policy == pytest.approx(1.0, abs=1e-5)
    assert (ev.win > 0.5) == (ev.score_lead > 0)
    (best, _), = ev.top_moves(1)
    assert max(abs(best[0] - 4), abs(best[1] - 4)) <= 2  # White answers next to the centre stone
