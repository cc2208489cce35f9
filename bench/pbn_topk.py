"""How well does the pyramidal Bayes net (issue 25) predict strong players' next move in a corner or along a side?

Top-k accuracy (k = 1..20) on held-out KGS 6d+ positions (the test games of `python -m tengen.train.pbn build`)
for the 9x9 corner, 5x19 side and combined models of each training size found in `--models-dir` (30 / 700 /
5,000 / 40,000 samples per stone-count bucket; `python -m tengen.train.pbn train` writes them), at 3, 5 and 10
stones in the region and at all counts 0..20 (the test set holds up to 2,000 samples per stone-count bucket, so
"all" weights the 11 buckets about equally, not as often as they occur in games). Anchors in the same run: a
uniform guess over the region's empty points; a frequency table of the training moves per region kind and
stone-count bucket; and KataGo's policy (the cached default network, CPU) restricted to the region's points and
renormalised, on `--katago` random test samples of each kind (~3-5 evaluations/s on the 2-core CPU; skipped,
and said so, when no network is cached), with the best PBN and the other anchors on the same samples beside it.
`--overlap assign` adds the tree approximation of inference for the largest models (the default reads
overlapping fields in every parent).
Occupied points are never ranked; ties count at random.

    python bench/pbn_topk.py [--sizes 30 700 5000 40000] [--test 0] [--katago 100] [--plot pbn_topk.png]
                             [--overlap share assign]

The issue's run (the held-out set of models/pbn/MODEL_CARD.md): `python bench/pbn_topk.py --overlap share assign --plot
/tmp/pbn_topk.png` (2.5 minutes on the shared 2-core VM; `--test 3000 --katago 20` for a quicker look).

The last line is `combined_top20: X`, the combined model of the largest size at all stone counts.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

import numpy as np  # noqa: E402

from tengen.eval.pbn import KINDS, load_model, predict  # noqa: E402
from tengen.eval.pbn.model import PBNConfig  # noqa: E402
from tengen.eval.pbn.regions import region_kind  # noqa: E402
from tengen.eval.pbn.weights import MODELS_DIR, weights_name  # noqa: E402
from tengen.train.pbn.extract import load_samples  # noqa: E402
from tengen.train.pbn.training import KMAX, topk_curve  # noqa: E402
from tengen.train.records.replay import record_board  # noqa: E402

SUBSETS = ("3", "5", "10", "all")


def subset_rows(test: dict[str, np.ndarray], subset: str) -> np.ndarray:
    """Row mask of a stone-count subset ('all' = every count 0..20)."""
    return np.ones(len(test["move"]), bool) if subset == "all" else test["count"] == int(subset)


def uniform(points: np.ndarray) -> np.ndarray:
    """A uniform guess over each region's empty points."""
    empty = (points == 0).astype(np.float64)
    return empty / np.maximum(empty.sum(axis=1, keepdims=True), 1)


def frequency(train: dict[str, np.ndarray], test: dict[str, np.ndarray], config: PBNConfig) -> np.ndarray:
    """Training move frequencies per stone-count bucket (+0.5), on each test region's empty points."""
    n_points = train["points"].shape[1]
    tb, sb = config.bucket_of(train["count"]), config.bucket_of(test["count"])
    out = np.zeros(test["points"].shape)
    for b in np.unique(sb):
        table = np.bincount(train["move"][tb == b].astype(np.int64), minlength=n_points) + 0.5
        out[sb == b] = table
    out *= test["points"] == 0
    return out / out.sum(axis=1, keepdims=True)


def katago_probs(kind: str, test: dict[str, np.ndarray], rows: np.ndarray) -> np.ndarray | None:
    """KataGo's policy in the test regions `rows` (renormalised), or None when no network is cached."""
    cached = sorted((Path.home() / ".cache" / "tengen" / "models").glob("*.bin.gz"))
    if not cached:
        return None
    from tengen.eval.katago import KataGoEvaluator

    evaluator = KataGoEvaluator(cached[0], threads=2, batch_size=8)
    boards = []
    for i in rows:
        board = record_board(7.5)
        board.set_array(test["board"][i])
        board.to_play = int(test["to_play"][i])
        boards.append(board)
    index = region_kind(kind).board_index[test["instance"][rows].astype(np.int64)]  # (n, P)
    policy = np.stack([e.policy.reshape(-1) for e in evaluator.evaluate(boards)])
    probs = np.take_along_axis(policy, index, axis=1).astype(np.float64)
    return probs / np.maximum(probs.sum(axis=1, keepdims=True), 1e-12)


def line(name: str, curve: np.ndarray) -> str:
    """One table row: top-1, 3, 5, 10, 20 in percent."""
    return f"  {name:<34}" + "".join(f"{100 * curve[k - 1]:7.1f}" for k in (1, 3, 5, 10, 20))


def main() -> int:
    """Evaluate every model and anchor; print tables; plot; print the last line."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models-dir", type=Path, default=MODELS_DIR)
    ap.add_argument("--cache-dir", type=Path, default=None)
    ap.add_argument("--kinds", nargs="*", default=list(KINDS), choices=KINDS)
    ap.add_argument("--sizes", type=int, nargs="*", default=[30, 700, 5000, 40000])
    ap.add_argument("--test", type=int, default=0, help="at most this many test samples per kind (0 = all)")
    ap.add_argument("--katago", type=int, default=100, help="KataGo anchor on this many samples per kind (0 = off)")
    ap.add_argument("--overlap", nargs="*", default=["share"], choices=["share", "assign"])
    ap.add_argument("--plot", type=Path, default=None, help="write the top-k curves (PNG) here")
    args = ap.parse_args()
    t0 = time.time()
    curves: dict[tuple[str, str, str], np.ndarray] = {}
    last: float | None = None
    header = "  " + " " * 34 + "".join(f"{'top-' + str(k):>7}" for k in (1, 3, 5, 10, 20))
    for kind in args.kinds:
        train, test = load_samples(kind, "train", args.cache_dir), load_samples(kind, "test", args.cache_dir)
        if args.test:
            rng = np.random.default_rng(0)
            keep = np.sort(rng.permutation(len(test["move"]))[:args.test])
            test = {k: v[keep] for k, v in test.items()}
        moves = test["move"].astype(np.int64)
        config = PBNConfig()
        methods: dict[str, np.ndarray] = {"uniform": uniform(test["points"]),
                                          "frequency": frequency(train, test, config)}
        sizes = [s for s in args.sizes if (args.models_dir / weights_name(kind, s)).exists()]
        missing = [s for s in args.sizes if s not in sizes]
        for size in sizes:
            model = load_model(args.models_dir / weights_name(kind, size))
            for overlap in args.overlap:
                if overlap == "share" or size == sizes[-1]:
                    name = f"pbn-{size}" + ("" if overlap == "share" else "-assign")
                    methods[name] = predict(model, test["points"], overlap)
        print(f"{kind}: {region_kind(kind).points} points, {len(moves):,} test samples from "
              f"{len(np.unique(test['game'])):,} test games; models {sizes}"
              + (f" (not trained: {missing})" if missing else ""))
        for subset in SUBSETS:
            rows = subset_rows(test, subset)
            print(f" stones {subset} ({int(rows.sum()):,} samples)\n{header}")
            for name, probs in methods.items():
                curves[kind, subset, name] = topk_curve(probs[rows], moves[rows], KMAX)
                print(line(name, curves[kind, subset, name]))
        if sizes:
            best = f"pbn-{sizes[-1]}"
            if kind == "combined":
                last = float(curves[kind, "all", best][-1])
        if args.katago:
            n = min(args.katago, len(moves))
            rows = np.sort(np.random.default_rng(1).permutation(len(moves))[:n])
            t1 = time.time()
            kata = katago_probs(kind, test, rows)
            if kata is None:
                print(" KataGo anchor skipped: no network in ~/.cache/tengen/models (tengen models fetch)")
            else:
                print(f" {n} random test samples (all stone counts), KataGo {n / (time.time() - t1):.1f} "
                      f"evaluations/s\n{header}")
                for name in ["uniform", "frequency"] + ([f"pbn-{sizes[-1]}"] if sizes else []):
                    print(line(name, topk_curve(methods[name][rows], moves[rows], KMAX)))
                curves[kind, "katago", f"katago ({n} samples)"] = topk_curve(kata, moves[rows], KMAX)
                print(line("katago policy in the region", curves[kind, "katago", f"katago ({n} samples)"]))
    if args.plot:
        plot(curves, args.plot)
        print(f"plot: {args.plot}")
    print(f"runtime: {time.time() - t0:.0f} s")
    print(f"combined_top20: {'-' if last is None else f'{last:.3f}'}")
    return 0


def plot(curves: dict[tuple[str, str, str], np.ndarray], path: Path) -> None:
    """One panel per kind (all stone counts; KataGo on its subset), one curve per method."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    kinds = sorted({k for k, _, _ in curves}, key=list(KINDS).index)
    fig, axes = plt.subplots(1, len(kinds), figsize=(5 * len(kinds), 4), squeeze=False)
    ks = np.arange(1, KMAX + 1)
    for ax, kind in zip(axes[0], kinds):
        for (k, subset, name), curve in curves.items():
            if k == kind and subset in ("all", "katago"):
                ax.plot(ks, curve, label=name, linestyle="-" if name.startswith("pbn") else "--")
        ax.set_title(f"{kind}: top-k, all stone counts")
        ax.set_xlabel("k")
        ax.set_ylim(0, 1)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    axes[0][0].set_ylabel("accuracy")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)


if __name__ == "__main__":
    sys.exit(main())
