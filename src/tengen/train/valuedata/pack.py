"""The games pack: every game of the shared list of games played to a counted result, parsed once into flat
numpy arrays (moves, setup stones, komi, handicap, result margin, split key). It is small (~20 MB) where the
archives are 62 MB, so it is what travels to a GPU machine, and every value-network dataset is built from it.

Moves and setup stones are int16 codes: +(index + 1) for Black, -(index + 1) for White, index = row * 19 +
column, PASS_INDEX for a pass. `n` (Black's area minus White's) = the result's margin for Black + komi.
"""
from __future__ import annotations

import math
import multiprocessing
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Optional

import numpy as np

from tengen.go.colors import BLACK
from tengen.train.archives import collection_of, iter_archive
from tengen.train.localdata.games import FINISHED_LIST
from tengen.train.records.game import GameRecord, SkipGame, move_key, parse_game
from tengen.files import atomic_savez
from tengen.files import datasets_cache_dir as default_cache_dir
from tengen.train.archives import COLLECTIONS

PACK = "games-finished-v1.npz"
PASS_INDEX = 361


def pack_path(cache_dir: Path | str | None = None) -> Path:
    """Where the pack lives (``$TENGEN_CACHE/datasets/games-finished-v1.npz``)."""
    return (Path(cache_dir).expanduser() if cache_dir else default_cache_dir()) / PACK


def result_margin(text: str) -> float:
    """Black's margin from a scored RE value ('B+3.5' -> 3.5, 'W+0.5' -> -0.5); ValueError otherwise."""
    text = text.strip().upper()
    if len(text) < 3 or text[0] not in "BW" or text[1] != "+":
        raise ValueError(f"not a scored result: {text!r}")
    margin = float(text[2:])
    if not math.isfinite(margin) or margin <= 0:
        raise ValueError(f"not a scored result: {text!r}")
    return margin if text[0] == "B" else -margin


def listed_results(games_dir: Path) -> dict[tuple[str, str], str]:
    """(archive, path) -> RE of every game on the finished list."""
    out = {}
    with open(games_dir / FINISHED_LIST, encoding="utf-8") as fh:
        next(fh, None)
        for line in fh:
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 3:
                out[(parts[0], parts[1])] = parts[2]
    return out


def encode_move(color: int, point: Optional[tuple[int, int]]) -> int:
    index = PASS_INDEX if point is None else point[0] * 19 + point[1]
    return (index + 1) * (1 if color == BLACK else -1)


def decode_move(code: int) -> tuple[int, Optional[tuple[int, int]]]:
    """(color, point or None) of a move code."""
    color = BLACK if code > 0 else -BLACK
    index = abs(int(code)) - 1
    return color, (None if index == PASS_INDEX else divmod(index, 19))


@dataclass
class PackedGame:
    """One game of the pack, decoded."""

    key: int
    path: str
    komi: float
    handicap: int
    margin: float  # Black's margin as recorded (komi included)
    setup_black: list[tuple[int, int]]
    setup_white: list[tuple[int, int]]
    moves: list[tuple[int, Optional[tuple[int, int]]]]

    @property
    def n(self) -> float:
        """Black's area (or territory) minus White's, komi removed: Black wins at komi k iff n > k."""
        return self.margin + self.komi


class GamesPack:
    """The pack's arrays, with random access to games."""

    def __init__(self, arrays: dict[str, np.ndarray]):
        self.arrays = arrays

    @classmethod
    def load(cls, path: Path) -> "GamesPack":
        with np.load(path, allow_pickle=False) as z:
            return cls({k: z[k] for k in z.files})

    def __len__(self) -> int:
        return len(self.arrays["key"])

    def game(self, i: int) -> PackedGame:
        a = self.arrays
        mo, so = a["move_offsets"], a["setup_offsets"]
        setup = [decode_move(c) for c in a["setup"][so[i]:so[i + 1]]]
        return PackedGame(int(a["key"][i]), str(a["paths"][i]), float(a["komi"][i]), int(a["handicap"][i]),
                          float(a["margin"][i]), [p for c, p in setup if c == BLACK], [p for c, p in setup if c != BLACK],
                          [decode_move(c) for c in a["moves"][mo[i]:mo[i + 1]]])


def _parse(item: tuple[str, str, bytes, str]) -> tuple[str, Optional[GameRecord], float]:
    archive, name, data, result = item
    try:
        record = parse_game(data, name, collection_of(archive))
        margin = result_margin(result)
    except (SkipGame, ValueError) as exc:
        return getattr(exc, "reason", "odd_result"), None, 0.0
    if not math.isfinite(record.komi):
        return "no_komi", None, 0.0
    return "", record, margin


def _items(games_dir: Path, limit: Optional[int]) -> Iterator[tuple[str, str, bytes, str]]:
    results = listed_results(games_dir)
    wanted: dict[str, set[str]] = {}
    for archive, path in results:
        wanted.setdefault(archive, set()).add(path)
    left = limit
    for archive in sorted(wanted):
        if not (games_dir / archive).exists():
            print(f"warning: {archive} is not in {games_dir}; its games are left out", file=sys.stderr)
            continue
        names = wanted[archive]
        for name, data in iter_archive(games_dir / archive, wanted=names):
            yield archive, name, data, results[(archive, name)]
            if left is not None:
                left -= 1
                if left <= 0:
                    return


def build_pack(games_dir: Path, out: Path, workers: int = 2, limit: Optional[int] = None,
               progress: Optional[Callable[[int], None]] = None) -> dict[str, int]:
    """Parse the listed games into the pack at `out` (written atomically); returns counts by outcome."""
    keys, paths, komi, hand, margin, coll = [], [], [], [], [], []
    moves: list[np.ndarray] = []
    setups: list[np.ndarray] = []
    counts: dict[str, int] = {}
    ctx = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max(1, workers), mp_context=ctx) as pool:
        for skipped, record, m in pool.map(_parse, _items(games_dir, limit), chunksize=64):
            if progress:
                progress(1)
            if record is None:
                counts[skipped] = counts.get(skipped, 0) + 1
                continue
            counts["packed"] = counts.get("packed", 0) + 1
            keys.append(move_key(record))
            paths.append(record.path)
            komi.append(record.komi)
            hand.append(max(0, record.handicap))
            margin.append(m)
            coll.append(COLLECTIONS.get(record.collection, COLLECTIONS["other"]))
            moves.append(np.asarray([encode_move(c, p) for c, p in record.moves], dtype=np.int16))
            setups.append(np.asarray([encode_move(BLACK, p) for p in record.setup_black]
                                     + [encode_move(-BLACK, p) for p in record.setup_white], dtype=np.int16))
    offsets = lambda parts: np.concatenate([[0], np.cumsum([len(p) for p in parts])]).astype(np.int64)  # noqa: E731
    atomic_savez(out, key=np.asarray(keys, dtype=np.uint64), paths=np.asarray(paths), komi=np.asarray(komi, np.float32),
                 handicap=np.asarray(hand, np.int8), margin=np.asarray(margin, np.float32),
                 collection=np.asarray(coll, np.int8),
                 moves=np.concatenate(moves) if moves else np.zeros(0, np.int16), move_offsets=offsets(moves),
                 setup=np.concatenate(setups) if setups else np.zeros(0, np.int16), setup_offsets=offsets(setups))
    return counts
