"""`tengen.analyze`: the main job from Python, with the CLI's defaults (an SGF file or a Board in, an Analysis out).

The network is loaded only when the analysis needs it: a marked local diagram that the exact solver finishes
needs none. `tengen analyze` runs through `analyze_position` too, so the library and the CLI give the same
answers for the same settings.
"""
from __future__ import annotations

import os
from typing import TYPE_CHECKING, Callable, Iterable, Optional

if TYPE_CHECKING:  # the heavy modules load on the first analysis, not with the CLI
    from tengen.endgame.results import Analysis
    from tengen.endgame.tree import GrowthConfig
    from tengen.go.board import Board
    from tengen.go.coords import Point

# deeper than the library's batch defaults (300 / 400): on the bundled example the main fight needs it
INTERACTIVE_MAX_NODES, INTERACTIVE_MAX_TOTAL_NODES = 800, 1000


def analyze(position: Board | str | os.PathLike, *, move: Optional[int] = None,
            region: Optional[str | Iterable[Point]] = None, predictor: str = "auto", evaluator=None,
            model: Optional[str] = None, growth: Optional[GrowthConfig] = None, **options) -> Analysis:
    """Analyse the endgame of a position: a Board, or an SGF file (after `move` moves of its main line, the
    end by default; `SQ[]` markup on that node names a region). `region`: GTP vertices ("C1,D1") or points.
    The default network is loaded (and fetched once into the cache) only if needed; `model` picks another
    file, `evaluator` passes one in. Other keywords go to `tengen.endgame.analysis.analyze`. An illegal
    move in the record is placed as editors do, with a UserWarning naming it."""
    import warnings

    from tengen.endgame.tree import GrowthConfig
    from tengen.go.board import Board

    leaf_scoring = options.get("leaf_scoring", "evaluator")
    if leaf_scoring not in ("evaluator", "exact"):
        raise ValueError(f"leaf_scoring must be 'evaluator' or 'exact', not {leaf_scoring!r}")
    threshold = options.get("threshold", 0.9)
    if not 0 < threshold <= 1:
        raise ValueError(f"threshold must lie in (0, 1], not {threshold!r}")
    if isinstance(position, Board):
        if move is not None:
            raise ValueError("move applies to an SGF file; a Board is analysed as it stands")
        board, node = position, None
    else:
        game, board, node = load_position(position, move)
        for warning in game.load_warnings() + game.forced_warnings():
            warnings.warn(warning, stacklevel=2)
    region = region_points(region, board, node)
    if predictor == "exhaustive" and region is None:
        raise ValueError("the exhaustive predictor needs a region (region=... or SQ[] markup on the node)")
    if growth is None:
        growth = GrowthConfig(max_nodes=INTERACTIVE_MAX_NODES, max_total_nodes=INTERACTIVE_MAX_TOTAL_NODES)
    return analyze_position(board, region, predictor=predictor, evaluator=evaluator,
                            load_evaluator=lambda: default_evaluator(model), growth=growth,
                            oracle_node=node if predictor == "oracle" else None, **options)


def analyze_position(board: Board, points: Optional[list[Point]], *, predictor: str, evaluator,
                     load_evaluator: Callable[[], object], leaf_scoring: str = "evaluator", **options) -> Analysis:
    """Run the analysis, loading the network first when the settings need it for sure, or on demand when
    `auto` meets a region the exact solver cannot finish."""
    from tengen.endgame.analysis import NeedsNetwork
    from tengen.endgame.analysis import analyze as analyze_board

    if evaluator is None and needs_network(predictor, points, leaf_scoring):
        evaluator = load_evaluator()
    try:
        return analyze_board(board, evaluator, region_points=points, predictor=predictor,
                             leaf_scoring=leaf_scoring, **options)
    except NeedsNetwork:
        return analyze_board(board, load_evaluator(), region_points=points, predictor=predictor,
                             leaf_scoring=leaf_scoring, **options)


def needs_network(predictor: str, points: Optional[list[Point]], leaf_scoring: str) -> bool:
    """Whether these settings need the network whatever the position (auto on a marked region may not)."""
    return (predictor == "kata" or points is None
            or (predictor in ("oracle", "net") and leaf_scoring != "exact"))


def load_position(path: str | os.PathLike, move: Optional[int] = None):
    """An SGF file's game, its position after `move` moves of the main line (the end by default; illegal
    moves forced as editors do) and the node holding it."""
    from tengen.go.sgf import load_game

    game = load_game(path)
    return game, game.board_at(move, strict=False), game.node_at(move)


def region_points(region: Optional[str | Iterable[Point]], board: Board, node=None) -> Optional[list[Point]]:
    """The user's region: GTP vertices ("C1,D1") or points, else the SQ[] markup on `node`; None if neither."""
    from tengen.go.coords import parse_point_list
    from tengen.go.sgf import markup_points

    if isinstance(region, str):
        return parse_point_list(region, board.height, board.width)
    if region is not None:
        points = []
        for p in region:  # points (row, col) or GTP vertices
            if isinstance(p, str):
                points += parse_point_list(p, board.height, board.width)
            elif not (isinstance(p, tuple) and len(p) == 2 and board.on_board(p)):
                raise ValueError(f"region point {p!r} is not a (row, col) point on the {board.width}x{board.height} board")
            else:
                points.append(p)
        return points
    return (markup_points(node, "SQ", board.height) or None) if node is not None else None


def default_evaluator(model: Optional[str] = None):
    """The KataGo evaluator on `model`, or on the cached default network (fetched on first use)."""
    from tengen.eval.katago.evaluator import KataGoEvaluator

    if model is not None and not os.path.exists(model):
        raise FileNotFoundError(f"{model}: no such model file")
    return KataGoEvaluator(model)
