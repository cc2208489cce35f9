"""What several commands share: the record-and-move arguments and loading that position with its warnings on
stderr. The network comes from one place for every command: `tengen.api.default_evaluator`."""
from __future__ import annotations

import argparse
import sys
from tengen.go.position import Position, load_position
from tengen.go.sgf import Game


def add_position_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("sgf", metavar="FILE.sgf", help="game record")
    parser.add_argument("--move", type=int, default=None, help="position after this many moves (default: the end)")


def position_from_args(args: argparse.Namespace) -> Position:
    """The record's position at `--move` (the end of the main line by default), its warnings on stderr."""
    position = load_position(args.sgf, args.move)
    warn_forced(position.game)
    return position


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
