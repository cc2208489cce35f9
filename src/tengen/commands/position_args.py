"""Arguments shared by commands that take a game record and a move number."""
from __future__ import annotations

import argparse

from tengen.go.board import Board
from tengen.go.sgf import Game, load_game


def add_position_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("sgf", metavar="FILE.sgf", help="game record")
    parser.add_argument("--move", type=int, default=None, help="position after this many moves (default: the end)")


def load_position(args: argparse.Namespace) -> tuple[Game, Board]:
    """The game and the board at `--move` (the end of the main line by default)."""
    game = load_game(args.sgf)
    return game, game.board_at(args.move, strict=False)
