"""How reports write a number for a player, in one place (the table, GoGui's labels, the review's text):
at most `digits` decimals without trailing zeros ("2.25", "-6", "0.5"), "inf" / "-inf" for a threat, and
"-" for no value."""
from __future__ import annotations

import math
from typing import Optional


def figure(x: Optional[float], digits: int = 2) -> str:
    """`x` as a report writes it ("-" for None or NaN)."""
    if x is None or x != x:
        return "-"
    if x in (math.inf, -math.inf):
        return "inf" if x > 0 else "-inf"
    return f"{x:.{digits}f}".rstrip("0").rstrip(".") if x != int(x) else f"{int(x)}"
