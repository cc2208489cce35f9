"""What a batch job is: which files (a directory, a glob, a list file), which turns (every N moves, ranges,
the last, all), what to compute (`eval`, `search`, `endgame`), the bounds, and the work units (file, turn,
kind) with ids that stay the same across restarts, so a resumed job can tell finished work from the rest."""
from __future__ import annotations

import glob
import hashlib
import os
from dataclasses import asdict, dataclass, field
from typing import Iterable, Optional

KINDS = ("eval", "search", "endgame")

# bounds: defaults and the ceilings a flag may not exceed (a per-query error beyond them)
MAX_FILE_BYTES = 1_000_000  # per file: larger records are reported and skipped
MAX_MOVES = 1_000  # per file: longer records are reported and skipped
MAX_TURNS = 1_000  # per file: more selected turns than this is reported and the file skipped
MAX_VISITS = 100_000  # per query: --visits above it is refused
MAX_FILES = 100_000  # per job: more input files than this is refused
CEILINGS = {"max_file_bytes": 16 * 1024 * 1024, "max_moves": 10_000, "max_turns": 10_000, "max_files": 10_000_000}


class BatchError(ValueError):
    """A job that cannot run as asked (a bad flag value, a bound exceeded): one line, exit status 2."""


class RecordSkipped(Exception):
    """One input record left out (unreadable, not Go, beyond a per-file bound): the job goes on."""


@dataclass(frozen=True)
class TurnSpec:
    """Which turns of a game (turn t = the position after t moves) a job analyzes: the union of its parts."""

    text: str
    every: tuple[int, ...] = ()
    ranges: tuple[tuple[int, Optional[int]], ...] = ()
    last: bool = False
    all: bool = False
    tail: int = 0  # last:N, the positions after each of the game's last N moves

    def turns(self, moves: int, from_move: int = 0) -> list[int]:
        """The selected turns of a game of `moves` moves, in order, none before `from_move`."""
        chosen: set[int] = set()
        if self.all:
            chosen.update(range(moves + 1))
        for n in self.every:
            chosen.update(range(n, moves + 1, n))
        for lo, hi in self.ranges:
            chosen.update(range(lo, min(moves, moves if hi is None else hi) + 1))
        if self.last:
            chosen.add(moves)
        chosen.update(range(max(0, moves - self.tail + 1), moves + 1) if self.tail else ())
        return sorted(t for t in chosen if t >= from_move)


def parse_turns(text: str) -> TurnSpec:
    """`every:N`, `last`, `last:N` (after each of the last N moves), `all`, `A-B`, `A-`, `N`, or several
    joined by commas (their union)."""
    every: list[int] = []
    tail = 0
    ranges: list[tuple[int, Optional[int]]] = []
    last = every_turn = False
    if not text.strip():
        raise BatchError("--turns: empty (use every:N, last, last:N, all, A-B or N, joined by commas)")
    for part in (p.strip() for p in text.split(",")):
        if part == "last":
            last = True
        elif part == "all":
            every_turn = True
        elif part.startswith("last:"):
            n = _turn_number(part[5:], part)
            if n < 1:
                raise BatchError(f"--turns {part}: last:N needs N >= 1")
            tail = max(tail, n)
        elif part.startswith("every:"):
            n = _turn_number(part[6:], part)
            if n < 1:
                raise BatchError(f"--turns {part}: every:N needs N >= 1")
            every.append(n)
        elif "-" in part:
            lo_text, hi_text = part.split("-", 1)
            lo = _turn_number(lo_text, part)
            hi = _turn_number(hi_text, part) if hi_text.strip() else None
            if hi is not None and hi < lo:
                raise BatchError(f"--turns {part}: the range ends before it starts")
            ranges.append((lo, hi))
        else:
            n = _turn_number(part, part)
            ranges.append((n, n))
    return TurnSpec(text, tuple(every), tuple(ranges), last, every_turn, tail)


def _turn_number(text: str, part: str) -> int:
    try:
        value = int(text.strip())
    except ValueError:
        raise BatchError(f"--turns {part}: not a turn selection (use every:N, last, last:N, all, A-B or N)") from None
    if value < 0:
        raise BatchError(f"--turns {part}: turns are counted from 0")
    return value


@dataclass(frozen=True)
class JobSettings:
    """What every unit of a job computes and the bounds it runs under; the journal stores it, and a restart
    with other settings is refused (its results would mix with the old ones)."""

    what: str = "eval"
    turns: str = "every:10"
    visits: int = 64
    from_move: int = 0
    model: Optional[str] = None  # None: the default network; "tiny": a tiny random network (tests, benches)
    maps: bool = True  # ownership and policy in the results (KaTrain shows them)
    max_file_bytes: int = MAX_FILE_BYTES
    max_moves: int = MAX_MOVES
    max_turns: int = MAX_TURNS
    max_files: int = MAX_FILES
    chunk: int = 8  # units of one file sent to a worker at once (one batched network call for eval)

    def __post_init__(self) -> None:
        if self.what not in KINDS:
            raise BatchError(f"--what {self.what}: choose one of {', '.join(KINDS)}")
        if not 1 <= self.visits <= MAX_VISITS:
            raise BatchError(f"--visits {self.visits}: must be 1..{MAX_VISITS}")
        if self.from_move < 0:
            raise BatchError(f"--from-move {self.from_move}: must be at least 0")
        for name, ceiling in CEILINGS.items():
            value = getattr(self, name)
            if not 1 <= value <= ceiling:
                raise BatchError(f"--{name.replace('_', '-')} {value}: must be 1..{ceiling}")
        if not 1 <= self.chunk <= 256:
            raise BatchError(f"--chunk {self.chunk}: must be 1..256")
        parse_turns(self.turns)

    @property
    def turn_spec(self) -> TurnSpec:
        return parse_turns(self.turns)

    def fingerprint(self) -> dict:
        """The settings that decide results (bounds and chunking do not), as the journal records them."""
        data = asdict(self)
        for name in ("max_file_bytes", "max_moves", "max_turns", "max_files", "chunk"):
            data.pop(name)
        return data


@dataclass(frozen=True)
class Unit:
    """One piece of work: a kind of analysis of one turn of one file."""

    file_id: str
    turn: int
    kind: str

    @property
    def id(self) -> str:
        return f"{self.file_id}:{self.turn}:{self.kind}"


@dataclass
class FileJob:
    """One input record and its units (empty until planned)."""

    path: str
    file_id: str
    name: str  # the output files' stem: the record's stem and its id, unique within the job
    units: list[Unit] = field(default_factory=list)


def file_id(path: str) -> str:
    """A record's stable id: a hash of its absolute path (restarts from another folder find the same id)."""
    return hashlib.sha1(os.path.abspath(path).encode("utf-8", "surrogateescape")).hexdigest()[:16]


def collect_files(inputs: Iterable[str], max_files: int = MAX_FILES, exclude: Optional[str] = None,
                  unreadable: Optional[list] = None) -> list[FileJob]:
    """The job's records, deduplicated in order: a directory (its `.sgf` files, recursively, sorted), a
    glob pattern, an `.sgf` file, or a list file (one path per line, relative to the list; `#` comments).
    Each real file is taken once (by device and inode, however many links lead to it), a directory is
    walked once (a link loop ends there), and the `exclude` folder (the job's own outputs) is never entered.
    Folders that cannot be read are appended to `unreadable` as (path, reason)."""
    paths: list[str] = []
    skip_dirs = set()
    if exclude is not None and os.path.isdir(exclude):
        info = os.stat(exclude)
        skip_dirs.add((info.st_dev, info.st_ino))
    for item in inputs:
        if os.path.isdir(item):
            paths.extend(_walk_records(item, skip_dirs, unreadable if unreadable is not None else []))
        elif any(ch in item for ch in "*?[") and not os.path.exists(item):
            found = sorted(glob.glob(item, recursive=True))
            if not found:
                raise BatchError(f"{item}: the pattern matches no file")
            paths.extend(p for p in found if os.path.isfile(p))
        elif item.lower().endswith(".sgf"):
            if not os.path.exists(item):
                raise BatchError(f"{item}: no such file")
            paths.append(item)
        elif os.path.isfile(item):
            paths.extend(_list_file(item))
        else:
            raise BatchError(f"{item}: no such file, directory or pattern")
        if len(paths) > max_files:
            raise BatchError(f"more than {max_files} input files (--max-files {max_files})")
    jobs: dict[str, FileJob] = {}
    real: set[tuple[int, int]] = set()
    for path in paths:
        try:
            info = os.stat(path)
            identity = (info.st_dev, info.st_ino)
        except OSError:
            identity = None  # planning the file says why it cannot be read
        if identity is not None and identity in real:
            continue
        if identity is not None:
            real.add(identity)
        fid = file_id(path)
        if fid not in jobs:
            stem = os.path.splitext(os.path.basename(path))[0][:60] or "game"
            jobs[fid] = FileJob(path, fid, f"{stem}-{fid[:8]}")
    return list(jobs.values())


def _walk_records(root: str, skip_dirs: set, unreadable: list) -> list[str]:
    """The `.sgf` files under `root`, sorted; each directory entered once by device and inode (links to
    directories are followed, a loop of them ends at the first repeat); `skip_dirs` never entered."""
    found: list[str] = []
    stack = [root]
    while stack:
        folder = stack.pop()
        try:
            info = os.stat(folder)
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            unreadable.append((folder, f"folder not readable ({exc.strerror or exc})"))
            continue
        key = (info.st_dev, info.st_ino)
        if key in skip_dirs:
            continue
        skip_dirs.add(key)
        subfolders = []
        for entry in entries:
            try:
                if entry.is_dir():
                    subfolders.append(entry.path)
                elif entry.name.lower().endswith(".sgf") and entry.is_file():
                    found.append(entry.path)
            except OSError:
                continue
        stack.extend(reversed(subfolders))
    return sorted(found)


def _list_file(path: str) -> list[str]:
    """The paths a list file names, relative to its folder."""
    try:
        with open(path, encoding="utf-8") as fh:
            lines = fh.read(4_000_000).splitlines()
    except UnicodeDecodeError:
        raise BatchError(f"{path}: not a list of files (not UTF-8 text); SGF records need the .sgf suffix") from None
    base = os.path.dirname(path)
    return [os.path.join(base, line.strip()) for line in lines if line.strip() and not line.lstrip().startswith("#")]


def plan_file(job: FileJob, settings: JobSettings) -> tuple[bytes, int]:
    """Read and check one record; fill in its units. Returns (its bytes, its move count); `RecordSkipped`
    with a one-line reason for an unreadable record or one beyond a per-file bound."""
    from tengen.go.sgf import load_game_bytes
    from tengen.go.sgf_bytes import SgfError, read_regular_file

    try:
        size = os.stat(job.path).st_size
        if size > settings.max_file_bytes:
            raise RecordSkipped(f"{job.path}: file is too large ({size} bytes; --max-file-bytes "
                                f"{settings.max_file_bytes})")
        data = read_regular_file(job.path)
        game = load_game_bytes(data, job.path)
    except SgfError as exc:
        raise RecordSkipped(" ".join(str(exc).split())) from None
    except OSError as exc:
        raise RecordSkipped(f"{job.path}: {exc.strerror or exc}") from None
    moves = len(game.moves)
    if moves > settings.max_moves:
        raise RecordSkipped(f"{job.path}: {moves} moves (--max-moves {settings.max_moves})")
    turns = settings.turn_spec.turns(moves, settings.from_move)
    if len(turns) > settings.max_turns:
        raise RecordSkipped(f"{job.path}: {len(turns)} turns selected (--max-turns {settings.max_turns})")
    job.units = [Unit(job.file_id, t, settings.what) for t in turns]
    return data, moves
