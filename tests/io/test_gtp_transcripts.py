"""Golden GTP transcripts for `tengen gtp`: each tests/io/transcripts/NAME.gtp is fed to the engine and its
output must equal NAME.out byte for byte (framing `=[id] result\\n\\n` / `?[id] message\\n\\n`, ids,
comments, blank lines, canonical error texts, handicap, loadsgf, scoring, clock commands).

Transcripts avoid `genmove` where the answer depends on the move policy (only finished positions, where
the answer must be `pass`); the policy is checked by property below. The tests only compare: to re-record
after an intended change, run `python tools/gtp_transcripts/record.py` and review the diff of the .out files.
"""
from __future__ import annotations

import io
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tengen.go import BLACK, Board
from tengen.go.coords import from_gtp, neighbours
from tengen.io.engines import gtp_engine

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
TRANSCRIPTS = sorted((HERE / "transcripts").glob("*.gtp"))
CONSOLE_SCRIPT = Path(sys.executable).parent / "tengen"


def run_engine(commands: str) -> str:
    """Feed GTP commands to a fresh in-process engine (default: 19x19, Chinese rules, komi 7.5)."""
    out = io.StringIO()
    gtp_engine().run(io.StringIO(commands, newline=""), out)
    return out.getvalue()


def run_console_script(commands: bytes, timeout: float = 300, flags: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    assert CONSOLE_SCRIPT.exists(), f"no console script next to the interpreter ({CONSOLE_SCRIPT}); pip install -e ."
    return subprocess.run([str(CONSOLE_SCRIPT), "gtp", *flags], input=commands, capture_output=True, timeout=timeout,
                          cwd=REPO)


def test_transcripts_are_present():
    assert {p.stem for p in TRANSCRIPTS} >= {"protocol", "board_errors", "handicap", "loadsgf", "scoring_time"}


@pytest.mark.parametrize("script", TRANSCRIPTS, ids=lambda p: p.stem)
def test_golden_transcript(script: Path, monkeypatch):
    monkeypatch.chdir(REPO)  # loadsgf paths in the transcripts are relative to the repository
    commands = script.read_bytes().decode("utf-8")  # bytes: keep the CR and control characters as written
    actual = run_engine(commands)
    assert actual == script.with_suffix(".out").read_bytes().decode("utf-8")


def test_golden_transcript_through_the_console_script():
    """The same bytes through the real `tengen gtp` process: stdin/stdout framing, CR handling, quit."""
    script = HERE / "transcripts" / "protocol.gtp"
    result = run_console_script(script.read_bytes())
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode() == script.with_suffix(".out").read_bytes().decode()


MUST_SHOW_SESSION = b"boardsize 9\nplay b E5\nplay w E5\ngenmove w\nfinal_score\nquit\n"


def _check_must_show_session(result: subprocess.CompletedProcess, score_from_search: bool) -> None:
    assert result.returncode == 0, result.stderr
    assert result.stderr == b""
    text = result.stdout.decode()
    assert text.endswith("\n\n") and "\n\n\n" not in text
    answers = text[:-2].split("\n\n")
    assert len(answers) == 6  # boardsize, play, play, genmove, final_score, quit
    assert answers[:3] == ["=", "=", "? illegal move"]
    vertex = re.fullmatch(r"= ([A-HJ][1-9]|pass)", answers[3])
    assert vertex, answers[3]
    assert vertex.group(1) != "E5"
    assert re.fullmatch(r"= (B\+|W\+)\d+(\.\d+)?|= 0", answers[4]), answers[4]
    if not score_from_search:
        # Benson's dead stones (none): one stone each and all else dame (after a pass: all Black's)
        assert answers[4] == ("= W+7.5" if vertex.group(1) != "pass" else "= B+73.5")
    assert answers[5] == "="


def test_must_show_session_rule_based_player():
    """The must-show session with the rule-based player (no network): `... | tengen gtp --player simple`."""
    _check_must_show_session(run_console_script(MUST_SHOW_SESSION, flags=("--player", "simple")), False)


@pytest.mark.network_model
def test_must_show_session(default_model_path):
    """`printf 'boardsize 9\\nplay b E5\\nplay w E5\\ngenmove w\\nfinal_score\\nquit\\n' | tengen gtp`: the
    search player with the default network (final_score's dead stones from the search's ownership)."""
    _check_must_show_session(run_console_script(MUST_SHOW_SESSION), True)


def test_console_script_ends_at_end_of_input_without_quit():
    result = run_console_script(b"1 name\n")
    assert result.returncode == 0
    assert result.stdout == b"=1 tengen\n\n"


def test_version_and_list_commands():
    from tengen import __version__

    out = run_engine("version\nlist_commands\n")
    version, commands = out[:-2].split("\n\n")
    assert version == f"= {__version__}"
    names = commands[2:].split("\n")
    required = {"protocol_version", "name", "version", "known_command", "list_commands", "quit", "boardsize",
                "clear_board", "komi", "play", "genmove", "undo", "loadsgf", "fixed_handicap",
                "place_free_handicap", "set_free_handicap", "final_score", "final_status_list", "showboard",
                "time_settings", "time_left", "kgs-genmove_cleanup"}
    assert required <= set(names)
    known = run_engine("".join(f"known_command {n}\n" for n in names))
    assert known == "= true\n\n" * len(names)


def test_loadsgf_of_a_temporary_file(tmp_path):
    sgf = tmp_path / "game.sgf"
    sgf.write_text("(;GM[1]FF[4]SZ[9]KM[5.5];B[ee];W[ec];B[];W[cc])")
    out = run_engine(f"loadsgf {sgf}\nfinal_score\nloadsgf {sgf} 2\nshowboard\nloadsgf {tmp_path}/missing.sgf\n")
    answers = out[:-2].split("\n\n")
    assert answers[0] == "= black"
    assert answers[1] == "= W+6.5"  # one black stone, two white, komi 5.5, the rest dame
    assert answers[2] == "= white"  # before move 2: after B E5
    assert "\n 5 . . . . x . . . .\n" in answers[3]
    assert answers[4] == "? cannot load file"


# ---------------------------------------------------------------- genmove's policy
def _own_eye(board: Board, color: int, point) -> bool:
    return all(board.get(n) == color for n in neighbours(point, board.height, board.width))


def _repeats(board: Board, color: int, point, seen: set[int]) -> bool:
    board.play(color, point)
    repeated = board.hash in seen
    board.undo()
    return repeated


@pytest.mark.parametrize("size,seed", [(9, 1), (9, 2), (13, 3), (19, 4)])
def test_genmove_is_legal_and_never_fills_its_own_eye(size, seed):
    rng = random.Random(seed)
    engine = gtp_engine(size=size)
    checked = eyes_seen = 0
    for _ in range(6 * size * size):
        board = engine.board
        color = board.to_play
        eyes = [p for p in board.legal_moves(color) if _own_eye(board, color, p)]
        eyes_seen += bool(eyes)
        before = board.copy()
        answer = engine.handle(f"genmove {'b' if color == BLACK else 'w'}")
        assert answer.startswith("= "), answer
        vertex = answer[2:].strip()
        if vertex != "pass":
            point = from_gtp(vertex, size)
            assert before.is_legal(color, point)
            assert not _own_eye(before, color, point), f"{vertex} fills an own eye\n{before}"
        checked += 1
        if engine.board.consecutive_passes >= 2:
            break
        if rng.random() < 0.5:  # vary the game: a random legal non-eye move instead of the policy's
            color = engine.board.to_play
            moves = [p for p in engine.board.legal_moves(color) if not _own_eye(engine.board, color, p)]
            if moves:
                engine.board.play(color, rng.choice(moves))
    assert checked > 20
    assert eyes_seen > 0  # the property was actually exercised


def _finished_random_game(size: int, seed: int) -> GtpEngine | None:
    """An engine whose board holds a random game played until neither side has a move but its own
    single-point eyes, with no ko pending (None if the game had to be cut short by a capture cycle)."""
    rng = random.Random(seed)
    engine = gtp_engine(size=size)
    board = engine.board
    seen = {board.hash}
    for _ in range(3 * size * size):
        color = board.to_play
        moves = [p for p in board.legal_moves(color) if not _own_eye(board, color, p)]
        if not moves and board.ko is None and not [p for p in board.legal_moves(-color)
                                                     if not _own_eye(board, -color, p)]:
            return engine
        moves = [p for p in moves if not _repeats(board, color, p, seen)]
        if not moves:
            return None
        board.play(color, rng.choice(moves))
        seen.add(board.hash)
    return None


def test_genmove_passes_on_a_finished_board():
    """A random game played out (only single-point eyes left): both colors pass, in cleanup mode too."""
    engines = [e for e in (_finished_random_game(9, seed) for seed in range(40)) if e is not None][:3]
    assert engines, "no random game finished"
    for engine in engines:
        assert engine.handle("genmove b") == "= pass\n\n", str(engine.board)
        assert engine.handle("genmove w") == "= pass\n\n", str(engine.board)
        assert engine.handle("kgs-genmove_cleanup b") == "= pass\n\n", str(engine.board)


def test_cleanup_captures_a_dead_stone_in_its_own_area(monkeypatch):
    monkeypatch.chdir(REPO)
    out = run_engine("loadsgf tests/io/transcripts/data/finished7.sgf\nkgs-genmove_cleanup b\n")
    assert out.split("\n\n")[1] in ("= A5", "= C5")  # the liberties of the dead white stone on B5


@pytest.mark.parametrize("size,expected", [(19, "D4 Q16 D16"), (13, "D4 K10 D10"), (9, "C3 G7 C7")])
def test_fixed_handicap_three_stones_follows_gtp(size, expected):
    out = run_engine(f"boardsize {size}\nfixed_handicap 3\n")
    assert sorted(out.split("\n\n")[1][2:].split()) == sorted(expected.split())


def test_handicap_points_match_gnugo():
    """fixed_handicap against GNU Go, the GTP reference implementation (skips without it)."""
    from tengen.eval.gtp_client import GtpClient, find_gnugo

    if find_gnugo() is None:
        pytest.skip("GNU Go is not installed (/usr/games/gnugo)")
    engine = gtp_engine()
    with GtpClient.gnugo() as gnugo:
        for size in (7, 8, 9, 10, 13, 19):
            for stones in range(1, 11):
                commands = [f"boardsize {size}", f"fixed_handicap {stones}"]
                theirs = gnugo.query_many(commands)[1]
                ours = [engine.handle(c) for c in commands][1]
                assert ours.startswith("=") == theirs.ok, (size, stones, ours, theirs)
                if theirs.ok:
                    assert sorted(ours[2:].split()) == sorted(theirs.text.split()), (size, stones)


class _FixedOwnership:
    """A stand-in evaluator whose ownership gives every point to White (as a network judging a lost group)."""

    def evaluate(self, boards):
        import numpy as np
        from types import SimpleNamespace

        return [SimpleNamespace(ownership=-np.ones((b.height, b.width))) for b in boards]


def test_final_score_uses_the_dead_stone_finder_it_is_given():
    from tengen.eval.katago.final_score import network_dead_stones

    commands = "boardsize 5\nkomi 0.5\nplay b a1\nplay w c3\nfinal_status_list dead\nfinal_score\n"

    def last_two(engine: GtpEngine) -> list[str]:
        out = io.StringIO()
        engine.run(io.StringIO(commands), out)
        return [a.strip() for a in out.getvalue().split("\n\n") if a.strip()][-2:]

    assert last_two(gtp_engine()) == ["=", "= W+0.5"]  # nothing provably dead: 1 - 1 - 0.5
    assert last_two(gtp_engine(dead_stones=network_dead_stones(_FixedOwnership()))) == ["= A1", "= W+25.5"]


@pytest.mark.parametrize("ru, scoring", [("", "territory"), ("RU[Chinese]", "area")])
def test_loadsgf_keeps_the_engines_rules_unless_the_file_names_its_own(tmp_path, ru, scoring):
    from tengen.go.rules import Rules

    path = tmp_path / "g.sgf"
    path.write_text(f"(;GM[1]FF[4]SZ[9]KM[6.5]{ru};B[ee];W[cc])")
    engine = gtp_engine(size=9, rules=Rules.japanese())
    assert engine.handle(f"loadsgf {path}").startswith("= black")
    assert (engine.rules.scoring, engine.rules.komi) == (scoring, 6.5)
