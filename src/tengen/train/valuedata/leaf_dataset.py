"""Leaves of real analyses as training data for the value network's ownership.

The value network scores the leaves of local trees: positions after local sequences (stones in atari, dame,
half-finished boundaries) that game records rarely hold. This builds their distribution directly: late
positions (80 % of the game) of scored KGS games are analysed with the local-move network as predictor, as
`bench/leaf_scoring.py` does, every leaf that still needs scoring is kept with its region's points, and KataGo
labels its ownership. Games are picked by a seeded shuffle of the scored-games list; `--exclude` names games
to leave out (the leaf bench's own positions). Shards of `--chunk` games are written atomically
(`leaves-NNNN.npz`: compact boards as the value network reads them, side to move, ko, KataGo's ownership as
float16, the region mask, the game's index) with `done.txt` naming the games done, so a stopped build resumes.

    python -m tengen.train.valuedata.leaf_dataset [--games 400] [--seed 7] [--workers N] [--device auto] [--out DIR]
                                          [--exclude NAME ...] [--chunk 20] [--pack-subset DIR]
"""
from __future__ import annotations

import argparse
import io
import os
import random
import sys
import tarfile
from multiprocessing import get_context
from pathlib import Path
from typing import Iterable, Iterator, Optional, Sequence

import numpy as np

from tengen.files import atomic_savez, datasets_cache_dir, shared_data_path, write_atomic
from tengen.go.board import Board
from tengen.go.coords import Point

LATE_SHARE = 0.8  # the analysed position: this share of the game's moves played
LISTING = "finished_19x19_scored_games.txt"


def leaves_of(analysis) -> list[tuple[Board, tuple[Point, ...]]]:
    """(leaf board, region points) of every leaf of an analysis's trees still to be scored (not counted exactly)."""
    out = []
    for result in analysis.regions:
        if result.tree is None:
            continue
        for leaf in result.tree.leaves():
            if leaf.kind == "leaf" and leaf.board is not None and not leaf.counted:
                out.append((leaf.board, tuple(result.region.points)))
    return out


def analysis_leaves(board: Board, evaluator, predictor=None) -> list[tuple[Board, tuple[Point, ...]]]:
    """The leaves (`leaves_of`) of `board`'s analysis with the local-move network as predictor unless another
    `predictor` is given."""
    from tengen.endgame.analysis import analyze_board
    from tengen.endgame.options import AnalysisOptions
    from tengen.endgame.predictors import LocalNetPredictor

    return leaves_of(analyze_board(board, evaluator, AnalysisOptions(
        predictor=predictor or LocalNetPredictor(), leaf_scoring="evaluator", growth=None, life_groups=0)))


def _picked_rows(count: int, seed: int, exclude: Iterable[str]) -> tuple[str, list[list[str]]]:
    """The listing's header and the rows of the `count` scored KGS games a `seed`ed shuffle picks (without the
    `exclude`d names), in the listing's order."""
    header, *lines = (shared_data_path("games") / LISTING).read_text().splitlines()
    skip = set(exclude)
    rows = [row for row in (line.split("\t") for line in lines if line.startswith("kgs_")) if row[1] not in skip]
    order = list(range(len(rows)))
    random.Random(seed).shuffle(order)
    return header, [rows[i] for i in sorted(order[:count])]


def _read_games(rows: list[list[str]]) -> Iterator[tuple[str, bytes]]:
    """The records `rows` name (all in one archive), as (name, SGF bytes) in archive order."""
    wanted = {row[1] for row in rows}
    with tarfile.open(shared_data_path("games") / rows[0][0], "r:xz") as tar:
        for member in tar:
            if member.name in wanted:
                yield member.name, tar.extractfile(member).read()


def scored_kgs_games(count: int, seed: int, exclude: Iterable[str] = ()) -> Iterator[tuple[str, bytes]]:
    """`count` scored 19x19 KGS records (name, SGF bytes), picked by a `seed`ed shuffle of the listing and
    read in archive order, without the `exclude`d names."""
    return _read_games(_picked_rows(count, seed, exclude)[1])


def pack_subset(folder: Path, count: int, seed: int, exclude: Iterable[str] = ()) -> int:
    """Write the games `scored_kgs_games` would pick as a small shared-data folder (`folder`/games: the listing's
    rows and one archive of the same name), for a machine without the shared data (a GPU device): point
    `TENGEN_SHARED_DATA` at `folder` there and the same games are read. Returns the games written."""
    header, rows = _picked_rows(count, seed, exclude)
    games = folder / "games"
    games.mkdir(parents=True, exist_ok=True)
    write_atomic(games / LISTING, ("\n".join([header, *("\t".join(row) for row in rows)]) + "\n").encode())
    buf = io.BytesIO()
    written = 0
    with tarfile.open(fileobj=buf, mode="w:xz") as tar:
        for name, data in _read_games(rows):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
            written += 1
    write_atomic(games / rows[0][0], buf.getvalue())
    return written


def late_board(name: str, data: bytes) -> Optional[Board]:
    """The position after `LATE_SHARE` of the game's moves, or None for an unreadable record."""
    from tengen.go.sgf import SgfError, load_game_bytes

    try:
        game = load_game_bytes(data, name)
        return game.board_at(int(len(game.moves) * LATE_SHARE), strict=False)
    except SgfError:
        return None


_WORKER: dict = {}


def _start_worker(device: str, threads: int) -> None:
    from tengen.endgame.predictors import LocalNetPredictor
    from tengen.eval.katago.evaluator import KataGoEvaluator

    _WORKER["predictor"] = LocalNetPredictor()
    _WORKER["analysis"] = KataGoEvaluator(device=device, threads=threads)
    _WORKER["labels"] = KataGoEvaluator(device=device, threads=threads, batch_size=16, cache_size=0)


def label_game(task: tuple[int, str, bytes]) -> tuple[int, str, Optional[dict]]:
    """One game's leaves with KataGo's ownership, as arrays (None: unreadable or no leaf)."""
    from tengen.eval.valuenet.evaluator import compact_inputs

    index, name, data = task
    board = late_board(name, data)
    leaves = analysis_leaves(board, _WORKER["analysis"], _WORKER["predictor"]) if board is not None else []
    if not leaves:
        return index, name, None
    boards = [b for b, _ in leaves]
    kata = np.stack([e.ownership for e in _WORKER["labels"].evaluate(boards)]).reshape(len(boards), -1)
    codes, to_play, ko = compact_inputs(boards)
    region = np.zeros(codes.shape, np.uint8)
    for row, (leaf, points) in enumerate(leaves):
        for r, c in points:
            region[row, r * leaf.width + c] = 1
    return index, name, {"codes": codes, "to_play": to_play, "ko": ko, "kata": kata.astype(np.float16),
                         "region": region, "game": np.full(len(boards), index, np.int32)}


def write_shard(out: Path, number: int, parts: Sequence[dict], names: Sequence[str]) -> None:
    """One shard of games' leaves, then their names appended to done.txt (so a crash redoes the shard)."""
    atomic_savez(out / f"leaves-{number:04d}.npz", **{key: np.concatenate([p[key] for p in parts]) for key in parts[0]})
    with open(out / "done.txt", "a") as f:
        f.write("".join(f"{name}\n" for name in names))


def build(out: Path, games: int, seed: int, workers: int, device: str, exclude: Sequence[str] = (),
          chunk: int = 20, threads: int = 1) -> int:
    """Label the leaves of `games` games into `out` (resuming a stopped build); the leaves written."""
    out.mkdir(parents=True, exist_ok=True)
    done = set((out / "done.txt").read_text().split()) if (out / "done.txt").exists() else set()
    shards = len(list(out.glob("leaves-*.npz")))
    tasks = [(i, name, data) for i, (name, data) in enumerate(scored_kgs_games(games, seed, exclude))
             if name not in done]
    if not tasks:  # a finished build: no workers (each would load KataGo) for nothing
        return 0
    parts, names, written = [], [], 0
    ctx = get_context("spawn")
    with ctx.Pool(max(1, workers), initializer=_start_worker, initargs=(device, threads)) as pool:
        for _, name, arrays in pool.imap_unordered(label_game, tasks):
            names.append(name)
            if arrays is not None:
                parts.append(arrays)
                written += len(arrays["codes"])
            if len(names) >= chunk:
                if parts:
                    write_shard(out, shards, parts, names)
                    shards += 1
                parts, names = [], []
                print(f"leaf_dataset: {shards} shards, {written} leaves this run", flush=True)
    if names and parts:
        write_shard(out, shards, parts, names)
    return written


def default_out() -> Path:
    """The dataset folder: `leaves-v1` in the datasets cache (`$TENGEN_CACHE/datasets`, else ~/.cache/tengen)."""
    return datasets_cache_dir() / "leaves-v1"


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tengen.train.valuedata.leaf_dataset", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--workers", type=int, default=max(1, (os.cpu_count() or 2) - 1))
    parser.add_argument("--threads", type=int, default=1, help="torch threads per worker")
    parser.add_argument("--device", default="cpu", help="where KataGo runs in each worker: cpu, cuda, auto")
    parser.add_argument("--chunk", type=int, default=20, help="games per shard")
    parser.add_argument("--exclude", nargs="*", default=[], help="game names to leave out")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--pack-subset", type=Path, default=None, metavar="DIR",
                        help="write the picked games as a small shared-data folder (to carry) and stop")
    args = parser.parse_args(argv)
    if args.pack_subset is not None:
        print(f"leaf_dataset: {pack_subset(args.pack_subset, args.games, args.seed, args.exclude)} games in "
              f"{args.pack_subset} (TENGEN_SHARED_DATA={args.pack_subset})")
        return 0
    try:
        written = build(args.out or default_out(), args.games, args.seed, args.workers, args.device, args.exclude,
                        args.chunk, args.threads)
    except (OSError, ValueError) as exc:
        print(f"leaf_dataset: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("leaf_dataset: stopped; the shards written are kept and the same command resumes", file=sys.stderr)
        return 130
    print(f"leaf_dataset: {written} leaves written to {args.out or default_out()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
