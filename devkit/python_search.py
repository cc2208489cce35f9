"""The exact solver's search in Python: the readable port source of the native engine (`tengen.endgame.exact`'s
C search), kept beside the full-tree reference (`devkit.reference_solver`) as a test oracle, not in the product.

It runs on `tengen.endgame.exact.rules`'s bitmask positions; every position is valued by its thermograph record
(`tengen.cgt.thermo.combine` of its options' records), which is all the thermograph needs: dominated options drop
out of the scaffold max / min, equal records are interned and combinations memoised. Loops are found as strongly
connected components (Tarjan) and valued by fixed points; kos by phantoms. A transposition table on the local
position (stones + ko ban) and a node budget or time limit (`BudgetExceeded`) keep it bounded. The conventions are
`tengen.endgame.exact.solve`'s; `solve_region(..., ExhaustiveConfig(engine=PYTHON))` runs this search through
the product's own API (the tests compare the two engines position by position).
"""
from __future__ import annotations

import time
from fractions import Fraction
from typing import Optional

from tengen.cgt.ko import KoChain, UnsupportedKo, simple_ko
from tengen.cgt.numbers import INF, NEG_INF
from tengen.cgt.thermo import UNBOUNDED, Thermo, combine, number_thermo
from tengen.deadline import cancel_event
from tengen.endgame.exact.native import BudgetExceeded
from tengen.endgame.exact.readout import essential_options
from tengen.endgame.exact.rules import LocalAnalysis, LocalRegion
from tengen.endgame.exact.solve import Engine
from tengen.go.colors import BLACK, WHITE

_OMIT = object()  # a banned retake left out (the ko's taker wins it)


class _Open:
    """A position whose immediate retake is banned: its options, with a hole where the phantom goes.
    The parent (the position the retake would recreate) fills the hole and closes it."""

    __slots__ = ("key", "banned_side", "banned_index", "lists", "opens", "cache", "stands")

    def __init__(self, key, banned_side: int, banned_index: int, lists: tuple, opens: list, stands: Fraction):
        self.key = key
        self.stands = stands
        self.banned_side = banned_side
        self.banned_index = banned_index
        self.lists = lists  # (rec, lo, hi) -> (lefts, rights); the banned entry and open children are None
        self.opens = opens  # kos taken from this position (their phantoms refer to it)
        self.cache: dict = {}


class Solver:
    """The search over one sealed region's positions; `value(root)` fills its tables (read by `exact.readout`)."""

    def __init__(self, local: LocalRegion, *, max_nodes: int, seconds: Optional[float], moves: str, sacrifices: bool,
                 loop_passes: int):
        self.local = local
        self.max_nodes = max_nodes
        self.moves = moves
        self.sacrifices = sacrifices
        self.loop_passes = loop_passes
        self.bounds: dict[tuple, tuple[Thermo, Thermo]] = {}  # key -> (lowest, highest) possible count
        self.tt: dict[tuple, object] = {}  # key -> (rec, lo, hi) or _Open
        self.children: dict[tuple, tuple[list, list]] = {}
        self.phantom: dict[tuple, Fraction] = {}  # anchor key -> phantom value used for its kos
        self.kos: dict[tuple, KoChain] = {}  # anchors valued by the strict phantom rule
        self.generalised: set[tuple] = set()  # anchors whose kos were valued with the taker winning
        self.fixed_kos: set[tuple] = set()  # anchors whose kos were valued by the taker's phantom fixed point
        self.loop_valued: set[tuple] = set()  # positions valued by the cautious rule (no side wins a repetition)
        self.cautious: dict[tuple, Thermo] = {}  # that value for positions inside an undecided loop
        self.intern: dict[tuple, Thermo] = {}
        self.combos: dict[tuple, Thermo] = {}
        self.loops = 0
        self.counter = 0
        self.onstack: dict[tuple, int] = {}
        self.stack: list[tuple] = []
        self.low: dict[tuple, int] = {}
        self.stands: dict[tuple, Fraction] = {}
        self.nodes = 0
        self.seconds = seconds
        self.deadline = None if seconds is None else time.perf_counter() + seconds
        self.cancel = cancel_event()  # a caller's cancel event (tengen.deadline): stops the search as its time limit

    def record(self, lefts: list, rights: list) -> Optional[Thermo]:
        """Interned combine of option records (None if any option is unknown; _OMIT entries skipped)."""
        if any(x is None for x in lefts) or any(x is None for x in rights):
            return None
        if _OMIT in lefts or _OMIT in rights:
            lefts = [x for x in lefts if x is not _OMIT]
            rights = [x for x in rights if x is not _OMIT]
        key = (frozenset(map(id, lefts)), frozenset(map(id, rights)))
        got = self.combos.get(key)
        if got is not None:
            return got
        rec = combine(list({id(x): x for x in lefts}.values()), list({id(x): x for x in rights}.values()))
        if rec.number is None:
            ikey = (rec.left, rec.right, rec.ls, rec.rs, rec.ge_rs, rec.le_ls)
            rec = self.intern.setdefault(ikey, rec)
        self.combos[key] = rec
        return rec

    def options(self, key: tuple, info: Optional[LocalAnalysis] = None) -> tuple[list, list]:
        """[(point index, child key, or None for a move the ko rule bans now)] for Black and for White."""
        b, w, ban = key
        info = info or self.local.analyze(b, w)
        out: tuple[list, list] = ([], [])
        for side, color in ((0, BLACK), (1, WHITE)):
            rest = self.local.candidates(b, w, color, info, self.moves)
            while rest:
                low = rest & -rest
                rest ^= low
                i = low.bit_length() - 1
                nxt = self.local.play(b, w, color, i)
                if nxt is None:
                    continue
                if not self.sacrifices and self.local.pointless_sacrifice(b, w, color, i, nxt, info):
                    continue
                out[side].append((i, None if ban == (i, color) else nxt))
        return out

    def value(self, key: tuple):
        """The node's result: (rec, lo, hi) records, or _Open when its immediate retake is banned."""
        self._visit(key)
        return self.tt[key]

    def _visit(self, key: tuple) -> None:
        """Depth-first search with Tarjan's strongly connected components: positions on a loop (a
        sequence of moves repeating a position) are valued together once the loop is complete."""
        entered = self._push(key)
        if entered is None:
            return
        info, index = entered
        low = index
        opts = self.options(key, info)
        self.children[key] = opts
        self.stands[key] = info.as_it_stands
        for side in (0, 1):
            for _, child in opts[side]:
                low = self._visit_option(child, low)
        self._close_component(key, index, low)

    def _push(self, key: tuple) -> Optional[tuple[LocalAnalysis, int]]:
        """Enter a position (None: settled, valued at once) and put it on Tarjan's stack: (its analysis, index)."""
        info = self._enter(key)
        if info is None:
            return None
        index = self.counter
        self.counter += 1
        self.onstack[key] = index
        self.stack.append(key)
        return info, index

    def _visit_option(self, child: Optional[tuple], low: int) -> int:
        """Search an option (not a banned retake, not yet valued, not on the stack) and return the parent's low
        link with it taken into account (Tarjan)."""
        if child is None or child in self.tt:
            return low
        if child in self.onstack:
            return min(low, self.onstack[child])
        self._visit(child)
        return low if child in self.tt else min(low, self.low[child])

    def _close_component(self, key: tuple, index: int, low: int) -> None:
        """Tarjan's step after a position's options: where it roots a strongly connected component, pop the
        component and value it (one position acyclically, a loop by its fixed points)."""
        self.low[key] = low
        if low != index:
            return
        scc = []
        while True:
            k = self.stack.pop()
            del self.onstack[k]
            scc.append(k)
            if k == key:
                break
        if len(scc) == 1:
            self.tt[key] = self._acyclic(key)
        else:
            self.loops += 1
            self._solve_loop(scc)

    def _enter(self, key: tuple) -> Optional[LocalAnalysis]:
        """A position's first visit: a settled one is valued at once (None returned); an open one is counted
        against the budget, its count bounds kept, and its analysis returned."""
        info = self.local.analyze(key[0], key[1])
        if info.settled:
            rec = number_thermo(INF if info.threat == BLACK else NEG_INF) if info.threat else number_thermo(info.count)
            self.tt[key] = (rec, rec, rec)
            return None
        self.bounds[key] = (number_thermo(info.bounds[0]), number_thermo(info.bounds[1]))
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise BudgetExceeded("positions")
        if self.nodes % 1024 == 0 and ((self.deadline and time.perf_counter() > self.deadline)
                                       or (self.cancel is not None and self.cancel.is_set())):
            raise BudgetExceeded("seconds")
        return info

    def _acyclic(self, key: tuple):
        """Value of a position whose options are all valued (kos it takes are closed here)."""
        opts = self.children[key]
        lists = [([], []), ([], []), ([], [])]  # rec, lo, hi
        opens: list[tuple[int, int, _Open]] = []
        banned = None
        plain = True
        for side in (0, 1):
            for i, child in opts[side]:
                if child is None:
                    banned = (side, len(lists[0][side]))
                    for which in range(3):
                        lists[which][side].append(None)
                    plain = False
                    continue
                res = self.tt[child]
                if isinstance(res, _Open):
                    opens.append((side, len(lists[0][side]), res))
                    for which in range(3):
                        lists[which][side].append(None)
                    plain = False
                else:
                    if plain and not (res[0] is res[1] is res[2]):
                        plain = False
                    for which in range(3):
                        lists[which][side].append(res[which])
                    if res[0] is None:  # into an undecided repetition: the mover assumes it goes against him
                        lists[0][side][-1] = res[1 + side]
                        self.loop_valued.add(key)
        stands = self.stands[key]
        if plain:
            rec = self._at_rest(self.record(*lists[0]), lists[0], stands)
            return rec, rec, rec
        if banned is not None:
            return _Open(key, banned[0], banned[1], tuple((l, r) for l, r in lists), opens, stands)
        closed, used = self._close(key, lists, opens)
        result = tuple(self._at_rest(r, used[n], stands) for n, r in enumerate(closed))
        if result[1] is not None and result[1] is result[2]:
            return result[1], result[1], result[1]
        return result

    def _solve_loop(self, scc: list[tuple]) -> None:
        """Value the positions of a loop by iterating from the lowest and from the highest possible
        counts (least and greatest fixed points). Where both agree the loop cannot matter; elsewhere the
        exact value stays unknown (None) and the two iterates bracket it. Banned ko retakes inside a
        loop are bracketed the same way."""
        members = set(scc)
        order = list(scc)  # popped order: descendants first
        results = {}
        for which in (1, 2):
            est = {k: self.bounds[k][which - 1] for k in order}
            for _ in range(self.loop_passes):
                changed = False
                for k in order:
                    new = self._loop_record(k, est, members, which)
                    if new is None:
                        new = est[k]
                    if not new.same_thermograph(est[k]):
                        est[k] = new
                        changed = True
                if not changed:
                    break
            results[which] = est
        cautious = None
        if any(not results[1][k].same_thermograph(results[2][k]) for k in order):
            cautious = self._cautious_loop_values(order, results)
        for k in order:
            lo, hi = results[1][k], results[2][k]
            if lo.same_thermograph(hi):
                self.tt[k] = (lo, lo, lo)
            else:
                self.tt[k] = (None, lo, hi)
                self.cautious[k] = cautious[k]
                self.loop_valued.add(k)

    def _cautious_loop_values(self, order: list, results: dict) -> dict:
        """Where the loop leaves a value open, nobody is credited with winning the repetition: the mover
        assumes it goes against him (Black's moves at their lowest fixed point, White's at their highest).
        Symmetric under a color swap. Used for a root inside the loop; parents outside apply the same
        rule to their options (`_acyclic`)."""
        members = set(order)
        out = {}
        for k in order:
            lists: tuple[list, list] = ([], [])
            for side, which in ((0, 1), (1, 2)):
                lists[side].extend(self._loop_option(k, child, results[which], members, which)
                                   for _, child in self.children[k][side])
            out[k] = self._at_rest(self.record(*lists), lists, self.stands[k])
        return out

    def _loop_record(self, key, est, members, which) -> Optional[Thermo]:
        lists: tuple[list, list] = ([], [])
        for side in (0, 1):
            lists[side].extend(self._loop_option(key, child, est, members, which) for _, child in self.children[key][side])
        return self._at_rest(self.record(*lists), lists, self.stands[key])

    def _loop_option(self, key, child, est, members, which) -> Optional[Thermo]:
        """An option's record while valuing a loop from its lowest (which=1) or highest (2) counts."""
        if child is None:  # a banned retake: the phantom at this position's bound
            return self.bounds[key][which - 1]
        if child in members:
            return est[child]
        res = self.tt[child]
        if isinstance(res, _Open):
            return self.close_open(res, which, self.bounds[key][which - 1])
        return res[which]

    @staticmethod
    def _at_rest(rec: Optional[Thermo], lists, stands: Fraction) -> Optional[Thermo]:
        """A cold but unsettled position (nobody wants to move: seki, mutual damezumari) counts as it
        stands, kept between the stops of the options: area scoring lets both sides pass, so the
        normal-play number (like 1/2 = {0 | 1}) is not a Go count."""
        if rec is None or rec.number is None:
            return rec
        x = rec.number
        if x == stands:
            return rec
        if lists is not None:
            lefts, rights = lists
            ls0 = max((o.rs for o in lefts if o is not None and o is not _OMIT), default=NEG_INF)
            rs0 = min((o.ls for o in rights if o is not None and o is not _OMIT), default=INF)
            return number_thermo(min(max(stands, ls0), rs0))
        return number_thermo(stands) if rec.ls <= stands <= rec.rs else rec

    def _close(self, key, lists, opens) -> tuple[tuple, tuple]:
        """(rec, lo, hi) of a position, valuing the kos its options take (their retakes return here), and
        the option lists each record was made from (the kos closed: what `_at_rest` clamps a cold
        position's count between).

        lo / hi put the lowest / highest count this position can reach in place of every banned
        retake; when they agree (as values at rest) the kos cannot matter. Otherwise a simple ko with one exit per side is
        valued by the phantom rule (rec = lo = hi); any other ko is valued with the banned retake
        unavailable (the taker wins it: no ko threats), and lo / hi stay apart to say so."""
        stands = self.stands[key]

        def same_at_rest(lo, lo_lists, hi, hi_lists) -> bool:
            """lo and hi agree as values, each at rest against its own options (a cold position's raw
            number says nothing alone: the same number can stand for different counts)."""
            a, b = self._at_rest(lo, lo_lists, stands), self._at_rest(hi, hi_lists, stands)
            return a is not None and b is not None and a.same_thermograph(b)

        if not opens:
            rec = self.record(*lists[0])
            lo = self.record(*lists[1])
            hi = self.record(*lists[2])
            if (lo is None and hi is None) or (lo is not None and hi is not None
                                               and same_at_rest(lo, lists[1], hi, lists[2])):
                return (rec if rec is not None else hi, hi, hi), (lists[0] if rec is not None else lists[2],
                                                                  lists[2], lists[2])
            return (rec, lo, hi), lists

        def filled(which: int, phantom: Optional[Thermo]) -> tuple[list, list]:
            lefts, rights = list(lists[which][0]), list(lists[which][1])
            for side, j, op in opens:
                (lefts, rights)[side][j] = self.close_open(op, which, phantom)
            return lefts, rights

        ph_lo, ph_hi = self.bounds[key]  # the phantom is this position's count: within its bounds
        lo_lists, hi_lists = filled(1, ph_lo), filled(2, ph_hi)
        lo = self.record(*lo_lists)
        hi = self.record(*hi_lists)
        if lo is not None and hi is not None and same_at_rest(lo, lo_lists, hi, hi_lists):
            return (hi, hi, hi), (hi_lists, hi_lists, hi_lists)
        if len(opens) == 1 and not opens[0][2].opens:
            chain = self._strict_chain(key, lists, opens)
            if chain is not None:
                ko_lists = filled(0, number_thermo(chain.mean))
                rec = self.record(*ko_lists)
                if rec is not None and rec.mean == chain.mean and rec.temperature == chain.temperature:
                    self.kos[key] = chain
                    self.phantom[key] = chain.mean
                    return (rec, rec, rec), (ko_lists, ko_lists, ko_lists)
        taker = self._taker_fixed_point(key, lists, opens, filled)
        if taker is not None:
            phi, ko_lists = taker
            rec = self.record(*ko_lists)
            self.phantom[key] = phi
            self.fixed_kos.add(key)
            return (rec, lo, hi), (ko_lists, lo_lists, hi_lists)
        taker_lists = filled(0, None)
        taker_rec = self.record(*taker_lists)
        if not all(x is not None and x.kind == UNBOUNDED for x in (taker_rec, lo, hi)):
            self.generalised.add(key)  # (an unanswered threat whatever the ko: the ko's value is not what decides)
        return (taker_rec, lo, hi), (taker_lists, lo_lists, hi_lists)

    def _taker_fixed_point(self, key, lists, opens, filled):
        """(phantom, option lists) of the kos taken from this position, valued by the phantom rule beyond the
        textbook shape: every banned retake is worth the count of this position, a fixed point
        phi = mean(position with phi in the banned slots). Where one side takes, the one most favourable to
        the taker (the greatest for Black, the least for White): on a simple ko the fixed points fill
        [r, (l + 2r) / 3] and the taker's end is the Lew-Frejlak value. Where both sides take, the fixed point
        when it is unique. The mean is piecewise linear in phi, so secant steps from a bound land on it
        exactly. None when a count is infinite or no (unique) fixed point is found."""
        sides = {side for side, _, _ in opens}
        ph_lo, ph_hi = self.bounds[key]
        if any(x.mean is None or x.mean in (INF, NEG_INF) for x in (ph_lo, ph_hi)):
            return None
        seen: dict[Fraction, tuple] = {}

        def mean_at(phi: Fraction) -> Optional[Fraction]:
            if phi.denominator > PHANTOM_MAX_DEN or abs(phi.numerator) > PHANTOM_MAX_DEN << 8:
                return None  # as the native search: its walls' arithmetic stays far from overflow
            if phi not in seen:
                got = filled(0, number_thermo(phi))
                rec = self._at_rest(self.record(*got), got, self.stands[key])
                m = None if rec is None else rec.mean
                seen[phi] = (None if m is None or m in (INF, NEG_INF) else Fraction(m), got)
            return seen[phi][0]

        found = lambda phi: (phi, seen[phi][1])  # noqa: E731
        if len(sides) == 1:  # the taker's end: the greatest fixed point for Black, the least for White
            black = sides.pop() == 0
            return _fixed_point(mean_at, Fraction((ph_hi if black else ph_lo).mean), black, found)
        high = _fixed_point(mean_at, Fraction(ph_hi.mean), True, found)
        low = _fixed_point(mean_at, Fraction(ph_lo.mean), False, found)
        if high is None or low is None or high[0] != low[0]:
            return None  # both sides take kos here and the fixed point is not unique
        return high

    def _strict_chain(self, key, lists, opens) -> Optional[KoChain]:
        """The KoChain when the ko here is a simple ko with one exit per side (the textbook rule)."""
        if any(x is _OMIT for which in (1, 2) for half in lists[which] for x in half):
            return None
        side, k, op = opens[0]
        other = 1 - side
        ph_lo, ph_hi = self.bounds[key]
        x_lo_l, x_lo_r = _fill(op, 1, ph_lo)
        x_hi_l, x_hi_r = _fill(op, 2, ph_hi)
        if essential_options(x_lo_l, x_lo_r, x_hi_l, x_hi_r, other, keep=op.banned_index) != [op.banned_index]:
            return None
        exits = essential_options(x_lo_l, x_lo_r, x_hi_l, x_hi_r, side, keep=None)
        if len(exits) != 1 or (x_lo_l, x_lo_r)[side][exits[0]] is not (x_hi_l, x_hi_r)[side][exits[0]]:
            return None
        exit_taker = (x_lo_l, x_lo_r)[side][exits[0]]
        a_lo = list(lists[1][0]), list(lists[1][1])
        a_hi = list(lists[2][0]), list(lists[2][1])
        a_lo[side][k] = self.record(x_lo_l, x_lo_r)
        a_hi[side][k] = self.record(x_hi_l, x_hi_r)
        if any(x is None for half in (*a_lo, *a_hi) for x in half):
            return None
        if essential_options(a_lo[0], a_lo[1], a_hi[0], a_hi[1], side, keep=k) != [k]:
            return None
        others = essential_options(a_lo[0], a_lo[1], a_hi[0], a_hi[1], other, keep=None)
        if len(others) != 1 or a_lo[other][others[0]] is not a_hi[other][others[0]]:
            return None
        exit_other = a_lo[other][others[0]]
        l_rec, r_rec = (exit_taker, exit_other) if side == 0 else (exit_other, exit_taker)
        if l_rec.mean is None or r_rec.mean is None:
            return None
        try:
            chain = simple_ko(l_rec.mean, r_rec.mean, "black" if side == 0 else "white")
        except UnsupportedKo:
            return None
        if any(e.number is None and e.temperature > chain.temperature for e in (l_rec, r_rec)):
            return None
        return chain

    # ------------------------------------------------------------ reading results
    def child_record(self, parent, child) -> Optional[Thermo]:
        """The value of a child as its parent sees it (kos it takes valued with the parent's phantom)."""
        res = self.tt.get(child)
        if res is None:
            return None
        if isinstance(res, _Open):
            m = self.phantom.get(parent)
            return self.close_open(res, 0, None if m is None else number_thermo(m))
        if res[0] is None and res[1] is not None and res[2] is not None and res[1].same_thermograph(res[2]):
            return res[1]
        return res[0]

    def close_open(self, op: _Open, which: int, phantom: Optional[Thermo]) -> Optional[Thermo]:
        """The record (rec / lo / hi by `which`) of an open position whose banned retake is worth
        `phantom` (None: unavailable); kos taken from it are valued against it in turn."""
        ck = (which, None if phantom is None else id(phantom))
        if ck in op.cache:
            return op.cache[ck]
        if not op.opens:
            lists = _fill(op, which, phantom)
            out = self._at_rest(self.record(*lists), lists, op.stands)
        else:
            lists = [_fill(op, w, phantom) for w in range(3)]
            closed, used = self._close(op.key, lists, op.opens)
            out = self._at_rest(closed[which], used[which], op.stands)
        op.cache[ck] = out
        return out


PHANTOM_MAX_DEN = 1 << 16  # a phantom's denominator (and its numerator's size) kept small, as in the native search
PHANTOM_STEPS = 16  # iterations looking for a ko's fixed point


def _fixed_point(g, start: Fraction, from_above: bool, found, steps: int = PHANTOM_STEPS):
    """found(x) for the fixed point x = g(x) of a monotone, piecewise linear g reached from `start` (the greatest
    from above, the least from below): plain iteration, with a secant step through the last two iterates
    whose landing point is kept when g fixes it and g is linear up to it (checked at the midpoint); None
    when g is undefined on the way or no fixed point is found within `steps`."""
    x0, y0 = start, g(start)
    if y0 is None:
        return None
    if y0 == x0:
        return found(x0)
    x1 = y0
    for _ in range(steps):
        y1 = g(x1)
        if y1 is None:
            return None
        if y1 == x1:
            return found(x1)
        if x1 != x0 and y1 - y0 != x1 - x0:
            slope = (y1 - y0) / (x1 - x0)
            c = (y1 - slope * x1) / (1 - slope)
            if (c <= x1) == from_above and g(c) == c:
                mid = (c + x1) / 2
                if g(mid) == y1 + slope * (mid - x1):
                    return found(c)
        x0, y0, x1 = x1, y1, y1
    return None


def _fill(op: _Open, which: int, phantom: Optional[Thermo]) -> tuple[list, list]:
    """An open position's option lists with the phantom in the banned slot (dropped for None)."""
    lefts, rights = list(op.lists[which][0]), list(op.lists[which][1])
    (lefts, rights)[op.banned_side][op.banned_index] = _OMIT if phantom is None else phantom
    return lefts, rights


class LineSuperkoSolver(Solver):
    """The same search without repetitions: a move that recreates the stones of a position on its own line is
    illegal (positional superko, applied to the local line), so no loop is left to value; immediate ko
    retakes keep their phantoms. A value that relied on the line above it (it dropped a move into a position
    still on the line) holds for that line only: while the position whose option it is stays unvalued, every
    other line that reaches it values it again. Once that position is valued, the value is kept, and a later
    line that reaches it another way reuses it: a partial answer to the graph-history interaction (dropping
    those values too would leave the positions above that read them without one; a line-scoped table is the
    fix, not built)."""

    def value(self, key: tuple):
        self.path: dict[tuple[int, int], int] = {}
        self.temp: set[tuple] = set()
        self._line_visit(key)
        return self.tt[key]

    def _line_visit(self, key: tuple) -> int:
        """Value `key` on the current line; returns the depth of the highest position on the line whose
        presence the value relies on (beyond the line's length: none)."""
        b, w, _ = key
        free = 1 << 30
        info = self._enter(key)
        if info is None:
            return free
        depth = len(self.path)
        self.path[(b, w)] = depth
        low = free
        kept: tuple[list, list] = ([], [])
        for side, options in enumerate(self.options(key, info)):
            for i, child in options:
                if child is not None and (child[0], child[1]) in self.path:
                    low = min(low, self.path[(child[0], child[1])])  # a repetition of the line: illegal
                else:
                    kept[side].append((i, child))
        self.children[key] = kept
        self.stands[key] = info.as_it_stands
        made: list[tuple] = []
        for side in (0, 1):
            for _, child in kept[side]:
                if child is None or child in made or (child in self.tt and child not in self.temp):
                    continue
                if child in self.temp:  # valued on another line: value it again on this one
                    self.temp.discard(child)
                    del self.tt[child]
                low = min(low, self._line_visit(child))
                if child in self.temp:
                    made.append(child)
        self.tt[key] = self._acyclic(key)
        del self.path[(b, w)]
        if depth:  # the root keeps its options' values for the readout
            for child in made:
                self.temp.discard(child)
        if low < depth:
            self.temp.add(key)
        return low


PYTHON = Engine("python", Solver, LineSuperkoSolver, superko_nodes=300_000, deep=True)  # ExhaustiveConfig(engine=PYTHON)
