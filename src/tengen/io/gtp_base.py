"""What the GTP engine and its command handlers share, and nothing else: the command error, the streamed
answer, argument parsing, and the handler base class. Every `tengen.io.gtp*` module imports this one and no
other sibling (an import-linter contract): the engine (`tengen.io.gtp`) is given its handlers
(`register`), after minigo's GTP handler objects, instead of inheriting them.
"""
from __future__ import annotations

from typing import Callable, Iterator

from tengen.go.colors import parse_color
from tengen.go.coords import CoordinateError, from_gtp

RESIGN = "resign"  # what a player's genmove answers to give up

# command name prefixes written with a hyphen (method cmd_kata_analyze answers kata-analyze)
HYPHEN_PREFIXES = ("kgs", "kata", "lz", "gogui", "tengen")


class GtpError(Exception):
    """A command failure; the message is sent as `? message`."""


class Streamed:
    """A command's answer already written line by line (analysis): `tail` ends it."""

    def __init__(self, tail: str = ""):
        self.tail = tail


def command_name(method_name: str) -> str:
    """The GTP name of a `cmd_*` method: cmd_kata_analyze answers kata-analyze, cmd_play play."""
    name = method_name[4:]
    prefix = name.split("_", 1)[0]
    return prefix + "-" + name[len(prefix) + 1:] if prefix in HYPHEN_PREFIXES and "_" in name else name


def command_methods(obj) -> Iterator[tuple[str, Callable]]:
    """(GTP name, bound method) for each `cmd_*` method of `obj`."""
    for attr in dir(obj):
        if attr.startswith("cmd_"):
            yield command_name(attr), getattr(obj, attr)


def nargs(args: list[str], n: int) -> None:
    """At least `n` arguments, else `? syntax error`."""
    if len(args) < n:
        raise GtpError("syntax error")


def color_arg(text: str) -> int:
    """A GTP color (b, w, black, white)."""
    try:
        return parse_color(text)
    except ValueError:
        raise GtpError("syntax error") from None


def vertex_arg(text: str, board):
    """A GTP vertex on `board` (None for a pass); GNU Go's two errors otherwise."""
    try:
        return from_gtp(text, board.height, board.width)
    except CoordinateError:
        raise GtpError("invalid vertex" if text[:1].isalpha() else "syntax error") from None


class GtpHandler:
    """A set of GTP commands (its `cmd_*` methods) registered with an engine. `engine` gives the position
    (`board`), the search `player` and the streaming plumbing (`stream_begin`, `stream_line`,
    `input_pending`, `wait_for_input`, `require_player`, `search_genmove`). Commands in `needs_player` are
    offered only when the engine has a search player."""

    needs_player: frozenset = frozenset()

    def __init__(self, engine):
        self.engine = engine
