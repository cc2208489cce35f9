"""What an evaluator says about a position (`Evaluation`) and the one interface every evaluator offers.

Every number is from Black's side, whoever is to move: ownership +1 = Black's, scores are Black's
area minus White's area minus komi, `win` is Black's probability of winning. Arrays are (height, width)
with row 0 at the top, like `Board.array()`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional, Protocol, Sequence, runtime_checkable

import numpy as np


@dataclass
class Evaluation:
    """One position's evaluation. Policies are probabilities over the points (illegal points 0) plus pass."""

    to_play: int  # BLACK = 1 or WHITE = -1: whose move `policy` is for
    komi: float  # the komi the evaluation assumed (White's compensation)
    policy: np.ndarray  # float32 (height, width), side to move, sums to 1 - pass_policy
    pass_policy: float
    ownership: np.ndarray  # float32 (height, width) in [-1, 1], +1 = Black owns it
    score_mean: float  # Black's expected (area - komi) margin, as trained on self-play outcomes
    score_stdev: float
    score_lead: float  # points Black is ahead by (what komi change would make the game even)
    win: float  # Black's probability of winning
    loss: float  # Black's probability of losing
    no_result: float = 0.0
    opponent_policy: Optional[np.ndarray] = None  # (height, width) for the side NOT to move, on request
    opponent_pass_policy: Optional[float] = None
    winrate_by_komi: Optional[dict[float, float]] = None  # komi -> Black's win probability
    extras: dict[str, Any] = field(default_factory=dict)  # evaluator-specific outputs (uncertainties, ...)

    @property
    def height(self) -> int:
        return int(self.ownership.shape[0])

    @property
    def width(self) -> int:
        return int(self.ownership.shape[1])

    @property
    def winrate(self) -> float:
        """Black's win probability with a no-result counted as half a win."""
        return self.win + 0.5 * self.no_result

    def top_moves(self, n: int = 5) -> list[tuple[Optional[tuple[int, int]], float]]:
        """The `n` most likely moves for the side to move as ((row, col) or None for pass, probability)."""
        flat = [((int(r), int(c)), float(self.policy[r, c])) for r, c in np.argwhere(self.policy > 0)]
        flat.append((None, float(self.pass_policy)))
        flat.sort(key=lambda item: -item[1])
        return flat[:n]


@runtime_checkable
class Evaluator(Protocol):
    """Anything that evaluates a batch of positions (tengen `Board`s, with their rules and history)."""

    def evaluate(self, positions: Sequence[Any]) -> list[Evaluation]:
        """Evaluate every position; the result list has one `Evaluation` per position, in order."""
        ...
