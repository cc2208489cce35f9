"""What several commands share: the record-and-move arguments, loading that position with its warnings on
stderr, and the progress line on stderr. The network comes from one place for every command: `tengen.api.default_evaluator`."""
from __future__ import annotations

import argparse
import sys
from contextlib import contextmanager
from typing import Callable, Iterator, Optional

from tengen.go.position import Position, load_position
from tengen.go.sgf import Game


def add_position_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("sgf", metavar="FILE.sgf", help="game record")
    parser.add_argument("--move", type=int, default=None, help="position after this many moves (default: the end)")
    parser.add_argument("--rules", metavar="NAME",
                        help="play and score under these rules (chinese, japanese, korean, aga, tromp-taylor, ...) "
                             "instead of the record's RU (Chinese when it names none); the record's komi is kept")


def position_from_args(args: argparse.Namespace) -> Position:
    """The record's position at `--move` (the end of the main line by default) under `--rules`, its warnings
    on stderr."""
    position = load_position(args.sgf, args.move, checked_rules(args))
    warn_forced(position.game)
    return position


def checked_rules(args: argparse.Namespace) -> Optional[str]:
    """`--rules` when a rule set tengen knows (CliError in one line otherwise), or None."""
    from tengen.cli import CliError
    from tengen.go.rules import Rules

    name = getattr(args, "rules", None)
    if name is not None:
        try:
            Rules.from_name(name)
        except ValueError:
            raise CliError(f"--rules {name}: not a rule set tengen knows (chinese, japanese, korean, aga, "
                           "tromp-taylor)") from None
    return name


def warn_forced(game: Game, shown: int = 3) -> None:
    """A stderr line for each property the record gave that loading could not take as written, for each of
    the first `shown` illegal moves the record forced onto the board, and one counting the rest (the
    analysis goes on)."""
    for warnings, rest in ((game.load_warnings(), "properties read leniently"),
                           (game.forced_warnings(), "illegal moves placed as the record says")):
        for warning in warnings[:shown]:
            print(f"tengen: warning: {warning}", file=sys.stderr)
        if len(warnings) > shown:
            print(f"tengen: warning: {game.source}: {len(warnings) - shown} more {rest}", file=sys.stderr)


@contextmanager
def progress_line(enabled: bool, unit: str, desc: str, terminal_only: bool = True,
                  interval: float = 0.1) -> Iterator[Optional[Callable[[int, int], None]]]:
    """A tqdm progress line with rate and ETA on stderr, yielding `update(done, total)` (None when disabled,
    or with `terminal_only` when stderr is not a terminal; otherwise at most a line every `interval` s)."""
    if not enabled or (terminal_only and not sys.stderr.isatty()):
        yield None
        return
    from tqdm import tqdm

    bar = tqdm(total=0, unit=unit, desc=desc, file=sys.stderr, mininterval=interval,
               dynamic_ncols=sys.stderr.isatty())

    def update(done: int, total: int) -> None:
        bar.total = total
        bar.n = done
        bar.refresh()

    try:
        yield update
    finally:
        bar.close()
