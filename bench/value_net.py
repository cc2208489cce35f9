"""The seed's value-network comparison on held-out records: the four variants (VN, ML-VN, BV-VN, BV-ML-VN, trained
together on the same data: models/valuenet/comparison/ and the shipped models/valuenet/bvmlvn.pt; a shipped
BV-ML-VN from another run would get its own column, `shipped`) and KataGo's own win rate at the game's komi, on positions of test-split
games (split by game hash, never trained on) of the games pack.

MSE as in the seed: half the mean of (z - v)^2, z = +1 when Black won at the game's komi else -1, v = 2p - 1.
Rows by move number (buckets of 25 moves, pooled from 275), columns per model; then the komi 7.5, 6.5 and 0.5
subsets. The d-prediction rate (the multi-komi variants): at a position of a game whose final difference is n,
the curve must say Black wins at the largest komi below n - d and loses at the smallest komi above n + d (the
final score located within d points); positions whose komi values fall off the 41-komi grid are left out. Early
= moves before 150, late = from move 150.
Last line: `mse_bvmlvn: X` (the shipped BV-ML-VN, all positions, the game's komi).
Usage: python bench/value_net.py [--games 200] [--every 10] [--threads 2] [--no-kata]
"""
from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from tengen.eval.valuenet.curve import curve_at
from tengen.go import IllegalMove
from tengen.eval.valuenet.model import KOMIS, VARIANTS
from tengen.eval.valuenet.weights import default_weights, variant_weights
from tengen.train.splits import split_of
from tengen.train.valuedata.build import game_board
from tengen.train.valuedata.pack import GamesPack, pack_path

BUCKET, POOL_FROM = 25, 275


def test_positions(pack: GamesPack, games: int, every: int) -> tuple[list, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(boards, move numbers, n, komi, game index) of every `every`-th position of `games` test games spread evenly
    over the pack (every collection)."""
    boards, moves, ns, komis, gidx = [], [], [], [], []
    test = [i for i in range(len(pack)) if split_of(int(pack.arrays["key"][i])) == 2]
    picked = [test[int(j)] for j in np.linspace(0, len(test) - 1, min(games, len(test)))] if test else []
    taken = 0
    for i in picked:
        game = pack.game(i)
        board = game_board(game)
        kept: list[tuple] = []
        try:
            for m in range(0, len(game.moves)):
                if m % every == 0:
                    b = board.copy()
                    b.to_play = game.moves[m][0]
                    kept.append((b, m))
                color, point = game.moves[m]
                board.play(color, point)
        except IllegalMove:
            continue  # a broken record (the dataset build leaves it out too)
        taken += 1
        for b, m in kept:
            boards.append(b)
            moves.append(m)
            ns.append(game.n)
            komis.append(game.komi)
            gidx.append(taken)
    return boards, np.asarray(moves), np.asarray(ns), np.asarray(komis), np.asarray(gidx)


def mse(p: np.ndarray, z: np.ndarray) -> float:
    return float(0.5 * np.mean((z - (2 * p - 1)) ** 2)) if len(z) else float("nan")


def d_prediction(curves: np.ndarray, n: np.ndarray, d: int) -> tuple[float, int]:
    """(rate, positions counted) of the d-prediction on multi-komi curves."""
    ok = total = 0
    for curve, final in zip(curves, n):
        below = KOMIS[KOMIS < final - d]
        above = KOMIS[KOMIS > final + d]
        if not len(below) or not len(above):
            continue
        lo, hi = np.searchsorted(KOMIS, below[-1]), np.searchsorted(KOMIS, above[0])
        total += 1
        ok += int(curve[lo] > 0.5 and curve[hi] < 0.5)
    return (100.0 * ok / total if total else float("nan")), total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="test-split games")
    parser.add_argument("--every", type=int, default=10, help="keep every k-th position of a game")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--no-kata", action="store_true", help="leave KataGo's column out")
    parser.add_argument("--model", action="append", default=[], metavar="NAME=PATH",
                        help="another multi-komi weights file as a column (repeatable)")
    args = parser.parse_args()
    import torch

    from tengen.eval.valuenet.evaluator import ValueNetEvaluator

    torch.set_num_threads(args.threads)
    path = pack_path()
    if not path.is_file():
        print(f"building the games pack ({path}) first")
        subprocess.run([sys.executable, "-m", "tengen.train.valuedata", "pack"], check=True)
    pack = GamesPack.load(path)
    boards, moves, n, komi, _ = test_positions(pack, args.games, args.every)
    z = np.where(n > komi, 1.0, -1.0)
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, torch threads {torch.get_num_threads()}; "
          f"{len(boards)} positions (every {args.every}th) of {args.games} test games")
    probs: dict[str, np.ndarray] = {}
    curves: dict[str, np.ndarray] = {}
    columns = [(v, variant_weights(v)) for v in VARIANTS]
    shipped = default_weights()
    if shipped is not None and all(path.resolve() != shipped.resolve() for _, path in columns):
        columns.append(("shipped", shipped))  # a shipped model other than the comparison run's BV-ML-VN
    for spec in args.model:
        name, _, path = spec.partition("=")
        columns.append((name, Path(path)))
    for variant, weights in columns:
        if not weights.is_file():
            print(f"{variant}: no weights at {weights}; left out")
            continue
        ev = ValueNetEvaluator(weights, batch_size=256)
        start = time.perf_counter()
        values = np.concatenate([ev.raw(boards[i:i + 1024])[0] for i in range(0, len(boards), 1024)])
        print(f"{variant}: {len(boards) / (time.perf_counter() - start):.0f} positions/s")
        if values.shape[1] == len(KOMIS):
            curves[variant] = values
            probs[variant] = curve_at(values, komi)
        else:
            probs[variant] = values[:, 0]
    if not args.no_kata:
        from tengen.eval.katago.evaluator import KataGoEvaluator

        kata = KataGoEvaluator(batch_size=32, cache_size=0)
        start = time.perf_counter()
        probs["katago"] = np.asarray([e.winrate for i in range(0, len(boards), 256)
                                      for e in kata.evaluate(boards[i:i + 256])])
        print(f"katago: {len(boards) / (time.perf_counter() - start):.1f} positions/s")
    names = list(probs)
    bucket = np.minimum(moves // BUCKET, POOL_FROM // BUCKET)
    print()
    print("MSE at the game's komi by move number:")
    print("| moves | positions | " + " | ".join(names) + " |")
    print("|---|---|" + "---|" * len(names))
    for b in range(POOL_FROM // BUCKET + 1):
        sel = bucket == b
        label = f"{b * BUCKET}-{b * BUCKET + BUCKET - 1}" if b < POOL_FROM // BUCKET else f"{POOL_FROM}+"
        print(f"| {label} | {int(sel.sum())} | " + " | ".join(f"{mse(probs[k][sel], z[sel]):.4f}" for k in names) + " |")
    print(f"| all | {len(z)} | " + " | ".join(f"{mse(probs[k], z):.4f}" for k in names) + " |")
    print()
    print("MSE by the game's komi:")
    print("| komi | positions | " + " | ".join(names) + " |")
    print("|---|---|" + "---|" * len(names))
    for k in (7.5, 6.5, 0.5):
        sel = komi == k
        print(f"| {k} | {int(sel.sum())} | " + " | ".join(f"{mse(probs[m][sel], z[sel]):.4f}" for m in names) + " |")
    if curves:
        print()
        print("d-prediction rate (percent; early = moves < 150, late = from 150):")
        print("| d | " + " | ".join(f"{v} early | {v} late" for v in curves) + " |")
        print("|---|" + "---|---|" * len(curves))
        for d in range(8):
            cells = []
            for v, c in curves.items():
                for sel in (moves < 150, moves >= 150):
                    rate, _ = d_prediction(c[sel], n[sel], d)
                    cells.append(f"{rate:.1f}")
            print(f"| {d} | " + " | ".join(cells) + " |")
    final = "shipped" if "shipped" in probs else "bvmlvn"
    if final in probs:
        print(f"mse_bvmlvn: {mse(probs[final], z):.4f}")
    else:
        print("mse_bvmlvn: nan (no BV-ML-VN weights)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
