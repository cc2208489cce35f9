"""`tengen gtp`: a GTP v2 engine on stdin/stdout."""
from __future__ import annotations

import argparse
import sys

from tengen.cli import command, finite_float


@command("gtp", "speak GTP v2 on stdin/stdout")
def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--size", type=int, default=19, help="initial board size (default 19)")
    parser.add_argument("--rules", default="chinese", help="rules preset: chinese, japanese, tromp-taylor, aga")
    parser.add_argument("--komi", type=finite_float, default=None, help="komi (default: the preset's)")
    parser.add_argument("--dead-stones", choices=("benson", "network"), default="benson",
                        help="final_score's dead stones: Benson's proof only (default), or the network's "
                             "ownership (loads the default KataGo network on first use)")
    parser.add_argument("--model", default=None, help="KataGo model file for --dead-stones network")


@add_arguments.handler
def run(args: argparse.Namespace) -> int:
    from tengen.go.rules import Rules
    from tengen.go.scoring import benson_dead_stones
    from tengen.io.gtp import GtpEngine

    rules = Rules.from_name(args.rules, args.komi)
    finder = _lazy_network_finder(args.model) if args.dead_stones == "network" else benson_dead_stones
    engine = GtpEngine(size=args.size, rules=rules, dead_stones=finder)
    protocol = sys.stdout
    sys.stdout = sys.stderr  # stdout carries GTP responses only: whatever else the session prints goes to stderr
    try:
        engine.run(sys.stdin, protocol)
    finally:
        sys.stdout = protocol
    return 0


def _lazy_network_finder(model):
    """A network dead-stone finder that loads the network on the first final_score (GTP starts fast)."""
    loaded = []

    def find(board):
        if not loaded:
            from tengen.api import default_evaluator
            from tengen.eval.katago.final_score import network_dead_stones
            from tengen.io.gtp import GtpError

            try:
                evaluator = default_evaluator(model)
            except (OSError, ValueError) as e:  # offline with no cached network, a corrupt model file
                raise GtpError(f"cannot load the network: {' '.join(str(e).split())}") from None
            loaded.append(network_dead_stones(evaluator))
        return loaded[0](board)
    return find
