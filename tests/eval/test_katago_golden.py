"""tengen's KataGo evaluator against KataGo's own raw network outputs (tests/data/katago/golden.json).

The golden file was recorded by tools/katago_golden/make_golden.py with KataGo v1.18.1 (`kata-raw-nn 0`,
19x19 network buffer, so 9x9 and 13x13 boards ran masked inside it) on the default network. The cases
themselves are checked in the default suite (on a tiny random network: no download); the comparison of
outputs needs the real network (network_model).
"""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "tests" / "data" / "katago" / "golden.json"
sys.path.insert(0, str(REPO / "tools" / "katago_golden"))



def _cases() -> list[dict]:
    return json.loads(GOLDEN.read_text())["cases"]


@pytest.fixture(scope="module")
def evaluations(default_model_path):
    from make_golden import board_from_case

    from tengen.eval.katago import KataGoEvaluator

    cases = _cases()
    optimism = json.loads(GOLDEN.read_text())["policy_optimism"]
    evaluator = KataGoEvaluator(default_model_path, policy_optimism=optimism)
    boards = [board_from_case(c) for c in cases]
    return {c["name"]: (c, b, e) for c, b, e in zip(cases, boards, evaluator.evaluate(boards))}


def test_golden_cases_cover_the_required_variety_and_rebuild_the_positions_katago_saw():
    """Every recorded case rebuilds into a position with KataGo's legal moves (its policy is NaN exactly on
    the illegal points), evaluated here on a tiny random network: sizes, rules, setup, handicap and moves."""
    from make_golden import board_from_case

    from tengen.eval.katago import KataGoEvaluator
    from tengen.eval.katago.tiny import random_model

    cases = _cases()
    assert len(cases) >= 20
    assert {c["size"] for c in cases} >= {9, 13, 19}
    assert {c["rules"] for c in cases} >= {"chinese", "japanese", "tromp-taylor", "aga"}
    boards = [board_from_case(c) for c in cases]
    for case, ev in zip(cases, KataGoEvaluator(random_model(0, 15), batch_size=8).evaluate(boards)):
        illegal = np.isnan(np.array(case["katago"]["policy"], dtype=float))
        assert ev.policy.shape == illegal.shape == (case["size"], case["size"]), case["name"]
        assert np.array_equal(illegal, ev.policy == 0), case["name"]


@pytest.mark.network_model
@pytest.mark.parametrize("name", [c["name"] for c in _cases()])
def test_matches_katago(evaluations, name):
    case, board, ev = evaluations[name]
    k = case["katago"]
    # KataGo prints 6 decimals for probabilities, 3 for scores; we agree to within that (and far below 1e-3)
    assert ev.win == pytest.approx(k["whiteLoss"], abs=1e-4)
    assert ev.loss == pytest.approx(k["whiteWin"], abs=1e-4)
    assert ev.no_result == pytest.approx(k["noResult"], abs=1e-4)
    assert ev.score_lead == pytest.approx(-k["whiteLead"], abs=5e-3)
    assert ev.score_mean == pytest.approx(-k["whiteScoreSelfplay"], abs=5e-3)
    stdev = np.sqrt(max(0.0, k["whiteScoreSelfplaySq"] - k["whiteScoreSelfplay"] ** 2))
    assert ev.score_stdev == pytest.approx(stdev, abs=2e-2)
    assert ev.extras["shortterm_winloss_error"] == pytest.approx(k["shorttermWinlossError"], abs=2e-3)
    policy = np.array(k["policy"], dtype=float)  # NaN = illegal
    assert np.array_equal(np.isnan(policy), ev.policy == 0)
    np.testing.assert_allclose(ev.policy, np.nan_to_num(policy), atol=1e-4)
    assert ev.pass_policy == pytest.approx(k["policyPass"], abs=1e-4)
    np.testing.assert_allclose(ev.ownership, -np.array(k["whiteOwnership"]), atol=1e-4)
    ours = np.argsort(-ev.policy.ravel())[:3]
    theirs = np.argsort(-np.nan_to_num(policy).ravel())[:3]
    assert ours[0] == theirs[0]
    flat = np.sort(np.nan_to_num(policy).ravel())[::-1]
    if flat[1] - flat[2] > 2e-3 and flat[0] - flat[1] > 2e-3:
        assert list(ours) == list(theirs)
