"""Arguments shared by commands that take a game record and a move number."""
from __future__ import annotations

import argparse
import sys

from tengen.go.board import Board
from tengen.go.sgf import Game, load_game


def add_position_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("sgf", metavar="FILE.sgf", help="game record")
    parser.add_argument("--move", type=int, default=None, help="position after this many moves (default: the end)")


def load_position(args: argparse.Namespace) -> tuple[Game, Board]:
    """The game and the board at `--move` (the end of the main line by default)."""
    game = load_game(args.sgf)
    board = game.board_at(args.move, strict=False)
    warn_forced(game)
    return game, board


def warn_forced(game: Game, shown: int = 3) -> None:
    """A stderr line for each property the record gave that loading could not take as written, for each of
    the first `shown` illegal moves the record forced onto the board, and one counting the rest (the
    analysis goes on)."""
    for warnings, rest in ((game.load_warnings(), "properties read leniently"),
                           (game.forced_warnings(), "illegal moves placed as the record says")):
        for warning in warnings[:shown]:
            print(f"tengen: warning: {warning}", file=sys.stderr)
        if len(warnings) > shown:
            print(f"tengen: warning: {game.source}: {len(warnings) - shown} more {rest}", file=sys.stderr)
