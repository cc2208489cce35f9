"""Exact numeric values for CGT leaves: Fractions plus the two threat infinities, and the simplicity rule.

A `Value` is a `fractions.Fraction` or one of the floats `INF` / `-INF` (a "threat" leaf). Finite floats
are never stored: `to_value` turns ints, strings and floats into Fractions exactly.
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Union

Value = Union[Fraction, float]  # float only for +-inf

INF = math.inf
NEG_INF = -math.inf


def to_value(x: object) -> Value:
    """Parse an int, Fraction, float, or string ('3', '-2/3', '+inf', '-inf', 'inf', '∞') into a Value."""
    if isinstance(x, Fraction):
        return x
    if isinstance(x, bool):
        raise TypeError("a bool is not a game value")
    if isinstance(x, int):
        return Fraction(x)
    if isinstance(x, float):
        if math.isnan(x):
            raise ValueError("NaN is not a game value")
        return x if math.isinf(x) else Fraction(x)
    if isinstance(x, str):
        s = x.strip().replace("\u2212", "-").replace(" ", "")
        sign = -1 if s.startswith("-") else 1
        body = s.lstrip("+-")
        if body in ("inf", "infinity", "\u221e", "oo"):
            return INF if sign > 0 else NEG_INF
        return Fraction(s)
    raise TypeError(f"not a game value: {x!r}")


def is_infinite(x: Value) -> bool:
    """True for the threat values +-inf."""
    return isinstance(x, float) and math.isinf(x)


def is_dyadic(x: Value) -> bool:
    """True for finite numbers whose denominator is a power of two (the numbers of short games)."""
    if is_infinite(x):
        return False
    d = x.denominator
    return d & (d - 1) == 0


def format_value(x: Value) -> str:
    """'3', '-2/3', '+inf', '-inf'."""
    if is_infinite(x):
        return "+inf" if x > 0 else "-inf"
    return str(x)


def add_values(a: Value, b: Value) -> Value:
    """a + b; a threat absorbs any finite value; +inf + -inf is an error (two opposite unanswered threats)."""
    if is_infinite(a) and is_infinite(b) and a != b:
        raise ValueError("cannot add +inf and -inf threats")
    return a + b


def simplest_between(lo: Value, hi: Value, lo_closed: bool = False, hi_closed: bool = False) -> Value:
    """The simplest number in the interval from lo to hi (ends open unless `*_closed`); ValueError if empty.

    Simplicity theorem: 0 if it fits, else the integer nearest 0, else the dyadic with the smallest
    denominator. A closed single-point interval [x, x] gives x even when x is not dyadic.
    """
    if lo > hi or (lo == hi and not (lo_closed and hi_closed)):
        raise ValueError(f"empty interval {lo}..{hi}")
    if lo == hi:
        return lo

    def inside(x: Fraction) -> bool:
        above = x > lo or (lo_closed and x == lo)
        below = x < hi or (hi_closed and x == hi)
        return above and below

    if inside(Fraction(0)):
        return Fraction(0)
    if hi <= 0:  # mirror the negative case
        return -simplest_between(-hi, -lo, hi_closed, lo_closed)
    # 0 < lo < hi (or lo == 0 open); lo is finite here
    n = Fraction(math.floor(lo) + 1)
    if lo_closed and lo == math.floor(lo):
        n = Fraction(math.floor(lo))
    if inside(n):
        return n
    # no integer fits: the interval sits inside (k, k + 1); halve until a dyadic fits
    denom = 2
    while True:
        k = math.floor(lo * denom)
        for cand in (Fraction(k, denom), Fraction(k + 1, denom)):
            if inside(cand):
                return cand
        denom *= 2


def number_temperature(x: Value) -> Fraction:
    """Conway temperature of a number: -1/2^k for a dyadic with denominator 2^k (k >= 1), else -1."""
    if is_infinite(x) or not is_dyadic(x) or x.denominator == 1:
        return Fraction(-1)
    return Fraction(-1, x.denominator)


def number_options(x: Value) -> tuple[tuple[Value, ...], tuple[Value, ...]] | None:
    """Canonical (left, right) options of a dyadic number (n = {n-1|}, p/2^k = {(p-1)/2^k | (p+1)/2^k});
    None for non-dyadic numbers and threats, which have no short canonical form."""
    if not is_dyadic(x):
        return None
    if x.denominator == 1:
        if x > 0:
            return (x - 1,), ()
        if x < 0:
            return (), (x + 1,)
        return (), ()
    step = Fraction(1, x.denominator)
    return (x - step,), (x + step,)
