"""Playouts per second of the native playout search (`tengen.search._uct`) on 19x19, from the empty board.

Measures (a) raw playouts with the full heuristic policy (Mogo's answer-atari, 3x3 patterns, capture, random
non-eye moves without big self-ataris; area score), no tree, one thread; (b) the full search (UCT + RAVE tree,
expansion, AMAF backup, playouts) single thread for a fixed number of playouts (no early stop: the budget is
run to the end); (c) the same with 2 threads (root parallelism) when the machine has 2 or more cores, total
and per thread. Numpy's BLAS is kept to one thread so nothing else competes for the cores.

    python bench/playout_speed.py [--raw 5000] [--playouts 20000] [--size 19] [--seed 1]

Last line `playouts_per_s: X`: (b), single-thread search playouts per second (per core).
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import platform  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from tengen.search import _uct  # noqa: E402


def search_rate(size: int, playouts: int, threads: int, seed: int) -> tuple[float, int, float]:
    """(playouts per second, playouts, seconds) of one search from the empty board, run to the full budget
    (no early stop)."""
    engine = _uct.Engine(size, size, threads=threads, seed=seed)
    raw = engine.search(bytes(size * size), 1, 7.5, playouts, early_stop=False)
    return raw["playouts"] / raw["seconds"], raw["playouts"], raw["seconds"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--raw", type=int, default=5000, help="raw playouts for (a) (default 5000)")
    parser.add_argument("--playouts", type=int, default=20000, help="search playouts for (b) and (c) (default 20000)")
    parser.add_argument("--size", type=int, default=19)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    print(f"machine: {cores} cores (os.cpu_count), processor {platform.processor() or 'unknown'}, "
          f"{platform.machine()}, Python {platform.python_version()}")
    print(f"board {args.size}x{args.size}, empty, komi 7.5, Black to play")
    size = args.size
    wins, moves, seconds, _ = _uct.playouts(bytes(size * size), size, size, 1, 7.5, args.raw, seed=args.seed)
    print(f"(a) raw heavy playouts, 1 thread: {args.raw / seconds:,.0f} playouts/s ({args.raw} in {seconds:.2f} s, "
          f"{moves / args.raw:.0f} moves a playout, {moves / seconds / 1e6:.2f} M moves/s, Black wins {wins / args.raw:.3f})")
    rate, n, secs = search_rate(size, args.playouts, 1, args.seed)
    print(f"(b) search (UCT + RAVE + playouts), 1 thread: {rate:,.0f} playouts/s ({n} in {secs:.2f} s)")
    if cores >= 2:
        rate2, n2, secs2 = search_rate(size, 2 * args.playouts, 2, args.seed)
        print(f"(c) search, 2 threads (root parallelism): {rate2:,.0f} playouts/s in all, {rate2 / 2:,.0f} per thread "
              f"({n2} in {secs2:.2f} s; the cores are shared with whatever else runs)")
    else:
        print("(c) search, 2 threads: skipped (one core)")
    print(f"playouts_per_s: {rate:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
