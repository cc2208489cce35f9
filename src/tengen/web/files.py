"""Where records come from: an upload, a paste, or a path under the served folder only (opened name by
name from the folder's descriptor, never following links; refused outside it); sizes bounded before parsing. Loaded records are kept in a small bounded store."""
from __future__ import annotations

import os
import stat
import threading
import uuid
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from tengen.files import NotRegularFile, read_opened_file
from tengen.go.sgf import Game, load_game_bytes

MAX_RECORD_BYTES = 1024 * 1024  # an SGF record; a long pro game with comments is well under 100 kB
MAX_RECORDS = 64  # records kept in memory (the oldest is dropped)
PAGE_SIZE = 100  # files a listing returns at once (the page asks for the next ones)
MAX_SCANNED = 100_000  # .sgf files a listing reads the folder for: beyond it the listing says it stopped


class FileRefused(ValueError):
    """A path or upload the server will not read (outside the folder, too large, not a regular file)."""


def _components(relative: str) -> list[str]:
    """The path's names, refused when absolute, home-relative, climbing ('..') or with a NUL byte."""
    if "\x00" in relative or os.path.isabs(relative) or relative.startswith(("\\", "~")):
        raise FileRefused("the path must be relative to the served folder")
    names = [name for name in relative.split("/") if name not in ("", ".")]
    if ".." in names:
        raise FileRefused(f"{relative}: outside the served folder")
    if not names:
        raise FileRefused(f"{relative}: not a regular file")
    return names


_NO_FOLLOW = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def read_under(folder: Optional[Path], relative: str) -> bytes:
    """The bytes of the regular file `relative` names under `folder`. The file is opened once, one name at a
    time from the folder's own descriptor, never following a symbolic link (a link anywhere on the path is
    refused), and what was opened is checked (a regular file, within the size bound) before it is read: a
    file swapped for a link between a check and the read cannot lead outside the folder."""
    if folder is None:
        raise FileRefused("no folder is served (start with --folder DIR to open files by path)")
    names = _components(relative)
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        raise FileRefused("the served folder cannot be opened") from None
    try:
        for name in names[:-1]:
            try:
                inner = os.open(name, _NO_FOLLOW | getattr(os, "O_DIRECTORY", 0), dir_fd=fd)
            except OSError:
                raise FileRefused(f"{relative}: no such file in the served folder (links are not followed)") from None
            os.close(fd)
            fd = inner
        try:  # non-blocking: a FIFO must not hang the open; it is refused just below
            leaf = os.open(names[-1], _NO_FOLLOW | os.O_NONBLOCK, dir_fd=fd)
        except OSError:
            raise FileRefused(f"{relative}: no such file in the served folder (links are not followed)") from None
    finally:
        os.close(fd)
    try:
        data = read_opened_file(leaf, MAX_RECORD_BYTES, relative, "record")
    except NotRegularFile as exc:
        raise FileRefused(str(exc)) from None
    check_size(data)
    return data


def check_size(data: bytes) -> None:
    """Refuse an empty record or one over MAX_RECORD_BYTES."""
    if not data:
        raise FileRefused("the record is empty")
    if len(data) > MAX_RECORD_BYTES:
        raise FileRefused(f"the record is larger than {MAX_RECORD_BYTES} bytes")


@dataclass(frozen=True)
class Listing:
    """One page of a folder's records: `files` (relative paths, sorted), how many match the search in all
    (`total`), and whether the scan stopped at `MAX_SCANNED` files before the folder's end (`complete`)."""

    files: list[str]
    total: int
    complete: bool


def list_records(folder: Optional[Path], search: str = "", offset: int = 0, limit: int = PAGE_SIZE) -> Listing:
    """The .sgf files under the folder whose path contains `search` (case-insensitive), `limit` of them
    from `offset` (links not followed; at most MAX_SCANNED files are read, and the listing says so)."""
    if folder is None:
        return Listing([], 0, True)
    root = folder.resolve()
    needle = search.lower()
    matched: list[str] = []
    scanned = 0
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            path = Path(dirpath) / name
            if name.lower().endswith(".sgf") and _regular_file(path):
                scanned += 1
                if scanned > MAX_SCANNED:
                    return Listing(matched[offset:offset + limit], len(matched), False)
                relative = path.relative_to(root).as_posix()
                if needle in relative.lower():
                    matched.append(relative)
    return Listing(matched[offset:offset + limit], len(matched), True)


def _regular_file(path: Path) -> bool:
    """A regular file, not a link, FIFO or device (`read_under` refuses the others)."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


class RecordStore:
    """Loaded records by id: the newest MAX_RECORDS, thread-safe."""

    def __init__(self, limit: int = MAX_RECORDS):
        self.limit = limit
        self._records: OrderedDict[str, Game] = OrderedDict()
        self._lock = threading.Lock()

    def add_bytes(self, data: bytes, source: str) -> tuple[str, Game]:
        """Parse `data` (SgfError in one line on any problem) and keep it; returns its new id."""
        check_size(data)
        game = load_game_bytes(data, source)
        game.board_at(None, strict=False)  # fills game.forced, and fails here rather than at the first step
        record_id = uuid.uuid4().hex[:16]
        with self._lock:
            self._records[record_id] = game
            while len(self._records) > self.limit:
                self._records.popitem(last=False)
        return record_id, game

    def get(self, record_id: str) -> Optional[Game]:
        with self._lock:
            return self._records.get(record_id)
