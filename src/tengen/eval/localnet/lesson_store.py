"""The solver-taught examples on disk (written by `tengen.train.localdata.lesson_shards`, read by training and the
benches): shard paths, the examples as parallel arrays, and their counts for the model card."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Optional

import numpy as np

from tengen.eval.localnet.compact import EXAMPLE_FIELDS, LESSONS_DATASET, NO_MOVE, POINTS
from tengen.files import datasets_cache_dir


def lessons_dir(cache_dir: Optional[Path | str] = None) -> Path:
    """The lessons' folder: `solver-lessons-v1` in the datasets cache (`$TENGEN_CACHE/datasets`) or `cache_dir`."""
    return (Path(cache_dir).expanduser() if cache_dir else datasets_cache_dir()) / LESSONS_DATASET


def lesson_paths(folder: Path) -> list[Path]:
    """The shards of a lessons folder, in order."""
    return sorted(folder.glob("lessons-[0-9][0-9][0-9][0-9].npz"))


def load_lessons(folder: Path) -> dict[str, np.ndarray]:
    """Every shard's examples as parallel arrays (region unpacked, shape keys in `game`); {} when none."""
    parts: dict[str, list[np.ndarray]] = {k: [] for k in EXAMPLE_FIELDS + ("game",)}
    for path in lesson_paths(folder):
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


def lesson_counts(folder: Path) -> dict:
    """Shapes by outcome and examples by kind over the shards on disk (the model card's mix)."""
    kinds: Counter = Counter()
    examples = no_move = answers = labelled = 0
    for path in lesson_paths(folder):
        with np.load(path) as z:
            kinds.update(json.loads(str(z["kinds"])))
            if len(z["game"]):
                examples += len(z["target"])
                no_move += int((z["target"] == NO_MOVE).sum())
                labelled += int((z["answer"] >= 0).sum())
                answers += int((z["answer"] == 1).sum())
    return {"shards": len(lesson_paths(folder)), "shapes": dict(kinds), "examples": examples,
            "no_move_examples": no_move, "answer_labelled": labelled, "answers": answers}
