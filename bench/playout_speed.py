"""Playouts per second of the native playout search (`tengen.search._uct`) on 19x19, from the empty board.

Measures (a) raw playouts with the full heuristic policy (Mogo's answer-atari, 3x3 patterns, capture, random
non-eye moves without big self-ataris; area score), no tree, one thread; (b) the full search (UCT + RAVE tree,
expansion, AMAF backup, playouts) single thread for a fixed number of playouts (no early stop: the budget is
run to the end); (c) the same with 2 threads (root parallelism) when the machine has 2 or more cores, total
and per thread. Numpy's BLAS is kept to one thread so nothing else competes for the cores. `checksum`: the
FNV-1a hash of (a)'s playouts' moves (`playout_checksum`, the same playouts): a change that keeps the moves
keeps it.

    python bench/playout_speed.py [--raw 5000] [--playouts 20000] [--size 19] [--seed 1]
    python bench/playout_speed.py --against CHECKOUT_OR_SO [--rounds 5]

`--against` compares this checkout's build with another build of the engine in the same run: a checkout
(its `src/tengen/search/_uct*.so`, or `src/tengen/go/_uct*.so` where the engine lived before) or the `.so`
itself; the two alternate, `--rounds` times each; each figure is the median of its rounds, the best in
parentheses (the least disturbed by other work on a shared machine).

Last line `playouts_per_s: X`: (b), single-thread search playouts per second (per core), of this build.
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import importlib.util  # noqa: E402
import platform  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from tengen.search import _uct  # noqa: E402

# Where a checkout keeps the engine's build: now, and before it moved beside search/native_uct.py.
BUILD_DIRS = ("src/tengen/search", "src/tengen/go")


def load_engine(where: str):
    """The engine module built at `where`: a `.so` file, or a checkout holding one (see BUILD_DIRS)."""
    path = Path(where)
    if path.is_dir():
        found = [so for d in BUILD_DIRS for so in sorted((path / d).glob("_uct*.so"))]
        if not found:
            raise SystemExit(f"--against {where}: no _uct*.so under {' or '.join(BUILD_DIRS)} (build it there first)")
        path = found[0]
    if not path.is_file():
        raise SystemExit(f"--against {where}: not a file or a checkout")
    spec = importlib.util.spec_from_file_location("against._uct", path)  # the name's last part picks PyInit__uct
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.__file__ = str(path)
    return module


def search_rate(engine_module, size: int, playouts: int, threads: int, seed: int) -> tuple[float, int, float]:
    """(playouts per second, playouts, seconds) of one search from the empty board, run to the full budget
    (no early stop)."""
    engine = engine_module.Engine(size, size, threads=threads, seed=seed)
    raw = engine.search(bytes(size * size), 1, 7.5, playouts, early_stop=False)
    return raw["playouts"] / raw["seconds"], raw["playouts"], raw["seconds"]


def measure(engine_module, args, cores: int) -> dict:
    """One round of (a), (b) and (c) with `engine_module`."""
    size = args.size
    wins, moves, seconds, _ = engine_module.playouts(bytes(size * size), size, size, 1, 7.5, args.raw, seed=args.seed)
    out = {"raw_rate": args.raw / seconds, "raw_seconds": seconds, "moves": moves, "wins": wins}
    out["rate"], out["n"], out["secs"] = search_rate(engine_module, size, args.playouts, 1, args.seed)
    if cores >= 2:
        out["rate2"], out["n2"], out["secs2"] = search_rate(engine_module, size, 2 * args.playouts, 2, args.seed)
    return out


def checksum(engine_module, args) -> str:
    size = args.size
    digest, _, _ = engine_module.playout_checksum(bytes(size * size), size, size, 1, 7.5, args.raw, seed=args.seed)
    return f"{digest:#018x}"


def report_one(r: dict, args, cores: int) -> None:
    print(f"(a) raw heavy playouts, 1 thread: {r['raw_rate']:,.0f} playouts/s ({args.raw} in {r['raw_seconds']:.2f} s, "
          f"{r['moves'] / args.raw:.0f} moves a playout, {r['moves'] / r['raw_seconds'] / 1e6:.2f} M moves/s, "
          f"Black wins {r['wins'] / args.raw:.3f})")
    print(f"(b) search (UCT + RAVE + playouts), 1 thread: {r['rate']:,.0f} playouts/s ({r['n']} in {r['secs']:.2f} s)")
    if cores >= 2:
        print(f"(c) search, 2 threads (root parallelism): {r['rate2']:,.0f} playouts/s in all, {r['rate2'] / 2:,.0f} per "
              f"thread ({r['n2']} in {r['secs2']:.2f} s; the cores are shared with whatever else runs)")
    else:
        print("(c) search, 2 threads: skipped (one core)")


def compare(other, args, cores: int) -> float:
    """Alternate this build and `other`, args.rounds rounds each; print the medians; this build's (b)."""
    print(f"this build: {_uct.__file__}")
    print(f"against:    {other.__file__}")
    mine, theirs = checksum(_uct, args), checksum(other, args)
    print(f"checksum of (a)'s playouts: this {mine}, against {theirs} ({'the same moves' if mine == theirs else 'DIFFERENT moves'})")
    rounds: dict[str, list[dict]] = {"this": [], "against": []}
    for _ in range(args.rounds):
        rounds["this"].append(measure(_uct, args, cores))
        rounds["against"].append(measure(other, args, cores))
    keys = [("raw_rate", "(a) raw heavy playouts, 1 thread"), ("rate", "(b) search (UCT + RAVE + playouts), 1 thread")]
    if cores >= 2:
        keys.append(("rate2", "(c) search, 2 threads, in all"))
    print(f"medians (and bests) of {args.rounds} alternating rounds, playouts/s (each round: {args.raw} raw, "
          f"{args.playouts} searched, {2 * args.playouts} on 2 threads):")
    for key, label in keys:
        a = statistics.median(r[key] for r in rounds["this"])
        b = statistics.median(r[key] for r in rounds["against"])
        best_a, best_b = max(r[key] for r in rounds["this"]), max(r[key] for r in rounds["against"])
        print(f"{label}: this {a:,.0f} ({best_a:,.0f}), against {b:,.0f} ({best_b:,.0f}): "
              f"{100 * (a / b - 1):+.1f} % ({100 * (best_a / best_b - 1):+.1f} %)")
    return statistics.median(r["rate"] for r in rounds["this"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--raw", type=int, default=5000, help="raw playouts for (a) (default 5000)")
    parser.add_argument("--playouts", type=int, default=20000, help="search playouts for (b) and (c) (default 20000)")
    parser.add_argument("--size", type=int, default=19)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--against", metavar="CHECKOUT_OR_SO",
                        help="another build of the engine to time in the same run, alternating with this one")
    parser.add_argument("--rounds", type=int, default=5, help="with --against: rounds of each build (default 5)")
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    print(f"machine: {cores} cores (os.cpu_count), processor {platform.processor() or 'unknown'}, "
          f"{platform.machine()}, Python {platform.python_version()}")
    print(f"board {args.size}x{args.size}, empty, komi 7.5, Black to play")
    if args.against:
        rate = compare(load_engine(args.against), args, cores)
    else:
        print(f"checksum of (a)'s playouts: {checksum(_uct, args)}")
        result = measure(_uct, args, cores)
        report_one(result, args, cores)
        rate = result["rate"]
    print(f"playouts_per_s: {rate:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
