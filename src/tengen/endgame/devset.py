"""The endgame dev set (../shared/data/endgame_dev/problems.json): sealed 9x9 boards with verified
temperature, mean, type and correct moves, and their variation trees. Loading them as boards and regions,
and a predictor that replays a problem's own tree (the "oracle" for these problems)."""
from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Sequence

from tengen.endgame.predictors import LocalPrediction, PredictionRequest
from tengen.endgame.regions import Region
from tengen.go.board import Board
from tengen.go.colors import BLACK, WHITE
from tengen.go.coords import from_gtp
from tengen.go.rules import Rules


@dataclass
class DevProblem:
    id: str
    title: str
    board: Board
    region: Region
    expected_temperature: Fraction
    expected_mean: Fraction
    expected_type: str
    sente_player: str | None
    correct_moves: list[tuple[int, tuple[int, int]]]
    tree: dict[str, Any]


def _move(text: str, size: int) -> tuple[int, tuple[int, int]]:
    color, vertex = text.split()
    vertex = vertex.rstrip("!")  # "!" marks a ko retake in the data; the rules core finds it illegal itself
    return (BLACK if color == "B" else WHITE), from_gtp(vertex, size)


def load_problems(path: str | Path) -> list[DevProblem]:
    """Parse problems.json into boards (stones set up, area rules, komi 0) and regions."""
    out = []
    for raw in json.loads(Path(path).read_text()):
        size = raw["board_size"]
        board = Board(size, rules=Rules.chinese(komi=0))
        board.setup(black=[from_gtp(v, size) for v in raw["black_stones"]],
                    white=[from_gtp(v, size) for v in raw["white_stones"]])
        region = Region(0, frozenset(from_gtp(v, size) for v in raw["region"]), "mask")
        out.append(DevProblem(raw["id"], raw["title"], board, region, Fraction(raw["expected_temperature"]),
                              Fraction(raw["expected_mean_area"]), raw["expected_type"], raw.get("sente_player"),
                              [_move(m, size) for m in raw["correct_moves"]], raw["tree"]))
    return out


class TreeOraclePredictor:
    """Replays a problem's variation tree: non-threat children are the moves; a threat child is left out,
    so tree growth (with missing_colour='threat') puts the ±inf threat leaf back."""

    name = "oracle"

    def __init__(self, tree: dict[str, Any], size: int):
        self.tree = tree
        self.size = size

    def _node(self, history):
        node = self.tree
        for color, point in history:
            key = next((k for k in node if isinstance(node[k], dict) and _move(k, self.size) == (color, point)), None)
            if key is None:
                return None
            node = node[key]
        return node

    def predict(self, requests: Sequence[PredictionRequest]) -> list[LocalPrediction]:
        out = []
        for req in requests:
            node = self._node(req.history)
            pred = LocalPrediction()
            if node is None or "area" in node or "threat" in node:
                pred.no_move, pred.reason = 1.0, "leaf of the given tree"
            else:
                for key, child in node.items():
                    if not isinstance(child, dict) or "threat" in child:
                        continue
                    color, point = _move(key, self.size)
                    pred.moves(color)[point] = 1.0
            out.append(pred)
        return out
