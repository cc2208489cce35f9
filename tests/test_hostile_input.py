"""The nine failures of issue 27 (a fuzzing run of hostile SGF files and GTP streams), one reproducer each:
1 memory per move, 2 node bombs, 3 a FIFO with no writer, 4 integers past int()'s digit limit in GTP,
5 bytes that are not UTF-8 under a strict locale, 6 a closed stdin, 7 the first model download on stdout,
8 a very long GTP game, 9 a missing model while offline. Each must end in one clear line (CLI: exit 2; GTP:
`? message`), never a traceback, a hang or a MemoryError."""
from __future__ import annotations

import io
import os
import resource
import subprocess
import sys
import threading
import zipfile
from pathlib import Path

import pytest

from tengen.cli import main
from tengen.go.board import MAX_MOVES, MAX_RECORD_MOVES, Board, MoveLimitError
from tengen.go.sgf import SgfError, load_game_bytes
from tengen.go.sgf_bytes import MAX_DEPTH, MAX_NODES, MAX_VALUES
from tengen.io.engines import gtp_engine

REPO = Path(__file__).resolve().parents[1]
CONSOLE_SCRIPT = Path(sys.executable).parent / "tengen"
EXAMPLE = str(REPO / "src" / "tengen" / "data" / "example.sgf")


def _one_error_line(err: str, problem: str) -> None:
    """stderr ends in one `tengen: error:` line naming `problem` (progress lines may come before it)."""
    errors = [line for line in err.splitlines() if line.startswith("tengen: error: ")]
    assert len(errors) == 1 and err.endswith(errors[0] + "\n") and problem in errors[0], err
    assert "Traceback" not in err


def _tengen(args: list[str], stdin=subprocess.DEVNULL, env: dict | None = None, **kwargs) -> subprocess.CompletedProcess:
    """The real console script in a child process (skips, saying why, when it is not installed)."""
    if not CONSOLE_SCRIPT.exists():
        pytest.skip(f"console script not installed next to the interpreter ({CONSOLE_SCRIPT}); pip install -e .")
    return subprocess.run([str(CONSOLE_SCRIPT), *args], stdin=stdin, capture_output=True, timeout=300, cwd=REPO,
                          env={**os.environ, **(env or {})}, **kwargs)


# ---------------------------------------------------------------- 1. memory per move
def _limit_memory_to_2gb() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (2_000_000_000, 2_000_000_000))


def test_1_a_game_of_150000_passes_is_refused_in_one_line_under_2gb(tmp_path):
    """The issue's reproducer: a 600 KB file of 150,000 passes ended in MemoryError under `prlimit --as=2GB`."""
    path = tmp_path / "p.sgf"
    path.write_text("(;SZ[19]" + ";B[]" * 150000 + ")")
    result = _tengen(["show", str(path)], preexec_fn=_limit_memory_to_2gb)
    assert result.returncode == 2 and result.stdout == b""
    _one_error_line(result.stderr.decode(), f"the main line is too long (150000 moves and setup nodes; limit {MAX_RECORD_MOVES})")


@pytest.mark.parametrize("moves,loads", [(MAX_RECORD_MOVES, True), (MAX_RECORD_MOVES + 1, False)])
def test_1_the_move_cap_is_the_records(moves, loads):
    data = ("(;SZ[2]" + ";B[]" * moves + ")").encode()
    if loads:
        assert len(load_game_bytes(data, "cap").board_at(None).moves) == MAX_RECORD_MOVES
    else:
        with pytest.raises(SgfError, match=f"limit {MAX_RECORD_MOVES}"):
            load_game_bytes(data, "cap")


def test_1_a_board_holds_at_most_max_moves_and_undo_makes_room():
    board = Board(2)
    for _ in range(MAX_MOVES):
        board.play(board.to_play, None)
    with pytest.raises(MoveLimitError, match=f"at most {MAX_MOVES} moves"):
        board.play(board.to_play, None)
    board.undo()
    board.play(board.to_play, None)
    assert len(board.moves) == MAX_MOVES


def test_1_a_record_at_the_cap_leaves_room_for_reading():
    """Issue 47 item 8: a 9,999-move record was refused by `tengen analyze` because the variation
    tree played past the board's cap. The board keeps READING_MOVES above the record's cap."""
    board = load_game_bytes(("(;SZ[2]" + ";B[]" * MAX_RECORD_MOVES + ")").encode(), "cap").board_at(None)
    reading = board.copy()
    reading.play(reading.to_play, (0, 0))
    reading.play(reading.to_play, (1, 1))
    assert len(reading.moves) == MAX_RECORD_MOVES + 2 <= MAX_MOVES


# ---------------------------------------------------------------- 2. node bombs
NODE_BOMBS = [  # the issue's three, and the other tokens sgfmill would keep one by one
    ("10 MB of empty nodes", b"(;SZ[19]" + b";" * 10_000_000 + b")", f"too many nodes (more than {MAX_NODES})"),
    ("5 million nested variations", b"(;SZ[19]" + b"(;" * 5_000_000 + b")" * 5_000_000 + b")",
     f"variations are nested too deep (more than {MAX_DEPTH} levels)"),
    ("an 873,000-move game", b"(;SZ[19]" + b";B[aa];W[bb]" * 436_500 + b")", f"too many nodes (more than {MAX_NODES})"),
    ("5 million sibling variations", b"(;SZ[19]" + b"()" * 5_000_000 + b")", f"too many variations (more than {MAX_NODES})"),
    ("2 million values", b"(;SZ[19]AB" + b"[aa]" * 2_000_000 + b")", f"too many property values (more than {MAX_VALUES})"),
    ("5 million property names", b"(;SZ[19]" + b"A " * 5_000_000 + b")", f"too many property names (more than {MAX_VALUES})"),
]


@pytest.mark.parametrize("name,data,problem", NODE_BOMBS, ids=[b[0] for b in NODE_BOMBS])
def test_2_node_bombs_are_refused_before_sgfmill_builds_them(name, data, problem):
    with pytest.raises(SgfError) as info:
        load_game_bytes(data, "bomb.sgf")
    assert str(info.value) == f"bomb.sgf: {problem}"


@pytest.mark.parametrize("data", [
    b"(;SZ[9]C[" + b"(;" * 300_000 + b"])",  # delimiters inside a value are text
    b"(;SZ[9]C[a \\] (;(;(; \\\\" + b";" * 300_000 + b"])",  # escaped ']' and '\\' keep the value open, then close it
    b"(;SZ[9];B[ee])" + b"(;B[aa])" * 300_000,  # games after the first are not read
])
def test_2_delimiters_inside_values_or_after_the_first_game_count_for_nothing(data):
    game = load_game_bytes(data, "text.sgf")
    assert len(game.events) <= 1


def test_2_a_node_bomb_file_through_the_cli(tmp_path, capsys):
    path = tmp_path / "bomb.sgf"
    path.write_bytes(b"(;SZ[19]" + b";" * 10_000_000 + b")")
    assert main(["show", str(path)]) == 2
    _one_error_line(capsys.readouterr().err, "too many nodes")


# ---------------------------------------------------------------- 3. a FIFO with no writer
@pytest.mark.timeout(120)  # a regression blocks in open(): fail, do not hang the suite
@pytest.mark.parametrize("argv", [["show"], ["score", "--benson"], ["influence", "--model", "bouzy"]])
def test_3_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path, capsys, argv):
    fifo = tmp_path / "game.sgf"
    os.mkfifo(fifo)
    assert main([argv[0], str(fifo), *argv[1:]]) == 2
    _one_error_line(capsys.readouterr().err, f"{fifo}: is not a regular file (a pipe or a device)")


@pytest.mark.timeout(120)
def test_3_gtp_loadsgf_of_a_fifo_answers_and_the_engine_goes_on(tmp_path):
    fifo = tmp_path / "game.sgf"
    os.mkfifo(fifo)
    engine = gtp_engine()
    assert engine.handle(f"1 loadsgf {fifo}") == "?1 cannot load file\n\n"
    assert engine.handle("2 name") == "=2 tengen\n\n"


# ---------------------------------------------------------------- 4. integers over 4,300 digits in GTP
HUGE = "1" * 4301
HUGE_NUMBERS = [  # (command, answer): the canonical error, or what any number past the range gives
    (f"play b A{HUGE}", "? invalid vertex"),
    (f"set_free_handicap A1 B{HUGE}", "? bad vertex list"),
    (f"boardsize {HUGE}", "? unacceptable size"),
    (f"boardsize -{HUGE}", "? unacceptable size"),
    (f"fixed_handicap {HUGE}", "? invalid number of stones"),
    (f"place_free_handicap {HUGE}", "? invalid number of stones"),
    (f"time_left b {HUGE} -{HUGE}", "? syntax error: time and stones left cannot be negative"),
    (f"loadsgf tests/io/transcripts/data/finished7.sgf {HUGE}", "= black"),  # past the end: the whole game
]


@pytest.mark.parametrize("command,answer", HUGE_NUMBERS, ids=[c.split()[0] + str(i) for i, (c, _) in enumerate(HUGE_NUMBERS)])
def test_4_gtp_integers_past_the_digit_limit_get_a_clean_answer(monkeypatch, command, answer):
    monkeypatch.chdir(REPO)
    assert gtp_engine().handle(command) == answer + "\n\n"


def test_4_a_huge_loadsgf_move_number_loads_the_whole_game(monkeypatch):
    monkeypatch.chdir(REPO)
    huge, plain = gtp_engine(), gtp_engine()
    huge.handle(f"loadsgf tests/io/transcripts/data/finished7.sgf {HUGE}")
    plain.handle("loadsgf tests/io/transcripts/data/finished7.sgf")
    assert huge.board.moves == plain.board.moves and len(plain.board.moves) > 0


def test_4_the_issues_reproducer_through_the_console_script():
    result = _tengen(["gtp"], input=f"play b A{HUGE}\nquit\n".encode(), stdin=None)
    assert result.stdout == b"? invalid vertex\n\n=\n\n" and result.returncode == 0


# ---------------------------------------------------------------- 5. bytes that are not UTF-8
def _installed_locales() -> set[str]:
    try:
        names = subprocess.run(["locale", "-a"], capture_output=True, text=True, timeout=30).stdout.split()
    except (OSError, subprocess.SubprocessError):
        return set()
    return {n.lower().replace("-", "") for n in names}


STRICT_LOCALES = [
    pytest.param({"PYTHONIOENCODING": "utf-8:strict"}, id="PYTHONIOENCODING=utf-8:strict"),
    pytest.param({"LANG": "en_US.UTF-8", "LC_ALL": "en_US.UTF-8"}, id="en_US.UTF-8",
                 marks=pytest.mark.skipif("en_us.utf8" not in _installed_locales(),
                                          reason="locale en_US.UTF-8 is not installed (locale -a); the "
                                                 "PYTHONIOENCODING case forces the same strict decoding")),
    pytest.param({"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}, id="C.UTF-8"),
]


@pytest.mark.parametrize("env", STRICT_LOCALES)
def test_5_an_invalid_byte_is_answered_and_the_session_goes_on(env):
    result = _tengen(["gtp"], input=b"name\nplay b \xff\n3 play b \xe9\xff D4\nname # caf\xe9\nquit\n", stdin=None, env=env)
    assert result.returncode == 0 and result.stderr == b""
    assert result.stdout == (b"= tengen\n\n? invalid command: not UTF-8 text\n\n?3 invalid command: not UTF-8 text\n\n"
                             b"= tengen\n\n=\n\n")


def test_5_the_engine_reads_bytes_itself():
    out = io.BytesIO()
    gtp_engine().run(io.BytesIO(b"1 name\n2 play b \xff\n3 play b D4\n"), out)
    assert out.getvalue() == b"=1 tengen\n\n?2 invalid command: not UTF-8 text\n\n=3\n\n"


def test_5_a_line_past_the_length_limit_is_answered_and_skipped():
    from tengen.io.gtp import MAX_LINE_BYTES

    out = io.BytesIO()
    long_comment = b"9 name # " + b"x" * (2 * MAX_LINE_BYTES)  # the command itself is short
    gtp_engine().run(io.BytesIO(b"7 name " + b"x" * (2 * MAX_LINE_BYTES) + b"\n8 name\n" + long_comment + b"\n"), out)
    assert out.getvalue() == b"?7 command too long\n\n=8 tengen\n\n=9 tengen\n\n"


# ---------------------------------------------------------------- 6. closed stdin
def test_6_a_closed_stdin_ends_the_session_cleanly():
    result = _tengen(["gtp"], stdin=None, preexec_fn=lambda: os.close(0))  # `tengen gtp <&-`
    assert (result.returncode, result.stdout, result.stderr) == (0, b"", b"")


def test_6_the_engine_takes_a_closed_stdin_as_an_empty_session(monkeypatch):
    monkeypatch.setattr(sys, "stdin", None)
    out = io.StringIO()
    gtp_engine().run(stdout=out)
    assert out.getvalue() == ""


# ---------------------------------------------------------------- 7. the first model download and stdout
STAND_IN_PIP = """
import sys, zipfile
dest, model, member = sys.argv[1:4]
print("Looking in links: /stand-in")  # what pip prints on stdout
with zipfile.ZipFile(dest + "/katrain-1.20.0-py3-none-any.whl", "w") as zf:
    zf.write(model, member)
print("Saved " + dest + "/katrain-1.20.0-py3-none-any.whl")
"""


def test_7_the_first_download_never_writes_to_gtp_stdout(tmp_path, monkeypatch, capfd):
    """`tengen gtp --dead-stones network` with an empty cache: final_score fetches the network. A stand-in
    for pip (a child process that prints on its stdout, as pip does, and leaves a wheel holding a tiny
    network) runs where pip would; stdout must hold the GTP responses and nothing else."""
    import hashlib

    from tengen.eval.katago import weights
    from tengen.eval.katago.model_writer import write_model
    from tengen.eval.katago.tiny import random_model

    model = write_model(random_model(3, 15), tmp_path / "tiny.bin.gz")
    monkeypatch.setenv(weights.ENV_VAR, str(tmp_path / "cache"))
    monkeypatch.setattr(weights, "DEFAULT_SHA256", hashlib.sha256(model.read_bytes()).hexdigest())
    real_run = subprocess.run

    def stand_in(cmd, **kwargs):  # the same call, with the stand-in in pip's place
        dest = cmd[cmd.index("-d") + 1]
        return real_run([sys.executable, "-c", STAND_IN_PIP, dest, str(model), f"katrain/models/{weights.DEFAULT_MODEL}"],
                        **kwargs)

    monkeypatch.setattr(weights.subprocess, "run", stand_in)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"boardsize 5\n1 final_score\nquit\n")))
    assert main(["gtp", "--dead-stones", "network"]) == 0
    out, err = capfd.readouterr()
    answers = out.split("\n\n")
    assert answers[:2] == ["=", answers[1]] and answers[1].startswith("=1 ") and answers[2:] == ["=", ""], out
    assert "Looking in links: /stand-in" in err and "Saved " in err  # the stand-in ran, and spoke on stderr
    assert (tmp_path / "cache" / weights.DEFAULT_MODEL).read_bytes() == model.read_bytes()


# ---------------------------------------------------------------- 8. a very long GTP game
def test_8_a_very_long_gtp_game_gets_a_clear_answer_at_the_cap():
    engine = gtp_engine(size=2)  # the cap does not depend on the size; a small board keeps the test light
    for _ in range(MAX_RECORD_MOVES):
        assert engine.handle("play b pass") == "=\n\n"
    too_long = f"the game is too long: a game holds at most {MAX_RECORD_MOVES} moves"
    assert engine.handle("5 play w pass") == f"?5 {too_long}\n\n"
    assert engine.handle("6 genmove w") == f"?6 {too_long}\n\n"
    assert engine.handle("undo") == "=\n\n" and engine.handle("play w pass") == "=\n\n"
    assert engine.handle("clear_board") == "=\n\n" and engine.handle("play b A1") == "=\n\n"


# ---------------------------------------------------------------- 9. a missing or corrupt model while offline
def _offline_pip(monkeypatch, calls: list | None = None):
    from tengen.eval.katago import weights

    def offline(cmd, **kwargs):
        if calls is not None:
            calls.append(cmd)
        return subprocess.CompletedProcess(cmd, 1, "", "")

    monkeypatch.setattr(weights.subprocess, "run", offline)


@pytest.mark.parametrize("corrupt", [False, True], ids=["missing", "corrupt"])
@pytest.mark.parametrize("argv", [["models", "--fetch"], ["eval", EXAMPLE]], ids=["models", "eval"])
def test_9_offline_without_a_model_says_what_to_do_in_one_line(tmp_path, monkeypatch, capsys, argv, corrupt):
    from tengen.eval.katago import weights

    cache = tmp_path / "models"
    monkeypatch.setenv(weights.ENV_VAR, str(cache))
    if corrupt:
        cache.mkdir()
        (cache / weights.DEFAULT_MODEL).write_bytes(b"half a downl")
    _offline_pip(monkeypatch)
    assert main(argv) == 2
    err = capsys.readouterr().err
    _one_error_line(err, "offline?")
    assert str(cache / weights.DEFAULT_MODEL) in err and "--model FILE" in err and "$TENGEN_MODEL_DIR" in err
    assert ("failed its checksum and was removed" in err) == corrupt


def test_9_gtp_offline_without_a_model_answers_final_score_with_what_to_do(tmp_path, monkeypatch, capfd):
    from tengen.eval.katago import weights

    monkeypatch.setenv(weights.ENV_VAR, str(tmp_path / "models"))
    _offline_pip(monkeypatch)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"1 final_score\n2 name\n")))
    assert main(["gtp", "--dead-stones", "network"]) == 0
    first, second, end = capfd.readouterr().out.split("\n\n")
    assert first.startswith("?1 cannot load the network: could not download") and "--model FILE" in first
    assert (second, end) == ("=2 tengen", "")


def test_9_two_fetches_at_once_use_their_own_temporary_files(tmp_path, monkeypatch):
    import hashlib

    from tengen.eval.katago import weights

    payload = b"pretend network" * 1000
    monkeypatch.setenv(weights.ENV_VAR, str(tmp_path / "models"))
    monkeypatch.setattr(weights, "DEFAULT_SHA256", hashlib.sha256(payload).hexdigest())
    both_downloading = threading.Barrier(2, timeout=60)

    def pip(cmd, **kwargs):
        both_downloading.wait()  # the two fetches overlap from here on
        with zipfile.ZipFile(cmd[cmd.index("-d") + 1] + "/katrain-1.20.0-py3-none-any.whl", "w") as zf:
            zf.writestr(f"katrain/models/{weights.DEFAULT_MODEL}", payload)
        return subprocess.CompletedProcess(cmd, 0, "", "")

    partials, real_copy = [], weights._copy_member

    def copy(wheel, member, partial, label, progress):
        partials.append(partial)
        real_copy(wheel, member, partial, label, progress)

    monkeypatch.setattr(weights.subprocess, "run", pip)
    monkeypatch.setattr(weights, "_copy_member", copy)
    results: list = []
    threads = [threading.Thread(target=lambda: results.append(weights.fetch_default_model(progress=False)))
               for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    target = tmp_path / "models" / weights.DEFAULT_MODEL
    assert results == [target, target] and target.read_bytes() == payload
    assert len(set(partials)) == 2 and all(p.parent == target.parent for p in partials)
    assert sorted(p.name for p in target.parent.iterdir()) == [weights.DEFAULT_MODEL]  # no temporary file left
