"""The built local-move dataset in memory: every shard's examples, split by game (the records' move-hash
split: 15 % test, 10 % validation), and the statistics the model card reports."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tengen.eval.localnet.compact import NO_MOVE, POINTS, CompactBatch
from tengen.eval.localnet.compact import EXAMPLE_FIELDS
from tengen.train.localdata.build import dataset_dir, shard_paths
from tengen.train.splits import split_of

SPLIT_NAMES = ("train", "val", "test")


@dataclass
class Examples:
    """Examples as parallel arrays (the compact inputs, target, answer label, region size, sequence length,
    game key)."""

    arrays: dict[str, np.ndarray]

    def __len__(self) -> int:
        return len(self.arrays["target"])

    def select(self, rows: np.ndarray) -> "Examples":
        return Examples({k: v[rows] for k, v in self.arrays.items()})

    def compact(self, rows: np.ndarray | slice = slice(None)) -> CompactBatch:
        return CompactBatch(**{k: self.arrays[k][rows] for k in CompactBatch.__dataclass_fields__})


def load(cache_dir: Path | str | None = None, root: Path | None = None,
         splits: tuple[str, ...] | None = None) -> tuple[Examples, dict]:
    """All examples (or only those of the named splits) and the dataset statistics; FileNotFoundError (one
    line) when nothing was built."""
    root = root or dataset_dir(cache_dir)
    paths = shard_paths(root)
    if not paths:
        raise FileNotFoundError(f"no local-move dataset in {root}: run `python -m tengen.train.localdata build`")
    parts: dict[str, list[np.ndarray]] = {k: [] for k in EXAMPLE_FIELDS + ("game", "cutout")}
    stats = {"shards": len(paths), "games_read": 0, "games_used": 0, "positions": 0, "skipped": {},
             "regions_size": [], "regions_len": []}
    wanted = None if splits is None else [SPLIT_NAMES.index(name) for name in splits]
    for path in paths:
        with np.load(path) as z:
            stats["games_read"] += int(z["games_read"])
            stats["games_used"] += int(z["games_used"])
            stats["positions"] += len(z["pos_move"])
            for reason, n in json.loads(str(z["skipped"])).items():
                stats["skipped"][reason] = stats["skipped"].get(reason, 0) + n
            stats["regions_size"].append(z["regions_size"])
            stats["regions_len"].append(z["regions_len"])
            if len(z["target"]) == 0:
                continue
            keep = slice(None) if wanted is None else np.isin(_splits_of(z["game"]), wanted)
            for k in parts:
                if k == "cutout" and k not in z.files:  # shards built before cut-outs: whole-board rows
                    parts[k].append(np.zeros(len(z["target"]), np.int8)[keep])
                else:
                    parts[k].append(z[k][keep])
    arrays = {k: np.concatenate(v) for k, v in parts.items()}
    arrays["region"] = np.unpackbits(arrays["region"], axis=1, count=POINTS).astype(bool)
    sizes = np.concatenate(stats.pop("regions_size"))
    lengths = np.concatenate(stats.pop("regions_len"))
    stats.update(summary(arrays, sizes, lengths))
    return Examples(arrays), stats


def _histogram(values: np.ndarray, edges: list[int]) -> dict[str, int]:
    out = {}
    for lo, hi in zip(edges, edges[1:] + [None]):
        sel = values >= lo if hi is None else (values >= lo) & (values < hi)
        out[f"{lo}+" if hi is None else (f"{lo}" if hi == lo + 1 else f"{lo}-{hi - 1}")] = int(sel.sum())
    return out


def summary(arrays: dict[str, np.ndarray], region_sizes: np.ndarray, seq_lengths: np.ndarray) -> dict:
    """Counts and histograms for the model card."""
    answer = arrays["answer"]
    labelled = answer >= 0
    splits = np.array([split_of(int(k)) for k in np.unique(arrays["game"])]) if len(arrays["game"]) else np.zeros(0)
    return {
        "regions": int(len(region_sizes)),
        "examples": int(len(arrays["target"])),
        "no_move_examples": int((arrays["target"] == NO_MOVE).sum()),
        "answer_fraction": float(answer[labelled].mean()) if labelled.any() else float("nan"),
        "answer_labelled": int(labelled.sum()),
        "region_size_histogram": _histogram(region_sizes, [1, 2, 3, 4, 6, 11, 21, 51]),
        "sequence_length_histogram": _histogram(seq_lengths, [0, 1, 2, 3, 4, 6, 11, 21]),
        "games_by_split": {name: int((splits == i).sum()) for i, name in enumerate(SPLIT_NAMES)},
        "cutout_examples": {str(int(w)): int((arrays["cutout"] == w).sum()) for w in np.unique(arrays["cutout"]) if w},
    }


def _splits_of(keys: np.ndarray) -> np.ndarray:
    """The split (0 train, 1 validation, 2 test) of each example from its game key."""
    uniq, inverse = np.unique(keys, return_inverse=True)
    return np.array([split_of(int(k)) for k in uniq], dtype=np.int8)[inverse]


def split_rows(examples: Examples) -> dict[str, np.ndarray]:
    """Row indices of each split (by game)."""
    split = _splits_of(examples.arrays["game"])
    return {name: np.nonzero(split == i)[0] for i, name in enumerate(SPLIT_NAMES)}
