"""A move of the user's own in a solved diagram's region (issue 59, item 3), worth what against the best.
The exact solver values the region after that move and after the best one; what each leaves is read off
its thermograph where the opponent moves next (Black's move: the right wall, White's: the left), at the
region's temperature before the move (where a move there is due: the loss a player reads) and at 0 (the
region played out alone). The loss is the best move's value less the move's, from the mover's side."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Optional, Sequence

from tengen.cgt.numbers import is_infinite
from tengen.endgame.review import describe_kind
from tengen.go.colors import BLACK
from tengen.go.coords import Move, to_gtp

SAME = 0.005  # values this close are equal (the solver's values are exact; this absorbs float rounding)


@dataclass(frozen=True)
class After:
    """The region after a move: its count (mean), temperature and kind, and with the opponent to move its
    value at the region's temperature before the move (`due`) and at 0 (`alone`); None where unknown."""

    count: Optional[float]
    temperature: Optional[float]
    kind: str
    due: Optional[float]
    alone: Optional[float]


def after_move(regions: Sequence[Any], mover: int, temperature: float) -> After:
    """The marked region after `mover`'s move, from its analysis's regions (one region with a thermograph:
    the walls are read; several, where the move split it: their counts add and no wall is read)."""
    if not regions or any(r.count is None or r.temperature is None for r in regions):
        return After(None, None, "unsolved", None, None)
    hottest = max(regions, key=lambda r: r.temperature)
    count, hot = sum(r.count for r in regions), max(r.temperature for r in regions)
    thermo = regions[0].thermograph if len(regions) == 1 else None
    if thermo is None:
        return After(count, hot, hottest.kind, None, None)
    wall = thermo.right if mover == BLACK else thermo.left  # the opponent moves next

    def at(t: float) -> Optional[float]:
        value = wall.at(Fraction(t).limit_denominator(10_000))
        return None if is_infinite(value) else float(value)

    return After(count, hot, hottest.kind, at(max(0.0, temperature)), at(0.0))


def worth(move: Move, color: int, yours: After, best: Optional[Move], best_after: Optional[After],
          temperature: float, height: int) -> dict[str, Any]:
    """What `move` by `color` is worth against `best` (the solver's best move there) in a region of
    `temperature`, given the region after each (`after_move`)."""
    where, mover = to_gtp(move, height), "Black" if color == BLACK else "White"
    sign = 1 if color == BLACK else -1
    out: dict[str, Any] = {"move": where, "color": "B" if color == BLACK else "W", "temperature": temperature,
                           "best": None if best is None else to_gtp(best, height), "loss": None, "loss_alone": None,
                           "after": vars(yours), "best_after": None if best_after is None else vars(best_after)}
    if yours.count is None:
        out["reason"] = f"The exact solver gives no value for the region after {mover} {where}."
        return out
    left = (f"after {mover} {where} the region counts {yours.count:+.1f} (Black's side) with temperature "
            f"{yours.temperature:.1f} ({describe_kind(yours.kind, -color)} for the opponent)")
    if best is None or best_after is None or best_after.due is None or yours.due is None:
        out["reason"] = f"{left[0].upper()}{left[1:]}; no value of the best move's to compare it with."
        return out
    best_where = to_gtp(best, height)
    loss = sign * (best_after.due - yours.due)
    alone = None if best_after.alone is None or yours.alone is None else sign * (best_after.alone - yours.alone)
    out["loss"] = round(max(0.0, loss), 2)
    out["loss_alone"] = None if alone is None else round(alone, 2)
    at_t = f"at the region's temperature, {temperature:.1f}"
    played_out = "" if alone is None or abs(alone) < SAME else (
        f" Played out alone (nothing else on the board), it {'loses' if alone > 0 else 'gains'} {abs(alone):.1f} "
        f"against {best_where}.")
    if move == best:
        out["reason"] = f"The best move: {left}."
    elif abs(loss) < SAME:
        out["reason"] = (f"As good as the best move, {best_where}, {at_t}: {left}, the opponent to move getting the same "
                         f"{yours.due:+.1f} as after {best_where}.{played_out}")
    else:
        out["reason"] = (f"{where} {'loses' if loss > 0 else 'gains'} {abs(loss):.1f} point(s) against {best_where} "
                         f"{at_t}: {left}; with the opponent to move it comes to {yours.due:+.1f}, against "
                         f"{best_after.due:+.1f} after {best_where}.{played_out}")
    return out
