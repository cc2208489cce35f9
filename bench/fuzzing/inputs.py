"""The fuzzer's inputs: hypothesis strategies for SGF files (random bytes, SGF-like text, generated games with
odd properties, mutated corpus files, node bombs up to the file limit) and GTP command streams, and how a GTP
stream's answers are owed and compared."""
from __future__ import annotations

import encodings.aliases
import os
import random
import re
from pathlib import Path
from typing import Optional

from hypothesis import strategies as st

from tengen.go.sgf_bytes import MAX_SGF_BYTES  # the SGF file limit the bombs fill up to
from tengen.io.gtp import MAX_LINE_BYTES  # the GTP engine's limit on one command line


REPO = Path(__file__).resolve().parents[2]  # bench/fuzzing/ -> the repository
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
