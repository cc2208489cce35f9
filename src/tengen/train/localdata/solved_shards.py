"""`python -m tengen.train.localdata solved`: the solver-taught examples (`solved`), shard by shard.

Shapes are drawn from one seeded generator per shard (shard k uses seed (seed, k)), so a shard is the same
whatever ran before it; a shard on disk is skipped, so an interrupted build resumes. Shards live in the
`solved/` folder of the dataset and hold the game examples' fields, with a per-shape key in `game` (the
train / validation / test split applies to shapes as it does to games)."""
from __future__ import annotations

import json
import random
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Callable, Optional

import numpy as np

from tengen.train.localdata.build import EXAMPLE_FIELDS
from tengen.train.localdata.solved import TeachConfig, random_shape, shape_key, teach
from tengen.train.records.store import atomic_savez

SOLVED_FOLDER = "solved"


def solved_paths(root: Path) -> list[Path]:
    """The solved shards of a dataset folder, in order."""
    return sorted((root / SOLVED_FOLDER).glob("solved-[0-9][0-9][0-9][0-9].npz"))


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
        key = shape_key(seed, shard * shapes + i)
        rows += taught
        keys += [key] * len(taught)
    out = {k: np.stack([r[k] for r in rows]) if rows else np.zeros(0) for k in EXAMPLE_FIELDS}
    if rows:
        out["region"] = np.packbits(out["region"], axis=1)
    out["game"] = np.array(keys, dtype=np.uint64)
    out["kinds"] = np.array(json.dumps(kinds))
    return out


def build_solved(root: Path, shapes: int, seed: int = 1, shard_shapes: int = 500, workers: int = 2,
                 cfg: TeachConfig = TeachConfig(), progress: Optional[Callable[[int], None]] = None) -> dict:
    """Write the shards of `shapes` shapes (in shards of `shard_shapes`) under root/solved; returns counts."""
    folder = root / SOLVED_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    shards = (shapes + shard_shapes - 1) // shard_shapes
    todo = [k for k in range(shards) if not (folder / f"solved-{k:04d}.npz").exists()]
    started = time.monotonic()
    with ProcessPoolExecutor(max(1, workers)) as pool:
        jobs = [(seed, k, min(shard_shapes, shapes - k * shard_shapes), cfg) for k in todo]
        for k, out in zip(todo, pool.map(_shard_job, jobs)):
            atomic_savez(folder / f"solved-{k:04d}.npz", **out)
            if progress:
                progress(min(shard_shapes, shapes - k * shard_shapes))
    return summary(root) | {"seconds_this_run": round(time.monotonic() - started, 1)}


def load_solved(root: Path) -> dict[str, np.ndarray]:
    """Every solved shard's examples as parallel arrays (region unpacked); empty arrays when none."""
    from tengen.eval.localnet.compact import POINTS

    parts: dict[str, list[np.ndarray]] = {k: [] for k in EXAMPLE_FIELDS + ("game",)}
    for path in solved_paths(root):
        with np.load(path) as z:
            if len(z["game"]) == 0:
                continue
            for k in parts:
                parts[k].append(z[k])
    if not parts["game"]:
        return {}
    arrays = {k: np.concatenate(v) for k, v in parts.items()}
    arrays["region"] = np.unpackbits(arrays["region"], axis=1, count=POINTS).astype(bool)
    return arrays


def summary(root: Path) -> dict:
    """Shapes by outcome and examples by kind, over the shards on disk (the model card's mix)."""
    from tengen.eval.localnet.compact import NO_MOVE

    kinds: Counter = Counter()
    examples = no_move = answers = labelled = 0
    for path in solved_paths(root):
        with np.load(path) as z:
            kinds.update(json.loads(str(z["kinds"])))
            if len(z["game"]):
                examples += len(z["target"])
                no_move += int((z["target"] == NO_MOVE).sum())
                labelled += int((z["answer"] >= 0).sum())
                answers += int((z["answer"] == 1).sum())
    return {"shards": len(solved_paths(root)), "shapes": dict(kinds), "examples": examples,
            "no_move_examples": no_move, "answer_labelled": labelled, "answers": answers}
