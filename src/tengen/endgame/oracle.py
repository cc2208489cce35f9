"""The `oracle` predictor: local moves read from variations someone entered, replayed as the local tree.

One predictor for every source of entered variations: the child lines of an SGF node (a person entered
the correct local lines in an editor) and the dev set's verified trees. Each source says, for a node, which
moves were entered (color, point, the node after it); the predictor checks them against the position.
Probabilities are equal among the entered moves of a color and each color's mass is 1, so tree growth
keeps every entered move. Entries tengen cannot play (off the board, a pass, illegal there) are left out
and named in `problems` (per region id), which the analysis adds to the region's notes.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Optional, Protocol, Sequence

from tengen.endgame.predictors import LocalPrediction, PredictionRequest
from tengen.go.colors import BLACK, WHITE
from tengen.go.coords import Move, to_gtp
from tengen.go.sgf import is_tengen_line

OFF_BOARD = "off board"  # an entry whose point is not on the board


@dataclass(frozen=True)
class Entry:
    """One entered move below a node: its color, its point (None: a pass; OFF_BOARD), the node after it."""

    color: int
    point: Move | str
    after: "Variations"


class Variations(Protocol):
    """A node of entered variations."""

    def entries(self) -> Iterator[Entry]:
        """The moves entered below this node (a leaf has none)."""


class SgfVariations:
    """The child lines of an sgfmill node; tengen's own earlier best lines are not entered answers."""

    def __init__(self, node, size: int):
        self.node, self.size = node, size

    def entries(self) -> Iterator[Entry]:
        for child in self.node:
            if is_tengen_line(child):
                continue
            try:
                letter, move = child.get_move()
            except ValueError:  # sgfmill: a point off the board
                yield Entry(BLACK, OFF_BOARD, SgfVariations(child, self.size))
                continue
            if letter is None:
                continue  # a node without a move (setup, comment)
            point = None if move is None else (self.size - 1 - move[0], move[1])
            yield Entry(BLACK if letter == "b" else WHITE, point, SgfVariations(child, self.size))


class OraclePredictor:
    """Replays entered variations (`Variations`) as the local tree: a node's entered moves are its moves,
    a node with none (or a line that was not entered) is a leaf."""

    name = "oracle"

    def __init__(self, root: Variations, size: int):
        self.root = root
        self.size = size
        self.problems: dict[int, list[str]] = {}

    def predict(self, requests: Sequence[PredictionRequest]) -> list[LocalPrediction]:
        return [self._predict(req) for req in requests]

    def _predict(self, req: PredictionRequest) -> LocalPrediction:
        pred = LocalPrediction()
        node = self._node_for(req.history)
        if node is None:
            pred.no_move, pred.reason = 1.0, "line not among the entered variations"
            return pred
        entered = 0
        for entry in node.entries():
            entered += 1
            who = "B" if entry.color == BLACK else "W"
            if entry.point == OFF_BOARD:
                self._problem(req, f"a move off the {self.size}x{self.size} board, left out")
                continue
            if entry.point is None:
                self._problem(req, f"{who} passes: the line ends there")
                continue
            illegal = req.board.legality(entry.color, entry.point)
            if illegal and illegal not in ("ko", "superko"):  # a banned ko retake is the ko rule's to see
                self._problem(req, f"{who} {to_gtp(entry.point, self.size)} is illegal ({illegal}), left out")
                continue
            pred.moves(entry.color)[entry.point] = 1.0
        if not pred.black and not pred.white:
            pred.no_move, pred.reason = 1.0, "no further variation"
            if not req.history and not entered:
                self._problem(req, "none entered (the node has no child moves), so nothing is read")
        return pred

    def _node_for(self, history) -> Optional[Variations]:
        node = self.root
        for color, point in history:
            node = next((e.after for e in node.entries() if (e.color, e.point) == (color, point)), None)
            if node is None:
                return None
        return node

    def _problem(self, req: PredictionRequest, what: str) -> None:
        line = " ".join(f"{'B' if c == BLACK else 'W'} {to_gtp(p, self.size)}" for c, p in req.history)
        text = f"SGF variation {'after ' + line if line else 'at the analyzed node'}: {what}"
        found = self.problems.setdefault(req.region.id, [])
        if text not in found:
            found.append(text)
