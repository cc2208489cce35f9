"""Reading a finished exhaustive search: orthodox first moves, principal lines, the essential-option `Game`
(and `essential_options`, the options a record needs, which the searches use too)."""
from __future__ import annotations

from fractions import Fraction
from typing import Optional

from typing import TYPE_CHECKING

from tengen.cgt.game import Game
from tengen.cgt.thermo import Thermo, combine, orthodox_indices
from tengen.go.colors import BLACK
from tengen.go.coords import Point

if TYPE_CHECKING:  # the finished search's tables (devkit.python_search.Solver answers the same questions)
    from tengen.endgame.exact.native import NativeSolver as Solver


def essential_options(lo_l, lo_r, hi_l, hi_r, side, keep) -> list[int]:
    """Greedily drop options of `side` that change neither extreme's record; returns the ones left."""
    idx = list(range(len((lo_l, lo_r)[side])))
    base = (combine(lo_l, lo_r), combine(hi_l, hi_r))
    for j in list(idx):
        if j == keep:
            continue
        trial = [x for x in idx if x != j]
        ok = True
        for (L, R), ref in zip(((lo_l, lo_r), (hi_l, hi_r)), base):
            cut_l = [L[x] for x in trial] if side == 0 else L
            cut_r = [R[x] for x in trial] if side == 1 else R
            if (not cut_l and not cut_r) or not combine(cut_l, cut_r).same_thermograph(ref):
                ok = False
                break
        if ok:
            idx = trial
    return idx


def _option_records(solver: Solver, key) -> tuple[list, list, list, list]:
    """Option records and moves of a position as the search valued them (an option into an undecided
    repetition at the end of its bracket worst for the mover)."""
    opts = solver.children.get(key) or ([], [])
    recs: tuple[list, list] = ([], [])
    moves: tuple[list, list] = ([], [])
    for side in (0, 1):
        for i, child in opts[side]:
            if child is None:
                continue  # a banned retake is never a move to recommend
            rec = solver.child_record(key, child)
            res = solver.tt.get(child)
            if rec is None and isinstance(res, tuple):
                rec = res[1 + side]
            if rec is not None:
                recs[side].append(rec)
                moves[side].append((i, child))
    return recs[0], recs[1], moves[0], moves[1]


def _record_of(solver: Solver, key) -> Optional[Thermo]:
    res = solver.tt[key]
    rec = res[0] if isinstance(res, tuple) else None
    return solver.cautious.get(key) if rec is None else rec


def best_moves(solver: Solver, key) -> tuple[list[int], list[int]]:
    """Orthodox first moves (the options that make the walls just below the temperature)."""
    rec = _record_of(solver, key)
    if rec is None or rec.number is not None:
        return [], []
    lefts, rights, lm, rm = _option_records(solver, key)
    li, ri = orthodox_indices(lefts, rights, rec)
    return [lm[j][0] for j in li], [rm[j][0] for j in ri]


class _NoGame(Exception):
    pass


def _essential_indices(lefts: list, rights: list, solver=None) -> tuple[list[int], list[int]]:
    """Black's, then White's, options left after greedily dropping those the thermograph does not need
    (by the native search's own arithmetic when it made these records)."""
    native = getattr(solver, "essential_indices", None)
    got = native(lefts, rights) if native is not None else None
    if got is not None:
        return got
    keep_l = essential_options(lefts, rights, lefts, rights, 0, keep=None)
    kept = [lefts[j] for j in keep_l]
    return keep_l, essential_options(kept, rights, kept, rights, 1, keep=None)


def essential_positions(solver: Solver, root) -> int:
    """Unsettled positions reachable from the root through options its thermograph needs (every option
    where a repetition or ko leaves records open). A search that refuted every other option for free
    would still value these: the floor under any pruning of this search."""
    seen, stack, inner = {root}, [root], 0
    while stack:
        key = stack.pop()
        if key not in solver.children:
            continue  # settled: a count, no search
        inner += 1
        lefts, rights, lm, rm = _option_records(solver, key)
        if any(x is None for x in (*lefts, *rights)) or not (lefts or rights):
            keep_l, keep_r = list(range(len(lefts))), list(range(len(rights)))
        else:
            keep_l, keep_r = _essential_indices(lefts, rights, solver)
        for moves, keep in ((lm, keep_l), (rm, keep_r)):
            for j in keep:
                child = moves[j][1]
                if child not in seen:
                    seen.add(child)
                    stack.append(child)
    return inner


def essential_game(solver: Solver, root, rec: Thermo, limit: int = 5000) -> Optional[Game]:
    """The solved position as a `Game` keeping, at every node, only options whose removal would change
    its thermograph: the same walls, mean and temperature, small enough for whole-board orthodox play.
    None when a ko or an undecided loop lies inside (those are not plain games)."""
    built: dict = {}

    def build(key, record: Thermo) -> Game:
        if record.number is not None:
            return Game.num(record.number)
        if key in built:
            return built[key]
        if (len(built) >= limit or key in active or key in solver.kos or key in solver.generalised
                or key in solver.fixed_kos):
            raise _NoGame()  # too big, a repetition, or a ko: not a plain game
        active.add(key)
        lefts, rights, lm, rm = _option_records(solver, key)
        known = sum(c is not None for side in solver.children.get(key, ((), ())) for _, c in side)
        if len(lm) + len(rm) != known:
            raise _NoGame()
        keep_l, keep_r = _essential_indices(lefts, rights, solver)
        game = Game([build(lm[j][1], lefts[j]) for j in keep_l], [build(rm[j][1], rights[j]) for j in keep_r])
        if not game.thermograph.same_thermograph(record):
            raise _NoGame()  # a ko or loop below changed what the options say
        built[key] = game
        active.discard(key)
        return game

    active: set = set()
    try:
        game = build(root, rec)
    except (_NoGame, RecursionError):
        return None
    return game


def principal_line(solver: Solver, key, first: int, limit: int = 40) -> tuple[list[tuple[int, Point]], Optional[Fraction]]:
    """The orthodox line from the root with `first` to move, alternating, until the position is cold; and
    the temperature of the position its first move leaves (None without a first move)."""
    line = []
    follow = None
    color = first
    rec = _record_of(solver, key)
    while len(line) < limit:
        if rec is None or rec.number is not None or rec.temperature <= 0 or key not in solver.children:
            break
        lefts, rights, lm, rm = _option_records(solver, key)
        li, ri = orthodox_indices(lefts, rights, rec)
        picks, moves, recs = (li, lm, lefts) if color == BLACK else (ri, rm, rights)
        if not picks:
            break
        i, key = moves[picks[0]]
        rec = recs[picks[0]]
        if not line:
            follow = rec.temperature
        line.append((color, solver.local.points[i]))
        color = -color
    return line, follow
