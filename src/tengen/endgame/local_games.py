"""The local games of an analysis's regions: each valued by a region method (`REGION_METHODS`: the exact
solver alone, `auto`, or a tree grown by a move predictor), trees of one position grown together and their
leaves scored together; and the one pre-check before any search (`too_large_for_a_local_game`)."""
from __future__ import annotations

import time
from collections import Counter
from dataclasses import replace
from typing import Callable, Optional, Sequence

from tengen.endgame import cgt_bridge
from tengen.endgame.evalcache import NeedsNetwork, NetworkOnDemand
from tengen.endgame.leaves import (LEAF_SOLVER_NODES, score_jobs_by_solver, score_jobs_exactly, score_jobs_with_evaluator,
                                   score_jobs_with_value_net)
from tengen.endgame.notes import Note
from tengen.endgame.options import AnalysisOptions
from tengen.endgame.move_predictors import make_predictor
from tengen.endgame.predictors import CountsEvaluations, ReportsProblems
from tengen.endgame.regions import Region
from tengen.endgame.results import UNSOLVED, RegionResult, region_label
from tengen.endgame.sealed import SealedRules
from tengen.endgame.tree import LocalTree, grow_trees, restore_threats, threats_as_probes
from tengen.cgt.thermo import UNBOUNDED
from tengen.eval.devices import device_of
from tengen.eval.evaluation import Evaluator
from tengen.go.board import Board
from tengen.phases import phase

ProgressCallback = Callable[[str, int, int], None]


def analyze_region(board: Board, region: Region, evaluator: Optional[Evaluator] = None,
                   options: Optional[AnalysisOptions] = None, *, oracle_node=None) -> RegionResult:
    """One region: grow (or solve) its local game and read off count, temperature, type and best moves."""
    return analyze_regions(board, [region], evaluator, options, oracle_node=oracle_node)[0]


def analyze_regions(board: Board, regions: Sequence[Region], evaluator: Optional[Evaluator] = None,
                    options: Optional[AnalysisOptions] = None, *, oracle_node=None,
                    progress: Optional[ProgressCallback] = None,
                    load_evaluator: Optional[Callable[[], Evaluator]] = None) -> list[RegionResult]:
    """Every region's local game (see `analyze_board` for the evaluator and `load_evaluator`)."""
    return value_regions(board, regions, NetworkOnDemand(evaluator, load_evaluator),
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


def value_regions(board: Board, regions: Sequence[Region], network: NetworkOnDemand, options: AnalysisOptions,
                  oracle_node=None, progress: Optional[ProgressCallback] = None) -> list[RegionResult]:
    """Every region's local game by the options' region method (`REGION_METHODS`), after the one pre-check
    before any search: a region too large to be a local game gets no tree and no solve."""
    declined = {i: why for i, region in enumerate(regions) if (why := too_large_for_a_local_game(region))}
    if declined:
        rest = [region for i, region in enumerate(regions) if i not in declined]
        done = iter(value_regions(board, rest, network, options, oracle_node, progress) if rest else ())
        return [RegionResult(region, kind=UNSOLVED, declined=declined[i]) if i in declined else next(done)
                for i, region in enumerate(regions)]
    return REGION_METHODS[options.region_method](board, regions, network, options, oracle_node, progress)


def _solve_all(board: Board, regions: Sequence[Region], network: NetworkOnDemand, options: AnalysisOptions,
               oracle_node, progress: Optional[ProgressCallback]) -> list[RegionResult]:
    """The exact solver on every region (no network): unsolved, with the reason, where it gives no value."""
    return [_solve_exhaustively(board, region, progress, i, len(regions)) for i, region in enumerate(regions)]


def _grow_with_network(board: Board, regions: Sequence[Region], network: NetworkOnDemand, options: AnalysisOptions,
                       oracle_node, progress: Optional[ProgressCallback]) -> list[RegionResult]:
    """Every region's tree, grown by the options' move predictor (the network loaded first where it needs one)."""
    if options.needs_network(has_region=True):
        network.get()
    return _grow_regions(board, regions, network.evaluator, options, oracle_node, progress)


def _grow_regions(board: Board, regions: Sequence[Region], evaluator: Optional[Evaluator], options: AnalysisOptions,
                  oracle_node, progress: Optional[ProgressCallback],
                  declined: Optional[dict[int, str]] = None) -> list[RegionResult]:
    """The regions' trees grow together, one predictor batch per level for all regions; their leaves are
    scored together (`leaf_batches="board"`) or region by region; each region is charged its own network
    evaluations, and the wall time in proportion to them. With `sealed_rules`, a sealed region's lines end
    where the exact rules say (`tengen.endgame.sealed`)."""
    start = time.perf_counter()
    predictor = options.move_predictor()
    with phase("trees"):
        pred = (make_predictor(predictor, evaluator, board, oracle_node, options.local_model)
                if isinstance(predictor, str) else predictor)
        if options.sealed_rules and pred.name in ("kata", "net"):
            pred = SealedRules(pred, board, regions)
        trees = grow_trees(board, regions, pred, options.growth, progress=progress)
    problems = pred.problems if isinstance(pred, ReportsProblems) else {}
    notes: list[list[Note]] = []
    for region, tree in zip(regions, trees):  # what the trees say before their leaves are scored
        said = [Note("budget", f"budget exhausted: tree cut at {tree.nodes} nodes")] if tree.budget_exhausted else []
        said += [Note("oracle", problem) for problem in problems.get(region.id, [])]
        if isinstance(pred, SealedRules) and pred.sealed(region):
            settled = sum(n.counted for n in tree.root.walk()) + pred.settle_leaves(tree)
            said.append(Note("sealed", f"sealed region: the exact rules end lines and count {settled} settled leaves"))
            said += pred.locals[region.id].notes
        notes.append(said)
    with phase("leaves"):
        made, leaf_notes = _score_leaves(trees, evaluator, options)
    for region, said in zip(regions, notes):
        said += leaf_notes.get(region.id, [])
    by_region = pred.evaluations_by_region if isinstance(pred, CountsEvaluations) else {}
    evaluations = [by_region.get(region.id, 0) + made[region.id] for region in regions]
    seconds = _shares(evaluations, time.perf_counter() - start)
    results = []
    for i, (region, tree) in enumerate(zip(regions, trees)):
        if progress:
            progress("region", i, len(regions))
        with phase("cgt"):
            value, play, more = cgt_bridge.tree_parts(tree, board.height)
            if value.kind == UNBOUNDED:
                again, rows = _threats_by_follow_ups(tree, evaluator, board.height)
                if again is not None:
                    value, play, more = again
                    evaluations[i] += rows
        why = (declined or {}).get(region.id, "")  # the exact solver, asked first under `auto`, gave no value
        answered = [Note("method", f"answered by a grown tree ({pred.name}): the exact solver declined: {why}")] if why else []
        results.append(RegionResult.from_parts(region, value, play, tree=tree, evaluations=evaluations[i],
                                               seconds=seconds[i], notes=answered + notes[i] + more, declined=why,
                                               exact_rules=isinstance(pred, SealedRules) and pred.sealed(region)))
    if progress:
        progress("region", len(regions), len(regions))
    return results


def _threats_by_follow_ups(tree: LocalTree, evaluator, height: int):
    """A tree whose answer-head threats (±inf) leave its value unbounded, valued again with each such threat a
    probe of the threatening color's next move (`tree.threats_as_probes`; scored by the network's unrounded
    ownership, or the exact area count without one): (value, play, notes) and the network rows spent, or
    (None, 0) with the tree as it was where that gives no bounded value either. A chain of moves the answer head
    each judges sente (every answer a new threat) is a double sente at ±inf, which no thermograph values."""
    replaced = threats_as_probes(tree.root)
    if not replaced:
        return None, 0
    jobs = [(child, tree.region) for node, color, k, _ in replaced for _, child in (node.children[color][k],)]
    rows = score_jobs_with_evaluator(jobs, evaluator)[tree.region.id] if evaluator is not None else 0
    if evaluator is None:
        score_jobs_exactly(jobs)
    value, play, notes = cgt_bridge.tree_parts(tree, height)
    if value.kind == UNBOUNDED:
        restore_threats(replaced)
        return None, rows
    notes = [n for n in notes if n.kind != "threat"] + [Note("follow-up", (
        f"the tree's threats left its value unbounded (every answer a new threat): {len(replaced)} threats judged "
        "by the answer head valued instead by the threatening color's next move, evaluated one ply deep"))]
    return (value, play, notes), rows


def _score_leaves(trees: Sequence[LocalTree], evaluator, options: AnalysisOptions) -> tuple[Counter, dict]:
    """Score every tree's leaves as the options say: all regions' leaves in one pass of batches
    (`leaf_batches="board"`), or one pass per region (`"region"`, the older path, kept for the speed bench's
    before-and-after). Returns the evaluator's (KataGo's) network rows by region id, and notes by region id
    (leaves solved exactly: how many the solver valued, and how many it left to the network or to the area count)."""
    groups = ([[(leaf, tree.region) for tree in trees for leaf in tree.leaves()]]
              if options.leaf_batches == "board" else [[(leaf, tree.region) for leaf in tree.leaves()] for tree in trees])
    made: Counter = Counter()
    solved: Counter = Counter()  # leaves the exact solver valued, by region id
    left: Counter = Counter()  # leaves it left to the scoring below, by region id
    for jobs in groups:
        if options.leaf_scoring == "solver":  # the solver where it answers; the rest scored as below
            done, jobs = score_jobs_by_solver(jobs)
            solved += done
            left += Counter(region.id for _, region in jobs)
        if options.leaf_scoring == "exact" or evaluator is None:
            score_jobs_exactly(jobs)
        elif options.leaf_scoring == "valuenet":
            made += score_jobs_with_value_net(jobs, value_net_for(options.value_model, device_of(evaluator)), evaluator,
                                              options.leaf_confidence)[0]
        else:
            made += score_jobs_with_evaluator(jobs, evaluator)
    rest = "by the network's rounded ownership" if evaluator is not None else "their exact area count as they stand"
    notes = {}
    for tree in trees:
        n, others = solved[tree.region.id], left[tree.region.id]
        if tree.region.source != "mask" and others:
            text = f"leaves: {rest} (the exact solver values the leaves of marked regions only)"
        elif n or others:
            text = (f"leaves: {n} valued by the exact solver (the mean of each leaf's local game, within "
                    f"{LEAF_SOLVER_NODES:,} positions)"
                    + (f", {others} too large or unsolved for it, or probes: {rest}" if others else ""))
        else:
            continue
        notes[tree.region.id] = [Note("leaves", text)]
    return made, notes


_VALUE_NETS: dict = {}


def value_net_for(weights: Optional[str], device: str = "cpu"):
    """The value-network evaluator of a weights file (None: the committed default) on `device`, loaded once
    per process and device."""
    if (weights, device) not in _VALUE_NETS:
        from tengen.eval.valuenet.evaluator import ValueNetEvaluator

        _VALUE_NETS[weights, device] = ValueNetEvaluator(weights, device=device)
    return _VALUE_NETS[weights, device]


def _shares(evaluations: list[int], seconds: float) -> list[float]:
    """Trees grown together share their batches: each region gets the time in proportion to its evaluations."""
    total = sum(evaluations)
    return [seconds * (e / total if total else 1 / len(evaluations)) for e in evaluations]


# what `auto` lets the exact solver spend on one sealed region before handing it to a tree. A count of
# positions, not seconds: which regions are solved exactly must not depend on how busy the machine is. The
# native search (`exact.native`, about 5-10 microseconds and up to 500 bytes a position searched or merged, on
# one core: 2,000,000 positions ~ 10-20 s and about 1 GB at most; a 33-point corner stopped at the budget held
# 0.72 GB) owns every textbook-sized region (the 12-point empty edge strip: 227,286 positions searched, 1.3 s)
AUTO_SOLVER_NODES_NATIVE = 2_000_000


def auto_solver_nodes() -> int:
    """The position budget `auto` gives the exact solver on one region."""
    return AUTO_SOLVER_NODES_NATIVE


def _analyze_auto(board: Board, regions: Sequence[Region], network: NetworkOnDemand, options: AnalysisOptions,
                  oracle_node, progress: Optional[ProgressCallback]) -> list[RegionResult]:
    """Sealed regions the exact solver finishes within a small budget are solved exactly; the rest (every
    region of an ordinary whole-board position, which is never sealed) go to `net` (kata without a trained
    local-move network), grown together, with the network loaded then if it was not yet."""
    from tengen.endgame.exact import ExhaustiveConfig

    results: list[Optional[RegionResult]] = [None] * len(regions)
    declined: dict[int, str] = {}  # why the exact solver left a mask (or a sealed region) to the tree predictor
    for i, region in enumerate(regions):
        # sealed as `tengen.endgame.sealed` means it: a region the network found needs pass-alive walls
        budget = ExhaustiveConfig(max_nodes=auto_solver_nodes(), seconds=None,
                                  require_benson=region.source != "mask")
        solved_note = Note("method", "sealed: solved exactly by the exhaustive solver")  # said only of a value
        result = _solve_exhaustively(board, region, None, i, len(regions), budget, first_notes=[solved_note])
        if result.method == "exhaustive":  # a value; every failed solve is `unsolved` (declined says why)
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
        tree_predictor = options.move_predictor()
        why_of = {regions[i].id: why for i, why in declined.items()}
        grown = iter(_grow_regions(board, rest, evaluator, replace(options, predictor=tree_predictor),
                                   None, progress, declined=why_of))
        results = [result if result is not None else next(grown) for result in results]
    return results  # type: ignore[return-value]


def _solve_exhaustively(board: Board, region: Region, progress, i: int, n: int, config=None,
                        first_notes: Sequence[Note] = ()) -> RegionResult:
    if progress:
        progress("region", i, n)
    t0 = time.perf_counter()
    with phase("exact solver"):
        result = cgt_bridge.solve_exhaustively(board, region, RegionResult(region, notes=list(first_notes)), config)
    return replace(result, seconds=time.perf_counter() - t0)


# how a region is valued, by `AnalysisOptions.region_method`
REGION_METHODS: dict[str, Callable[..., list[RegionResult]]] = {
    "exact": _solve_all, "auto": _analyze_auto, "tree": _grow_with_network,
}
