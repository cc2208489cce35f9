"""Where a reused game review's time goes, move by move: the analysis phases summed over the moves (seconds
and network rows, `tengen.phases`), why leaves were deferred to KataGo, and per move the regions analyzed
again (their size, evaluations charged, and their distance from the move). What decides `review_cost.py`'s
reuse_speedup: the region a move touches and its neighbours are analyzed again each move.
Usage: python bench/review_profile.py [--game Q38] [--from 166] [--moves 30] [--seed 1]
(the game: a substring of a professional record's path among review_cost.py's ten records)
"""
from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from review_cost import pro_games  # noqa: E402

from tengen.api import default_evaluator  # noqa: E402
from tengen.endgame import review as review_module  # noqa: E402
from tengen.endgame.evalcache import CachedEvaluator  # noqa: E402
from tengen.endgame.options import AnalysisOptions  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="Q38")
    parser.add_argument("--from", dest="start", type=int, default=166)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    games = [g for g in pro_games(10, args.seed, 250) if args.game in g.source]
    if not games:
        print(f"no record matching {args.game!r} among the ten of review_cost.py (seed {args.seed})")
        return 1
    game = games[0]
    phases: dict[str, list] = defaultdict(lambda: [0.0, 0])
    events: dict[str, int] = defaultdict(int)
    analyzed = []
    analyze_board = review_module.analyze_board

    def recording(board, *rest, **kwargs):  # the review's analyses, each recorded as it is made
        analysis = analyze_board(board, *rest, **kwargs)
        for path, stat in analysis.phases.stats.items():
            phases[path][0] += stat.seconds
            phases[path][1] += stat.rows
        for event, count in analysis.phases.events.items():
            events[event] += count
        last = board.moves[-1][1] if board.moves else None
        again = [(len(r.region.points), r.evaluations, None if last is None else
                  min(abs(p[0] - last[0]) + abs(p[1] - last[1]) for p in r.region.points))
                 for r in analysis.regions if not r.reused and r.region.points]
        analyzed.append((len(board.moves), sorted(again, key=lambda x: -x[1])))
        return analysis

    review_module.analyze_board = recording
    end = min(len(game.moves), args.start + args.moves - 1)
    review = review_module.review_game(game, CachedEvaluator(default_evaluator()), AnalysisOptions().resolved(),
                                       args.start, end)
    moves = len(review.moves)
    print(f"{game.source}: moves {args.start}-{end}: {review.seconds / moves:.2f} s and "
          f"{review.evaluations / moves:.1f} network evaluations a move; regions reused {review.region_hits}, "
          f"analyzed {review.region_misses}")
    print("phases (seconds, network rows), summed over the positions:")
    for path, (seconds, rows) in sorted(phases.items(), key=lambda kv: -kv[1][0])[:12]:
        print(f"  {path:32s} {seconds:7.2f} s  {rows:6d} rows")
    print("events:")
    for event, count in sorted(events.items(), key=lambda kv: -kv[1])[:10]:
        print(f"  {count:6d}  {event}")
    print("regions analyzed again, per position (points, evaluations charged, distance from the last move):")
    for played, again in analyzed[1:]:
        print(f"  after move {played}: " + ", ".join(f"{n} pts/{e} ev/d{d}" for n, e, d in again[:5]))
    print(f"regions_analyzed_per_move: {(review.region_misses - len(analyzed[0][1])) / max(moves, 1):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
