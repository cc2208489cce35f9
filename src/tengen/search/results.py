"""What a search returns (`SearchResult`, one `MoveStats` per root child) and how it is configured
(`SearchConfig`). Adapters (GTP analysis lines, the JSON protocol) read only these.

Win rates and score leads in `MoveStats` / `SearchResult` are from the side to move at the root (as
KataGo's GTP reports them by default); `ownership` and `winrate_by_komi` are from Black's side, like
every `Evaluation`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from tengen.go.coords import Move


@dataclass(frozen=True)
class SearchConfig:
    """Every setting of a search, checked when made. Budgets are visits (counts); seconds are optional."""

    visits: int = 64  # playouts per search (a reused subtree's visits count towards it)
    batch_size: int = 16  # leaves evaluated per network call (virtual loss spreads them)
    c_puct: float = 1.1  # exploration constant of PUCT
    fpu_reduction: float = 0.2  # an unvisited child's value: the parent's minus this (in win rate)
    virtual_loss: int = 1  # visits a pending leaf counts as lost, per path node
    score_utility: float = 0.05  # weight of the (squashed) score lead in the utility beside the win rate
    root_symmetries: int = 8  # symmetries averaged for the root's evaluation (evaluators with `symmetries`)
    resign_threshold: float = 0.05  # resign when the root win rate stays below this ...
    resign_consecutive: int = 3  # ... for this many searches in a row (the player keeps the count)
    min_resign_visits: int = 32  # and a search had at least this many visits
    seed: int = 0  # tie-breaking and root noise
    max_children_reported: int = 50  # MoveStats kept in a result
    prior_weight: float = 0.0  # weight of the additive move prior (Search's move_prior, e.g. the PBN); 0: off

    def __post_init__(self) -> None:
        if self.visits < 1:
            raise ValueError("visits must be at least 1")
        if not 1 <= self.batch_size <= 1024:
            raise ValueError("batch_size must be 1..1024")
        if self.c_puct <= 0:
            raise ValueError("c_puct must be positive")
        if not 0.0 <= self.resign_threshold < 0.5:
            raise ValueError("resign_threshold must be in [0, 0.5)")
        if not 1 <= self.root_symmetries <= 8:
            raise ValueError("root_symmetries must be 1..8")
        if not (self.prior_weight >= 0.0 and math.isfinite(self.prior_weight)):
            raise ValueError("prior_weight must be finite and at least 0")


@dataclass
class MoveStats:
    """One root move: its visits and values (side to move's view), prior, lower confidence bound, PV."""

    move: Move  # (row, col) or None for pass
    visits: int
    winrate: float  # 0..1, for the player to move at the root
    score_lead: float  # points, for the player to move at the root
    prior: float
    lcb: float  # win rate lower confidence bound (KataGo-style, for `lcb` in analysis lines)
    utility: float
    order: int = 0  # rank (0 = best), as in KataGo's `order`
    pv: list[Move] = field(default_factory=list)  # starts with `move`


@dataclass
class SearchResult:
    """The root after a search."""

    to_play: int
    komi: float  # the komi the search evaluated under (a dynamic komi, when one is in use)
    visits: int  # the root's visits
    winrate: float  # side to move's
    score_lead: float  # side to move's
    moves: list[MoveStats]  # by order (best first)
    best: Move
    ownership: Optional[np.ndarray] = None  # (height, width), Black's view, averaged over the tree's evaluations
    winrate_by_komi: Optional[dict[float, float]] = None  # Black's win rate at each komi label, backed up
    seconds: float = 0.0
    network_seconds: float = 0.0  # time inside evaluator calls (benchmarks: the rest is search overhead)
    evaluations: int = 0  # positions sent to the evaluator during this search
    root_policy: Optional[dict[Move, float]] = None  # the root's prior of each legal move (pass: None)

    @property
    def black_winrate(self) -> float:
        return self.winrate if self.to_play == 1 else 1.0 - self.winrate
