"""Kos by the phantom rule (neutral threat environment, Berlekamp / Lew-Frejlak counting).

A ko chain with one exit per side: Black reaches the number l after `black_moves` moves, White reaches
r after `white_moves`, n = black_moves + white_moves. Every move in the chain is worth (l - r) / n and the
ko position counts l - black_moves * (l - r) / n. A simple ko that Black takes (take + connect against
White's single connection) has n = 3: temperature (l - r) / 3 and mean (l + 2r) / 3. The banned retake
becomes a phantom option worth that mean (the position it would return to). Anything else raises
`UnsupportedKo`, which callers turn into "unsupported" rather than a number.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from tengen.cgt.numbers import Value, is_infinite


class UnsupportedKo(ValueError):
    """A ko the phantom rule cannot value (branching kos, several exits, long cycles, hot exits)."""


@dataclass(frozen=True)
class KoChain:
    """A ko chain with one exit per side; `taker` ('black' / 'white') starts it by taking the ko."""

    black_exit: Value
    white_exit: Value
    black_moves: int
    white_moves: int
    taker: str

    def __post_init__(self) -> None:
        if is_infinite(self.black_exit) or is_infinite(self.white_exit):
            raise UnsupportedKo("a ko exit is an unanswered threat")
        if self.black_moves < 1 or self.white_moves < 1:
            raise UnsupportedKo("a ko chain needs at least one move for each side")

    @property
    def moves(self) -> int:
        return self.black_moves + self.white_moves

    @property
    def temperature(self) -> Fraction:
        """Per-move value (l - r) / n (area scoring)."""
        return Fraction(self.black_exit - self.white_exit) / self.moves

    @property
    def mean(self) -> Fraction:
        """Count of the ko position: l - black_moves * t = r + white_moves * t."""
        return self.black_exit - self.black_moves * self.temperature


def simple_ko(black_exit: Value, white_exit: Value, taker: str) -> KoChain:
    """A simple ko: the taker needs take + resolve (2 moves), the other side one resolving move."""
    if taker not in ("black", "white"):
        raise ValueError("taker is 'black' or 'white'")
    if black_exit < white_exit:
        raise UnsupportedKo("the ko's exits are in the wrong order (Black's exit below White's)")
    return KoChain(black_exit, white_exit, 2 if taker == "black" else 1, 1 if taker == "black" else 2, taker)
