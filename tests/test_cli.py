"""The `tengen` command: outputs on the bundled example, and one-line errors with exit status 2 on bad input."""
from __future__ import annotations

import pytest

from datapaths import REPO
from tengen.cli import main

EXAMPLE = str(REPO / "src" / "tengen" / "data" / "example.sgf")


def test_show_prints_the_position(capsys):
    assert main(["show", EXAMPLE, "--move", "3"]) == 0
    out = capsys.readouterr().out
    assert "move 3 of 180; last move: B Q4; to play: White" in out


def test_score_with_benson_only(capsys):
    assert main(["score", EXAMPLE, "--benson"]) == 0
    assert "score: " in capsys.readouterr().out


@pytest.mark.network_model
def test_score_with_network_dead_stones_matches_the_record(capsys):
    assert main(["score", EXAMPLE]) == 0
    out = capsys.readouterr().out
    assert "recorded result: W+10.5" in out and out.strip().endswith("score: W+10.5")


@pytest.mark.parametrize("argv,message", [
    (["show", "missing.sgf"], "missing.sgf: No such file or directory"),
    (["show", EXAMPLE, "--move", "999"], "move 999 is out of range"),
    (["analyze", EXAMPLE, "--predictor", "exhaustive"], "needs a region"),
    (["analyze", EXAMPLE, "--max-total-nodes", "-1"], "at least 0"),
    (["analyze", EXAMPLE, "--predictor", "oracle", "--region", "Z99", "--leaves", "exact"], "off the 19x19 board"),
    # outputs that cannot be written are refused before the analysis runs
    (["analyze", EXAMPLE, "--json", "/nonexistent/folder/out.json"], "--json /nonexistent/folder/out.json: cannot write into /nonexistent/folder"),
    (["analyze", EXAMPLE, "--sgf", str(REPO)], "is a directory, not a file"),
    (["analyze", EXAMPLE, "--plots", EXAMPLE], "exists and is not a directory"),
])
def test_bad_input_gives_one_line_and_exit_2(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("tengen: error: ") and message in err


@pytest.mark.parametrize("argv,message", [
    (["analyze", EXAMPLE, "--move-check", "abc"], "tengen analyze: error: argument --move-check: invalid float value: 'abc'"),
    (["analyze", EXAMPLE, "--predictor", "magic"], "tengen analyze: error: argument --predictor: invalid choice: 'magic'"),
    (["analyze"], "tengen analyze: error: the following arguments are required: FILE.sgf"),
    (["bogus"], "tengen: error: argument COMMAND: invalid choice: 'bogus'"),
])
def test_a_bad_flag_is_one_line_and_exit_2_before_anything_runs(capsys, argv, message):
    # argparse's error path, without its usage block: one line naming where the usage is
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(message) and "--help" in err


def test_malformed_sgf_is_a_clean_error(tmp_path, capsys):
    bad = tmp_path / "bad.sgf"
    bad.write_bytes(b"(;GM[1]SZ[19];B[zz]")
    assert main(["show", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"tengen: error: {bad}") and err.count("\n") == 1


@pytest.mark.parametrize("sgf,argv,message,exit_code", [
    (b"(;GM[1]SZ[9]SQ[zz])", ["--predictor", "exhaustive"], "SQ[] on the analysed node holds a value that is not a point", 2),
    (b"(;GM[2]SZ[9];B[aa])", [], "not a Go record (GM[2]; Go is GM[1])", 2),
    # A2 (outside the one-point region A1) touches Black's A3 and White's B2: no colour owns it; the region's
    # own problem is reported in its row and the analysis goes on
    (b"(;GM[1]SZ[9]AB[ag]AW[bh])", ["--predictor", "exhaustive", "--region", "A1"], "outside point A2 borders both colours", 0),
])
def test_analyze_names_record_markup_and_seal_problems_in_one_line(tmp_path, capsys, sgf, argv, message, exit_code):
    path = tmp_path / "diagram.sgf"
    path.write_bytes(sgf)
    code = main(["analyze", str(path), "--no-progress", *argv])
    captured = capsys.readouterr()
    assert message in captured.err + captured.out
    assert code == exit_code
    if exit_code:
        assert captured.err.count("\n") == 1


def test_an_illegal_move_in_the_record_is_named_on_stderr_and_the_analysis_goes_on(tmp_path, capsys):
    path = tmp_path / "illegal.sgf"
    path.write_bytes(b"(;GM[1]SZ[9];B[aa];W[aa];B[ee])")  # W A9 on Black's stone
    assert main(["show", str(path)]) == 0
    captured = capsys.readouterr()
    assert captured.err == f"tengen: warning: {path}: move 2 (W A9) is illegal: occupied; placed as the record says\n"
    assert "move 3 of 3" in captured.out


# A sealed 9x9 local diagram (dev-set shape P08): walls on the D and E files, the region marked SQ[].
DIAGRAM = ("(;GM[1]FF[4]SZ[9]KM[0]RU[Chinese]PL[B]"
           "AB[ai][ah][ab][bh][bb][ba][ch][cb][dh][dg][df][de][dd][dc][db][da]"
           "AW[bi][ci][di][eh][eg][ef][ee][ed][ec][eb][ea][fb][gb][ga][hb][ib][ia]"
           "SQ[ai][ah][bi][bh][ci][ch][di][ei][fi])")


def test_analyze_writes_table_json_sgf_and_plots(tmp_path, capsys):
    import json

    src = tmp_path / "diagram.sgf"
    src.write_text(DIAGRAM)
    out_json, out_sgf, plots = tmp_path / "a.json", tmp_path / "a.sgf", tmp_path / "plots"
    assert main(["analyze", str(src), "--predictor", "exhaustive", "--json", str(out_json), "--sgf", str(out_sgf),
                 "--plots", str(plots), "--no-progress"]) == 0
    table = capsys.readouterr().out
    assert "recommended for Black" in table
    report = json.loads(out_json.read_text())
    assert [r["temperature"] for r in report["regions"]] == [4]
    assert "C[" in out_sgf.read_text() and src.read_text() == DIAGRAM  # the input is left as it was
    assert sorted(p.suffix for p in plots.iterdir()) == [".png"]
