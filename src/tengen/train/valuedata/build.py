"""`python -m tengen.train.valuedata build`: positions sampled from the games pack, shard by shard.

Each game gives `positions_per_game` positions drawn across the whole game (a fixed draw per game, so a rebuild
gives the same positions), stored in the compact board form of `tengen.eval.localnet.compact` with the game's
labels (final score difference n, komi, handicap). With a KataGo network (`label=True`) every position also
gets KataGo's ownership, lead and win rate at the game's komi (distillation targets) and every game its final
position's ownership (dead stones removed: the ownership head's target). Worker processes replay and encode;
the network labels one shard while the workers prepare the next. Shards are written atomically and skipped
when present, so a build resumes; `time_budget` stops cleanly between shards.
"""
from __future__ import annotations

import json
import multiprocessing
import sys
import time
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Callable, Optional

import numpy as np

from tengen.eval.localnet.compact import board_codes, ko_index
from tengen.go import Board, IllegalMove
from tengen.train.labeller import labelling_evaluator
from tengen.train.localdata.games import next_to_play
from tengen.train.records.replay import record_board
from tengen.files import atomic_savez
from tengen.files import datasets_cache_dir as default_cache_dir
from tengen.train.valuedata.pack import GamesPack, PackedGame, pack_path

DATASET = "value-v1"


def dataset_dir(cache_dir: Path | str | None = None) -> Path:
    """Folder of this dataset version (``$TENGEN_CACHE/datasets/value-v1``)."""
    return (Path(cache_dir).expanduser() if cache_dir else default_cache_dir()) / DATASET


@dataclass
class ValueBuildConfig:
    positions_per_game: int = 16
    shard_games: int = 2000
    workers: int = 2
    device: str = "auto"
    batch: int = 256
    model: Optional[str] = None
    label: bool = True  # KataGo labels (distillation targets and final ownership)
    time_budget: Optional[float] = None  # seconds: no shard starts after them
    limit: Optional[int] = None  # games of the pack (from `start`)
    start: int = 0  # the pack's first game to use (a later run can label games an earlier one did not reach)
    pack: Optional[Path] = None


def sample_moves(n_moves: int, count: int, key: int) -> np.ndarray:
    """Distinct move numbers in [0, n_moves) (the position after that many moves), a fixed draw per game."""
    rng = np.random.default_rng(key % (2 ** 32))
    count = min(count, n_moves)
    return np.sort(rng.choice(n_moves, size=count, replace=False)).astype(np.int16)


def game_board(game: PackedGame) -> Board:
    """The game's empty board (area rules, its komi) with its setup stones."""
    return record_board(game.komi, game.setup_black, game.setup_white)


def replay_positions(game: PackedGame, moves: np.ndarray, encode_for: Optional[bool] = None) -> dict:
    """Replay `game`, keeping the positions after each of `moves` moves (compact form, side to move) and, when
    `encode_for` is not None (the KataGo model's pass-alive flag), their KataGo inputs and the final position's
    (spatial as uint8). Raises IllegalMove for a broken record."""
    from tengen.eval.katago.features import encode

    board = game_board(game)
    wanted = set(int(m) for m in moves)
    codes, ko, to_play, spatial, glob = [], [], [], [], []

    def keep(m: int) -> None:
        board.to_play = next_to_play(game, m)
        if m in wanted:
            codes.append(board_codes(board))
            ko.append(ko_index(board, board.to_play))
            to_play.append(board.to_play)
        if encode_for is not None and (m in wanted or m == len(game.moves)):
            enc = encode(board, suicide_for_pass_alive=encode_for)
            spatial.append(enc.spatial.astype(np.uint8))
            glob.append(enc.global_)

    keep(0)
    for m, (color, point) in enumerate(game.moves, start=1):
        board.play(color, point)
        if m in wanted or m == len(game.moves):
            keep(m)
    out = {"codes": np.asarray(codes, np.uint8).reshape(-1, 361), "ko": np.asarray(ko, np.int16),
           "to_play": np.asarray(to_play, np.int8), "move": np.asarray(sorted(wanted), np.int16)}
    if encode_for is not None:
        out["spatial"] = np.stack(spatial)
        out["global"] = np.stack(glob)
        out["kata_to_play"] = np.asarray(list(to_play) + [next_to_play(game, len(game.moves))], np.int8)
    return out


def _prepare(item: tuple[int, PackedGame], per_game: int, encode_for: Optional[bool]) -> tuple[int, Optional[dict], str]:
    index, game = item
    if len(game.moves) < 2:
        return index, None, "too_short"
    try:
        return index, replay_positions(game, sample_moves(len(game.moves), per_game, game.key), encode_for), ""
    except IllegalMove as exc:
        return index, None, f"illegal_move_{exc.reason.replace(' ', '_')}"


def shard_paths(root: Path) -> list[Path]:
    return sorted(root.glob("shard-[0-9][0-9][0-9][0-9].npz"))


def build(cfg: ValueBuildConfig, cache_dir: Path | str | None = None,
          progress: Optional[Callable[[int], None]] = None, log=lambda msg: print(msg, file=sys.stderr)) -> Path:
    """Build (or resume) the dataset; returns its folder."""
    root = dataset_dir(cache_dir)
    root.mkdir(parents=True, exist_ok=True)
    pack = GamesPack.load(cfg.pack or pack_path(cache_dir))
    first = min(max(0, cfg.start), len(pack))
    total = len(pack) if cfg.limit is None else min(first + cfg.limit, len(pack))
    (root / "config.json").write_text(json.dumps({"dataset": DATASET, "positions_per_game": cfg.positions_per_game,
                                                  "labelled": cfg.label}, indent=1))
    starts = list(range(first, total, cfg.shard_games))
    base = first // cfg.shard_games  # shard names number the pack's shards, so runs from different starts never clash
    todo = [(base + i, s) for i, s in enumerate(starts) if not (root / f"shard-{base + i:04d}.npz").exists()]
    if progress:
        progress(total - first - sum(min(cfg.shard_games, total - s) for _, s in todo))
    executor: Optional[Executor] = None
    if cfg.workers > 1 and todo:
        executor = ProcessPoolExecutor(cfg.workers, mp_context=multiprocessing.get_context("fork"))
        list(executor.map(time.sleep, [0.2] * cfg.workers))  # every worker forks now, before CUDA initialises
    labeller = _labeller(cfg) if cfg.label and todo else None
    encode_for = labeller.desc.prefer_pass_alive_under_suicide if labeller is not None else None
    job = partial(_prepare, per_game=cfg.positions_per_game, encode_for=encode_for)

    def submit(start: int) -> list:
        items = [(g, pack.game(g)) for g in range(start, min(total, start + cfg.shard_games))]
        if executor is None:
            return [job(it) for it in items]
        return [executor.submit(job, it) for it in items]

    started = time.monotonic()
    try:
        pending = submit(todo[0][1]) if todo else []
        for k, (index, start) in enumerate(todo):
            results = [f.result() if isinstance(f, Future) else f for f in pending]
            pending = submit(todo[k + 1][1]) if k + 1 < len(todo) else []  # workers run ahead by one shard
            _write_shard(root / f"shard-{index:04d}.npz", pack, results, labeller)
            if progress:
                progress(len(results))
            if cfg.time_budget is not None and time.monotonic() - started > cfg.time_budget and pending:
                log(f"time budget of {cfg.time_budget:.0f} s spent: stopping after shard {index}")
                for f in pending:
                    if isinstance(f, Future):
                        f.cancel()
                break
    finally:
        if executor is not None:
            executor.shutdown(cancel_futures=True)
    return root


def _labeller(cfg: ValueBuildConfig):
    return labelling_evaluator(cfg.model, cfg.device, cfg.batch)


def _write_shard(path: Path, pack: GamesPack, results: list, labeller) -> None:
    a = pack.arrays
    games = [(i, r) for i, r, why in results if r is not None]
    skipped: dict[str, int] = {}
    for _, r, why in results:
        if r is None:
            skipped[why] = skipped.get(why, 0) + 1
    idx = np.asarray([i for i, _ in games], dtype=np.int64)
    data = {
        "game_key": a["key"][idx], "game_n": (a["margin"][idx] + a["komi"][idx]).astype(np.float32),
        "game_komi": a["komi"][idx], "game_handicap": a["handicap"][idx], "game_collection": a["collection"][idx],
        "game_length": np.diff(a["move_offsets"])[idx].astype(np.int16),
        "codes": np.concatenate([r["codes"] for _, r in games]) if games else np.zeros((0, 361), np.uint8),
        "ko": np.concatenate([r["ko"] for _, r in games]) if games else np.zeros(0, np.int16),
        "to_play": np.concatenate([r["to_play"] for _, r in games]) if games else np.zeros(0, np.int8),
        "move": np.concatenate([r["move"] for _, r in games]) if games else np.zeros(0, np.int16),
        "game": np.concatenate([np.full(len(r["move"]), g, np.int32) for g, (_, r) in enumerate(games)])
        if games else np.zeros(0, np.int32),
        "skipped": np.asarray(json.dumps(skipped)),
    }
    if labeller is not None and games:
        spatial = np.concatenate([r["spatial"] for _, r in games])
        glob = np.concatenate([r["global"] for _, r in games])
        tp = np.concatenate([r["kata_to_play"] for _, r in games])
        labels = labeller.label_inputs(spatial, glob, tp)
        final_rows = np.cumsum([len(r["kata_to_play"]) for _, r in games]) - 1
        is_final = np.zeros(len(tp), bool)
        is_final[final_rows] = True
        own = np.rint(labels["ownership"].reshape(-1, 361) * 100).astype(np.int8)
        data.update(kata_own=own[~is_final], kata_lead=labels["lead"][~is_final].astype(np.float16),
                    kata_win=labels["win"][~is_final].astype(np.float16), final_own=own[is_final])
    atomic_savez(path, **data)
