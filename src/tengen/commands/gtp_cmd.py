"""`tengen gtp`: a GTP v2 engine on stdin/stdout."""
from __future__ import annotations

import argparse

from tengen.cli import command


@command("gtp", "speak GTP v2 on stdin/stdout")
def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--size", type=int, default=19, help="initial board size (default 19)")
    parser.add_argument("--rules", default="chinese", help="rules preset: chinese, japanese, tromp-taylor, aga")
    parser.add_argument("--komi", type=float, default=None, help="komi (default: the preset's)")


@add_arguments.handler
def run(args: argparse.Namespace) -> int:
    from tengen.go.rules import Rules
    from tengen.io.gtp import GtpEngine

    rules = Rules.from_name(args.rules, args.komi)
    GtpEngine(size=args.size, rules=rules).run()
    return 0
