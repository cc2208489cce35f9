"""`tengen score FILE.sgf`: the score of a finished position under the game's rules. Dead stones come from
the KataGo network's ownership (the position before the closing passes); `--benson` uses only the stones
Benson's unconditional life proves dead (no network)."""
from __future__ import annotations

import argparse
from typing import Optional

from tengen.commands.base import command
from tengen.commands.common import add_position_arguments, position_from_args


ABOUT = ("the count of a finished game under its rules (said: the record's RU, `--rules`, or Chinese assumed for a "
         "record without RU); dead stones from the network's ownership (`--benson`: only stones Benson proves "
         "dead); a difference from the recorded result is explained (the other scoring gives it: the record's "
         "rules were probably others; else the dead stones)")


@command("score", "score the final position of a game record", about=ABOUT)
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
    print(f"rules: {game.rules_said()}")
    print(f"black {result.black:g}, white {result.white:g}")
    print(f"dead stones ({method}): {' '.join(to_gtp(p, board.height) for p in dead) or 'none'}")
    print(f"recorded result: {game.result or 'unknown'}")
    print(f"score: {result.result_string()}")
    print(compare_with_record(game.result, board, dead, result, args.benson))
    return 0


def recorded_margin(result: Optional[str]) -> Optional[float]:
    """Black's margin in a recorded RE ("B+3.5" 3.5, "W+0.5" -0.5, "0" or "Draw" 0); None when the record
    gives no count (a resignation, time, forfeit, or no result)."""
    text = (result or "").strip().upper()
    if text in ("0", "DRAW", "JIGO"):
        return 0.0
    if len(text) > 2 and text[0] in "BW" and text[1] == "+":
        try:
            margin = float(text[2:])
        except ValueError:
            return None
        return margin if text[0] == "B" else -margin
    return None


def compare_with_record(recorded: Optional[str], board, dead, ours, benson: bool) -> str:
    """One line: whether the score agrees with the record's result, and if not the likeliest reason: the
    other scoring (area vs territory: the record's rules differ from those assumed), or the dead stones."""
    from tengen.go.scoring import area_score, territory_score

    margin = recorded_margin(recorded)
    if margin is None:
        return ("comparison: the record gives no counted result (resignation, time or none): nothing to compare"
                if recorded else "comparison: the record gives no result")
    if abs(ours.margin - margin) < 0.25:
        return "comparison: the score agrees with the recorded result"
    other = (territory_score if ours.scoring == "area" else area_score)(board, dead, ours.komi)
    if abs(other.margin - margin) < 0.25:
        rules = "japanese" if other.scoring == "territory" else "chinese"
        return (f"comparison: the recorded {recorded} is what {other.scoring} scoring gives with these dead stones "
                f"({other.result_string()}): the game was probably played under {rules.capitalize()} rules "
                f"(--rules {rules})")
    why = ("Benson's unconditional life marks only stones that can never live, so stones the players agreed were "
           "dead count as alive here (drop --benson to let the network judge)" if benson else
           "the dead stones are the network's judgement and the players may have agreed otherwise, or the game "
           "stopped before every boundary was closed")
    return (f"comparison: the score differs from the recorded {recorded} by {abs(ours.margin - margin):g} points, "
            f"and {other.scoring} scoring would give {other.result_string()}: not a difference of rules; {why}")
