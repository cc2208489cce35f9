"""`tengen show FILE.sgf [--move N]`: the position as an ASCII board with last move, prisoners, to-play."""
from __future__ import annotations

import argparse

from tengen.commands.base import command
from tengen.commands.common import add_position_arguments, position_from_args


ABOUT = ("the position: last move, prisoners, side to play, rules")


@command("show", "print a position of a game record", about=ABOUT)
def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_position_arguments(parser)


@add_arguments.handler
def run(args: argparse.Namespace) -> int:
    from tengen.go.colors import BLACK, WHITE
    from tengen.go.coords import to_gtp
    from tengen.go.render import render

    position = position_from_args(args)
    game, board = position.game, position.board
    n = len(game.moves) if args.move is None else args.move
    print(render(board))
    last = game.moves[n - 1] if n else None  # the record's, not the board's history (a forced move resets it)
    last_text = f"{'B' if last[0] == BLACK else 'W'} {to_gtp(last[1], board.height)}" if last else "none"
    caps = board.captures
    print(f"move {n} of {len(game.moves)}; last move: {last_text}; to play: {'Black' if board.to_play == BLACK else 'White'}")
    print(f"prisoners: Black has captured {caps[BLACK]}, White has captured {caps[WHITE]}")
    rules = game.rules.name
    if not (game.names_rules or game.rules_overridden):
        rules += " (assumed: the record has no RU)"
    print(f"rules: {rules}, komi {game.komi:g}, handicap {game.handicap}; result: {game.result or 'unknown'}")
    del WHITE
    return 0
