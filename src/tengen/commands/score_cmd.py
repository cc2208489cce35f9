"""`tengen score FILE.sgf`: the score of a finished position under the game's rules. Dead stones come from
the KataGo network's ownership (the position before the closing passes); `--benson` uses only the stones
Benson's unconditional life proves dead (no network)."""
from __future__ import annotations

import argparse

from tengen.cli import command
from tengen.commands.common import add_position_arguments, position_from_args


@command("score", "score the final position of a game record")
def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_position_arguments(parser)
    parser.add_argument("--benson", action="store_true", help="dead stones by Benson's algorithm only (no network)")
    parser.add_argument("--model", help="KataGo network file (.bin.gz); default: the cached katrain network")


@add_arguments.handler
def run(args: argparse.Namespace) -> int:
    from tengen.go.coords import to_gtp

    position = position_from_args(args)
    game, board = position.game, position.board
    if args.benson:
        from tengen.go.scoring import benson_dead_stones, score

        dead = benson_dead_stones(board)
        result = score(board, dead)
        method = "Benson's unconditional life"
    else:
        from tengen.api import default_evaluator
        from tengen.eval.katago.final_score import score_game

        result = score_game([board], default_evaluator(args.model), [game.handicap])[0]
        dead = list(result.dead)
        method = "network ownership"
    print(f"rules: {board.rules.name} ({board.rules.scoring} scoring), komi {board.rules.komi:g}")
    print(f"black {result.black:g}, white {result.white:g}")
    print(f"dead stones ({method}): {' '.join(to_gtp(p, board.height) for p in dead) or 'none'}")
    print(f"recorded result: {game.result or 'unknown'}")
    print(f"score: {result.result_string()}")
    return 0
