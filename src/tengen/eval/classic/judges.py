"""The two judges the classic evaluator is given, as typed protocols, with defaults that need nothing
above layer 2: a life-and-death judge (the real one, `tengen.life.search`, is wired in by `tengen.api`)
and a sealed-region valuer (the exact solver, `tengen.endgame.exact.solve`, likewise)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional, Protocol, Sequence

from tengen.go.board import Board
from tengen.go.coords import Point

STATUSES = ("alive", "dead", "critical", "ko", "unknown")


@dataclass(frozen=True)
class LifeVerdict:
    """A chain's status (STATUSES) with the key moves: `attack` kills it, `defense` saves it."""

    status: str
    attack: Optional[Point] = None
    defense: Optional[Point] = None
    nodes: int = 0


class LifeJudge(Protocol):
    """Life and death of the chain at a point, under the judge's own (node) budget."""

    def __call__(self, board: Board, point: Point) -> LifeVerdict:
        """The verdict on the chain at `point`."""
        ...


@dataclass
class RegionValue:
    """A local game's value from Black's side: count (mean), temperature, kind (tengen.cgt.thermo's kind
    names), the best first moves of each colour, and the CGT component an orthodox chooser reads (a
    `Game` or `SimpleKo` from the exact valuer, opaque here; None: a stand-in is made from the numbers)."""

    mean: float
    temperature: float
    kind: str
    best_black: Sequence[Point] = ()
    best_white: Sequence[Point] = ()
    exact: bool = False
    component: Any = None
    thermograph: Any = None
    nodes: int = 0
    notes: list[str] = field(default_factory=list)


class RegionValuer(Protocol):
    """The exact value of a sealed region (points bounded by settled stones), or None when it cannot."""

    def __call__(self, board: Board, points: Sequence[Point]) -> Optional[RegionValue]:
        """The region's value, or None (the caller's heuristic takes over)."""
        ...


def static_life_judge(board: Board, point: Point) -> LifeVerdict:
    """No search: a chain in atari is critical (its liberty both takes and saves it); others unknown."""
    liberties = board.chain_liberties(point)
    if len(liberties) == 1:
        return LifeVerdict("critical", liberties[0], liberties[0])
    return LifeVerdict("unknown")


def no_region_valuer(board: Board, points: Sequence[Point]) -> Optional[RegionValue]:
    """No exact solver: every sealed region is valued by the heuristic."""
    return None
