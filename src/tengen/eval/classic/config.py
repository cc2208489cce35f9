"""`ClassicConfig`: every setting of the classic evaluator in one frozen dataclass (budgets are counts)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class ClassicConfig:
    """Thresholds of the classic evaluator; the judges it is given carry their own node budgets."""

    danger_liberties: int = 4  # a chain with at most this many liberties is weak: the life judge looks at it
    enclosed_room: int = 20  # a chain whose colour reaches at most this many empty points past the opponent's stones is weak
    critical_liberties: int = 2  # a "critical" verdict on a chain with more liberties and more room is taken as unknown
    urgent_atari_only: bool = False  # the side to move wins only a chain in atari (critical ones by search: half)
    max_judged: int = 60  # weak chains judged per position, fewest liberties first; the rest stay unknown
    small_area: int = 7  # an enclosed area of at most this many points is too small for two eyes
    enclosed_max: Optional[int] = None  # one colour's enclosed area up to this size is its own (None: half the board)
    sealed_max: int = 14  # a two-colour area bounded by settled stones up to this size is valued as a local game
    branch_cap: int = 1000  # the exact valuer only where the product of branching factors (n!) is at most this
    influence: str = "bouzy"  # the influence model of the open rest (tengen.eval.influence.MODELS)
    influence_full: float = 12.0  # |influence| at which an open empty point counts as fully owned
    influence_weight: float = 0.5  # one-ply influence temperatures are multiplied by this (exact values are not)
    sure: float = 0.4  # a one-ply option inside the opponent's area this sure (|ownership|) is worth nothing
    unknown_stone: float = 0.5  # ownership (times its colour) of a weak chain's stone the judge left unknown
    win_scale: Optional[float] = None  # points per logistic unit of `win` (None: sqrt(points) / 4, 4.75 on 19x19)
    policy_temperature: float = 1.0  # points: the softmax spread of the policy over move values
    orthodox_share: float = 0.5  # policy mass given to the orthodox move
    pass_prior: float = 1e-3  # the pass's probability while some move is worth something
    pass_below: float = 0.25  # when no move's value (a temperature, in points) reaches this, passing is likely

    def enclosed_limit(self, points: int) -> int:
        """The largest one-colour enclosed area counted as that colour's outright."""
        return self.enclosed_max if self.enclosed_max is not None else points // 2

    def scale(self, points: int) -> float:
        """Points per logistic unit of the win probability."""
        return self.win_scale if self.win_scale is not None else math.sqrt(points) / 4


def branching_product(n: int, cap: int) -> int:
    """n! (the product of the branching factors of a line filling n points), stopping once past `cap`."""
    out = 1
    for k in range(2, n + 1):
        out *= k
        if out > cap:
            break
    return out
