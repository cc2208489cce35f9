"""One node of the search tree: the position after a move, its children's priors and the values backed up.

Values are kept from Black's side (win rate, score lead, and the win rate at every komi label when the
evaluator gives one); the side to move at the parent reads them through `utility_for`.
"""
from __future__ import annotations

import math
from typing import Optional

import numpy as np

from tengen.go.coords import Move


class Node:
    """A position in the tree. `moves` / `priors` list the candidate moves (pass included when the
    evaluator gave it any prior); `children[i]` is None until move i is first visited."""

    __slots__ = ("move", "to_play", "prior", "parent", "moves", "priors", "children", "visits", "pending",
                 "win_sum", "win_sq_sum", "lead_sum", "komi_sum", "terminal", "expanded", "move_prior")

    def __init__(self, move: Move, to_play: int, prior: float, parent: Optional["Node"] = None):
        self.move = move
        self.to_play = to_play  # the player to move in this node's position
        self.prior = prior
        self.parent = parent
        self.moves: list[Move] = []
        self.priors: np.ndarray = np.zeros(0, dtype=np.float64)
        self.children: list[Optional[Node]] = []
        self.visits = 0
        self.pending = 0  # simulations in flight through this node (virtual loss)
        self.win_sum = 0.0  # Black's win rate, summed over visits
        self.win_sq_sum = 0.0
        self.lead_sum = 0.0  # Black's score lead, summed
        self.komi_sum: Optional[np.ndarray] = None  # Black's win rate per komi label, summed
        self.terminal = False  # the game ended here (two passes)
        self.expanded = False
        self.move_prior: Optional[np.ndarray] = None  # the additive prior per candidate (Search's move_prior)

    # ------------------------------------------------------------------ values
    def black_winrate(self) -> float:
        return self.win_sum / self.visits if self.visits else 0.5

    def black_lead(self) -> float:
        return self.lead_sum / self.visits if self.visits else 0.0

    def winrate_for(self, player: int) -> float:
        w = self.black_winrate()
        return w if player == 1 else 1.0 - w

    def utility_for(self, player: int, score_utility: float) -> float:
        """Win rate for `player` plus a small squashed score term (prefers bigger wins, smaller losses)."""
        lead = self.black_lead() if player == 1 else -self.black_lead()
        return self.winrate_for(player) + score_utility * (2.0 / math.pi) * math.atan(lead / 10.0)

    def winrate_lcb(self, player: int) -> float:
        """A lower confidence bound of `player`'s win rate (normal approximation, variance floored)."""
        if self.visits == 0:
            return 0.0
        mean = self.black_winrate()
        var = max(self.win_sq_sum / self.visits - mean * mean, 0.0) + 0.25 / (self.visits + 1)
        w = mean if player == 1 else 1.0 - mean
        return w - 1.96 * math.sqrt(var / self.visits)

    # ------------------------------------------------------------------ updates
    def add(self, black_win: float, black_lead: float, komi_curve: Optional[np.ndarray]) -> None:
        self.visits += 1
        self.win_sum += black_win
        self.win_sq_sum += black_win * black_win
        self.lead_sum += black_lead
        if komi_curve is not None:
            if self.komi_sum is None:
                self.komi_sum = np.zeros_like(komi_curve)
            if self.komi_sum.shape == komi_curve.shape:
                self.komi_sum += komi_curve

    def child_visits(self) -> np.ndarray:
        return np.array([c.visits if c is not None else 0 for c in self.children], dtype=np.int64)

    def best_child_index(self, score_utility: float) -> Optional[int]:
        """The most visited child (ties: the better utility, then the higher prior); None when none visited."""
        best, key = None, None
        for i, child in enumerate(self.children):
            if child is None or child.visits == 0:
                continue
            k = (child.visits, child.utility_for(self.to_play, score_utility), self.priors[i])
            if key is None or k > key:
                best, key = i, k
        return best

    def principal_variation(self, score_utility: float, limit: int = 30) -> list[Move]:
        """Most-visited moves from this node down."""
        line: list[Move] = []
        node: Optional[Node] = self
        while node is not None and len(line) < limit:
            i = node.best_child_index(score_utility)
            if i is None:
                break
            line.append(node.moves[i])
            node = node.children[i]
        return line
