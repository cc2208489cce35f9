"""How fast does tengen's search run with the KataGo network, and how much of its time is outside the network?

For batch sizes 1, 8, 16 and 32 on a 19x19 middle-game position (the bundled example at move 120): the
search's visits per second (a root already expanded, then `--visits` more playouts into the same tree) and,
in the same run, the raw evaluations per second of the evaluator itself on batches of that size (the
same `KataGoEvaluator.evaluate` call the search makes: feature encoding, the forward pass, post-processing).
The overhead is the share of the search's wall time spent outside evaluator calls (tree selection, board
copies, expansion, backup), measured inside the search run: 1 - network seconds / search seconds.

    python bench/search_speed.py [--threads 2] [--visits 96] [--batches 1,8,16,32] [--device cpu]

The last line is `overhead: X` at batch 16.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # before torch starts its OpenMP pool

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from tengen.eval.katago import KataGoEvaluator  # noqa: E402
from tengen.go.position import load_position  # noqa: E402
from tengen.search import Search, SearchConfig  # noqa: E402

EXAMPLE = REPO / "src" / "tengen" / "data" / "example.sgf"


def raw_rate(evaluator: KataGoEvaluator, boards: list, batch: int, rounds: int) -> float:
    """Evaluations per second of `evaluate` on `rounds` batches of `batch` distinct positions."""
    evaluator.evaluate(boards[:batch])  # warm-up
    t0 = time.perf_counter()
    for _ in range(rounds):
        evaluator.evaluate(boards[:batch])
    return rounds * batch / (time.perf_counter() - t0)


def search_rate(evaluator: KataGoEvaluator, board, batch: int, visits: int) -> tuple[float, float, int]:
    """(visits per second, share of time outside the evaluator, visits) of one search past its root."""
    search = Search(evaluator, SearchConfig(visits=visits + 1, batch_size=batch, root_symmetries=1))
    search.run(board, visits=1)  # the root: expanded, then the timed playouts go into the same tree
    result = search.run(board, visits=visits + 1)
    done = result.visits - 1
    return done / result.seconds, 1.0 - result.network_seconds / result.seconds, done


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--visits", type=int, default=96, help="timed playouts per batch size")
    parser.add_argument("--batches", default="1,8,16,32")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--move", type=int, default=120)
    args = parser.parse_args()
    batches = [int(b) for b in args.batches.split(",")]

    evaluator = KataGoEvaluator(device=args.device, threads=args.threads, batch_size=max(batches))
    board = load_position(EXAMPLE, args.move).board
    # distinct positions for the raw rate: the example's positions around the searched one
    boards = [load_position(EXAMPLE, args.move - 16 + i).board for i in range(max(batches))]
    print(f"network: {evaluator.desc.name}, device {evaluator.device}, threads {args.threads}, "
          f"position: example.sgf move {args.move}, {args.visits} timed playouts per batch size")
    print(f"{'batch':>5} {'visits/s':>9} {'raw evals/s':>12} {'visits/raw':>10} {'overhead':>9}")
    overhead_at = {}
    for batch in batches:
        rounds = max(2, args.visits // batch)
        raw = raw_rate(evaluator, boards, batch, rounds)
        rate, overhead, done = search_rate(evaluator, board, batch, args.visits)
        overhead_at[batch] = overhead
        print(f"{batch:>5} {rate:>9.2f} {raw:>12.2f} {rate / raw:>10.3f} {overhead:>9.3f}")
    key = 16 if 16 in overhead_at else batches[-1]
    print(f"overhead: {overhead_at[key]:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
