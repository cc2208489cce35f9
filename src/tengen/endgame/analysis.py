"""The endgame analyzer end to end: evaluator -> regions -> local trees -> leaf scores -> CGT values ->
per-region results and the orthodox whole-board move.

`analyze_board(board, evaluator, options)` is the engine's entry point (`tengen.analyze` is the library's
front door over it); every stage is a plain function of its own module so it can be called and tested alone.
"""
from __future__ import annotations

import time
from collections import Counter
from dataclasses import replace
from typing import Callable, Iterable, Optional, Sequence

import numpy as np

from tengen.endgame import cgt_bridge
from tengen.endgame.evalcache import cached
from tengen.endgame.leaves import score_jobs_exactly, score_jobs_with_evaluator, score_jobs_with_value_net
from tengen.endgame.move_check import check_move
from tengen.endgame.options import AnalysisOptions
from tengen.phases import PhaseClock, phase, running
from tengen.endgame.predictors import KataPolicyPredictor, LocalMovePredictor
from tengen.endgame.region_cache import RegionCache
from tengen.eval.devices import device_of
from tengen.endgame.regions import (Region, agreed_ownership, find_regions, keep_and_find,
                                    ownership_swing, region_from_points, split_hot_spots, sure_territory, unsure_walls)
from tengen.endgame.results import UNSOLVED, Analysis, RegionResult, region_label
from tengen.endgame.sealed import SealedRules
from tengen.endgame.tree import LocalTree, grow_trees
from tengen.eval.evaluation import Evaluator, display_name
from tengen.go.board import Board
from tengen.go.colors import BLACK, WHITE
from tengen.go.coords import Point, to_gtp


ProgressCallback = Callable[[str, int, int], None]


def analyze_board(board: Board, evaluator: Optional[Evaluator] = None, options: Optional[AnalysisOptions] = None, *,
            region_points: Optional[Iterable[Point]] = None, oracle_node=None,
            progress: Optional[ProgressCallback] = None,
            load_evaluator: Optional[Callable[[], Evaluator]] = None,
            region_cache: Optional[RegionCache] = None,
            keep_regions: Optional[Sequence[frozenset[Point]]] = None) -> Analysis:
    """Analyze the endgame of `board` with `options` (default `AnalysisOptions()`, every `auto` resolved by
    `AnalysisOptions.resolved`). The evaluator gives
    ownership (decomposition and leaf scores); without one, `load_evaluator` is called the first time the
    analysis needs a network (a marked region the exact solver finishes needs none), and with neither a
    region must be given and every region solved or scored exactly. The analysis's `phases` say where its
    time went (`tengen.phases`). With a `region_cache` (one per game: `tengen.endgame.region_cache`), a
    region whose points and surroundings an earlier position already valued is reused, not analyzed again;
    `keep_regions` (point sets) stay regions as they are and the decomposition draws the rest
    (`regions.keep_and_find`)."""
    clock = PhaseClock()
    with running(clock):
        analysis = _analyze_board(board, evaluator, (options or AnalysisOptions()).resolved(evaluator),
                                  region_points, oracle_node,
                                  progress, load_evaluator, region_cache, keep_regions)
    analysis.phases = clock
    return analysis


def _analyze_board(board: Board, evaluator: Optional[Evaluator], options: AnalysisOptions,
                   region_points: Optional[Iterable[Point]], oracle_node, progress: Optional[ProgressCallback],
                   load_evaluator: Optional[Callable[[], Evaluator]], region_cache: Optional[RegionCache],
                   keep_regions: Optional[Sequence[frozenset[Point]]] = None) -> Analysis:
    start = time.perf_counter()
    network = _NetworkOnDemand(evaluator, load_evaluator)
    if options.needs_network(has_region=region_points is not None):
        with phase("network load"):
            network.get()  # the decomposition (or every region's leaves) needs it for sure
    evaluator = network.evaluator
    ownership = swing = network_counts = None
    # a marked region of several points that the exact solver may finish needs no network: its root
    # evaluation waits until a region turns out to need it (then it gives the board count as before)
    deferred = region_points is not None and options.predictor in ("auto", "exhaustive") \
        and len(set(region_points)) > 1
    if evaluator is not None and not deferred:
        ownership, swing, network_counts = _root_view(board, evaluator)
    with phase("regions"):
        if region_points is not None:
            regions = [region_from_points(region_points, ownership, options.threshold)]
        elif ownership is not None:
            def decompose(own: np.ndarray) -> list[Region]:
                found = find_regions(own, options.threshold, options.margin)
                return split_hot_spots(found, swing, options.hot_swing) if options.hot_swing > 0 else found

            regions = decompose(ownership) if not keep_regions else keep_and_find(ownership, keep_regions,
                                                                                   find=decompose)
        else:
            raise ValueError("no evaluator and no region: nothing to decompose the board with")
        sure = sure_territory(ownership, regions, options.threshold) if ownership is not None else 0.0
    if region_cache is None:
        results = _analyze_regions(board, regions, network, options, oracle_node, progress)
    else:
        results = _analyze_with_cache(board, regions, network, options, oracle_node, progress, region_cache)
    if deferred and network.evaluator is not None and any(r.method != "exhaustive" for r in results):
        ownership, _, network_counts = _root_view(board, network.evaluator)  # the board count as before
        sure = sure_territory(ownership, regions, options.threshold)
    with phase("cgt"):
        for result in results:
            _note_unsure_walls(result, board, ownership, options.threshold, options.leaf_scoring)
        analysis = Analysis(board, results, ownership, sure, predictor=options.predictor_name,
                            network_counts=network_counts,
                            settings={**options.summary(), "device": device_of(network.evaluator)})
        analysis.recommended, analysis.recommended_reason = cgt_bridge.whole_board_move(results, board.to_play)
    if evaluator is not None and region_points is None and options.move_check_margin is not None:
        with phase("move check"):
            _check_recommended_move(analysis, evaluator, options.move_check_margin, network.name)
    analysis.evaluations = network.evaluator.evaluations if network.evaluator is not None else 0
    analysis.evaluator_name = network.name
    analysis.seconds = time.perf_counter() - start
    return analysis


def _analyze_with_cache(board: Board, regions: Sequence[Region], network: "_NetworkOnDemand", options: AnalysisOptions,
                        oracle_node, progress: Optional[ProgressCallback], cache: RegionCache) -> list[RegionResult]:
    """The regions the cache holds are reused; the rest are analyzed together (and stored)."""
    settings = repr(options)
    found = [cache.get(board, region, settings) for region in regions]
    missing = [region for region, result in zip(regions, found) if result is None]
    fresh = iter(_analyze_regions(board, missing, network, options, oracle_node, progress) if missing else [])
    results = []
    for result in found:
        if result is None:
            result = next(fresh)
            cache.put(board, result, settings)
        results.append(result)
    return results


class _NetworkOnDemand:
    """The analysis's evaluator, behind the evaluation cache: the one given, or loaded by `load` the first
    time a stage needs it (once; `NeedsNetwork` when there is no way to get one)."""

    def __init__(self, evaluator: Optional[Evaluator], load: Optional[Callable[[], Evaluator]] = None):
        self.evaluator, self._load = cached(evaluator), load

    def get(self) -> Evaluator:
        if self.evaluator is None:
            if self._load is None:
                raise NeedsNetwork("the analysis needs a network (an evaluator) and none was given")
            self.evaluator = cached(self._load())
        return self.evaluator

    @property
    def name(self) -> str:
        """What reports call the evaluator: its `display_name` ("classic evaluator"), else "network"."""
        inner = None if self.evaluator is None else self.evaluator.evaluator
        return display_name(inner)


def _check_recommended_move(analysis: Analysis, evaluator, margin: float, judge: str) -> None:
    """The network's one-move look at the orthodox move (`move_check`); an overruled move is replaced by
    the policy move, and its region is told what the move loses outside it."""
    if analysis.recommended is None:
        return
    board = analysis.board
    check = analysis.move_check = check_move(board, evaluator, analysis.recommended[1], margin, judge)
    if check is None or not check.overruled:
        return
    analysis.recommended_reason = check.reason(board.height, analysis.recommended_reason)
    analysis.recommended = (board.to_play, check.policy)
    for result in analysis.regions:
        if check.orthodox in result.region.points:
            result.notes.append(check.region_note(board.height))


def _note_unsure_walls(result: RegionResult, board: Board, ownership, threshold: float, leaf_scoring: str) -> None:
    region = result.region
    if result.method == "exhaustive":
        return  # solved by the rules alone: the network's view of the walls played no part
    if ownership is not None and region.source == "mask" and leaf_scoring != "exact":
        weak = unsure_walls(region, board.array(), ownership, threshold)
        if weak:
            where = " ".join(to_gtp(p, board.height) for p in weak[:8])
            if result.exact_rules:
                result.notes.append(f"the evaluator is unsure the walls live ({where}): settled lines are counted "
                                    "by the rules, but probes and cut lines use its ownership")
            else:
                result.notes.append(f"the evaluator is unsure the walls live ({where}): leaf counts from its "
                                    "ownership may be wrong; try --leaves exact")


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


def make_predictor(name: str, evaluator, board: Board, oracle_node=None,
                   local_model: Optional[str] = None) -> LocalMovePredictor:
    """Build a predictor by name: kata, oracle, net (on `local_model`, else the committed weights)."""
    if name == "kata":
        if evaluator is None:
            raise ValueError("the kata predictor needs an evaluator")
        return KataPolicyPredictor(evaluator)
    if name == "oracle":
        if oracle_node is None:
            raise ValueError("the oracle predictor needs an SGF node whose children are the local variations")
        from tengen.endgame.oracle import OraclePredictor, SgfVariations

        return OraclePredictor(SgfVariations(oracle_node, board.height), board.height)
    if name == "net":
        from tengen.endgame.predictors import LocalNetPredictor

        return LocalNetPredictor(weights=local_model, device=device_of(evaluator))
    raise ValueError(f"unknown predictor {name!r} (kata, oracle, exhaustive, net)")


def analyze_region(board: Board, region: Region, evaluator: Optional[Evaluator] = None,
                   options: Optional[AnalysisOptions] = None, *, oracle_node=None) -> RegionResult:
    """One region: grow (or solve) its local game and read off count, temperature, type and best moves."""
    return analyze_regions(board, [region], evaluator, options, oracle_node=oracle_node)[0]


def analyze_regions(board: Board, regions: Sequence[Region], evaluator: Optional[Evaluator] = None,
                    options: Optional[AnalysisOptions] = None, *, oracle_node=None,
                    progress: Optional[ProgressCallback] = None,
                    load_evaluator: Optional[Callable[[], Evaluator]] = None) -> list[RegionResult]:
    """Every region's local game (see `analyze_board` for the evaluator and `load_evaluator`)."""
    return _analyze_regions(board, regions, _NetworkOnDemand(evaluator, load_evaluator),
                            (options or AnalysisOptions()).resolved(evaluator), oracle_node, progress)


# the most points a region may have to be analyzed as a local game: beyond it (the open board of a game's
# opening or middle game, a marked empty board) no search or tree is started, and the region is declined at
# once with the reason (a tree of 1,000 nodes over the whole board takes minutes of network time and means
# nothing; the exact solver takes at most 64 points)
MAX_LOCAL_POINTS = 120


def too_large_for_a_local_game(region: Region) -> str:
    """Why a region is declined before any search ('' when it is not)."""
    n = len(region.points)
    if n <= MAX_LOCAL_POINTS:
        return ""
    return (f"too large: {n} points is no local endgame region (at most {MAX_LOCAL_POINTS} are analyzed as a "
            "local game; the exact solver takes at most 64): the board is not yet in its endgame, or mark a "
            "smaller region")


def _analyze_regions(board: Board, regions: Sequence[Region], network: _NetworkOnDemand, options: AnalysisOptions,
                     oracle_node, progress: Optional[ProgressCallback]) -> list[RegionResult]:
    declined = {i: why for i, region in enumerate(regions) if (why := too_large_for_a_local_game(region))}
    if declined:  # one pre-check before any search: these get no tree and no solve
        rest = [region for i, region in enumerate(regions) if i not in declined]
        done = iter(_analyze_regions(board, rest, network, options, oracle_node, progress) if rest else ())
        return [RegionResult(region, kind=UNSOLVED, declined=declined[i]) if i in declined else next(done)
                for i, region in enumerate(regions)]
    if options.predictor == "exhaustive":
        return [_solve_exhaustively(board, region, progress, i, len(regions)) for i, region in enumerate(regions)]
    if options.predictor == "auto":
        return _analyze_auto(board, regions, network, options, progress)
    if options.needs_network(has_region=True):
        network.get()
    return _grow_regions(board, regions, network.evaluator, options, oracle_node, progress)


def _grow_regions(board: Board, regions: Sequence[Region], evaluator: Optional[Evaluator], options: AnalysisOptions,
                  oracle_node, progress: Optional[ProgressCallback]) -> list[RegionResult]:
    """The regions' trees grow together, one predictor batch per level for all regions; their leaves are
    scored together (`leaf_batches="board"`) or region by region; each region is charged its own network
    evaluations, and the wall time in proportion to them. With `sealed_rules`, a sealed region's lines end
    where the exact rules say (`tengen.endgame.sealed`)."""
    start = time.perf_counter()
    predictor = options.predictor
    with phase("trees"):
        pred = (make_predictor(predictor, evaluator, board, oracle_node, options.local_model)
                if isinstance(predictor, str) else predictor)
        if options.sealed_rules and getattr(pred, "name", "") in ("kata", "net"):
            pred = SealedRules(pred, board, regions)
        trees = grow_trees(board, regions, pred, options.growth, progress=progress)
    by_region = getattr(pred, "evaluations_by_region", {})
    results = []
    for region, tree in zip(regions, trees):
        result = RegionResult(region, tree=tree, evaluations=by_region.get(region.id, 0))
        if tree.budget_exhausted:
            result.notes.append(f"budget exhausted: tree cut at {tree.nodes} nodes")
        result.notes.extend(getattr(pred, "problems", {}).get(region.id, []))  # what an oracle could not read
        if isinstance(pred, SealedRules) and pred.sealed(region):
            result.exact_rules = True
            settled = sum(n.counted for n in tree.root.walk()) + pred.settle_leaves(tree)
            result.notes.append(f"sealed region: the exact rules end lines and count {settled} settled leaves")
            result.notes.extend(pred.locals[region.id].notes)
        results.append(result)
    with phase("leaves"):
        made = _score_leaves(trees, evaluator, options)
    for i, (result, tree) in enumerate(zip(results, trees)):
        if progress:
            progress("region", i, len(regions))
        result.evaluations += made[result.region.id]
        with phase("cgt"):
            cgt_bridge.fill_from_tree(result, tree, board.height)
    if progress:
        progress("region", len(regions), len(regions))
    _share_seconds(results, time.perf_counter() - start)
    return results


def _score_leaves(trees: Sequence[LocalTree], evaluator, options: AnalysisOptions) -> Counter:
    """Score every tree's leaves as the options say: all regions' leaves in one pass of batches
    (`leaf_batches="board"`), or one pass per region (`"region"`, the older path, kept for the speed bench's
    before-and-after). Returns the evaluator's (KataGo's) network rows by region id."""
    groups = ([[(leaf, tree.region) for tree in trees for leaf in tree.leaves()]]
              if options.leaf_batches == "board" else [[(leaf, tree.region) for leaf in tree.leaves()] for tree in trees])
    made: Counter = Counter()
    for jobs in groups:
        if options.leaf_scoring == "exact" or evaluator is None:
            score_jobs_exactly(jobs)
        elif options.leaf_scoring == "valuenet":
            made += score_jobs_with_value_net(jobs, value_net_for(options.value_model, device_of(evaluator)), evaluator,
                                              options.leaf_confidence)[0]
        else:
            made += score_jobs_with_evaluator(jobs, evaluator)
    return made


_VALUE_NETS: dict = {}


def value_net_for(weights: Optional[str], device: str = "cpu"):
    """The value-network evaluator of a weights file (None: the committed default) on `device`, loaded once
    per process and device."""
    if (weights, device) not in _VALUE_NETS:
        from tengen.eval.valuenet.evaluator import ValueNetEvaluator

        _VALUE_NETS[weights, device] = ValueNetEvaluator(weights, device=device)
    return _VALUE_NETS[weights, device]


def _share_seconds(results: list[RegionResult], seconds: float) -> None:
    """Trees grown together share their batches: each region gets the time in proportion to its evaluations."""
    total = sum(r.evaluations for r in results)
    for r in results:
        r.seconds = seconds * (r.evaluations / total if total else 1 / len(results))


class NeedsNetwork(RuntimeError):
    """`predictor="auto"` without an evaluator met a region the exact solver could not finish."""


# what `auto` lets the exact solver spend on one sealed region before handing it to a tree. A count of
# positions, not seconds: which regions are solved exactly must not depend on how busy the machine is. The
# native search (`exhaustive_native`, about 5-10 microseconds and up to 500 bytes a position searched or merged, on
# one core: 2,000,000 positions ~ 10-20 s and about 1 GB at most; a 33-point corner stopped at the budget held 0.72 GB) owns every textbook-sized region (the 12-point
# empty edge strip: 227,286 positions searched, 1.3 s); the Python search, where the extension is not built, gets what it finishes in seconds (the largest
# dev-set region, a 10-point hane-connect with repetitions, needs ~26,000 positions)
AUTO_SOLVER_NODES_NATIVE = 2_000_000
AUTO_SOLVER_NODES_PYTHON = 30_000


def auto_solver_nodes() -> int:
    """The position budget `auto` gives the exact solver on one region (by the engine that will run)."""
    from tengen.endgame.exhaustive_native import available

    return AUTO_SOLVER_NODES_NATIVE if available() else AUTO_SOLVER_NODES_PYTHON


def _analyze_auto(board: Board, regions: Sequence[Region], network: _NetworkOnDemand, options: AnalysisOptions,
                  progress: Optional[ProgressCallback]) -> list[RegionResult]:
    """Sealed regions the exact solver finishes within a small budget are solved exactly; the rest (every
    region of an ordinary whole-board position, which is never sealed) go to `net` (kata without a trained
    local-move network), grown together, with the network loaded then if it was not yet."""
    from tengen.endgame.exhaustive import ExhaustiveConfig

    results: list[Optional[RegionResult]] = [None] * len(regions)
    declined: dict[int, str] = {}  # why the exact solver left a mask (or a sealed region) to the tree predictor
    for i, region in enumerate(regions):
        # sealed as `tengen.endgame.sealed` means it: a region the network found needs pass-alive walls
        budget = ExhaustiveConfig(max_nodes=auto_solver_nodes(), seconds=None,
                                  require_benson=region.source != "mask")
        result = _solve_exhaustively(board, region, None, i, len(regions), budget)
        if result.method == "exhaustive":  # a value; every failed solve is `unsolved` (declined says why)
            result.notes.insert(0, "sealed: solved exactly by the exhaustive solver")
            results[i] = result
        elif result.declined and (region.source == "mask" or not result.declined.startswith("region not sealed")):
            declined[i] = result.declined  # a user's mask, or a sealed region the solver could not value
    rest = [region for region, result in zip(regions, results) if result is None]
    if progress and not rest:
        progress("region", len(regions), len(regions))  # every region solved exactly
    if rest:
        try:
            evaluator = network.get()
        except NeedsNetwork:
            why = "; ".join(f"region {region_label(i)}: {reason}" for i, reason in declined.items())
            raise NeedsNetwork(f"{len(rest)} region(s) need the network (not sealed, or too large to solve "
                               "exactly)" + (f" ({why})" if why else "")) from None
        tree_predictor = options.tree_predictor()
        grown = iter(_grow_regions(board, rest, evaluator, replace(options, predictor=tree_predictor),
                                   None, progress))
        results = [result if result is not None else next(grown) for result in results]
        for i, why in declined.items():
            results[i].declined = why
            results[i].notes.insert(0, f"answered by a grown tree ({tree_predictor}): the exact solver declined: {why}")
    return results  # type: ignore[return-value]


def _solve_exhaustively(board: Board, region: Region, progress, i: int, n: int, config=None) -> RegionResult:
    if progress:
        progress("region", i, n)
    t0 = time.perf_counter()
    with phase("exact solver"):
        result = cgt_bridge.solve_exhaustively(board, region, RegionResult(region), config)
    result.seconds = time.perf_counter() - t0
    return result
