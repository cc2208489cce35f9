"""Cost of the endgame analyzer (kata predictor, default network, CPU): regions found, network
evaluations and wall seconds per region and per position, for the bundled example and N late-game
positions (move ~ 80 % of the game) of scored 19x19 games from ../shared/data/games.
Usage: python bench/endgame_cost.py [--games 10] [--seed 1] [--threads 1] [--max-nodes N] [--max-total-nodes N]
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


def measure(label: str, board, evaluator, growth: GrowthConfig) -> tuple[int, int, float]:
    start = time.perf_counter()
    analysis = analyze_board(board, evaluator, AnalysisOptions(growth=growth))
    seconds = time.perf_counter() - start
    cut = sum(1 for r in analysis.regions if r.tree is not None and r.tree.budget_exhausted)
    per_region = ", ".join(f"{len(r.region)}pt/{r.evaluations}ev/{r.seconds:.1f}s"
                           + ("*" if r.tree is not None and r.tree.budget_exhausted else "") for r in analysis.regions)
    nodes = sum(r.tree.nodes for r in analysis.regions if r.tree is not None)
    print(f"{label}: {len(analysis.regions)} regions, {nodes} nodes, {analysis.evaluations} evaluations, {seconds:.1f} s, "
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
    args = parser.parse_args()
    from tengen.eval.katago.evaluator import KataGoEvaluator

    evaluator = KataGoEvaluator(threads=args.threads)
    growth = GrowthConfig(max_nodes=args.max_nodes, max_total_nodes=args.max_total_nodes or None)
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, torch threads {__import__('torch').get_num_threads()}; "
          f"budgets: {growth.max_nodes} nodes per tree, {growth.max_total_nodes} per position ('*': tree cut by a budget)")
    totals = []
    example = load_game(REPO / "src" / "tengen" / "data" / "example.sgf")
    totals.append(measure("example (move 170)", example.board_at(170), evaluator, growth))
    if not GAMES.exists():
        print(f"game archives not found under {GAMES}; example only")
    else:
        for name, _, move, board in late_positions(args.games, args.seed):
            totals.append(measure(f"{name} (move {move})", board, evaluator, growth))
    n = len(totals)
    regions = sum(t[0] for t in totals)
    evals = sum(t[1] for t in totals)
    secs = sum(t[2] for t in totals)
    print(f"positions {n}: mean {regions / n:.1f} regions, {evals / n:.0f} evaluations, {secs / n:.1f} s per position; "
          f"{secs / max(regions, 1):.1f} s and {evals / max(regions, 1):.0f} evaluations per region")
    print(f"peak memory (max RSS of this process, network included): "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    print(f"seconds_per_position: {secs / n:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
