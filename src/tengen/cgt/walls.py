"""Exact piecewise-linear functions of the temperature t >= 0: the walls and scaffolds of thermographs.

A `Wall` is a tuple of segments (t0, v0, slope): on [t0, next t0) the value is v0 + slope * (t - t0); the
last segment runs to infinity. Values are Fractions; a constant +-inf wall stands for a threat.
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Iterable, Optional

from tengen.cgt.numbers import Value, is_infinite

ZERO = 0  # values and breakpoints are ints where integral (much faster than Fraction), Fractions otherwise
Segment = tuple[Fraction, Value, Fraction]


def _small(x):
    """An integral Fraction as an int (ints keep the arithmetic fast); anything else unchanged."""
    return x.numerator if type(x) is Fraction and x.denominator == 1 else x


def _ratio(a, b):
    """a / b exactly: an int when it divides, else a Fraction (never a float)."""
    if isinstance(a, int) and isinstance(b, int):
        q, r = divmod(a, b)
        return q if r == 0 else Fraction(a, b)
    x = Fraction(a) / b
    return x.numerator if x.denominator == 1 else x


class Wall:
    """A continuous piecewise-linear function on [0, inf) with exact breakpoints (immutable)."""

    __slots__ = ("segs", "_hash")

    def __init__(self, segs: Iterable[Segment]):
        self.segs: tuple[Segment, ...] = _normalise(tuple(segs))
        self._hash: Optional[int] = None

    # ------------------------------------------------------------ construction
    @classmethod
    def const(cls, v: Value) -> "Wall":
        """The vertical wall (a mast) at value v."""
        return cls(((ZERO, v, 0),))

    @property
    def infinite(self) -> bool:
        return is_infinite(self.segs[0][1])

    # ------------------------------------------------------------ evaluation
    def _index(self, t: Fraction) -> int:
        i = 0
        for j, (t0, _, _) in enumerate(self.segs):
            if t0 <= t:
                i = j
            else:
                break
        return i

    def at(self, t: Fraction) -> Value:
        """The value at temperature t."""
        t0, v0, s = self.segs[self._index(t)]
        return v0 if is_infinite(v0) else v0 + s * (t - t0)

    def slope_below(self, t: Fraction) -> Fraction:
        """The slope just below t (t > 0)."""
        i = 0
        for j, (t0, _, _) in enumerate(self.segs):
            if t0 < t:
                i = j
        return self.segs[i][2]

    def breakpoints(self) -> list[Fraction]:
        return [s[0] for s in self.segs]

    def points(self, t_max: Fraction) -> list[tuple[Fraction, Value]]:
        """(t, value) at every breakpoint below t_max and at t_max: the polyline to draw."""
        pts = [(t0, self.at(t0)) for t0, _, _ in self.segs if t0 < t_max]
        pts.append((t_max, self.at(t_max)))
        return pts

    # ------------------------------------------------------------ algebra
    def shifted(self, k: int | Fraction) -> "Wall":
        """t -> value(t) + k * t (k = -1 taxes a Left option, +1 a Right option)."""
        if self.infinite:
            return self
        return Wall((t0, v0 + k * t0, s + k) for t0, v0, s in self.segs)

    def negated(self) -> "Wall":
        return Wall((t0, -v0, -s) for t0, v0, s in self.segs)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Wall) and self.segs == other.segs

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self.segs)
        return self._hash

    def __repr__(self) -> str:
        return "Wall(" + ", ".join(f"[{t0}: {v0}{_slope_text(s)}]" for t0, v0, s in self.segs) + ")"


def _slope_text(s: Fraction) -> str:
    return "" if s == 0 else (f" +{s}t" if s > 0 else f" {s}t")


def _normalise(segs: tuple[Segment, ...]) -> tuple[Segment, ...]:
    """Merge collinear neighbours; infinite walls become a single constant segment."""
    if not segs:
        raise ValueError("empty wall")
    if is_infinite(segs[0][1]):
        return ((ZERO, segs[0][1], 0),)
    out: list[Segment] = []
    for t0, v0, s in segs:
        t0, v0 = _small(t0), _small(v0)
        if out:
            pt0, pv0, ps = out[-1]
            if ps == s and pv0 + ps * (t0 - pt0) == v0:
                continue
        out.append((t0, v0, s))
    return tuple(out)


def _merged(a: Wall, b: Wall):
    """Yield (start, end or None, value_a, slope_a, value_b, slope_b) over the common refinement."""
    sa, sb = a.segs, b.segs
    i = j = 0
    na, nb = len(sa), len(sb)
    t = ZERO
    while True:
        a0, av, asl = sa[i]
        b0, bv, bsl = sb[j]
        ta = sa[i + 1][0] if i + 1 < na else None
        tb = sb[j + 1][0] if j + 1 < nb else None
        end = ta if tb is None else (tb if ta is None else min(ta, tb))
        yield t, end, (av if a0 == t else av + asl * (t - a0)), asl, (bv if b0 == t else bv + bsl * (t - b0)), bsl
        if end is None:
            return
        t = end
        if ta == end:
            i += 1
        if tb == end:
            j += 1


def wall_max(a: Wall, b: Wall) -> Wall:
    """Pointwise maximum of two walls (returns one of the inputs when it dominates)."""
    if a is b:
        return a
    if a.infinite or b.infinite:
        if a.infinite and a.segs[0][1] > 0 or b.infinite and b.segs[0][1] < 0:
            return a
        return b
    out: list[Segment] = []
    from_a = from_b = True
    for start, end, va, sa, vb, sb in _merged(a, b):
        first_a = va > vb or (va == vb and sa >= sb)
        if first_a:
            v_hi, s_hi, v_lo, s_lo = va, sa, vb, sb
        else:
            v_hi, s_hi, v_lo, s_lo = vb, sb, va, sa
        if va != vb or sa != sb:
            if first_a:
                from_b = False
            else:
                from_a = False
        out.append((start, v_hi, s_hi))
        if s_lo > s_hi:  # the lower one overtakes at c
            c = start + _ratio(v_hi - v_lo, s_lo - s_hi)
            if end is None or c < end:
                out.append((c, v_hi + s_hi * (c - start), s_lo))
                from_a = from_b = False
    if from_a:
        return a
    if from_b:
        return b
    return Wall(out)


def wall_min(a: Wall, b: Wall) -> Wall:
    """Pointwise minimum of two walls."""
    return wall_max(a.negated(), b.negated()).negated()


def walls_max(walls: Iterable[Wall], default: Value) -> Wall:
    """Maximum of many walls (a constant `default` wall when there are none)."""
    out: Optional[Wall] = None
    for w in walls:
        out = w if out is None else wall_max(out, w)
    return Wall.const(default) if out is None else out


def walls_min(walls: Iterable[Wall], default: Value) -> Wall:
    """Minimum of many walls (a constant `default` wall when there are none)."""
    out: Optional[Wall] = None
    for w in walls:
        out = w if out is None else wall_min(out, w)
    return Wall.const(default) if out is None else out


def first_crossing(left: Wall, right: Wall) -> Value:
    """The least t >= 0 where the left scaffold (non-increasing) meets the right one (non-decreasing);
    inf when they never meet (an unanswered threat keeps the game infinitely hot)."""
    if (left.infinite and left.segs[0][1] > 0) or (right.infinite and right.segs[0][1] < 0):
        return math.inf
    if left.infinite or right.infinite:
        return ZERO
    for start, end, vl, sl, vr, sr in _merged(left, right):
        gap = vl - vr
        if gap <= 0:
            return start
        closing = sr - sl
        if closing > 0:
            c = start + _ratio(gap, closing)
            if end is None or c <= end:
                return c
    return math.inf
