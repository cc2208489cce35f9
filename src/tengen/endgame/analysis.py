"""The endgame analyzer end to end, as named stages every front end runs (the CLI, the library, batch, GTP,
the JSON protocol, the web and the game review all call `analyze_board`):

    network     load the network now where the settings need it whatever the position
    ownership   the root's ownership with each side to move (waits, for a marked region the exact solver
                may finish, until a region turns out to need it)
    regions     the marked region, or the undecided points of the ownership as regions
    local games each region's value by the options' region method (`local_games.REGION_METHODS`)
    values      the board count, the unsure walls' notes, the orthodox whole-board move
    move check  the orthodox move against the network's likeliest moves, by a search after each where the
                caller gives one (`tengen.analyze` does), else by the network one move later (a whole board)
    life        the groups whose life the side to move decides, said in words (a whole board)

Each stage is a plain function of one `_Run` (what the stages read and write), named in `STAGES`; the
region methods and the move predictors are small registries of their own modules.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Iterable, Optional, Sequence

import numpy as np

from tengen.endgame import cgt_bridge
from tengen.endgame.evalcache import NeedsNetwork, NetworkOnDemand  # noqa: F401 - NeedsNetwork: the analysis's error
from tengen.endgame.local_games import (AUTO_SOLVER_NODES_NATIVE,  # noqa: F401 - re-exported
                                        MAX_LOCAL_POINTS, ProgressCallback, analyze_region, analyze_regions,
                                        auto_solver_nodes, too_large_for_a_local_game, value_net_for, value_regions)
from tengen.endgame.move_check import MoveLook, check_move
from tengen.endgame.notes import Note
from tengen.endgame.options import AnalysisOptions
from tengen.endgame.outside_moves import note_outside_moves
from tengen.endgame.move_predictors import make_predictor  # noqa: F401 - re-exported: the predictors by name
from tengen.endgame.region_cache import RegionCache
from tengen.endgame.regions import (Region, agreed_ownership, find_regions, keep_and_find, ownership_swing,
                                    region_from_points, split_hot_spots, sure_territory, unsure_walls)
from tengen.endgame.results import Analysis, RegionResult
from tengen.eval.devices import device_of
from tengen.eval.evaluation import Evaluator
from tengen.go.board import Board
from tengen.go.colors import BLACK, WHITE
from tengen.go.coords import Point, to_gtp
from tengen.phases import PhaseClock, phase, running


def analyze_board(board: Board, evaluator: Optional[Evaluator] = None, options: Optional[AnalysisOptions] = None, *,
            region_points: Optional[Iterable[Point]] = None, oracle_node=None,
            progress: Optional[ProgressCallback] = None,
            load_evaluator: Optional[Callable[[], Evaluator]] = None,
            region_cache: Optional[RegionCache] = None,
            keep_regions: Optional[Sequence[frozenset[Point]]] = None,
            move_look: Optional[Callable[[Evaluator], MoveLook]] = None) -> Analysis:
    """Analyze the endgame of `board` with `options` (default `AnalysisOptions()`, every `auto` resolved by
    `AnalysisOptions.resolved`). The evaluator gives
    ownership (decomposition and leaf scores); without one, `load_evaluator` is called the first time the
    analysis needs a network (a marked region the exact solver finishes needs none), and with neither a
    region must be given and every region solved or scored exactly. The analysis's `phases` say where its
    time went (`tengen.phases`). With a `region_cache` (one per game: `tengen.endgame.region_cache`), a
    region whose points and surroundings an earlier position already valued is reused, not analyzed again;
    `keep_regions` (point sets) stay regions as they are and the decomposition draws the rest
    (`regions.keep_and_find`). `move_look` makes the move check's look from the evaluator (a search:
    `tengen.analyze` gives one when `options.move_check_visits` > 0); without it the network looks one
    move ahead (`move_check.NetworkLook`)."""
    clock = PhaseClock()
    run = _Run(board, (options or AnalysisOptions()).resolved(evaluator), NetworkOnDemand(evaluator, load_evaluator),
               None if region_points is None else list(region_points), oracle_node, progress, region_cache,
               keep_regions, move_look)
    with running(clock):
        for _, stage in STAGES:
            stage(run)
    run.analysis.phases = clock
    return run.analysis


@dataclass
class _Run:
    """One analysis in progress: its inputs, and what each stage leaves for the next."""

    board: Board
    options: AnalysisOptions
    network: NetworkOnDemand
    region_points: Optional[list[Point]]
    oracle_node: object
    progress: Optional[ProgressCallback]
    region_cache: Optional[RegionCache]
    keep_regions: Optional[Sequence[frozenset[Point]]]
    move_look: Optional[Callable[[Evaluator], MoveLook]] = None
    started: float = field(default_factory=time.perf_counter)
    evaluator: Optional[Evaluator] = None  # the network as the first stage left it (none yet: maybe loaded later)
    deferred: bool = False  # the root's ownership waits until a region needs the network
    ownership: Optional[np.ndarray] = None
    swing: Optional[np.ndarray] = None
    network_counts: Optional[tuple[float, float]] = None
    regions: list[Region] = field(default_factory=list)
    sure: float = 0.0
    results: list[RegionResult] = field(default_factory=list)
    analysis: Optional[Analysis] = None

    @property
    def whole_board(self) -> bool:
        return self.region_points is None


def _network_stage(run: _Run) -> None:
    if run.options.needs_network(has_region=not run.whole_board):
        with phase("network load"):
            run.network.get()  # the decomposition (or every region's leaves) needs it for sure
    run.evaluator = run.network.evaluator


def _ownership_stage(run: _Run) -> None:
    # a marked region of several points that the exact solver may finish needs no network: its root
    # evaluation waits until a region turns out to need it (then it gives the board count as before)
    run.deferred = not run.whole_board and run.options.region_method in ("auto", "exact") \
        and len(set(run.region_points)) > 1
    if run.evaluator is not None and not run.deferred:
        run.ownership, run.swing, run.network_counts = _root_view(run.board, run.evaluator)


def _regions_stage(run: _Run) -> None:
    options = run.options
    with phase("regions"):
        if not run.whole_board:
            run.regions = [region_from_points(run.region_points, run.ownership, options.threshold)]
        elif run.ownership is not None:
            def decompose(own: np.ndarray) -> list[Region]:
                found = find_regions(own, options.threshold, options.margin)
                return split_hot_spots(found, run.swing, options.hot_swing) if options.hot_swing > 0 else found

            run.regions = (decompose(run.ownership) if not run.keep_regions
                           else keep_and_find(run.ownership, run.keep_regions, find=decompose))
        else:
            raise ValueError("no evaluator and no region: nothing to decompose the board with")
        run.sure = sure_territory(run.ownership, run.regions, options.threshold) if run.ownership is not None else 0.0


def _local_games_stage(run: _Run) -> None:
    if run.region_cache is None:
        run.results = value_regions(run.board, run.regions, run.network, run.options, run.oracle_node, run.progress)
    else:
        run.results = _values_with_cache(run)
    if run.deferred and run.network.evaluator is not None and any(r.method != "exhaustive" for r in run.results):
        run.ownership, _, run.network_counts = _root_view(run.board, run.network.evaluator)  # the board count as before
        run.sure = sure_territory(run.ownership, run.regions, run.options.threshold)


def _values_with_cache(run: _Run) -> list[RegionResult]:
    """The regions the cache holds are reused; the rest are analyzed together (and stored)."""
    settings = repr(run.options)
    found = [run.region_cache.get(run.board, region, settings) for region in run.regions]
    missing = [region for region, result in zip(run.regions, found) if result is None]
    fresh = iter(value_regions(run.board, missing, run.network, run.options, run.oracle_node, run.progress)
                 if missing else [])
    results = []
    for result in found:
        if result is None:
            result = next(fresh)
            run.region_cache.put(run.board, result, settings)
        results.append(result)
    return results


def _values_stage(run: _Run) -> None:
    options = run.options
    with phase("cgt"):
        for result in run.results:
            _note_unsure_walls(result, run.board, run.ownership, options.threshold, options.leaf_scoring)
            note_outside_moves(result, run.board, run.results)
        run.analysis = Analysis(run.board, run.results, run.ownership, run.sure, predictor=options.predictor_name,
                                network_counts=run.network_counts,
                                settings={**options.summary(), "device": device_of(run.network.evaluator),
                                          # the look the move check had: a search only where one was given
                                          "move_check_visits": options.move_check_visits if run.move_look else 0})
        run.analysis.recommended, run.analysis.recommended_reason = cgt_bridge.whole_board_move(run.results,
                                                                                                run.board.to_play)


def _move_check_stage(run: _Run) -> None:
    if run.evaluator is not None and run.whole_board and run.options.move_check_margin is not None:
        look = run.move_look(run.evaluator) if run.move_look is not None else None
        with phase("move check"):
            _check_recommended_move(run.analysis, run.evaluator, run.options.move_check_margin, run.network.name, look)


def _life_stage(run: _Run) -> None:
    if run.whole_board and run.network.evaluator is not None and run.options.life_groups > 0:
        with phase("critical groups"):
            note_critical_groups(run.analysis, run.network.evaluator, run.options.life_groups, run.network.name)


def _totals_stage(run: _Run) -> None:
    analysis = run.analysis
    analysis.evaluations = run.network.evaluator.evaluations if run.network.evaluator is not None else 0
    analysis.evaluator_name = run.network.name
    analysis.seconds = time.perf_counter() - run.started


# the analysis, stage by stage, in order
STAGES: tuple[tuple[str, Callable[[_Run], None]], ...] = (
    ("network", _network_stage), ("ownership", _ownership_stage), ("regions", _regions_stage),
    ("local games", _local_games_stage), ("values", _values_stage), ("move check", _move_check_stage),
    ("life", _life_stage), ("totals", _totals_stage),
)


def note_critical_groups(analysis: Analysis, evaluator, limit: int, judge: Optional[str] = None) -> None:
    """The groups the side to move decides (`tengen.life.notes`), kept on the analysis and said on the
    region that holds the key move or the group's stones: a count cannot say that a group lives or dies.
    `judge` names the evaluator in the sentence (default: the analysis's `evaluator_name`)."""
    from tengen.life.net import dragon
    from tengen.life.notes import critical_groups

    board = analysis.board
    analysis.critical_groups = critical_groups(board, evaluator, limit)
    for group in analysis.critical_groups:
        stones = set(dragon(board, group.stone))
        for result in analysis.regions:
            points = set(result.region.points)
            if group.attack in points or group.defense in points or stones & points:
                result.notes.append(Note("life", group.sentence(board.height, judge or analysis.evaluator_name)))
                break


def _check_recommended_move(analysis: Analysis, evaluator, margin: float, judge: str,
                            look: Optional[MoveLook] = None) -> None:
    """The whole-board look at the orthodox move (`move_check`: `look`, else the network one move ahead
    with `margin`), a pass included where the regions see nothing to gain (a cold misread region, a move no
    region holds); an overruled move is replaced by the policy move, and its region is told what the move
    loses outside it."""
    board = analysis.board
    orthodox = None if analysis.recommended is None else analysis.recommended[1]
    check = analysis.move_check = check_move(board, evaluator, orthodox, margin, judge, look)
    if check is None or not check.overruled:
        return
    analysis.recommended_reason = check.reason(board.height, analysis.recommended_reason)
    analysis.recommended = (board.to_play, check.policy)
    for result in analysis.regions:
        if check.orthodox in result.region.points:
            result.notes.append(Note("move check", check.region_note(board.height)))


def _note_unsure_walls(result: RegionResult, board: Board, ownership, threshold: float, leaf_scoring: str) -> None:
    region = result.region
    if result.method == "exhaustive":
        return  # solved by the rules alone: the network's view of the walls played no part
    if ownership is not None and region.source == "mask" and leaf_scoring != "exact":
        weak = unsure_walls(region, board.array(), ownership, threshold)
        if weak:
            where = " ".join(to_gtp(p, board.height) for p in weak[:8])
            if result.exact_rules:
                result.notes.append(Note("walls", f"the evaluator is unsure the walls live ({where}): settled lines "
                                         "are counted by the rules, but probes and cut lines use its ownership"))
            else:
                result.notes.append(Note("walls", f"the evaluator is unsure the walls live ({where}): leaf counts "
                                         "from its ownership may be wrong; try --leaves exact"))


def _root_view(board: Board, evaluator) -> tuple[np.ndarray, np.ndarray, tuple[float, float]]:
    """What the root's two evaluations give: the agreed ownership, its swing with the side to move, and the
    network's own counts with Black and with White to move."""
    with phase("ownership"):
        first, second = root_ownerships(board, evaluator)
    return agreed_ownership(first, second), ownership_swing(first, second), (float(first.sum()), float(second.sum()))


def root_ownerships(board: Board, evaluator) -> tuple[np.ndarray, np.ndarray]:
    """The evaluator's ownership with Black to move and with White to move (one batch)."""
    boards = []
    for color in (BLACK, WHITE):
        b = board.copy()
        b.to_play = color
        boards.append(b)
    first, second = evaluator.evaluate(boards)
    return np.asarray(first.ownership, dtype=float), np.asarray(second.ownership, dtype=float)
