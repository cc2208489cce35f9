"""What every subcommand module uses: the one-line user error, the `finite_float` argument type and the
`command` decorator that names a module's subcommand. `tengen.cli` builds the parser from its explicit
table of these modules; nothing here imports the CLI."""
from __future__ import annotations

import argparse
import math
from typing import Callable

Handler = Callable[[argparse.Namespace], int]


class CliError(Exception):
    """A user-facing error: printed as one line, exit status 2."""


def finite_float(text: str) -> float:
    """argparse type: a finite number (float() also takes 'nan' and 'inf')."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(text)
    return value


finite_float.__name__ = "finite number"  # argparse names the type in its message: "invalid finite number value"


def command(name: str, help_text: str, about: str = "", aliases: tuple[str, ...] = ()):
    """Name a subcommand: the decorated function adds its arguments, and `@add_arguments.handler` marks the
    function that runs it; `tengen.cli` reads `command_name`, `help_text` (one line: `tengen --help`),
    `about` (what it does, in full: `tengen NAME --help` and docs/COMMANDS.md), `aliases` and `run` off it."""

    def name_it(add_arguments):
        add_arguments.command_name, add_arguments.help_text = name, help_text
        add_arguments.about, add_arguments.aliases = about or help_text, tuple(aliases)

        def with_handler(handler: Handler) -> Handler:
            add_arguments.run = handler
            return handler

        add_arguments.handler = with_handler
        return add_arguments

    return name_it
