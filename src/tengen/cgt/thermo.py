"""Thermography: the record of one game built from its options' records (no game tree needed).

`combine(lefts, rights)` is the whole algorithm: number detection by the simplicity theorem (exact, with
the infinitesimal tie-breaks carried as two flags), then scaffolds taxed by t, their first crossing
(temperature), the mast (mean), and the gote / sente classification from the wall slopes just below the
temperature. `tengen.cgt.game.Game` and the exhaustive Go solver both use it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from fractions import Fraction
from typing import Optional, Sequence

from tengen.cgt.numbers import INF, NEG_INF, Value, is_infinite, number_temperature, simplest_between
from tengen.cgt.walls import Wall, first_crossing, wall_max, wall_min, walls_max, walls_min

# Classification names (see tengen.cgt.__init__ for their meaning).
NUMBER = "number"
INFINITESIMAL = "infinitesimal"
GOTE = "gote"
BLACK_SENTE = "black_sente"  # Black's move is sente; White's move there is reverse sente
WHITE_SENTE = "white_sente"  # White's move is sente; Black's move there is reverse sente
KO = "ko"
UNBOUNDED = "unbounded"  # an unanswered threat: no finite temperature
KINDS = (NUMBER, INFINITESIMAL, GOTE, BLACK_SENTE, WHITE_SENTE, KO, UNBOUNDED)


@dataclass(frozen=True)
class Thermo:
    """Thermograph and stops of one game.

    left / right: the walls (Black = Left = positive values); temperature: where they meet (a negative
    Conway temperature for numbers, inf when a threat stays unanswered); mean: the mast (None if
    unbounded); number: the game's value when it is a number; ls / rs: Left and Right stops;
    ge_rs / le_ls: whether G >= its right stop and G <= its left stop (decides infinitesimal ties in
    number detection); kind: one of KINDS (never 'ko' here; kos are labelled by the tree layer).
    """

    left: Wall
    right: Wall
    temperature: Value
    mean: Optional[Value]
    number: Optional[Value]
    ls: Value
    rs: Value
    ge_rs: bool
    le_ls: bool
    kind: str

    @cached_property
    def right_taxed(self) -> Wall:
        """RW(t) - t: this game's contribution to the left scaffold of a game it is a Left option of."""
        return self.right.shifted(-1)

    @cached_property
    def left_taxed(self) -> Wall:
        """LW(t) + t: the contribution to a right scaffold."""
        return self.left.shifted(1)

    @property
    def is_number(self) -> bool:
        return self.number is not None

    def same_thermograph(self, other: "Thermo") -> bool:
        """Equal walls, stops and number-ness (what a thermographic computation can see)."""
        return (self.left == other.left and self.right == other.right and self.number == other.number
                and self.ge_rs == other.ge_rs and self.le_ls == other.le_ls)


_NUMBER_CACHE: dict[Value, Thermo] = {}


def number_thermo(x: Value) -> Thermo:
    """The record of the number x (a vertical mast at x)."""
    rec = _NUMBER_CACHE.get(x)
    if rec is None:
        w = Wall.const(x)
        rec = Thermo(w, w, number_temperature(x), x, x, x, x, True, True, NUMBER)
        if len(_NUMBER_CACHE) < 100_000:
            _NUMBER_CACHE[x] = rec
    return rec


def combine(lefts: Sequence[Thermo], rights: Sequence[Thermo]) -> Thermo:
    """The record of {lefts | rights} computed from the options' records."""
    ls0: Value = max((o.rs for o in lefts), default=NEG_INF)
    rs0: Value = min((o.ls for o in rights), default=INF)
    if ls0 == INF and rs0 == INF:
        return number_thermo(INF)
    if ls0 == NEG_INF and rs0 == NEG_INF:
        return number_thermo(NEG_INF)
    # number detection: G = simplest x with every G^L <| x <| every G^R
    lo_closed = not is_infinite(ls0) and not any(o.ge_rs for o in lefts if o.rs == ls0)
    hi_closed = not is_infinite(rs0) and not any(o.le_ls for o in rights if o.ls == rs0)
    if ls0 < rs0 or (ls0 == rs0 and lo_closed and hi_closed):
        return number_thermo(simplest_between(ls0, rs0, lo_closed, hi_closed))
    ge_rs = not any(o.le_ls for o in rights if o.ls == rs0)
    le_ls = not any(o.ge_rs for o in lefts if o.rs == ls0)
    # an option whose mast is no better than another option's stop is dominated wall for wall
    # (RW(o) <= mean(o) <= ls0 = RS(best) <= RW(best)); options reaching the stop are kept for the flags
    lefts = [o for o in lefts if o.rs == ls0 or o.mean is None or o.mean > ls0] or lefts
    rights = [o for o in rights if o.ls == rs0 or o.mean is None or o.mean < rs0] or rights
    left_scaffold = walls_max((o.right_taxed for o in lefts), NEG_INF)
    right_scaffold = walls_min((o.left_taxed for o in rights), INF)
    t = first_crossing(left_scaffold, right_scaffold)
    if t == math.inf:
        return Thermo(left_scaffold, right_scaffold, INF, None, None, ls0, rs0, ge_rs, le_ls, UNBOUNDED)
    mean = left_scaffold.at(t)
    lw = wall_max(left_scaffold, Wall.const(mean))
    rw = wall_min(right_scaffold, Wall.const(mean))
    if t == 0:
        kind = INFINITESIMAL
    else:
        sl, sr = lw.slope_below(t), rw.slope_below(t)
        if sl == 0 and sr != 0:
            kind = BLACK_SENTE
        elif sr == 0 and sl != 0:
            kind = WHITE_SENTE
        else:
            kind = GOTE
    return Thermo(lw, rw, t, mean, None, ls0, rs0, ge_rs, le_ls, kind)


def orthodox_indices(lefts: Sequence[Thermo], rights: Sequence[Thermo], g: Thermo) -> tuple[list[int], list[int]]:
    """Indices of the options that make the walls just below the temperature (the orthodox moves).

    For numbers and infinitesimals: the options reaching the stops. For unbounded games: the options
    whose taxed walls are best at a temperature above every breakpoint.
    """
    if g.is_number or g.temperature == 0:
        li = [i for i, o in enumerate(lefts) if o.rs == g.ls]
        ri = [i for i, o in enumerate(rights) if o.ls == g.rs]
        return li, ri
    if g.temperature == math.inf:
        bps = [b for o in (*lefts, *rights) for w in (o.left, o.right) for b in w.breakpoints()]
        probe = max(bps, default=Fraction(0)) + 1
        lv = [o.right.at(probe) for o in lefts]
        rv = [o.left.at(probe) for o in rights]
        return ([i for i, v in enumerate(lv) if v == max(lv)] if lv else [],
                [i for i, v in enumerate(rv) if v == min(rv)] if rv else [])
    t = g.temperature
    li = [i for i, o in enumerate(lefts)
          if o.right.at(t) - t == g.mean and o.right.slope_below(t) - 1 == g.left.slope_below(t)]
    ri = [i for i, o in enumerate(rights)
          if o.left.at(t) + t == g.mean and o.left.slope_below(t) + 1 == g.right.slope_below(t)]
    return li, ri
