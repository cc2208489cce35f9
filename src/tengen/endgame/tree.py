"""Local variation trees grown from a predictor, with Frejlak (2024)'s published thresholds (all configurable) but one.

At each node: if P(no move) > 20 %, a leaf (the published 30 %, lowered after the growth sweep (bench/growth_sweep.py) on shared
material: with the trained network, dev set 27 -> 28 of 33, Lee Changho 6 -> 7 of 71, Fuego's uct_endgame
15 -> 16 of 21, GNU Go's endgame1 14 of 16 either way; docs/BENCHMARKS.md; the kata predictor's "no move"
is 0 or 1, so only the network's trees change); else if one color holds > 85 % of the local move mass, only
that color moves (an answer to sente); else both. Per color, every move above 30 % of that color's mass,
or the single best. The root always gets both colors. A color missing below the root gets either its best
move evaluated one ply deep as an unrounded-ownership leaf (`probe`, the default) or a ±inf threat leaf.
A proposed move that ko forbids is recorded on the node (`ko_retakes`) for the CGT ko rule.
The answer head (predictions with `answer`, the `net` predictor): below the root, when P(the next local
move answers the last one) > `answer_threshold` the last move is judged sente: the color that played it
gets a ±inf threat leaf (left unanswered, it profits) and only the opponent's answers are grown. Such a leaf
keeps that color's likeliest legal next move (`follow_up`): where a chain of threats (every answer judged a new
threat: a double sente at ±inf) leaves the tree's value unbounded, the analysis values the threats by that move
instead, one ply deep (`threats_as_probes`, used by `tengen.endgame.local_games`).
Nodes are expanded level by level so a network predictor evaluates each level in one batch. A node the
node budget cannot give a move of each color becomes a leaf: the color left out could play there, but
its move is unknown (a node with one color's moves says the other color has no local move, and the CGT
bridge values it at the stop the moves reach). A color whose chosen moves are all illegal gets its most
likely legal move instead.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterator, Optional, Sequence

import numpy as np

from tengen.endgame.predictors import LocalMovePredictor, LocalPrediction, PredictionRequest
from tengen.endgame.regions import Region
from tengen.go.board import Board, IllegalMove
from tengen.go.colors import BLACK, WHITE
from tengen.go.coords import Move, Point, to_gtp


MISSING: Point = (-1, -1)  # the "move" of a threat leaf standing for a color the predictor left out


@dataclass
class GrowthConfig:
    """Tree-growth thresholds and budgets."""

    leaf_no_move: float = 0.20  # the published 0.30 before the growth sweep (module docstring)
    one_color_share: float = 0.85
    move_fraction: float = 0.30
    root_moves: int = 1  # at the root, at least this many of each color's most likely moves (legal ones)
    max_depth: int = 12
    max_nodes: int = 300  # per tree
    max_total_nodes: Optional[int] = 400  # shared by the trees of one position grown together (None: no cap)
    missing_color: str = "probe"  # "probe" (evaluate best move, unrounded) or "threat" (±inf)
    answer_threshold: float = 0.5  # P(answer) above it: the last move was sente (predictions with `answer`)

    def __post_init__(self) -> None:
        if self.missing_color not in ("probe", "threat"):
            raise ValueError("missing_color must be 'probe' or 'threat'")
        if self.root_moves < 1:
            raise ValueError(f"root_moves must be at least 1, not {self.root_moves!r}")
        if not 0 <= self.answer_threshold <= 1:
            raise ValueError(f"answer_threshold must lie in [0, 1] (1: never), not {self.answer_threshold!r}")


def growth_settings(text: str, base: Optional[GrowthConfig] = None) -> GrowthConfig:
    """`base` (default GrowthConfig()) with `name=value,...` applied, e.g. "answer_threshold=0.6,leaf_no_move=0.4"
    (benches sweeping the thresholds on shared material); ValueError (one line) for an unknown name or value."""
    from dataclasses import fields, replace

    kinds = {f.name: f.type for f in fields(GrowthConfig)}
    changes: dict = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, _, value = item.partition("=")
        name = name.strip().replace("-", "_")
        if name not in kinds or not value:
            raise ValueError(f"growth setting {item!r}: expected NAME=VALUE with NAME one of {', '.join(kinds)}")
        kind = str(kinds[name])
        try:
            changes[name] = (value if "str" in kind else None if value == "none" else
                             float(value) if "float" in kind else int(value))
        except ValueError:
            raise ValueError(f"growth setting {item!r}: {value!r} is not a valid {kind}") from None
    return replace(base or GrowthConfig(), **changes)


@dataclass
class LocalNode:
    """A node of a local tree. Kinds: inner, leaf (rounded-ownership count), probe (unrounded count of the
    missing color's best move), threat (±inf for the color in `threat`)."""

    history: tuple[tuple[int, Move], ...] = ()
    board: Optional[Board] = None
    children: dict[int, list[tuple[Point, "LocalNode"]]] = field(default_factory=lambda: {BLACK: [], WHITE: []})
    kind: str = "inner"
    value: Optional[float] = None
    threat: int = 0
    ko_retakes: list[tuple[int, Point]] = field(default_factory=list)
    reason: str = ""
    ownership: Optional[np.ndarray] = None  # the predictor's ownership at a leaf, reused for its score
    counted: bool = False  # the leaf's value is an exact count already (sealed regions): no scoring needed
    follow_up: Optional[Point] = None  # an answer-head threat leaf: the threatening color's likeliest next move

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
        """Nodes that need a count: leaves, probes, and inner nodes whose only options are banned ko
        retakes (their count is what the CGT bridge falls back on when the ko rule cannot value the ko)."""
        return [n for n in self.root.walk() if n.kind in ("leaf", "probe") and not n.counted
                or (n.kind == "inner" and n.ko_retakes and not n.children[BLACK] and not n.children[WHITE])]


def _ranked(moves: dict[Point, float]) -> list[Point]:
    """All proposed moves, most likely first."""
    return sorted(moves, key=lambda p: (-moves[p], p))


def select_moves(moves: dict[Point, float], fraction: float, at_least: int = 1) -> list[Point]:
    """Moves above `fraction` of the color's mass, and at least the `at_least` most likely; most likely first."""
    if not moves:
        return []
    mass = sum(moves.values())
    ranked = _ranked(moves)
    return [p for i, p in enumerate(ranked) if i < at_least or moves[p] > fraction * mass]


def colors_to_expand(pred: LocalPrediction, is_root: bool, share: float) -> list[int]:
    """Both colors at the root; below it, only the color holding > `share` of the move mass if any."""
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
    return grow_trees(board, [region], predictor, config)[0]


def grow_trees(board: Board, regions: Sequence[Region], predictor: LocalMovePredictor,
               config: GrowthConfig | None = None,
               progress: Optional[Callable[[str, int, int], None]] = None) -> list[LocalTree]:
    """Grow the local trees of several regions together, level by level, so that a network predictor
    evaluates one batch per level for all regions at once. Each level is expanded one node per tree in
    turn, so a shared node budget that runs out mid-level cuts every tree alike."""
    config = config or GrowthConfig()
    budget = _Budget(config.max_total_nodes)
    growers = [_Grower(board, region, config, budget, _points_of_others(region, regions)) for region in regions]
    for depth in range(config.max_depth + 2):
        active = [g for g in growers if g.frontier]
        if not active:
            break
        if progress:
            progress("level", depth, config.max_depth + 1)
        requests = [PredictionRequest(n.board, n.history, g.region, g.claimed) for g in active for n in g.frontier]
        preds = iter(predictor.predict(requests))
        per_grower = [[next(preds) for _ in g.frontier] for g in active]
        for i in range(max(len(g.frontier) for g in active)):
            for g, level_preds in zip(active, per_grower):
                if i < len(g.frontier):
                    g.expand_node(g.frontier[i], level_preds[i])
        for g in active:
            g.advance()
    name = predictor.name
    return [LocalTree(g.root, g.region, g.nodes, g.exhausted, name) for g in growers]


def _points_of_others(region: Region, regions: Sequence[Region]) -> frozenset[Point]:
    return frozenset(p for other in regions if other is not region for p in other.points)


class _Budget:
    """Nodes left to the trees of one position (None: unlimited)."""

    def __init__(self, total: Optional[int]):
        self.left = total

    def spend(self, n: int = 1) -> None:
        if self.left is not None:
            self.left -= n


class _Grower:
    """The growth state of one local tree: its root, the frontier of nodes to expand next, the budget."""

    def __init__(self, board: Board, region: Region, config: GrowthConfig, budget: Optional[_Budget] = None,
                 claimed: frozenset[Point] = frozenset()):
        self.region = region
        self.config = config
        self.budget = budget or _Budget(None)
        self.claimed = claimed  # points of the other regions: their moves are not this tree's
        self.root = LocalNode(board=board.copy())
        self.nodes, self.exhausted = 1, False
        self.frontier = [self.root]
        self._next: list[LocalNode] = []

    def expand_node(self, node: LocalNode, pred: LocalPrediction) -> None:
        """Make `node` a leaf or give it children (which join the next level)."""
        config = self.config
        is_root = node.depth == 0
        node.ownership = pred.ownership
        if not is_root and pred.threat:
            node.kind, node.threat, node.reason = "threat", pred.threat, pred.reason
            return
        if not is_root and pred.exact_count is not None:
            node.kind, node.value, node.counted, node.reason = "leaf", float(pred.exact_count), True, pred.reason
            return
        if not is_root and (pred.no_move > config.leaf_no_move or node.depth >= config.max_depth):
            node.kind, node.reason = "leaf", pred.reason or ("depth cap" if node.depth >= config.max_depth else "no move")
            return
        sente = None if is_root else _judged_sente(node, pred, config)
        colors = [-sente] if sente else colors_to_expand(pred, is_root, config.one_color_share)
        # each color that moves here needs at least one node: a node the budget cannot give both colors
        # becomes a leaf: a one-sided node would say the missing color cannot play there
        needs = [c for c in (BLACK, WHITE) if is_root or c not in pred.ko_retake]
        if not is_root and self._room() < len(needs):
            self.exhausted = True
            node.kind, node.reason = "leaf", "node budget"
            return
        cut = False
        for color in (BLACK, WHITE):
            reserve = int(color == BLACK and WHITE in needs)  # a node kept for White's first move
            if not is_root and color in pred.ko_retake:
                node.ko_retakes.append((color, pred.ko_retake[color]))  # the banned side's one local option
            elif color == sente:
                why = f"threat: the answer head judges the move sente (P(answer) {pred.answer:.0%})"
                leaf = _threat_leaf(node, color, why)
                leaf.follow_up = next((p for p in _ranked(pred.moves(color)) if _child(node, color, p)[0] is not None), None)
                node.children[color].append((MISSING, leaf))
                self.nodes += 1
                self.budget.spend()
            elif color in colors:
                cut |= self._add_moves(node, color, pred, reserve)
            elif not is_root:
                added = _add_missing(node, color, pred, config)
                self.nodes += added
                self.budget.spend(added)
        if not node.children[BLACK] and not node.children[WHITE] and not node.ko_retakes:
            node.kind, node.reason = "leaf", "node budget" if cut else "no legal local move"

    def advance(self) -> None:
        """The children made at this level become the frontier."""
        self.frontier, self._next = self._next, []

    def _room(self) -> float:
        """Nodes this tree may still add (its own budget and the position's shared one)."""
        left = self.config.max_nodes - self.nodes
        return left if self.budget.left is None else min(left, self.budget.left)

    def _add_moves(self, node: LocalNode, color: int, pred: LocalPrediction, reserve: int = 0) -> bool:
        """Add `color`'s selected moves as children, leaving `reserve` nodes for the other color (the
        root always gets a first move of each color); when every selected move is illegal, the most
        likely legal one instead. True when the budget cut some."""
        moves = pred.moves(color)
        chosen = select_moves(moves, self.config.move_fraction,
                              self.config.root_moves if node.depth == 0 else 1)
        fallback = [p for p in _ranked(moves) if p not in chosen]
        for k, point in enumerate(chosen + fallback):
            if k >= len(chosen) and (node.children[color] or any(c == color for c, _ in node.ko_retakes)):
                break  # the chosen moves gave this color an option; the rest were only a fallback
            if self._room() <= reserve and not (k == 0 and node.depth == 0):  # the root always gets both
                self.exhausted = True
                return True
            child, illegal = _child(node, color, point)
            if child is None:
                if illegal in ("ko", "superko") and k < len(chosen):
                    node.ko_retakes.append((color, point))
                continue
            node.children[color].append((point, child))
            self._next.append(child)
            self.nodes += 1
            self.budget.spend()
        return False


def _judged_sente(node: LocalNode, pred: LocalPrediction, config: GrowthConfig) -> Optional[int]:
    """The color of the last local move when the answer head judges it sente (the opponent answers
    locally at once, with a move of its own on offer and no ko ban), else None."""
    if pred.answer is None or pred.answer <= config.answer_threshold or not node.history:
        return None
    mover = node.history[-1][0]
    if -mover in pred.ko_retake or not pred.moves(-mover):
        return None
    return mover


def _threat_leaf(node: LocalNode, color: int, reason: str) -> LocalNode:
    return LocalNode(history=node.history, kind="threat", threat=color, reason=reason)


def _add_missing(node: LocalNode, color: int, pred: LocalPrediction, config: GrowthConfig) -> int:
    """Give the color the predictor left out one option: a probe of its most likely legal move, or a
    threat leaf. A color without a legal local move has no local option: it cannot play there, which
    the CGT bridge values Go-style (`cgt_bridge.analyze_local`), not as a normal-play number."""
    if config.missing_color == "probe":
        for point in _ranked(pred.moves(color)):
            child, _ = _child(node, color, point)
            if child is not None:
                child.kind, child.reason = "probe", "best move of the color that tenukis, evaluated one ply deep"
                node.children[color].append((point, child))
                return 1
        return 0
    node.children[color].append((MISSING, _threat_leaf(node, color,
                                                       "threat: the color that just moved gains by moving again")))
    return 1


def threats_as_probes(root: LocalNode) -> list[tuple[LocalNode, int, int, tuple[Point, LocalNode]]]:
    """Make every answer-head threat leaf under `root` that knows its color's next move (`follow_up`) a probe
    of that move (its position after the move, unscored: `value` None). Returns what was replaced, as
    (node, color, index, the threat's entry), for `restore_threats`. Used where the tree's ±inf threats
    leave its value unbounded (`tengen.endgame.local_games`): a finite follow-up lets the thermograph judge
    the threat instead of taking it as infinite."""
    replaced = []
    for node in list(root.walk()):
        for color in (BLACK, WHITE):
            for k, (point, child) in enumerate(node.children[color]):
                if child.kind != "threat" or point != MISSING or child.follow_up is None:
                    continue
                probe, _ = _child(node, color, child.follow_up)
                if probe is None:
                    continue
                probe.kind = "probe"
                probe.reason = "the threatening color's next move, evaluated one ply deep (a threat left unbounded)"
                node.children[color][k] = (child.follow_up, probe)
                replaced.append((node, color, k, (point, child)))
    return replaced


def restore_threats(replaced: list[tuple[LocalNode, int, int, tuple[Point, LocalNode]]]) -> None:
    """Undo `threats_as_probes`."""
    for node, color, k, entry in replaced:
        node.children[color][k] = entry
