"""Exhaustive local solver for a sealed region: every legal local move of both colours, to settled leaves.

The region is a set of points whose outside neighbours are walls: stones of safe chains (Benson pass-alive,
or trusted when the caller gives the mask) and empty outside points owned by one colour (its territory).
A region chain touching a wall of its colour is safe; captures, suicide (the board's `Rules.suicide`) and
simple ko follow the rules core and are checked against `tengen.go.Board` in the tests. The search runs
on a bitmask copy of the region for speed.

Conventions (the usual local-game ones, stated so results can be checked):
- A position is settled (a leaf) when every region chain is safe and every empty area is territory of
  one colour or a single dame point; the leaf is the area count over the region (dame count 0).
- Nobody plays inside settled territory (filling your own is a pass in area scoring, invading it is
  hopeless by the first convention); every other empty point is a candidate for both colours.
- A retake the simple-ko rule forbids, and any move that would repeat a position on the current line,
  gets a phantom value. The search carries two thermographs (phantoms at the lowest and the highest
  possible count); where they agree the ko cannot matter. Otherwise a simple ko with one exit per side
  is valued by the phantom rule of `tengen.cgt.ko`; anything else is reported as unsupported.
- Each position's value is its thermograph record (`tengen.cgt.thermo.combine` of its options), which
  keeps only what the thermograph needs: options whose walls are dominated drop out of the max / min,
  identical option records are merged, and equal records are shared (interned), as are combinations.
A transposition table on the local position (stones + ko ban) and a node budget ("too large") keep the
search bounded.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterable, Optional

from tengen.cgt.ko import KoChain, UnsupportedKo, simple_ko
from tengen.cgt.thermo import KO, Thermo, combine, number_thermo, orthodox_indices
from tengen.cgt.values import MoveValues, move_values
from tengen.go.benson import unconditional_life
from tengen.go.colors import BLACK, EMPTY, WHITE
from tengen.go.coords import Point, neighbours

OK, TOO_LARGE, UNSUPPORTED = "ok", "too_large", "unsupported"


class RegionNotSealed(ValueError):
    """The region has an outside neighbour that is neither a wall stone nor one colour's territory."""


class _Budget(Exception):
    pass


@dataclass
class ExhaustiveConfig:
    """Search limits. max_nodes counts distinct positions evaluated; seconds is a wall-clock limit."""

    max_nodes: int = 2_000_000
    seconds: Optional[float] = None
    require_benson: bool = False  # raise RegionNotSealed when a wall stone is not Benson pass-alive


@dataclass
class ExhaustiveResult:
    """Outcome of a solve. status: 'ok', 'too_large' (budget hit) or 'unsupported' (a ko the rule
    cannot value). kind follows tengen.cgt (gote, black_sente, white_sente, ko, number, ...)."""

    status: str
    region: list[Point]
    thermograph: Optional[Thermo] = None
    kind: str = "unsupported"
    mean: Optional[Fraction] = None
    temperature: Optional[Fraction] = None
    move_values: Optional[MoveValues] = None
    best_black: list[Point] = field(default_factory=list)
    best_white: list[Point] = field(default_factory=list)
    principal_black: list[tuple[int, Point]] = field(default_factory=list)
    principal_white: list[tuple[int, Point]] = field(default_factory=list)
    ko: Optional[KoChain] = None
    nodes: int = 0
    seconds: float = 0.0
    reason: str = ""
    notes: list[str] = field(default_factory=list)


# ---------------------------------------------------------------- the region as bitmasks
class LocalRegion:
    """The region's points, adjacency and walls, and its starting stones, as bitmasks over point indices."""

    def __init__(self, board, region: Iterable[Point], require_benson: bool = False):
        self.points: list[Point] = sorted(set(region))
        if not self.points:
            raise ValueError("empty region")
        self.height, self.width = board.height, board.width
        self.index = {p: i for i, p in enumerate(self.points)}
        self.n = len(self.points)
        self.full = (1 << self.n) - 1
        self.suicide = bool(board.rules.suicide)
        self.notes: list[str] = []
        grid = board.array()
        life = unconditional_life(board)
        self.nb = [0] * self.n
        self.wall = {BLACK: 0, WHITE: 0}
        owners: dict[Point, int] = {}
        for i, p in enumerate(self.points):
            for q in neighbours(p, self.height, self.width):
                if q in self.index:
                    self.nb[i] |= 1 << self.index[q]
                    continue
                colour = int(grid[q])
                if colour == EMPTY:
                    if q not in owners:
                        owners.update(self._owner_of_outside(grid, life, q))
                    colour = owners[q]
                elif life[q] != colour:
                    msg = f"wall stone at {q} is not Benson pass-alive (trusted as a wall)"
                    if require_benson:
                        raise RegionNotSealed(msg)
                    if msg not in self.notes:
                        self.notes.append(msg)
                self.wall[colour] |= 1 << i
        self.start = {BLACK: 0, WHITE: 0}
        for i, p in enumerate(self.points):
            c = int(grid[p])
            if c != EMPTY:
                self.start[c] |= 1 << i
        # dilation tables: OR of neighbour masks for each byte of a mask
        self._chunks = (self.n + 7) // 8
        self._table = []
        for k in range(self._chunks):
            row = [0] * 256
            for byte in range(1, 256):
                low = byte & -byte
                j = 8 * k + low.bit_length() - 1
                row[byte] = row[byte ^ low] | (self.nb[j] if j < self.n else 0)
            self._table.append(row)

    def _owner_of_outside(self, grid, life, start: Point) -> dict[Point, int]:
        """Colour owning the outside empty area containing `start` (Benson region, else its border)."""
        if life[start] in (BLACK, WHITE):
            return {start: int(life[start])}
        seen, stack, border = {start}, [start], set()
        while stack:
            p = stack.pop()
            for q in neighbours(p, self.height, self.width):
                if q in self.index or q in seen:
                    continue
                c = int(grid[q])
                if c == EMPTY:
                    seen.add(q)
                    stack.append(q)
                else:
                    border.add(c)
        if len(border) != 1:
            raise RegionNotSealed(f"outside point {start} borders {'both colours' if border else 'no stone'}")
        owner = border.pop()
        return {p: owner for p in seen}

    def dilate(self, m: int) -> int:
        """Region points adjacent to any point of m."""
        out, k, t = 0, 0, self._table
        while m:
            out |= t[k][m & 255]
            m >>= 8
            k += 1
        return out

    def chain(self, seed: int, stones: int) -> int:
        """The chain (bitmask) of `stones` containing the seed bit."""
        ch = seed
        frontier = seed
        while frontier:
            frontier = self.dilate(frontier) & stones & ~ch
            ch |= frontier
        return ch

    def play(self, b: int, w: int, colour: int, i: int):
        """(b, w, ko_ban) after `colour` plays point index i, or None if illegal (occupied, suicide).
        ko_ban is (point index, colour barred) after a single-stone capture that could be retaken."""
        bit = 1 << i
        if (b | w) & bit:
            return None
        own, opp = (b, w) if colour == BLACK else (w, b)
        own |= bit
        opp_wall, own_wall = self.wall[-colour], self.wall[colour]
        empty = self.full & ~(own | opp)
        captured = 0
        adj = self.nb[i] & opp
        while adj:
            low = adj & -adj
            ch = self.chain(low, opp)
            adj &= ~ch
            if ch & opp_wall:
                continue
            if not (self.dilate(ch) & empty):
                captured |= ch
        if captured:
            opp &= ~captured
            empty |= captured
        mine = self.chain(bit, own)
        ban = None
        if not (mine & own_wall):
            libs = self.dilate(mine) & empty
            if not libs:
                if not self.suicide or mine == bit and not captured:
                    return None  # suicide (a lone stone's suicide is a pass-like no-op; forbid it)
                own &= ~mine
            elif mine == bit and captured and captured & (captured - 1) == 0 and libs == captured:
                ban = (captured.bit_length() - 1, -colour)
        return (own, opp, ban) if colour == BLACK else (opp, own, ban)

    def analyse(self, b: int, w: int):
        """(settled?, area count if settled, candidate move mask) for the position."""
        empty = self.full & ~(b | w)
        unsafe = 0
        for colour, stones in ((BLACK, b), (WHITE, w)):
            rest = stones
            wall = self.wall[colour]
            while rest:
                ch = self.chain(rest & -rest, stones)
                rest &= ~ch
                if not ch & wall:
                    unsafe |= ch
        open_points = 0
        count = b.bit_count() - w.bit_count()
        settled = not unsafe
        rest = empty
        while rest:
            area = self.chain(rest & -rest, empty)
            rest &= ~area
            around = self.dilate(area)
            black = bool(around & b or area & self.wall[BLACK])
            white = bool(around & w or area & self.wall[WHITE])
            touches_unsafe = bool(around & unsafe)
            if black != white and not touches_unsafe:
                count += area.bit_count() if black else -area.bit_count()
                continue  # settled territory: no moves there
            if black and white and area & (area - 1) == 0 and not touches_unsafe:
                # a single dame point between safe stones: settled (counted 0), but still playable
                open_points |= area
                continue
            settled = False
            open_points |= area
        return settled, count, open_points


# ---------------------------------------------------------------- the search
class _Solver:
    def __init__(self, local: LocalRegion, config: ExhaustiveConfig):
        self.local = local
        self.config = config
        self.lo = number_thermo(Fraction(-local.n))
        self.hi = number_thermo(Fraction(local.n))
        self.tt: dict[tuple, tuple[Thermo, Thermo]] = {}
        self.children: dict[tuple, tuple[list, list]] = {}
        self.ko_children: dict[tuple, tuple[list, list]] = {}
        self.intern: dict[tuple, Thermo] = {}
        self.combos: dict[tuple, Thermo] = {}
        self.path: set[tuple[int, int]] = set()
        self.nodes = 0
        self.deadline = None if config.seconds is None else time.perf_counter() + config.seconds
        self.kos: dict[tuple, KoChain] = {}

    def _record(self, lefts: list[Thermo], rights: list[Thermo]) -> Thermo:
        lk = tuple(sorted({id(x) for x in lefts}))
        rk = tuple(sorted({id(x) for x in rights}))
        key = (lk, rk)
        got = self.combos.get(key)
        if got is not None:
            return got
        uniq_l = list({id(x): x for x in lefts}.values())
        uniq_r = list({id(x): x for x in rights}.values())
        rec = combine(uniq_l, uniq_r)
        if rec.number is None:
            ikey = (rec.left, rec.right, rec.ls, rec.rs, rec.ge_rs, rec.le_ls)
            rec = self.intern.setdefault(ikey, rec)
        self.combos[key] = rec
        return rec

    def options(self, key: tuple) -> tuple[list, list]:
        """[(point index, child key or None for a banned move)] for Black and for White."""
        b, w, ban = key
        _, _, open_points = self.local.analyse(b, w)
        out = ([], [])
        for side, colour in ((0, BLACK), (1, WHITE)):
            rest = open_points
            while rest:
                low = rest & -rest
                rest ^= low
                i = low.bit_length() - 1
                nxt = self.local.play(b, w, colour, i)
                if nxt is None:
                    continue
                banned = ban is not None and ban == (i, colour)
                out[side].append((i, None if banned else nxt))
        return out

    def value(self, key: tuple) -> tuple[Thermo, Thermo]:
        got = self.tt.get(key)
        if got is not None:
            return got
        b, w, ban = key
        settled, count, open_points = self.local.analyse(b, w)
        if settled:
            rec = number_thermo(Fraction(count))
            self.tt[key] = (rec, rec)
            return self.tt[key]
        self.nodes += 1
        if self.nodes > self.config.max_nodes or (self.deadline and self.nodes % 1024 == 0
                                                 and time.perf_counter() > self.deadline):
            raise _Budget()
        self.path.add((b, w))
        opts = self.options(key)
        los: tuple[list, list] = ([], [])
        his: tuple[list, list] = ([], [])
        ko_child = False
        for side in (0, 1):
            for i, child in opts[side]:
                if child is None or (child[0], child[1]) in self.path:
                    los[side].append(self.lo)
                    his[side].append(self.hi)
                    ko_child = True
                    continue
                lo, hi = self.value(child)
                los[side].append(lo)
                his[side].append(hi)
        self.path.discard((b, w))
        lo = self._record(*los)
        hi = self._record(*his)
        if lo is not hi and ban is None:
            resolved = self._resolve_ko(key, opts, los, his)
            if resolved is not None:
                lo = hi = resolved
        self.tt[key] = (lo, hi)
        if ko_child or lo is not hi:
            self.children[key] = opts
        return lo, hi

    # ------------------------------------------------------------ kos
    def _resolve_ko(self, key, opts, los, his) -> Optional[Thermo]:
        """Value a simple ko anchored here by the phantom rule, if its shape allows (else None)."""
        b, w, _ = key
        for side, colour in ((0, BLACK), (1, WHITE)):
            for k, (i, child) in enumerate(opts[side]):
                if child is None or child[2] is None:
                    continue
                cb, cw, cban = child
                x_opts = self.children.get(child)
                if x_opts is None:
                    continue
                other = 1 - side
                banned_idx = [j for j, (pi, c) in enumerate(x_opts[other]) if c is None and pi == cban[0]]
                if not banned_idx:
                    continue
                try:
                    return self._chain_rule(key, opts, los, his, side, k, child, x_opts, banned_idx[0])
                except UnsupportedKo:
                    return None
        return None

    def _chain_rule(self, key, opts, los, his, side, k, child, x_opts, banned_j) -> Thermo:
        taker = "black" if side == 0 else "white"
        other = 1 - side
        x_lo_l, x_lo_r, x_hi_l, x_hi_r = self._child_lists(x_opts)
        # at the taken position: the banned side may have nothing else that matters
        x_lists = {0: (x_lo_l, x_hi_l), 1: (x_lo_r, x_hi_r)}
        if self._essential(x_lo_l, x_lo_r, x_hi_l, x_hi_r, other, keep=banned_j) != [banned_j]:
            raise UnsupportedKo("the ko-banned side has other moves that matter")
        exits = self._essential(x_lo_l, x_lo_r, x_hi_l, x_hi_r, side, keep=None)
        if len(exits) != 1:
            raise UnsupportedKo("the taker has several exits")
        exit_taker = x_lists[side][0][exits[0]]
        if exit_taker is not x_lists[side][1][exits[0]]:
            raise UnsupportedKo("the taker's exit depends on another ko")
        # at the anchor: the taker's only relevant move is the take, the other side has one exit
        if self._essential(los[0], los[1], his[0], his[1], side, keep=k) != [k]:
            raise UnsupportedKo("the taker has other moves at the ko that matter")
        others = self._essential(los[0], los[1], his[0], his[1], other, keep=None)
        if len(others) != 1 or los[other][others[0]] is not his[other][others[0]]:
            raise UnsupportedKo("the other side has several exits")
        exit_other = los[other][others[0]]
        l_rec, r_rec = (exit_taker, exit_other) if side == 0 else (exit_other, exit_taker)
        if l_rec.mean is None or r_rec.mean is None:
            raise UnsupportedKo("a ko exit is unbounded")
        chain = simple_ko(l_rec.mean, r_rec.mean, taker)
        for e in (l_rec, r_rec):
            if e.number is None and e.temperature > chain.temperature:
                raise UnsupportedKo("a ko exit is hotter than the ko")
        phantom = number_thermo(chain.mean)
        xl = [phantom if (side == 1 and j == banned_j) else r for j, r in enumerate(x_lo_l)]
        xr = [phantom if (side == 0 and j == banned_j) else r for j, r in enumerate(x_lo_r)]
        x_rec = combine(xl, xr)
        lefts = [x_rec if (side == 0 and j == k) else r for j, r in enumerate(los[0])]
        rights = [x_rec if (side == 1 and j == k) else r for j, r in enumerate(los[1])]
        a_rec = combine(lefts, rights)
        if a_rec.mean != chain.mean or a_rec.temperature != chain.temperature:
            raise UnsupportedKo("the phantom rule does not reproduce the ko's count")
        self.tt[child] = (x_rec, x_rec)
        self.kos[key] = chain
        return a_rec

    def _child_lists(self, x_opts):
        lo_l, hi_l, lo_r, hi_r = [], [], [], []
        for side, (lo_list, hi_list) in ((0, (lo_l, hi_l)), (1, (lo_r, hi_r))):
            for i, c in x_opts[side]:
                if c is None or c not in self.tt:
                    lo_list.append(self.lo)
                    hi_list.append(self.hi)
                else:
                    lo, hi = self.tt[c]
                    lo_list.append(lo)
                    hi_list.append(hi)
        return lo_l, lo_r, hi_l, hi_r

    @staticmethod
    def _essential(lo_l, lo_r, hi_l, hi_r, side, keep) -> list[int]:
        """Greedily drop options of `side` that change neither extreme's record; returns those left."""
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
                if not combine(cut_l, cut_r).same_thermograph(ref):
                    ok = False
                    break
            if ok:
                idx = trial
        return idx


# ---------------------------------------------------------------- entry point
def solve_region(board, region: Iterable[Point], config: Optional[ExhaustiveConfig] = None) -> ExhaustiveResult:
    """Solve the local game of `region` on `board` exhaustively (see the module docstring)."""
    config = config or ExhaustiveConfig()
    start = time.perf_counter()
    local = LocalRegion(board, region, config.require_benson)
    result = ExhaustiveResult(UNSUPPORTED, local.points, notes=list(local.notes))
    solver = _Solver(local, config)
    root = (local.start[BLACK], local.start[WHITE], None)
    try:
        lo, hi = solver.value(root)
    except _Budget:
        result.status, result.kind = TOO_LARGE, TOO_LARGE
        result.reason = f"too large: more than {config.max_nodes} positions" if solver.nodes > config.max_nodes \
            else f"too large: more than {config.seconds} s"
        result.nodes, result.seconds = solver.nodes, time.perf_counter() - start
        return result
    result.nodes, result.seconds = solver.nodes, time.perf_counter() - start
    if not lo.same_thermograph(hi):
        result.reason = "unsupported ko: the value depends on a ko the phantom rule cannot express"
        return result
    result.status = OK
    result.thermograph = lo
    result.ko = solver.kos.get(root)
    result.kind = KO if result.ko is not None else lo.kind
    result.mean, result.temperature = lo.mean, lo.temperature
    result.move_values = move_values(result.kind, lo.temperature)
    best = _best_moves(solver, root)
    result.best_black = [local.points[i] for i in best[0]]
    result.best_white = [local.points[i] for i in best[1]]
    result.principal_black = _principal(solver, root, BLACK)
    result.principal_white = _principal(solver, root, WHITE)
    result.seconds = time.perf_counter() - start
    return result


def _option_records(solver: _Solver, key) -> tuple[list, list, list, list]:
    opts = solver.children.get(key) or solver.options(key)
    recs: tuple[list, list] = ([], [])
    moves: tuple[list, list] = ([], [])
    for side in (0, 1):
        for i, child in opts[side]:
            if child is None or child not in solver.tt:
                continue  # a banned retake is never a move to recommend
            recs[side].append(solver.tt[child][0])
            moves[side].append((i, child))
    return recs[0], recs[1], moves[0], moves[1]


def _best_moves(solver: _Solver, key) -> tuple[list[int], list[int]]:
    lefts, rights, lm, rm = _option_records(solver, key)
    rec = solver.tt[key][0]
    if rec.number is not None:
        return [], []
    li, ri = orthodox_indices(lefts, rights, rec)
    return [lm[j][0] for j in li], [rm[j][0] for j in ri]


def _principal(solver: _Solver, key, first: int, limit: int = 40) -> list[tuple[int, Point]]:
    """The orthodox line from the root with `first` to move, alternating, until the position is cold."""
    line = []
    colour = first
    while len(line) < limit:
        rec = solver.tt.get(key, (None,))[0]
        if rec is None or rec.number is not None or rec.temperature <= 0:
            break
        lefts, rights, lm, rm = _option_records(solver, key)
        li, ri = orthodox_indices(lefts, rights, rec)
        picks, moves = (li, lm) if colour == BLACK else (ri, rm)
        if not picks:
            break
        i, child = moves[picks[0]]
        line.append((colour, solver.local.points[i]))
        key = child
        colour = -colour
    return line
