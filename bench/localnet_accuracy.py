"""Held-out accuracy of the local-move network: on examples of the dataset's test games (split by game, never
trained on), top-1 / top-5 of the 723-way prediction, colour accuracy, no-move precision and recall (no move
predicted = P(no move) > 30 %, the tree's leaf threshold), the answer head's ROC AUC; and, on a subsample
of the same examples, KataGo's policy restricted to the region and its neighbourhood (the `kata`
predictor's moves, evaluated with each colour to move; its "no move" = every region point settled) as the
anchor. KataGo sees the stones and the side to move but not the move history (the examples store the
position, not the game), and no depth cap applies.

Needs the dataset (`python -m tengen.train.localdata build`, or `--labels` with saved KataGo labels).
Usage: python bench/localnet_accuracy.py [--examples 20000] [--kata-examples 500] [--seed 1] [--weights FILE]
"""
from __future__ import annotations

import argparse
import platform
import sys
import time

import numpy as np
import torch

from tengen.endgame.predictors import KataPolicyPredictor, PredictionRequest
from tengen.endgame.regions import Region
from tengen.eval.localnet.compact import BLACK_CODE, NO_MOVE, POINTS, WHITE_CODE, unflat
from tengen.eval.localnet.infer import predict
from tengen.eval.localnet.weights import DEFAULT_WEIGHTS, load_weights
from tengen.go import BLACK, WHITE, Board
from tengen.train.localdata.dataset import Examples, load
from tengen.train.localnet.metrics import auc, move_metrics


def board_of(codes: np.ndarray, to_play: int) -> Board:
    """The 19x19 position an example stores (stones and side to move)."""
    kind = codes.reshape(19, 19) & 3
    grid = np.where(kind == BLACK_CODE, BLACK, np.where(kind == WHITE_CODE, WHITE, 0)).astype(np.int8)
    board = Board(19)
    board.set_array(grid)
    board.to_play = to_play
    return board


def kata_probs(examples: Examples, rows: np.ndarray, evaluator) -> np.ndarray:
    """KataGo's region-restricted policy as a 723-vector (White, Black, no move) per example."""
    predictor = KataPolicyPredictor(evaluator, depth_cap=10 ** 6)
    a = examples.arrays
    requests = []
    for i in rows:
        region = Region(0, frozenset(unflat(p) for p in np.nonzero(a["region"][i])[0]))
        requests.append(PredictionRequest(board_of(a["codes"][i], int(a["to_play"][i])), (), region))
    out = np.zeros((len(rows), 723))
    for start in range(0, len(requests), 16):
        for j, pred in enumerate(predictor.predict(requests[start:start + 16])):
            v = np.zeros(723)
            for (r, c), p in pred.white.items():
                v[r * 19 + c] = p
            for (r, c), p in pred.black.items():
                v[POINTS + r * 19 + c] = p
            v[NO_MOVE] = pred.no_move
            out[start + j] = v / v.sum() if v.sum() > 0 else np.eye(723)[NO_MOVE]
    return out


def line(name: str, m: dict) -> str:
    return (f"{name:<34} {m['examples']:>7} {m['top1']:>6.3f} {m['top5']:>6.3f} {m['color_accuracy']:>6.3f} "
            f"{m['no_move_precision']:>6.3f} {m['no_move_recall']:>6.3f} {m.get('answer_auc', float('nan')):>6.3f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=20000, help="test examples scored by the network")
    parser.add_argument("--kata-examples", type=int, default=500, help="of those, scored by KataGo too (slow on CPU)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--weights", default=str(DEFAULT_WEIGHTS))
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    try:
        examples, stats = load(splits=("test",))
    except FileNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    diagrams = int((examples.arrays["cutout"] > 0).sum())
    if diagrams:  # the figure stays the whole-board one: cut-out diagrams of the same sequences are left out
        examples = examples.select(np.nonzero(examples.arrays["cutout"] == 0)[0])
        print(f"left out: {diagrams} cut-out diagram examples (scored on whole-board positions only)")
    model, meta = load_weights(args.weights)
    rng = np.random.default_rng(args.seed)
    n = min(args.examples, len(examples))
    rows = np.sort(rng.choice(len(examples), n, replace=False))
    sample = examples.select(rows)
    start = time.perf_counter()
    probs, answers = predict(model, sample.compact())
    net_seconds = time.perf_counter() - start
    target, answer = sample.arrays["target"].astype(np.int64), sample.arrays["answer"]
    net = move_metrics(probs, target)
    labelled = answer >= 0
    net["answer_auc"] = auc(answers[labelled], answer[labelled] == 1)
    print(f"machine: {platform.machine()}, {args.threads} CPU threads; weights: {args.weights} (step {meta.get('step')})")
    print(f"test split: {stats['games_by_split']['test']} games, {len(examples)} examples; scored: {n} "
          f"(seed {args.seed}), no-move share {float((target == NO_MOVE).mean()):.3f}, "
          f"answer-labelled {int(labelled.sum())} (answers {float(answer[labelled].mean()):.3f})")
    print(f"network: {net_seconds / max(1, n) * 1000:.2f} ms per example (batches of 256)")
    print(f"{'predictor':<34} {'n':>7} {'top1':>6} {'top5':>6} {'colour':>6} {'noP':>6} {'noR':>6} {'ansAUC':>6}")
    print(line("net (all scored examples)", net))
    k = min(args.kata_examples, n)
    if k > 0:
        from tengen.eval.katago import KataGoEvaluator

        sub = np.sort(rng.choice(n, k, replace=False))
        evaluator = KataGoEvaluator(threads=args.threads)
        kp = kata_probs(sample, sub, evaluator)
        net_sub = move_metrics(probs[sub], target[sub])
        lab = labelled[sub]
        net_sub["answer_auc"] = auc(answers[sub][lab], answer[sub][lab] == 1)
        print(line("net (KataGo subsample)", net_sub))
        print(line("kata: KataGo policy in the region", move_metrics(kp, target[sub])))
    print(f"top1: {net['top1']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
