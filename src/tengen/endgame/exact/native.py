"""The exact solver's search: the native engine (`_solver.c`), the only one the product runs.

`NativeSolver` runs the C search (rules, transposition table, Tarjan loops, kos by phantoms, exact
thermograph records: the conventions of `tengen.endgame.exact.solve`, ported line by line from the Python
search that is now a test oracle, `devkit.python_search.Solver`) and then answers the questions
`exact.readout` and `exact.solve_region` ask of a finished search (`tt`, `children`, `cautious`, `kos`,
`child_record`, ...) by looking positions up in the C tables, so nothing the size of the search is ever copied
into Python. Records come back as `tengen.cgt.thermo.Thermo` objects, one per record id.

Positions that differ only in settled parts (dead areas and territory: nobody plays there again) are one
position to the native search: a position is searched in its canonical form, settled parts filled with their
owner's stones, which has the same analysis, moves and values (`merge_settled`; off, the native search visits
exactly the Python oracle's positions, which the tests compare). So it searches fewer positions than the
Python oracle reports for the same region.

Arithmetic is on 64-bit rationals with every operation checked: an overflow (never seen on Go regions,
whose values have small denominators) raises `NativeUnavailable`, and `solve_region` declines the region
(`unsupported`, the reason said) rather than answer from another engine.
"""
from __future__ import annotations

import math
import threading
from fractions import Fraction
from typing import Optional

from tengen.cgt.ko import KoChain
from tengen.cgt.numbers import INF, NEG_INF
from tengen.cgt.thermo import Thermo, number_thermo
from tengen.cgt.walls import Wall
from tengen.deadline import cancel_event
from tengen.endgame.exact.rules import LocalRegion, RegionNotSealed
from tengen.go.colors import BLACK

try:
    from tengen.endgame.exact import _solver
except ImportError:  # pragma: no cover - a checkout without the built extension
    _solver = None

ERRORS = {1: "rational overflow", 2: "a thermograph wall with too many segments", 3: "out of memory",
          4: "internal inconsistency"}


class BudgetExceeded(Exception):
    """The search met its node budget or time limit."""


class NativeUnavailable(RuntimeError):
    """The native search cannot answer this region (not built, too many points, arithmetic out of range)."""


def available() -> bool:
    """Whether the C extension is built."""
    return _solver is not None


def _value(q) -> Fraction | float:
    num, den = q
    if den == 0:
        return INF if num > 0 else NEG_INF
    return num if den == 1 else Fraction(num, den)


class _OpenMarker:
    """What `tt` holds for a position whose immediate retake is banned (the Python oracle's `_Open`)."""

    __slots__ = ("node",)

    def __init__(self, node: int):
        self.node = node


def _solve_cancellably(search, b: int, w: int) -> tuple[int, int]:
    """`search.solve(b, w)`; where the caller's work has a cancel event (`tengen.deadline`), a watcher stops
    the search (as at its time limit) once the event is set: the solve runs in C without the GIL."""
    event = cancel_event()
    if event is None:
        return search.solve(b, w)
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            if event.wait(0.05):
                search.stop()
                return

    watcher = threading.Thread(target=watch, name="exact-solver-cancel", daemon=True)
    watcher.start()
    try:
        return search.solve(b, w)
    finally:
        done.set()
        watcher.join()


class NativeSolver:
    """One native search over a LocalRegion; after `value(root)`, the tables the readout reads."""

    def __init__(self, local: LocalRegion, *, max_nodes: int, seconds: Optional[float], moves: str, sacrifices: bool,
                 loop_passes: int, merge_settled: bool = True, line_superko: bool = False):
        if _solver is None:
            raise NativeUnavailable("the native solver is not built (pip install -e . builds it)")
        if local.n > 64:
            raise NativeUnavailable(f"{local.n} points: the native solver takes at most 64")
        self.local = local
        self.max_nodes = max_nodes
        self.seconds = seconds
        self._search = _solver.Search(local.n, list(local.nb), local.wall[BLACK], local.wall[-BLACK],
                                      local.breach[BLACK], local.breach[-BLACK], bool(local.suicide), moves == "all",
                                      bool(sacrifices), loop_passes, max_nodes, seconds or 0.0, bool(merge_settled),
                                      local.offset, bool(line_superko))
        self._records: dict[int, Thermo] = {}
        self._ids: dict[int, int] = {}  # id() of a Thermo handed out -> its record id
        self.tt = _Table(self)
        self.children = _Children(self)
        self.cautious = _Cautious(self)
        self.kos = _Kos(self)
        self.generalised = _Flagged(self, _solver.F_GENERALISED)
        self.fixed_kos = _Flagged(self, _solver.F_FIXED_KO)
        self.loop_valued = _Flagged(self, _solver.F_LOOP_VALUED)
        self.nodes = 0
        self.loops = 0
        self.stats: dict = {}

    # ------------------------------------------------------------ the search
    def value(self, key: tuple):
        """Search from `key` (a root: no ko ban) and return its (rec, lo, hi) records."""
        b, w, ban = key
        if ban is not None:
            raise ValueError("the native search starts from a position without a ko ban")
        status, error = _solve_cancellably(self._search, b, w)
        self.stats = self._search.stats()
        self.nodes, self.loops = self.stats["positions"], self.stats["loops"]
        if status == _solver.ST_BUDGET:  # positions searched and merged together: the tables' size
            raise BudgetExceeded("positions")
        if status == _solver.ST_TIME:
            raise BudgetExceeded("seconds")
        if status == _solver.ST_NOT_SEALED:
            raise RegionNotSealed("both colors have broken into the other's territory")
        if status != _solver.ST_OK:
            raise NativeUnavailable(f"native search stopped: {ERRORS.get(error, error)}")
        return self.tt[key]

    def split_nodes(self) -> int:
        """Positions searched that fall apart into independent local games."""
        return self._search.split_count()

    # ------------------------------------------------------------ lookups
    def node_id(self, key: tuple) -> int:
        b, w, ban = key
        return self._search.find(b, w, ban)

    def record(self, rid: int) -> Optional[Thermo]:
        """The Thermo of a record id (None for -1)."""
        if rid < 0:
            return None
        rec = self._records.get(rid)
        if rec is None:
            rec = self._records[rid] = self._build(rid)
            self._ids[id(rec)] = rid
        return rec

    def essential_indices(self, lefts: list, rights: list) -> Optional[tuple[list[int], list[int]]]:
        """`readout._essential_indices` in C when every option is a record of this search
        (None otherwise: the readout computes it in Python)."""
        try:
            left_ids = [self._ids[id(x)] for x in lefts]
            right_ids = [self._ids[id(x)] for x in rights]
        except KeyError:
            return None
        if len(left_ids) > 64 or len(right_ids) > 64:
            return None
        return self._search.essential(left_ids, right_ids)

    def _build(self, rid: int) -> Thermo:
        kind, left, right, temp, mean, number, ls, rs, ge_rs, le_ls = self._search.record(rid)
        if number is not None:
            return number_thermo(_value(number))
        lw = Wall(tuple((_value(t0), _value(v0), s) for t0, v0, s in left))
        rw = Wall(tuple((_value(t0), _value(v0), s) for t0, v0, s in right))
        t = _value(temp)
        if t == INF:
            t = math.inf
        return Thermo(lw, rw, t, None if mean is None else _value(mean), None, _value(ls), _value(rs), bool(ge_rs),
                      bool(le_ls), kind)

    def _key(self, node: int) -> tuple:
        b, w, ban, *_ = self._search.node(node)
        return (b, w, ban)

    def result(self, node: int):
        """(rec, lo, hi) Thermos, or an _OpenMarker, or None (not valued)."""
        _, _, _, flags, r0, r1, r2, _, _, _ = self._search.node(node)
        if not flags & _solver.F_IN_TT:
            return None
        if flags & _solver.F_OPEN:
            return _OpenMarker(node)
        return self.record(r0), self.record(r1), self.record(r2)

    def child_record(self, parent, child) -> Optional[Thermo]:
        """The value of a child as its parent sees it (kos it takes valued with the parent's phantom)."""
        res = self.tt.get(child)
        if res is None:
            return None
        if isinstance(res, _OpenMarker):
            phantom = self.phantom_of(parent)
            pid = -1 if phantom is None else self._search.number(*_ratio(phantom))
            return self.record(self._search.close_open(res.node, 0, pid))
        if res[0] is None and res[1] is not None and res[2] is not None and res[1].same_thermograph(res[2]):
            return res[1]
        return res[0]

    def phantom_of(self, key) -> Optional[Fraction]:
        node = self.node_id(key)
        if node < 0:
            return None
        _, _, phantom = self._search.extra(node)
        return None if phantom is None else _value(phantom)


class NativeLineSuperkoSolver(NativeSolver):
    """`devkit.python_search.LineSuperkoSolver` in C (`run_line_search`): the same search without repetitions, a
    move that recreates the stones of a position on its own line being illegal (positional superko on the local line);
    immediate ko retakes keep their phantoms, and a value that relied on a position still on the line is
    valued again on every line that reaches it. Settled parts are never merged (the line compares stones), so
    it visits exactly the Python oracle's positions, the same count of them; after `value(root)` the readout
    reads it as any `NativeSolver`."""

    def __init__(self, local: LocalRegion, *, max_nodes: int, seconds: Optional[float], moves: str, sacrifices: bool,
                 loop_passes: int):
        super().__init__(local, max_nodes=max_nodes, seconds=seconds, moves=moves, sacrifices=sacrifices,
                         loop_passes=loop_passes, merge_settled=False, line_superko=True)


def _ratio(x) -> tuple[int, int]:
    x = Fraction(x)
    return x.numerator, x.denominator


class _View:
    def __init__(self, solver: NativeSolver):
        self.solver = solver

    def __contains__(self, key) -> bool:
        return self.get(key) is not None

    def __getitem__(self, key):
        got = self.get(key)
        if got is None:
            raise KeyError(key)
        return got


class _Table(_View):
    """solver.tt: a position's (rec, lo, hi) or its open marker."""

    def get(self, key, default=None):
        node = self.solver.node_id(key)
        got = None if node < 0 else self.solver.result(node)
        return default if got is None else got


class _Children(_View):
    """solver.children: ([(point index, child key or None)] for Black, for White) of a searched position."""

    def get(self, key, default=None):
        node = self.solver.node_id(key)
        kids = None if node < 0 else self.solver._search.kids(node)
        if kids is None:
            return default
        return tuple([(i, None if c < 0 else self.solver._key(c)) for i, c in side] for side in kids)


class _Cautious(_View):
    """solver.cautious: the value of a position inside an undecided loop (nobody wins the repetition)."""

    def get(self, key, default=None):
        node = self.solver.node_id(key)
        if node < 0:
            return default
        cautious, _, _ = self.solver._search.extra(node)
        return default if cautious < 0 else self.solver.record(cautious)


class _Kos(_View):
    """solver.kos: the KoChain of a position valued by the strict phantom rule."""

    def get(self, key, default=None):
        node = self.solver.node_id(key)
        if node < 0:
            return default
        _, ko, _ = self.solver._search.extra(node)
        if ko is None:
            return default
        black_exit, white_exit, bm, wm, taker = ko
        return KoChain(_value(black_exit), _value(white_exit), bm, wm, "black" if taker == 1 else "white")


class _Flagged:
    """A set of positions marked by one flag in the C table (loop_valued, generalised, fixed_kos)."""

    def __init__(self, solver: NativeSolver, flag: int):
        self.solver, self.flag = solver, flag

    def __contains__(self, key) -> bool:
        node = self.solver.node_id(key)
        return node >= 0 and bool(self.solver._search.node(node)[3] & self.flag)

    def __bool__(self) -> bool:
        return self.solver._search.count_flag(self.flag) > 0
