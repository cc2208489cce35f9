"""Local-move predictors: given a position, the local move history and a region, the probabilities of
Black's local moves, White's local moves and "no move" (the region is settled).

All predictors share one interface so tree growth does not care where the moves come from:
`kata` (KataGo's policy for each color, restricted to the region and its neighbourhood), `oracle`
(entered variations, `tengen.endgame.oracle`), and `net` (the trained 723-output local-move network,
a slot until that model is trained). The exact solver for sealed regions lives in `exhaustive`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Protocol, Sequence

import numpy as np

from tengen.endgame.evalcache import fresh_flags
from tengen.endgame.regions import DEFAULT_THRESHOLD, Region
from tengen.go.board import Board
from tengen.go.colors import BLACK, WHITE
from tengen.go.coords import Move, Point


@dataclass
class LocalPrediction:
    """Move probabilities per color (unnormalised masses are fine) and P(no local move)."""

    black: dict[Point, float] = field(default_factory=dict)
    white: dict[Point, float] = field(default_factory=dict)
    no_move: float = 0.0
    ownership: Optional[np.ndarray] = None  # when the predictor evaluated the position anyway
    reason: str = ""
    ko_retake: dict[int, Point] = field(default_factory=dict)  # color -> local point simple ko bars it from
    exact_count: Optional[int] = None  # a leaf the rules core counted exactly (sealed regions)
    threat: int = 0  # BLACK / WHITE: this node is a ±inf threat leaf for that color (it broke a seal)

    def moves(self, color: int) -> dict[Point, float]:
        return self.black if color == BLACK else self.white

    def mass(self, color: int) -> float:
        return float(sum(self.moves(color).values()))


@dataclass(frozen=True)
class PredictionRequest:
    """One node of a local tree: its position, the local moves from the root, the region, and the points
    of the other regions (their moves belong to their own local games)."""

    board: Board
    history: tuple[tuple[int, Move], ...]
    region: Region
    claimed: frozenset[Point] = field(default=frozenset(), compare=False)
    rules_decide_terminal: bool = field(default=False, compare=False)  # the exact rules end lines, not ownership


class LocalMovePredictor(Protocol):
    name: str

    def predict(self, requests: Sequence[PredictionRequest]) -> list[LocalPrediction]:
        """Predictions for a batch of nodes (batched so network predictors evaluate once per level)."""
        ...


class KataPolicyPredictor:
    """KataGo's policy evaluated with each color to move, restricted to the region and its neighbourhood
    (less the points of other regions).

    Terminal ("no move") when every region point has |ownership| >= threshold or at the depth cap: the
    paper's KataGo baseline.
    """

    name = "kata"

    def __init__(self, evaluator, threshold: float = DEFAULT_THRESHOLD, depth_cap: int = 12, radius: int = 1):
        self.evaluator = evaluator
        self.threshold = threshold
        self.depth_cap = depth_cap
        self.radius = radius
        self.evaluations = 0
        self.evaluations_by_region: dict[int, int] = {}

    def predict(self, requests: Sequence[PredictionRequest]) -> list[LocalPrediction]:
        boards = []
        for req in requests:
            for color in (BLACK, WHITE):
                b = req.board.copy()
                b.to_play = color
                boards.append(b)
        evals = self.evaluator.evaluate(boards) if boards else []
        self._charge(requests, fresh_flags(self.evaluator, len(boards)))
        out = []
        for i, req in enumerate(requests):
            e_black, e_white = evals[2 * i], evals[2 * i + 1]
            ownership = (np.asarray(e_black.ownership) + np.asarray(e_white.ownership)) / 2
            pred = LocalPrediction(ownership=ownership)
            settled = not req.rules_decide_terminal and all(abs(ownership[p]) >= self.threshold
                                                            for p in req.region.points)
            if settled or len(req.history) >= self.depth_cap:
                pred.no_move = 1.0
                pred.reason = "settled" if settled else f"depth cap {self.depth_cap}"
                out.append(pred)
                continue
            h, w = req.board.height, req.board.width
            local = req.region.neighbourhood(h, w, self.radius) - req.claimed
            ko = req.board.ko
            if ko is not None and ko[0] in local:
                pred.ko_retake[ko[1]] = ko[0]  # the policy masks it, but the ko rule must see the retake
            for color, ev, target in ((BLACK, e_black, pred.black), (WHITE, e_white, pred.white)):
                policy = np.asarray(ev.policy)
                for p in local:
                    if policy[p] > 0 and req.board.is_legal(color, p):
                        target[p] = float(policy[p])
            out.append(pred)
        return out

    def _charge(self, requests: Sequence[PredictionRequest], fresh: Sequence[bool]) -> None:
        """Count the network evaluations made (cache hits are free), in total and per region id."""
        for i, req in enumerate(requests):
            made = int(fresh[2 * i]) + int(fresh[2 * i + 1])
            self.evaluations += made
            self.evaluations_by_region[req.region.id] = self.evaluations_by_region.get(req.region.id, 0) + made


class UntrainedModelError(ValueError):
    """The trained local-move network is not available yet (a request tengen cannot serve: bad input)."""


class LocalNetPredictor:
    """Slot for the trained local-move network (723 outputs: 361 White moves, 361 Black moves, no-move).

    A later issue trains it; until a weights file exists this predictor refuses clearly.
    """

    name = "net"

    def __init__(self, model=None):
        if model is None:
            raise UntrainedModelError("the local-move network has not been trained yet; use --predictor kata, oracle or exhaustive")
        self.model = model

    @staticmethod
    def decode(logits: np.ndarray, height: int, width: int) -> LocalPrediction:
        """Split a 723-vector (19x19 layout: 361 White, 361 Black, no-move) into a LocalPrediction."""
        probs = np.exp(logits - logits.max())
        probs /= probs.sum()
        white = probs[:361].reshape(19, 19)[:height, :width]
        black = probs[361:722].reshape(19, 19)[:height, :width]
        pred = LocalPrediction(no_move=float(probs[722]))
        for (r, c), v in np.ndenumerate(black):
            if v > 0:
                pred.black[(r, c)] = float(v)
        for (r, c), v in np.ndenumerate(white):
            if v > 0:
                pred.white[(r, c)] = float(v)
        return pred

    def predict(self, requests: Sequence[PredictionRequest]) -> list[LocalPrediction]:
        return [self.decode(self.model(req), req.board.height, req.board.width) for req in requests]
