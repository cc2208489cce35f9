"""One PBN per stone count (the seed) or pooled stone-count buckets (tengen's default)? Issue 25's open choice, measured.

The seed trains a separate net for each stone count 0..20 in the region; `tengen.eval.pbn` pools the counts 6-7,
8-9, 10-12, 13-16 and 17-20 (11 nets: `PBNConfig.bucket_starts`). Both are trained here on the same cached training
samples (`python -m tengen.train.pbn build`) with the same EM settings and the same number of samples *per net*
(`--size`, the seed's meaning of a training size; the per-count arm therefore sees up to 21/11 as many samples in
all), and scored on the same held-out test samples: top-k (k = 1, 5, 10, 20) at all stone counts and top-20 at 3,
5 and 10 stones (counts 0..5 are single-count nets in both arms, so only counts >= 6 can differ). A third row,
"pooled s1", is the pooled arm again with seed 1 (another draw of its training samples, another EM start): the
difference between the two pooled rows is the noise any difference between the arms must beat.

    python bench/pbn_buckets.py [--size 5000] [--kinds corner side combined]

Last line `per_count_minus_pooled_top20: X`, the per-count arm's top-20 at all counts minus the pooled arm's,
for the combined kind (the last kind run, when combined is not among them).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from tengen.eval.pbn import KINDS  # noqa: E402
from tengen.eval.pbn.model import PBNConfig  # noqa: E402
from tengen.train.pbn.extract import load_samples  # noqa: E402
from tengen.train.pbn.training import held_out, train_model  # noqa: E402

ARMS = {"pooled": PBNConfig(), "per count": PBNConfig(bucket_starts=tuple(range(21))),
        "pooled s1": PBNConfig(seed=1)}  # the noise: the pooled arm on another draw of samples and EM start


def main(argv: list[str] | None = None) -> int:
    """Train every arm per kind, print one row each, and the last line."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=5000, help="training samples per net (default 5000)")
    ap.add_argument("--kinds", nargs="+", default=list(KINDS), choices=KINDS)
    ap.add_argument("--cache-dir", type=Path, default=None, help="datasets root (default ~/.cache/tengen/datasets)")
    args = ap.parse_args(argv)
    try:
        data = {kind: (load_samples(kind, "train", args.cache_dir), load_samples(kind, "test", args.cache_dir))
                for kind in args.kinds}
    except FileNotFoundError as exc:
        print(f"pbn_buckets: {exc}", file=sys.stderr)
        return 2
    print(f"training size {args.size} samples per net; EM {PBNConfig().iterations} iterations, seed {PBNConfig().seed}")
    print(f"{'kind':<9} {'arm':<10} {'nets':>4} {'train':>8} {'CPU s':>6} {'test':>7}  "
          f"{'top-1':>6} {'top-5':>6} {'top-10':>6} {'top-20':>6}  top-20 at 3 / 5 / 10 stones")
    delta = None
    for kind, (train, test) in data.items():
        top20 = {}
        for arm, config in ARMS.items():
            model, cpu = train_model(kind, train, args.size, config)
            scores = held_out(model, test)
            curve = scores["topk_all"]
            at = " / ".join(f"{100 * scores[f'topk_{c}'][-1]:.1f}" for c in (3, 5, 10))
            trained = sum(bucket.samples for bucket in model.buckets.values())
            print(f"{kind:<9} {arm:<10} {len(model.buckets):>4} {trained:>8,} {cpu:>6.1f} {scores['test_samples']:>7,}  "
                  + "".join(f"{100 * curve[k - 1]:>6.1f} " for k in (1, 5, 10, 20)) + f" {at}", flush=True)
            top20[arm] = curve[-1]
        delta = top20["per count"] - top20["pooled"]
    print(f"per_count_minus_pooled_top20: {delta:+.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
