"""Leaf scoring by tengen's value network against KataGo, on the leaf positions of real analyses: the positions
of the cost bench (the bundled example at move 170 and late positions of scored KGS games, `endgame_cost.py`)
are analysed with the local-move network as predictor, every leaf of every local tree is kept, and both
networks evaluate all of them in this run, on this machine, with the same torch threads. Reported: agreement of
rounded ownership over the region's points (and of whole-leaf counts), evaluations per second of each, and the
confidence rule (a leaf where some region point's |ownership| lies within c of 0.5, where rounding flips, goes
to KataGo; the analyzer's `leaf_confidence`): the share of leaves it defers and the agreement after it, by c.
Last lines: `agreement: X` (percent of region points, the network alone) and `speed_ratio: X` (ours / KataGo's).
Usage: python bench/leaf_scoring.py [--games 2] [--seed 1] [--threads 1] [--value-model PATH]
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from endgame_cost import GAMES, REPO, late_positions  # noqa: E402

from tengen.endgame.analysis import analyze_board  # noqa: E402
from tengen.endgame.options import AnalysisOptions  # noqa: E402
from tengen.go.sgf import load_game  # noqa: E402

CONFIDENCES = (0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3)


def collect_leaves(positions, evaluator) -> list[tuple]:
    """(leaf board, region points) of every leaf the net-predictor analysis of each position grows."""
    from tengen.train.valuedata.leaf_dataset import leaves_of
    from tengen.endgame.predictors import LocalNetPredictor

    out = []
    predictor = LocalNetPredictor()
    for label, board in positions:
        start = time.perf_counter()
        analysis = analyze_board(board, evaluator, AnalysisOptions(predictor=predictor, leaf_scoring="evaluator", growth=None,
                                                                   life_groups=0))
        leaves = leaves_of(analysis)
        out += leaves
        print(f"{label}: {len(analysis.regions)} regions, {len(leaves)} leaves ({time.perf_counter() - start:.1f} s)")
    return out


def timed(fn, boards, batch: int) -> tuple[np.ndarray, float]:
    start = time.perf_counter()
    parts = [fn(boards[i:i + batch]) for i in range(0, len(boards), batch)]
    return np.concatenate(parts), time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="late positions of scored games besides the example")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--value-model", default=None, help="value network weights (default: the committed BV-ML-VN)")
    args = parser.parse_args()
    import torch

    from tengen.eval.katago.evaluator import KataGoEvaluator
    from tengen.eval.valuenet.evaluator import ValueNetEvaluator

    torch.set_num_threads(args.threads)
    ours = ValueNetEvaluator(args.value_model, batch_size=64)
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, torch threads {torch.get_num_threads()}; "
          f"value network {ours.name} ({ours.meta.get('step', '?')} steps)")
    positions = [("example (move 170)", load_game(REPO / "src" / "tengen" / "data" / "example.sgf").board_at(170))]
    if GAMES.exists():
        positions += [(f"{name} (move {move})", board) for name, _, move, board in late_positions(args.games, args.seed)]
    else:
        print(f"game archives not found under {GAMES}; example only")
    leaves = collect_leaves(positions, KataGoEvaluator(threads=args.threads))
    boards = [b for b, _ in leaves]
    kata = KataGoEvaluator(threads=args.threads, batch_size=16, cache_size=0)
    kata_own, kata_s = timed(lambda bs: np.stack([e.ownership for e in kata.evaluate(bs)]), boards, 16)
    our_own, our_s = timed(ours.ownership, boards, 64)
    points_total = points_same = leaves_same = 0
    margins, same_leaf, count_same = [], [], []
    for i, (_, region) in enumerate(leaves):
        idx = tuple(zip(*region))
        k, o = np.rint(np.clip(kata_own[i][idx], -1, 1)), np.rint(np.clip(our_own[i][idx], -1, 1))
        points_total += len(region)
        points_same += int((k == o).sum())
        same = bool(k.sum() == o.sum())
        leaves_same += same
        count_same.append(same)
        same_leaf.append(k == o)
        margins.append(float(np.abs(np.abs(our_own[i][idx]) - 0.5).min()))
    n = len(leaves)
    agreement = 100.0 * points_same / max(1, points_total)
    kata_rate, our_rate = n / kata_s, n / our_s
    print(f"leaves: {n} from {len(positions)} positions, {points_total} region points")
    print(f"KataGo: {kata_rate:.1f} evaluations/s ({kata_s:.1f} s); value network: {our_rate:.1f} evaluations/s ({our_s:.2f} s)")
    print(f"rounded ownership agreement over region points: {agreement:.2f} %; leaf counts equal: "
          f"{100.0 * leaves_same / max(1, n):.2f} %")
    print("confidence rule (a leaf with some region point's |ownership| within c of 0.5 goes to KataGo):")
    print("| c | leaves deferred | point agreement after | leaf counts equal after | effective speed ratio |")
    print("|---|---|---|---|---|")
    for c in CONFIDENCES:
        deferred = np.asarray([m < c for m in margins])
        agree = sum(len(s) if d else int(s.sum()) for s, d in zip(same_leaf, deferred))
        counts = sum(1 if d else int(same) for same, d in zip(count_same, deferred))
        seconds = our_s + kata_s * deferred.mean() if n else 0.0
        print(f"| {c:.2f} | {100.0 * deferred.mean():.1f} % | {100.0 * agree / max(1, points_total):.2f} % | "
              f"{100.0 * counts / max(1, n):.2f} % | {kata_s / max(seconds, 1e-9):.1f} |")
    print(f"agreement: {agreement:.2f}")
    print(f"speed_ratio: {our_rate / kata_rate:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
