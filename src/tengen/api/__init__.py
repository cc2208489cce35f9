"""`tengen.analyze`: the main job from Python, with the defaults every front end shares (`AnalysisOptions()`;
an SGF file or a Board in, an Analysis out). `tengen analyze` calls it too, so the library and the CLI give
the same answers for the same settings.

The network is loaded only when the analysis needs it: a marked local diagram that the exact solver finishes
needs none, and one it cannot finish loads the network then, without repeating the exact solves.
"""
from __future__ import annotations

import os
import warnings
from dataclasses import fields, replace
from typing import TYPE_CHECKING, Iterable, Optional, Union

from tengen.api.classic import classic_evaluator  # noqa: F401 - re-exported: the classic evaluator's wiring

if TYPE_CHECKING:  # the heavy modules load on the first analysis, not with the CLI
    from tengen.endgame.analysis import ProgressCallback
    from tengen.endgame.options import AnalysisOptions
    from tengen.endgame.results import Analysis
    from tengen.go.board import Board
    from tengen.go.coords import Point
    from tengen.go.position import Position

def analyze(position: Union[Board, Position, str, os.PathLike], *, move: Optional[int] = None,
            region: Optional[Union[str, Iterable[Point]]] = None, evaluator=None, model: Optional[str] = None,
            device: str = "cpu", options: Optional[AnalysisOptions] = None,
            progress: Optional[ProgressCallback] = None, **settings) -> Analysis:
    """Analyze the endgame of a position: a Board, a loaded `Position`, or an SGF file (after `move` moves
    of its main line, the end by default; `SQ[]` markup on that node names a region; illegal moves in the
    record are placed as editors do, each named in a UserWarning). `region`: GTP vertices ("C1,D1") or
    points. `options` (default `AnalysisOptions()`, the defaults every front end shares), with any of its fields overridden by keyword
    (`predictor="kata"`, `leaf_scoring="exact"`, ...). The default network is loaded (and fetched once into
    the cache) only if needed, on `device` ("cpu", "cuda", "auto"; the local-move and value networks follow
    the evaluator's device); `model` picks another file, `evaluator` passes one in."""
    from tengen.endgame.analysis import analyze_board
    from tengen.go.board import Board
    from tengen.go.position import Position, load_position

    from tengen.endgame.options import AnalysisOptions

    options = _with_settings(options or AnalysisOptions(), settings)
    if isinstance(position, Board):
        if move is not None:
            raise ValueError("move applies to an SGF file; a Board is analyzed as it stands")
        board, node = position, None
    else:
        if not isinstance(position, Position):
            position = load_position(position, move)
            for warning in position.game.load_warnings() + position.game.forced_warnings():
                warnings.warn(warning, stacklevel=2)
        elif move is not None:
            raise ValueError("move applies to an SGF file; a Position is analyzed at its own move")
        board, node = position.board, position.node
    points = region_points(region, board, node)
    if options.region_method == "exact" and points is None:
        raise ValueError("the exhaustive predictor needs a region (region=... or SQ[] markup on the node)")
    return analyze_board(board, evaluator, options, region_points=points,
                         oracle_node=node if options.predictor == "oracle" else None, progress=progress,
                         load_evaluator=lambda: default_evaluator(model, device), move_look=search_look(options))


def search_look(options: AnalysisOptions):
    """The move check's look by search (`tengen.search.move_look.SearchLook`, `options.move_check_visits`
    per candidate) as a factory of the evaluator; None for the network's one-move look (0 visits)."""
    if options.move_check_visits <= 0:
        return None
    from tengen.search.move_look import SearchLook

    return lambda evaluator: SearchLook(evaluator, options.move_check_visits)


def review_options(options: AnalysisOptions, check_visits: Optional[int] = None) -> AnalysisOptions:
    """The review's settings: `options`, its one search being the mistake check of `check_visits` a candidate
    (default `DEFAULT_MISTAKE_CHECK_VISITS`; a review analyses its positions without the move check's search)."""
    from tengen.endgame.options import DEFAULT_MISTAKE_CHECK_VISITS

    return replace(options, move_check_visits=DEFAULT_MISTAKE_CHECK_VISITS if check_visits is None else check_visits)


def _with_settings(options: AnalysisOptions, settings: dict) -> AnalysisOptions:
    """`options` with fields overridden by keyword; an unknown keyword is a ValueError naming the known ones."""
    known = {f.name for f in fields(options)}
    unknown = sorted(set(settings) - known)
    if unknown:
        raise ValueError(f"unknown setting(s) {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    return replace(options, **settings) if settings else options


def region_points(region: Optional[Union[str, Iterable[Point]]], board: Board, node=None) -> Optional[list[Point]]:
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


def default_evaluator(model: Optional[str] = None, device: str = "cpu"):
    """The KataGo evaluator on `model`, or on the cached default network (fetched on first use), on `device`:
    `make_evaluator("katago", model=model, device=device)`."""
    from tengen.api.evaluators import make_evaluator

    return make_evaluator("katago", model=model, device=device)

