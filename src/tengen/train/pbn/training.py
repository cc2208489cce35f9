"""Training the PBN: for each region kind, training size and stone-count bucket, the first `size` training samples
of the bucket (a fixed shuffle, so smaller sets are subsets of larger ones) fit one net (`eval.pbn.model`);
held-out top-k accuracy on the test split goes into the weights' meta for the model card.

    python -m tengen.train.pbn build [--every 2] [--train-cap 40000] [--test-cap 2000]
    python -m tengen.train.pbn train [--kinds corner side combined] [--sizes 30 700 5000 40000] [--combined-sizes ...]
    python -m tengen.train.pbn card
"""
from __future__ import annotations

import argparse
import logging
import time
from pathlib import Path
from typing import Optional

import numpy as np

from tengen.eval.pbn.inference import predict
from tengen.eval.pbn.model import PBNConfig, PBNModel, fit_bucket, structure
from tengen.eval.pbn.regions import KINDS
from tengen.eval.pbn.weights import MODELS_DIR, save_model, weights_name
from tengen.train.pbn.card import write_model_card
from tengen.train.pbn.extract import dataset_dir, extract, load_samples

log = logging.getLogger(__name__)
DEFAULT_SIZES: dict[str, tuple[int, ...]] = {"corner": (30, 700, 5000, 40000), "side": (30, 700, 5000, 40000),
                                             "combined": (30, 700, 5000, 40000)}
KMAX = 20


def topk_curve(probs: np.ndarray, moves: np.ndarray, kmax: int = KMAX) -> np.ndarray:
    """(kmax,) mean top-k accuracy, k = 1..kmax, of probabilities (N, P) for the true moves (N,); ties are broken
    at random in expectation (a uniform guess over m points scores k/m)."""
    if len(moves) == 0:
        return np.full(kmax, np.nan)
    true = probs[np.arange(len(moves)), moves][:, None]
    greater = (probs > true).sum(axis=1)[:, None]
    equal = (probs == true).sum(axis=1)[:, None]
    k = np.arange(1, kmax + 1)[None, :]
    return np.clip((k - greater) / equal, 0.0, 1.0).mean(axis=0)


def training_rows(samples: dict[str, np.ndarray], config: PBNConfig, size: int, seed: int = 0
                  ) -> dict[int, np.ndarray]:
    """bucket -> the row indices of its first `size` samples in a fixed shuffle (nested across sizes)."""
    order = np.random.default_rng(seed).permutation(len(samples["move"]))
    buckets = config.bucket_of(samples["count"])[order]
    return {b: order[buckets == b][:size] for b in range(len(config.bucket_starts))}


def train_model(kind: str, samples: dict[str, np.ndarray], size: int, config: PBNConfig = PBNConfig()
                ) -> tuple[PBNModel, float]:
    """One model (every bucket) of `kind` on at most `size` samples per bucket; (model, CPU seconds)."""
    t0 = time.process_time()
    rng = np.random.default_rng(config.seed)
    struct = structure(kind)
    buckets = {}
    for b, rows in training_rows(samples, config, size, config.seed).items():
        if len(rows):
            buckets[b] = fit_bucket(struct, samples["points"][rows], samples["move"][rows].astype(np.int64),
                                    config, rng)
    return PBNModel(kind, config, buckets, {"size": size}), time.process_time() - t0


def held_out(model: PBNModel, test: dict[str, np.ndarray]) -> dict[str, list[float] | int]:
    """Top-k (k = 1..20) on the test samples: all, and at 3, 5 and 10 stones."""
    probs = predict(model, test["points"])
    moves = test["move"].astype(np.int64)
    out: dict[str, list[float] | int] = {"test_samples": int(len(moves))}
    out["topk_all"] = [round(float(v), 4) for v in topk_curve(probs, moves)]
    for count in (3, 5, 10):
        rows = test["count"] == count
        out[f"topk_{count}"] = [round(float(v), 4) for v in topk_curve(probs[rows], moves[rows])]
    return out


def train_all(kinds: tuple[str, ...], sizes: dict[str, tuple[int, ...]], models_dir: Path = MODELS_DIR,
              cache_dir: Optional[Path] = None, config: PBNConfig = PBNConfig()) -> None:
    """Train, evaluate and save every (kind, size) model; log CPU seconds."""
    for kind in kinds:
        train = load_samples(kind, "train", cache_dir)
        test = load_samples(kind, "test", cache_dir)
        for size in sizes[kind]:
            model, cpu = train_model(kind, train, size, config)
            model.meta.update({"train_cpu_s": round(cpu, 1), "train_games": int(len(np.unique(train["game"]))),
                               "data": "KGS 6d+ (kgs_6d_godmoves_36692.tar.xz), split by game",
                               **held_out(model, test)})
            save_model(model, models_dir / weights_name(kind, size))
            log.info("%s %d: %.1f CPU s, top1 %.3f top20 %.3f", kind, size, cpu, model.meta["topk_all"][0],
                     model.meta["topk_all"][-1])


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run build, train or card."""
    ap = argparse.ArgumentParser(prog="python -m tengen.train.pbn", description=__doc__.splitlines()[0])
    ap.add_argument("command", choices=("build", "train", "card"))
    ap.add_argument("--cache-dir", type=Path, default=None, help="datasets root (default ~/.cache/tengen/datasets)")
    ap.add_argument("--models-dir", type=Path, default=MODELS_DIR)
    ap.add_argument("--every", type=int, default=2, help="build: read every n-th game")
    ap.add_argument("--limit", type=int, default=None, help="build: at most this many games")
    ap.add_argument("--train-cap", type=int, default=40_000, help="build: training samples per kind and bucket")
    ap.add_argument("--test-cap", type=int, default=2_000, help="build: test samples per kind and bucket")
    ap.add_argument("--kinds", nargs="*", default=list(KINDS), choices=KINDS)
    ap.add_argument("--sizes", type=int, nargs="*", default=None, help="train: sizes for corner and side")
    ap.add_argument("--combined-sizes", type=int, nargs="*", default=None, help="train: sizes for combined")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    if args.command == "build":
        print(extract(dataset_dir(args.cache_dir), args.train_cap, args.test_cap, args.every, args.limit))
    elif args.command == "train":
        sizes = dict(DEFAULT_SIZES)
        if args.sizes:
            sizes["corner"] = sizes["side"] = tuple(args.sizes)
        if args.combined_sizes:
            sizes["combined"] = tuple(args.combined_sizes)
        train_all(tuple(args.kinds), sizes, args.models_dir, args.cache_dir)
    print(f"wrote {write_model_card(args.models_dir)}")
    return 0
