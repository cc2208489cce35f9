"""`tengen batch`: turn selection, bounds, a folder with broken and non-Go records, resuming after an
interrupted or killed run without losing or duplicating a result, KaTrain's KT property, the backends'
identical outputs, and the CLI's one-line errors. The tiny random network keeps every run fast."""
from __future__ import annotations

import base64
import gzip
import json
import os
import signal
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tengen.batch.jobs import BatchError, JobSettings, collect_files, parse_turns
from tengen.batch.journal import JOURNAL
from tengen.batch.runner import run_batch
from tengen.cli import main

MOVES_9 = ["ee", "gc", "cg", "ge", "cc", "gg", "eg", "ce", "dc", "fd", "df", "ff", "ec", "gd"]


def record(moves: list[str], size: int = 9, extra: str = "") -> str:
    body = "".join(f";{'BW'[i % 2]}[{m}]" for i, m in enumerate(moves))
    return f"(;GM[1]FF[4]SZ[{size}]KM[7]RU[Chinese]{extra}{body})"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """Three good 9x9 records (one in a subfolder), a broken one, a non-Go one, and a text file."""
    d = tmp_path / "in"
    (d / "sub").mkdir(parents=True)
    (d / "g1.sgf").write_text(record(MOVES_9))
    (d / "g2.sgf").write_text(record(MOVES_9[:9]))
    (d / "sub" / "g3.sgf").write_text(record(MOVES_9[:12], extra="PB[x]"))
    (d / "broken.sgf").write_text("(;GM[1]SZ[9];B[ee];W[")
    (d / "chess.sgf").write_text("(;GM[2]SZ[8];B[aa])")
    (d / "notes.txt").write_text("not a record")
    return d


def settings(**kw) -> JobSettings:
    return JobSettings(**{"model": "tiny", "turns": "every:3,last", **kw})


def outputs(out: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted((out / "games").iterdir())}


def journal_ids(out: Path) -> list[str]:
    """The units journaled so far; read while a batch writes, the piece after the last newline may be a
    line still being written, so it is left out (as the journal itself does)."""
    lines = (out / JOURNAL).read_text().split("\n")[:-1]
    return [json.loads(line)["unit"] for line in lines if '"unit"' in line]


def output_ids(out: Path) -> list[str]:
    return [json.loads(line)["id"] for p in (out / "games").glob("*.jsonl") for line in p.read_text().splitlines()]


# ------------------------------------------------------------------ jobs
def test_turn_selection():
    assert parse_turns("every:3").turns(10) == [3, 6, 9]
    assert parse_turns("last").turns(10) == [10]
    assert parse_turns("all").turns(3) == [0, 1, 2, 3]
    assert parse_turns("2-4,8-").turns(10) == [2, 3, 4, 8, 9, 10]
    assert parse_turns("5,every:4,last").turns(9) == [4, 5, 8, 9]
    assert parse_turns("20-30").turns(10) == []
    assert parse_turns("last:3").turns(10) == [8, 9, 10]
    assert parse_turns("last:60").turns(4) == [0, 1, 2, 3, 4]
    assert parse_turns("last:2,every:5").turns(10) == [5, 9, 10]
    assert parse_turns("all").turns(6, from_move=4) == [4, 5, 6]
    for bad in ("", "every:0", "every:x", "last:0", "last:x", "last:5,last:0", "5-2", "-3", "first", "1.5"):
        with pytest.raises(BatchError, match="--turns"):
            parse_turns(bad)


def test_bounds_are_one_line_errors():
    for kw, flag in (({"visits": 0}, "--visits"), ({"visits": 10**6}, "--visits"), ({"what": "x"}, "--what"),
                     ({"max_moves": 0}, "--max-moves"), ({"from_move": -1}, "--from-move"),
                     ({"max_files": 0}, "--max-files"), ({"chunk": 0}, "--chunk")):
        with pytest.raises(BatchError, match=flag) as info:
            settings(**kw)
        assert "\n" not in str(info.value)


def test_collect_files_directory_glob_and_list(folder: Path, tmp_path: Path):
    names = [Path(j.path).name for j in collect_files([str(folder)])]
    assert names == ["broken.sgf", "chess.sgf", "g1.sgf", "g2.sgf", "g3.sgf"]
    listing = tmp_path / "list.txt"
    listing.write_text("# two records\nin/g1.sgf\n\nin/sub/g3.sgf\n")
    assert [Path(j.path).name for j in collect_files([str(listing), str(folder / "g1.sgf")])] == ["g1.sgf", "g3.sgf"]
    assert len(collect_files([str(folder / "*.sgf")])) == 4
    with pytest.raises(BatchError, match="--max-files 2"):
        collect_files([str(folder)], max_files=2)
    with pytest.raises(BatchError, match="matches no file"):
        collect_files([str(folder / "*.nothing")])


# ------------------------------------------------------------------ runs
def test_folder_with_broken_and_non_go_records(folder: Path, tmp_path: Path):
    out = tmp_path / "out"
    lines: list[str] = []
    summary = run_batch([str(folder)], str(out), settings(), workers=0, progress=False, log=lines.append)
    assert summary.complete and summary.files == 5
    reasons = {Path(p).name: r for p, r in summary.skipped}
    assert set(reasons) == {"broken.sgf", "chess.sgf"}
    assert "not a Go record" in reasons["chess.sgf"]
    assert all("\n" not in r for r in reasons.values())
    assert sum("skipped" in line for line in lines) == 2
    # 14 moves: 3, 6, 9, 12, 14; 9 moves: 3, 6, 9; 12 moves: 3, 6, 9, 12
    assert summary.units == summary.computed == 12 and summary.errors == 0
    files = outputs(out)
    assert len([n for n in files if n.endswith(".jsonl")]) == 3 and len(files) == 6
    assert sorted(output_ids(out)) == sorted(journal_ids(out)) and len(set(journal_ids(out))) == 12
    saved = json.loads((out / "summary.json").read_text())
    assert saved["units"] == 12 and len(saved["skipped"]) == 2
    # a second run finds everything done and changes nothing
    again = run_batch([str(folder)], str(out), settings(), workers=0, progress=False, log=lines.append)
    assert again.computed == 0 and again.done_before == 12 and outputs(out) == files


def test_katrain_analysis_property(folder: Path, tmp_path: Path):
    from sgfmill import sgf

    out = tmp_path / "out"
    run_batch([str(folder / "g2.sgf")], str(out), settings(turns="last"), workers=0, progress=False)
    sgf_file = next((out / "games").glob("*.sgf"))
    game = sgf.Sgf_game.from_bytes(sgf_file.read_bytes())
    assert game.get_root().get_raw("KTV") == b"1.0"
    node = game.get_main_sequence()[-1]
    ownership, policy, main = (gzip.decompress(base64.standard_b64decode(v)) for v in node.get_raw_list("KT"))
    assert len(struct.unpack("81e", ownership)) == 81 and len(struct.unpack("82e", policy)) == 82
    analysis = json.loads(main)
    line = json.loads(next((out / "games").glob("*.jsonl")).read_text())
    assert analysis["root"]["winrate"] == line["result"]["winrate"] and analysis["completed"] is True
    assert "tengen batch (eval, turn 9)" in node.get("C")


def test_resume_after_stop_loses_and_duplicates_nothing(folder: Path, tmp_path: Path):
    full, part = tmp_path / "full", tmp_path / "part"
    run_batch([str(folder)], str(full), settings(), workers=0, progress=False, log=lambda _: None)
    first = run_batch([str(folder)], str(part), settings(chunk=2), workers=0, progress=False, stop_after=5,
                      log=lambda _: None)
    assert first.computed == 5 and not first.complete
    with open(part / JOURNAL, "ab") as fh:  # a kill mid-write leaves a torn last line
        fh.write(b'{"unit":"abc:3:eval","file_id":"ab')
    second = run_batch([str(folder)], str(part), settings(chunk=2), workers=0, progress=False, log=lambda _: None)
    assert second.done_before == 5 and second.computed == 7 and second.complete
    ids = journal_ids(part)
    assert len(ids) == len(set(ids)) == 12
    assert outputs(part) == outputs(full)


@pytest.mark.parametrize("where", ["last", "middle"])
def test_a_journal_line_nested_past_the_parser_is_a_bad_line(folder: Path, tmp_path: Path, where: str):
    """Issue 47 item 6: 100,000 nested brackets (RecursionError in the JSON parser) are a torn last line, cut
    on resume, or a damaged line in the middle, refused in one line: never a traceback."""
    out = tmp_path / "out"
    run_batch([str(folder)], str(out), settings(chunk=2), workers=0, progress=False, stop_after=3, log=lambda _: None)
    deep = b"[" * 100_000 + b"]" * 100_000
    with open(out / JOURNAL, "ab") as fh:
        fh.write(deep + (b"\n" + b'{"unit": "x"}\n' if where == "middle" else b"\n"))
    if where == "middle":
        with pytest.raises(BatchError, match="is not JSON; the journal is damaged"):
            run_batch([str(folder)], str(out), settings(chunk=2), workers=0, progress=False, log=lambda _: None)
    else:
        again = run_batch([str(folder)], str(out), settings(chunk=2), workers=0, progress=False, log=lambda _: None)
        assert again.done_before == 3 and again.complete


def test_links_loops_and_the_output_folder_are_walked_once(folder: Path, tmp_path: Path):
    """Issue 47 item 5: link loops end (each folder entered once), a link to a parent adds nothing, a real
    file reached by several paths is one record, --out inside the input folder is never read back, and an
    unreadable folder is listed as skipped."""
    os.symlink(".", folder / "a")
    os.symlink(".", folder / "b")
    os.symlink("..", folder / "sub" / "up")
    os.symlink(folder / "g2.sgf", folder / "sub" / "same.sgf")
    closed = folder / "closed"
    closed.mkdir()
    (closed / "hidden.sgf").write_text(record(MOVES_9[:4]))
    closed.chmod(0)
    try:
        records = 5  # g1, g2, broken, chess and sub/g3 (the fixture's), each once
        out = folder / "out"
        result = run_batch([str(folder)], str(out), settings(), workers=0, progress=False, log=lambda _: None)
        assert result.complete
        summary = json.loads((out / "summary.json").read_text())
        assert summary["files"] == records + (1 if os.access(closed, os.R_OK) else 0)  # root reads anything
        unreadable = [s for s in summary["skipped"] if s["file"] == str(closed)]
        assert os.access(closed, os.R_OK) or (unreadable and "not readable" in unreadable[0]["reason"])
        again = run_batch([str(folder)], str(out), settings(), workers=0, progress=False, log=lambda _: None)
        assert again.computed == 0  # its own outputs (out/games/*.sgf) are not new inputs
    finally:
        closed.chmod(0o755)


def test_an_unreadable_folder_is_listed_not_lost(folder: Path, monkeypatch):
    """Running as root reads any folder, so the refusal is made for the test: the folder is reported."""
    real_scandir = os.scandir

    def scandir(path):
        if str(path).endswith("sub"):
            raise PermissionError(13, "Permission denied")
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    unreadable: list = []
    jobs = collect_files([str(folder)], unreadable=unreadable)
    assert [os.path.basename(j.path) for j in jobs] == ["broken.sgf", "chess.sgf", "g1.sgf", "g2.sgf"]
    assert unreadable == [(str(folder / "sub"), "folder not readable (Permission denied)")]


def test_resume_with_other_settings_is_refused(folder: Path, tmp_path: Path):
    out = tmp_path / "out"
    run_batch([str(folder / "g2.sgf")], str(out), settings(), workers=0, progress=False)
    with pytest.raises(BatchError, match="other settings .*turns"):
        run_batch([str(folder / "g2.sgf")], str(out), settings(turns="last"), workers=0, progress=False)


def test_per_file_bounds_skip_the_record(folder: Path, tmp_path: Path):
    summary = run_batch([str(folder / "g1.sgf"), str(folder / "g2.sgf")], str(tmp_path / "o"),
                        settings(max_moves=10), workers=0, progress=False, log=lambda _: None)
    assert [Path(p).name for p, _ in summary.skipped] == ["g1.sgf"] and "--max-moves 10" in summary.skipped[0][1]
    summary = run_batch([str(folder / "g2.sgf")], str(tmp_path / "o2"), settings(turns="all", max_turns=5),
                        workers=0, progress=False, log=lambda _: None)
    assert "10 turns selected (--max-turns 5)" in summary.skipped[0][1]
    summary = run_batch([str(folder / "g2.sgf")], str(tmp_path / "o3"), settings(max_file_bytes=20),
                        workers=0, progress=False, log=lambda _: None)
    assert "--max-file-bytes 20" in summary.skipped[0][1]


def test_search_and_endgame_kinds(folder: Path, tmp_path: Path):
    run_batch([str(folder / "g2.sgf")], str(tmp_path / "s"), settings(what="search", visits=8, turns="last"),
              workers=0, progress=False)
    line = json.loads(next((tmp_path / "s" / "games").glob("*.jsonl")).read_text())
    assert line["kind"] == "search" and line["result"]["visits"] == 8 and line["result"]["moves"]
    short = tmp_path / "short.sgf"  # the tiny network's random ownership makes later positions slow to analyze
    short.write_text(record(MOVES_9[:4]))
    run_batch([str(short)], str(tmp_path / "e"), settings(what="endgame", turns="every:1", from_move=4),
              workers=0, progress=False)
    line = json.loads(next((tmp_path / "e" / "games").glob("*.jsonl")).read_text())
    assert line["turn"] == 4 and "regions" in line["result"]


def test_process_pool_gives_the_same_outputs(folder: Path, tmp_path: Path):
    run_batch([str(folder)], str(tmp_path / "a"), settings(), workers=0, progress=False, log=lambda _: None)
    run_batch([str(folder)], str(tmp_path / "b"), settings(), workers=2, progress=False, log=lambda _: None)
    assert outputs(tmp_path / "a") == outputs(tmp_path / "b")


def test_resume_after_sigkill(folder: Path, tmp_path: Path):
    """The CLI killed with SIGKILL as soon as it has journaled some units, then run again."""
    for i in range(4, 12):
        (folder / f"more{i}.sgf").write_text(record(MOVES_9[:i]))
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "tengen", "batch", str(folder), "--out", str(out), "--model", "tiny",
           "--turns", "all", "--workers", "0", "--chunk", "1", "--no-progress"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and proc.poll() is None:
        if (out / JOURNAL).exists() and len(journal_ids(out)) >= 10:
            break
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    summary = json.loads((out / "summary.json").read_text())
    ids = journal_ids(out)
    assert summary["complete"] and len(ids) == len(set(ids)) == summary["units"]
    assert sorted(output_ids(out)) == sorted(ids)


@pytest.mark.slow
def test_ray_local_gives_the_same_outputs(folder: Path, tmp_path: Path):
    pytest.importorskip("ray", reason="the ray package is not installed (pip install 'tengen[ray]')")
    run_batch([str(folder)], str(tmp_path / "a"), settings(), workers=0, progress=False, log=lambda _: None)
    run_batch([str(folder)], str(tmp_path / "r"), settings(), workers=2, ray="local", progress=False,
              log=lambda _: None)
    assert outputs(tmp_path / "a") == outputs(tmp_path / "r")


# ------------------------------------------------------------------ CLI
@pytest.mark.parametrize("extra, message", [
    (["--turns", "every:0"], "--turns every:0: every:N needs N >= 1"),
    (["--visits", "0"], "--visits 0: must be 1.."),
    (["--max-moves", "0"], "--max-moves 0: must be 1.."),
    (["--model", "/nonexistent/net.bin.gz"], "--model /nonexistent/net.bin.gz: no such model file"),
    (["--workers", "-1"], "--workers -1: must be 0..256"),
])
def test_cli_one_line_errors(folder: Path, tmp_path: Path, capsys, extra: list[str], message: str):
    code = main(["batch", str(folder), "--out", str(tmp_path / "o"), "--model", "tiny", "--no-progress", *extra])
    err = capsys.readouterr().err
    assert code == 2 and message in err and err.count("\n") == 1 and "Traceback" not in err


def test_cli_missing_input_and_bad_out(tmp_path: Path, capsys):
    assert main(["batch", str(tmp_path / "none.sgf"), "--out", str(tmp_path / "o")]) == 2
    assert "no such file" in capsys.readouterr().err
    blocker = tmp_path / "file"
    blocker.write_text("x")
    (tmp_path / "g.sgf").write_text(record(MOVES_9[:3]))
    assert main(["batch", str(tmp_path / "g.sgf"), "--out", str(blocker), "--model", "tiny"]) == 2
    assert "--out" in capsys.readouterr().err
    with pytest.raises(SystemExit) as info:
        main(["batch", str(tmp_path / "g.sgf"), "--out", str(tmp_path / "o"), "--what", "nothing"])
    assert info.value.code == 2


def test_cli_runs_and_reports(folder: Path, tmp_path: Path, capsys):
    code = main(["batch", str(folder), "--out", str(tmp_path / "o"), "--model", "tiny", "--workers", "0",
                 "--turns", "last", "--no-progress"])
    captured = capsys.readouterr()
    assert code == 0 and "3 records" not in captured.out and "5 records, 2 skipped, 3 positions" in captured.out
    assert os.path.exists(tmp_path / "o" / "summary.json")


def test_each_result_says_what_rules_it_assumed():
    from tengen.batch.compute import compute_chunk
    from tengen.eval.katago.evaluator import KataGoEvaluator
    from tengen.eval.katago.tiny import random_model

    task = {"file_id": "f", "source": "norules.sgf", "data": b"(;GM[1]SZ[9]KM[6.5];B[ee];W[cc])", "turns": [1, 2],
            "settings": {"what": "eval", "maps": False, "model": None, "visits": 1}}
    units = compute_chunk(task, KataGoEvaluator(random_model(seed=0)))
    said = [u["result"]["rules_said"] for u in units]
    assert len(said) == 2 and all(
        s.startswith("chinese rules (area scoring) assumed: the record names no rules (RU)")
        and s.endswith("komi 6.5 as the record says (KM)") for s in said)
