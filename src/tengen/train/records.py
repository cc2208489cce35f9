"""Positions with known winners, built from the shared game-record archives (tar.xz, streamed).

Pipeline: stream every ``*.tar.xz`` in the games folder member by member (nothing is unpacked to disk) ->
parse the SGF (sgfmill, raw properties) -> keep 19x19 games with a recorded winner, counting and logging
every skip -> replay with tengen's rules core -> snapshot the stones and prisoners after moves 30, 80, 130
and 180 -> one compressed checkpoint file per chunk of archive members (written atomically, so a killed
build resumes where it stopped) -> ``assemble`` drops duplicate move sequences across all collections and
writes one ``{train,val,test}.npz`` per split.

The split is a pure function of the move sequence (``blake2b`` of setup stones + moves), so a duplicate
always lands in the same split as its original and the test games never move between builds.

Run ``python -m tengen.train.records build`` (``--help`` for options); the cache lives in
``$TENGEN_CACHE/datasets`` (default ``~/.cache/tengen/datasets``) or ``--cache-dir``.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import logging
import math
import os
import re
import tarfile
import time
from collections import Counter
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator

import numpy as np

from tengen.go.sgf import normalise_komi as sgf_normalise_komi

log = logging.getLogger("tengen.train.records")

PHASES: tuple[int, ...] = (30, 80, 130, 180)
SPLITS: tuple[str, ...] = ("train", "val", "test")
# Split by hash of the moves: bucket = key % 100; [0, 15) test, [15, 25) val, the rest train.
TEST_PERCENT, VAL_PERCENT = 15, 10
BOARD_SIZE = 19
DATASET = "winner-v2"
CHUNK_SIZE = 2000
COLLECTIONS: dict[str, int] = {"pro_aeb": 0, "tom": 1, "kgs": 2, "yenw_ai": 3, "fox_pro": 4, "other": 5}
# Archive stem prefix -> collection name (MANIFEST.md names the archives).
_ARCHIVE_COLLECTION = {"pro_aeb": "pro_aeb", "tom_9d": "tom", "kgs_6d": "kgs", "yenw_ai": "yenw_ai",
                       "fox_pro": "fox_pro"}


def default_data_dir() -> Path:
    """The shared games folder (``../shared/data/games`` from the repository root)."""
    env = os.environ.get("TENGEN_GAMES")
    if env:
        return Path(env)
    here = Path(__file__).resolve()
    for parent in here.parents:
        candidate = parent.parent / "shared" / "data" / "games"
        if candidate.is_dir():
            return candidate
    return Path("/work/shared/data/games")


def default_cache_dir() -> Path:
    """``$TENGEN_CACHE/datasets``, default ``~/.cache/tengen/datasets``."""
    root = os.environ.get("TENGEN_CACHE")
    base = Path(root).expanduser() if root else Path("~/.cache/tengen").expanduser()
    return base / "datasets"


def dataset_dir(cache_dir: Path | str | None = None) -> Path:
    """Folder of this dataset version inside the cache."""
    return (Path(cache_dir).expanduser() if cache_dir else default_cache_dir()) / DATASET


# ------------------------------------------------------------------------------------------ parsing


class SkipGame(Exception):
    """A game left out of the dataset; ``reason`` is the counter key written to the log."""

    def __init__(self, reason: str, detail: str = ""):
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail


@dataclass
class GameRecord:
    """What the dataset needs from one SGF: size, winner, komi, handicap, setup stones and moves."""

    path: str
    collection: str
    winner: int  # BLACK = 1, WHITE = -1
    result_kind: str  # score / resign / time / winner_only
    komi: float  # NaN when absent
    handicap: int
    setup_black: list[tuple[int, int]] = field(default_factory=list)
    setup_white: list[tuple[int, int]] = field(default_factory=list)
    moves: list[tuple[int, tuple[int, int] | None]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # counted quirks that did not skip the game


_RESULT = re.compile(r"^([BW])\s*\+\s*(.*)$")


def parse_result(text: str | None) -> tuple[int, str]:
    """RE value -> (winner, kind); raises SkipGame for no result, draws, Void, B+0.0 and odd strings."""
    if text is None or not text.strip():
        raise SkipGame("no_result")
    value = text.strip()
    upper = value.upper()
    if upper.startswith("VOID"):
        raise SkipGame("void", value)
    if upper in ("0", "DRAW", "JIGO", "B+0", "W+0") or upper.startswith(("JIGO", "DRAW")):
        raise SkipGame("draw", value)
    m = _RESULT.match(upper)
    if not m:
        raise SkipGame("odd_result", value)
    winner = 1 if m.group(1) == "B" else -1
    tail = m.group(2).strip()
    if tail == "":
        return winner, "winner_only"
    if tail in ("R", "RESIGN"):
        return winner, "resign"
    if tail in ("T", "TIME"):
        return winner, "time"
    if tail in ("F", "FORFEIT"):
        raise SkipGame("forfeit", value)
    try:
        margin = float(tail)
    except ValueError:
        raise SkipGame("odd_result", value) from None
    if margin == 0 or not math.isfinite(margin):
        raise SkipGame("zero_margin", value)
    return winner, "score"


def normalise_komi(text: str | None, notes: list[str] | None = None) -> float:
    """KM value -> komi in points by the SGF reader's rule (`tengen.go.sgf.normalise_komi`: Fox's x100
    ``750`` -> 7.5, Chinese stone komi 3.75 -> 7.5); NaN when missing or unreadable (noted)."""
    if text is None or not text.strip():
        if notes is not None:
            notes.append("komi_missing")
        return float("nan")
    try:
        komi = float(text.strip())
    except ValueError:
        if notes is not None:
            notes.append("komi_unreadable")
        return float("nan")
    return sgf_normalise_komi(komi, text.strip(), notes)


def _sgf_point(raw: bytes, size: int) -> tuple[int, int] | None:
    """Raw SGF point bytes -> (row, col) via tengen.go.coords, or None for a pass."""
    from tengen.go import coords

    try:
        return coords.from_sgf(raw.decode("ascii").strip(), size, size)
    except (UnicodeDecodeError, ValueError) as exc:
        raise SkipGame("bad_point", repr(raw)) from exc


def _sgf_point_list(values: Iterable[bytes], size: int) -> list[tuple[int, int]]:
    """AB/AW values, including compressed rectangles ``aa:cc``."""
    points: list[tuple[int, int]] = []
    for raw in values:
        if b":" in raw:
            a, b = raw.split(b":", 1)
            pa, pb = _sgf_point(a, size), _sgf_point(b, size)
            if pa is None or pb is None:
                raise SkipGame("bad_point", repr(raw))
            for r in range(min(pa[0], pb[0]), max(pa[0], pb[0]) + 1):
                for c in range(min(pa[1], pb[1]), max(pa[1], pb[1]) + 1):
                    points.append((r, c))
        else:
            p = _sgf_point(raw, size)
            if p is None:
                raise SkipGame("bad_point", "pass in a setup list")
            points.append(p)
    return points


def collection_of(archive: str) -> str:
    """Collection name for an archive file name (see MANIFEST.md)."""
    for prefix, name in _ARCHIVE_COLLECTION.items():
        if Path(archive).name.startswith(prefix):
            return name
    return "other"


def parse_game(data: bytes, path: str = "", collection: str = "other") -> GameRecord:
    """Parse one SGF file's bytes into a GameRecord; raises SkipGame (with a reason) when it is unusable."""
    from sgfmill import sgf

    notes: list[str] = []
    stripped = data.lstrip()
    if stripped.startswith(b";"):
        data = b"(" + stripped
        notes.append("fixed_missing_paren")
    try:
        game = sgf.Sgf_game.from_bytes(data, override_encoding="ISO-8859-1")
    except ValueError as exc:
        raise SkipGame("parse_error", str(exc)[:80]) from None
    size = game.get_size()
    if size != BOARD_SIZE:
        raise SkipGame("not_19x19", str(size))
    root = game.get_root()

    def raw(prop: str) -> str | None:
        return root.get_raw(prop).decode("latin-1") if root.has_property(prop) else None

    winner, kind = parse_result(raw("RE"))
    komi = normalise_komi(raw("KM"), notes)
    try:
        handicap = int(raw("HA") or 0)
    except ValueError:
        handicap = 0
        notes.append("handicap_unreadable")
    black = _sgf_point_list(root.get_raw_list("AB"), size) if root.has_property("AB") else []
    white = _sgf_point_list(root.get_raw_list("AW"), size) if root.has_property("AW") else []
    moves: list[tuple[int, tuple[int, int] | None]] = []
    for i, node in enumerate(game.get_main_sequence()):
        has_setup = i > 0 and any(node.has_property(p) for p in ("AB", "AW", "AE"))
        if has_setup:
            if moves or node.has_property("AE"):
                raise SkipGame("setup_in_game")
            # handicap stones in the node after the root (YuanYu files): still the initial position
            black += _sgf_point_list(node.get_raw_list("AB"), size) if node.has_property("AB") else []
            white += _sgf_point_list(node.get_raw_list("AW"), size) if node.has_property("AW") else []
            notes.append("setup_after_root")
        colour, value = node.get_raw_move()
        if colour is None:
            continue
        moves.append((1 if colour == "b" else -1, _sgf_point(value, size)))
    if not moves:
        raise SkipGame("no_moves")
    return GameRecord(path, collection, winner, kind, komi, handicap, black, white, moves, notes)


def move_key(record: GameRecord) -> int:
    """64-bit hash of setup stones and the move sequence: the dedup key and the split key."""
    parts = ["B" + ",".join(f"{r}.{c}" for r, c in sorted(record.setup_black)),
             "W" + ",".join(f"{r}.{c}" for r, c in sorted(record.setup_white))]
    parts += [("b" if col == 1 else "w") + ("-" if p is None else f"{p[0]}.{p[1]}") for col, p in record.moves]
    digest = hashlib.blake2b(";".join(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def split_of(key: int) -> int:
    """0 = train, 1 = val, 2 = test, from the move hash (15 % test, 10 % validation)."""
    bucket = key % 100
    if bucket < TEST_PERCENT:
        return 2
    if bucket < TEST_PERCENT + VAL_PERCENT:
        return 1
    return 0


# ------------------------------------------------------------------------------------------ replay


def extract_positions(record: GameRecord, phases: tuple[int, ...] = PHASES
                      ) -> list[tuple[int, np.ndarray, int, int, int]]:
    """Replay with tengen's rules core; (move number, stones, captured by Black, by White, to play) per phase.

    A phase is recorded when the game has at least that many moves (passes count as moves). Raises
    SkipGame('illegal_move_<reason>') when the record breaks the rules (simple ko, no suicide).
    """
    from tengen.go import BLACK, WHITE, Board, IllegalMove, Rules

    board = Board(BOARD_SIZE, rules=Rules("records", 0.0, "area", "simple", False))
    if record.setup_black or record.setup_white:
        board.setup(black=record.setup_black, white=record.setup_white)
    wanted = set(p for p in phases if p <= len(record.moves))
    out: list[tuple[int, np.ndarray, int, int, int]] = []
    last = max(wanted, default=0)
    for n, (colour, point) in enumerate(record.moves[:last], start=1):
        try:
            board.play(colour, point)
        except IllegalMove as exc:
            raise SkipGame(f"illegal_move_{exc.reason.replace(' ', '_')}", f"move {n}") from None
        if n in wanted:
            caps = board.captures
            out.append((n, board.array(), caps[BLACK], caps[WHITE], -colour))
    return out


# ------------------------------------------------------------------------------------------ chunks


def iter_archive(path: Path | str) -> Iterator[tuple[str, bytes]]:
    """Yield (member name, bytes) for every SGF file in a tar.xz, streaming (no extraction to disk)."""
    with tarfile.open(path, mode="r|xz") as tar:
        for member in tar:
            if not member.isfile() or not member.name.lower().endswith(".sgf"):
                continue
            handle = tar.extractfile(member)
            if handle is not None:
                yield member.name, handle.read()


def chunked(items: Iterator[tuple[str, bytes]], size: int) -> Iterator[list[tuple[str, bytes]]]:
    """Consecutive lists of ``size`` items (the last may be shorter)."""
    batch: list[tuple[str, bytes]] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def atomic_savez(path: Path, **arrays: np.ndarray) -> None:
    """np.savez_compressed to a temporary file in the same folder, then rename (crash-safe)."""
    from tengen.files import write_atomic

    path.parent.mkdir(parents=True, exist_ok=True)
    data = io.BytesIO()
    np.savez_compressed(data, **arrays)
    write_atomic(path, data.getvalue())


def process_chunk(archive: str, items: list[tuple[str, bytes]], out_path: str,
                  phases: tuple[int, ...] = PHASES) -> dict:
    """Parse, filter and replay one chunk of games; write its checkpoint file; return counters."""
    collection = collection_of(archive)
    counts: Counter[str] = Counter()
    skipped: list[str] = []
    g_key, g_len, g_winner, g_komi, g_hand, g_kind, g_path = [], [], [], [], [], [], []
    boards, caps, phase, pos_game, to_play = [], [], [], [], []
    for name, data in items:
        counts["files"] += 1
        try:
            record = parse_game(data, name, collection)
            positions = extract_positions(record, phases)
        except SkipGame as skip:
            counts[f"skip_{skip.reason}"] += 1
            skipped.append(f"{name}\t{skip.reason}\t{skip.detail}")
            continue
        except Exception as exc:  # a quirk nobody listed: count it, never crash a long build
            counts["skip_unexpected"] += 1
            skipped.append(f"{name}\tunexpected\t{type(exc).__name__}: {exc}"[:300])
            continue
        for note in record.notes:
            counts[note] += 1
        counts["kept"] += 1
        counts[f"result_{record.result_kind}"] += 1
        gi = len(g_key)
        g_key.append(move_key(record))
        g_len.append(len(record.moves))
        g_winner.append(record.winner)
        g_komi.append(record.komi)
        g_hand.append(max(record.handicap, 0))
        g_kind.append(record.result_kind)
        g_path.append(name)
        for n, stones, cap_b, cap_w, next_colour in positions:
            boards.append(stones)
            to_play.append(next_colour)
            caps.append((cap_b, cap_w))
            phase.append(n)
            pos_game.append(gi)
        counts["positions"] += len(positions)
    atomic_savez(
        Path(out_path),
        game_key=np.array(g_key, dtype=np.uint64),
        game_length=np.array(g_len, dtype=np.int16),
        game_winner=np.array(g_winner, dtype=np.int8),
        game_komi=np.array(g_komi, dtype=np.float32),
        game_handicap=np.array(g_hand, dtype=np.int8),
        game_kind=np.array(g_kind, dtype="U12"),
        game_path=np.array(g_path, dtype="U200"),
        game_collection=np.full(len(g_key), COLLECTIONS[collection], dtype=np.int8),
        boards=np.array(boards, dtype=np.int8).reshape(-1, BOARD_SIZE, BOARD_SIZE),
        captures=np.array(caps, dtype=np.int16).reshape(-1, 2),
        phase=np.array(phase, dtype=np.int16),
        to_play=np.array(to_play, dtype=np.int8),
        game=np.array(pos_game, dtype=np.int32),
        skipped=np.array(skipped, dtype=str),
        counts=np.array(json.dumps(dict(counts))),
    )
    return dict(counts)


def chunk_path(root: Path, archive: Path | str, index: int) -> Path:
    """Checkpoint file of chunk ``index`` of ``archive``."""
    stem = Path(archive).name.split(".")[0]
    return root / "chunks" / f"{stem}.{index:04d}.npz"


def _expected_files(data_dir: Path) -> dict[str, int]:
    """Files per archive from manifest.jsonl.gz (only sizes the progress bar; never trusted for data)."""
    import gzip

    manifest = data_dir / "manifest.jsonl.gz"
    counts: Counter[str] = Counter()
    if manifest.exists():
        with gzip.open(manifest, "rt") as fh:
            for line in fh:
                counts[json.loads(line)["archive"]] += 1
    return dict(counts)


def build(data_dir: Path | str | None = None, cache_dir: Path | str | None = None, workers: int = 2,
          chunk_size: int = CHUNK_SIZE, limit: int | None = None, archives: list[str] | None = None,
          progress: bool = True) -> Path:
    """Stream every archive into chunk checkpoints (skipping chunks already written), then assemble.

    ``limit`` keeps only the first ``limit`` members of each archive (for smoke tests);
    ``archives`` restricts the build to archive names containing one of the given strings.
    """
    from tqdm import tqdm

    data_dir = Path(data_dir) if data_dir else default_data_dir()
    root = dataset_dir(cache_dir)
    root.mkdir(parents=True, exist_ok=True)
    params = {"dataset": DATASET, "chunk_size": chunk_size, "limit": limit, "phases": list(PHASES)}
    params_path = root / "build.json"
    if params_path.exists():
        old = json.loads(params_path.read_text())
        if old != params:
            raise SystemExit(f"{root} was built with {old}, not {params}: pass another --cache-dir or delete it")
    else:
        params_path.write_text(json.dumps(params, indent=1))
    paths = sorted(data_dir.glob("*.tar.xz"))
    if archives:
        paths = [p for p in paths if any(a in p.name for a in archives)]
    if not paths:
        raise SystemExit(f"no *.tar.xz archives in {data_dir}")
    expected = _expected_files(data_dir)
    total = sum(min(expected.get(p.name, 0), limit or 10**9) for p in paths) or None
    totals: Counter[str] = Counter()
    t0 = time.time()
    bar = tqdm(total=total, unit="game", desc="records", disable=not progress, smoothing=0.05)
    pending: dict[Future, tuple[str, int, int]] = {}

    def collect(done: Iterable[Future]) -> None:
        for fut in done:
            archive, index, n = pending.pop(fut)
            counts = fut.result()
            totals.update(counts)
            bar.update(n)
            log.info("chunk %s #%d: %s", archive, index, json.dumps(counts, sort_keys=True))

    with ProcessPoolExecutor(max_workers=max(1, workers)) as pool:
        for archive in paths:
            members: Iterator[tuple[str, bytes]] = iter_archive(archive)
            if limit is not None:
                members = (m for i, m in enumerate(members) if i < limit)
            for index, items in enumerate(chunked(members, chunk_size)):
                out = chunk_path(root, archive, index)
                if out.exists():
                    bar.update(len(items))
                    continue
                fut = pool.submit(process_chunk, archive.name, items, str(out))
                pending[fut] = (archive.name, index, len(items))
                while len(pending) >= 2 * max(1, workers):
                    done, _ = wait(list(pending), return_when=FIRST_COMPLETED)
                    collect(done)
        while pending:
            done, _ = wait(list(pending), return_when=FIRST_COMPLETED)
            collect(done)
    bar.close()
    if totals:
        log.info("this run processed %s in %.0f s", json.dumps(dict(totals), sort_keys=True), time.time() - t0)
    return assemble(root)


def assemble(root: Path | str) -> Path:
    """Merge all chunk checkpoints, drop duplicate move sequences (first one wins), write one npz per split."""
    root = Path(root)
    files = sorted((root / "chunks").glob("*.npz"))
    if not files:
        raise SystemExit(f"no chunk files under {root / 'chunks'}: run build first")
    counts: Counter[str] = Counter()
    seen: set[int] = set()
    games: dict[str, list[np.ndarray]] = {}
    positions: dict[str, list[np.ndarray]] = {}
    game_offset = 0
    game_fields = ("game_key", "game_length", "game_winner", "game_komi", "game_handicap", "game_kind",
                   "game_collection", "game_path")
    pos_fields = ("boards", "captures", "phase", "to_play", "game")
    for f in files:
        with np.load(f) as z:
            counts.update(json.loads(str(z["counts"])))
            keys = z["game_key"]
            keep = np.zeros(len(keys), dtype=bool)
            for i, k in enumerate(keys.tolist()):
                if k not in seen:
                    seen.add(k)
                    keep[i] = True
            counts["duplicate"] += int((~keep).sum())
            new_index = np.cumsum(keep) - 1 + game_offset
            for name in game_fields:
                games.setdefault(name, []).append(z[name][keep])
            pkeep = keep[z["game"]]
            for name in pos_fields:
                arr = z[name][pkeep]
                if name == "game":
                    arr = new_index[arr].astype(np.int32)
                positions.setdefault(name, []).append(arr)
            game_offset += int(keep.sum())
    g = {k: np.concatenate(v) for k, v in games.items()}
    p = {k: np.concatenate(v) for k, v in positions.items()}
    g_split = np.array([split_of(int(k)) for k in g["game_key"].tolist()], dtype=np.int8)
    summary: dict = {"counts": dict(sorted(counts.items())), "splits": {}}
    for s, name in enumerate(SPLITS):
        gmask = g_split == s
        remap = np.full(len(gmask), -1, dtype=np.int64)
        remap[gmask] = np.arange(int(gmask.sum()))
        pmask = gmask[p["game"]]
        arrays = {k: v[gmask] for k, v in g.items()}
        arrays.update({k: v[pmask] for k, v in p.items()})
        arrays["game"] = remap[arrays["game"]].astype(np.int32)
        atomic_savez(root / f"{name}.npz", **arrays)
        summary["splits"][name] = {
            "games": int(gmask.sum()),
            "positions": {int(ph): int((arrays["phase"] == ph).sum()) for ph in PHASES},
            "black_wins": float((arrays["game_winner"] == 1).mean()) if gmask.any() else None,
        }
    (root / "summary.json").write_text(json.dumps(summary, indent=1))
    for k, v in sorted(counts.items()):
        if k.startswith("skip_") or k.startswith(("komi", "fixed", "duplicate")):
            log.info("count %-28s %d", k, v)
    log.info("splits %s", json.dumps(summary["splits"]))
    return root


# ------------------------------------------------------------------------------------------ loading


@dataclass
class PositionSet:
    """One split in memory, one row per position: stones (N, 19, 19) int8, captures (N, 2) [by Black, by
    White], phase = move number (N,), winner (N,) +-1, to_play (N,) +-1, game (N,) index into ``games``."""

    boards: np.ndarray
    captures: np.ndarray
    phase: np.ndarray
    winner: np.ndarray
    to_play: np.ndarray
    game: np.ndarray
    games: dict[str, np.ndarray]

    def __len__(self) -> int:
        return len(self.phase)

    def select(self, mask: np.ndarray) -> "PositionSet":
        """The positions where ``mask`` is true (games table shared)."""
        return PositionSet(self.boards[mask], self.captures[mask], self.phase[mask], self.winner[mask],
                           self.to_play[mask], self.game[mask], self.games)


def load_split(split: str, cache_dir: Path | str | None = None) -> PositionSet:
    """Load ``train``, ``val`` or ``test`` from the cache (built by ``python -m tengen.train.records build``)."""
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}")
    path = dataset_dir(cache_dir) / f"{split}.npz"
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: run `python -m tengen.train.records build` first")
    with np.load(path) as z:
        games = {k: z[k] for k in z.files if k.startswith("game_")}
        game = z["game"]
        return PositionSet(z["boards"], z["captures"], z["phase"], games["game_winner"][game], z["to_play"],
                           game, games)


# ------------------------------------------------------------------------------------------ CLI


def main(argv: list[str] | None = None) -> int:
    """``python -m tengen.train.records build|assemble|summary``."""
    ap = argparse.ArgumentParser(prog="python -m tengen.train.records", description=__doc__.split("\n")[0])
    ap.add_argument("command", choices=("build", "assemble", "summary"))
    ap.add_argument("--data-dir", type=Path, default=None, help="folder with the *.tar.xz archives")
    ap.add_argument("--cache-dir", type=Path, default=None,
                    help=f"datasets root; this dataset lives in <root>/{DATASET} (default {default_cache_dir()})")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--chunk-size", type=int, default=CHUNK_SIZE)
    ap.add_argument("--limit", type=int, default=None, help="only the first N files of each archive")
    ap.add_argument("--archives", nargs="*", default=None, help="only archives whose name contains one of these")
    ap.add_argument("--log", type=Path, default=None, help="also append the log to this file")
    ap.add_argument("--no-progress", action="store_true")
    args = ap.parse_args(argv)
    handlers: list[logging.Handler] = [logging.StreamHandler()]
    if args.log:
        handlers.append(logging.FileHandler(args.log))
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s", handlers=handlers)
    root = dataset_dir(args.cache_dir)
    if args.command == "build":
        build(args.data_dir, args.cache_dir, args.workers, args.chunk_size, args.limit, args.archives,
              progress=not args.no_progress)
    elif args.command == "assemble":
        assemble(root)
    print((root / "summary.json").read_text() if (root / "summary.json").exists() else f"nothing built in {root}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
