"""Small file helpers every layer may use: output files checked before the work starts and written
atomically when it ends.

Atomic writes go to a temporary file in the target's folder and are renamed over it, so a crash never
leaves half a file. A symbolic link is written through (its target is replaced), and anything that is not
a regular file (a device, a pipe) is refused: renaming over it would replace the node itself.
"""
from __future__ import annotations

import io
import os
import stat
import tempfile
from pathlib import Path
from typing import Iterable


class OutputError(ValueError):
    """An output path tengen will not write (one line, names the flag)."""


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def check_output_file(flag: str, path: str, inputs: Iterable[str] = (), folder_made_later: bool = False) -> None:
    """Refuse a file path that cannot (or must not) be written, before any work is done (`folder_made_later`:
    its folder may not exist yet; `check_output_dir` checked that it can be made)."""
    if not path:
        raise OutputError(f"{flag}: an empty file name")
    real = os.path.realpath(path)
    if os.path.isdir(real):
        raise OutputError(f"{flag} {path}: is a directory, not a file")
    if os.path.exists(real) and not stat.S_ISREG(os.stat(real).st_mode):
        raise OutputError(f"{flag} {path}: is not a regular file (a device or pipe); outputs are written as files")
    for source in inputs:
        if os.path.exists(real) and _same_file(real, source):
            raise OutputError(f"{flag} {path}: is the input record; it would be overwritten")
    folder = os.path.dirname(real)
    if folder_made_later and not os.path.exists(folder):
        return
    if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
        raise OutputError(f"{flag} {path}: cannot write into {folder} (missing or not writable)")


def check_output_dir(flag: str, path: str) -> None:
    """Refuse a folder path that exists as something else or cannot be created."""
    if not path:
        raise OutputError(f"{flag}: an empty folder name")
    real = os.path.realpath(path)
    if os.path.exists(real):
        if not os.path.isdir(real):
            raise OutputError(f"{flag} {path}: exists and is not a directory")
        if not os.access(real, os.W_OK):
            raise OutputError(f"{flag} {path}: the directory is not writable")
        return
    parent = os.path.dirname(real)
    while not os.path.exists(parent):
        parent = os.path.dirname(parent)
    if not os.path.isdir(parent) or not os.access(parent, os.W_OK):
        raise OutputError(f"{flag} {path}: cannot create it under {parent} (not a writable directory)")


def check_distinct(outputs: dict[str, str]) -> None:
    """Refuse two flags naming the same output file (the second would silently replace the first)."""
    seen: dict[str, str] = {}
    for flag, path in outputs.items():
        if not path:
            continue
        real = os.path.realpath(path)
        if real in seen:
            raise OutputError(f"{seen[real]} and {flag} name the same file {path}")
        seen[real] = flag


def write_png_atomic(fig, path: str | os.PathLike, dpi: int = 100) -> None:
    """A matplotlib figure as PNG at exactly `path` (whatever its suffix), written atomically."""
    png = io.BytesIO()
    fig.savefig(png, format="png", dpi=dpi)
    write_atomic(path, png.getvalue())


def write_atomic(path: str | os.PathLike, data: bytes) -> None:
    """Write bytes to `path` via a temporary file in its folder and a rename (a symlink is written through)."""
    real = os.path.realpath(os.fspath(path))
    if os.path.exists(real) and not stat.S_ISREG(os.stat(real).st_mode):
        raise OutputError(f"{os.fspath(path)}: is not a regular file (a device or pipe); outputs are written as files")
    fd, tmp = tempfile.mkstemp(prefix=os.path.basename(real) + ".", suffix=".tmp", dir=os.path.dirname(real))
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, real)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def append_line(path: str | os.PathLike, line: str) -> None:
    """Append one line (a newline added) to `path` and fsync it, so a finished record is never lost; a torn
    last line left by a crash is ended first, so readers that skip unparseable lines lose only that one."""
    with open(path, "a+b") as f:
        f.seek(0, os.SEEK_END)
        if f.tell():
            f.seek(-1, os.SEEK_END)
            if f.read(1) != b"\n":
                f.write(b"\n")
        f.write(line.rstrip("\n").encode() + b"\n")
        f.flush()
        os.fsync(f.fileno())


class NotRegularFile(ValueError):
    """An input that must be a regular file is a FIFO, device or directory, or is longer than its bound."""


def read_opened_file(fd: int, max_bytes: int, label: str, what: str) -> bytes:
    """The bytes behind the open descriptor `fd` (closed here), checked as opened before a byte is read: a
    regular file of at most `max_bytes`, so a device such as /dev/zero cannot be read without end.
    NotRegularFile in one line naming `label` and `what` otherwise."""
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(f.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFile(f"{label}: not a regular file (a {what} must be one)")
        if info.st_size > max_bytes:
            raise NotRegularFile(f"{label}: {info.st_size} bytes, more than a {what} may have ({max_bytes})")
        chunks, total = [], 0
        while total <= max_bytes:  # in pieces: one read of the whole bound would reserve it all at once
            chunk = f.read(min(1 << 20, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    if total > max_bytes:  # grown since fstat
        raise NotRegularFile(f"{label}: more than a {what} may have ({max_bytes} bytes)")
    return b"".join(chunks)


def read_regular_file(path: str | os.PathLike, max_bytes: int, what: str) -> bytes:
    """The bytes of the regular file `path` (a link to one is followed), at most `max_bytes`, opened without
    blocking (a FIFO is refused, never waited on): `read_opened_file`. A missing or unreadable file is the
    usual OSError."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    return read_opened_file(fd, max_bytes, str(path), what)


class SharedDataMissing(FileNotFoundError):
    """The shared data (game archives, regression suites) is not where tengen looks for it."""


def datasets_cache_dir() -> Path:
    """Where built datasets live: ``$TENGEN_CACHE/datasets``, default ``~/.cache/tengen/datasets``."""
    root = os.environ.get("TENGEN_CACHE")
    return (Path(root).expanduser() if root else Path("~/.cache/tengen").expanduser()) / "datasets"


def shared_data_path(*parts: str, must_exist: bool = True) -> Path:
    """A path under the shared data folder: `$TENGEN_SHARED_DATA` when set, else `shared/data` beside the
    checkout (the project's layout: `../shared/data` from the repository root). Raises `SharedDataMissing`
    with a one-line message naming the path and the variable when `must_exist` and it is absent."""
    root = os.environ.get("TENGEN_SHARED_DATA")
    base = Path(root) if root else Path(__file__).resolve().parents[2].parent / "shared" / "data"
    path = base.joinpath(*parts)
    if must_exist and not path.exists():
        raise SharedDataMissing(f"shared data not found: {path} (set TENGEN_SHARED_DATA to the folder that "
                                "holds games/, regression/, ...)")
    return path


def atomic_savez(path: Path, **arrays) -> None:
    """np.savez_compressed written atomically (a killed build never leaves half a shard or checkpoint)."""
    import numpy as np

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = io.BytesIO()
    np.savez_compressed(data, **arrays)
    write_atomic(path, data.getvalue())
