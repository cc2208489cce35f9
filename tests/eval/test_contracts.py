"""Every evaluator and local-move predictor tengen ships meets its written contract
(`tengen.eval.evaluation`, `tengen.endgame.predictors`): the required members, and each optional member it
offers in exactly the documented shape; and `make_evaluator` builds each evaluator by name."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from standin_networks import ONE_DAME  # noqa: E402
from tengen.api.evaluators import EVALUATORS, make_evaluator  # noqa: E402
from tengen.endgame.evalcache import CachedEvaluator  # noqa: E402
from tengen.endgame.predictors import (CountsEvaluations, KataPolicyPredictor, LocalMovePredictor,  # noqa: E402
                                       LocalNetPredictor, ReportsProblems)
from tengen.eval.evaluation import (Caching, Described, Evaluation, Evaluator, OnDevice, ReportsFresh,  # noqa: E402
                                    Symmetric, SweepsKomi, sweeps_komi)
from tengen.eval.valuenet.evaluator import ValueNetEvaluator  # noqa: E402
from tengen.go.board import Board  # noqa: E402
from tengen.go.diagram import board_from_diagram  # noqa: E402


def shipped_evaluators():
    tiny = make_evaluator("katago", model="tiny")
    return {"katago (tiny)": tiny, "classic": make_evaluator("classic"),
            "playouts": make_evaluator("playouts", playouts=4), "value net": ValueNetEvaluator(),
            "cached": CachedEvaluator(tiny)}


@pytest.mark.parametrize("name", list(shipped_evaluators()))
def test_every_evaluator_meets_the_contract(name):
    evaluator = shipped_evaluators()[name]
    assert isinstance(evaluator, Evaluator)
    board = Board(19) if name == "value net" else board_from_diagram(ONE_DAME)  # the value net: 19x19 only
    (ev,) = evaluator.evaluate([board])
    assert isinstance(ev, Evaluation) and ev.ownership.shape == (board.height, board.width)
    assert ev.policy.shape == (board.height, board.width) and np.isfinite(ev.score_lead)
    # the optional members: absent, or exactly as written down
    if hasattr(evaluator, "symmetries"):
        assert isinstance(evaluator, Symmetric) and isinstance(evaluator.symmetries, int)
    if hasattr(evaluator, "clear_cache"):
        assert isinstance(evaluator, Caching) and evaluator.clear_cache() is None
    if hasattr(evaluator, "fresh"):
        assert isinstance(evaluator, ReportsFresh) and all(isinstance(f, bool) for f in evaluator.fresh)
    if hasattr(evaluator, "display_name") or hasattr(evaluator, "uses_network"):
        assert isinstance(evaluator, Described)
        assert isinstance(evaluator.display_name, str) and isinstance(evaluator.uses_network, bool)
    if hasattr(evaluator, "device"):
        assert isinstance(evaluator, OnDevice) and str(evaluator.device).split(":")[0] in ("cpu", "cuda")
    if sweeps_komi(evaluator):
        assert isinstance(evaluator, SweepsKomi)
        (swept,) = evaluator.evaluate([board], komi_sweep=[0.5, 7.5])
        assert set(swept.winrate_by_komi) == {0.5, 7.5}


def test_make_evaluator_names_each_evaluator_and_refuses_others():
    assert set(EVALUATORS) == {"katago", "classic", "playouts"}
    assert type(make_evaluator("playouts")).__name__ == "PlayoutEvaluator"
    with pytest.raises(ValueError, match="unknown evaluator 'magic' \\(choose katago, classic, playouts\\)"):
        make_evaluator("magic")
    with pytest.raises(FileNotFoundError, match="no such model file"):
        make_evaluator("katago", model="/nonexistent/model.bin.gz")


def test_every_predictor_meets_the_contract():
    tiny = make_evaluator("katago", model="tiny")
    for predictor in (KataPolicyPredictor(tiny), LocalNetPredictor()):
        assert isinstance(predictor, LocalMovePredictor) and isinstance(predictor.name, str)
        if hasattr(predictor, "evaluations_by_region"):
            assert isinstance(predictor, CountsEvaluations) and isinstance(predictor.evaluations_by_region, dict)
        if hasattr(predictor, "problems"):
            assert isinstance(predictor, ReportsProblems) and isinstance(predictor.problems, dict)
