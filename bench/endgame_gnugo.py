"""A regression suite's move choices (default GNU Go's endgame1.tst: 16 on a 9x9 game; also Fuego's
uct_endgame.tst and 9x9-blunder-endgame.tst): tengen's recommended move from the endgame analyzer against
the `#?` answers. Also counted from the same runs: the orthodox move alone (before the network's one-move
check) and the network's policy move alone (the anchor). Last line: `<suite>: n/N` (e.g. `endgame1: n/16`).
Tree budgets are the CLI's (`tengen analyze`: 800 nodes per tree, 1000 per position) unless given.
`--net-moves anywhere` lets the local-move network propose any point but the other regions' (its behaviour
before its moves were kept to the region and its boundary; with `--predictor net`).
Usage: python bench/endgame_gnugo.py [--suite PATH] [--model FILE] [--predictor kata|net|auto] [--max-nodes N]
       [--max-total-nodes N] [--net-moves boundary|anywhere]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from tengen.endgame.options import DEFAULT_MAX_NODES as CLI_MAX_NODES
from tengen.endgame.options import DEFAULT_MAX_TOTAL_NODES as CLI_MAX_TOTAL_NODES
from tengen.api import search_look
from tengen.endgame.analysis import analyze_board
from tengen.endgame.options import AnalysisOptions
from tengen.endgame.move_check import policy_move
from tengen.endgame.tree import GrowthConfig, growth_settings
from tengen.go.coords import to_gtp
from tengen.go.colors import parse_color
from tengen.go.sgf import load_game
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout: devkit/ (test and bench helpers)
from devkit.regression_files import parse_suite
from tengen.files import shared_data_path  # noqa: E402

DEFAULT_SUITE = shared_data_path("regression", "gnugo", "endgame1.tst", must_exist=False)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default=str(DEFAULT_SUITE))
    parser.add_argument("--model", default=None)
    parser.add_argument("--margin", type=int, default=0, help="grow regions by this many points")
    parser.add_argument("--threshold", type=float, default=0.9)
    parser.add_argument("--predictor", choices=["kata", "net", "auto"], default="kata",
                        help="kata (every region grown by KataGo's policy), net (grown by the trained local-move network), "
                             "or auto (sealed regions solved exactly, the rest by net)")
    parser.add_argument("--max-nodes", type=int, default=CLI_MAX_NODES, help="node budget per local tree")
    parser.add_argument("--max-total-nodes", type=int, default=CLI_MAX_TOTAL_NODES, help="node budget per position")
    parser.add_argument("--growth", default="", help="tree-growth settings NAME=VALUE,... (tengen.endgame.tree."
                        "GrowthConfig: leaf_no_move, one_color_share, move_fraction, answer_threshold, ...)")
    parser.add_argument("--net-moves", choices=["boundary", "anywhere"], default="boundary",
                        help="where the local-move network's moves may lie (anywhere: with --predictor net only)")
    args = parser.parse_args()
    if args.net_moves == "anywhere" and args.predictor != "net":
        parser.error("--net-moves anywhere goes with --predictor net")
    growth = growth_settings(args.growth, GrowthConfig(max_nodes=args.max_nodes,
                                                       max_total_nodes=args.max_total_nodes or None))
    if not Path(args.suite).exists():
        print(f"suite not found: {args.suite}", file=sys.stderr)
        return 2
    from tengen.eval.katago.evaluator import KataGoEvaluator

    evaluator = KataGoEvaluator(args.model)
    predictor = args.predictor
    if args.net_moves == "anywhere":
        from tengen.endgame.predictors import LocalNetPredictor

        predictor = LocalNetPredictor(local_only=False)
    cases = [c for c in parse_suite(args.suite) if c.command == "reg_genmove"]
    passed = orthodox_passed = policy_passed = 0
    for case in cases:
        game = load_game(case.sgf)
        board = game.board_at(None if case.move is None else max(case.move - 1, 0), strict=False)
        board.to_play = parse_color(case.args[0])
        start = time.perf_counter()
        options = AnalysisOptions(margin=args.margin, threshold=args.threshold, predictor=predictor, growth=growth,
                                  leaf_scoring="evaluator", life_groups=0)
        # the move check's look as `tengen analyze` has it (by search, options.move_check_visits a candidate)
        analysis = analyze_board(board, evaluator, options, move_look=search_look(options))
        exact = sum(r.method == "exhaustive" for r in analysis.regions)
        move = "PASS" if analysis.recommended is None else to_gtp(analysis.recommended[1], board.height)
        ok = case.matches(move)
        passed += ok
        check = analysis.move_check
        orthodox_passed += case.matches(to_gtp(check.orthodox, board.height)) if check is not None else ok
        policy = policy_move(board, evaluator)
        policy_passed += case.matches(to_gtp(policy, board.height))
        print(f"{case.number}: {case.args[0]:5} tengen {move:4} expected {case.pattern:14} {'PASS' if ok else 'fail'}"
              f"  ({len(analysis.regions)} regions{f' ({exact} solved exactly)' if exact else ''}, {analysis.evaluations} evals, {time.perf_counter() - start:.1f}s;"
              f" {analysis.recommended_reason})")
    name = Path(args.suite).stem
    print(f"settings: predictor {args.predictor}, margin {args.margin}, threshold {args.threshold}, "
          f"budgets {growth.max_nodes} nodes per tree / {growth.max_total_nodes} per position"
          + (f"; growth {args.growth}" if args.growth else ""))
    print(f"the orthodox move alone (before the network's check): {orthodox_passed}/{len(cases)}; "
          f"the network's policy move alone: {policy_passed}/{len(cases)}")
    print(f"{name}: {passed}/{len(cases)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
