"""The komi survey (the evidence for the records' komi defaults): how a counted result ends, and an archive's
counts of stated komi, KM[0] / missing in even games, and HA[1] games."""

from __future__ import annotations

import pytest

from tengen.train.records.komi_survey import margin_ending, survey_archive, survey_lines

from train_fixtures import sgf, write_archive


@pytest.mark.parametrize("result, ending", [
    ("B+0.5", "half"), ("W+12.5", "half"), ("W+3", "whole"), ("B+2.0", "whole"), ("B+3.75", "quarter"),
    ("W+0.25", "quarter"), ("B+1.02", "other"), ("B+R", None), ("W+0.0", None), ("Draw", None), (None, None),
])
def test_how_a_counted_result_ends(result, ending):
    assert margin_ending(result) == ending


def test_survey_of_one_archive(tmp_path):
    moves = ["B[pd]", "W[dp]"]
    games = {
        "a.sgf": sgf(moves, "KM[750]RE[B+R]"),
        "b.sgf": sgf(moves, "KM[650]RE[W+1.5]"),
        "c.sgf": sgf(moves, "KM[0]RU[Japanese]RE[W+2.5]"),
        "d.sgf": sgf(moves, "KM[0]RU[Japanese]RE[B+3]"),
        "e.sgf": sgf(moves, "RE[B+R]"),
        "f.sgf": sgf(moves, "KM[0]HA[1]RE[W+6.0]"),  # HA[1]: not even, no komi
        "g.sgf": sgf(moves, "KM[0]HA[2]AB[dd][pp]RE[W+6.5]"),  # a handicap game: left out
        "h.sgf": b"not a game",
    }
    write_archive(tmp_path / "fox_pro_test.tar.xz", games)
    collection, counts = survey_archive(str(tmp_path / "fox_pro_test.tar.xz"))
    assert collection == "fox_pro"
    assert dict(counts) == {
        "unreadable": 1, "even": 5, "stated 7.5": 1, "stated 6.5": 1, "zero": 2, "unstated": 1,
        "zero counted half": 1, "zero counted whole": 1, "unstated RU Japanese": 2, "unstated RU (none)": 1,
        "ha1": 1, "ha1 counted whole": 1,
    }
    text = "\n".join(survey_lines({collection: counts}))
    assert "KM[0] in 2; counted results 2: ending in a half point 1, a whole point 1" in text
    assert "no readable KM in 1; counted results 0" in text
    assert "dataset komi for them: 7.5" in text
