"""`PlayoutEvaluator`: a cheap evaluator without a network, for searches that use no policy network.

Policy: uniform over the legal points of the side to move, leaving out its own single-point eyes (an empty point
whose on-board neighbours are all its stones), as the native playouts do; pass gets `PASS_PRIOR` (all of it when
nothing else is left), each point's share jittered by up to TIE_JITTER (position-seeded) so that the search's
ties do not all go to the first candidate in row-major order (the top edge). Value: the fraction of `playouts` random games (`tengen.go.playout`, native speed) that
Black wins under area counting with the board's komi (a draw counts half); ownership: the mean final area
ownership; score: the mean margin (Black's area - White's area - komi). Each playout's seed is a pure function
of the evaluator's seed, the position (stones, side to move, ko) and the playout's index, so an evaluation is
the same whichever order or batch the positions come in.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from tengen.eval.evaluation import Evaluation
from tengen.go.board import Board
from tengen.go.playout import playout_area

PASS_PRIOR = 1e-3  # the pass's prior while a point is left to play
TIE_JITTER = 1e-3  # relative spread of the uniform policy: breaks PUCT's ties without a row-major bias
_MASK64 = (1 << 64) - 1


def _mix64(x: int) -> int:
    """splitmix64's finalizer: a well-spread 64-bit value from any integer."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return (x ^ (x >> 31)) or 1


def own_eyes(grid: np.ndarray, color: int) -> np.ndarray:
    """bool (height, width): empty points whose on-board neighbours are all `color`'s stones."""
    own = np.pad(grid == color, 1, constant_values=True)
    around = own[:-2, 1:-1] & own[2:, 1:-1] & own[1:-1, :-2] & own[1:-1, 2:]
    return (grid == 0) & around


class PlayoutEvaluator:
    """Uniform policy over legal non-eye points, value and ownership from `playouts` native random games."""

    def __init__(self, playouts: int = 16, seed: int = 0, max_moves: int | None = None):
        if playouts < 1:
            raise ValueError("playouts must be at least 1")
        self.playouts = int(playouts)
        self.seed = int(seed)
        self.max_moves = max_moves

    def evaluate(self, boards: Sequence[Board]) -> list[Evaluation]:
        """One `Evaluation` per board, in order."""
        return [self._one(b) for b in boards]

    def _seed(self, board: Board, index: int) -> int:
        """The seed of playout `index` of `board`: a function of the evaluator's seed and the position only."""
        ko = board.ko_point
        ko_key = 0 if ko is None else 1 + ko[0] * board.width + ko[1]
        key = _mix64(self.seed)
        for part in (board.hash, board.to_play & 3, ko_key, index):
            key = _mix64(key ^ part)
        return key

    def _one(self, board: Board) -> Evaluation:
        """Policy, then `playouts` playouts counted under area scoring."""
        h, w = board.height, board.width
        to_play = board.to_play
        grid = board.array()
        policy = np.zeros((h, w), dtype=np.float32)
        eyes = own_eyes(grid, to_play)
        jitter = np.random.default_rng(self._seed(board, -1)).random((h, w))
        for p in board.legal_moves(to_play):
            if not eyes[p]:
                policy[p] = 1.0 + TIE_JITTER * jitter[p]
        points = float(policy.sum())
        if points > 0:
            policy *= (1.0 - PASS_PRIOR) / points
            pass_policy = PASS_PRIOR
        else:
            pass_policy = 1.0
        komi = float(board.rules.komi)
        own_sum = np.zeros((h, w), dtype=np.float64)
        margins = np.empty(self.playouts, dtype=np.float64)
        for i in range(self.playouts):
            own = playout_area(board, self._seed(board, i), self.max_moves)
            own_sum += own
            margins[i] = float((own == 1).sum()) - float((own == -1).sum()) - komi
        win = float(((margins > 0).sum() + 0.5 * (margins == 0).sum()) / self.playouts)
        mean = float(margins.mean())
        return Evaluation(to_play=to_play, komi=komi, policy=policy, pass_policy=pass_policy,
                          ownership=(own_sum / self.playouts).astype(np.float32), score_mean=mean,
                          score_stdev=float(margins.std()), score_lead=mean, win=win, loss=1.0 - win,
                          extras={"playouts": self.playouts})
