"""What a game review costs with regions reused between moves, against analyzing every position afresh, in one
run (issue 41): the last N moves of shared professional records (the finished-games list's Brouwer
collection, seeded; records of at least N + 150 moves, so that the moves reviewed are the endgame's, not
the middle game's), network evaluations and seconds per move for both, and how often a reused review and
a fresh one disagree on a move's region, hottest temperature or loss.

The fresh path is what running `tengen analyze` on every position costs (each position its own evaluation
cache, no region reused; each position analyzed once, as the reused review does). `--fresh-every K`
analyzes afresh only every K-th reviewed move's two positions, charged half (a sample of the same moves,
stated in the output) when the full anchor would not fit a session.
Settings: the CLI's defaults (`tengen review`).
Usage: python bench/review_cost.py [--games 10] [--moves 100] [--seed 1] [--fresh-every 1]
"""
from __future__ import annotations

import argparse
import os
import platform
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from endgame_cost import GAMES, PRO_ARCHIVE, listed, records  # noqa: E402

from tengen.api import default_evaluator  # noqa: E402
from tengen.endgame.options import AnalysisOptions  # noqa: E402
from tengen.endgame.evalcache import CachedEvaluator  # noqa: E402
from tengen.endgame.review import review_game  # noqa: E402

def pro_games(n: int, seed: int, min_moves: int):
    """`n` professional records of at least `min_moves` moves from the finished-games list (seeded)."""
    wanted = {row[1] for row in random.Random(seed).sample(listed(PRO_ARCHIVE, min_moves), n)}
    return records(GAMES / PRO_ARCHIVE, wanted)


def fresh_reviews(game, evaluator, options, numbers: range):
    """(move number, its review) with every position analyzed afresh. When every move is asked for: one
    fresh review of the range, each position analyzed once (the first move also carries the position
    before the range, as the reused review's first move does); else a one-move review per sampled move,
    charged half its two positions."""
    if numbers.step == 1:
        review = review_game(game, evaluator, options, numbers.start, numbers.stop - 1, reuse=False)
        yield from ((m.number, m) for m in review.moves)
        return
    for number in numbers:
        one = review_game(game, evaluator, options, number, number, reuse=False).moves[0]
        one.evaluations, one.seconds = one.evaluations / 2, one.seconds / 2
        yield number, one


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--moves", type=int, default=100, help="the last N moves of each record")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fresh-every", type=int, default=1, help="analyze afresh every K-th move (default: all)")
    args = parser.parse_args()
    if not GAMES.exists():
        print(f"game archives not found under {GAMES}: nothing to measure")
        return 1
    import torch

    options = AnalysisOptions().resolved()
    reuse_net, fresh_net = CachedEvaluator(default_evaluator()), default_evaluator()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, torch {torch.__version__} with "
          f"{torch.get_num_threads()} threads; settings: tengen review's defaults (predictor {options.predictor}, "
          f"leaves {options.leaf_scoring}); fresh anchor on every {args.fresh_every}. move")
    totals = {"reuse": [0, 0.0, 0], "fresh": [0, 0.0, 0]}  # evaluations, seconds, moves
    differ = {"region": 0, "hottest": 0, "loss": 0}
    compared = 0
    for game in pro_games(args.games, args.seed, args.moves + 150):  # the last N moves start after move 150
        total = len(game.moves)
        start = total - args.moves + 1
        reused = review_game(game, reuse_net, options, start, total)
        totals["reuse"][0] += reused.evaluations
        totals["reuse"][1] += reused.seconds
        totals["reuse"][2] += len(reused.moves)
        fresh_moves = range(start, total + 1, args.fresh_every)
        fresh_evals, fresh_seconds = 0, 0.0
        for number, theirs in fresh_reviews(game, fresh_net, options, fresh_moves):
            fresh_evals += theirs.evaluations
            fresh_seconds += theirs.seconds
            mine = reused.moves[number - start]
            compared += 1
            differ["region"] += (mine.region_points != theirs.region_points  # labels are board order: not compared
                                 or mine.region_temperature != theirs.region_temperature)
            differ["hottest"] += mine.hottest_temperature != theirs.hottest_temperature
            differ["loss"] += (mine.loss is None) != (theirs.loss is None) or (
                mine.loss is not None and abs(mine.loss - theirs.loss) >= 0.5)
        totals["fresh"][0] += fresh_evals
        totals["fresh"][1] += fresh_seconds
        totals["fresh"][2] += len(fresh_moves)
        print(f"{game.source}: moves {start}-{total}: reuse {reused.evaluations / len(reused.moves):.1f} evaluations, "
              f"{reused.seconds / len(reused.moves):.2f} s per move (regions reused {reused.region_hits}, analyzed "
              f"{reused.region_misses}); fresh {fresh_evals / len(fresh_moves):.1f} evaluations, "
              f"{fresh_seconds / len(fresh_moves):.2f} s per move", flush=True)
    per_move = {name: (t[0] / max(t[2], 1), t[1] / max(t[2], 1)) for name, t in totals.items()}
    print(f"per move: reuse {per_move['reuse'][0]:.1f} evaluations, {per_move['reuse'][1]:.2f} s; fresh "
          f"{per_move['fresh'][0]:.1f} evaluations, {per_move['fresh'][1]:.2f} s "
          f"({totals['fresh'][2]} of {totals['reuse'][2]} moves analyzed afresh)")
    print(f"reused vs fresh on {compared} moves: the move's region (its points) or its temperature differs on "
          f"{differ['region']}, "
          f"the hottest temperature on {differ['hottest']}, the loss (by 0.5 or more, or valued vs not) on "
          f"{differ['loss']} (a fresh analysis regrows every tree: its budgets and the network's view of the rest "
          f"of the board differ)")
    print(f"evaluations_ratio: {per_move['fresh'][0] / max(per_move['reuse'][0], 1e-9):.2f}")
    print(f"reuse_speedup: {per_move['fresh'][1] / max(per_move['reuse'][1], 1e-9):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
