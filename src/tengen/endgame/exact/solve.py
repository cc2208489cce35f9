"""Exhaustive local solver for a sealed region: `solve_region(board, region, config) -> ExhaustiveResult`.

The local game (its walls, rules of play, settled positions and move conventions) is
`tengen.endgame.exact.rules`; the search over its positions is the native engine `exact.native` (C), and
reading its result (best moves, principal lines, the essential-option game) `exact.readout`.

Search conventions (stated so that results can be checked):
- Cold but unsettled positions (seki, mutual shortage of liberties) count as they stand, clamped between
  the stops of their options: area scoring lets both sides pass, so normal-play numbers such as
  1/2 = {0 | 1} are not Go counts.
- Simple ko: the banned immediate retake is a phantom option filled in by the position it would return
  to. Two brackets (phantom at that position's lowest / highest possible count) tell whether the ko can
  matter. If it can, a simple ko with one exit per side is valued by the phantom rule of
  `tengen.cgt.ko` (kind 'ko' at the root). A ko only one side takes from its position, of any other shape,
  is valued by the same rule's fixed point: phi = the position's mean with phi in the banned slot, taken at
  the end best for the taker (on a simple ko the fixed points fill [r, (l + 2r) / 3] and that end is the
  textbook value). Any other ko (both sides take kos from one position, no fixed point found) is valued
  with the taker winning it (no ko threats) and the result says so (`ko_dependent`). `strict_kos=True`
  keeps the textbook shape only and reports 'unsupported' for every other ko.
- Loops (move sequences that repeat a position; in a local game the opponent may play elsewhere) are
  found as strongly connected components and valued by iterating from the lowest and from the highest
  possible counts (least and greatest fixed points). Where both agree the loop cannot matter. Otherwise
  nobody is credited with winning the repetition: a move into an undecided loop is valued at the end of
  its bracket worst for the player making it (symmetric under a color swap); the result says so
  (`loop_dependent`, with the bracket; `strict_kos=True` reports 'unsupported' instead). With
  `repetitions="superko"` (the analysis's setting) such a region is searched again with positional superko on
  the local line (`native.NativeLineSuperkoSolver`: a
  move that recreates a position of its own line is illegal), and that value stands where the search finishes.
A transposition table on the local position (stones + ko ban) and a node budget or time limit (status
'too_large') keep the search bounded.
"""
from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Iterable, Optional, Union

from tengen.cgt.game import Game
from tengen.cgt.ko import KoChain
from tengen.cgt.thermo import KO, Thermo
from tengen.cgt.values import MoveValues, move_values
from tengen.deadline import cancel_event, seconds_left
from tengen.endgame.exact.readout import best_moves, essential_game, essential_positions, principal_line
from tengen.endgame.exact.native import BudgetExceeded, NativeLineSuperkoSolver, NativeSolver, NativeUnavailable
from tengen.endgame.exact.rules import LocalRegion
from tengen.endgame.notes import Note
from tengen.go.colors import BLACK, WHITE
from tengen.go.coords import Point

OK, TOO_LARGE, UNSUPPORTED = "ok", "too_large", "unsupported"
REPETITIONS = ("fixed_points", "superko")
NATIVE_MAX_POINTS = 64  # the native search's masks; a larger region is declined at once
NATIVE_SUPERKO_NODES = 2_000_000  # what the native search without repetitions may spend (within max_nodes)


@dataclass(frozen=True)
class Engine:
    """A search for `solve_region`: the search (`solver(local, **limits)`, then `value(root)` and the tables
    `exact.readout` reads), the same search without repetitions (`line_solver`: positional superko on the local
    line), what that one may spend, whether the search takes `merge_settled`, and whether it recurses in Python
    (one frame per move of a line). The product runs NATIVE; the tests' oracle (`devkit.python_search.PYTHON`)
    is another."""

    name: str
    solver: Callable[..., object]
    line_solver: Callable[..., object]
    superko_nodes: int = NATIVE_SUPERKO_NODES
    merges: bool = False
    deep: bool = False


NATIVE = Engine("native", NativeSolver, NativeLineSuperkoSolver, merges=True)
ENGINES = ("auto", "native")  # by name ("auto" is the native engine too); an Engine object is taken as given


@dataclass
class ExhaustiveConfig:
    """Search limits. max_nodes counts distinct positions evaluated; seconds is a wall-clock limit."""

    max_nodes: int = 2_000_000  # native: ~5-10 us and up to ~500 bytes a position searched or merged (about 1 GB)
    seconds: Optional[float] = 60.0
    strict_kos: bool = False  # report 'unsupported' when a ko beyond the textbook shape or a loop matters
    moves: str = "all"  # "all": every move the conventions allow; "local": also the contact heuristic (exact.rules doc)
    sacrifices: bool = False  # also generate lone self-atari stones that threaten nothing
    loop_passes: int = 60  # iterations when valuing a loop from each extreme
    require_benson: bool = False  # raise RegionNotSealed when a wall stone is not Benson pass-alive
    vouched: bool = False  # a user's mask: an outside point in an open area belongs to the nearest stones' color
    open_outside: bool = False  # with vouched: such outside points next to the region's empty points are played too
    count_essential: bool = False  # also count the positions the thermograph needs, and those that split
    merge_settled: bool = True  # native: positions differing only in settled parts searched once (exact.native)
    engine: Union[str, Engine] = "auto"  # the native C search ("auto", "native"), or an Engine (a test oracle)
    # where a repetition decides the value (the loops' fixed points stay apart): "fixed_points" values it with
    # nobody winning it; "superko" searches again with positional superko on the local line (what the analysis
    # uses: the engine's line search within its superko_nodes), keeping the first value when that search does
    # not finish
    repetitions: str = "fixed_points"


@dataclass
class ExhaustiveResult:
    """Outcome of a solve. status: 'ok', 'too_large' (budget hit) or 'unsupported' (a ko the rule
    cannot value). kind follows tengen.cgt (gote, black_sente, white_sente, ko, number, ...)."""

    status: str
    region: list[Point]
    thermograph: Optional[Thermo] = None
    kind: str = UNSUPPORTED  # a CGT kind (tengen.cgt.KINDS) once solved
    mean: Optional[Fraction] = None
    temperature: Optional[Fraction] = None
    move_values: Optional[MoveValues] = None
    best_black: list[Point] = field(default_factory=list)
    best_white: list[Point] = field(default_factory=list)
    principal_black: list[tuple[int, Point]] = field(default_factory=list)
    principal_white: list[tuple[int, Point]] = field(default_factory=list)
    # the temperature left after each side's first orthodox move (its follow-up; <= 0: the move settles it)
    follow_black: Optional[Fraction] = None
    follow_white: Optional[Fraction] = None
    ko: Optional[KoChain] = None
    game: Optional[Game] = None  # the essential options only, with the same thermograph (None: a ko or loop inside)
    ko_dependent: bool = False  # a ko without the textbook shape decided the value (taker wins it)
    ko_fixed_point: bool = False  # a ko beyond the textbook shape decided it: valued by the phantom's fixed point
    loop_dependent: bool = False  # a repetition decided it: valued with nobody winning it (bracket kept)
    bracket: Optional[tuple] = None  # (lowest, highest) thermograph records when unsupported
    parts: int = 1  # independent local games at the start (safe stones cut the region apart)
    opened: list[Point] = field(default_factory=list)  # outside points played too (config.open_outside)
    nodes: int = 0
    essential_nodes: Optional[int] = None  # positions the thermograph needs (config.count_essential)
    split_nodes: Optional[int] = None  # positions searched that split into independent parts (same flag)
    seconds: float = 0.0
    engine: str = ""  # which search answered (its Engine's name: "native" in the product)
    memory_bytes: int = 0  # what the native search's tables held (0 for another engine)
    reason: str = ""
    notes: list[Note] = field(default_factory=list)

    def caveats(self) -> str:
        """What an 'ok' value rests on beyond the plain rules, in brackets ('' when nothing)."""
        out = ""
        if self.loop_dependent:
            out += f"  [repetition valued with nobody winning it; mean bracket {self.bracket[0].mean}..{self.bracket[1].mean}]"
        if self.ko_dependent:
            out += "  [ko valued with its taker winning it]"
        if self.ko_fixed_point:
            out += "  [ko valued by the phantom rule's fixed point]"
        return out


def _engine(config: ExhaustiveConfig) -> Engine:
    """The config's search engine: the native one by name, or the Engine object given."""
    if isinstance(config.engine, Engine):
        return config.engine
    if config.engine in ENGINES:
        return NATIVE
    raise ValueError(f"unknown engine {config.engine!r} ({', '.join(ENGINES)}, or an Engine)")


def _search(local: LocalRegion, root: tuple, config: ExhaustiveConfig, result: ExhaustiveResult, searching: list):
    """Run the config's engine on the root (each solver is appended to `searching` before it runs, so a budget
    stop can still report its count). NativeUnavailable (not built, arithmetic out of range) propagates."""
    if config.repetitions not in REPETITIONS:
        raise ValueError(f"unknown repetitions {config.repetitions!r} ({', '.join(REPETITIONS)})")
    engine = _engine(config)
    settings = dict(max_nodes=config.max_nodes, seconds=_within_deadline(config.seconds), moves=config.moves,
                    sacrifices=config.sacrifices, loop_passes=config.loop_passes)
    if engine.merges:
        settings["merge_settled"] = config.merge_settled
    solver = engine.solver(local, **settings)
    searching.append(solver)
    if engine.deep:
        _deep_lines()
    result.engine = engine.name
    return solver.value(root)


def _kos_at_fixed_points(solver) -> bool:
    """Whether every ko that matters somewhere in the search was valued by the taker's phantom fixed point
    (none with its taker winning it). Over every position searched, not only those the root's thermograph
    needs: which options are needed can depend on the order of equal ones, and a region and its mirror image
    must get the same caveats."""
    return bool(solver.fixed_kos) and not solver.generalised


def _within_deadline(seconds: Optional[float]) -> Optional[float]:
    """A search's time limit, no later than the caller's deadline (a web job's time limit) where one is set."""
    left = seconds_left()
    return seconds if left is None else left if seconds is None else min(seconds, left)


def _deep_lines() -> None:
    """Room for a Python search's recursion (an Engine with `deep`, the tests' oracle): one frame per move of the
    current line (Python 3.11 keeps Python-to-Python calls off the C stack)."""
    if sys.getrecursionlimit() < 50_000:
        sys.setrecursionlimit(50_000)


def _bracket_text(lo, hi) -> str:
    """' (mean between a and b, temperature between c and d as one side or the other wins every ko)', or ''."""
    if lo is None or hi is None or None in (lo.mean, hi.mean):
        return ""
    means = sorted((lo.mean, hi.mean))
    temps = sorted((lo.temperature, hi.temperature))
    return (f" (mean between {means[0]} and {means[1]}, temperature between {temps[0]} and {temps[1]} as one side "
            "or the other wins every ko)")


def parts_hint(parts: int) -> str:
    """What to say of a region that is several independent local games at the start ('' for one)."""
    return (f"; the region is {parts} independent local games: mark each as its own region to value them apart"
            if parts > 1 else "")


SUPERKO_SECONDS = 60.0  # the time limit of the search without repetitions


def _without_repetitions(local: LocalRegion, root: tuple, config: ExhaustiveConfig, lo, hi):
    """(solver, (rec, lo, hi), (lowest mean, highest mean)) of the engine's search that forbids repeating a
    position of the line (`NativeLineSuperkoSolver` in the product), or None when it does not finish within
    its budget (the engine's superko_nodes within max_nodes, and SUPERKO_SECONDS) or cannot answer."""
    engine = _engine(config)
    seconds = _within_deadline(min(config.seconds or SUPERKO_SECONDS, SUPERKO_SECONDS))
    settings = dict(seconds=seconds, moves=config.moves, sacrifices=config.sacrifices, loop_passes=config.loop_passes)
    try:
        solver = engine.line_solver(local, max_nodes=min(config.max_nodes, engine.superko_nodes), **settings)
    except NativeUnavailable:
        return None
    if engine.deep:
        _deep_lines()
    return _finished_without_repetitions(solver, root, lo, hi)


def _within_bracket(rec, means) -> bool:
    """Whether the line-superko search's root value lies in the bracket of the loops it replaces (the means
    with one side or the other winning every repetition): a value outside it resolves none of them (kos
    valued with their taker winning, or a line's forbidden retake reused on another line), so it is not used."""
    if rec is None or rec.mean is None or None in means:
        return True
    low, high = min(means), max(means)
    return low <= rec.mean <= high


def _finished_without_repetitions(solver, root: tuple, lo, hi):
    """`_without_repetitions`' answer from one line-superko solver (None when it does not finish)."""
    try:
        res = solver.value(root)
    except (BudgetExceeded, RecursionError, NativeUnavailable):
        return None
    if not isinstance(res, tuple) or res[0] is None:
        return None
    return solver, res, (None if lo is None else lo.mean, None if hi is None else hi.mean)


def solver_seconds(solver, config: ExhaustiveConfig) -> str:
    """The time limit the solver ran under, as a report writes it."""
    seconds = getattr(solver, "seconds", None) or config.seconds
    return f"{seconds:g} s" if seconds else "its time limit"


def solve_region(board, region: Iterable[Point], config: Optional[ExhaustiveConfig] = None) -> ExhaustiveResult:
    """Solve the local game of `region` on `board` exhaustively (conventions: this module's and exact.rules' docstrings)."""
    config = config or ExhaustiveConfig()
    start = time.perf_counter()
    local = LocalRegion(board, region, config.require_benson, config.vouched, open_outside=config.open_outside)
    result = ExhaustiveResult(UNSUPPORTED, local.points, notes=list(local.notes), opened=list(local.opened))
    result.parts = local.independent_parts(local.start[BLACK], local.start[WHITE])
    if local.n > NATIVE_MAX_POINTS and _engine(config) is NATIVE:
        result.status, result.kind = TOO_LARGE, TOO_LARGE
        result.reason = (f"too large: {local.n} points (the exact solver takes at most {NATIVE_MAX_POINTS}; "
                         "mark a smaller region)")
        result.seconds = time.perf_counter() - start
        return result
    root = (local.start[BLACK], local.start[WHITE], None)
    searching: list = []
    try:
        res = _search(local, root, config, result, searching)
    except NativeUnavailable as exc:  # not built, or its exact arithmetic out of range: no value from it
        result.reason = f"unsupported: the exact solver cannot answer this region ({exc})"
        result.nodes = searching[-1].nodes if searching else 0
        result.seconds = time.perf_counter() - start
        return result
    except (BudgetExceeded, RecursionError) as exc:
        solver = searching[-1]
        result.status, result.kind = TOO_LARGE, TOO_LARGE
        if isinstance(exc, RecursionError):
            result.reason = "too large: a line of play deeper than the recursion limit"
        elif (cancel := cancel_event()) is not None and cancel.is_set():
            result.reason = "stopped: the work was cancelled"
        elif str(exc) == "seconds" or (str(exc) != "positions" and solver.nodes <= solver.max_nodes):
            result.reason = f"too large: not finished within {solver_seconds(solver, config)}"
        else:
            result.reason = f"too large: more than {solver.max_nodes} positions"
        result.nodes, result.seconds = solver.nodes, time.perf_counter() - start
        result.memory_bytes = getattr(solver, "stats", {}).get("bytes", 0)
        return result
    solver = searching[-1]
    result.nodes = solver.nodes
    result.memory_bytes = getattr(solver, "stats", {}).get("bytes", 0)
    if solver.loops:
        result.notes.append(Note("positions", f"{solver.loops} loops (move sequences repeating a position) valued by fixed points"))
    rec, lo, hi = res
    exact = lo is not None and hi is not None and lo.same_thermograph(hi)
    if not exact and solver.loop_valued and not config.strict_kos and config.repetitions == "superko":
        again = _without_repetitions(local, root, config, lo, hi)
        if again is not None:
            _, (line_rec, _, _), means = again
            if not _within_bracket(line_rec, means):
                result.notes.append(Note(
                    "superko", f"the search with positional superko on the local line gave mean {line_rec.mean}, "
                    f"outside the repetition's bracket {means[0]}..{means[1]}: not used (it resolves no repetition)"))
                again = None
        if again is not None:  # the repetition decided the value: valued without repetitions instead
            result.notes.pop()  # the loops' fixed points did not settle it: the note below says what did
            solver, (rec, lo, hi), means = again
            exact = lo is not None and hi is not None and lo.same_thermograph(hi)
            result.nodes += solver.nodes
            result.notes.append(Note(
                "superko", f"a repetition decided the value (mean between {means[0]} and {means[1]} as one side or the "
                "other wins it): valued with positional superko on the local line (a move that recreates a "
                f"position of its own line is illegal), {solver.nodes} positions"))
    if rec is None and root in solver.cautious:
        rec = solver.cautious[root]
    fixed_ko = not exact and rec is not None and _kos_at_fixed_points(solver)
    if rec is None or (not exact and config.strict_kos):
        result.bracket = (lo, hi)
        cause = ("a ko beyond the textbook shape (valued by the phantom rule's fixed point otherwise)"
                 if config.strict_kos and fixed_ko else
                 "a loop (a repeated position)" if rec is None or solver.loop_valued else "a ko the phantom rule cannot express")
        means = f"mean between {lo.mean} and {hi.mean}" if lo is not None and hi is not None else "no bracket"
        result.reason = f"unsupported: the value depends on {cause} ({means}){parts_hint(result.parts)}"
        result.seconds = time.perf_counter() - start
        return result
    if not exact and solver.loop_valued:
        result.loop_dependent = True
        result.bracket = (lo, hi)
        result.notes.append(Note("repetition", f"depends on a loop (a repetition): valued with neither side winning it (each side's moves "
                            f"into the loop at their worst fixed point; mean between {lo.mean} and {hi.mean} if one side could win the repetition)"))
    elif fixed_ko:
        result.ko_fixed_point = True
        result.bracket = (lo, hi)
        result.notes.append(Note("ko", "a ko beyond the textbook shape valued by the phantom rule: the banned retake "
                                 "is worth the count of the position it returns to, at the fixed point best for the "
                                 "ko's taker, or the only one where both sides take kos (a simple ko's third of "
                                 "the swing)"))
    elif not exact:
        result.ko_dependent = True
        result.bracket = (lo, hi)
        result.notes.append(Note("repetition", "depends on a ko outside the phantom rule's reach, valued with the ko's "
                                 f"taker winning it{_bracket_text(lo, hi)}"))
    result.status = OK
    result.thermograph = rec
    result.ko = solver.kos.get(root)
    result.kind = KO if result.ko is not None else rec.kind
    result.mean, result.temperature = rec.mean, rec.temperature
    result.move_values = move_values(result.kind, rec.temperature)
    result.game = essential_game(solver, root, rec)
    best = best_moves(solver, root)
    result.best_black = [local.points[i] for i in best[0]]
    result.best_white = [local.points[i] for i in best[1]]
    result.principal_black, result.follow_black = principal_line(solver, root, BLACK)
    result.principal_white, result.follow_white = principal_line(solver, root, WHITE)
    result.seconds = time.perf_counter() - start
    if config.count_essential:
        result.essential_nodes = essential_positions(solver, root)
        result.split_nodes = (solver.split_nodes() if isinstance(solver, NativeSolver)
                              else sum(local.independent_parts(b, w) > 1 for b, w, _ in solver.children))
    return result
