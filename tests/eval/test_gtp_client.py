"""GtpClient against tengen's own engine (a subprocess) and against small misbehaving fake engines.

No test depends on the machine's speed: engines that answer get a generous timeout (a loaded machine may
take many seconds to start Python), and pytest-timeout (pyproject) guards against a client that hangs."""
from __future__ import annotations

import sys
import textwrap
import time

import pytest

from tengen.eval.gtp_client import GtpClient, GtpCommandError, GtpEngineError, GtpResponse, find_gnugo

TENGEN = [sys.executable, "-c", "import sys; from tengen.cli import main; sys.exit(main(['gtp']))"]
GENEROUS = 300.0  # seconds an engine that does answer may take (timeouts under test are set apart)


def fake_engine(body: str) -> list[str]:
    """argv of a Python engine that runs `body` for each input line (`line`, `out` in scope)."""
    code = "import sys\nout = sys.stdout\nfor line in sys.stdin:\n" + textwrap.indent(textwrap.dedent(body), "    ")
    return [sys.executable, "-c", code]


def test_talks_to_tengen_and_raises_on_failure_answers():
    with GtpClient(TENGEN, timeout=GENEROUS) as engine:
        assert engine.send("name") == "tengen"
        assert engine.send("protocol_version") == "2"
        engine.send("boardsize 9")
        assert engine.send("play b E5") == ""
        with pytest.raises(GtpCommandError) as info:
            engine.send("play w E5")
        assert info.value.message == "illegal move" and info.value.command == "play w E5"
        assert engine.query("frobnicate") == GtpResponse(False, "unknown command")
        assert engine.send("showboard").splitlines()[0] == " 9 . . . . . . . . ."  # multi-line answer
        answers = engine.query_many(["play w D4", "undo", "undo", "undo", "clear_board"])
        assert [a.ok for a in answers] == [True, True, True, False, True]
        assert engine.alive
    assert not engine.alive
    with pytest.raises(GtpEngineError):
        engine.send("name")


def test_close_is_idempotent_and_ends_the_process():
    engine = GtpClient(TENGEN, timeout=GENEROUS)
    assert engine.close(quit_timeout=GENEROUS) == 0  # quits by itself, however long its start takes
    assert engine.close() == 0
    assert engine._proc.poll() == 0


@pytest.mark.timeout(120)  # the engine never answers: a client that ignored its timeout would hang here
def test_a_silent_engine_times_out_and_is_killed():
    engine = GtpClient(fake_engine("pass\n"), timeout=0.5)
    start = time.monotonic()
    with pytest.raises(GtpEngineError, match="no answer to 'name' within 0.5s"):
        engine.send("name")
    assert time.monotonic() - start >= 0.5  # waited its timeout (a lower bound: load cannot break it)
    assert not engine.alive
    assert engine._proc.poll() is not None


def test_an_engine_that_exits_is_reported():
    engine = GtpClient(fake_engine("sys.exit(3)\n"), timeout=GENEROUS)
    with pytest.raises(GtpEngineError, match="exit"):
        engine.send("name")
    assert not engine.alive


def test_garbage_output_is_not_taken_for_an_answer():
    engine = GtpClient(fake_engine("out.write('hello there\\n\\n'); out.flush()\n"), timeout=GENEROUS)
    with pytest.raises(GtpEngineError, match="not a GTP answer"):
        engine.send("name")


def test_answers_with_another_id_are_refused():
    engine = GtpClient(fake_engine("out.write('=999 x\\n\\n'); out.flush()\n"), timeout=GENEROUS)
    with pytest.raises(GtpEngineError, match="does not match"):
        engine.send("name")


def test_crlf_and_stray_blank_lines_are_tolerated():
    body = """
        cmd_id = line.split()[0]
        out.write('\\r\\n=' + cmd_id + ' ok\\r\\n\\r\\n'); out.flush()
    """
    with GtpClient(fake_engine(body), timeout=GENEROUS) as engine:
        assert engine.send("name") == "ok"
        assert engine.send("version") == "ok"


def test_commands_must_be_one_line():
    with GtpClient(TENGEN, timeout=GENEROUS) as engine:
        with pytest.raises(ValueError):
            engine.send("name\nquit")
        assert engine.send("name") == "tengen"


def test_a_missing_binary_is_a_clear_error():
    with pytest.raises(GtpEngineError, match="cannot start"):
        GtpClient(["/nonexistent/engine", "--mode", "gtp"])


@pytest.mark.skipif(find_gnugo() is None, reason="GNU Go is not installed (/usr/games/gnugo)")
def test_gnugo_constructor():
    with GtpClient.gnugo(level=0, timeout=GENEROUS) as gnugo:
        assert gnugo.send("name") == "GNU Go"
        gnugo.send("boardsize 9")
        assert sorted(gnugo.send("fixed_handicap 2").split()) == ["C3", "G7"]
