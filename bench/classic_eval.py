"""The classic evaluator (issue 26 part 3, no network): (a) its score estimate on the 896 TB/TW KGS games by
`bench/final_scoring.py`'s measure (the final position as it stood before the closing passes, a stone dead
when the ownership points the other way by more than 0.5, counted under the game's rules with
`tengen.eval.katago.final_score`, exact when it equals the recorded result; the KataGo network gets
861/896), and (b) its move choice (the policy's top move: the orthodox move over its move values) on GNU
Go's `endgame1.tst` (16) and Fuego's `uct_endgame.tst` (reg_genmove tests), next to GNU Go 3.8 (level 10,
its default) on the same tests in the same run. Budgets are nodes: the life search's per search and the
exact solver's per sealed region (`tengen.api.classic_evaluator`).

    python bench/classic_eval.py [--limit N] [--life-nodes N] [--solver-nodes N] [--no-gnugo] [--skip-scores]

Needs ../shared/data (skips with a message when absent). Last line: `endgame1: N/16`.
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from final_scoring import ARCHIVE, LIST, read_games, result_margin  # noqa: E402

from tengen.api.classic import CLASSIC_LIFE_NODES, CLASSIC_SOLVER_NODES, classic_evaluator  # noqa: E402
from tengen.files import shared_data_path  # noqa: E402
from tengen.go.colors import parse_color  # noqa: E402
from tengen.go.coords import to_gtp  # noqa: E402
from tengen.go.sgf import load_game, load_game_bytes  # noqa: E402
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout: devkit/ (test and bench helpers)
from devkit.regression_files import parse_suite  # noqa: E402

# deeper than the interactive default: on the first 40 games 2000 nodes score 21 exactly, 400 nodes 16
BENCH_LIFE_NODES = 2000
SUITES = {"endgame1": shared_data_path("regression", "gnugo", "endgame1.tst", must_exist=False),
          "uct_endgame": shared_data_path("regression", "fuego", "uct_endgame.tst", must_exist=False)}


def score_games(evaluator, limit: int | None) -> str:
    """(a): exact scores over the TB/TW games (or the first `limit`)."""
    from tengen.eval.katago.final_score import position_before_passes, score_final_position

    if not LIST.exists() or not ARCHIVE.exists():
        print(f"shared data not available under {LIST.parent}: the score estimate is skipped")
        return "exact_score: skipped"
    games = read_games(limit)
    exact = close = 0
    errors = []
    start = time.perf_counter()
    for name, data in games:
        try:
            game = load_game_bytes(data, name)
            board = game.board_at(None, strict=False)
        except Exception as exc:  # noqa: BLE001 - a broken record counts as a miss
            print(f"  unreadable {name}: {exc}")
            continue
        margin = result_margin(game.result)
        ownership = evaluator.evaluate([position_before_passes(board)])[0].ownership
        ours = score_final_position(board, ownership, 0.5, 0.3, game.handicap).margin
        if margin is not None:
            errors.append(abs(ours - margin))
            exact += abs(ours - margin) < 1e-6
            close += abs(ours - margin) <= 2
    seconds = time.perf_counter() - start
    mean_error = sum(errors) / max(1, len(errors))
    print(f"(a) score estimate: exact {exact}/{len(games)} ({100 * exact / max(1, len(games)):.1f} %), within 2 points "
          f"{close}/{len(games)}, mean |error| {mean_error:.2f} points; {seconds:.0f} s "
          f"({seconds / max(1, len(games)):.2f} s per position); the KataGo network: 861/896")
    return f"exact_score: {exact}/{len(games)}"


def run_suite(name: str, path: Path, evaluator, gnugo) -> tuple[int, int]:
    """(b): one suite's reg_genmove tests by the classic evaluator's top move and by GNU Go."""
    cases = [c for c in parse_suite(path) if c.command == "reg_genmove"]
    ours = theirs = 0
    for case in cases:
        game = load_game(case.sgf)
        board = game.board_at(None if case.move is None else max(case.move - 1, 0), strict=False)
        board.to_play = parse_color(case.args[0])
        start = time.perf_counter()
        evaluation = evaluator.evaluate([board])[0]
        best = evaluation.top_moves(1)[0][0]
        move = "PASS" if best is None else to_gtp(best, board.height)
        ok = case.matches(move)
        ours += ok
        line = (f"  {name} {case.number}: {case.args[0]:5} classic {move:4} expected {case.pattern:14} "
                f"{'PASS' if ok else 'fail'} ({time.perf_counter() - start:.1f}s; {evaluation.extras['orthodox']})")
        if gnugo is not None:
            load = f"loadsgf {case.sgf}" + (f" {case.move}" if case.move is not None else "")
            gnugo.query(load)
            answer = gnugo.query(f"reg_genmove {case.args[0]}")
            theirs += answer.ok and case.matches(answer.text)
            line += f"; GNU Go {answer.text.strip():4} {'PASS' if answer.ok and case.matches(answer.text) else 'fail'}"
        print(line, flush=True)
    print(f"(b) {name}: classic {ours}/{len(cases)}" + (f", GNU Go 3.8 {theirs}/{len(cases)}" if gnugo else ""))
    return ours, len(cases)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, default=None, help="first N of the 896 games (default all)")
    parser.add_argument("--life-nodes", type=int, default=BENCH_LIFE_NODES,
                        help=f"life search nodes per search (default {BENCH_LIFE_NODES}; tengen.api's interactive "
                             f"default is {CLASSIC_LIFE_NODES})")
    parser.add_argument("--solver-nodes", type=int, default=CLASSIC_SOLVER_NODES, help="exact solver positions per region")
    parser.add_argument("--no-gnugo", action="store_true", help="skip the GNU Go anchor")
    parser.add_argument("--skip-scores", action="store_true", help="only the move-choice suites")
    args = parser.parse_args(argv)
    print(f"machine: {platform.node()} ({platform.machine()}, {os.cpu_count()} cores), python {platform.python_version()}")
    print(f"date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC")
    print(f"settings: life search {args.life_nodes} nodes per search, exact solver {args.solver_nodes} positions per "
          f"sealed region, games {'all' if args.limit is None else f'first {args.limit}'}")
    evaluator = classic_evaluator(args.life_nodes, args.solver_nodes)
    print(f"classic config: {evaluator.config}")
    if not args.skip_scores:
        print(score_games(evaluator, args.limit), flush=True)
    gnugo = None
    if not args.no_gnugo:
        from tengen.eval.gtp_client import GtpClient, find_gnugo

        gnugo = GtpClient.gnugo(level=10, rules="japanese") if find_gnugo() is not None else None
        if gnugo is None:
            print("GNU Go not installed: its anchor is skipped")
    last = "endgame1: 0/16 (suite not run: shared data absent)"
    try:
        for name, path in SUITES.items():
            if not path.exists():
                print(f"{path} not found: {name} skipped")
                continue
            ours, total = run_suite(name, path, evaluator, gnugo)
            if name == "endgame1":
                last = f"endgame1: {ours}/{total}"
    finally:
        if gnugo is not None:
            gnugo.close()
    print(last)
    return 0


if __name__ == "__main__":
    sys.exit(main())
