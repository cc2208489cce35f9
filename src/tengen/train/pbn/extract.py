"""PBN samples from the KGS 6d+ records (`kgs_6d_godmoves_*.tar.xz` in the shared games folder): each move of a
replayed game gives, for every region instance (corner, side, combined) holding the move, the region's stones
before it (canonical orientation, mover as "black") and the move's canonical index; a sample is kept only when
the move lies in the region and the region holds at most 20 stones (Cortigo's 0..20). Passes give nothing.

The archive already holds only games with a 7d+ player or two 6d+ players (u-go.net's selection, Cortigo's
filter), so no rank filter is applied; handicap games are kept (their setup stones are on the board). The split
is by game, the records' split (`records.store.split_of` of the move hash: 15 % test, 10 % validation, unused
here, 75 % training); samples are capped per (kind, stone-count bucket, split) and games are read in archive order
(every `every`-th game) until every cap is full. Test samples also keep the whole board and the side to move
(for KataGo's policy as an anchor). Saved as `<cache>/pbn-v1/<kind>-<split>.npz`.
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Optional

import numpy as np

from tengen.eval.pbn.model import PBNConfig
from tengen.eval.pbn.regions import BOARD, KINDS, region_kind, region_stones, stone_count_of
from tengen.go import IllegalMove
from tengen.train.archives import games_dir, iter_archive
from tengen.train.records.game import SkipGame, move_key, parse_game
from tengen.train.records.replay import record_board
from tengen.files import atomic_savez
from tengen.files import datasets_cache_dir as default_cache_dir
from tengen.train.splits import split_of

log = logging.getLogger(__name__)
DATASET = "pbn-v1"
SPLIT_NAMES = {0: "train", 2: "test"}
KGS_ARCHIVE_GLOB = "kgs_6d_*.tar.xz"


@dataclass
class GameMoves:
    """One replayed game: the board before each non-pass move (M, 19, 19), the mover (M,) and the move (M, 2)."""

    boards: np.ndarray
    to_play: np.ndarray
    points: np.ndarray


def dataset_dir(cache_dir: Path | str | None = None) -> Path:
    """The folder of the extracted samples."""
    return (Path(cache_dir).expanduser() if cache_dir else default_cache_dir()) / DATASET


def replay_moves(moves: list[tuple[int, Optional[tuple[int, int]]]], setup_black=(), setup_white=()) -> GameMoves:
    """Replay a move list; the position before each non-pass move (stopping at the first illegal move)."""
    board = record_board(0.0, setup_black, setup_white)
    boards, colors, points = [], [], []
    for color, point in moves:
        if point is not None:
            boards.append(board.array())
            colors.append(color)
            points.append(point)
        try:
            board.play(color, point)
        except IllegalMove:
            if point is not None:
                boards.pop(), colors.pop(), points.pop()
            break
    if not boards:
        return GameMoves(np.zeros((0, BOARD, BOARD), np.int8), np.zeros(0, np.int8), np.zeros((0, 2), np.int64))
    return GameMoves(np.stack(boards).astype(np.int8), np.asarray(colors, np.int8), np.asarray(points, np.int64))


def region_samples(game: GameMoves, kind: str, max_stones: int = 20) -> dict[str, np.ndarray]:
    """The samples of one region kind in a game: points (S, P) level-1 values, move (S,) canonical index, count
    (S,) stones, instance (S,), position (S,) index into the game's moves."""
    rk = region_kind(kind)
    stones = region_stones(game.boards, game.to_play, kind)  # (M, I, P)
    flat = game.points[:, 0] * BOARD + game.points[:, 1]
    hit = rk.board_index[None, :, :] == flat[:, None, None]  # (M, I, P)
    inside = hit.any(axis=2)
    count = stone_count_of(stones)
    pos, inst = np.nonzero(inside & (count <= max_stones))
    return {"points": stones[pos, inst].astype(np.int8), "move": hit[pos, inst].argmax(axis=1).astype(np.int16),
            "count": count[pos, inst].astype(np.int8), "instance": inst.astype(np.int8),
            "position": pos.astype(np.int64)}


def kgs_archives(data_dir: Optional[Path] = None) -> list[Path]:
    """The KGS 6d+ archives in the shared games folder."""
    folder = data_dir or games_dir()
    return sorted(folder.glob(KGS_ARCHIVE_GLOB))


def iter_games(archives: list[Path], every: int = 1, limit: Optional[int] = None
               ) -> Iterator[tuple[int, int, GameMoves]]:
    """(game ordinal, split, replayed moves) for the parseable games of the archives."""
    ordinal = 0
    for archive in archives:
        for name, data in iter_archive(archive, every=every, limit=limit):
            try:
                record = parse_game(data, name, "kgs")
            except SkipGame:
                continue
            yield ordinal, split_of(move_key(record)), replay_moves(record.moves, record.setup_black,
                                                                     record.setup_white)
            ordinal += 1


def extract(out_dir: Path, train_cap: int = 40_000, test_cap: int = 2_000, every: int = 1,
            limit: Optional[int] = None, data_dir: Optional[Path] = None, config: PBNConfig = PBNConfig(),
            kinds: tuple[str, ...] = KINDS) -> dict[str, dict[str, int]]:
    """Read games until every (kind, bucket, split) cap is full (or the games run out); write the npz files and
    return the sample counts per kind and split."""
    caps = {0: train_cap, 2: test_cap}
    nb = len(config.bucket_starts)
    filled = {(k, s): np.zeros(nb, np.int64) for k in kinds for s in caps}
    parts: dict[tuple[str, int], list[dict[str, np.ndarray]]] = {(k, s): [] for k in kinds for s in caps}
    t0 = time.time()
    games = 0
    for ordinal, split, game in iter_games(kgs_archives(data_dir), every, limit):
        games += 1
        if split not in caps or len(game.to_play) == 0:
            continue
        for kind in kinds:
            sample = region_samples(game, kind, config.max_stones)
            bucket = config.bucket_of(sample["count"])
            room = caps[split] - filled[kind, split]
            keep = np.zeros(len(bucket), bool)
            for b in np.unique(bucket):
                rows = np.nonzero(bucket == b)[0][:max(0, room[b])]
                keep[rows] = True
                filled[kind, split][b] += len(rows)
            if not keep.any():
                continue
            part = {name: a[keep] for name, a in sample.items()}
            part["game"] = np.full(int(keep.sum()), ordinal, np.int32)
            if split == 2:
                pos = part["position"]
                part["board"] = game.boards[pos]
                part["to_play"] = game.to_play[pos]
            del part["position"]
            parts[kind, split].append(part)
        if games % 1000 == 0:
            log.info("%d games, %.0f s, %s", games, time.time() - t0,
                     {f"{k}-{SPLIT_NAMES[s]}": int(v.sum()) for (k, s), v in filled.items()})
        if all((v >= caps[s]).all() for (k, s), v in filled.items()):
            break
    counts: dict[str, dict[str, int]] = {}
    for (kind, split), chunks in parts.items():
        merged = {name: np.concatenate([c[name] for c in chunks]) for name in chunks[0]} if chunks else {}
        atomic_savez(out_dir / f"{kind}-{SPLIT_NAMES[split]}.npz", games_read=np.asarray(games), **merged)
        counts.setdefault(kind, {})[SPLIT_NAMES[split]] = int(len(merged.get("move", ())))
    log.info("done: %d games in %.0f s", games, time.time() - t0)
    return counts


def load_samples(kind: str, split: str, cache_dir: Path | str | None = None) -> dict[str, np.ndarray]:
    """One kind's extracted samples of one split ('train' or 'test') as arrays, one row per sample (the file's
    scalar `games_read` left out)."""
    path = dataset_dir(cache_dir) / f"{kind}-{split}.npz"
    if not path.exists():
        raise FileNotFoundError(f"{path} missing: run `python -m tengen.train.pbn build` first")
    with np.load(path) as z:
        return {name: z[name] for name in z.files if name != "games_read"}
