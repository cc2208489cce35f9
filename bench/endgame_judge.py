"""A search judge for whole-board endgame moves: tengen's recommended move against KataGo's raw policy, GNU Go
3.8 and the players, each judged by a search from the position after it.

Positions: a fixed draw (seeded) of even 19x19 games played to a counted result
(`../shared/data/games/finished_19x19_scored_games.txt`), half professional (the Brouwer collection), half
KGS 6d+, each cut at a fraction of its moves drawn uniformly between 70 % and 95 % (early and late endgame
mixed). For each position the candidates are the move played, tengen's recommended move (`tengen.analyze`
with the default settings and network), its orthodox move (before the network's one-move check), KataGo's
policy move (one evaluation) and GNU Go 3.8's `genmove` (level 10, Chinese rules, the record's komi). Each
distinct candidate is judged by tengen's MCTS (PUCT over the same default KataGo network, `--visits`, default
64, seed 0) from the position after it: the judged value is the search root's score lead for the mover.
A candidate's loss is the best candidate's judged lead minus its own (0 for the best).

What a 64-visit judge can see: the score consequences a strong network reads one search deep (a few plies
along its principal lines), which covers the sente / gote order of the local games and most tactical
blunders. What it cannot: long forced sequences (ladders and semeai beyond its horizon), differences smaller
than its own noise (about half a point between two nearly equal moves), and it shares its network with the
policy candidate, which therefore is judged by a search that agrees with it by construction more often than
not. At the default 64 visits the judge runs the same kind and size of search as tengen's move check (the
same network, visits and seed; their leads agree closely but are not bit-identical), so for the moves the check
compared (the orthodox move and the network's 3 likeliest) the judge mostly repeats the check's verdict; what it
measures of tengen is whether those moves hold the best of all five candidates, and what the check's half-point
margin and its ties to the likeliest move cost. `--visits` above 64 gives a judge that sees further than the
check. The numbers are a judge's, not the truth.

Everything expensive is stored under `--out` (default `bench/results/endgame_judge`, committed): the
candidates per position (`positions.jsonl`, keyed by record and move number) and every judgement
(`judged.jsonl`, keyed by position, move and visits), appended line by line with fsync, so a stopped run
loses at most the position in progress and a rerun only computes what is new. No game record is stored,
only its name and move number (the shared archives are needed to compute; `--report` reads the stored
results alone).

    python bench/endgame_judge.py [--positions 100] [--visits 64] [--seed 1] [--limit N] [--first N]
                                  [--threads 1] [--out DIR] [--report]

Per engine: judged positions, mean loss, share within 0.5 points of the best, worst loss. Last line:
`tengen_mean_loss: X (policy P, gnugo G, played H)`, over the positions every engine's move was judged in.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tarfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from tengen.files import append_line, shared_data_path  # noqa: E402
from tengen.go.colors import BLACK  # noqa: E402
from tengen.go.coords import from_gtp, to_gtp  # noqa: E402

GAMES = shared_data_path("games", must_exist=False)
ARCHIVES = {"pro": "pro_aeb_gosei-kifu_71934.tar.xz", "kgs": "kgs_6d_godmoves_36692.tar.xz"}
ENGINES = ("tengen", "orthodox", "policy", "gnugo", "played")
FIRST, LAST = 0.70, 0.95  # the share of the game's moves at which a position is cut
MIN_MOVES = 150  # games shorter than this are left out (no endgame of any size)
GNUGO_LEVEL = 10
WITHIN = 0.5
# which analysis gave tengen's moves: a new label (when the analysis changes) recomputes tengen's and the
# orthodox move of every stored position (the other candidates and every judgement are kept); the report
# shows earlier labels' tengen beside the current one, on the same positions
TENGEN_LABEL = ("move check by 64-visit searches of the network's 3 likeliest moves, half a point, ties to the likeliest; "
                "trees unbounded by their threats valued by the threats' follow-ups")
EARLIER_LABELS = {None: "move check by the network one move later",
                  "move check by a 32-visit search": "move check by a 32-visit search of the policy move, 1 point",
                  "move check by 32-visit searches of the network's 3 likeliest moves, half a point":
                      "move check by 32-visit searches of the network's 3 likeliest moves, half a point",
                  "move check by 64-visit searches of the network's 3 likeliest moves, half a point":
                      "move check by 64-visit searches of the network's 3 likeliest moves, half a point",
                  "move check by 64-visit searches of the network's 3 likeliest moves, half a point, ties to the likeliest":
                      "the same, trees unbounded by their threats left without a value"}


def draw(count: int, seed: int) -> list[tuple[str, str, float]]:
    """(archive, path, fraction) for `count` even, finished games, alternating professional and KGS 6d+."""
    rows = [line.split("\t") for line in (GAMES / "finished_19x19_scored_games.txt").read_text().splitlines()[1:]]
    rng = random.Random(seed)
    by_kind = {}
    for kind, archive in ARCHIVES.items():
        eligible = [row for row in rows if row[0] == archive and row[4] in ("0", "") and int(row[5]) >= MIN_MOVES]
        by_kind[kind] = rng.sample(eligible, count)  # more than needed: unreadable records are replaced
    picked = []
    for i in range(count * 2):
        row = by_kind["pro" if i % 2 == 0 else "kgs"][i // 2]
        picked.append((row[0], row[1], rng.uniform(FIRST, LAST)))
    return picked


def load_positions(picks, wanted: int):
    """(key, game, move number, board) for the first `wanted` readable picks with a legal next move."""
    from tengen.go.sgf import SgfError, load_game_bytes

    names = {}
    for archive, path, fraction in picks:
        names.setdefault(archive, {})[path] = fraction
    loaded = {}
    for archive, fractions in names.items():
        with tarfile.open(GAMES / archive, "r:xz") as tar:
            for member in tar:
                if member.name in fractions:
                    loaded[(archive, member.name)] = tar.extractfile(member).read()
    out = []
    for archive, path, fraction in picks:
        data = loaded.get((archive, path))
        if data is None:
            continue
        try:
            game = load_game_bytes(data, path)
            move = int(len(game.moves) * fraction)
            board = game.board_at(move, strict=True)
        except (SgfError, ValueError) as exc:
            print(f"{path}: skipped ({str(exc)[:80]})", flush=True)
            continue
        if game.handicap or any(not e.is_move for e in game.events):
            continue  # even games from the empty board only (GNU Go is given the moves, not setup stones)
        color, played = game.moves[move]
        if color != board.to_play:
            continue
        key = f"{'pro' if archive == ARCHIVES['pro'] else 'kgs'}:{path}@{move}"
        out.append((key, game, move, board))
        if len(out) == wanted:
            break
    return out


def read_jsonl(path: Path) -> list[dict]:
    """The stored lines (a torn last line is skipped)."""
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return out


def gnugo_move(game, move: int, board) -> str:
    """GNU Go 3.8's genmove for the side to play after `move` moves of `game` (the moves replayed by GTP)."""
    from tengen.eval.gtp_client import GtpClient

    with GtpClient.gnugo(level=GNUGO_LEVEL, rules="chinese", timeout=300) as engine:
        engine.send(f"boardsize {board.width}")
        engine.send("clear_board")
        engine.send(f"komi {board.rules.komi:g}")
        for color, point in game.moves[:move]:
            engine.send(f"play {'B' if color == BLACK else 'W'} {to_gtp(point, board.height)}")
        return engine.send(f"genmove {'B' if board.to_play == BLACK else 'W'}").strip().upper()


def candidates(key: str, game, move: int, board, evaluator, known: dict | None = None) -> dict:
    """The position's candidate moves as GTP vertices (PASS for a pass), with tengen's analysis seconds;
    with `known` (an earlier label's entry) only tengen's and the orthodox move are computed again."""
    import tengen
    from tengen.endgame.move_check import policy_move

    start = time.perf_counter()
    analysis = tengen.analyze(board, evaluator=evaluator)
    seconds = time.perf_counter() - start
    recommended = analysis.recommended[1] if analysis.recommended else None
    check = analysis.move_check
    orthodox = check.orthodox if check is not None and check.overruled else recommended
    h = board.height
    if known is not None:
        others = {e: known["moves"][e] for e in ("policy", "gnugo", "played")}
    else:
        gnugo = gnugo_move(game, move, board)
        others = {"policy": to_gtp(policy_move(board, evaluator), h).upper(),
                  "gnugo": "PASS" if gnugo == "RESIGN" else gnugo, "played": to_gtp(game.moves[move][1], h).upper()}
    looked = None if check is None else {"orthodox_lead": round(check.orthodox_score, 3),
                                         "policy_lead": round(check.policy_score, 3), "margin": check.margin}
    return {"key": key, "to_play": "B" if board.to_play == BLACK else "W", "komi": board.rules.komi,
            "moves": {"tengen": to_gtp(recommended, h).upper(), "orthodox": to_gtp(orthodox, h).upper(), **others},
            "tengen_seconds": round(seconds, 1), "tengen_settings": analysis.settings, "label": TENGEN_LABEL,
            "check": looked}


def judge(board, vertex: str, search, visits: int) -> dict:
    """The search's score lead and win rate for the mover after it plays `vertex` (legal False when illegal)."""
    from tengen.search.move_look import search_after

    point = None if vertex == "PASS" else from_gtp(vertex, board.height, board.width)
    if point is not None and not board.is_legal(board.to_play, point):
        return {"legal": False}
    result = search_after(search, board, point, visits)
    return {"legal": True, "lead": round(-result.score_lead, 3), "winrate": round(1 - result.winrate, 4),
            "visits": result.visits}


def judged_once(key: str, board, vertex: str, search, visits: int, judged: dict, judged_file: Path) -> dict:
    """The judgement of `vertex` at position `key`: the stored one, else judged now and appended to the file."""
    found = judged.get((key, vertex, visits))
    if found is None:
        found = {"key": key, "move": vertex, "visits_asked": visits, **judge(board, vertex, search, visits)}
        judged[(key, vertex, visits)] = found
        append_line(judged_file, json.dumps(found, sort_keys=True))
    return found


def margin_sweep(positions: list[dict], judged: dict, visits: int, margins=(0.0, 0.5, 1.0, 2.0, 3.0)) -> None:
    """tengen's mean loss had its move check overruled the orthodox move at each margin (the check's two
    searched leads are stored), on the positions whose check was recorded: what the margin is worth."""
    rows = []
    for pos in positions:
        check, moves = pos.get("check"), pos["moves"]
        leads = {v: judged.get((pos["key"], v, visits)) for v in set(moves.values())}
        agree = moves["orthodox"] == moves["policy"]
        if "check" not in pos or (check is None and not agree) or any(j is None or not j.get("legal")
                                                                       for j in leads.values()):
            continue  # an earlier entry, or no check for another reason (a pass, an illegal move)
        best = max(j["lead"] for j in leads.values())
        ahead = float("-inf") if check is None else check["policy_lead"] - check["orthodox_lead"]
        rows.append((ahead, best - leads[moves["orthodox"]]["lead"], best - leads[moves["policy"]]["lead"]))
    if not rows:
        return
    text = ", ".join(f"{m:g}: {statistics.mean(p if d > m else o for d, o, p in rows):.2f}" for m in margins)
    print(f"tengen's mean loss by the move check's margin (on {len(rows)} positions where the check ran): {text} "
          f"(the orthodox move alone {statistics.mean(o for _, o, _ in rows):.2f}, the policy move alone "
          f"{statistics.mean(p for _, _, p in rows):.2f})")


def report(positions: list[dict], judged: dict, visits: int) -> int:
    """Per engine: mean loss, share within WITHIN of the best, worst; the last line as the docstring says."""
    losses: dict[str, list[float]] = {e: [] for e in ENGINES}
    complete = 0
    for pos in positions:
        leads = {}
        for engine, vertex in pos["moves"].items():
            found = judged.get((pos["key"], vertex, visits))
            if found is not None and found.get("legal"):
                leads[engine] = found["lead"]
        if any(judged.get((pos["key"], pos["moves"][e], visits)) is None for e in ENGINES):
            continue  # not every candidate judged yet
        complete += 1
        best = max(leads.values())
        for engine in ENGINES:
            if engine in leads:
                losses[engine].append(best - leads[engine])
    print(f"judge: tengen's MCTS, default KataGo network, {visits} visits from the position after each move, "
          f"seed 0; loss = best candidate's score lead minus the candidate's (the mover's points)")
    print(f"positions with every candidate judged: {complete} of {len(positions)} stored")
    print(f"{'engine':9s} {'judged':>6s} {'mean loss':>9s} {'within 0.5':>10s} {'worst':>6s}")
    means = {}
    for engine in ENGINES:
        got = losses[engine]
        if not got:
            print(f"{engine:9s} {0:6d} {'-':>9s} {'-':>10s} {'-':>6s}")
            continue
        means[engine] = statistics.mean(got)
        within = sum(x <= WITHIN for x in got) / len(got)
        print(f"{engine:9s} {len(got):6d} {means[engine]:9.2f} {within:10.2f} {max(got):6.1f}")
    if complete == 0:
        print("tengen_mean_loss: not measured (no position with every candidate judged)")
        return 1
    print(f"tengen_mean_loss: {means.get('tengen', float('nan')):.2f} (policy {means.get('policy', float('nan')):.2f}, "
          f"gnugo {means.get('gnugo', float('nan')):.2f}, played {means.get('played', float('nan')):.2f})")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--visits", type=int, default=64)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=int, default=None, help="new positions to compute in this run (default: all)")
    parser.add_argument("--first", type=int, default=None,
                        help="judge and report only the draw's first N positions (a subsample of the same draw, "
                             "e.g. for a judge of more visits; default: all of --positions)")
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads (default 1)")
    parser.add_argument("--out", default=str(REPO / "bench" / "results" / "endgame_judge"))
    parser.add_argument("--report", action="store_true", help="print the report from the stored results only")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    positions_file, judged_file = out / "positions.jsonl", out / "judged.jsonl"
    lines = read_jsonl(positions_file)
    stored = {p["key"]: p for p in lines}  # the last line of a key is its current entry
    judged = {(j["key"], j["move"], j["visits_asked"]): j for j in read_jsonl(judged_file)}
    if not args.report:
        if not GAMES.exists():
            print(f"skipped: the game archives are not under {GAMES}; the stored results follow", file=sys.stderr)
        else:
            compute(args, stored, judged, positions_file, judged_file)
    current = [p for p in stored.values() if p.get("label") == TENGEN_LABEL][:args.positions]  # the draw's order
    current = current[:args.first]
    if len(current) < len(stored):
        print(f"positions stored under an earlier analysis only (left out until recomputed): "
              f"{len(stored) - len(current)}")
    earlier(lines, current, judged, args.visits)
    margin_sweep(current, judged, args.visits)
    return report(current, judged, args.visits)


def earlier(lines: list[dict], current: list[dict], judged: dict, visits: int) -> None:
    """Each earlier label's tengen move, judged on the positions both it and the current entries hold."""
    for label, words in EARLIER_LABELS.items():
        old = {p["key"]: p for p in lines if p.get("label") == label}
        pairs = [(old[p["key"]], p) for p in current if p["key"] in old and p.get("label") == TENGEN_LABEL]
        losses = {"earlier": [], "now": []}
        for before, now in pairs:
            leads = {}
            for vertex in set(now["moves"].values()) | {before["moves"]["tengen"]}:
                found = judged.get((now["key"], vertex, visits))
                if found is not None and found.get("legal"):
                    leads[vertex] = found["lead"]
            if before["moves"]["tengen"] not in leads or now["moves"]["tengen"] not in leads:
                continue
            best = max(leads.values())
            losses["earlier"].append(best - leads[before["moves"]["tengen"]])
            losses["now"].append(best - leads[now["moves"]["tengen"]])
        if losses["now"]:
            print(f"tengen with the {words} (earlier runs), on {len(losses['now'])} of the same positions: mean loss "
                  f"{statistics.mean(losses['earlier']):.2f} against {statistics.mean(losses['now']):.2f} with the "
                  f"{TENGEN_LABEL} (the best candidate of both)")


def compute(args, stored: dict, judged: dict, positions_file: Path, judged_file: Path) -> None:
    from tengen.api import default_evaluator
    from tengen.search.mcts import Search
    from tengen.search.results import SearchConfig

    import torch

    torch.set_num_threads(args.threads)
    picks = draw(args.positions * 2, args.seed)  # twice as many picks: skipped records are replaced
    todo = load_positions(picks, args.positions)[:args.first]
    evaluator = default_evaluator()
    search = Search(evaluator, SearchConfig(visits=args.visits, seed=0))
    new = 0
    for key, game, move, board in todo:
        if key not in stored or stored[key].get("label") != TENGEN_LABEL:
            if args.limit is not None and new >= args.limit:
                break
            new += 1
            stored[key] = candidates(key, game, move, board, evaluator, stored.get(key))
            append_line(positions_file, json.dumps(stored[key], sort_keys=True))
        pos = stored[key]
        for vertex in sorted(set(pos["moves"].values())):
            judged_once(key, board, vertex, search, args.visits, judged, judged_file)
        moves = " ".join(f"{e} {pos['moves'][e]}" for e in ENGINES)
        print(f"{key}: {moves} (tengen {pos['tengen_seconds']} s)", flush=True)


if __name__ == "__main__":
    sys.exit(main())
