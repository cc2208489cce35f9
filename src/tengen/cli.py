"""The `tengen` command: one subcommand per job, each a thin adapter over the library.

Bad input gives a one-line `tengen: error: ...` message on stderr (`tengen COMMAND: error: ...` for a bad
flag, without argparse's usage block) and exit status 2; never a traceback.
"""
from __future__ import annotations

import argparse
import math
import os
import sys
from typing import Callable

from tengen.go.sgf import SgfError

Handler = Callable[[argparse.Namespace], int]
_COMMANDS: dict[str, tuple[Callable[[argparse.ArgumentParser], None], Handler, str]] = {}


class CliError(Exception):
    """A user-facing error: printed as one line, exit status 2."""


def finite_float(text: str) -> float:
    """argparse type: a finite number (float() also takes 'nan' and 'inf')."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(text)
    return value


finite_float.__name__ = "finite number"  # argparse names the type in its message: "invalid finite number value"


def command(name: str, help_text: str):
    """Register a subcommand: the decorated function adds arguments; `handler` runs it."""

    def register(add_arguments):
        def with_handler(handler: Handler):
            _COMMANDS[name] = (add_arguments, handler, help_text)
            return handler

        add_arguments.handler = with_handler
        return add_arguments

    return register


def _load_commands() -> None:
    from tengen.commands import (  # noqa: F401  (registration side effects)
        analysis_cmd, analyze_cmd, batch_cmd, eval_cmd, gtp_cmd, influence_cmd, models_cmd, review_cmd, score_cmd,
        show_cmd, serve_cmd, winner_cmd)


class OneLineParser(argparse.ArgumentParser):
    """argparse with the CLI's error contract: a bad flag or value is one line on stderr (with where to
    look for the usage), exit status 2; argparse's default prints the whole usage block first."""

    def error(self, message: str):  # type: ignore[override]
        message = " ".join(message.split())
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def build_parser() -> argparse.ArgumentParser:
    _load_commands()
    parser = OneLineParser(prog="tengen", description="Go endgame analysis, evaluation and play.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (add_arguments, handler, help_text) in _COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        add_arguments(p)
        p.set_defaults(handler=handler)
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
