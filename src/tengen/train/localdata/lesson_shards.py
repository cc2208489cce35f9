"""`python -m tengen.train.localdata.lesson_shards`: the solver-taught examples (`tengen.train.localdata.lessons`), shard by
shard, for the local-move network's training (the exact solver as its teacher).

Shapes are drawn from one seeded generator per shard (shard k uses seed (seed, k)) and solved within a node
budget alone (no clock), so a shard is the same on any machine whatever ran before it; a shard on disk is
skipped, so an interrupted build resumes. Shards (`tengen.eval.localnet.lesson_store`) hold the game
examples' fields, with a per-shape key in `game` (the train / validation / test split applies to shapes as
it does to games)."""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Callable, Optional

import numpy as np

from tengen.train.localdata.lessons import TeachConfig, random_shape, shape_key, teach
from tengen.eval.localnet.compact import EXAMPLE_FIELDS
from tengen.eval.localnet.lesson_store import lesson_counts, lessons_dir
from tengen.files import atomic_savez


def _shard_job(args: tuple[int, int, int, TeachConfig]) -> dict:
    seed, shard, shapes, cfg = args
    rng = random.Random(f"{seed}:{shard}")
    rows, keys, kinds = [], [], Counter()
    for i in range(shapes):
        shape = random_shape(rng, cfg)
        if shape is None:
            kinds["no shape"] += 1
            continue
        taught = teach(shape, cfg)
        kinds["taught" if taught else "not solved exactly"] += 1
        rows += taught
        keys += [shape_key(seed, shard * shapes + i)] * len(taught)
    out = {k: np.stack([r[k] for r in rows]) if rows else np.zeros(0) for k in EXAMPLE_FIELDS}
    if rows:
        out["region"] = np.packbits(out["region"], axis=1)
    out["game"] = np.array(keys, dtype=np.uint64)
    out["kinds"] = np.array(json.dumps(kinds))
    return out


def build_lessons(folder: Path, shapes: int, seed: int = 1, shard_shapes: int = 500, workers: int = 2,
                  cfg: TeachConfig = TeachConfig(), progress: Optional[Callable[[int], None]] = None) -> dict:
    """Write the shards of `shapes` shapes (`shard_shapes` a shard) into `folder`; returns the counts."""
    folder.mkdir(parents=True, exist_ok=True)
    shards = (shapes + shard_shapes - 1) // shard_shapes
    todo = [k for k in range(shards) if not (folder / f"lessons-{k:04d}.npz").exists()]
    started = time.monotonic()
    with ProcessPoolExecutor(max(1, workers)) as pool:
        jobs = [(seed, k, min(shard_shapes, shapes - k * shard_shapes), cfg) for k in todo]
        for (_, k, n, _), out in zip(jobs, pool.map(_shard_job, jobs)):
            atomic_savez(folder / f"lessons-{k:04d}.npz", **out)
            if progress:
                progress(n)
    return lesson_counts(folder) | {"seconds_this_run": round(time.monotonic() - started, 1)}


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tengen.train.localdata.lesson_shards", description=__doc__.splitlines()[0])
    parser.add_argument("--shapes", type=int, default=20_000, help="shapes drawn in all (default 20,000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--shard-shapes", type=int, default=500)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--cache-dir", type=Path, default=None, help="datasets cache (default ~/.cache/tengen/datasets)")
    args = parser.parse_args(argv)
    from tqdm import tqdm

    bar = tqdm(total=args.shapes, unit="shape", file=sys.stderr, desc="lessons")
    try:
        counts = build_lessons(lessons_dir(args.cache_dir), max(1, args.shapes), args.seed, max(1, args.shard_shapes),
                               max(1, args.workers), progress=bar.update)
    finally:
        bar.close()
    print(json.dumps(counts, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
