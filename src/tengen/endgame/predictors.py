"""Local-move predictors: given a position, the local move history and a region, the probabilities of
Black's local moves, White's local moves and "no move" (the region is settled).

All predictors share one interface so tree growth does not care where the moves come from:
`kata` (KataGo's policy for each color, restricted to the region and its neighbourhood), `oracle`
(entered variations, `tengen.endgame.oracle`), and `net` (tengen's trained local-move network,
`tengen.eval.localnet`: one network call per tree level gives both colors' next local moves, P(no move)
and P(the next local move answers the last one), the `answer` tree growth reads as sente). The exact
solver for sealed regions lives in `exhaustive`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional, Protocol, Sequence, Union, runtime_checkable

import numpy as np

from tengen.endgame.evalcache import fresh_flags
from tengen.phases import phase
from tengen.endgame.regions import DEFAULT_THRESHOLD, Region
from tengen.eval.localnet.compact import CANVAS, NO_MOVE, POINTS, CompactBatch, compact_row, stack_rows
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
    answer: Optional[float] = None  # P(the next local move answers the last one): its sente-ness (net only)

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


@runtime_checkable
class LocalMovePredictor(Protocol):
    """What grows a local tree: `name` (what reports and the tree record) and `predict`, batched. Optional
    members, read by the analysis when present: `CountsEvaluations`, `ReportsProblems`."""

    name: str

    def predict(self, requests: Sequence[PredictionRequest]) -> list[LocalPrediction]:
        """Predictions for a batch of nodes (batched so network predictors evaluate once per level)."""
        ...


@runtime_checkable
class CountsEvaluations(Protocol):
    """`evaluations_by_region`: region id -> network evaluations this predictor spent on it (charged to the
    region's result)."""

    evaluations_by_region: dict


@runtime_checkable
class ReportsProblems(Protocol):
    """`problems`: region id -> what the predictor could not read there (an oracle's unreadable variations),
    added to the region's notes."""

    problems: dict


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
            _note_ko_retake(pred, req.board, local)
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


def _note_ko_retake(pred: LocalPrediction, board: Board, local: frozenset[Point]) -> None:
    """Record the retake simple ko bars (color -> point) when it lies in `local`: a predictor cannot propose
    it, but the CGT ko rule must see it."""
    ko = board.ko
    if ko is not None and ko[0] in local:
        pred.ko_retake[ko[1]] = ko[0]


class UntrainedModelError(ValueError):
    """No trained local-move network to load (a request tengen cannot serve: bad input, one line)."""


# the seam between the predictor and the network: a compact batch in, (probabilities (N, 723) in the
# absolute layout: 361 White moves, 361 Black moves, no move; P(answer) (N,)) out
NetRunner = Callable[[CompactBatch], tuple[np.ndarray, np.ndarray]]


class LocalNetPredictor:
    """tengen's trained local-move network (`tengen.eval.localnet`): one network call for a whole batch
    of requests (a tree level across all regions), one row per node with the side to move of its board.

    Each row decodes into both colors' legal moves in the region and within `radius` of it (its boundary,
    as `kata` proposes; never on the other regions' points; the mass elsewhere is dropped, not
    renormalised; `local_only=False` keeps every other point), P(no move), and, below the root, P(the next
    local move answers the last one) as `answer`. A ko the last move started is recorded as the barred color's retake when
    its point lies in the region's neighbourhood. Leaves are scored by the evaluator (no ownership here).
    In a sealed region the network's P(no move) still ends lines (the exact rules also end those they
    call settled): on the endgame dev set that gave 27/33 correct temperatures against 24/33 when only the
    rules ended lines (`python bench/endgame_dev.py --predictor net`, 2026-11-26).

    `model`: a loaded `LocalMoveNet`; without one the weights file `weights` (default: the committed
    `models/localnet/localnet.pt`) is loaded on `device` (the analysis passes its evaluator's). `runner` replaces the network call altogether (a stand-in
    network in tests: a CompactBatch in, (probabilities, answers) out).
    """

    name = "net"

    def __init__(self, model=None, weights: Optional[Union[str, Path]] = None, *,
                 runner: Optional[NetRunner] = None, radius: int = 1, device: str = "cpu", local_only: bool = True):
        self.meta: dict = {}
        if runner is None:
            if model is None:
                model, self.meta = _load_local_net(weights, device)
            runner = _torch_runner(model)
        self.model = model
        self.runner = runner
        self.radius = radius
        self.local_only = local_only  # moves in the region and within `radius` of it only, as `kata` proposes
        self.calls = 0  # network calls (batches)
        self.evaluations = 0  # network rows run
        self.evaluations_by_region: dict[int, int] = {}

    def predict(self, requests: Sequence[PredictionRequest]) -> list[LocalPrediction]:
        if not requests:
            return []
        rows = [compact_row(req.board, req.region.points, req.history, req.board.to_play) for req in requests]
        with phase("localnet", rows=len(rows)):
            probs, answers = self.runner(stack_rows(rows))
        probs, answers = np.asarray(probs, dtype=np.float64), np.asarray(answers, dtype=np.float64).reshape(-1)
        if probs.shape != (len(requests), NO_MOVE + 1) or answers.shape != (len(requests),):
            raise ValueError(f"the local-move network answered shapes {probs.shape} and {answers.shape} "
                             f"for {len(requests)} rows")
        self.calls += 1
        self.evaluations += len(requests)
        out = []
        for req, row, answer in zip(requests, probs, answers):
            self.evaluations_by_region[req.region.id] = self.evaluations_by_region.get(req.region.id, 0) + 1
            out.append(self.decode(req, row, float(answer)))
        return out

    def decode(self, req: PredictionRequest, row: np.ndarray, answer: float) -> LocalPrediction:
        """One request's LocalPrediction from its row of 723 probabilities and its P(answer)."""
        board = req.board
        h, w = board.height, board.width
        pred = LocalPrediction(no_move=float(row[NO_MOVE]), answer=answer if req.history else None)
        near = req.region.neighbourhood(h, w, self.radius) - req.claimed
        _note_ko_retake(pred, board, near)
        for color, offset, target in ((WHITE, 0, pred.white), (BLACK, POINTS, pred.black)):
            grid = row[offset:offset + POINTS].reshape(CANVAS, CANVAS)[:h, :w]
            for r, c in zip(*np.nonzero(grid > 0)):
                point = (int(r), int(c))
                if (point in near or not self.local_only and point not in req.claimed) and board.is_legal(color, point):
                    target[point] = float(grid[r, c])
        return pred


def _load_local_net(weights: Optional[Union[str, Path]], device: str = "cpu"):
    """(model, metadata) from `weights`, else from the committed default, on `device`; one-line errors."""
    from tengen.eval.devices import pick_device
    from tengen.eval.localnet.weights import default_weights, load_weights

    path = weights if weights is not None else default_weights()
    if path is None:
        raise UntrainedModelError("no trained local-move network in this checkout (models/localnet/localnet.pt); "
                                  "give one with --local-model FILE or use --predictor kata")
    return load_weights(path, device=str(pick_device(device)))


def _torch_runner(model) -> NetRunner:
    from tengen.eval.localnet.infer import predict

    return lambda batch: predict(model, batch)

