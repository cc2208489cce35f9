"""Hostile input through tengen (issue 27): SGF files through `show`, `score --benson` and
`influence --model bouzy`, GTP command streams through `tengen gtp` under C.UTF-8 and en_US.UTF-8, and the
issue's nine reproducers as named cases; issue 47's findings are named cases too (the served-folder race,
failed streams of `tengen analysis`, FIFO and /dev/zero models, batch link loops and an output folder inside
the input, a deep journal line, a huge margin, a record at the move cap).

    python bench/fuzz.py                          # up to 10,000 SGF inputs, 2,000 GTP sequences per locale
    python bench/fuzz.py --sgf 500 --gtp 100      # a quick run
    python bench/fuzz.py --budget 480             # the run's time bound in seconds (the default)

Inputs come from the hypothesis strategies below (random bytes, SGF-like text, generated games with odd
properties, mutated files of ../shared/data/sgf_corpora, node bombs up to the 16 MiB file limit); the test
suite uses the same strategies (tests/test_fuzz.py). SGF inputs run in-process in two long-lived worker
processes (`tengen.cli.main`, the address space limited to 2 GB, 60 s per input), a sample also through the
real console script; GTP sequences run (`tengen gtp --evaluator classic --visits 16`: the
protocol layer, whatever model this machine has cached) in workers started under each locale, whose
sys.stdin / sys.stdout are rebuilt per sequence with the encoding and error handler the locale gave them, a
sample also through the real console script; where a sequence sets a GTP clock, the moves of searches are
compared by status and id only (a clocked search stops on the wall clock). Each outcome is counted: success, clean error (one `tengen: error:` line / a `?`
answer), traceback (or `? internal error`), hang (> 60 s), over 2 GB, crash (a worker killed by a signal),
and for GTP broken framing (responses that are not one per command with the command's id). The last line
is `failures: N`, the sum of all but successes and clean errors.
"""
from __future__ import annotations

import argparse
import encodings.aliases
import io
import json
import os
import pickle
import queue
import random
import re
import resource
import select
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import zipfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Optional

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from tengen.go.sgf_bytes import MAX_SGF_BYTES  # the SGF file limit the bombs fill up to
from tengen.io.gtp import MAX_LINE_BYTES  # the GTP engine's limit on one command line

REPO = Path(__file__).resolve().parents[1]
MEMORY_LIMIT = 2_000_000_000  # bytes of address space per child
HANG_SECONDS = 60
QUEUED_SLACK = 45  # seconds kept back from --budget: the jobs already queued when a phase's time is up finish
SGF_COMMANDS = (["show"], ["score", "--benson"], ["influence", "--model", "bouzy"])
LOCALES = ("C.UTF-8", "en_US.UTF-8")
# The GTP sequences exercise the protocol layer, so the engine under them must not depend on whether this
# machine has the KataGo network cached (a search over it costs seconds a genmove): the classic evaluator,
# 16 visits a move. The network's GTP paths are the named cases' and the test suite's.
GTP_ARGS = ("gtp", "--evaluator", "classic", "--visits", "16")
# A search under a GTP clock stops on the wall clock, so its move may differ between two runs of the same input
CLOCK_COMMANDS = ("time_settings", "time_left", "kgs-time_settings")
SEARCH_COMMANDS = ("genmove", "kgs-genmove_cleanup", "reg_genmove")
HUGE = "1" * 4301  # one digit past int()'s limit


# ================================================================ inputs: hypothesis strategies
def corpus_files(root: Optional[Path] = None, max_bytes: int = 512 * 1024) -> list[Path]:
    """Files of the shared SGF corpora (malformed ones and non-SGF files included), at most `max_bytes`
    each; [] when the corpora are absent."""
    from tengen.files import shared_data_path

    root = root or shared_data_path("sgf_corpora", must_exist=False)
    if not root.is_dir():
        return []
    return sorted(p for p in root.rglob("*") if p.is_file() and p.stat().st_size <= max_bytes)


def bundled_sgf_files() -> list[Path]:
    """SGF files inside the repository (always present)."""
    return [REPO / "src" / "tengen" / "data" / "example.sgf",
            *sorted((REPO / "tests" / "io" / "transcripts" / "data").glob("*.sgf"))]


SIZES = ["19", "9", "13", "25", "5", "2", "1", "0", "26", "52", "-1", "19:19", "9:13", "x", "", " 19 ", "1" * 30]
KOMIS = ["6.5", "7.5", "0", "-5.5", "750", "3.75", "375", "6,5", "nan", "inf", "-inf", "1e999", "abc", "",
         "-100.00", "1" * 400]
HANDICAPS = ["0", "2", "9", "-1", "99", "x", "", "1" * 30]
RULES = ["Chinese", "Japanese", "AGA", "tromp-taylor", "NZ", "Ing", "GOE", "Korean", "bogus", "", "jp"]
CHARSETS = sorted(set(encodings.aliases.aliases.values())) + ["UTF-8", "GB2312", "Shift_JIS", "bogus-charset", ""]
ENCODINGS = ["utf-8", "latin-1", "gb18030", "shift_jis", "cp1252", "utf-16", "utf-16-le", "koi8-r"]
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


UNUSUAL_POINTS = ["", "tt", "zz", "a", "abc", "AA", "é", "aa:cc", "Z1", "\\]"]
JUNK = ["B", "W[", "AB[aa", "C[unterminated", "]", "B[aa]]", ";;", "()", "(;)", "\\", "C[a\\]", "X" * 65 + "[x]"]
MARKUP = ["PL[B]", "PL[W]", "PL[x]", "PL[]", "KO[]", "MN[5]", "BL[30]", "OB[x]", "V[1]"]
TEXT_PIECES = list("ab ;()[:\n\tB+W") + ["é", "中", "\\]", "\\\\", "\\\n", "\x00"]  # escapes well formed


def _text(rng: random.Random) -> str:
    return "".join(rng.choice(TEXT_PIECES) for _ in range(rng.randrange(31)))


def _point(rng: random.Random, size: int, odd: bool) -> str:
    """An SGF point of the board; in an odd game one in 40 is not one (empty, off the board, malformed)."""
    if odd and rng.randrange(40) == 0:
        return rng.choice(UNUSUAL_POINTS)
    return LETTERS[rng.randrange(max(size, 1))] + LETTERS[rng.randrange(max(size, 1))]


def _property(rng: random.Random, size: int, broken: bool, odd: bool) -> str:
    """One property: a move (most often), setup or markup points, PL and friends, a comment, a label, a
    property tengen does not know; in a broken game also a junk token."""
    kind = rng.randrange(10 if broken else 9)
    if kind <= 2:
        return rng.choice("BW") + f"[{_point(rng, size, odd)}]"
    if kind == 3:
        name = rng.choice(["AB", "AW", "AE", "SQ", "TR", "CR", "MA", "TB", "TW"])
        return name + "".join(f"[{_point(rng, size, odd)}]" for _ in range(rng.randint(1, 5)))
    if kind == 4:
        return rng.choice(MARKUP)
    if kind == 5:
        return f"C[{_text(rng)}]"
    if kind == 6:
        return f"LB[{_point(rng, size, odd)}:{_text(rng)}]"
    if kind <= 8:  # a property tengen does not read; one in five a random name (sgfmill drops lower case)
        name = rng.choice(["GN", "PB", "PW", "DT", "EV", "GC", "AP", "XX", "SO", "MULTIGOGM"]) if rng.randrange(5) else \
            "".join(rng.choice(LETTERS) for _ in range(rng.randint(1, 64)))
        return f"{name}[{_text(rng)}]"
    return rng.choice(JUNK)


def _pick(draw, odd: bool, usual: list[str], unusual: list[str]) -> str:
    return draw(st.sampled_from(unusual if odd and draw(st.booleans()) else usual))


@st.composite
def sgf_games(draw) -> bytes:
    """An SGF game: root properties (unusual values in one game of five), up to 150 nodes of moves, setup,
    markup and text, variations; one game of six also broken (junk tokens, unbalanced parentheses); an
    encoding and sometimes a CA that does not match it."""
    odd, broken = draw(st.integers(0, 4)) == 0, draw(st.integers(0, 5)) == 0
    size_text = _pick(draw, odd, ["19", "19", "9", "13", "5", "25"], SIZES)
    size = int(size_text) if size_text.isdigit() and 1 <= int(size_text) <= 52 else 19
    root = [_pick(draw, odd, ["GM[1]", "GM[1]", ""], ["GM[2]", "GM[x]", "GM[]"]), f"SZ[{size_text}]"]
    for prop, usual, unusual in (("KM", ["6.5", "7.5", "0", "5.5"], KOMIS), ("HA", ["0", "2", "4"], HANDICAPS),
                                 ("RU", ["Chinese", "Japanese", "AGA"], RULES), ("CA", ["UTF-8"], CHARSETS),
                                 ("FF", ["4"], ["3", "5", "x"]), ("RE", ["B+R", "W+0.5"], ["0", "Void", "?", "é"])):
        if draw(st.booleans()):
            root.append(f"{prop}[{_pick(draw, odd, usual, unusual)}]")
    body, depth = ["(;", *root], 1
    rng = draw(st.randoms(use_true_random=True))  # the nodes in bulk: one draw, not thousands
    need_node = after_close = False  # SGF: '(' opens a sequence of nodes; after ')' only '(' or ')' may come
    for _ in range(rng.randrange(151)):
        step = rng.randrange(20)
        if after_close and (step < 12 or depth == 1):
            body.append("(")
            depth, need_node, after_close = depth + 1, True, False
        elif (after_close or (step == 1 and not need_node)) and depth > 1:
            body.append(")")
            depth, after_close = depth - 1, True
        elif step == 0 and not need_node:
            body.append("(")
            depth, need_node = depth + 1, True
        else:
            body.append(";" + "".join(_property(rng, size, broken, odd) for _ in range(rng.randint(1, 3))))
            need_node = False
    if need_node:
        body.append(";")
    if not broken or draw(st.booleans()):
        body.append(")" * depth)
    encoding = draw(st.sampled_from(ENCODINGS if odd else ["utf-8", "utf-8", "latin-1", "gb18030"]))
    data = "".join(body).encode(encoding, errors="replace")
    prefix = draw(st.sampled_from([b"", b"", b"", b"\xef\xbb\xbf", b"junk before the game ", b"\n\n"]))
    return prefix + data


@st.composite
def mutated(draw, corpus: list[bytes]) -> bytes:
    """A corpus file after 1-4 mutations: truncation (to at least half), bit flips, inserted or deleted bytes, duplicated
    slices, SGF tokens dropped in, or a splice with another file."""
    data = bytearray(draw(st.sampled_from(corpus)))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["truncate", "flip", "insert", "delete", "duplicate", "token", "splice"]))
        at = draw(st.integers(0, len(data)))
        if op == "truncate":
            del data[max(at, len(data) // 2):]
        elif op == "flip" and data:
            i = min(at, len(data) - 1)
            data[i] ^= 1 << draw(st.integers(0, 7))
        elif op == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=16))
        elif op == "delete":
            del data[at:at + draw(st.integers(1, 64))]
        elif op == "duplicate":
            piece = data[at:at + draw(st.integers(1, 256))]
            data[at:at] = piece * draw(st.integers(1, 20))
        elif op == "token":
            data[at:at] = draw(st.sampled_from([b"(", b")", b";", b"[", b"]", b"\\", b"\xff", b"B[zz]", b"SZ[0]",
                                                b"SZ[26]", b"KM[nan]", b"CA[bogus]", b"AB[aa:zz]", b"(;", b"))"]))
        else:
            other = draw(st.sampled_from(corpus))
            data[at:] = other[draw(st.integers(0, len(other))):]
    return bytes(data)


BOMBS = {  # name: (head, unit repeated n times, tail); "nested" repeats "(;" and then ")" n times
    "empty nodes": (b"(;SZ[19]", b";", b")"),
    "passes": (b"(;SZ[19]", b";B[]", b")"),
    "moves": (b"(;SZ[19]", b";B[aa];W[bb]", b")"),
    "setup nodes": (b"(;SZ[19]", b";AB[aa]AE[aa]", b")"),
    "nested": (b"(;SZ[19]", b"(;", b")"),
    "siblings": (b"(;SZ[19]", b"(;B[aa])", b")"),
    "empty variations": (b"(;SZ[19]", b"()", b")"),
    "open parens": (b"(;SZ[19]", b"(", b""),
    "values": (b"(;SZ[19]AB", b"[aa]", b")"),
    "names": (b"(;SZ[19]", b"A ", b")"),
    "comment": (b"(;SZ[19]C[", b"(;)\\]", b"])"),
}
BOMB_COUNTS = [1, 10, 1000, 9_999, 10_001, 100_000, 250_001, 1_000_001, 3_000_000, 9_000_000]


def bomb(name: str, n: int) -> bytes:
    """A node bomb (see BOMBS) of n units, cut at the 16 MiB file limit plus a little (past it: refused)."""
    head, unit, tail = BOMBS[name]
    n = min(n, (MAX_SGF_BYTES + 64) // len(unit))
    if name == "nested":
        return head + unit * n + b")" * n + tail
    return head + unit * n + tail


def bombs(max_count: int):
    counts = [c for c in BOMB_COUNTS if c <= max_count]
    return st.tuples(st.sampled_from(sorted(BOMBS)), st.sampled_from(counts)).map(lambda t: bomb(*t))


def sgf_inputs(corpus: list[bytes], max_count: int = 3_000_000):
    """Hostile SGF inputs: mutated corpus files (when there is a corpus), generated games, random bytes,
    SGF-alphabet soup and node bombs of up to `max_count` units (about 4 % of inputs)."""
    soup = st.text(alphabet="();[]\\ABWCSZKMLP abcdefghijklmnopqrst0123456789\n", max_size=400).map(str.encode)
    branches = [(40, mutated(corpus) if corpus else sgf_games()), (30, sgf_games()), (14, st.binary(max_size=2048)),
                (12, soup), (4, bombs(max_count))]
    table = [strategy for weight, strategy in branches for _ in range(weight)]
    return st.integers(0, len(table) - 1).flatmap(lambda i: table[i])


GTP_COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
GTP_NAMES = ["protocol_version", "name", "version", "known_command", "list_commands", "boardsize", "clear_board",
             "komi", "play", "genmove", "kgs-genmove_cleanup", "undo", "loadsgf", "fixed_handicap",
             "place_free_handicap", "set_free_handicap", "final_score", "final_status_list", "showboard",
             "time_settings", "time_left", "frobnicate", "PLAY"]
GTP_NUMBERS = st.one_of(st.integers(-3, 30).map(str), st.sampled_from(
    [HUGE, "-" + HUGE, "1e3", "0x1F", "+7", "\u0663", "1_0", "99999999999999999999", "", "7.5", "-0"]))
GTP_VERTICES = st.one_of(
    st.tuples(st.sampled_from(GTP_COLUMNS), st.integers(1, 25)).map(lambda t: f"{t[0]}{t[1]}"),
    st.tuples(st.sampled_from(GTP_COLUMNS.lower()), st.integers(1, 19)).map(lambda t: f"{t[0]}{t[1]}"),
    st.sampled_from(["pass", "PASS", "I5", "A0", "Z26", "A" + HUGE, "é5", "A-1", "A1.5", "AA1", "1A"]))
GTP_COLORS = st.sampled_from(["b", "w", "B", "W", "black", "White", "x", "bw"])


@st.composite
def gtp_command(draw, paths: list[str]) -> bytes:
    """One command line: a GTP command with odd arguments, maybe an id, a comment, control characters or a
    byte that is not UTF-8; or a line of random bytes; or (rarely) a line past the length limit."""
    kind = draw(st.integers(0, 199))
    if kind == 199:
        return b"quit"
    if kind < 10:
        return draw(st.binary(max_size=60)).replace(b"\n", b" ")
    if kind == 10:
        start = draw(st.sampled_from([b"name ", b"5 name # ", b"   ", b"\xff"]))
        return start + b"x" * (MAX_LINE_BYTES + draw(st.integers(-8, 64))) + draw(st.sampled_from([b"", b" # c"]))
    name = draw(st.sampled_from(GTP_NAMES))
    n = GTP_NUMBERS
    args = {
        "play": st.tuples(GTP_COLORS, GTP_VERTICES),
        "genmove": st.tuples(GTP_COLORS), "kgs-genmove_cleanup": st.tuples(GTP_COLORS),
        "boardsize": st.tuples(st.one_of(st.integers(2, 25).map(str), n)),
        "komi": st.tuples(st.sampled_from(["6.5", "0", "-7.5", "nan", "inf", "1e999", "x", HUGE])),
        "fixed_handicap": st.tuples(n), "place_free_handicap": st.tuples(n),
        "set_free_handicap": st.lists(GTP_VERTICES, max_size=6),
        "loadsgf": st.tuples(st.sampled_from(paths), st.sampled_from(["", "", "1", "0", "-1", "3", "D4", "pass", HUGE])),
        "final_status_list": st.tuples(st.sampled_from(["alive", "dead", "seki", "DEAD", "x"])),
        "time_settings": st.tuples(n, n, n), "time_left": st.tuples(GTP_COLORS, n, n),
        "known_command": st.tuples(st.sampled_from(GTP_NAMES + ["", "kgs-time_settings"])),
    }.get(name, st.lists(st.sampled_from(["x", "1", ""]), max_size=2))
    words = [name, *draw(args)]
    if draw(st.integers(0, 9)) == 0:
        words = words[:draw(st.integers(0, len(words)))]  # arguments missing
    line = " ".join(words).encode()
    if draw(st.booleans()):
        line = str(draw(st.integers(0, 10**6))).encode() + b" " + line
    decoration = draw(st.integers(0, 19))
    if decoration == 0:
        line += b" # a comment \xff"
    elif decoration == 1:
        line += b"\r"
    elif decoration == 2:
        line = line.replace(b" ", b"\t")
    elif decoration == 3:
        at = draw(st.integers(0, len(line)))
        line = line[:at] + draw(st.sampled_from([b"\xff", b"\xe9", b"\x00", b"\x7f", b"\x1b[2J", b"\xc3"])) + line[at:]
    return line


@st.composite
def gtp_sessions(draw, paths: list[str]) -> bytes:
    """A GTP input stream: 1 to 40 lines (commands; blank and comment lines one in ten), then maybe `quit`."""
    length = draw(st.integers(1, 40))
    line = st.integers(0, 9).flatmap(
        lambda i: gtp_command(paths) if i else st.sampled_from([b"", b"   ", b"# a comment", b"\t"]))
    lines = draw(st.lists(line, min_size=length, max_size=length))
    end = draw(st.sampled_from([b"\nquit\n", b"\n", b"", b"\n1000 quit\n"]))
    return b"\n".join(lines) + end


def gtp_paths(workdir: Path, corpus: list[Path]) -> list[str]:
    """What loadsgf is given: corpus and bundled files, a FIFO with no writer, a device, a directory, a
    missing file."""
    fifo = workdir / "no-writer.fifo"
    if not fifo.exists():
        os.mkfifo(fifo)
    paths = [str(p) for p in bundled_sgf_files()] + [str(p) for p in corpus[::max(1, len(corpus) // 60)]]
    return [p for p in paths if " " not in p] + [str(fifo), "/dev/zero", str(workdir), str(workdir / "missing.sgf")]


# ================================================================ GTP framing: what must come back
def _gtp_words(line: str) -> list[str]:
    """GTP 2.2's preprocessing: control characters but HT and LF dropped, the comment removed, HT as space."""
    line = "".join(ch for ch in line if ch in "\t\n" or 32 <= ord(ch) != 127).replace("\t", " ")
    return line.split("#", 1)[0].split()


def _has_id(words: list[str]) -> bool:
    return bool(words) and words[0].isascii() and words[0].isdigit()


def owed_responses(stream: bytes) -> list[tuple[str, str]]:
    """(id, command name) of each response a GTP engine owes for this input (id '' for a command without
    one): one per command line, none for blank and comment lines, nothing after `quit`. A line past
    MAX_LINE_BYTES is owed one answer (its id read from its start, name '') unless its start holds a
    comment sign (then it is that start)."""
    owed = []
    lines = stream.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    for raw in lines:
        text = raw[:MAX_LINE_BYTES].decode("utf-8", "surrogateescape")
        words = _gtp_words(text)
        if len(raw) > MAX_LINE_BYTES and "#" not in text:
            owed.append((words[0] if _has_id(words) else "", ""))
            continue
        if not words:
            continue
        command = words[1:] if _has_id(words) else words
        owed.append((words[0] if _has_id(words) else "", command[0] if command else ""))
        decodable = not any("\udc80" <= ch <= "\udcff" for word in words for ch in word)
        if command[:1] == ["quit"] and decodable:
            break
    return owed


def expected_ids(stream: bytes) -> list[str]:
    """The id of each response owed (`owed_responses`)."""
    return [rid for rid, _ in owed_responses(stream)]


def comparable(stream: bytes, out: bytes) -> bytes:
    """A session's stdout for comparing two runs: where the input sets a GTP clock, a search's move depends
    on the wall clock by design, so those answers are compared by status and id only."""
    names = [name for _, name in owed_responses(stream)]
    if not any(name.lower() in CLOCK_COMMANDS for name in names):
        return out
    responses = parse_responses(out)
    if responses is None or len(responses) != len(names):
        return out
    kept = [f"{status}{rid} <move>" if status == "=" and name.lower() in SEARCH_COMMANDS else text
            for (status, rid, text), name in zip(responses, names)]
    return ("\n\n".join(kept) + "\n\n").encode()


_RESPONSE_RE = re.compile(r"([=?])(\d*)(?:$| |\n)", re.S)


def parse_responses(out: bytes) -> Optional[list[tuple[str, str, str]]]:
    """(status '=' or '?', id, text) for each response of a GTP engine's stdout; None when it is not a
    sequence of well-framed responses (something else reached stdout, or a response lacks its blank line)."""
    if not out:
        return []
    text = out.decode("utf-8", "replace")
    if not text.endswith("\n\n"):
        return None
    responses = []
    for chunk in text[:-2].split("\n\n"):
        match = _RESPONSE_RE.match(chunk)
        if not match:
            return None
        responses.append((match.group(1), match.group(2), chunk))
    return responses


# ================================================================ outcomes
OUTCOMES = ("success", "clean error", "traceback", "hang", "over 2 GB", "crash", "broken framing")
FAILURES = OUTCOMES[2:]


@dataclass
class Tally:
    """Outcome counts per command, with a few examples of each failure."""

    counts: dict[str, Counter] = field(default_factory=dict)
    examples: list[str] = field(default_factory=list)

    def add(self, command: str, outcome: str, detail: str = "") -> None:
        self.counts.setdefault(command, Counter())[outcome] += 1
        if outcome in FAILURES and len(self.examples) < 20:
            self.examples.append(f"{command}: {outcome}: {detail[:300]}")

    def failures(self) -> int:
        return sum(c[o] for c in self.counts.values() for o in FAILURES)

    def lines(self, title: str) -> list[str]:
        out = [title]
        for command, counts in self.counts.items():
            shown = ", ".join(f"{counts[o]} {o}" for o in OUTCOMES if counts[o] or o in ("success", "clean error"))
            out.append(f"  {command:<24} {sum(counts.values()):>6}: {shown}")
        out += [f"  failure: {e}" for e in self.examples]
        return out


def classify_cli(rc: Optional[int], err: str) -> str:
    """A CLI run's outcome from its exit status and stderr."""
    if "MemoryError" in err:
        return "over 2 GB"
    if "Traceback" in err:
        return "traceback"
    if rc == 0:
        return "success"
    errors = [line for line in err.splitlines() if line.startswith("tengen: error: ")]
    if rc == 2 and len(errors) == 1 and err.endswith(errors[0] + "\n"):
        return "clean error"
    return "crash" if rc is not None and rc < 0 else "traceback"


def classify_gtp(stream: bytes, out: bytes, tally: Tally, command: str) -> None:
    """Count each command's outcome of one GTP session from its stdout: '=' success, '?' clean error,
    '? internal error' traceback; responses that do not match the commands one to one: broken framing."""
    responses = parse_responses(out)
    ids = expected_ids(stream)
    if responses is None or [r[1] for r in responses] != ids:
        got = "unparsable stdout" if responses is None else f"{len(responses)} responses for {len(ids)} commands"
        tally.add(command, "broken framing", f"{got}: {stream[:120]!r} -> {out[-200:]!r}")
        return
    for status, _, text in responses:
        if status == "?" and "internal error" in text:
            tally.add(command, "traceback", text)
        else:
            tally.add(command, "success" if status == "=" else "clean error")


# ================================================================ worker processes
def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def _send(fd: int, obj) -> None:
    data = pickle.dumps(obj)
    view = memoryview(len(data).to_bytes(8, "little") + data)
    while view:
        view = view[os.write(fd, view):]


def _recv(fd: int, timeout: Optional[float] = None):
    """One message, or None at end of file; TimeoutError when nothing complete arrives in `timeout` s."""
    deadline = None if timeout is None else time.monotonic() + timeout
    buf = bytearray()
    need = 8
    while len(buf) < need:
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise TimeoutError
        chunk = os.read(fd, min(1 << 20, need - len(buf)))
        if not chunk:
            return None
        buf += chunk
        if need == 8 and len(buf) == 8:
            need = 8 + int.from_bytes(buf, "little")
    return pickle.loads(bytes(buf[8:]))


class Worker:
    """A long-lived child running jobs in-process (see worker_main), under the memory limit, restarted after
    a hang or a crash."""

    def __init__(self, env: dict[str, str]):
        self.env = env
        self.proc: Optional[subprocess.Popen] = None

    def _start(self) -> None:
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--worker", str(to_child_r), str(from_child_w)],
            pass_fds=(to_child_r, from_child_w), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, env=self.env, preexec_fn=_limit_memory, cwd=REPO)
        os.close(to_child_r)
        os.close(from_child_w)
        self.send_fd, self.recv_fd = to_child_w, from_child_r
        self.hello = _recv(self.recv_fd, 120)  # the locale it started under

    def run(self, job: dict) -> dict:
        """The job's result, or {'outcome': 'hang' | 'crash', ...} when the child did not answer."""
        if self.proc is None:
            self._start()
        try:
            _send(self.send_fd, job)
            result = _recv(self.recv_fd, HANG_SECONDS)
        except TimeoutError:
            self.stop()
            return {"outcome": "hang", "detail": f"no answer in {HANG_SECONDS} s"}
        except OSError as exc:  # the child died while we wrote
            result, _ = None, exc
        if result is None:
            code = self.stop()
            return {"outcome": "crash", "detail": f"worker ended with status {code}"}
        if result.get("restart"):
            self.stop()
        return result

    def stop(self) -> Optional[int]:
        if self.proc is None:
            return None
        proc, self.proc = self.proc, None
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
        for fd in (self.send_fd, self.recv_fd):
            os.close(fd)
        return proc.wait()


def _run_cli(argv: list[str]) -> tuple[Optional[int], str, str]:
    """tengen.cli.main(argv) in this process: (exit status, stdout, stderr); a traceback lands in stderr."""
    from tengen import cli

    out, err = io.TextIOWrapper(io.BytesIO(), "utf-8", "backslashreplace"), io.StringIO()
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        rc = cli.main(argv)
    except SystemExit as exc:
        rc = exc.code if isinstance(exc.code, int) else 2
    except BaseException:  # noqa: BLE001  (what the fuzzing is looking for)
        rc = None
        err.write(traceback.format_exc())
    finally:
        sys.stdout, sys.stderr = saved
    out.flush()
    return rc, out.buffer.getvalue().decode("utf-8", "replace"), err.getvalue()


def _run_gtp(stream: bytes, workdir: Path, encodings_: dict[str, tuple[str, str]]) -> tuple[Optional[int], bytes, str]:
    """`tengen gtp` in this process with sys.stdin / sys.stdout rebuilt over files, with the encoding and
    error handler this process's locale gave the real ones (what a fresh `tengen gtp` would get)."""
    from tengen import cli

    (workdir / "in").write_bytes(stream)
    saved = sys.stdin, sys.stdout, sys.stderr
    in_enc, in_err = encodings_["stdin"]
    out_enc, out_err = encodings_["stdout"]
    sys.stdin = io.TextIOWrapper(io.BufferedReader(io.FileIO(workdir / "in", "r")), in_enc, in_err)
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(io.FileIO(workdir / "out", "w")), out_enc, out_err)
    sys.stderr = err = io.StringIO()
    try:
        rc = cli.main(list(GTP_ARGS))
    except SystemExit as exc:
        rc = exc.code if isinstance(exc.code, int) else 2
    except BaseException:  # noqa: BLE001
        rc = None
        err.write(traceback.format_exc())
    finally:
        for stream_ in (sys.stdin, sys.stdout):
            try:
                stream_.close()
            except Exception:  # noqa: BLE001
                pass
        sys.stdin, sys.stdout, sys.stderr = saved
    return rc, (workdir / "out").read_bytes(), err.getvalue()


def worker_main(recv_fd: int, send_fd: int) -> None:
    """The child's loop: a job in, a result out, until end of input."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    encodings_ = {"stdin": (sys.stdin.encoding, sys.stdin.errors), "stdout": (sys.stdout.encoding, sys.stdout.errors)}
    import tengen.cli  # noqa: F401  (imported once, before the first job)

    workdir = Path(tempfile.mkdtemp(prefix="tengen-fuzz-worker-"))
    _send(send_fd, {"encodings": encodings_})
    try:
        while True:
            job = _recv(recv_fd)
            if job is None:
                return
            try:
                if job["kind"] == "sgf":
                    path = workdir / "input.sgf"
                    path.write_bytes(job["data"])
                    argv = [job["argv"][0], str(path), *job["argv"][1:]]
                    rc, _, err = _run_cli(argv)
                    outcome = classify_cli(rc, err)
                    result = {"outcome": outcome, "detail": err.strip().splitlines()[-1:] or [""], "rc": rc}
                    result["detail"] = result["detail"][0]
                else:
                    rc, out, err = _run_gtp(job["data"], workdir, encodings_)
                    result = {"outcome": classify_cli(rc, err) if rc != 0 or err else "success", "out": out,
                              "detail": err.strip()[-300:], "rc": rc}
            except MemoryError:
                result = {"outcome": "over 2 GB", "detail": "MemoryError", "restart": True}
            if result["outcome"] in ("over 2 GB", "traceback"):
                result["restart"] = True  # a process past a MemoryError or a bug may be in a bad state
            _send(send_fd, result)
            if result.get("restart"):
                return
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


class Pool:
    """Two workers fed from a bounded queue by the caller; results handed to `on_result` (in worker threads,
    under a lock)."""

    def __init__(self, env: dict[str, str], on_result: Callable[[dict, dict], None], size: int = 2):
        self.jobs: queue.Queue = queue.Queue(maxsize=2 * size)
        self.lock = threading.Lock()
        self.on_result = on_result
        self.workers = [Worker(env) for _ in range(size)]
        self.threads = [threading.Thread(target=self._loop, args=(w,), daemon=True) for w in self.workers]
        for t in self.threads:
            t.start()

    def _loop(self, worker: Worker) -> None:
        while True:
            job = self.jobs.get()
            if job is None:
                worker.stop()
                return
            result = worker.run(job) if job.get("kind") != "real" else run_real(job)
            with self.lock:
                self.on_result(job, result)

    def put(self, job: dict) -> None:
        self.jobs.put(job)

    def close(self) -> None:
        for _ in self.threads:
            self.jobs.put(None)
        for t in self.threads:
            t.join()


# ================================================================ the real console script
CONSOLE_SCRIPT = Path(sys.executable).parent / "tengen"


def tengen_argv(*args: str) -> list[str]:
    return [str(CONSOLE_SCRIPT), *args] if CONSOLE_SCRIPT.exists() else [sys.executable, "-m", "tengen", *args]


def run_tengen(args: list[str], stdin: Optional[bytes] = None, env: Optional[dict] = None, close_stdin: bool = False,
               timeout: float = HANG_SECONDS) -> dict:
    """The real console script under the memory limit: {'rc', 'out', 'err', 'outcome'} ('hang' past timeout)."""
    def limits():
        _limit_memory()
        if close_stdin:
            os.close(0)

    try:
        proc = subprocess.run(tengen_argv(*args), input=stdin, stdin=None if stdin is not None or close_stdin else
                              subprocess.DEVNULL, capture_output=True, timeout=timeout, env=env, cwd=REPO,
                              preexec_fn=limits)
    except subprocess.TimeoutExpired:
        return {"rc": None, "out": b"", "err": "", "outcome": "hang"}
    err = proc.stderr.decode("utf-8", "replace")
    return {"rc": proc.returncode, "out": proc.stdout, "err": err, "outcome": classify_cli(proc.returncode, err)}


def run_real(job: dict) -> dict:
    """A pool job through the real console script (a sample of the in-process runs, to compare)."""
    with tempfile.TemporaryDirectory(prefix="tengen-fuzz-real-") as tmp:
        if job["of"] == "sgf":
            path = Path(tmp) / "input.sgf"
            path.write_bytes(job["data"])
            result = run_tengen([job["argv"][0], str(path), *job["argv"][1:]], env=job["env"])
        else:
            result = run_tengen(list(GTP_ARGS), stdin=job["data"], env=job["env"])
    result["detail"] = result["err"].strip()[-300:]
    return result


# ================================================================ the nine reproducers
@dataclass
class Case:
    name: str
    check: Callable[[Path], tuple[str, str]]  # workdir -> (outcome, what happened); outcome per OUTCOMES


def _expect_cli_error(args: list[str], problem: str, **kwargs) -> Callable[[Path], tuple[str, str]]:
    def check(workdir: Path) -> tuple[str, str]:
        result = run_tengen([a.format(workdir=workdir) for a in args], **kwargs)
        last = result["err"].strip().splitlines()[-1:] or [""]
        if result["outcome"] == "clean error" and problem not in last[0]:
            return "traceback", f"unexpected message: {last[0]}"
        return result["outcome"], last[0]
    return check


def _expect_gtp(stream: bytes, answers: Callable[[list], Optional[str]], args: Iterable[str] = (),
                env: Optional[dict] = None, **kwargs) -> Callable[[Path], tuple[str, str]]:
    """A `tengen gtp` run whose responses must be framed one per command; `answers(responses)` returns what
    is wrong with them (None: as expected)."""
    def check(workdir: Path) -> tuple[str, str]:
        data = stream.replace(b"{workdir}", str(workdir).encode())
        result = run_tengen(["gtp", *args], stdin=data, env=env, **kwargs)
        if result["outcome"] not in ("success", "clean error"):
            return result["outcome"], result["err"].strip()[-160:]
        responses = parse_responses(result["out"])
        if responses is None or [r[1] for r in responses] != expected_ids(data):
            return "broken framing", repr(result["out"][:160])
        if any(r[0] == "?" and "internal error" in r[2] for r in responses):
            return "traceback", next(r[2] for r in responses if "internal error" in r[2])[:160]
        wrong = answers(responses)
        if wrong:
            return "traceback", wrong
        shown = [r[2].split("\n")[0] for r in responses]
        return "clean error" if any(r[0] == "?" for r in responses) else "success", " | ".join(
            dict.fromkeys(s[:70] for s in shown))
    return check


def _offline_env(workdir: Path, links: Optional[Path] = None, model_dir: Optional[Path] = None) -> dict:
    """pip with no index (no network) and only `links` as a source; an empty model cache of its own."""
    model_dir = model_dir or Path(tempfile.mkdtemp(dir=workdir, prefix="models-"))
    env = {**os.environ, "PIP_NO_INDEX": "1", "PIP_CONFIG_FILE": os.devnull, "TENGEN_MODEL_DIR": str(model_dir)}
    env["PIP_FIND_LINKS"] = str(links) if links else ""
    return env


def _stand_in_wheel(workdir: Path) -> tuple[Path, str]:
    """A folder holding a katrain-1.20.0 wheel for pip to 'download' offline, with the real default network
    when the user's cache has it (the full first-use path then runs), else a tiny random one (its checksum
    is then refused, which is also a clean answer)."""
    from tengen.eval.katago import weights

    links = workdir / "links"
    links.mkdir(exist_ok=True)
    cached = Path.home() / ".cache" / "tengen" / "models" / weights.DEFAULT_MODEL
    real = cached.is_file() and weights.sha256_of(cached) == weights.DEFAULT_SHA256
    if real:
        model = cached
    else:
        from tengen.eval.katago.model_writer import write_model
        from tengen.eval.katago.tiny import random_model

        model = write_model(random_model(3, 15), workdir / "tiny.bin.gz")
    wheel = links / "katrain-1.20.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        zf.write(model, f"katrain/models/{weights.DEFAULT_MODEL}")
        zf.writestr("katrain-1.20.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: katrain\nVersion: 1.20.0\n")
        zf.writestr("katrain-1.20.0.dist-info/WHEEL", "Wheel-Version: 1.0\nGenerator: tengen-fuzz\n"
                    "Root-Is-Purelib: true\nTag: py3-none-any\n")
        zf.writestr("katrain-1.20.0.dist-info/RECORD", "")
    return links, "the real default network" if real else "a tiny random network (the default one is not cached)"


def _case_first_download(workdir: Path) -> tuple[str, str]:
    links, what = _stand_in_wheel(workdir)
    env = _offline_env(workdir, links)
    # with the real network final_score must answer; a tiny one is refused by its checksum: a clean '?'
    check = _expect_gtp(b"boardsize 9\n1 final_score\nquit\n",
                        lambda r: None if (r[1][2].startswith("=1 ") or "tiny" in what) else f"final_score: {r[1][2][:120]}",
                        args=["--dead-stones", "network"], env=env, timeout=600)
    outcome, detail = check(workdir)
    models = Path(env["TENGEN_MODEL_DIR"])
    leftovers = [p.name for p in models.iterdir() if p.name.endswith(".part")] if models.is_dir() else []
    if leftovers:
        return "traceback", f"temporary files left: {leftovers}"
    return outcome, f"pip offline from a stand-in wheel with {what}: {detail}"


def _case_two_fetches(workdir: Path) -> tuple[str, str]:
    links, what = _stand_in_wheel(workdir)
    models = workdir / "two-fetches"
    env = _offline_env(workdir, links, models)
    procs = [subprocess.Popen(tengen_argv("models", "--fetch"), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, env=env, cwd=REPO, preexec_fn=_limit_memory) for _ in range(2)]
    try:
        results = [(p.wait(timeout=600), p.stderr.read().decode("utf-8", "replace")) for p in procs]
    except subprocess.TimeoutExpired:
        for p in procs:
            p.kill()
        return "hang", "two fetches at once"
    outcomes = [classify_cli(rc, err) for rc, err in results]
    names = sorted(p.name for p in models.iterdir()) if models.is_dir() else []
    if any(o not in ("success", "clean error") for o in outcomes):
        return next(o for o in outcomes if o not in ("success", "clean error")), results[0][1][-160:]
    if [n for n in names if n.endswith(".part")]:
        return "traceback", f"temporary files left: {names}"
    return outcomes[0], f"with {what}: exit {[rc for rc, _ in results]}, cache holds {names}"


def _case_fifo_gtp(workdir: Path) -> tuple[str, str]:
    fifo = workdir / "gtp.fifo"
    os.mkfifo(fifo)
    return _expect_gtp(f"1 loadsgf {fifo}\n2 name\n".encode(),
                       lambda r: None if [x[2] for x in r] == ["?1 cannot load file", "=2 tengen"] else str(r))(workdir)


def _case_fifo_cli(command: list[str]) -> Callable[[Path], tuple[str, str]]:
    def check(workdir: Path) -> tuple[str, str]:
        fifo = workdir / f"{command[0]}.fifo"
        os.mkfifo(fifo)
        return _expect_cli_error([command[0], str(fifo), *command[1:]], "is not a regular file")(workdir)
    return check


def _write_case(name: str, data: bytes) -> Callable[[Path], str]:
    def path(workdir: Path) -> str:
        target = workdir / name
        target.write_bytes(data)
        return str(target)
    return path


def _cli_on_file(args: list[str], name: str, data: bytes, problem: str) -> Callable[[Path], tuple[str, str]]:
    def check(workdir: Path) -> tuple[str, str]:
        path = _write_case(name, data)(workdir)
        return _expect_cli_error([args[0], path, *args[1:]], problem)(workdir)
    return check


def _strict_locale_env() -> tuple[dict, str]:
    if locale_available("en_US.UTF-8"):
        return {**os.environ, "LANG": "en_US.UTF-8", "LC_ALL": "en_US.UTF-8"}, "LANG=en_US.UTF-8"
    return {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}, "PYTHONIOENCODING=utf-8:strict (en_US.UTF-8 not installed)"


def _case_closed_stdin(workdir: Path) -> tuple[str, str]:
    result = run_tengen(["gtp"], close_stdin=True)
    if result["outcome"] != "success" or result["out"] or result["err"]:
        return result["outcome"] if result["outcome"] != "success" else "traceback", (result["err"] or repr(result["out"]))[-160:]
    return "success", "exit 0, nothing on stdout or stderr"


def _case_strict_locale(workdir: Path) -> tuple[str, str]:
    env, how = _strict_locale_env()
    outcome, detail = _expect_gtp(b"name\nplay b \xff\nquit\n", lambda r: None if [x[0] for x in r] == ["=", "?", "="]
                                  else str(r), env=env)(workdir)
    return outcome, f"{how}: {detail}"


def _case_long_game(workdir: Path) -> tuple[str, str]:
    from tengen.go.board import MAX_RECORD_MOVES

    stream = b"play b pass\n" * (MAX_RECORD_MOVES + 1) + b"undo\nplay w pass\nquit\n"

    def answers(r):
        texts = [x[2] for x in r]
        ok = texts[:MAX_RECORD_MOVES] == ["="] * MAX_RECORD_MOVES and texts[MAX_RECORD_MOVES].startswith("? the game is too long")
        return None if ok and texts[MAX_RECORD_MOVES + 1:] == ["=", "=", "="] else str(texts[MAX_RECORD_MOVES - 1:])[:160]
    outcome, detail = _expect_gtp(stream, answers)(workdir)
    return outcome, f"{MAX_RECORD_MOVES + 1} x play b pass on 19x19: {detail}"


def named_cases() -> list[Case]:
    """The issue's nine reproducers (each through the real console script under the 2 GB limit)."""
    huge = HUGE.encode()
    return [
        Case("1 memory per move: show p.sgf (150,000 passes)",
             _cli_on_file(["show"], "p.sgf", b"(;SZ[19]" + b";B[]" * 150000 + b")", "the main line is too long")),
        Case("2 node bomb: 10 MB of empty nodes",
             _cli_on_file(["show"], "nodes.sgf", b"(;SZ[19]" + b";" * 10_000_000 + b")", "too many nodes")),
        Case("2 node bomb: 5 million nested variations",
             _cli_on_file(["show"], "nested.sgf", b"(;SZ[19]" + b"(;" * 5_000_000 + b")" * 5_000_001, "nested too deep")),
        Case("2 node bomb: an 873,000-move game",
             _cli_on_file(["show"], "moves.sgf", b"(;SZ[19]" + b";B[aa];W[bb]" * 436_500 + b")", "too many nodes")),
        *[Case(f"3 FIFO with no writer: {' '.join(c)}", _case_fifo_cli(c)) for c in SGF_COMMANDS],
        Case("3 FIFO with no writer: GTP loadsgf", _case_fifo_gtp),
        Case("4 GTP integers over 4,300 digits", _expect_gtp(
            b"play b A" + huge + b"\nset_free_handicap A1 B" + huge + b"\nboardsize " + huge
            + b"\nloadsgf src/tengen/data/example.sgf " + huge + b"\nquit\n",
            lambda r: None if [x[2] for x in r][:3] == ["? invalid vertex", "? bad vertex list", "? unacceptable size"]
            and r[3][2].startswith("= ") else str(r)[:160])),
        Case("5 an invalid byte under a strict UTF-8 locale", _case_strict_locale),
        Case("6 closed stdin: tengen gtp <&-", _case_closed_stdin),
        Case("7 first model download in tengen gtp --dead-stones network", _case_first_download),
        Case("8 a very long GTP game", _case_long_game),
        Case("9 offline, no model: tengen models --fetch", lambda w: _expect_cli_error(
            ["models", "--fetch"], "--model FILE", env=_offline_env(w))(w)),
        Case("9 offline, no model: tengen eval", lambda w: _expect_cli_error(
            ["eval", "src/tengen/data/example.sgf"], "--model FILE", env=_offline_env(w))(w)),
        Case("9 offline, corrupt cached model: tengen eval", _case_corrupt_model),
        Case("9 two fetches at once", _case_two_fetches),
        *issue47_cases(),
    ]


# ================================================================ issue 47: servers and batch
EXAMPLE = "src/tengen/data/example.sgf"
ANALYSIS_QUERY = '{"id":"q","moves":[],"rules":"chinese","komi":7.5,"boardXSize":9,"boardYSize":9,"maxVisits":2}'


def issue47_cases() -> list[Case]:
    """Issue 47's findings, each a named case: the served-folder race, failed streams of `tengen analysis`,
    FIFO and /dev/zero models, batch link loops and an output folder inside the input, a deep journal line,
    a huge margin."""
    cases = [Case("47.1 served folder: a record swapped for a link to an outside file mid-read", _case_served_race)]
    engine = " ".join(shlex.quote(a) for a in tengen_argv("analysis", "--model", "tiny"))
    for name, script, problem in (
            ("closed stdin", f"{engine} <&-", "stdin is closed"),
            ("closed stdout", f"echo '{ANALYSIS_QUERY}' | {engine} >&-", "stdout is closed"),
            ("stdout on /dev/full", f"echo '{ANALYSIS_QUERY}' | {engine} > /dev/full", "No space left on device"),
            ("a reader that closes the pipe",
             f"(for i in 1 2 3 4 5 6; do echo '{ANALYSIS_QUERY}'; done; sleep 1) | {engine} 2>&3 | head -c 1 >/dev/null",
             "Broken pipe")):
        cases.append(Case(f"47.3 tengen analysis, {name}", _shell_one_line_error(script, problem)))
    for command in (["eval", EXAMPLE], ["analyze", EXAMPLE, "--predictor", "kata"], ["gtp"], ["analysis"]):
        for model in ("FIFO", "/dev/zero"):
            cases.append(Case(f"47.4 --model {model}: tengen {command[0]}", _case_bad_model(command, model)))
    cases += [
        Case("47.5 batch: link loops, a link to a parent, a rerun with --out inside the input", _case_batch_links),
        Case("47.6 batch: a journal line of 100,000 nested brackets", _case_deep_journal),
        Case("47.7 analyze --evaluator classic --margin 1000000000", lambda w: _expect_cli_error(
            ["analyze", EXAMPLE, "--evaluator", "classic", "--margin", "1000000000"], "--margin from 0 to")(w)),
        Case("47.8 analyze a record at the move cap (9,999 passes), then one past it", _case_record_at_cap),
    ]
    return cases


def _case_record_at_cap(workdir: Path) -> tuple[str, str]:
    """A record one move under the cap is analyzed (its reading plays past the record's last move); one
    move over it is refused in one line."""
    from tengen.go.board import MAX_RECORD_MOVES

    def record(moves: int) -> bytes:
        passes = "".join(";%s[]" % "BW"[i % 2] for i in range(moves))
        return f"(;GM[1]FF[4]SZ[7]KM[7.5]AB[cc][dc][ec]AW[cd][dd][ed]{passes})".encode()

    budget = ["--evaluator", "classic", "--max-nodes", "10", "--max-total-nodes", "20", "--no-progress"]
    under = run_tengen(["analyze", _write_case("under.sgf", record(MAX_RECORD_MOVES - 1))(workdir), *budget])
    if under["outcome"] != "success":
        return under["outcome"], (under["err"].strip().splitlines() or [""])[-1]
    over = _expect_cli_error(["analyze", _write_case("over.sgf", record(MAX_RECORD_MOVES + 1))(workdir), *budget],
                             "the main line is too long")(workdir)
    return ("success" if over[0] == "clean error" else over[0]), f"{MAX_RECORD_MOVES - 1} moves analyzed; {over[1]}"


def _shell_one_line_error(script: str, problem: str) -> Callable[[Path], tuple[str, str]]:
    """A shell pipeline around the engine (fd 3: its stderr): one line naming `problem`, a non-zero exit."""
    def check(workdir: Path) -> tuple[str, str]:
        try:
            done = subprocess.run(["bash", "-c", f"exec 3>&2; {script}; exit ${{PIPESTATUS[1]:-$?}}"],
                                  capture_output=True, text=True, timeout=HANG_SECONDS, cwd=REPO,
                                  preexec_fn=_limit_memory)
        except subprocess.TimeoutExpired:
            return "hang", ""
        lines = [x for x in done.stderr.strip().splitlines() if "ready to begin" not in x]
        if "Traceback" in done.stderr or done.returncode == 0 or len(lines) != 1 or problem not in lines[0]:
            return "traceback", f"exit {done.returncode}: {done.stderr.strip()[-160:]}"
        return "clean error", lines[0]
    return check


def _case_served_race(workdir: Path) -> tuple[str, str]:
    """A thread swaps the served record for a link to a file outside the folder and back while 3,000 reads
    run: every read must be the record or a refusal (the old check-then-open leaked the outside file)."""
    from tengen.web.files import FileRefused, read_under

    served = workdir / "served"
    served.mkdir()
    inside, outside = b"(;GM[1]SZ[5]C[inside])", b"(;GM[1]SZ[5]C[outside])"
    (served / "game.sgf").write_bytes(inside)
    (workdir / "secret.sgf").write_bytes(outside)
    stop = threading.Event()

    def swap():
        while not stop.is_set():
            os.symlink(workdir / "secret.sgf", served / "link")
            os.replace(served / "link", served / "game.sgf")
            (served / "spare").write_bytes(inside)
            os.replace(served / "spare", served / "game.sgf")

    swapper = threading.Thread(target=swap)
    swapper.start()
    counts = Counter()
    try:
        for _ in range(3000):
            try:
                counts["read" if read_under(served, "game.sgf") == inside else "LEAKED"] += 1
            except FileRefused:
                counts["refused"] += 1
    finally:
        stop.set()
        swapper.join()
    detail = f"{counts['read']} read, {counts['refused']} refused, {counts['LEAKED']} leaked"
    return ("traceback" if counts["LEAKED"] else "success"), detail


def _case_bad_model(command: list[str], model: str) -> Callable[[Path], tuple[str, str]]:
    def check(workdir: Path) -> tuple[str, str]:
        path = model
        if model == "FIFO":
            path = str(workdir / "model.bin.gz")
            os.mkfifo(path)
        args = [*command, "--model", path]
        if command[0] == "gtp":
            return _expect_gtp(b"boardsize 9\ngenmove b\nquit\n",
                               lambda r: None if "not a regular file" in r[1][2] else r[1][2][:160], args=args[1:])(workdir)
        if command[0] == "analysis":
            result = run_tengen(args, stdin=(ANALYSIS_QUERY + "\n").encode())
            if result["outcome"] == "hang":
                return "hang", ""
            text = result["out"].decode("utf-8", "replace")
            if "Traceback" in result["err"] or "not a regular file" not in text:
                return "traceback", (result["err"] + text)[-160:]
            return "clean error", text.strip().splitlines()[0][:160]
        return _expect_cli_error(args, "not a regular file")(workdir)
    return check


def _batch_args(folder: Path, out: Path) -> list[str]:
    """A small `tengen batch` run over `folder` into `out` (the tiny network, the last turn, in-process)."""
    return ["batch", str(folder), "--out", str(out), "--model", "tiny", "--turns", "last", "--workers", "0",
            "--no-progress"]


def _batch_failed(args: list[str]) -> Optional[tuple[str, str]]:
    """Run a batch; (outcome, its last words) when it did not succeed, None when it did."""
    result = run_tengen(args, timeout=300)
    return None if result["outcome"] == "success" else (result["outcome"], result["err"].strip()[-160:])


def _case_batch_links(workdir: Path) -> tuple[str, str]:
    folder = workdir / "records"
    (folder / "sub").mkdir(parents=True)
    shutil.copy(REPO / EXAMPLE, folder / "a.sgf")
    shutil.copy(REPO / EXAMPLE, folder / "sub" / "b.sgf")
    os.symlink(".", folder / "loop1")
    os.symlink(".", folder / "loop2")
    os.symlink("..", folder / "sub" / "up")
    out = folder / "out"
    args = _batch_args(folder, out)
    for _ in range(2):  # the second run finds the first one's outputs inside its input folder
        failed = _batch_failed(args)
        if failed:
            return failed
    summary = json.loads((out / "summary.json").read_text())
    games = sorted(p.name for p in (out / "games").glob("*.sgf"))
    if summary["files"] != 2 or len(games) != 2:
        return "traceback", f"records taken {summary['files']} (2 expected), outputs {games}"
    return "success", f"2 records once each through link loops and a parent link; the rerun read {summary['files']}"


def _case_deep_journal(workdir: Path) -> tuple[str, str]:
    folder = workdir / "records"
    folder.mkdir()
    shutil.copy(REPO / EXAMPLE, folder / "a.sgf")
    out = workdir / "out"
    args = _batch_args(folder, out)
    failed = _batch_failed(args)
    if failed:
        return failed
    with open(out / "journal.jsonl", "ab") as fh:
        fh.write(b"[" * 100_000 + b"]" * 100_000 + b"\n" + b'{"unit": "x"}\n')
    return _expect_cli_error(args, "the journal is damaged")(workdir)


def _case_corrupt_model(workdir: Path) -> tuple[str, str]:
    from tengen.eval.katago.weights import DEFAULT_MODEL

    models = workdir / "corrupt-models"
    models.mkdir()
    (models / DEFAULT_MODEL).write_bytes(b"half a downl")
    return _expect_cli_error(["eval", "src/tengen/data/example.sgf"], "failed its checksum",
                             env=_offline_env(workdir, model_dir=models))(workdir)


# ================================================================ locales and memory per move
def locale_available(name: str) -> bool:
    """Whether the C library has the locale (`locale -a` spells en_US.UTF-8 as en_US.utf8)."""
    try:
        names = subprocess.run(["locale", "-a"], capture_output=True, text=True, timeout=30).stdout.split()
    except (OSError, subprocess.SubprocessError):
        return False
    wanted = name.lower().replace("-", "")
    return any(n.lower().replace("-", "") == wanted for n in names)


MEMORY_PROBE = """
import gc, sys
from tengen.go.board import Board
def rss():
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) * 1024 for l in f if l.startswith("VmRSS"))
board = Board(int(sys.argv[1])); gc.collect(); before = rss()
for _ in range(5000):
    board.play(board.to_play, None)
print((rss() - before) / 5000)
"""


def memory_per_move() -> dict[int, float]:
    """Bytes of memory per move (one undo snapshot each): RSS over 5,000 passes, a fresh child per size."""
    return {side: float(subprocess.run([sys.executable, "-c", MEMORY_PROBE, str(side)], capture_output=True, text=True,
                                       timeout=600, cwd=REPO).stdout) for side in (9, 19, 25)}


# ================================================================ main
def run_sgf_fuzz(count: int, corpus: list[bytes], real_every: int, env: dict,
                 deadline: float = float("inf")) -> tuple[Tally, Tally, int, int]:
    """`count` hypothesis-drawn SGF inputs through the three commands in turn (in-process workers), every
    `real_every`-th also through the real console script; no new input after `deadline` (time.monotonic).
    Returns the in-process tally, the real tally, the number of real runs whose outcome differed from the
    in-process one, and how many inputs were run."""
    tally, real = Tally(), Tally()
    outcomes: dict[str, dict[int, str]] = {"inproc": {}, "real": {}}

    def on_result(job, result):
        name = " ".join(job["argv"])
        kind = "real" if job.get("kind") == "real" else "inproc"
        (real if kind == "real" else tally).add(name, result["outcome"], result.get("detail", ""))
        if job["index"] % real_every == 0:
            outcomes[kind][job["index"]] = result["outcome"]

    pool = Pool(env, on_result)
    index = [0]

    @seed(27)
    @settings(max_examples=count, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(sgf_inputs(corpus))
    def feed(data: bytes) -> None:
        if index[0] >= count or time.monotonic() > deadline:
            return
        i = index[0]
        index[0] += 1
        argv = SGF_COMMANDS[i % len(SGF_COMMANDS)]
        pool.put({"kind": "sgf", "argv": argv, "data": data, "index": i})
        if i % real_every == 0:
            pool.put({"kind": "real", "of": "sgf", "argv": argv, "data": data, "index": i, "env": env})

    feed()
    pool.close()
    mismatched = sum(1 for i, outcome in outcomes["real"].items() if outcomes["inproc"].get(i) != outcome)
    return tally, real, mismatched, index[0]


def draw_gtp_sessions(count: int, paths: list[str], deadline: float = float("inf")) -> list[bytes]:
    """Up to `count` GTP sessions from the strategy (fewer when `deadline`, time.monotonic, passes)."""
    sessions: list[bytes] = []

    @seed(27)
    @settings(max_examples=count, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(gtp_sessions(paths))
    def collect(stream: bytes) -> None:
        if len(sessions) < count and time.monotonic() < deadline:
            sessions.append(stream)

    collect()
    return sessions


def run_gtp_fuzz(sessions: list[bytes], env: dict, real_first: int,
                 deadline: float = float("inf")) -> tuple[Tally, dict, str, int, int]:
    """The sessions through in-process workers under `env` (each command's outcome counted), the first
    `real_first` also through the real `tengen gtp`; no new session after `deadline`. Returns the tally, each
    session's stdout (by index: the sessions run), the worker's stdin encoding, and how many real runs were
    compared and how many of them differed."""
    tally = Tally()
    outputs: dict[int, bytes] = {}
    real_out: dict[int, bytes] = {}

    def on_result(job, result):
        i = job["index"]
        if job.get("kind") == "real":
            if result["outcome"] in FAILURES:
                tally.add("gtp (real process)", result["outcome"], result.get("detail", ""))
            else:
                classify_gtp(job["data"], result["out"], tally, "gtp (real process)")
            real_out[i] = result["out"]
            return
        if result["outcome"] in ("hang", "crash", "over 2 GB") or (result["outcome"] == "traceback" and "out" not in result):
            tally.add("gtp", result["outcome"], result.get("detail", ""))
            return
        if result["outcome"] == "traceback":
            tally.add("gtp", "traceback", result.get("detail", ""))
        classify_gtp(job["data"], result["out"], tally, "gtp")
        outputs[i] = result["out"]

    pool = Pool(env, on_result)
    for i, stream in enumerate(sessions):
        if time.monotonic() > deadline:
            break
        pool.put({"kind": "gtp", "data": stream, "index": i})
        if i < real_first:
            pool.put({"kind": "real", "of": "gtp", "data": stream, "index": i, "env": env, "argv": list(GTP_ARGS)})
    pool.close()
    probe = Worker(env)
    probe._start()
    encoding = "{}/{}".format(*probe.hello["encodings"]["stdin"])
    probe.stop()
    differed = sum(1 for i, out in real_out.items()
                   if comparable(sessions[i], outputs.get(i, b"")) != comparable(sessions[i], out))
    return tally, outputs, encoding, len(real_out), differed


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sgf", type=int, default=10_000, help="SGF inputs (default 10,000)")
    ap.add_argument("--gtp", type=int, default=2_000, help="GTP sequences per locale (default 2,000)")
    ap.add_argument("--real-sgf-every", type=int, default=100, help="every N-th SGF input also through the real CLI")
    ap.add_argument("--real-gtp", type=int, default=50, help="the first N GTP sequences also through the real tengen gtp")
    ap.add_argument("--budget", type=float, default=480.0,
                    help=f"seconds for the whole run (default 480; {QUEUED_SLACK} s of it are kept for the jobs still "
                         "queued when a phase's time is up): the named cases always run, then the SGF inputs get "
                         "half of what is left, the GTP sequences' drawing a tenth of the rest and each locale's "
                         "GTP sequences half of what remains; inputs not reached are reported, not run")
    ap.add_argument("--worker", nargs=2, type=int, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        worker_main(*args.worker)
        return 0
    started = time.monotonic()
    failures = 0
    workdir = Path(tempfile.mkdtemp(prefix="tengen-fuzz-"))
    try:
        corpus_paths = corpus_files()
        corpus = [p.read_bytes() for p in corpus_paths] + [p.read_bytes() for p in bundled_sgf_files()]
        print(f"tengen fuzz (issue 27): address space limit {MEMORY_LIMIT / 1e9:.0f} GB per child, hang = no "
              f"answer in {HANG_SECONDS} s")
        print(f"corpus: {len(corpus_paths)} files of the shared SGF corpora" if corpus_paths else
              "corpus: the shared SGF corpora are absent (../shared/data/sgf_corpora): mutating bundled files only")
        print(f"corpus + bundled: {len(corpus)} files to mutate")

        per_move = memory_per_move()
        from tengen.go.board import MAX_MOVES

        worst = max(per_move.values()) * MAX_MOVES
        print("memory per move (undo snapshot, RSS over 5,000 passes): "
              + ", ".join(f"{s}x{s} {b / 1024:.1f} KiB" for s, b in per_move.items())
              + f"; cap {MAX_MOVES} moves per board: at most {worst / 1e6:.0f} MB")

        print("\n[the nine reproducers: real console script, 2 GB limit]")
        for case in named_cases():
            t0 = time.monotonic()
            case_dir = workdir / re.sub(r"\W+", "-", case.name)
            case_dir.mkdir()
            try:
                outcome, detail = case.check(case_dir)
            except Exception as exc:  # noqa: BLE001  (a bench bug must show, not stop the run)
                outcome, detail = "traceback", f"bench: {type(exc).__name__}: {exc}"
            failures += outcome in FAILURES
            detail = " ".join(detail.replace(str(case_dir), "<tmp>").split())  # the same text on every run
            print(f"  {case.name}: {outcome} ({time.monotonic() - t0:.1f} s): {detail[:240]}")

        t0 = time.monotonic()
        budget_end = started + args.budget - QUEUED_SLACK  # what each phase has queued then still finishes
        left = max(0.0, budget_end - t0)
        env = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
        sgf, real, mismatched, ran = run_sgf_fuzz(args.sgf, corpus, args.real_sgf_every, env, t0 + left / 2)
        print()
        reached = f"{ran} of {args.sgf} SGF inputs" + (" (the budget ran out)" if ran < args.sgf else "")
        for line in sgf.lines(f"[{reached}, in-process workers ({time.monotonic() - t0:.0f} s)]"):
            print(line)
        for line in real.lines(f"[{sum(sum(c.values()) for c in real.counts.values())} of them through the real "
                               f"console script (outcome differing from in-process: {mismatched})]"):
            print(line)
        failures += sgf.failures() + real.failures() + mismatched

        t0 = time.monotonic()
        sessions = draw_gtp_sessions(args.gtp, gtp_paths(workdir, corpus_paths),
                                     t0 + max(0.0, budget_end - t0) / 10)
        commands = sum(len(expected_ids(s)) for s in sessions)
        print(f"\n[{len(sessions)} GTP sequences ({commands} commands owed a response), per locale "
              f"(drawn in {time.monotonic() - t0:.0f} s)]")
        outputs_by_locale = {}
        share = max(0.0, budget_end - time.monotonic()) / len(LOCALES)
        for name in LOCALES:
            t0 = time.monotonic()
            if locale_available(name):
                locale_env, label = {**env, "LANG": name, "LC_ALL": name}, name
            else:
                locale_env = {**env, "LANG": name, "LC_ALL": name, "PYTHONIOENCODING": "utf-8:strict"}
                label = f"{name} NOT INSTALLED (locale -a): ran with PYTHONIOENCODING=utf-8:strict instead"
            tally, outputs, encoding, compared, differed = run_gtp_fuzz(sessions, locale_env, args.real_gtp,
                                                                        t0 + share)
            outputs_by_locale[name] = outputs
            title = (f"{label}: {len(outputs)} of {len(sessions)} sequences run; stdin {encoding}; {compared} "
                     f"sequences also through the real tengen gtp, {differed} with other output "
                     f"({time.monotonic() - t0:.0f} s)")
            for line in tally.lines(title):
                print(line)
            failures += tally.failures() + differed
        first, second = (outputs_by_locale[n] for n in LOCALES)
        both = [i for i in first if i in second]  # the sequences both locales reached within the budget
        same = sum(1 for i in both if comparable(sessions[i], first[i]) == comparable(sessions[i], second[i]))
        print(f"identical responses under {' and '.join(LOCALES)}: {same} of the {len(both)} sequences both ran")
        failures += len(both) - same
        print(f"\nruntime {time.monotonic() - started:.0f} s (budget {args.budget:.0f} s); failures = tracebacks (and '? internal error') + "
              "hangs + over 2 GB + crashes + broken GTP framing, plus real runs or locales that disagree")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"failures: {failures}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
