"""From move values to a policy: the orthodox move over the hot sources gets `orthodox_share` of the mass,
the rest a softmax over every legal move's value (a temperature in points); passing is likely only when
nothing is worth a move. `tengen.eval` does not import `tengen.cgt` (the layer map): the orthodox choice is
an injected `MoveChooser` (`tengen.api` wires sentestrat, the ko rule and tedomari of `tengen.cgt.orthodox`);
the default here plays the hottest source, its own sente first among equals (tedomari's first rule)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Protocol

import numpy as np

from tengen.eval.classic.config import ClassicConfig
from tengen.go.colors import BLACK
from tengen.go.coords import Point

# tengen.cgt.thermo's kind names (strings, so that this layer needs no import of cgt)
GOTE, NUMBER, BLACK_SENTE, WHITE_SENTE = "gote", "number", "black_sente", "white_sente"


@dataclass
class Source:
    """One source of move value: its count (mean), temperature, kind, each colour's best move there, a
    label, and the CGT component a chooser may read (a `Game` or `SimpleKo` from the valuer, or None)."""

    label: str
    mean: float
    temperature: float
    kind: str
    black: Optional[Point]
    white: Optional[Point]
    component: Any = None

    def move(self, to_play: int) -> Optional[Point]:
        """The best move here for `to_play`."""
        return self.black if to_play == BLACK else self.white


class MoveChooser(Protocol):
    """Picks the source where the side to move should play (None: nowhere)."""

    def __call__(self, sources: list[Source], to_play: int) -> Optional[Source]:
        """The chosen source."""
        ...


def hottest_source(sources: list[Source], to_play: int) -> Optional[Source]:
    """The hottest source with a move for `to_play` (temperature above 0); among the hottest, its own sente first."""
    usable = [s for s in sources if s.move(to_play) is not None and s.temperature > 0]
    if not usable:
        return None
    top = max(s.temperature for s in usable)
    hottest = [s for s in usable if s.temperature == top]
    mine = BLACK_SENTE if to_play == BLACK else WHITE_SENTE
    return next((s for s in hottest if s.kind == mine), hottest[0])


def make_policy(shape: tuple[int, int], values: dict[Point, float], orthodox_move: Optional[Point],
                config: ClassicConfig) -> tuple[np.ndarray, float]:
    """Policy over the legal moves in `values` plus pass: the orthodox move's share, the rest by softmax."""
    policy = np.zeros(shape, dtype=np.float64)
    if not values:
        return policy.astype(np.float32), 1.0
    points = list(values)
    v = np.array([values[p] for p in points], dtype=np.float64)
    best = float(v.max())
    weights = np.exp((v - best) / max(config.policy_temperature, 1e-6))
    weights /= weights.sum()
    for p, x in zip(points, weights):
        policy[p] = x
    if orthodox_move is not None and orthodox_move in values:
        policy *= 1.0 - config.orthodox_share
        policy[orthodox_move] += config.orthodox_share
    pass_policy = config.pass_prior if best >= config.pass_below else 0.9
    policy *= 1.0 - pass_policy
    return policy.astype(np.float32), float(pass_policy)
