"""The endgame dev set (../shared/data/endgame_dev/problems.json): sealed 9x9 boards with verified
temperature, mean, type and correct moves, and their variation trees. Loading them as boards and regions,
and each problem's own tree as entered variations for the oracle predictor."""
from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Iterator

from tengen.endgame.oracle import Entry, OraclePredictor
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


class DevTreeVariations:
    """A dev-set problem's variation tree as entered variations (`tengen.endgame.oracle`): its non-threat
    children are the moves; a threat child is left out, so tree growth (with missing_color='threat') puts
    the ±inf threat leaf back, and a counted leaf ("area") has no moves."""

    def __init__(self, tree: dict[str, Any], size: int):
        self.tree, self.size = tree, size

    def entries(self) -> Iterator[Entry]:
        if "area" in self.tree or "threat" in self.tree:
            return
        for key, child in self.tree.items():
            if isinstance(child, dict) and "threat" not in child:
                color, point = _move(key, self.size)
                yield Entry(color, point, DevTreeVariations(child, self.size))


def tree_oracle(problem: DevProblem) -> OraclePredictor:
    """The oracle predictor that replays `problem`'s own variation tree."""
    return OraclePredictor(DevTreeVariations(problem.tree, problem.board.height), problem.board.height)
