"""Fixed handicap placements (GTP v2 section 4.1.1) for odd board sizes 7..25."""
from __future__ import annotations

from tengen.go.coords import Point



def max_fixed_handicap(size: int) -> int:
    """Largest fixed handicap the GTP spec defines for a board side (0 where none)."""
    if size < 7:
        return 0
    if size == 7 or size % 2 == 0:
        return 4
    return 9


def fixed_handicap_points(size: int, stones: int) -> list[Point]:
    """The GTP fixed handicap points for `stones` stones on a `size` board (ValueError if undefined)."""
    if stones < 2 or stones > max_fixed_handicap(size):
        raise ValueError(f"invalid handicap {stones} for a {size}x{size} board")
    edge = 2 if size <= 12 else 3
    lo, hi, mid = edge, size - 1 - edge, size // 2
    # GTP order (19x19): 2 = D4 Q16; 3 + D16; 4 + Q4; 5 + K10; 6 = 4 + D10 Q10; 7 = 6 + K10; 8 = 6 + K4 K16; 9 = 8 + K10
    d4, q16, q4, d16 = (hi, lo), (lo, hi), (hi, hi), (lo, lo)
    center = (mid, mid)
    d10, q10, k4, k16 = (mid, lo), (mid, hi), (hi, mid), (lo, mid)
    table = {
        2: [d4, q16], 3: [d4, q16, d16], 4: [d4, q16, d16, q4], 5: [d4, q16, d16, q4, center],
        6: [d4, q16, d16, q4, d10, q10], 7: [d4, q16, d16, q4, d10, q10, center],
        8: [d4, q16, d16, q4, d10, q10, k4, k16], 9: [d4, q16, d16, q4, d10, q10, k4, k16, center],
    }
    return table[stones]
