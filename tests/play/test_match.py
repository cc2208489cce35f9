"""The match runner: games, SGFs, results, resume, the 95 % interval, misbehaving engines, the command line."""
from __future__ import annotations

import json
import math
import os
import shlex
import subprocess
import sys
import textwrap

import pytest

from tengen.eval.gtp_client import find_gnugo
from tengen.go.colors import BLACK, WHITE
from tengen.go.sgf import load_game
from tengen.play.match import MatchError, MatchSettings, main, merge_match, run_match, summarize
from tengen.play.match_record import (GameResult, exact_bound_all_or_none, interval95, read_results,
                                      summarize_results)

GNUGO = find_gnugo()
needs_gnugo = pytest.mark.skipif(GNUGO is None, reason="GNU Go is not installed (/usr/games/gnugo): skipped")
PY = shlex.quote(sys.executable)
TENGEN = f"{PY} -m tengen gtp"
TIMEOUT = 120.0  # per GTP answer: generous, the machine is shared

FAKE = textwrap.dedent('''\
    """A GTP engine that misbehaves on purpose: MODE pass | illegal | refuse | garbage | die-as-white."""
    import os, sys
    mode = sys.argv[1]
    for line in sys.stdin:
        parts = line.split()
        if not parts:
            continue
        cid, cmd, args = (parts[0], parts[1], parts[2:]) if parts[0].isdigit() else ("", parts[0], parts[1:])
        def answer(text="", ok=True):
            sys.stdout.write(("=" if ok else "?") + cid + " " + text + "\\n\\n")
            sys.stdout.flush()
        if cmd == "quit":
            answer()
            break
        if cmd == "name":
            answer("fake-" + mode)
        elif cmd == "genmove":
            if mode == "die-as-white" and args[0].lower().startswith("w"):
                os._exit(3)
            answer({"illegal": "A1", "refuse": "", "garbage": "Z99"}.get(mode, "pass"), ok=mode != "refuse")
        else:
            answer()
''')


@pytest.fixture
def fake(tmp_path):
    """A function: mode -> the fake engine's command line."""
    script = tmp_path / "fake_engine.py"
    script.write_text(FAKE)
    return lambda mode: f"{PY} {shlex.quote(str(script))} {mode}"


# ---------------------------------------------------------------------- real games
@needs_gnugo
@pytest.mark.gnugo
def test_two_games_write_sgfs_results_and_summary(tmp_path):
    out = tmp_path / "m"
    settings = MatchSettings(a=f"{GNUGO} --mode gtp --level 0", b=TENGEN, size=7, komi=7.5)
    summary = run_match(settings, out, games=2, timeout=TIMEOUT)
    results = read_results(out)
    assert [r.game for r in results] == [1, 2]
    assert len((out / "results.jsonl").read_text().splitlines()) == 2
    assert [r.a_color for r in results] == ["black", "white"]  # colours alternate, A Black first
    assert json.loads((out / "match.json").read_text())["size"] == 7
    for r in results:
        game = load_game(out / r.sgf)
        assert (game.width, game.komi, game.handicap) == (7, 7.5, 0)
        assert len(game.moves) == r.moves and r.moves > 0
        assert game.result == r.result
        a_side = game.sgf.get_root().get("PB" if r.a_color == "black" else "PW")
        assert a_side.endswith("(A)")
        game.board_at()  # every move legal
        if r.reason == "passes":
            assert game.moves[-1][1] is None and game.moves[-2][1] is None
            assert r.scorer.startswith("referee: ")
        assert r.moves_key
    wins = sum(r.a_score for r in results)
    assert summary.games == 2 and summary.a_wins == wins
    assert summary.winrate == pytest.approx(wins / 2)
    assert summary.interval == pytest.approx(1.96 * math.sqrt(wins / 2 * (1 - wins / 2) / 2))
    assert summary.by_color["black"]["games"] == summary.by_color["white"]["games"] == 1
    assert summary.mean_moves == pytest.approx(sum(r.moves for r in results) / 2)
    assert sum(summary.reasons.values()) == 2
    assert summarize(out).games == 2


@needs_gnugo
@pytest.mark.gnugo
def test_handicap_game_white_moves_first(tmp_path):
    settings = MatchSettings(a=TENGEN, b=f"{GNUGO} --mode gtp --level 0", size=9, komi=0.5, handicap=2,
                             a_color="white", max_moves=20)
    run_match(settings, tmp_path, games=1, timeout=TIMEOUT)
    (r,) = read_results(tmp_path)
    game = load_game(tmp_path / r.sgf)
    assert r.a_color == "white" and game.handicap == 2
    assert (game.board_at(0).array() == BLACK).sum() == 2
    assert game.moves[0][0] == WHITE
    assert r.reason in ("move cap", "passes", "resign") and r.moves <= 20


@needs_gnugo
@pytest.mark.gnugo
def test_resume_plays_only_the_missing_games_and_refuses_other_settings(tmp_path):
    settings = MatchSettings(a=f"{GNUGO} --mode gtp --level 0", b=TENGEN, size=5, komi=7.5, referee="none")
    calls: list = []
    run_match(settings, tmp_path, games=1, timeout=TIMEOUT, progress=calls.append)
    assert [r.game for r in calls] == [1]
    first = (tmp_path / "games" / "game-0001.sgf").read_bytes()
    summary = run_match(settings, tmp_path, games=2, timeout=TIMEOUT, progress=calls.append)
    assert [r.game for r in calls] == [1, 2] and summary.games == 2
    assert (tmp_path / "games" / "game-0001.sgf").read_bytes() == first
    with pytest.raises(MatchError, match="other settings .*komi"):
        run_match(MatchSettings(a=settings.a, b=settings.b, size=5, komi=6.5, referee="none"), tmp_path, games=3)
    assert len(read_results(tmp_path)) == 2


# ---------------------------------------------------------------------- the interval
@pytest.mark.parametrize("p, n, expected", [
    (0.5, 100, 0.098),                 # 1.96 * sqrt(0.25 / 100) = 1.96 * 0.05
    (0.96, 50, 0.0543165),             # 1.96 * sqrt(0.0384 / 50) = 1.96 * 0.0277128
    (0.2, 25, 0.1568),                 # 1.96 * sqrt(0.16 / 25) = 1.96 * 0.08
    (0.0, 10, 0.0),
    (1.0, 10, 0.0),
    (0.5, 0, 0.0),                     # no games: no interval
])
def test_interval_by_hand(p, n, expected):
    assert interval95(p, n) == pytest.approx(expected, abs=1e-6)


@pytest.mark.parametrize("wins, n, expected", [
    (50, 50, (0.928878, 1.0)),         # 0.025 ** (1/50): the smallest p with P(50 of 50 won) >= 2.5 %
    (0, 50, (0.0, 0.071122)),
    (3, 3, (0.292402, 1.0)),           # 0.025 ** (1/3)
    (49.5, 50, None),                  # a draw: not all won, the normal interval stands
    (25, 50, None),
    (0, 0, None),
])
def test_exact_interval_when_all_or_none_won(wins, n, expected):
    got = exact_bound_all_or_none(wins, n)
    assert got == (None if expected is None else pytest.approx(expected, abs=1e-6))
    if got and wins:  # the bound's defining property: winning all n games has probability 2.5 % there
        assert got[0] ** n == pytest.approx(0.025)


def test_a_clean_sweep_prints_the_exact_interval_beside_the_collapsed_normal_one():
    sweep = summarize_results([GameResult(i, "black", "A", "B+R", "resign", 100, moves_key=str(i))
                               for i in range(1, 51)])
    assert sweep.interval == 0.0
    assert any("all of 50 won: exact (Clopper-Pearson) 95 % interval 0.929-1.000" in line for line in sweep.lines())
    mixed = summarize_results([GameResult(1, "black", "A", "B+R", "resign", 100),
                               GameResult(2, "white", "B", "B+R", "resign", 100)])
    assert not any("Clopper" in line for line in mixed.lines())


def test_summary_counts_draws_as_half_and_splits_by_colour():
    results = [GameResult(1, "black", "A", "B+R", "resign", 100, moves_key="x"),
               GameResult(2, "white", "B", "B+2.5", "passes", 200, moves_key="y"),
               GameResult(3, "black", None, "0", "passes", 150, moves_key="z"),
               GameResult(4, "white", "A", "W+F", "illegal", 50, moves_key="y")]
    s = summarize_results(results)
    assert (s.games, s.a_wins, s.winrate) == (4, 2.5, 0.625)
    assert s.interval == pytest.approx(1.96 * math.sqrt(0.625 * 0.375 / 4))
    assert s.by_color["black"] == {"games": 2, "a_wins": 1.5, "winrate": 0.75,
                                   "interval": pytest.approx(1.96 * math.sqrt(0.75 * 0.25 / 2))}
    assert s.mean_moves == 125 and s.reasons == {"resign": 1, "passes": 2, "illegal": 1}
    assert s.distinct == 3  # games 2 and 4: the same moves with A as White


# ---------------------------------------------------------------------- misbehaving engines
@pytest.mark.parametrize("mode, reason, words", [
    ("illegal", "illegal", "A played A1 (occupied)"),
    ("refuse", "error", "A answered genmove with '?"),
    ("garbage", "illegal", "A answered genmove with 'Z99'"),
])
def test_a_misbehaving_engine_forfeits_with_the_reason(tmp_path, fake, mode, reason, words):
    settings = MatchSettings(a=fake(mode), b=fake("pass"), size=5, komi=7.5, a_color="black", referee="none")
    run_match(settings, tmp_path, games=1, timeout=TIMEOUT)
    (r,) = read_results(tmp_path)
    assert (r.winner_engine, r.reason, r.result) == ("B", reason, "W+F")
    assert words in r.detail
    assert load_game(tmp_path / r.sgf).result == "W+F"


def test_an_engine_that_dies_loses_after_one_retry_and_other_results_stay(tmp_path, fake):
    settings = MatchSettings(a=fake("die-as-white"), b=fake("pass"), size=5, komi=7.5, referee="none")
    run_match(settings, tmp_path, games=2, timeout=TIMEOUT)
    first, second = read_results(tmp_path)
    # game 1: A is Black and passes, B passes: counted by tengen (empty board: White by komi)
    assert (first.reason, first.result, first.winner_engine, first.retried) == ("passes", "W+7.5", "B", False)
    assert first.scorer.startswith("tengen area count")
    # game 2: A is White and dies on its first genmove, twice
    assert (second.reason, second.result, second.winner_engine, second.retried) == ("died", "B+F", "B", True)
    assert "engine A" in second.detail and "exit" in second.detail
    assert (tmp_path / second.sgf).exists()


def test_parallel_games_are_numbered_and_coloured_as_in_sequence(tmp_path, fake):
    settings = MatchSettings(a=fake("pass"), b=fake("pass"), size=5, komi=7.5, referee="none")
    run_match(settings, tmp_path, games=5, parallel=3, timeout=TIMEOUT)
    lines = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert [r["game"] for r in lines] == [1, 2, 3, 4, 5]  # rewritten in game order at the end
    assert [r["a_color"] for r in lines] == ["black", "white", "black", "white", "black"]
    assert [r["winner_engine"] for r in lines] == ["B", "A", "B", "A", "B"]  # White wins an empty board by komi
    assert {r["winner_color"] for r in lines} == {"white"} and "winner" not in lines[0]  # never a colour letter
    assert {r["winner_name"] for r in lines} == {os.path.basename(shlex.split(settings.b)[0])}  # both are the fake
    assert sorted(p.name for p in (tmp_path / "games").iterdir()) == [f"game-000{i}.sgf" for i in range(1, 6)]


def test_a_match_split_across_two_folders_merges_into_the_same_games(tmp_path, fake):
    settings = MatchSettings(a=fake("pass"), b=fake("pass"), size=5, komi=7.5, referee="none")
    whole, here, there = tmp_path / "whole", tmp_path / "here", tmp_path / "there"
    run_match(settings, whole, games=5, timeout=TIMEOUT)
    run_match(settings, here, games=2, timeout=TIMEOUT)
    run_match(settings, there, games=5, first=3, timeout=TIMEOUT)
    assert [r.game for r in read_results(there)] == [3, 4, 5]
    assert [r.a_color for r in read_results(there)] == ["black", "white", "black"]  # colours follow the number
    assert merge_match(here, there, settings) == [3, 4, 5]
    assert merge_match(here, there, settings) == []  # already there: kept, not doubled
    strip = lambda rows: [(r.game, r.a_color, r.winner_engine, r.result, r.moves_key) for r in rows]  # noqa: E731
    assert strip(read_results(here)) == strip(read_results(whole))
    assert [(here / r.sgf).read_bytes() == (there / r.sgf).read_bytes() for r in read_results(here)[2:]] == [True] * 3
    assert summarize(here).games == 5 and summarize(here).winrate == summarize(whole).winrate
    with pytest.raises(MatchError, match="other settings .*komi"):
        merge_match(here, there, MatchSettings(a=settings.a, b=settings.b, size=5, komi=6.5, referee="none"))
    with pytest.raises(MatchError, match="not a match folder"):
        merge_match(here, tmp_path / "nowhere")
    (there / "games" / "game-0004.sgf").unlink()  # a result without its record: the merge stops there, named
    with pytest.raises(MatchError, match="game 4 has a result but no games/game-0004.sgf"):
        merge_match(tmp_path / "fresh", there)
    assert [r.game for r in read_results(tmp_path / "fresh")] == [3]  # what was copied before it stays whole
    with pytest.raises(MatchError, match="--first 0"):
        run_match(settings, here, games=5, first=0)


def test_an_engine_that_cannot_start_stops_the_match_with_one_line(tmp_path):
    settings = MatchSettings(a=f"{PY} -c pass", b=f"{PY} -c pass", size=5, referee="none")
    with pytest.raises(MatchError, match="fails before the first move"):
        run_match(settings, tmp_path, games=1, timeout=TIMEOUT)
    assert read_results(tmp_path) == []


# ---------------------------------------------------------------------- the command line
def _cli_error(capsys, argv: list[str]) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    return err


def test_cli_bad_input_is_one_line_and_exit_2(tmp_path, capsys, fake):
    good = ["--a", fake("pass"), "--b", fake("pass"), "--games", "1", "--referee", "none"]
    missing = good[:1] + ["/no/such/engine --gtp"] + good[2:]
    assert "not found" in _cli_error(capsys, missing + ["--out", str(tmp_path / "x")])
    assert "--size 30" in _cli_error(capsys, good + ["--size", "30", "--out", str(tmp_path / "y")])
    assert "--handicap 2" in _cli_error(capsys, good + ["--size", "5", "--handicap", "2", "--out", str(tmp_path / "h")])
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    assert "--out" in _cli_error(capsys, good + ["--size", "5", "--out", str(blocker / "sub")])
    assert "--games" in _cli_error(capsys, ["--a", "x", "--b", "y", "--games", "many", "--out", str(tmp_path)])
    assert "required" in _cli_error(capsys, ["--a", "x"])


def test_cli_runs_as_a_module(tmp_path, fake):
    argv = [sys.executable, "-m", "tengen.play.match", "--a", fake("pass"), "--b", fake("pass"), "--games", "2",
            "--size", "5", "--referee", "none", "--out", str(tmp_path)]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "games: 2" in done.stdout and "win rate: 0.500" in done.stdout  # each side wins once by komi
    bad = subprocess.run(argv[:-1] + [str(tmp_path / "other"), "--size", "99"], capture_output=True, text=True,
                         timeout=120)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr


def test_a_results_file_from_before_the_rename_reads_its_winner_as_the_engine(tmp_path):
    row = {"game": 1, "a_color": "black", "winner": "B", "result": "W+7.5", "reason": "passes", "moves": 2}
    (tmp_path / "results.jsonl").write_text(json.dumps(row) + "\n")
    (r,) = read_results(tmp_path)
    assert (r.winner_engine, r.a_score) == ("B", 0.0)


def test_gnugo_is_found_in_usr_games_when_it_is_not_on_path(monkeypatch):
    from tengen.play.match import engine_argv

    if find_gnugo() is None:
        pytest.skip("GNU Go is not installed (apt-get install gnugo)")
    monkeypatch.setenv("PATH", "/nonexistent")
    assert engine_argv("--b", "gnugo --mode gtp") == [find_gnugo(), "--mode", "gtp"]
