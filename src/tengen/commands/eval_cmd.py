"""`tengen eval FILE.sgf [--move N]`: the KataGo network's view of a position: win rate, score lead,
win rate by komi (a batched komi sweep), and an ownership map."""
from __future__ import annotations

import argparse

from tengen.cli import command
from tengen.commands.common import add_position_arguments


@command("eval", "evaluate a position with the KataGo network")
def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_position_arguments(parser)
    parser.add_argument("--model", help="KataGo network file (.bin.gz); default: the cached katrain network")
    parser.add_argument("--symmetries", type=int, default=1, choices=[1, 8], help="average over 8 symmetries")
    parser.add_argument("--no-komi-sweep", action="store_true", help="skip the win-rate-by-komi table")


@add_arguments.handler
def run(args: argparse.Namespace) -> int:
    from tengen.api import default_evaluator
    from tengen.eval.katago.one_position import evaluate_board
    from tengen.io.eval_report import render_evaluation
    from tengen.go.sgf import load_game

    board = load_game(args.sgf).board_at(args.move)  # a bad record or move number fails before the network loads
    evaluator = default_evaluator(args.model) if args.symmetries == 1 else None
    evaluation = evaluate_board(board, evaluator=evaluator, model=args.model,
                                komi_sweep=not args.no_komi_sweep, symmetries=args.symmetries)
    print(render_evaluation(board, evaluation))
    return 0
