"""What an evaluator says about a position (`Evaluation`) and the one interface every evaluator offers.

Every number is from Black's side, whoever is to move: ownership +1 = Black's, scores are Black's
area minus White's area minus komi, `win` is Black's probability of winning. Arrays are (height, width)
with row 0 at the top, like `Board.array()`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator, Optional, Protocol, Sequence, runtime_checkable

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


# ---------------------------------------------------------------------- the optional members, written down
# An evaluator needs only `evaluate`. The callers below look for these members and do without them; an
# evaluator that has one must give it exactly this shape (checked for every shipped evaluator by a test).

@runtime_checkable
class SweepsKomi(Protocol):
    """`evaluate(positions, komi_sweep=[k, ...])` fills `Evaluation.winrate_by_komi` in the same call (the
    KataGo evaluator: one batched pass per komi). The web's win-rate curve and `tengen eval` use it."""

    def evaluate(self, positions: Sequence[Any], komi_sweep: Optional[Sequence[float]] = None) -> list[Evaluation]:
        ...


@runtime_checkable
class Symmetric(Protocol):
    """`symmetries`: how many board symmetries each evaluation averages; the search evaluates its root
    with more when the evaluator can."""

    symmetries: int


@runtime_checkable
class Caching(Protocol):
    """`clear_cache()` drops remembered evaluations (the JSON protocol's `clear_cache` action)."""

    def clear_cache(self) -> None:
        ...


@runtime_checkable
class ReportsFresh(Protocol):
    """`fresh`: for the last `evaluate` call, which positions needed the network (a cache in front of it),
    so an analysis charges each region its own evaluations."""

    fresh: list[bool]


@runtime_checkable
class Described(Protocol):
    """`display_name`: what reports call the evaluator ("classic evaluator"; "network" for one without
    it); `uses_network` False: `auto` settings mean its own policy and ownership (`AnalysisOptions.resolved`)."""

    display_name: str
    uses_network: bool


@runtime_checkable
class Named(Protocol):
    """`display_name` alone (the half of `Described` a report reads)."""

    display_name: str


@runtime_checkable
class OnDevice(Protocol):
    """`device`: the torch device its network runs on; the analysis's other networks follow it."""

    device: Any


def sweeps_komi(evaluator) -> bool:
    """Whether `evaluator.evaluate` takes `komi_sweep` (`SweepsKomi`)."""
    import inspect

    return "komi_sweep" in inspect.signature(evaluator.evaluate).parameters


def display_name(evaluator) -> str:
    """What reports call `evaluator` (`Described`): its `display_name`, else "network"."""
    return evaluator.display_name if isinstance(evaluator, Named) else "network"


def wrapped_chain(evaluator) -> Iterator:
    """`evaluator`, then each evaluator it wraps (a cache's or a guard's `evaluator` or `inner`), outermost
    first: where a question about the network (its device, whether it has one) finds the answer."""
    for _ in range(16):  # wrappers nest a few deep; a bound instead of trusting every wrapper
        if evaluator is None:
            return
        yield evaluator
        evaluator = getattr(evaluator, "evaluator", None) or getattr(evaluator, "inner", None)
