"""The `tengen` command: outputs on the bundled example, and one-line errors with exit status 2 on bad input."""
from __future__ import annotations

import re

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
    assert "recorded result: W+10.5" in out and out.strip().endswith(
        "score: W+10.5\ncomparison: the score agrees with the recorded result")


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
    (["analyze", EXAMPLE, "--move-check", "abc"], "tengen analyze: error: argument --move-check: invalid finite number value: 'abc'"),
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
    (b"(;GM[1]SZ[9]SQ[zz])", ["--predictor", "exhaustive"], "SQ[] on the analyzed node holds a value that is not a point", 2),
    (b"(;GM[2]SZ[9];B[aa])", [], "not a Go record (GM[2]; Go is GM[1])", 2),
    # A2 (outside the one-point region A1) touches Black's A3 and White's B2: neutral; B1 is White's (B2 is
    # nearest), so Black's A1 breaks in and White's only fills: no value. The region's own problem is
    # reported in its row and the analysis goes on
    (b"(;GM[1]SZ[9]AB[ag]AW[bh])", ["--predictor", "exhaustive", "--region", "A1"],
     "unsolved: the exact solver declined: unbounded", 0),
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
    assert sorted(p.name for p in plots.iterdir()) == ["region_A.png"]


def test_plots_of_an_earlier_analysis_in_the_same_folder_are_removed(tmp_path):
    """A folder reused for plots holds this analysis's plots only; other files in it are kept."""
    src = tmp_path / "diagram.sgf"
    src.write_text(DIAGRAM)
    plots = tmp_path / "plots"
    plots.mkdir()
    for name in ("region_A.png", "region_C.png", "region_AB.png", "notes.txt", "region_c.png"):
        (plots / name).write_text("older")
    assert main(["analyze", str(src), "--predictor", "exhaustive", "--plots", str(plots), "--no-progress"]) == 0
    assert sorted(p.name for p in plots.iterdir()) == ["notes.txt", "region_A.png", "region_c.png"]
    assert (plots / "region_A.png").read_bytes().startswith(b"\x89PNG")


# ---------------------------------------------------------------- hostile input found by probing the CLI
@pytest.mark.parametrize("argv,message", [
    (["analyze", EXAMPLE, "--predictor", "net", "--local-model", "/nonexistent"], "no such local-move network weights file"),
    (["analyze", EXAMPLE, "--region", ""], "--region: no points given"),
    (["analyze", EXAMPLE, "--json", ""], "--json: an empty file name"),
    (["analyze", EXAMPLE, "--threshold", "0"], "--threshold must lie in (0, 1]"),
    (["analyze", EXAMPLE, "--margin", "-5"], "--margin from 0 to 25"),
    (["analyze", EXAMPLE, "--margin", "1000000000"], "--margin from 0 to 25"),  # issue 47 item 7: it hung
    (["analyze", EXAMPLE, "--json", EXAMPLE], f"--json {EXAMPLE}: is the input record"),
    (["analyze", EXAMPLE, "--json", "same.out", "--sgf", "same.out"], "--json and --sgf name the same file"),
    (["analyze", EXAMPLE, "--plots", EXAMPLE + "/plots"], "--plots " + EXAMPLE + "/plots: cannot create it under"),
    (["influence", EXAMPLE, "--png", str(REPO)], "--png " + str(REPO) + ": is a directory"),
    (["winner", EXAMPLE, "--model", "bogus"], "no winner model named 'bogus' (known: logreg-bouzy-130,"),
])
def test_bad_requests_are_refused_before_any_work(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


@pytest.mark.parametrize("argv", [["analyze", EXAMPLE, "--threshold", "nan"], ["gtp", "--komi", "inf"]])
def test_numbers_that_are_not_finite_are_refused_by_the_parser(capsys, argv):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2 and "invalid finite number value" in capsys.readouterr().err


@pytest.mark.parametrize("km", ["inf", "nan", "1e999"])
def test_a_komi_that_is_not_a_finite_number_is_refused(tmp_path, capsys, km):
    path = tmp_path / "komi.sgf"
    path.write_text(f"(;GM[1]SZ[9]KM[{km}];B[ee])")
    assert main(["score", str(path), "--benson"]) == 2
    assert f"komi KM[{km}] is not a finite number" in capsys.readouterr().err


@pytest.mark.parametrize("props,warning,shown", [
    ("KM[abc]", "KM[abc] is not a number; komi 0 assumed", "komi 0,"),
    ("KM[6,5]", None, "komi 6.5,"),  # a decimal comma
    ("RU[bogus]", "RU[bogus] is not a rule set tengen knows; Japanese rules (territory scoring) assumed", "rules: japanese"),
    ("RU[GOE]", None, "rules: tromp-taylor"),  # Ing / GOE count area
    ("HA[-1]", "HA[-1] is not a handicap; 0 assumed", "handicap 0;"),
    ("PL[X]", "PL[X] is not a color; ignored", "to play: White"),
    ("AB[aa]AE[aa]", "node 0: A9 is set up twice (AB / AW / AE); the last of AE, AB, AW wins", "9 X"),
    ("", None, "rules: chinese (assumed: the record has no RU), komi 0,"),
    ("RU[Chinese]", None, "rules: chinese, komi 0,"),
])
def test_properties_read_leniently_are_named_on_stderr(tmp_path, capsys, props, warning, shown):
    path = tmp_path / "props.sgf"
    path.write_text(f"(;GM[1]SZ[9]{props};B[ee])")
    assert main(["show", str(path)]) == 0
    captured = capsys.readouterr()
    assert captured.err == ("" if warning is None else f"tengen: warning: {path}: {warning}\n")
    assert shown in captured.out


def test_a_device_is_refused_without_reading_it(capsys):
    import os

    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero on this system")
    assert main(["show", "/dev/zero"]) == 2
    assert "/dev/zero: is not a regular file (a pipe or a device)" in capsys.readouterr().err


def _diagram(tmp_path):
    src = tmp_path / "diagram.sgf"
    src.write_text(DIAGRAM)
    return src


def test_outputs_are_never_written_over_a_pipe_and_go_through_a_symlink(tmp_path, capsys):
    import os

    src = _diagram(tmp_path)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert main(["analyze", str(src), "--predictor", "exhaustive", "--no-progress", "--json", str(fifo)]) == 2
    assert "is not a regular file" in capsys.readouterr().err and fifo.is_fifo()
    target, link = tmp_path / "target.json", tmp_path / "link.json"
    target.write_text("old")
    link.symlink_to(target.name)
    assert main(["analyze", str(src), "--predictor", "exhaustive", "--no-progress", "--json", str(link)]) == 0
    assert link.is_symlink() and target.read_text().startswith("{")


def test_influence_png_is_written_under_the_name_given(tmp_path, capsys):
    out = tmp_path / "heat"  # no .png suffix: still that file, not heat.png
    assert main(["influence", str(_diagram(tmp_path)), "--png", str(out)]) == 0
    assert out.read_bytes()[:4] == b"\x89PNG" and not (tmp_path / "heat.png").exists()
    assert capsys.readouterr().out.strip().endswith(f"wrote {out}")


def test_the_table_shows_an_unanswered_threat_as_unsolved(tmp_path, capsys):
    """A Black stone dropped into White's area of the diagram (G3) breaks the seal: a threat stays unanswered
    in the region, which has no value: the table says unsolved and why, never a count or a temperature."""
    src = tmp_path / "threat.sgf"
    src.write_text(DIAGRAM.replace("AB[ai]", "AB[gg][ai]"))
    assert main(["analyze", str(src), "--predictor", "exhaustive", "--no-progress"]) == 0
    out = capsys.readouterr().out
    row = out.splitlines()[3]  # after the rules line, the table's header and its rule
    assert "unsolved" in row and row.split()[3:5] == ["-", "-"]  # count and temperature
    assert "unsolved: the exact solver declined: unbounded" in out and "temperature inf" not in out


def test_a_closed_output_pipe_is_not_an_error():
    import subprocess
    import sys

    proc = subprocess.run(f"{sys.executable} -m tengen show {EXAMPLE} | head -1", shell=True, capture_output=True,
                          text=True, timeout=120)
    assert proc.stdout.startswith("19 ") and proc.stderr == ""


def test_move_n_reads_the_node_whose_position_it_analyzes(tmp_path, capsys):
    """Setup and markup after move N belong to the position after N moves: `--move 1` (here also the last
    move) must read the SQ[] region on the node after B G3, as leaving `--move` out does."""
    from tengen.go.sgf import load_game

    path = tmp_path / "after.sgf"
    path.write_text(DIAGRAM.replace("PL[B]", "KM[0];B[gg];PL[B]").replace("(;GM[1]FF[4]SZ[9]KM[0]RU[Chinese]", "(;GM[1]FF[4]SZ[9]RU[Chinese]"))
    game = load_game(path)
    assert game.node_at(1) is game.node_at(None) and game.node_at(1).has_property("SQ")
    assert game.node_at(0) is game.sgf.get_root()
    outputs = []
    for extra in (["--move", "1"], []):
        assert main(["analyze", str(path), "--predictor", "exhaustive", "--no-progress", *extra]) == 0
        outputs.append(capsys.readouterr().out.split("predictor exhaustive")[0])
    assert outputs[0] == outputs[1] and "recommended for" in outputs[0]


@pytest.mark.parametrize("variations,named", [
    ("(;B[ai])(;W[bi])", ["B A1 is illegal (occupied), left out", "W B1 is illegal (occupied), left out"]),
    ("(;B[ei];W[tt];B[fi])(;W[ei])", ["after B E1: W passes: the line ends there"]),
    ("(;W[ei])(;B[zz])", ["a move off the 9x9 board, left out"]),
    ("", ["none entered (the node has no child moves), so nothing is read"]),
])
def test_oracle_variations_it_cannot_play_are_named_not_dropped(tmp_path, capsys, variations, named):
    path = tmp_path / "oracle.sgf"
    path.write_text(DIAGRAM[:-1] + variations + ")")
    assert main(["analyze", str(path), "--predictor", "oracle", "--leaves", "exact", "--move", "0", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert all("SGF variation " in out and text in out for text in named), out


# ---------------------------------------------------------------- what `analyze` writes (found by checking its outputs)
def test_sgf_output_keeps_the_main_line_and_a_second_run_replaces_the_first(tmp_path, capsys):
    """At the end of a record the best sequences must not become the game's continuation (the first child
    is the main line in SGF); analyzing the output again replaces tengen's comment and lines."""
    from tengen.go.sgf import load_game

    src = _diagram(tmp_path)
    once, twice = tmp_path / "once.sgf", tmp_path / "twice.sgf"
    assert main(["analyze", str(src), "--predictor", "exhaustive", "--no-progress", "--sgf", str(once)]) == 0
    assert main(["analyze", str(once), "--predictor", "exhaustive", "--no-progress", "--sgf", str(twice)]) == 0
    capsys.readouterr()
    for path in (once, twice):
        game = load_game(path)
        assert game.moves == [] and game.node_at(None) is game.sgf.get_root()  # main line as recorded
        root = game.sgf.get_root()
        assert root.get("C").count("tengen endgame analysis") == 1
        assert [c.get_move()[0] for c in root] == [None, "b", "w"]  # the end marker, then Black's and White's lines
    # the same file, but for the wall-clock seconds the comment reports
    timing = re.compile(rb"network evaluations; [0-9.]+ s")
    assert timing.search(once.read_bytes())
    assert timing.sub(b"", once.read_bytes()) == timing.sub(b"", twice.read_bytes())


def test_sgf_output_merges_labels_and_survives_a_comment_in_another_charset(tmp_path, capsys):
    from tengen.go.sgf import load_game

    src = tmp_path / "labels.sgf"
    src.write_bytes(DIAGRAM[:-1].encode().replace(b"PL[B]", b"PL[B]CA[UTF-8]LB[ia:Z]C[caf\xe9 \xab]") + b")")
    out = tmp_path / "out.sgf"
    assert main(["analyze", str(src), "--predictor", "exhaustive", "--no-progress", "--sgf", str(out)]) == 0
    root = load_game(out).sgf.get_root()
    labels = dict(root.get("LB"))
    assert labels[(8, 8)] == "Z" and labels[(0, 4)] == "A"  # the record's label kept beside the region's (E1)
    assert root.get("C").startswith("caf\ufffd") and "tengen endgame analysis" in root.get("C")


def test_sgf_output_is_valid_in_its_charset_where_the_record_was_not(tmp_path, capsys):
    """Latin-1 bytes under CA[UTF-8] outside the analyzed node (a player name, a later comment) are written
    as U+FFFD, with a warning, so that the output is valid UTF-8; the moves stay as they were."""
    src = tmp_path / "mixed.sgf"
    record = DIAGRAM[:-1].encode().replace(b"PL[B]", b"PL[B]CA[UTF-8]PW[Jos\xe9]") + b";B[aa]C[d\xe9j\xe0])"
    src.write_bytes(record)
    out = tmp_path / "out.sgf"
    assert main(["analyze", str(src), "--move", "0", "--predictor", "exhaustive", "--no-progress",
                 "--sgf", str(out)]) == 0
    assert "2 value(s) of the record held bytes its charset (UTF-8) cannot decode" in capsys.readouterr().err
    text = out.read_bytes().decode("utf-8")  # fails on the raw latin-1 bytes
    assert "PW[Jos\ufffd]" in text and "C[d\ufffdj\ufffd]" in text and ";B[aa]" in text


def test_json_is_strict_an_unanswered_threat_is_unsolved_and_the_exact_game_is_named(tmp_path, capsys):
    import json

    src = tmp_path / "threat.sgf"
    src.write_text(DIAGRAM.replace("AB[ai]", "AB[gg][ai]"))
    out = tmp_path / "out.json"
    assert main(["analyze", str(src), "--predictor", "exhaustive", "--no-progress", "--json", str(out)]) == 0

    def refuse(constant):
        raise AssertionError(f"not strict JSON: {constant}")

    report = json.loads(out.read_text(), parse_constant=refuse)
    threat = report["regions"][0]
    assert (threat["type"], threat["count"], threat["temperature"]) == ("unsolved", None, None)  # never a value
    assert "unbounded" in threat["declined"]
    plain = tmp_path / "plain.json"
    assert main(["analyze", str(_diagram(tmp_path)), "--predictor", "exhaustive", "--no-progress", "--json", str(plain)]) == 0
    region = json.loads(plain.read_text())["regions"][0]
    assert region["game"] is None and region["exact_rules"] is True  # kos inside: no plain game to write
    assert json.loads(plain.read_text())["board_count"] is None  # no network: the rest of the board is not counted
    assert "count of the analyzed regions" in capsys.readouterr().out


def test_sgf_output_of_a_collection_says_it_writes_the_first_game_alone(tmp_path, capsys):
    src = tmp_path / "two.sgf"
    src.write_text(DIAGRAM + "(;GM[1]SZ[9]GN[second game];B[ee])")
    assert main(["analyze", str(src), "--predictor", "exhaustive", "--no-progress", "--sgf", str(tmp_path / "o.sgf")]) == 0
    assert f"{src}: the file holds 2 games; the first is analyzed and --sgf writes it alone" in capsys.readouterr().err


# A textbook diagram as input: the root only sets up stones (AB/AW) and marks the region (SQ). On a 19x19
# board: Black A2-D2, White E2-H2, the first-line hane-connect C1-F1 marked.
SETUP_ONLY = "(;GM[1]FF[4]SZ[19]AB[ar][br][cr][dr]AW[er][fr][gr][hr]SQ[cs][ds][es][fs])"


def test_a_marked_diagram_is_analyzed_exactly_with_no_network_at_all(tmp_path, capsys, monkeypatch):
    """Solved exactly, the region needs no model: no KataGo evaluator is built, no network file is looked for
    or downloaded (an empty model folder, every socket refused); the report gives both colours' principal
    lines and the thermograph in text."""
    import json
    import socket

    import tengen.eval.katago.evaluator as katago
    import tengen.eval.katago.weights as weights

    def refuse(*args, **kwargs):
        raise AssertionError("an exactly solved diagram must not load or fetch a network")

    models = tmp_path / "models"
    models.mkdir()
    monkeypatch.setenv("TENGEN_MODEL_DIR", str(models))
    monkeypatch.setattr(katago.KataGoEvaluator, "__init__", refuse)
    monkeypatch.setattr(weights, "default_model_path", refuse)
    monkeypatch.setattr(weights, "fetch_default_model", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)
    src = tmp_path / "diagram.sgf"
    src.write_text(SETUP_ONLY)
    out = tmp_path / "out.json"
    assert main(["analyze", str(src), "--no-progress", "--json", str(out)]) == 0  # the default predictor: auto
    text = capsys.readouterr().out
    assert "answered by the exact solver" in text
    assert "Black first: B E1" in text and "White first: W D1" in text
    assert "thermograph: left 0:2 2:0 | right 0:-2 2:0 | mean 0, temperature 2" in text
    (region,) = json.loads(out.read_text())["regions"]
    assert (region["method"], region["count"], region["temperature"], region["type"]) == ("exhaustive", 0, 2, "gote")
    assert region["principal_black"].startswith("B E1") and region["principal_white"].startswith("W D1")
    assert region["thermograph"] == "left 0:2 2:0 | right 0:-2 2:0 | mean 0, temperature 2"
    assert list(models.iterdir()) == []
