"""Rule-based stand-ins for the KataGo network in analyzer tests (no weights, deterministic).

Stones belong to their color; an empty point to the one color it touches, else to the side to move (a
dame-like point looks owned by whoever is to move, as KataGo's ownership does). `policy="contested"` puts
the policy on the contested empty points only; `policy="anywhere"` spreads it over every legal point (like
KataGo on a sparse local diagram, it then plays anywhere and calls a fresh hane's neighbour settled)."""
from __future__ import annotations

import numpy as np

from tengen.endgame.options import AnalysisOptions
from tengen.endgame.tree import GrowthConfig
from tengen.eval.evaluation import Evaluation
from tengen.go import Board
from tengen.go.coords import neighbours

# one dame-like point (C4) between Black's and White's areas on a 5x5 board: the stand-in's only region
# what tests of the pipeline with a stand-in give the analysis: the stand-in's own policy grows the trees
# and its ownership scores the leaves (the user's defaults would bring in tengen's trained networks)
STANDIN_OPTIONS = AnalysisOptions(predictor="kata", leaf_scoring="evaluator", growth=GrowthConfig())

ONE_DAME = """
    X X O O .
    X X . O O
    X X X O O
    . X X O O
    X X X O .
"""


class StandInNetwork:
    def __init__(self, policy: str = "contested"):
        if policy not in ("contested", "anywhere"):
            raise ValueError("policy must be 'contested' or 'anywhere'")
        self.policy = policy
        self.rows = 0

    def evaluate(self, boards):
        self.rows += len(boards)
        return [self._one(b) for b in boards]

    def _one(self, board: Board) -> Evaluation:
        grid = board.array()
        h, w = grid.shape
        own = grid.astype(np.float32)
        policy = np.zeros((h, w), dtype=np.float32)
        for r in range(h):
            for c in range(w):
                if grid[r, c]:
                    continue
                touching = {int(grid[n]) for n in neighbours((r, c), h, w) if grid[n]}
                contested = len(touching) != 1
                own[r, c] = board.to_play if contested else touching.pop()
                if (contested or self.policy == "anywhere") and board.is_legal(board.to_play, (r, c)):
                    policy[r, c] = 1.0
        total = policy.sum()
        if total:
            policy /= total
        return Evaluation(to_play=board.to_play, komi=0.0, policy=policy, pass_policy=0.0 if total else 1.0,
                          ownership=own, score_mean=float(own.sum()), score_stdev=1.0, score_lead=float(own.sum()),
                          win=0.5, loss=0.5)


class UniformNetwork:
    """Knows nothing: a uniform policy over the legal points and pass, an even game everywhere (win 0.5, lead
    0). Whatever a search finds on it comes from the exactly scored ends of the game, or from its priors."""

    def __init__(self):
        self.calls, self.rows = 0, 0

    def evaluate(self, boards):
        self.calls += 1
        self.rows += len(boards)
        out = []
        for b in boards:
            policy = np.zeros((b.height, b.width), np.float32)
            for p in b.legal_moves(b.to_play):
                policy[p] = 1.0
            n = policy.sum() + 1.0
            out.append(Evaluation(to_play=b.to_play, komi=b.rules.komi, policy=policy / n, pass_policy=1.0 / n,
                                  ownership=np.zeros((b.height, b.width), np.float32), score_mean=0.0,
                                  score_stdev=1.0, score_lead=0.0, win=0.5, loss=0.5))
        return out


class LibertyNetwork:
    """Ownership from liberties, one move deep: a chain is its colour's (+-1) when its liberties, less one if
    the opponent is to move, are at least two; else the opponent's. A uniform policy; counts its rows."""

    def __init__(self):
        self.rows = 0

    def evaluate(self, boards):
        self.rows += len(boards)
        return [self._one(b) for b in boards]

    @staticmethod
    def _one(board) -> Evaluation:
        grid = board.array()
        own = np.zeros(grid.shape, dtype=np.float32)
        for r, c in zip(*np.nonzero(grid)):
            color = int(grid[r, c])
            liberties = len(board.chain_liberties((int(r), int(c)))) - (1 if board.to_play == -color else 0)
            own[r, c] = color if liberties >= 2 else -color
        policy = (grid == 0).astype(np.float32)
        policy /= max(policy.sum(), 1.0)
        return Evaluation(to_play=board.to_play, komi=0.5, policy=policy, pass_policy=0.0, ownership=own,
                          score_mean=0.0, score_stdev=0.0, score_lead=0.0, win=0.5, loss=0.5)


# the black pair C4-D4 has two liberties (B4 and E4): by LibertyNetwork, whoever moves first decides; White's
# stones have four liberties each way
LIBERTY_CRITICAL = """
    . . . . . .
    . . O O . .
    . . X X . .
    . . O O . .
    . . . . . .
    . . . . . .
"""
