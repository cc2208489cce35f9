"""`tengen influence FILE.sgf`: an influence map (Zobrist, Bouzy 5/21 or Manhattan cross-influence) as
ASCII with territory marks, or a PNG heat map with the stones."""
from __future__ import annotations

import argparse

from tengen.commands.base import command
from tengen.commands.common import add_position_arguments, position_from_args


ABOUT = ("classic influence maps with territory marks")


@command("influence", "influence map of a position (zobrist, bouzy, cross)", about=ABOUT)
def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_position_arguments(parser)
    parser.add_argument("--model", default="bouzy", choices=["zobrist", "bouzy", "cross"])
    parser.add_argument("--values", action="store_true", help="print the numbers, not just territory marks")
    parser.add_argument("--png", metavar="OUT.png", help="write a heat map with the stones")


@add_arguments.handler
def run(args: argparse.Namespace) -> int:
    from tengen.eval.influence import influence_map
    from tengen.io.influence_report import render_ascii, render_png
    from tengen.files import check_output_file

    board = position_from_args(args).board
    if args.png is not None:
        check_output_file("--png", args.png, inputs=[args.sgf])
    influence = influence_map(board, args.model)
    print(render_ascii(board, influence, model=args.model, values=args.values))
    if args.png:
        render_png(board, influence, args.png, title=f"{args.model} influence")
        print(f"wrote {args.png}")
    return 0
