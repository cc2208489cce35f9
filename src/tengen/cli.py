"""The `tengen` command: one subcommand per job, each a thin adapter over the library.

Bad input gives a one-line `tengen: error: ...` message on stderr (`tengen COMMAND: error: ...` for a bad
flag, without argparse's usage block) and exit status 2; never a traceback.
"""
from __future__ import annotations

import argparse
import os
import sys

from tengen.commands.base import CliError
from tengen.go.sgf import SgfError


def command_table() -> list:
    """Every subcommand's `add_arguments` function (named by `tengen.commands.base.command`), in the order
    `tengen --help` lists them: the one place a new command is added."""
    from tengen.commands import (analysis_cmd, analyze_cmd, batch_cmd, eval_cmd, gtp_cmd, influence_cmd,
                                 models_cmd, review_cmd, score_cmd, serve_cmd, show_cmd, solve_cmd, winner_cmd)

    return [analysis_cmd.add_arguments, analyze_cmd.add_arguments, batch_cmd.add_arguments, eval_cmd.add_arguments,
            gtp_cmd.add_arguments, influence_cmd.add_arguments, models_cmd.add_arguments, review_cmd.add_arguments,
            score_cmd.add_arguments, show_cmd.add_arguments, serve_cmd.add_arguments, solve_cmd.add_arguments,
            winner_cmd.add_arguments]


class OneLineParser(argparse.ArgumentParser):
    """argparse with the CLI's error contract: a bad flag or value is one line on stderr (with where to
    look for the usage), exit status 2; argparse's default prints the whole usage block first."""

    def error(self, message: str):  # type: ignore[override]
        message = " ".join(message.split())
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="tengen", description="Go endgame analysis, evaluation and play.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for add_arguments in command_table():
        p = sub.add_parser(add_arguments.command_name, help=add_arguments.help_text,
                           description=add_arguments.about, aliases=list(add_arguments.aliases))
        add_arguments(p)
        p.set_defaults(handler=add_arguments.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    try:
        return args.handler(args)
    except BrokenPipeError:  # output piped into `head` and closed early: not an error (before OSError, its base)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # the interpreter's last flush of stdout must not fail again
        return 0
    except (CliError, SgfError, ValueError, OSError) as exc:
        message = " ".join(str(exc).split()) or type(exc).__name__
        print(f"tengen: error: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("tengen: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
