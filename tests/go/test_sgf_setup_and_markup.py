"""The SGF reader's setup and markup (issue 61, item 11): a point set up for both colors and a setup chain
without liberties are refused in one line; an empty value in a point list (SQ) is no point, alone or not."""
from __future__ import annotations

import re

import pytest

from tengen.cli import main
from tengen.go.sgf import SgfError, load_game_bytes, markup_points


@pytest.mark.parametrize("record, problem", [
    (b"(;GM[1]SZ[9]AB[aa]AW[aa];B[ee])", "node 0: A9 is set up for both colors (AB and AW)"),
    (b"(;GM[1]SZ[9]AB[aa]AW[ba][ab])", "impossible setup: the Black chain at A9 has no liberties"),
    (b"(;GM[1]SZ[9]AW[aa][ba]AB[ca][ab][bb])", "impossible setup: the White chain at A9 has no liberties"),
    (b"(;GM[1]SZ[9];B[ee];AW[aa][ba];AB[ca][ab][bb])", "impossible setup: the White chain at A9 has no liberties"),
])
def test_impossible_setups_are_refused_in_one_line(tmp_path, capsys, record, problem):
    with pytest.raises(SgfError, match=re.escape(problem)):
        load_game_bytes(record, "setup.sgf")
    path = tmp_path / "setup.sgf"
    path.write_bytes(record)
    assert main(["show", str(path)]) == 2
    assert capsys.readouterr().err == f"tengen: error: {path}: {problem}\n"


def test_a_setup_that_leaves_every_chain_a_liberty_is_read():
    game = load_game_bytes(b"(;GM[1]SZ[9]AB[aa]AW[ba][bb];B[ee])")
    assert game.board_at(1).get((0, 0)) == 1  # A9 keeps its liberty A8


@pytest.mark.parametrize("values, points", [
    (b"SQ[]", []),
    (b"SQ[][cc]", [(2, 2)]),
    (b"SQ[cc][]", [(2, 2)]),
    (b"SQ[aa:bb]", [(0, 0), (0, 1), (1, 0), (1, 1)]),
])
def test_an_empty_value_in_a_point_list_is_no_point(values, points):
    root = load_game_bytes(b"(;GM[1]SZ[9]" + values + b")").sgf.get_root()
    assert markup_points(root, "SQ", 9) == points


@pytest.mark.parametrize("values", [b"SQ[zz]", b"SQ[tt]", b"SQ[bb:aa]", b"SQ[a]", b"SQ[aa:bb:cc]"])
def test_a_value_that_is_not_a_point_of_the_board_is_refused(values):
    root = load_game_bytes(b"(;GM[1]SZ[9]" + values + b")").sgf.get_root()
    with pytest.raises(ValueError, match="SQ\\[\\] on the analyzed node holds a value that is not a point"):
        markup_points(root, "SQ", 9)


def test_an_empty_markup_value_beside_a_point_marks_that_point_for_the_analysis(tmp_path, capsys):
    path = tmp_path / "marked.sgf"  # the one-point region A1, marked SQ[][aa]: solved as if marked SQ[aa]
    path.write_bytes(b"(;GM[1]SZ[5]KM[0]AB[ad][bd][be]AW[cd][ce][dd]SQ[][ae])")
    assert main(["analyze", str(path), "--predictor", "exhaustive", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^A\s+A1\s+1\s", out, re.M)  # region A: the point A1 alone
