"""`tengen eval FILE.sgf [--move N]`: the KataGo network's view of a position: win rate, score lead,
win rate by komi (a batched komi sweep), and an ownership map.

`--value-net` (or `--value-model PATH`, which implies it) also evaluates the position with tengen's own value
network (19x19 only): its 41-komi win-rate curve is shown beside KataGo's sweep, taken at the same komi values
(-12.5 ... 27.5), with where each curve crosses 50 %, and the value network's win rate at the game's komi and
its score estimate. `--plot FILE` writes a PNG of Black's win rate against komi (KataGo's sweep, and the value
network's curve with `--value-net`), the position's komi marked."""
from __future__ import annotations

import argparse
import os

from tengen.commands.base import CliError, command
from tengen.commands.common import add_position_arguments, checked_rules, progress_line


ABOUT = ("the network's win rate, score lead ± stdev, win rate by komi (-12.5 … 27.5, a batched komi sweep) and "
         "ownership map; `--value-net` puts tengen's own value network's 41-komi curve (one pass) beside KataGo's "
         "sweep, with its win rate and score estimate; `--plot` draws both curves")


@command("eval", "evaluate a position with the KataGo network (and tengen's value network)", about=ABOUT)
def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_position_arguments(parser)
    parser.add_argument("--model", help="KataGo network file (.bin.gz); default: the cached katrain network")
    parser.add_argument("--symmetries", type=int, default=1, choices=[1, 8], help="average over 8 symmetries")
    parser.add_argument("--no-komi-sweep", action="store_true", help="skip KataGo's win-rate-by-komi sweep")
    parser.add_argument("--value-net", action="store_true",
                        help="also evaluate with tengen's value network (19x19 only) and show its win rate by komi "
                             "beside KataGo's, at the same 41 komi values")
    parser.add_argument("--value-model", metavar="PATH",
                        help="value network weights file (implies --value-net); default: models/valuenet/bvmlvn.pt")
    parser.add_argument("--plot", metavar="FILE",
                        help="write a PNG of Black's win rate against komi (KataGo's sweep and, with --value-net, "
                             "the value network's curve), the position's komi marked")
    parser.add_argument("--quiet", action="store_true",
                        help="no progress on stderr (shown when the evaluation takes more than a few seconds)")


@add_arguments.handler
def run(args: argparse.Namespace) -> int:
    from tengen.api import default_evaluator
    from tengen.eval.katago.one_position import evaluate_board
    from tengen.io.eval_report import render_evaluation
    from tengen.go.sgf import load_game

    use_value_net = args.value_net or args.value_model is not None
    if args.plot is not None:
        from tengen.files import check_output_file

        check_output_file("--plot", args.plot, [args.sgf])
        if args.no_komi_sweep and not use_value_net:
            raise CliError("--plot draws win rate by komi: drop --no-komi-sweep or add --value-net")
    game = load_game(args.sgf)
    rules = checked_rules(args)
    if rules is not None:
        game.override_rules(rules)
    board = game.board_at(args.move)  # a bad record or move number fails before the network loads
    with progress_line(not args.quiet, "step", "evaluating", terminal_only=False, interval=3.0) as update:
        step = update or (lambda done, total: None)
        step(0, 2)  # the networks load, then evaluate
        value_ev = None
        if use_value_net:  # its weights and the board size are checked before KataGo's network loads
            from tengen.eval.valuenet.evaluator import ValueNetEvaluator

            value_ev = ValueNetEvaluator(args.value_model).evaluate([board])[0]
        if value_ev is None or args.no_komi_sweep:
            evaluator = default_evaluator(args.model) if args.symmetries == 1 else None
            evaluation = evaluate_board(board, evaluator=evaluator, model=args.model,
                                        komi_sweep=not args.no_komi_sweep, symmetries=args.symmetries)
        else:  # KataGo's sweep at the value network's komi values, so the two columns line up
            from tengen.eval.katago.evaluator import KataGoEvaluator
            from tengen.eval.valuenet.model import KOMIS

            katago = default_evaluator(args.model) if args.symmetries == 1 else KataGoEvaluator(args.model, symmetries=8)
            evaluation = katago.evaluate([board], komi_sweep=[float(k) for k in KOMIS])[0]
        step(2, 2)
    if args.plot is not None:
        from tengen.io.komi_plot import write_komi_plot

        curves = {"KataGo": evaluation.winrate_by_komi}
        if value_ev is not None:
            curves[f"value net ({value_ev.extras.get('model', '?')})"] = value_ev.winrate_by_komi
        if not any(curves.values()):
            raise CliError(f"--plot {args.plot}: no win-rate-by-komi curve to draw")
        write_komi_plot(args.plot, curves, board.rules.komi,
                        title=f"{os.path.basename(args.sgf)}, move {len(board.moves)}: Black win rate by komi")
    print(f"rules: {game.rules_said()}")  # after the plot: a closed pipe cannot skip it
    print(render_evaluation(board, evaluation, value_net=value_ev))
    return 0
