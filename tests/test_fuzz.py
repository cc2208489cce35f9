"""Fuzzing that keeps issue 27's failures fixed: hostile SGF inputs and GTP command streams drawn by the
hypothesis strategies of bench/fuzz.py (random bytes, generated games, mutated files of the shared corpora,
node bombs; GTP commands with odd arguments, ids, comments, bytes that are not UTF-8, over-long lines). A few
hundred examples run in the default suite; the `slow` step runs thousands. Every input must end in success
or one clean error line (GTP: one framed response per command, never `? internal error`)."""
from __future__ import annotations

import io
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from datapaths import REPO
from tengen.files import shared_data_path
from tengen.go.sgf import SgfError, load_game_bytes
from tengen.io.engines import gtp_engine

sys.path.insert(0, str(REPO / "bench"))
from fuzzing import inputs  # noqa: E402
from fuzzing.inputs import (SGF_COMMANDS, comparable, corpus_files, gtp_sessions, mutated,  # noqa: E402
                            owed_responses, sgf_inputs)
from fuzzing.outcomes import Tally, classify_cli, classify_gtp  # noqa: E402
from fuzzing.workers import _run_cli  # noqa: E402

CORPUS = [p.read_bytes() for p in corpus_files()]
needs_corpus = pytest.mark.skipif(not CORPUS, reason="shared SGF corpora not available: "
                                  f"{shared_data_path('sgf_corpora', must_exist=False)} (set TENGEN_SHARED_DATA)")


def check_sgf(data: bytes) -> None:
    """Loading and replaying the main line works, or fails with an SgfError of one line naming the source."""
    try:
        game = load_game_bytes(data, "fuzz.sgf")
        game.board_at(None, strict=False)
    except SgfError as exc:
        assert str(exc).startswith("fuzz.sgf: ") and "\n" not in str(exc), str(exc)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz")


def check_cli(workdir, data: bytes, argv: list[str]) -> None:
    """`tengen COMMAND FILE` in-process on the input: exit 0, or exit 2 with one `tengen: error:` line."""
    path = workdir / "input.sgf"
    path.write_bytes(data)
    rc, _, err = _run_cli([argv[0], str(path), *argv[1:]])
    assert classify_cli(rc, err) in ("success", "clean error"), err


def check_gtp(stream: bytes) -> bytes:
    """A session from bytes: one framed response per command, each with the command's id, no internal
    error; read through a strict UTF-8 text stream (what en_US.UTF-8 gives sys.stdin) the same bytes come
    out. Returns the engine's output."""
    out = io.BytesIO()
    gtp_engine().run(io.BytesIO(stream), out)
    tally = Tally()
    classify_gtp(stream, out.getvalue(), tally, "gtp")
    assert tally.failures() == 0, (stream[:300], tally.examples)
    strict = io.BytesIO()
    gtp_engine().run(io.TextIOWrapper(io.BytesIO(stream), encoding="utf-8", errors="strict"), strict)
    assert strict.getvalue() == out.getvalue()
    return out.getvalue()


# ---------------------------------------------------------------- the default suite: a few hundred examples
@settings(max_examples=200)
@given(sgf_inputs(corpus=[], max_count=300_000))
def test_generated_sgf_inputs_load_or_fail_in_one_line(data):
    check_sgf(data)


@needs_corpus
@settings(max_examples=200)
@given(mutated(CORPUS))
def test_mutated_corpus_files_load_or_fail_in_one_line(data):
    check_sgf(data)


@settings(max_examples=60)
@given(data=sgf_inputs(CORPUS, max_count=300_000), argv=st.sampled_from(SGF_COMMANDS))
def test_the_cli_answers_hostile_sgf_in_one_line(workdir, data, argv):
    check_cli(workdir, data, list(argv))


@pytest.fixture(scope="module")
def gtp_paths(workdir):
    """loadsgf arguments: corpus and bundled files, a FIFO with no writer, a device, a folder, a missing file."""
    return inputs.gtp_paths(workdir, corpus_files())


def test_gtp_sessions_keep_their_framing(gtp_paths):
    @settings(max_examples=120)
    @given(gtp_sessions(gtp_paths))
    def run(stream):
        check_gtp(stream)

    run()


def test_the_framing_check_can_fail():
    """The oracle the fuzz tests rely on: a lost response, a stray line on stdout or an internal error count."""
    tally = Tally()
    classify_gtp(b"1 name\n2 name\n", b"=1 tengen\n\n", tally, "lost")
    classify_gtp(b"name\n", b"Looking in links\n= tengen\n\n", tally, "stray")
    classify_gtp(b"name\n", b"? internal error: boom\n\n", tally, "internal")
    classify_gtp(b"1 name\n# c\n\nquit\nname\n", b"=1 tengen\n\n=\n\n", tally, "fine")
    assert {c: dict(n) for c, n in tally.counts.items()} == {
        "lost": {"broken framing": 1}, "stray": {"broken framing": 1}, "internal": {"traceback": 1},
        "fine": {"success": 2}}


# ---------------------------------------------------------------- the slow step: thousands
@pytest.mark.slow
@settings(max_examples=3000)
@given(sgf_inputs(CORPUS, max_count=3_000_000))
def test_many_hostile_sgf_inputs(data):
    check_sgf(data)


@pytest.mark.slow
@settings(max_examples=600)
@given(data=sgf_inputs(CORPUS), argv=st.sampled_from(SGF_COMMANDS))
def test_many_hostile_sgf_inputs_through_the_cli(workdir, data, argv):
    check_cli(workdir, data, list(argv))


@pytest.mark.slow
def test_many_gtp_sessions(gtp_paths):
    @settings(max_examples=1500)
    @given(gtp_sessions(gtp_paths))
    def run(stream):
        check_gtp(stream)

    run()


def test_clocked_searches_are_compared_by_status_and_id_only():
    """Two runs of one GTP input compare equal when only a clocked search's move differs, and unequal
    when anything else does (or when no clock was set)."""
    clocked = b"time_settings 1 1 1\n7 genmove b\nname\n"
    first, second = b"=\n\n=7 D4\n\n= tengen\n\n", b"=\n\n=7 Q16\n\n= tengen\n\n"
    assert comparable(clocked, first) == comparable(clocked, second)
    assert comparable(clocked, first) != comparable(clocked, b"=\n\n?7 illegal move\n\n= tengen\n\n")
    unclocked = b"boardsize 9\n7 genmove b\nname\n"
    assert comparable(unclocked, first) != comparable(unclocked, second)
    assert [name for _, name in owed_responses(clocked)] == ["time_settings", "genmove", "name"]
