"""Does the review flag real mistakes? On the shared KGS 6d+ records that end with counted territory (TB/TW
markup: games played out to the end, so the endgame is all there), the review runs from its automatic start
to the last move; each move it flags (a loss of at least 2 points by the regions' values) is judged by a
search: tengen's MCTS over the default KataGo network from the position after each candidate (the move
played, the review's orthodox move, KataGo's policy move; `--visits`, default 64), the judge of
`bench/endgame_judge.py`, its answers stored under `--out` (default `bench/results/review_quality`) so a
rerun only judges new moves. The search's loss of a flagged move is the best candidate's judged score lead
minus the played move's (the mover's points).

A flagged move is confirmed when the search's loss is at least 1 point (a 64-visit judge moves by about
half a point between nearly equal moves). Every disagreement is listed with the review's loss, the
search's and the network's one-evaluation loss (KaTrain's: score lead before minus after) and the review's
reason; the moves the network puts at 2 points or more that the review does not flag are listed too.
Last lines: `flagged_agreement: A` (the network one move later, as before) and `flagged_precision: Y` (the
share of flagged moves the search judge says lose at least 1 point).
Usage: python bench/review_quality.py [--games 10] [--seed 1] [--visits 64] [--out DIR]
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from endgame_cost import GAMES, records  # noqa: E402

from endgame_judge import judge, read_jsonl  # noqa: E402

from tengen.api import default_evaluator  # noqa: E402
from tengen.files import append_line  # noqa: E402
from tengen.endgame.evalcache import CachedEvaluator  # noqa: E402
from tengen.endgame.options import AnalysisOptions  # noqa: E402
from tengen.endgame.review import MISTAKE, review_game  # noqa: E402
from tengen.go.coords import to_gtp  # noqa: E402

LIST = GAMES / "kgs_games_with_TB_TW_territory.txt"
ARCHIVE = GAMES / "kgs_6d_godmoves_36692.tar.xz"
AGREE = 1.0  # the loss (network or search) from which a judge "also sees" a loss
REPO = Path(__file__).resolve().parents[1]


def kgs_games(n: int, seed: int):
    names = [line.strip() for line in LIST.read_text().splitlines() if line.strip()]
    wanted = set(random.Random(seed).sample(names, n))
    return records(ARCHIVE, wanted)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--visits", type=int, default=64, help="the search judge's visits per candidate")
    parser.add_argument("--out", default=str(REPO / "bench" / "results" / "review_quality"))
    args = parser.parse_args()
    if not LIST.exists() or not ARCHIVE.exists():
        print(f"KGS territory records not found under {GAMES}: nothing to measure")
        return 1
    import torch

    options = AnalysisOptions().resolved()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, torch {torch.__version__}; settings: tengen "
          f"review's defaults (predictor {options.predictor}, leaves {options.leaf_scoring}); flagged: a loss of "
          f"{MISTAKE:g} points or more by the regions' values; agreement: the network's loss at least {AGREE:g}")
    from tengen.search.mcts import Search
    from tengen.search.results import SearchConfig

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    judged_file = out / "judged.jsonl"
    judged = {(j["key"], j["move"], j["visits_asked"]): j for j in read_jsonl(judged_file)}
    evaluator = default_evaluator()
    search = Search(evaluator, SearchConfig(visits=args.visits, seed=0))
    print(f"search judge: tengen's MCTS, default KataGo network, {args.visits} visits from the position after each "
          f"candidate (played, orthodox, policy), seed 0; confirmed: the search's loss at least {AGREE:g}")
    disagreements, agree, agree2, confirmed, valued, missed, total = [], 0, 0, 0, 0, [], 0
    for game in kgs_games(args.games, args.seed):
        review = review_game(game, CachedEvaluator(evaluator), options)
        valued += sum(1 for m in review.moves if m.loss is not None)
        mine = [m for m in review.moves if m.loss is not None and m.loss >= MISTAKE and m.network_loss is not None]
        seen = 0
        for m in mine:
            agree += m.network_loss >= AGREE
            agree2 += m.network_loss >= MISTAKE
            loss = search_loss(game, m, evaluator, search, args.visits, judged, judged_file)
            seen += loss >= AGREE
            if loss < AGREE:
                disagreements.append((game.source, m, loss))
        confirmed += seen
        missed += [(game.source, m) for m in review.moves if m.network_loss is not None and m.network_loss >= MISTAKE
                   and (m.loss is None or m.loss < MISTAKE)]
        print(f"{game.source}: moves {review.start}-{len(game.moves)} ({review.start_reason.split(':')[0]}), "
              f"{len(mine)} flagged, {seen} confirmed by the search, {sum(1 for m in mine if m.network_loss >= AGREE)} "
              f"by the network; {review.seconds:.0f} s", flush=True)
        total += len(mine)
    print(f"\nflagged moves the search judge puts below {AGREE:g} point lost ({len(disagreements)}):")
    for source, m, loss in disagreements:
        print(f"  {source} move {m.number} {to_gtp(m.move, 19)}: review {m.loss:.1f}, search {loss:.1f}, "
              f"network {m.network_loss:.1f}: {m.reason}")
    print(f"moves the network puts at {MISTAKE:g}+ points that the review does not flag ({len(missed)}):")
    for source, m in missed:
        review_loss = "not valued" if m.loss is None else f"{m.loss:.1f}"
        print(f"  {source} move {m.number} {to_gtp(m.move, 19)}: network {m.network_loss:.1f}, review {review_loss}: "
              f"{m.reason}")
    print(f"valued moves {valued}; flagged {total}; the network's loss >= {MISTAKE:g} on "
          f"{agree2}/{total} of them")
    print(f"flagged_agreement: {agree / total if total else 0:.2f}")
    print(f"flagged_precision: {confirmed / total if total else 0:.2f}")
    return 0


def search_loss(game, m, evaluator, search, visits: int, judged: dict, judged_file: Path) -> float:
    """The search judge's loss of flagged move `m`: the best judged candidate's score lead minus the played
    move's (the mover's points); each judgement stored in `judged_file` and reused."""
    from tengen.endgame.move_check import policy_move

    board = game.board_at(m.number - 1, strict=False)
    key = f"kgs:{game.source}@{m.number - 1}"
    played = to_gtp(m.move, board.height).upper()
    moves = {played, to_gtp(policy_move(board, evaluator), board.height).upper()}
    if m.orthodox is not None:
        moves.add(to_gtp(m.orthodox, board.height).upper())
    leads = {}
    for vertex in sorted(moves):
        found = judged.get((key, vertex, visits))
        if found is None:
            found = {"key": key, "move": vertex, "visits_asked": visits, **judge(board, vertex, search, visits)}
            judged[(key, vertex, visits)] = found
            append_line(judged_file, json.dumps(found, sort_keys=True))
        if found.get("legal"):
            leads[vertex] = found["lead"]
    return max(leads.values()) - leads[played] if played in leads else 0.0


if __name__ == "__main__":
    sys.exit(main())
