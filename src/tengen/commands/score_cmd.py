"""`tengen score FILE.sgf`: the score of the final position under the game's rules, dead stones by
Benson's unconditional life (the only dead stones we can be sure of without an evaluator)."""
from __future__ import annotations

import argparse

from tengen.cli import command
from tengen.commands.position_args import add_position_arguments, load_position


@command("score", "score the final position of a game record")
def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_position_arguments(parser)


@add_arguments.handler
def run(args: argparse.Namespace) -> int:
    from tengen.go.coords import to_gtp
    from tengen.go.scoring import benson_dead_stones, score

    game, board = load_position(args)
    dead = benson_dead_stones(board)
    result = score(board, dead)
    print(f"rules: {board.rules.name} ({result.scoring} scoring), komi {result.komi:g}")
    print(f"black {result.black:g}, white {result.white:g}")
    print(f"dead stones (Benson): {' '.join(to_gtp(p, board.height) for p in dead) or 'none'}")
    print(f"recorded result: {game.result or 'unknown'}")
    print(f"score: {result.result_string()}")
    return 0
