"""Does the local-move network play the exact solver's moves? Held-out solver-taught examples (issue 39).

The examples of `python -m tengen.train.localdata.lesson_shards` whose shapes fall in the validation and test
splits (by shape key, never trained on): top-1 / top-5 of the 723-way prediction against the solver's best
move (or "no move" once the region is cold), no-move precision and recall (P(no move) > 30 %, the trees'
leaf threshold) and the answer head's ROC AUC on the sente / gote labels; each weights file in one run.

Needs the lessons (`python -m tengen.train.localdata.lesson_shards`).
Usage: python bench/localnet_solved.py [--weights FILE ...] [--cache-dir DIR]
(default: the committed models/localnet/localnet.pt)
"""
from __future__ import annotations

import argparse
import platform
import sys
from pathlib import Path

import numpy as np
import torch

from tengen.eval.localnet.infer import predict
from tengen.eval.localnet.weights import DEFAULT_WEIGHTS, load_weights
from tengen.eval.localnet.lesson_store import lesson_counts, lessons_dir, load_lessons
from tengen.train.localdata.dataset import Examples, split_rows
from tengen.train.localnet.metrics import auc, move_metrics


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weights", type=Path, nargs="+", default=[DEFAULT_WEIGHTS])
    parser.add_argument("--cache-dir", type=Path, default=None, help="dataset cache (default ~/.cache/tengen/datasets)")
    args = parser.parse_args(argv)
    root = lessons_dir(args.cache_dir)
    arrays = load_lessons(root)
    if not arrays:
        print(f"no solver-taught examples in {root}: run `python -m tengen.train.localdata.lesson_shards` first", file=sys.stderr)
        return 2
    examples = Examples(arrays)
    splits = split_rows(examples)
    rows = np.sort(np.concatenate([splits["val"], splits["test"]]))
    counts = lesson_counts(root)
    print(f"machine: {platform.machine()}, {torch.get_num_threads()} CPU threads")
    print(f"solver-taught examples: {counts['examples']} from {counts['shapes'].get('taught', 0)} shapes "
          f"(held out: {len(rows)} examples of the validation and test shapes)")
    labelled = examples.arrays["answer"][rows] >= 0
    print(f"{'weights':<44} {'top1':>6} {'top5':>6} {'noP':>6} {'noR':>6} {'ansAUC':>6}")
    top1 = None
    for path in args.weights:
        model, _ = load_weights(path)
        probs, answers = predict(model, examples.compact(rows))
        m = move_metrics(probs, examples.arrays["target"][rows])
        a = auc(answers[labelled], examples.arrays["answer"][rows][labelled] == 1)
        print(f"{str(path)[-44:]:<44} {m['top1']:6.3f} {m['top5']:6.3f} {m['no_move_precision']:6.3f} "
              f"{m['no_move_recall']:6.3f} {a:6.3f}")
        top1 = m["top1"]
    print(f"solved_top1: {top1:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
