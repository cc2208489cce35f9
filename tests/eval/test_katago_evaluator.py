"""KataGoEvaluator on tiny random networks: Evaluation contents, batching, symmetries, komi sweeps."""
import numpy as np
import pytest
import torch

from tengen.eval import Evaluation, Evaluator
from tengen.eval.katago import KataGoEvaluator, UnsupportedModelError
from tengen.eval.katago.evaluator import transform, untransform
from tengen.eval.katago.tiny import random_model
from tengen.go import BLACK, WHITE, Board, Rules
from tengen.go.diagram import board_from_diagram


@pytest.fixture(scope="module")
def tiny():
    return KataGoEvaluator(random_model(11, 15), batch_size=4)


def _game(size=9, rules=None):
    board = Board(size, rules=rules or Rules.chinese())
    for i, (color, p) in enumerate([(BLACK, (2, 2)), (WHITE, (6, 6)), (BLACK, (2, 6)), (WHITE, (6, 2)),
                                    (BLACK, (4, 4))]):
        board.play(color, p)
    return board


def test_is_an_evaluator_and_returns_a_sane_evaluation(tiny):
    assert isinstance(tiny, Evaluator)
    board = _game()
    ev = tiny.evaluate([board])[0]
    assert isinstance(ev, Evaluation) and ev.to_play == WHITE and ev.komi == 7.5
    assert ev.policy.shape == (9, 9) and ev.ownership.shape == (9, 9)
    assert ev.policy.sum() + ev.pass_policy == pytest.approx(1.0, abs=1e-5)
    occupied = board.array() != 0
    assert np.all(ev.policy[occupied] == 0) and np.all(ev.policy[~occupied] > 0)
    assert np.all(np.abs(ev.ownership) <= 1)
    assert ev.win + ev.loss + ev.no_result == pytest.approx(1.0)
    assert ev.score_stdev >= 0 and ev.opponent_policy is None and ev.winrate_by_komi is None
    assert set(ev.extras) >= {"shortterm_winloss_error", "shortterm_score_error", "var_time_left"}


def test_values_are_turned_to_blacks_view(tiny):
    board = _game()  # White to move
    enc = tiny.encode(board)
    out = tiny.run_network(torch.from_numpy(enc.spatial[None]), torch.from_numpy(enc.global_[None]))
    win, loss, no_result = torch.softmax(out.value[0].double(), 0).numpy()  # White's view
    ev = tiny.evaluate([board])[0]
    assert (ev.win, ev.loss, ev.no_result) == pytest.approx((loss, win, no_result))
    assert ev.score_lead == pytest.approx(-float(out.score[0, 2]) * 20 * (1 - no_result), rel=1e-4)
    assert ev.score_mean == pytest.approx(-float(out.score[0, 0]) * 20 * (1 - no_result), rel=1e-4)
    np.testing.assert_allclose(ev.ownership, -np.tanh(out.ownership[0].numpy()), atol=1e-6)


def test_batching_and_mixed_sizes_do_not_change_results(tiny):
    boards = [_game(9), _game(13), Board(9), _game(9, Rules.japanese())]
    together = tiny.evaluate(boards)
    for board, ev in zip(boards, together):
        alone = tiny.evaluate([board])[0]
        assert ev.win == pytest.approx(alone.win, abs=1e-5)
        np.testing.assert_allclose(ev.policy, alone.policy, atol=1e-5)
        np.testing.assert_allclose(ev.ownership, alone.ownership, atol=1e-5)
    assert together[1].policy.shape == (13, 13)


def test_symmetry_inverse():
    x = torch.arange(2 * 3 * 3 * 2).reshape(2, 3, 3, 2)
    for s in range(8):
        assert torch.equal(untransform(transform(x, s), s), x)
    assert len({tuple(transform(x, s).flatten().tolist()) for s in range(8)}) == 8


def test_eight_symmetries_make_the_evaluation_equivariant():
    ev8 = KataGoEvaluator(random_model(12, 15), symmetries=8)
    board = board_from_diagram("""
        . . . . . . . . .
        . . . . . . . . .
        . . . X . . . . .
        . . . . . . O . .
        . . . . . . . . .
        . . . . . X . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
    """)
    mirrored = board_from_diagram("""
        . . . . . . . . .
        . . . . . . . . .
        . . . . . X . . .
        . . O . . . . . .
        . . . . . . . . .
        . . . X . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
    """)
    np.testing.assert_array_equal(board.array(), mirrored.array()[:, ::-1])  # left-right mirror images
    a, b = ev8.evaluate([board, mirrored])
    assert a.win == pytest.approx(b.win, abs=1e-5)
    np.testing.assert_allclose(a.ownership, b.ownership[:, ::-1], atol=1e-5)
    np.testing.assert_allclose(a.policy, b.policy[:, ::-1], atol=1e-6)
    assert a.extras["symmetries"] == 8


def test_opponent_policy(tiny):
    board = _game()
    ev = tiny.evaluate([board], opponent_policy=True)[0]
    assert ev.opponent_policy.shape == (9, 9)
    assert ev.opponent_policy.sum() + ev.opponent_pass_policy == pytest.approx(1.0, abs=1e-5)
    direct = tiny.encode(board, to_play=BLACK)
    assert direct.to_play == BLACK and not np.array_equal(ev.opponent_policy, ev.policy)


def test_winrate_by_komi_is_a_batched_cached_sweep():
    ev = KataGoEvaluator(random_model(13, 15), batch_size=8)
    board = _game()
    ks = [-2.5, 0.5, 7.5, 12.5]
    before = ev.evaluations_run
    wr = ev.winrate_by_komi(board, ks)
    assert ev.evaluations_run - before == len(ks)
    assert ev.winrate_by_komi(board, ks).tolist() == wr.tolist()
    assert ev.evaluations_run - before == len(ks)  # second call served from the cache
    for k, w in zip(ks, wr):
        b2 = board.copy()
        b2.rules = b2.rules.with_komi(k)
        assert ev.evaluate([b2])[0].win == pytest.approx(w, abs=1e-6)
    full = ev.evaluate([board], komi_sweep=ks)[0]
    assert list(full.winrate_by_komi) == ks


def test_threads_are_honoured():
    before = torch.get_num_threads()
    try:
        KataGoEvaluator(random_model(0, 15), threads=1)
        assert torch.get_num_threads() == 1
    finally:
        torch.set_num_threads(before)


def test_bf16_precision_runs_and_stays_close(tiny):
    bf = KataGoEvaluator(random_model(11, 15), precision="bf16")
    a, b = tiny.evaluate([_game()])[0], bf.evaluate([_game()])[0]
    assert abs(a.win - b.win) < 0.05


def test_old_input_versions_are_refused():
    with pytest.raises(UnsupportedModelError, match="input features version"):
        KataGoEvaluator(random_model(0, 7, ("ordinary",)))


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device on this machine")
def test_cuda_matches_cpu():
    desc = random_model(14, 15)
    cpu, gpu = KataGoEvaluator(desc), KataGoEvaluator(desc, device="cuda")
    a, b = cpu.evaluate([_game()])[0], gpu.evaluate([_game()])[0]
    assert a.win == pytest.approx(b.win, abs=1e-4)
    np.testing.assert_allclose(a.ownership, b.ownership, atol=1e-4)


def test_subnormal_weights_are_flushed_to_zero_when_a_network_is_built():
    """KataGo model files hold subnormal weights, slow on CPUs without flush-to-zero: tengen zeroes them
    (below float32 resolution) and keeps every other weight exactly; the benchmark's anchor keeps them."""
    from tengen.eval.katago.network import KataGoNet, subnormal_weights_kept

    desc = random_model(3, 15)
    weight = desc.trunk.initial_conv.weight
    weight.flat[0], weight.flat[1], weight.flat[2] = np.float32(1e-40), np.float32(-3e-39), np.float32(1e-30)
    assert 0 < abs(weight.flat[0]) < np.finfo(np.float32).tiny  # really subnormal in float32
    built = KataGoNet(desc).conv_in.weight.detach().numpy().reshape(-1)
    expected = weight.astype(np.float32).reshape(-1).copy()
    expected[:2] = 0.0
    np.testing.assert_array_equal(built, expected)
    with subnormal_weights_kept():
        kept = KataGoNet(desc).conv_in.weight.detach().numpy().reshape(-1)
    np.testing.assert_array_equal(kept, weight.astype(np.float32).reshape(-1))
