"""A slow, obviously-correct reference for the exact local solver (`tengen.endgame.exact.solve`), and the
random small regions the differential bench and tests check it on.

The reference walks the *full* local game tree of a region: every option of both colors at every node, no
transposition table, no loop shortcuts, no interning, no pruning of dominated options. The rules of play
are `tengen.endgame.exact.rules.LocalRegion`'s (`play`, `analyze`, `candidates`, `pointless_sacrifice`),
tested elsewhere against `tengen.go.Board`; thermographs are `tengen.cgt.thermo.combine` of the options'
records, built bottom-up over the tree.

Conventions (the documented ones of `exact/solve.py` / `exact/rules.py`, implemented independently):
- A settled position is a leaf worth its area count; a settled position where a safe chain has broken into
  the opponent's outside territory is a threat leaf worth +inf (Black broke in) or -inf (White).
- Moves: `candidates(..., moves)` of each color, minus illegal ones (`play` is None) and, unless
  `sacrifices`, `pointless_sacrifice` ones.
- At rest: when the combined record of an unsettled position is a number, the position counts as it
  stands (`LocalAnalysis.as_it_stands`), clamped between Left's stop max(rs of Black's options) and
  Right's stop min(ls of White's options) (area scoring lets both sides pass).
- Repetition: the walk keeps the path (the stones of every unsettled position on it). A move that
  recreates the stones of a position on the path (this includes the immediate ko retake the ko rule bans,
  which returns to the position before the capture: the reference ignores ko bans and lets the path catch
  it) is a leaf worth the repeated position's lowest count bound (`LocalAnalysis.bounds[0]`) in the
  "low" run and its highest (`bounds[1]`) in the "high" run. Both runs walk the same tree, so they are
  done together (a pair of records per node). The count bounds hold for every continuation, so every
  consistent valuation of the repetitions lies between the two runs (thermographs are monotone in their
  options); when the two root records have the same thermograph the value is *determined* and every
  such valuation has it, else the reference says "undetermined (repetition matters)" with the bracket.
  Determined values are what the solver must reproduce exactly; where the reference is undetermined the
  solver's own ko / loop rules (phantoms, fixed points) decide, which the reference does not model.
- A tree larger than `max_nodes` nodes is given up ("too_large"); it is exponential in the number of
  open points, which is why the bench keeps regions at <= 6 empty points.
- What is remembered is only pure functions of their arguments: the rules' verdict on a set of stones
  (`analyze` and the legal moves) and `combine` of the same option records (by identity, the records kept
  alive). Values of positions are never looked up: each node of the tree is valued from its own subtree.
- Not modelled: the solver's own rules for what the reference leaves undetermined (the phantom rule of a
  simple ko, "the ko's taker wins it", "nobody wins the repetition"); there the bench only checks that a
  caveat-free solver value lies in the reference's bracket.
- `cold_ko_nodes` counts the nodes where the at-rest convention changed a number while an option takes a
  ko (the solver skipped the convention there before 8aca40d: tests/endgame/test_solver_reference.py's
  KO_AT_REST), so that a disagreement can say whether such a position is involved.

Metamorphic checks (`metamorphic`, `TRANSFORMS`): the 7 other symmetries of the square board and a
translation (rows / columns copied beyond the sides of the board the region does not touch) leave the
solver's result unchanged; swapping the colors of every stone negates the mean, swaps black_sente and
white_sente and mirrors the walls.

The generator (`random_region`) builds square 5x5..7x7 boards with a region of <= max_empty empty points
plus stones of both colors against an edge or in a corner, surrounded by two walls (one per color, each
one chain filling its side of the board, with two outside eyes where it has room, else trusted with an
outside liberty), and keeps only the regions `LocalRegion` accepts.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterable, Optional

import numpy as np

from tengen.cgt.numbers import INF, NEG_INF
from tengen.cgt.thermo import Thermo, combine, number_thermo
from tengen.endgame.exact import LocalRegion, RegionNotSealed
from tengen.go.colors import BLACK, EMPTY, WHITE
from tengen.go.coords import Point

DETERMINED, UNDETERMINED, TOO_LARGE = "determined", "undetermined", "too_large"


class _TreeTooLarge(Exception):
    pass


@dataclass
class ReferenceResult:
    """The reference's verdict: `low` / `high` are the root records of the two runs; `value` is set when
    they have the same thermograph (status 'determined'), else status is 'undetermined' (a repetition
    matters) or 'too_large'."""

    status: str
    low: Optional[Thermo] = None
    high: Optional[Thermo] = None
    nodes: int = 0  # tree nodes walked (unsettled positions)
    repetitions: int = 0  # leaves made by a move recreating a position on the path
    ko_retakes: int = 0  # of which immediate retakes the ko rule bans
    captures: int = 0  # moves that captured
    # nodes where the at-rest convention changed a number and an option takes a ko (the solver skipped the
    # convention there before 8aca40d: tests/endgame/test_solver_reference.py's KO_AT_REST)
    cold_ko_nodes: int = 0
    stats: dict = field(default_factory=dict)

    @property
    def value(self) -> Optional[Thermo]:
        return self.low if self.status == DETERMINED else None

    def describe(self) -> str:
        if self.status == DETERMINED:
            v = self.low
            return f"determined: {v.kind} mean {v.mean} temperature {v.temperature}"
        if self.status == UNDETERMINED:
            return (f"undetermined (repetition matters): low {self.low.kind} mean {self.low.mean} t {self.low.temperature}"
                    f" .. high {self.high.kind} mean {self.high.mean} t {self.high.temperature}")
        return "too large"


def _bits(mask: int):
    while mask:
        low = mask & -mask
        mask ^= low
        yield low.bit_length() - 1


def _at_rest(rec: Thermo, lefts: list, rights: list, stands: int) -> Thermo:
    """The cold-position convention: a number counts as the position stands, within the options' stops."""
    if rec.number is None:
        return rec
    left_stop = max((o.rs for o in lefts), default=NEG_INF)
    right_stop = min((o.ls for o in rights), default=INF)
    return number_thermo(min(max(Fraction(stands), left_stop), right_stop))


class _Walk:
    def __init__(self, local: LocalRegion, moves: str, sacrifices: bool, max_nodes: int):
        self.local = local
        self.moves = moves
        self.sacrifices = sacrifices
        self.max_nodes = max_nodes
        self.path: dict[tuple[int, int], tuple[int, int]] = {}  # stones on the path -> count bounds
        self.result = ReferenceResult(UNDETERMINED)
        self.rules: dict = {}
        self.combos: dict = {}

    def rules_at(self, b: int, w: int):
        """The rules' verdict on stones (b, w): its analysis and its legal moves [(color, point, (b, w, ban))].
        A pure function of the stones, remembered (the values are not: they depend on the path)."""
        got = self.rules.get((b, w))
        if got is None:
            local = self.local
            info = local.analyze(b, w)
            moves = []
            if not info.settled:
                for color in (BLACK, WHITE):
                    for i in _bits(local.candidates(b, w, color, info, self.moves)):
                        nxt = local.play(b, w, color, i)
                        if nxt is None:
                            continue
                        if not self.sacrifices and local.pointless_sacrifice(b, w, color, i, nxt, info):
                            continue
                        moves.append((color, i, nxt))
            got = self.rules[(b, w)] = (info, moves)
        return got

    def combine(self, lefts: list, rights: list) -> Thermo:
        """`combine`, remembered by the identities of the option records (the memo keeps the records
        alive, so an identity is never reused: same objects, same result; a pure function)."""
        key = (tuple(map(id, lefts)), tuple(map(id, rights)))
        got = self.combos.get(key)
        if got is None:
            got = combine(lefts, rights)
            self.combos[key] = (got, lefts, rights)
            return got
        return got[0]

    def walk(self, b: int, w: int, ban) -> tuple[Thermo, Thermo]:
        """(low, high) records of the position with stones (b, w); `ban` is only counted, never obeyed."""
        info, moves = self.rules_at(b, w)
        if info.settled:
            leaf = number_thermo(INF if info.threat == BLACK else NEG_INF if info.threat == WHITE else info.count)
            return leaf, leaf
        self.result.nodes += 1
        if self.result.nodes > self.max_nodes:
            raise _TreeTooLarge()
        self.path[(b, w)] = info.bounds
        options = {BLACK: ([], []), WHITE: ([], [])}  # color -> (low records, high records)
        for color, i, (nb, nw, nban) in moves:
            if (nb | nw) != (b | w) | (1 << i):
                self.result.captures += 1
            if (nb, nw) in self.path:
                self.result.repetitions += 1
                if ban is not None and ban == (i, color):
                    self.result.ko_retakes += 1
                lo, hi = self.path[(nb, nw)]
                low, high = number_thermo(Fraction(lo)), number_thermo(Fraction(hi))
            else:
                low, high = self.walk(nb, nw, nban)
            options[color][0].append(low)
            options[color][1].append(high)
        del self.path[(b, w)]
        out = []
        for which in (0, 1):
            lefts, rights = options[BLACK][which], options[WHITE][which]
            rec = self.combine(lefts, rights)
            out.append(_at_rest(rec, lefts, rights, info.as_it_stands))
            if out[-1] is not rec and any(m[2][2] is not None for m in moves):
                self.result.cold_ko_nodes += 1
        return out[0], out[1]


def reference_solve(board, region: Iterable[Point], *, vouched: bool = False, moves: str = "all",
                    sacrifices: bool = False, max_nodes: int = 2_000_000) -> ReferenceResult:
    """The reference value of `region` on `board` (conventions: the module docstring).
    Raises RegionNotSealed as LocalRegion does."""
    local = LocalRegion(board, region, vouched=vouched)
    return reference_solve_local(local, moves=moves, sacrifices=sacrifices, max_nodes=max_nodes)


def reference_solve_local(local: LocalRegion, *, moves: str = "all", sacrifices: bool = False,
                          max_nodes: int = 2_000_000) -> ReferenceResult:
    walker = _Walk(local, moves, sacrifices, max_nodes)
    try:
        low, high = walker.walk(local.start[BLACK], local.start[WHITE], None)
    except _TreeTooLarge:
        walker.result.status = TOO_LARGE
        return walker.result
    res = walker.result
    res.low, res.high = low, high
    res.status = DETERMINED if low.same_thermograph(high) else UNDETERMINED
    return res


# ------------------------------------------------------------------ random regions

@dataclass
class RandomRegion:
    """A generated region: its board's stone array, the region points, the rules' suicide flag."""

    grid: np.ndarray
    region: list[Point]
    suicide: bool = False
    seed: str = ""  # "SEED:K": generate(SEED, ...)'s K-th draw

    def board(self):
        from tengen.go import Board, Rules

        rules = Rules.tromp_taylor(komi=0) if self.suicide else Rules.chinese(komi=0)
        h, w = self.grid.shape
        board = Board(w, h, rules=rules)
        board.set_array(self.grid)
        return board

    def diagram(self) -> str:
        """ASCII: X / O stones, '.' empty outside; inside the region x / o / '*' for an empty point."""
        from tengen.go.coords import GTP_COLUMNS

        h, w = self.grid.shape
        inside = set(self.region)
        lines = []
        for r in range(h):
            cells = []
            for c in range(w):
                v = int(self.grid[r, c])
                ch = {BLACK: "X", WHITE: "O", EMPTY: "."}[v]
                if (r, c) in inside:
                    ch = {BLACK: "x", WHITE: "o", EMPTY: "*"}[v]
                cells.append(ch)
            lines.append(f"{h - r:>2} " + " ".join(cells))
        lines.append("   " + " ".join(GTP_COLUMNS[:w]))
        rules = "suicide allowed" if self.suicide else "no suicide"
        return "\n".join(lines) + f"\n   (region: x o * ; {rules}; seed {self.seed})"


def region_from_diagram(text: str, suicide: bool = False) -> RandomRegion:
    """The notation `RandomRegion.diagram` prints (and fixtures use): X / O / . outside the region, x / o / *
    inside it (stones / empty); row labels, the column-label line and a trailing note in brackets ignored."""
    rows = []
    for line in text.strip("\n").splitlines():
        tokens = line.split()
        if not tokens or tokens[0].startswith("("):
            continue
        if tokens[0].isdigit():
            tokens = tokens[1:]
        if all(t.isalpha() and t.isupper() and t not in ("X", "O") for t in tokens):
            continue  # column labels
        rows.append(tokens)
    grid = np.zeros((len(rows), len(rows[0])), dtype=np.int8)
    region = []
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            grid[r, c] = {"X": BLACK, "x": BLACK, "O": WHITE, "o": WHITE}.get(ch, EMPTY)
            if ch in "xo*":
                region.append((r, c))
    return RandomRegion(grid, sorted(region), suicide)


def _neighbours(p: Point, n: int):
    r, c = p
    for q in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
        if 0 <= q[0] < n and 0 <= q[1] < n:
            yield q


def _components(points: set, n: int) -> list[set]:
    out, seen = [], set()
    for p in points:
        if p in seen:
            continue
        comp, stack = {p}, [p]
        seen.add(p)
        while stack:
            x = stack.pop()
            for q in _neighbours(x, n):
                if q in points and q not in seen:
                    seen.add(q)
                    comp.add(q)
                    stack.append(q)
        out.append(comp)
    return out


def _grid_legal(grid: np.ndarray) -> bool:
    """Every chain on the board has a liberty."""
    n = grid.shape[0]
    for color in (BLACK, WHITE):
        stones = {(r, c) for r in range(n) for c in range(n) if grid[r, c] == color}
        for ch in _components(stones, n):
            if not any(grid[q] == EMPTY for p in ch for q in _neighbours(p, n)):
                return False
    return True


def _grown(rng: random.Random, n: int, region: set, size: int, columns) -> set:
    """`region` grown point by point to `size` points within the bottom three lines and `columns`, staying low."""
    allowed = set(columns)
    while len(region) < size:
        frontier = sorted({q for p in region for q in _neighbours(p, n)
                           if q not in region and q[0] >= n - 3 and q[1] in allowed})
        if not frontier:
            break
        # prefer staying low (first and second lines)
        weights = [3 if q[0] >= n - 2 else 1 for q in frontier]
        region.add(rng.choices(frontier, weights)[0])
    return region


def random_region(rng: random.Random, max_empty: int = 6, seed: str = "") -> Optional[RandomRegion]:
    """One random region (None when this draw failed to build; callers count and retry)."""
    n = rng.choice((5, 5, 6, 6, 7))
    # the region: grown from a point on the bottom edge (a corner half the time)
    size = rng.randint(2, max_empty + rng.choice((0, 1, 2, 2, 3, 4)))
    start = (n - 1, 0) if rng.random() < 0.5 else (n - 1, rng.randrange(1, n - 1))
    # a quarter of the 6x6 and 7x7 boards get a region of two parts, one in each bottom corner, two columns
    # apart (a sum of two local games once the stones between them are safe); drawn by a second generator,
    # so the one-part regions are the draws they always were
    split = random.Random(f"{seed}:two parts")
    two = n >= 6 and size >= 3 and split.random() < 0.25
    if two:
        start = (n - 1, 0)
    region = _grown(rng, n, {start}, size - (size // 2 if two else 0), range(n) if not two else range(n // 2 - 1))
    if two:
        region |= _grown(split, n, {(n - 1, n - 1)}, size // 2, range(n // 2 + 1, n))
    # the outside split between the colors: a random line through the region's middle
    cr = sum(p[0] for p in region) / len(region)
    cc = sum(p[1] for p in region) / len(region)
    angle = rng.uniform(0, 2 * np.pi)
    dr, dc = np.sin(angle), np.cos(angle)
    grid = np.zeros((n, n), dtype=np.int8)
    outside = [(r, c) for r in range(n) for c in range(n) if (r, c) not in region]
    for p in outside:
        side = (p[0] - cr) * dr + (p[1] - cc) * dc
        grid[p] = BLACK if side > 0 else WHITE
    if rng.random() < 0.15:  # sometimes one color's wall all around (a region inside one color's area)
        color = rng.choice((BLACK, WHITE))
        for p in outside:
            if any(q in region for q in _neighbours(p, n)) and rng.random() < 0.7:
                grid[p] = color
    # each color's outside stones: keep the largest connected part, give the rest to the other color
    for color in (BLACK, WHITE):
        parts = _components({p for p in outside if grid[p] == color}, n)
        parts.sort(key=len, reverse=True)
        for extra in parts[1:]:
            for p in extra:
                grid[p] = -color
    # eyes: outside points away from the region whose outside neighbours are all one color
    for color in (BLACK, WHITE):
        cands = [p for p in outside if grid[p] == color and not any(q in region for q in _neighbours(p, n))
                 and all(grid[q] == color for q in _neighbours(p, n))]
        rng.shuffle(cands)
        eyes = []
        for p in cands:
            if len(eyes) == 2:
                break
            if all(abs(p[0] - e[0]) + abs(p[1] - e[1]) > 1 for e in eyes):
                eyes.append(p)
        for p in eyes:
            grid[p] = EMPTY
    # occasionally an outside empty point next to the region, owned by one color (a breach point)
    if rng.random() < 0.1:
        cands = [p for p in outside if grid[p] != EMPTY and any(q in region for q in _neighbours(p, n))
                 and len({grid[q] for q in _neighbours(p, n) if q not in region} - {EMPTY}) == 1]
        if cands:
            grid[rng.choice(cands)] = EMPTY
    # the stones inside
    pts = sorted(region)
    rng.shuffle(pts)
    n_empty = rng.randint(1, min(max_empty, len(pts)))
    p_black = rng.uniform(0.25, 0.75)
    for k, p in enumerate(pts):
        if k < n_empty:
            grid[p] = EMPTY
        else:
            grid[p] = BLACK if rng.random() < p_black else WHITE
    if not _grid_legal(grid):
        return None
    return RandomRegion(grid, sorted(region), suicide=rng.random() < 0.2, seed=seed)


def accept(reg: RandomRegion):
    """The region's LocalRegion and its root analysis, or a reason it is rejected."""
    board = reg.board()
    try:
        local = LocalRegion(board, reg.region)
        info = local.analyze(local.start[BLACK], local.start[WHITE])
    except RegionNotSealed as e:
        return None, f"not sealed: {e}"
    if info.settled:
        return None, "settled at the root"
    return (board, local), ""


def generate(seed: int, count: int, max_empty: int = 6, max_tries: int = 50):
    """`count` accepted regions from `seed` as (RandomRegion, board, LocalRegion); also the reject counts."""
    out, rejects = [], {}
    k = 0
    while len(out) < count:
        rng = random.Random(f"{seed}:{k}")
        k += 1
        reg = random_region(rng, max_empty, seed=f"{seed}:{k - 1}")
        if reg is None:
            rejects["illegal stones"] = rejects.get("illegal stones", 0) + 1
            continue
        got, why = accept(reg)
        if got is None:
            key = why.split(":")[0] if why.startswith("not sealed") else why
            rejects[key] = rejects.get(key, 0) + 1
            continue
        out.append((reg, *got))
    return out, rejects


# ------------------------------------------------------------------ transforms (metamorphic checks)

def symmetric(reg: RandomRegion, k: int) -> RandomRegion:
    """The k-th of the 8 symmetries of the square board (k = 0 is the identity)."""
    n = reg.grid.shape[0]

    def f(p: Point) -> Point:
        r, c = p
        if k & 4:
            r, c = c, r
        for _ in range(k & 3):
            r, c = c, n - 1 - r
        return r, c

    grid = np.zeros_like(reg.grid)
    for r in range(n):
        for c in range(n):
            grid[f((r, c))] = reg.grid[r, c]
    return RandomRegion(grid, sorted(f(p) for p in reg.region), reg.suicide, reg.seed)


def color_swapped(reg: RandomRegion) -> RandomRegion:
    """Every stone (walls and the region's own) of the other color."""
    return RandomRegion((-reg.grid).astype(np.int8), list(reg.region), reg.suicide, reg.seed)


def translated(reg: RandomRegion, amount: int = 2) -> Optional[RandomRegion]:
    """The same local game moved on a larger board: `amount` rows / columns added beyond the sides of the
    board that the region does not touch, each a copy of the board's edge row / column there (chains,
    eyes and the owners of outside empty points stay as they were). None when the region touches both
    edges of both axes."""
    grid = reg.grid
    h, w = grid.shape
    rows = {p[0] for p in reg.region}
    cols = {p[1] for p in reg.region}
    dy_top = amount if 0 not in rows else 0
    dy_bottom = amount if not dy_top and h - 1 not in rows else 0
    dx_left = amount if 0 not in cols else 0
    dx_right = amount if not dx_left and w - 1 not in cols else 0
    if not (dy_top or dy_bottom or dx_left or dx_right):
        return None
    grid = np.concatenate([np.repeat(grid[:1], dy_top, 0), grid, np.repeat(grid[-1:], dy_bottom, 0)], 0)
    grid = np.concatenate([np.repeat(grid[:, :1], dx_left, 1), grid, np.repeat(grid[:, -1:], dx_right, 1)], 1)
    return RandomRegion(grid.astype(np.int8), sorted((r + dy_top, c + dx_left) for r, c in reg.region), reg.suicide, reg.seed)


# ------------------------------------------------------------------ running the solver and comparing

def available_engine(requested: str = "auto") -> tuple[str, str]:
    """(engine to use, note). 'auto' is the native search when it imports and solves a probe region, else
    'python'; 'native' when it is unavailable comes back as ('', why)."""
    import dataclasses
    import importlib

    from tengen.endgame.exact import ExhaustiveConfig

    if requested == "python":
        return "python", ""
    if "engine" not in {f.name for f in dataclasses.fields(ExhaustiveConfig)}:
        why = "ExhaustiveConfig has no engine setting"
        return ("python", f"native unavailable ({why})") if requested == "auto" else ("", why)
    try:
        importlib.import_module("tengen.endgame.exact.native")
        probe = RandomRegion(np.array([[0, 1, -1, 0], [1, 1, -1, -1], [1, 1, -1, -1], [0, 0, 0, 0]], dtype=np.int8),
                             [(3, 0), (3, 1), (3, 2), (3, 3)])
        got = solve(probe, "native")
        if isinstance(got, str):
            raise RuntimeError(got)
    except Exception as e:  # noqa: BLE001 - any failure of the native engine means: not available
        why = f"{type(e).__name__}: {e}".splitlines()[0]
        return ("python", f"native unavailable ({why})") if requested == "auto" else ("", why)
    return "native", ""


def solve(reg: RandomRegion, engine: str = "python", max_nodes: int = 2_000_000):
    """`solve_region` with a generous node budget and no time limit (results never depend on the machine's
    load); an exception comes back as its one-line text instead of propagating."""
    import dataclasses

    from tengen.endgame.exact import ExhaustiveConfig, solve_region

    kwargs = {"max_nodes": max_nodes, "seconds": None}
    if "engine" in {f.name for f in dataclasses.fields(ExhaustiveConfig)}:
        if engine == "python":  # the Python search, a test oracle beside this reference (devkit.python_search)
            from devkit.python_search import PYTHON

            kwargs["engine"] = PYTHON
        else:
            kwargs["engine"] = engine
    try:
        return solve_region(reg.board(), reg.region, ExhaustiveConfig(**kwargs))
    except Exception as e:  # noqa: BLE001 - a crash is reported as a disagreement, never raised
        return f"error: {type(e).__name__}: {e}".splitlines()[0]


def part_points(local: LocalRegion) -> list[list[Point]]:
    """The region's independent parts at the start (`LocalRegion.independent_part_masks`) as point lists."""
    return [[local.points[i] for i in _bits(part)]
            for part in local.independent_part_masks(local.start[BLACK], local.start[WHITE])]


def _clean(res) -> bool:
    """A value with no caveat (no ko or repetition valued by a convention of its own)."""
    return not isinstance(res, str) and res.status == "ok" and not (res.ko_dependent or res.loop_dependent
                                                                    or res.ko_fixed_point or res.kind == "ko")


def sum_check(reg: RandomRegion, local: LocalRegion, res, engine: str = "python") -> tuple[str, Optional[str]]:
    """A region that is a sum of independent parts at the start, checked as a sum: each part solved alone (the
    other parts' points then outside, the safe stones between them walls), the whole's mean must be the parts'
    means added (thermograph means add over a sum) plus the count of the region's safe stones (each counts for
    its colour whatever is played), and its temperature at most the hottest part's (the temperature of a sum
    never exceeds its hottest component's). (what was checked, why it fails or None)."""
    parts = part_points(local)
    if len(parts) < 2:
        return "one part", None
    if not _clean(res):
        return "valued by a ko or repetition convention", None
    solved = []
    for points in parts:
        got = solve(RandomRegion(reg.grid, sorted(points), reg.suicide, reg.seed), engine)
        if not _clean(got):
            return "a part not valued alone without a caveat", None
        solved.append(got)
    safe, _ = local.safe_and_unsafe(local.start[BLACK], local.start[WHITE])
    stones = safe[BLACK].bit_count() - safe[WHITE].bit_count()
    if any(p.mean is None or p.temperature is None for p in solved) or res.mean is None:
        return "an unbounded part", None
    mean = sum(p.mean for p in solved) + stones
    if res.mean != mean:
        return "checked", f"sum: mean {res.mean}, the parts' {' + '.join(str(p.mean) for p in solved)} + {stones} safe = {mean}"
    if res.temperature > max(p.temperature for p in solved):
        return "checked", (f"sum: temperature {res.temperature} above the hottest part's "
                           f"{max(p.temperature for p in solved)}")
    return "checked", None


def _describe(res) -> str:
    if isinstance(res, str):
        return res
    out = f"{res.status} {res.kind} mean {res.mean} temperature {res.temperature}{res.caveats()}"
    if res.status != "ok" and res.reason:
        out += f" ({res.reason})"
    return out


def against_reference(ref: ReferenceResult, res) -> Optional[str]:
    """Why the solver's result `res` disagrees with the reference (None when it agrees). Where the
    reference is determined: status ok, no ko / loop caveat, equal kind, mean, temperature and walls.
    Where it is undetermined and the solver claims a value with no caveat (or only that of a ko valued by
    the phantom rule's fixed point, which is bracket-bound too), that value's mean must lie in the
    reference's bracket. A reference too large checks nothing."""
    if isinstance(res, str):
        return res
    if ref.status == DETERMINED:
        v = ref.value
        if res.status != "ok":
            return f"solver {res.status}: {res.reason}"
        if res.ko_dependent or res.loop_dependent:
            return "solver caveat where the reference is determined:" + res.caveats()
        for name in ("kind", "mean", "temperature"):
            if getattr(res, name) != getattr(v, name):
                return f"{name}: solver {getattr(res, name)}, reference {getattr(v, name)}"
        if not res.thermograph.same_thermograph(v):
            return f"walls: solver {res.thermograph.left} | {res.thermograph.right}, reference {v.left} | {v.right}"
        return None
    if ref.status == UNDETERMINED and res.status == "ok" and not (res.ko_dependent or res.loop_dependent):
        lo, hi = ref.low.mean, ref.high.mean
        if None not in (lo, hi, res.mean) and not lo <= res.mean <= hi:
            return f"solver mean {res.mean} outside the reference's bracket {lo}..{hi}"
    return None


def outside_bracket(ref: ReferenceResult, res) -> bool:
    """A solver value with a ko / loop caveat outside the reference's bracket (informational: those
    conventions, the ko's taker winning it and nobody winning a repetition, are not bracket-bound)."""
    if ref.status != UNDETERMINED or isinstance(res, str) or res.status != "ok":
        return False
    lo, hi = ref.low.mean, ref.high.mean
    return None not in (lo, hi, res.mean) and not lo <= res.mean <= hi


_SWAP_KIND = {"black_sente": "white_sente", "white_sente": "black_sente"}


def same_result(a, b, swapped: bool = False) -> Optional[str]:
    """Why two solves of transformed copies of a region differ (None when they agree); `swapped`: b is of
    the color-swapped region (mean negated, black_sente <-> white_sente, walls mirrored)."""
    if isinstance(a, str) or isinstance(b, str):
        return None if a == b else f"{_describe(a)} vs {_describe(b)}"
    if a.status != b.status:
        return f"status {a.status} vs {b.status}"
    if a.status != "ok":
        return None
    if (a.ko_dependent, a.loop_dependent, a.ko_fixed_point) != (b.ko_dependent, b.loop_dependent, b.ko_fixed_point):
        return f"caveats{a.caveats() or ' none'} vs{b.caveats() or ' none'}"
    kind = _SWAP_KIND.get(b.kind, b.kind) if swapped else b.kind
    mean = None if b.mean is None else (-b.mean if swapped else b.mean)
    if a.kind != kind or a.mean != mean or a.temperature != b.temperature:
        return f"{a.kind} {a.mean} t {a.temperature} vs {b.kind} {b.mean} t {b.temperature}"
    ta, tb = a.thermograph, b.thermograph
    if swapped:
        same = ta.left == tb.right.negated() and ta.right == tb.left.negated()
    else:
        same = ta.same_thermograph(tb)
    if not same:
        return f"walls {ta.left} | {ta.right} vs {tb.left} | {tb.right}"
    return None


TRANSFORMS = tuple([f"symmetry {k}" for k in range(1, 8)] + ["color swap", "translation"])


def transformed(reg: RandomRegion, name: str) -> Optional[RandomRegion]:
    """The region under one of TRANSFORMS (None: translation impossible)."""
    if name == "color swap":
        return color_swapped(reg)
    if name == "translation":
        return translated(reg)
    return symmetric(reg, int(name.split()[1]))


def metamorphic(reg: RandomRegion, base, engine: str = "python", transforms=TRANSFORMS) -> list[tuple[str, str]]:
    """[(transform, why)] for each transform of the region whose solve differs from `base` (its solve):
    the symmetries and the translation change nothing, the color swap negates."""
    out = []
    for name in transforms:
        other = transformed(reg, name)
        if other is None:
            continue
        why = same_result(base, solve(other, engine), swapped=name == "color swap")
        if why:
            out.append((name, why))
    return out
