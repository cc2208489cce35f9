"""The move predictors by name (`MOVE_PREDICTORS`): what proposes the moves of a grown tree, each with how it
is built and what it needs. How a region is valued (exactly, or by a tree) is the analysis's region method
(`tengen.endgame.local_games.REGION_METHODS`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from tengen.endgame.oracle import OraclePredictor, SgfVariations
from tengen.endgame.predictors import KataPolicyPredictor, LocalMovePredictor, LocalNetPredictor
from tengen.eval.devices import device_of
from tengen.go.board import Board


@dataclass(frozen=True)
class PredictorInputs:
    """What a move predictor may be built from: the analysis's evaluator, the position, the SGF node whose
    children are entered variations (the oracle), the local-move network's weights file and its device."""

    evaluator: object
    board: Board
    oracle_node: object = None
    local_model: Optional[str] = None
    device: str = "cpu"


@dataclass(frozen=True)
class MovePredictorKind:
    """One entry of `MOVE_PREDICTORS`: how to build it, and whether its moves come from the evaluator's own
    policy (then a tree needs the network even where its leaves are counted exactly)."""

    build: Callable[[PredictorInputs], LocalMovePredictor]
    proposes_with_evaluator: bool


def _kata(inputs: PredictorInputs) -> LocalMovePredictor:
    if inputs.evaluator is None:
        raise ValueError("the kata predictor needs an evaluator")
    return KataPolicyPredictor(inputs.evaluator)


def _oracle(inputs: PredictorInputs) -> LocalMovePredictor:
    if inputs.oracle_node is None:
        raise ValueError("the oracle predictor needs an SGF node whose children are the local variations")
    return OraclePredictor(SgfVariations(inputs.oracle_node, inputs.board.height), inputs.board.height)


def _net(inputs: PredictorInputs) -> LocalMovePredictor:
    return LocalNetPredictor(weights=inputs.local_model, device=inputs.device)


# what proposes the moves of a grown tree, by name: KataGo's policy, the entered variations, tengen's
# local-move network (how a region is valued, exactly or by a tree, is the analysis's region method)
MOVE_PREDICTORS: dict[str, MovePredictorKind] = {
    "kata": MovePredictorKind(_kata, proposes_with_evaluator=True),
    "oracle": MovePredictorKind(_oracle, proposes_with_evaluator=False),
    "net": MovePredictorKind(_net, proposes_with_evaluator=False),
}


def make_predictor(name: str, evaluator, board: Board, oracle_node=None,
                   local_model: Optional[str] = None) -> LocalMovePredictor:
    """The move predictor `name` (one of `MOVE_PREDICTORS`); `net` on `local_model` (else the committed
    weights), on the evaluator's device."""
    if name not in MOVE_PREDICTORS:
        raise ValueError(f"unknown predictor {name!r} (kata, oracle, exhaustive, net)")
    return MOVE_PREDICTORS[name].build(PredictorInputs(evaluator, board, oracle_node, local_model, device_of(evaluator)))
