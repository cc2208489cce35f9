"""The dev set's 33 sealed problems through the analyzer with their own trees as the predictor and
leaves counted by tengen's rules core: temperature, mean and type must all match."""
from __future__ import annotations

import pytest

from datapaths import shared_data
from tengen.endgame.analysis import analyze_region
from tengen.endgame.options import AnalysisOptions
from devkit.devset import load_problems, tree_oracle
from tengen.endgame.tree import GrowthConfig

TYPE_OF = {"gote": "gote", "black_sente": "sente", "white_sente": "sente", "ko": "ko"}


def _problems():
    return load_problems(shared_data("endgame_dev", "problems.json"))


def test_all_33_problems_match_with_oracle_trees_and_exact_leaves():
    problems = _problems()
    assert len(problems) == 33
    misses = []
    for p in problems:
        r = analyze_region(p.board, p.region, None, AnalysisOptions(
            predictor=tree_oracle(p), growth=GrowthConfig(missing_color="threat"),
            leaf_scoring="exact"))
        if (r.temperature != pytest.approx(float(p.expected_temperature))
                or r.count != pytest.approx(float(p.expected_mean)) or TYPE_OF.get(r.kind) != p.expected_type):
            misses.append((p.id, r.temperature, r.count, r.kind))
    assert misses == []


def test_correct_first_moves_are_among_the_best():
    for p in _problems():
        r = analyze_region(p.board, p.region, None, AnalysisOptions(
            predictor=tree_oracle(p), growth=GrowthConfig(missing_color="threat"),
            leaf_scoring="exact"))
        best = {(1, q) for q in r.best_black} | {(-1, q) for q in r.best_white}
        assert set(p.correct_moves) <= best, p.id
