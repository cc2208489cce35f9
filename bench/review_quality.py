"""Does the review's "this move lost N points" agree with the network's point loss (issue 41)? On the shared
KGS 6d+ records that end with counted territory (TB/TW markup: games played out to the end, so the endgame
is all there), the review runs from its automatic start to the last move; the moves it flags as losing at
least 2 points by the regions' values are compared with the network's point loss at the same moves
(KaTrain's: score lead before minus after, the mover's side; one network evaluation per position).

A flagged move agrees when the network's loss there is at least 1 point (the network's own single
evaluation moves by about a point between quiet moves, so a stricter line would mostly measure its noise;
the share at 2 points is printed too). The disagreements are listed, and the other way round, the moves
the network puts at 2 points or more that the review does not flag.
Usage: python bench/review_quality.py [--games 20] [--seed 1]
"""
from __future__ import annotations

import argparse
import os
import platform
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from endgame_cost import GAMES, records  # noqa: E402

from tengen.api import default_evaluator  # noqa: E402
from tengen.endgame.evalcache import CachedEvaluator  # noqa: E402
from tengen.endgame.options import AnalysisOptions  # noqa: E402
from tengen.endgame.review import MISTAKE, review_game  # noqa: E402
from tengen.go.coords import to_gtp  # noqa: E402

LIST = GAMES / "kgs_games_with_TB_TW_territory.txt"
ARCHIVE = GAMES / "kgs_6d_godmoves_36692.tar.xz"
AGREE = 1.0  # the network's loss from which it "also sees" a loss


def kgs_games(n: int, seed: int):
    names = [line.strip() for line in LIST.read_text().splitlines() if line.strip()]
    wanted = set(random.Random(seed).sample(names, n))
    return records(ARCHIVE, wanted)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not LIST.exists() or not ARCHIVE.exists():
        print(f"KGS territory records not found under {GAMES}: nothing to measure")
        return 1
    import torch

    options = AnalysisOptions().resolved()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, torch {torch.__version__}; settings: tengen "
          f"review's defaults (predictor {options.predictor}, leaves {options.leaf_scoring}); flagged: a loss of "
          f"{MISTAKE:g} points or more by the regions' values; agreement: the network's loss at least {AGREE:g}")
    flagged, agree, agree2, valued, missed, total = [], 0, 0, 0, [], 0
    for game in kgs_games(args.games, args.seed):
        review = review_game(game, CachedEvaluator(default_evaluator()), options)
        valued += sum(1 for m in review.moves if m.loss is not None)
        mine = [m for m in review.moves if m.loss is not None and m.loss >= MISTAKE and m.network_loss is not None]
        for m in mine:
            agree += m.network_loss >= AGREE
            agree2 += m.network_loss >= MISTAKE
            if m.network_loss < AGREE:
                flagged.append((game.source, m))
        missed += [(game.source, m) for m in review.moves if m.network_loss is not None and m.network_loss >= MISTAKE
                   and (m.loss is None or m.loss < MISTAKE)]
        print(f"{game.source}: moves {review.start}-{len(game.moves)} ({review.start_reason.split(':')[0]}), "
              f"{len(mine)} flagged, {sum(1 for m in mine if m.network_loss >= AGREE)} agreed; {review.seconds:.0f} s",
              flush=True)
        total += len(mine)
    print(f"\nflagged moves where the network saw less than {AGREE:g} point lost ({len(flagged)}):")
    for source, m in flagged:
        print(f"  {source} move {m.number} {to_gtp(m.move, 19)}: review {m.loss:.1f}, network {m.network_loss:.1f}: "
              f"{m.reason}")
    print(f"moves the network puts at {MISTAKE:g}+ points that the review does not flag ({len(missed)}):")
    for source, m in missed:
        review_loss = "not valued" if m.loss is None else f"{m.loss:.1f}"
        print(f"  {source} move {m.number} {to_gtp(m.move, 19)}: network {m.network_loss:.1f}, review {review_loss}: "
              f"{m.reason}")
    print(f"valued moves {valued}; flagged {total}; the network's loss >= {MISTAKE:g} on "
          f"{agree2}/{total} of them")
    print(f"flagged_agreement: {agree / total if total else 0:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
