"""SGF bytes made safe for sgfmill: read from a regular file only, bounded (size, nodes, variations, depth,
values) before sgfmill builds anything, repaired where the fix has one obvious meaning (UTF-16, a missing
'(' or root ';', undeclared encodings), and parsed, every failure an `SgfError` of one line naming the file.
`tengen.go.sgf` turns the parsed game into a `Game`."""
from __future__ import annotations

import os
import re
import stat
from typing import Optional

from sgfmill import sgf as sgfmill_sgf

from tengen.go.board import MAX_RECORD_MOVES

MAX_SGF_BYTES = 16 * 1024 * 1024
# What one game may hold, checked on the bytes before sgfmill builds anything (it keeps every token and node:
# 250,000 nodes with a value each take ~2 s and 135 MB on the 2-core VM; 10 million empty ones ran past 60 s).
MAX_NODES = 250_000  # nodes, and also variations ('(') of the first game
MAX_DEPTH = 2 * MAX_RECORD_MOVES  # variations nested in variations (some editors nest every move of the main line)
MAX_VALUES = 1_000_000  # property values, and also property names
FALLBACK_ENCODINGS = ("utf-8", "gb18030", "latin-1")


class SgfError(ValueError):
    """An SGF file that cannot be used: one line naming the file and the problem."""

    def __init__(self, source: str, problem: str):
        self.source, self.problem = source, " ".join(str(problem).split()) or "unknown problem"
        super().__init__(f"{source}: {self.problem}".replace("\n", "\\n").replace("\r", "\\r"))


def _utf16_to_utf8(data: bytes) -> Optional[bytes]:
    """UTF-16 text (with a BOM, or ASCII-looking with NULs in every other byte) as UTF-8; else None."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        encoding = "utf-16"
    elif len(data) >= 8 and data[1:64:2].count(0) >= len(data[1:64:2]) * 3 // 4:
        encoding = "utf-16-le"
    elif len(data) >= 8 and data[0:64:2].count(0) >= len(data[0:64:2]) * 3 // 4:
        encoding = "utf-16-be"
    else:
        return None
    try:
        return data.decode(encoding).encode("utf-8")
    except UnicodeError:
        return None


def _repair(data: bytes) -> tuple[bytes, Optional[str]]:
    """Fix what has one obvious meaning; returns the bytes and an encoding to force (None: as declared).

    UTF-16 files are re-encoded as UTF-8; a missing leading '(' is added (and a missing final ')');
    a root written without its ';' (Nihon Ki-in's '(\\nTE[..]...') gets one."""
    forced = None
    recoded = _utf16_to_utf8(data)
    if recoded is not None:
        data, forced = recoded, "UTF-8"
    stripped = data.lstrip(b"\xef\xbb\xbf \t\r\n")
    if stripped.startswith(b";"):
        stripped = b"(" + stripped
        if not stripped.rstrip().endswith(b")"):
            stripped = stripped.rstrip() + b")"
    elif re.match(rb"\(\s*[A-Z][A-Za-z]*\s*\[", stripped):
        stripped = b"(;" + stripped[1:]
    return stripped, forced


def _size_problem(message: str) -> Optional[str]:
    """A clearer text for sgfmill's board-size errors."""
    match = re.match(r"size out of range: (-?\d+)", message)
    if match:
        return f"board size {match.group(1)} is not supported (2..25)"
    match = re.match(r"bad SZ property: b'(\d+):(\d+)'", message)
    if match:
        return f"rectangular board {match.group(1)}x{match.group(2)} is not supported in SGF files"
    match = re.match(r"bad SZ property: b'(.*)'", message)
    if match:
        return f"bad board size SZ[{match.group(1)[:20]}]"
    return None


_GAME_START_RE = re.compile(rb"\(\s*;")  # where sgfmill starts reading
# sgfmill's tokens: a value (escaped ']' and '\\' inside), a delimiter, a property name
_TOKEN_RE = re.compile(rb"\[[^\\\]]*(?:\\.[^\\\]]*)*\]|[();]|[A-Za-z]{1,64}", re.DOTALL)
_LETTERS = bytes(ord("a") if chr(b).isascii() and chr(b).isalpha() else ord(" ") for b in range(256))


def check_game_bounds(data: bytes, source: str = "<sgf>") -> None:
    """SgfError when the first game (the one sgfmill reads) holds more than MAX_NODES nodes or variations,
    variations nested deeper than MAX_DEPTH, or more than MAX_VALUES property values or names, before
    sgfmill tokenises it. Counts of the raw bytes settle most files at C speed; otherwise the tokens are
    counted one by one (values whole, so that brackets, parentheses and ';' inside them count for nothing),
    stopping at the first bound passed or at the end of the first game."""
    start = _GAME_START_RE.search(data)
    if start is None:
        return  # no game: sgfmill says so
    letters = data.translate(_LETTERS)
    if (data.count(b";") <= MAX_NODES and data.count(b"(") <= MAX_DEPTH and data.count(b"[") <= MAX_VALUES
            and letters.count(b" a") + letters.startswith(b"a") <= MAX_VALUES):
        return
    nodes = variations = depth = values = names = 0
    for token in _TOKEN_RE.finditer(data, start.start()):
        first = data[token.start()]
        if first == 0x5B:  # [
            values += 1
            if values > MAX_VALUES:
                raise SgfError(source, f"too many property values (more than {MAX_VALUES})")
        elif first == 0x3B:  # ;
            nodes += 1
            if nodes > MAX_NODES:
                raise SgfError(source, f"too many nodes (more than {MAX_NODES})")
        elif first == 0x28:  # (
            depth += 1
            variations += 1
            if depth > MAX_DEPTH:
                raise SgfError(source, f"variations are nested too deep (more than {MAX_DEPTH} levels)")
            if variations > MAX_NODES:
                raise SgfError(source, f"too many variations (more than {MAX_NODES})")
        elif first == 0x29:  # )
            depth -= 1
            if depth == 0:
                return
        else:
            names += 1
            if names > MAX_VALUES:
                raise SgfError(source, f"too many property names (more than {MAX_VALUES})")


def parse_sgf_bytes(data: bytes, source: str = "<sgf>"):
    """sgfmill game from bytes with the repairs above; SgfError on failure."""
    if len(data) > MAX_SGF_BYTES:
        raise SgfError(source, f"file is too large ({len(data)} bytes; limit {MAX_SGF_BYTES})")
    data, forced = _repair(data)
    if not data:
        raise SgfError(source, "empty file")
    check_game_bounds(data, source)
    last_error: Exception | None = None
    for encoding in ((forced,) if forced else (None,) + FALLBACK_ENCODINGS):
        try:
            game = sgfmill_sgf.Sgf_game.from_bytes(data, override_encoding=encoding)
            b"x".decode(game.presenter.encoding)  # CA[base64_codec] is a codec but no text encoding: LookupError
            return game
        except ValueError as exc:
            last_error = exc
            message = str(exc)
            size_problem = _size_problem(message)
            if size_problem:
                raise SgfError(source, size_problem) from None
            if "encod" not in message and "decode" not in message and "charset" not in message:
                break
        except (LookupError, UnicodeError) as exc:
            last_error = exc
    raise SgfError(source, f"not a readable SGF game ({one_line(last_error)})")


def one_line(exc: object) -> str:
    """An exception's text on one line (its type's name when it has none)."""
    return " ".join(str(exc).split()) or type(exc).__name__


def read_regular_file(source: str) -> bytes:
    """The bytes of a regular file of at most MAX_SGF_BYTES; SgfError for anything else (a FIFO with no
    writer would block for ever, a device never ends), so the open does not wait and the type is checked."""
    try:
        fd = os.open(source, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        try:
            info = os.fstat(fd)
            if stat.S_ISDIR(info.st_mode):
                raise SgfError(source, "is a directory, not a file")
            if not stat.S_ISREG(info.st_mode):
                raise SgfError(source, "is not a regular file (a pipe or a device); give a file")
            if info.st_size > MAX_SGF_BYTES:
                raise SgfError(source, f"file is too large ({info.st_size} bytes; limit {MAX_SGF_BYTES})")
            with os.fdopen(fd, "rb") as f:
                fd = -1  # closed with f
                data = f.read(MAX_SGF_BYTES + 1)
        finally:
            if fd >= 0:
                os.close(fd)
    except OSError as exc:
        raise SgfError(source, exc.strerror or str(exc)) from None
    if len(data) > MAX_SGF_BYTES:  # grown since fstat
        raise SgfError(source, f"file is too large (more than {MAX_SGF_BYTES} bytes)")
    return data
