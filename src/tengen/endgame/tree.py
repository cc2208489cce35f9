"""Local variation trees grown from a predictor, with the published thresholds (all configurable).

At each node: if P(no move) > 30 %, a leaf; else if one colour holds > 85 % of the local move mass, only
that colour moves (an answer to sente); else both. Per colour, every move above 30 % of that colour's mass,
or the single best. The root always gets both colours. A colour missing below the root gets either its best
move evaluated one ply deep as an unrounded-ownership leaf (`probe`, the default) or a ±inf threat leaf.
A proposed move that ko forbids is recorded on the node (`ko_retakes`) for the CGT ko rule.
Nodes are expanded level by level so a network predictor evaluates each level in one batch.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Optional

import numpy as np

from tengen.endgame.predictors import LocalMovePredictor, LocalPrediction, PredictionRequest
from tengen.endgame.regions import Region
from tengen.go.board import Board, IllegalMove
from tengen.go.colors import BLACK, WHITE
from tengen.go.coords import Move, Point, to_gtp


@dataclass
class GrowthConfig:
    """Tree-growth thresholds and budgets."""

    leaf_no_move: float = 0.30
    one_colour_share: float = 0.85
    move_fraction: float = 0.30
    max_depth: int = 12
    max_nodes: int = 300
    missing_colour: str = "probe"  # "probe" (evaluate best move, unrounded) or "threat" (±inf)

    def __post_init__(self) -> None:
        if self.missing_colour not in ("probe", "threat"):
            raise ValueError("missing_colour must be 'probe' or 'threat'")


@dataclass
class LocalNode:
    """A node of a local tree. Kinds: inner, leaf (rounded-ownership count), probe (unrounded count of the
    missing colour's best move), threat (±inf for the colour in `threat`)."""

    history: tuple[tuple[int, Move], ...] = ()
    board: Optional[Board] = None
    children: dict[int, list[tuple[Point, "LocalNode"]]] = field(default_factory=lambda: {BLACK: [], WHITE: []})
    kind: str = "inner"
    value: Optional[float] = None
    threat: int = 0
    ko_retakes: list[tuple[int, Point]] = field(default_factory=list)
    reason: str = ""
    ownership: Optional[np.ndarray] = None  # the predictor's ownership at a leaf, reused for its score

    @property
    def depth(self) -> int:
        return len(self.history)

    def walk(self) -> Iterator["LocalNode"]:
        yield self
        for color in (BLACK, WHITE):
            for _, child in self.children[color]:
                yield from child.walk()

    def describe(self, height: int) -> str:
        return " ".join(f"{'B' if c == BLACK else 'W'} {to_gtp(p, height)}" for c, p in self.history) or "root"


@dataclass
class LocalTree:
    root: LocalNode
    region: Region
    nodes: int
    budget_exhausted: bool = False
    predictor: str = ""

    def leaves(self) -> list[LocalNode]:
        return [n for n in self.root.walk() if n.kind in ("leaf", "probe")]


def select_moves(moves: dict[Point, float], fraction: float) -> list[Point]:
    """Moves above `fraction` of the colour's mass, or the single best; most likely first."""
    if not moves:
        return []
    mass = sum(moves.values())
    ranked = sorted(moves, key=lambda p: (-moves[p], p))
    chosen = [p for p in ranked if moves[p] > fraction * mass]
    return chosen or ranked[:1]


def colours_to_expand(pred: LocalPrediction, is_root: bool, share: float) -> list[int]:
    """Both colours at the root; below it, only the colour holding > `share` of the move mass if any."""
    if is_root:
        return [BLACK, WHITE]
    mb, mw = pred.mass(BLACK), pred.mass(WHITE)
    total = mb + mw
    if total > 0 and mb / total > share:
        return [BLACK]
    if total > 0 and mw / total > share:
        return [WHITE]
    return [BLACK, WHITE]


def _child(node: LocalNode, color: int, point: Point) -> tuple[Optional[LocalNode], Optional[str]]:
    board = node.board.copy()
    try:
        board.play(color, point)
    except IllegalMove as exc:
        return None, exc.reason
    board.to_play = -color
    return LocalNode(history=node.history + ((color, point),), board=board), None


def grow_tree(board: Board, region: Region, predictor: LocalMovePredictor,
              config: GrowthConfig | None = None) -> LocalTree:
    """Grow the local tree of `region` from `board` (which is not modified)."""
    config = config or GrowthConfig()
    root = LocalNode(board=board.copy())
    nodes, exhausted = 1, False
    frontier = [root]
    while frontier:
        preds = predictor.predict([PredictionRequest(n.board, n.history, region) for n in frontier])
        next_frontier: list[LocalNode] = []
        for node, pred in zip(frontier, preds):
            is_root = node.depth == 0
            if not is_root and (pred.no_move > config.leaf_no_move or node.depth >= config.max_depth):
                node.kind, node.reason = "leaf", pred.reason or ("depth cap" if node.depth >= config.max_depth else "no move")
                node.ownership = pred.ownership
                continue
            colours = colours_to_expand(pred, is_root, config.one_colour_share)
            for color in colours:
                for point in select_moves(pred.moves(color), config.move_fraction):
                    if nodes >= config.max_nodes:
                        exhausted = True
                        break
                    child, illegal = _child(node, color, point)
                    if child is None:
                        if illegal in ("ko", "superko"):
                            node.ko_retakes.append((color, point))
                        continue
                    node.children[color].append((point, child))
                    next_frontier.append(child)
                    nodes += 1
            if not is_root:
                for missing in (BLACK, WHITE):
                    if missing in colours:
                        continue
                    nodes += _add_missing(node, missing, pred, config)
            if not node.children[BLACK] and not node.children[WHITE] and not node.ko_retakes:
                node.kind, node.reason = "leaf", "no legal local move"
                node.ownership = pred.ownership
        frontier = next_frontier
    return LocalTree(root, region, nodes, exhausted, getattr(predictor, "name", ""))


def _add_missing(node: LocalNode, color: int, pred: LocalPrediction, config: GrowthConfig) -> int:
    """Give the colour the predictor left out one option: a probe of its best move, or a threat leaf."""
    if config.missing_colour == "probe":
        for point in select_moves(pred.moves(color), 1.0):
            child, _ = _child(node, color, point)
            if child is not None:
                child.kind, child.reason = "probe", "best move of the colour that tenukis, evaluated one ply deep"
                node.children[color].append((point, child))
                return 1
    node.children[color].append(((-1, -1), LocalNode(history=node.history, kind="threat", threat=color,
                                                     reason="threat: the colour that just moved gains by moving again")))
    return 1
