"""`tengen winner FILE.sgf`: the probability that Black wins, from the influence-based winner network
trained on game records (19x19)."""
from __future__ import annotations

import argparse

from tengen.commands.base import CliError, command
from tengen.commands.common import add_position_arguments, position_from_args


ABOUT = ("P(Black wins) from the influence-based winner network trained on game records")


@command("winner", "predict the winner from influence (trained MLP)", about=ABOUT)
def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_position_arguments(parser)
    parser.add_argument("--model", default=None, help="a trained model name (default: the best for the phase)")


@add_arguments.handler
def run(args: argparse.Namespace) -> int:
    from tengen.train.winner.predict import predict_winner

    position = position_from_args(args)
    board = position.board
    if (board.width, board.height) != (19, 19):
        raise CliError("the winner networks are trained on 19x19 games only")
    move_number = len(board.moves) if args.move is None else args.move
    p_black, model, phase = predict_winner(board, move_number, model=args.model)
    print(f"rules: {position.game.rules_said()}")
    print(f"P(Black wins) = {p_black:.3f}  (model {model}, trained for move {phase}; position at move {move_number})")
    return 0
