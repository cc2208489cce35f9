"""Cost of the endgame analyzer (default network, CPU): regions found, network evaluations and wall seconds
per region and per position, for the bundled example and N late-game positions (move ~ 80 % of the game) of
scored 19x19 games from ../shared/data/games.
`--predictor kata` (default) measures KataGo's policy as the tree predictor; `--predictor net` measures the
trained local-move network and, in the same run on the same positions, kata (each with its own evaluator, so
no cached evaluation is shared); its last line is `speedup: X`, kata's seconds per position over net's.
Evaluations count KataGo rows (regions, leaves, kata's tree nodes); net's own rows are counted apart.
`--leaves valuenet` (with `--predictor net`) scores the net run's leaves with tengen's value network, KataGo
taking the leaves it is unsure of (`--leaf-confidence`); the kata run keeps KataGo's leaves.
Usage: python bench/endgame_cost.py [--predictor kata|net] [--leaves evaluator|valuenet] [--leaf-confidence C]
       [--games 10] [--seed 1] [--threads 1] [--max-nodes N] [--max-total-nodes N]
"""
from __future__ import annotations

import argparse
import os
import platform
import random
import resource
import sys
import tarfile
import time
from pathlib import Path

from tengen.endgame.analysis import analyze_board
from tengen.endgame.leaves import DEFAULT_LEAF_CONFIDENCE
from tengen.endgame.options import AnalysisOptions
from tengen.endgame.tree import GrowthConfig
from tengen.go.sgf import SgfError, load_game, load_game_bytes
from tengen.files import shared_data_path  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
GAMES = shared_data_path("games", must_exist=False)


def sample_games(n: int, seed: int) -> list[tuple[str, bytes]]:
    """n scored 19x19 records from finished_19x19_scored_games.txt (KGS archive: small and quick to read)."""
    listing = (GAMES / "finished_19x19_scored_games.txt").read_text().splitlines()[1:]
    rows = [line.split("\t") for line in listing if line.startswith("kgs_")]
    rng = random.Random(seed)
    wanted = {row[1] for row in rng.sample(rows, n * 3)}
    out = []
    with tarfile.open(GAMES / rows[0][0], "r:xz") as tar:
        for member in tar:
            if member.name in wanted:
                out.append((member.name, tar.extractfile(member).read()))
                if len(out) == n:
                    break
    return out


PRO_ARCHIVE = "pro_aeb_gosei-kifu_71934.tar.xz"  # the professional records (Brouwer collection)


def listed(archive: str, min_moves: int = 0) -> list[list[str]]:
    """The finished-games list's rows (archive, path, RE, KM, HA, moves) from `archive`, in the list's order,
    of games of at least `min_moves` moves."""
    listing = (GAMES / "finished_19x19_scored_games.txt").read_text().splitlines()[1:]
    rows = [line.split("\t") for line in listing if line.startswith(archive)]
    return [row for row in rows if int(row[5]) >= min_moves]


def records(archive: Path, wanted: set) -> list:
    """The records named in `wanted` from a tar.xz archive of the shared games, loaded and sorted by name;
    unreadable ones are reported and skipped."""
    out = []
    with tarfile.open(archive, "r:xz") as tar:
        for member in tar:
            if member.name in wanted:
                try:
                    out.append(load_game_bytes(tar.extractfile(member).read(), member.name))
                except SgfError as exc:
                    print(f"{member.name}: skipped ({exc})")
    return sorted(out, key=lambda game: game.source)


def late_positions(n: int, seed: int):
    """(name, game, move number, board) at ~80 % of each sampled game; unreadable records are reported."""
    for name, data in sample_games(n, seed):
        try:
            game = load_game_bytes(data, name)
            move = int(len(game.moves) * 0.8)
            board = game.board_at(move, strict=False)
        except SgfError as exc:
            print(f"{name}: skipped ({exc})")
            continue
        yield name, game, move, board


def measure(label: str, board, evaluator, growth: GrowthConfig, predictor="kata", leaves: str = "evaluator",
            confidence: float = DEFAULT_LEAF_CONFIDENCE) -> tuple[int, int, float]:
    """Analyze one position with `predictor` (a name, or a predictor object whose `evaluations` count its
    own network rows) and the leaf scoring `leaves`; prints one line and returns (regions, KataGo evaluations,
    seconds)."""
    rows_before = getattr(predictor, "evaluations", 0)
    start = time.perf_counter()
    analysis = analyze_board(board, evaluator, AnalysisOptions(predictor=predictor, growth=growth, leaf_scoring=leaves,
                                                               leaf_confidence=confidence, life_groups=0))
    seconds = time.perf_counter() - start
    name = predictor if isinstance(predictor, str) else predictor.name
    own = getattr(predictor, "evaluations", 0) - rows_before
    cut = sum(1 for r in analysis.regions if r.tree is not None and r.tree.budget_exhausted)
    per_region = ", ".join(f"{len(r.region)}pt/{r.evaluations}ev/{r.seconds:.1f}s"
                           + ("*" if r.tree is not None and r.tree.budget_exhausted else "") for r in analysis.regions)
    nodes = sum(r.tree.nodes for r in analysis.regions if r.tree is not None)
    print(f"{name} {label}: {len(analysis.regions)} regions, {nodes} nodes, {analysis.evaluations} evaluations"
          f"{f' (+{own} local-net rows)' if own else ''}, {seconds:.1f} s, "
          f"{cut} trees cut by a budget  [{per_region}]")
    return len(analysis.regions), analysis.evaluations, seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads (default 1)")
    parser.add_argument("--max-nodes", type=int, default=GrowthConfig.max_nodes, help="node budget per tree")
    parser.add_argument("--max-total-nodes", type=int, default=GrowthConfig.max_total_nodes,
                        help="node budget shared by a position's trees (0: none)")
    parser.add_argument("--predictor", choices=["kata", "net"], default="kata",
                        help="net: also measures kata in the same run and ends with the speedup")
    parser.add_argument("--leaves", choices=["evaluator", "valuenet"], default="evaluator",
                        help="how the net run scores leaves (valuenet: tengen's value network, KataGo where unsure)")
    parser.add_argument("--leaf-confidence", type=float, default=DEFAULT_LEAF_CONFIDENCE,
                        help="|ownership| every region point needs for the value network to score a leaf")
    args = parser.parse_args()
    if args.leaves == "valuenet" and args.predictor != "net":
        parser.error("--leaves valuenet goes with --predictor net")
    from tengen.eval.katago.evaluator import KataGoEvaluator

    predictors = ["kata"] if args.predictor == "kata" else ["net", "kata"]
    evaluators = {name: KataGoEvaluator(threads=args.threads) for name in predictors}
    growth = GrowthConfig(max_nodes=args.max_nodes, max_total_nodes=args.max_total_nodes or None)
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, torch threads {__import__('torch').get_num_threads()}; "
          f"budgets: {growth.max_nodes} nodes per tree, {growth.max_total_nodes} per position ('*': tree cut by a budget); "
          f"net leaves: {args.leaves}" + (f" (confidence {args.leaf_confidence})" if args.leaves == "valuenet" else ""))
    totals: dict[str, list] = {name: [] for name in predictors}
    positions = [("example (move 170)", load_game(REPO / "src" / "tengen" / "data" / "example.sgf").board_at(170))]
    if not GAMES.exists():
        print(f"game archives not found under {GAMES}; example only")
    else:
        positions += [(f"{name} (move {move})", board) for name, _, move, board in late_positions(args.games, args.seed)]
    chosen = {"kata": "kata"}
    if "net" in predictors:
        from tengen.endgame.predictors import LocalNetPredictor

        chosen["net"] = LocalNetPredictor()  # one object, so its own network rows can be counted
    for label, board in positions:
        for name in predictors:
            leaves = args.leaves if name == "net" else "evaluator"
            totals[name].append(measure(label, board, evaluators[name], growth, chosen[name], leaves, args.leaf_confidence))
    per_position = {}
    for name in predictors:
        rows = totals[name]
        n = len(rows)
        regions = sum(t[0] for t in rows)
        evals = sum(t[1] for t in rows)
        secs = sum(t[2] for t in rows)
        per_position[name] = secs / n
        print(f"{name}: positions {n}: mean {regions / n:.1f} regions, {evals / n:.0f} evaluations, {secs / n:.1f} s per "
              f"position; {secs / max(regions, 1):.1f} s and {evals / max(regions, 1):.0f} evaluations per region")
    print(f"peak memory (max RSS of this process, networks included): "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    if args.predictor == "kata":
        print(f"seconds_per_position: {per_position['kata']:.1f}")
    else:
        print(f"seconds_per_position: kata {per_position['kata']:.1f}, net {per_position['net']:.1f}")
        print(f"speedup: {per_position['kata'] / per_position['net']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
