"""What several commands share: the record-and-move arguments, loading that position with its warnings on
stderr, and the progress line on stderr. The network comes from one place for every command: `tengen.api.default_evaluator`."""
from __future__ import annotations

import argparse
import sys
import time
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


def add_device_argument(parser: argparse.ArgumentParser, what: str = "the network") -> None:
    """`--device cpu|cuda|auto` (default cpu), the same flag in every command that runs a network."""
    parser.add_argument("--device", choices=("cpu", "cuda", "auto"), default="cpu",
                        help=f"where {what} runs (default cpu; auto: CUDA when present)")


def position_from_args(args: argparse.Namespace) -> Position:
    """The record's position at `--move` (the end of the main line by default) under `--rules`, its warnings
    on stderr."""
    position = load_position(args.sgf, args.move, checked_rules(args))
    warn_forced(position.game)
    return position


def checked_rules(args: argparse.Namespace) -> Optional[str]:
    """`--rules` when a rule set tengen knows (CliError in one line otherwise), or None."""
    from tengen.commands.base import CliError
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
    """Progress on stderr, yielding `update(done, total)` (None when disabled, or with `terminal_only` when
    stderr is not a terminal): on a terminal a tqdm line with rate and ETA, redrawn in place; elsewhere (a
    log, a pipe) a plain line at most every `interval` s, and one when the work ends."""
    if not enabled or (terminal_only and not sys.stderr.isatty()):
        yield None
        return
    if not sys.stderr.isatty():
        log = PlainProgress(unit, desc, interval)
        try:
            yield log.update
        finally:
            log.close()
        return
    from tqdm import tqdm

    bar = tqdm(total=0, unit=unit, desc=desc, file=sys.stderr, mininterval=0.1, dynamic_ncols=True)

    def update(done: int, total: int, note: str = "") -> None:
        bar.total = total
        bar.n = done
        if note:
            bar.set_postfix_str(note, refresh=False)
        bar.update(0)  # redraws only when `mininterval` has passed (refresh() would every time)

    try:
        yield update
    finally:
        bar.refresh()
        bar.close()


class PlainProgress:
    """Progress for a log: "tengen: analyzing: 3/11 regions, 40 network evaluations, 12 s, about 30 s left" (the
    note the caller gives), at most one line every
    `interval` seconds (the clock is injectable for tests), and a last line when closed after any update."""

    def __init__(self, unit: str, desc: str, interval: float, clock: Optional[Callable[[], float]] = None,
                 stream=None):
        self.unit, self.desc, self.interval = unit, desc, interval
        self.clock = clock or time.monotonic
        self.stream = stream if stream is not None else sys.stderr
        self.started = self.clock()
        self.printed_at: Optional[float] = None
        self.last: Optional[tuple[int, int, str]] = None

    def update(self, done: int, total: int, note: str = "") -> None:
        self.last = (done, total, note)
        now = self.clock()
        if self.printed_at is None and now - self.started < self.interval:
            return  # quick work prints nothing until it has run `interval` seconds
        if self.printed_at is not None and now - self.printed_at < self.interval:
            return
        self.printed_at = now
        self._print(done, total, note, now)

    def close(self) -> None:
        if self.last is not None and self.printed_at is not None:
            self._print(*self.last, self.clock())

    def _print(self, done: int, total: int, note: str, now: float) -> None:
        elapsed = now - self.started
        text = f"tengen: {self.desc}: {done}/{total} {self.unit}s" + (f", {note}" if note else "") + f", {elapsed:.0f} s"
        if 0 < done < total:
            text += f", about {elapsed / done * (total - done):.0f} s left"
        print(text, file=self.stream, flush=True)
