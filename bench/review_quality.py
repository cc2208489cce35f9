"""Does the review flag real mistakes? On the shared KGS 6d+ records that end with counted territory (TB/TW
markup: games played out to the end, so the endgame is all there), the review runs from its automatic start
to the last move; each move it charges with a loss of at least 2 points by the regions' values is judged by
a search: tengen's MCTS over the default KataGo network from the position after each candidate (the move
played, the review's orthodox move, KataGo's policy move; `--visits`, default 64), the judge of
`bench/endgame_judge.py`, its answers stored under `--out` (default `bench/results/review_quality`) so a
rerun only judges new moves. The search's loss of a flagged move is the best candidate's judged score lead
minus the played move's (the mover's points).

The review flags (lists as a mistake) such a move unless its own mistake check refutes it (`tengen review`'s
default: a 32-visit search after the move and after the recommended move finds less than 1 point between
them; `tengen.endgame.review`); the check and the judge are both tengen's MCTS over the same network, with
different visits and candidates, so the refuted moves are listed with the judge's verdict on them too.
A flagged move is confirmed when the search's loss is at least 1 point (a 64-visit judge moves by about
half a point between nearly equal moves). Every disagreement is listed with the review's loss, the
search's and the network's one-evaluation loss (KaTrain's: score lead before minus after) and the review's
reason; the moves the network puts at 2 points or more that the review does not flag are listed too.
Each game's review and judgements are stored (`games.jsonl`, `judged.jsonl` under `--out`, appended line by
line), so a stopped run continues with the next game and a rerun with the same settings only reports.
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

from endgame_judge import judged_once, read_jsonl  # noqa: E402

from tengen.api import default_evaluator, review_options, search_look  # noqa: E402
from tengen.files import append_line  # noqa: E402
from tengen.endgame.evalcache import CachedEvaluator  # noqa: E402
from tengen.endgame.options import AnalysisOptions  # noqa: E402
from tengen.endgame.review import ENDGAME_REGION_POINTS, MISTAKE, review_game  # noqa: E402
from tengen.go.coords import to_gtp  # noqa: E402

LIST = GAMES / "kgs_games_with_TB_TW_territory.txt"
ARCHIVE = GAMES / "kgs_6d_godmoves_36692.tar.xz"
AGREE = 1.0  # the loss (network or search) from which a judge "also sees" a loss
REPO = Path(__file__).resolve().parents[1]


def sample_names(n: int, seed: int) -> list[str]:
    """The sampled records' names, in a fixed order."""
    names = [line.strip() for line in LIST.read_text().splitlines() if line.strip()]
    return sorted(random.Random(seed).sample(names, n))


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

    options = review_options(AnalysisOptions().resolved())  # `tengen review`'s: the mistake check's visits
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
    games_file = out / "games.jsonl"
    # what the records depend on (the review's mistake check: the move-check visits, searched after the move and
    # after the recommended one)
    # (and what the analysis does that its settings do not say: a tree left unbounded by its threats is valued by
    # the threatening side's follow-ups, `tengen.endgame.local_games`, since the fifth session of 2026-12-07)
    label = json.dumps({**options.summary(), "visits": args.visits, "mistake_check": options.move_check_visits,
                        "endgame_region_points": ENDGAME_REGION_POINTS, "unbounded_trees": "follow-ups"},
                       sort_keys=True)
    done = {g["game"]: g for g in read_jsonl(games_file) if g.get("label") == label}
    names = sample_names(args.games, args.seed)
    if any(name not in done for name in names):
        for game in records(ARCHIVE, {name for name in names if name not in done}):
            done[game.source] = review_record(game, evaluator, options, search, args.visits, judged, judged_file, label)
            append_line(games_file, json.dumps(done[game.source], sort_keys=True))
            g = done[game.source]
            print(f"{g['game']}: moves {g['start']}-{g['moves']} ({g['start_reason']}), {len(g['flagged'])} flagged, "
                  f"{sum(f['search_loss'] >= AGREE for f in g['flagged'])} confirmed by the search, "
                  f"{sum(f['network_loss'] >= AGREE for f in g['flagged'])} by the network; {g['seconds']:.0f} s",
                  flush=True)
    return summary([done[name] for name in names if name in done])


def review_record(game, evaluator, options, search, visits: int, judged: dict, judged_file: Path, label: str) -> dict:
    """One game's review, its flagged moves judged by the search and the network's big losses it missed."""
    review = review_game(game, CachedEvaluator(evaluator), options, mistake_look=search_look(options))
    flagged = [{"number": m.number, "move": to_gtp(m.move, 19), "review_loss": m.loss, "network_loss": m.network_loss,
                "search_loss": round(search_loss(game, m, evaluator, search, visits, judged, judged_file), 2),
                "check_loss": m.search_loss, "refuted": m.refuted, "reason": m.reason}
               for m in review.moves if m.loss is not None and m.loss >= MISTAKE and m.network_loss is not None]
    missed = [{"number": m.number, "move": to_gtp(m.move, 19), "network_loss": m.network_loss, "review_loss": m.loss,
               "reason": m.reason}
              for m in review.moves if m.network_loss is not None and m.network_loss >= MISTAKE
              and (m.loss is None or m.loss < MISTAKE)]
    search_only = [{"number": m.number, "move": to_gtp(m.move, 19), "check_loss": m.search_loss,
                    "network_loss": m.network_loss, "reason": m.reason}
                   for m in review.searched_only()]  # no value by the regions, 2+ points by the check's search alone
    return {"game": game.source, "label": label, "start": review.start, "moves": len(game.moves),
            "start_reason": review.start_reason.split(":")[0], "valued": sum(m.loss is not None for m in review.moves),
            "valued_by_search": sum(m.loss is None and m.search_loss is not None for m in review.moves),
            "search_only": search_only,
            "reviewed": len(review.moves), "flagged": flagged, "missed": missed, "seconds": round(review.seconds, 1)}


def summary(games: list[dict]) -> int:
    """The disagreements, the misses and the last lines over the stored games. Flagged: the review's mistakes
    (charged MISTAKE points or more by the regions' values and not refuted by its own mistake check); the
    moves the check refuted are counted apart, with the judge's verdict on them."""
    charged = [(g["game"], f) for g in games for f in g["flagged"]]
    flagged = [(source, f) for source, f in charged if not f.get("refuted")]
    refuted = [(source, f) for source, f in charged if f.get("refuted")]
    total = len(flagged)
    print(f"charged {MISTAKE:g}+ points by the regions' values: {len(charged)}, of which the search judge confirms "
          f"{sum(f['search_loss'] >= AGREE for _, f in charged)}; the review's mistake check refutes {len(refuted)} "
          f"(the judge confirms {sum(f['search_loss'] >= AGREE for _, f in refuted)} of those) and keeps {total}")
    print(f"\ngames: {len(games)}; flagged moves (the review's mistakes) the search judge puts below {AGREE:g} point lost "
          f"({sum(f['search_loss'] < AGREE for _, f in flagged)}):")
    for source, f in flagged:
        if f["search_loss"] < AGREE:
            check = "-" if f.get("check_loss") is None else f"{f['check_loss']:.1f}"
            print(f"  {source} move {f['number']} {f['move']}: review {f['review_loss']:.1f}, check "
                  f"{check}, search {f['search_loss']:.1f}, network {f['network_loss']:.1f}: "
                  f"{f['reason']}")
    missed = [(g["game"], m) for g in games for m in g["missed"]]
    print(f"moves the network puts at {MISTAKE:g}+ points that the review does not flag ({len(missed)}):")
    for source, m in missed:
        review_loss = "not valued" if m["review_loss"] is None else f"{m['review_loss']:.1f}"
        print(f"  {source} move {m['number']} {m['move']}: network {m['network_loss']:.1f}, review {review_loss}: "
              f"{m['reason']}")
    valued, reviewed = sum(g["valued"] for g in games), sum(g["reviewed"] for g in games)
    by_search = sum(g.get("valued_by_search", 0) for g in games)
    alone = sum(len(g.get("search_only", [])) for g in games)
    print(f"moves reviewed {reviewed}, valued {valued} by the regions and {by_search} more by the check's search alone "
          f"({alone} of those at {MISTAKE:g}+ points, reported beside the mistakes, not flagged); flagged {total}; the "
          f"network's loss >= "
          f"{MISTAKE:g} on {sum(f['network_loss'] >= MISTAKE for _, f in flagged)}/{total} of them")
    print(f"flagged_agreement: {sum(f['network_loss'] >= AGREE for _, f in flagged) / total if total else 0:.2f}")
    print(f"flagged_precision: {sum(f['search_loss'] >= AGREE for _, f in flagged) / total if total else 0:.2f}")
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
        found = judged_once(key, board, vertex, search, visits, judged, judged_file)
        if found.get("legal"):
            leads[vertex] = found["lead"]
    return max(leads.values()) - leads[played] if played in leads else 0.0


if __name__ == "__main__":
    sys.exit(main())
