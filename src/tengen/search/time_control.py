"""How many seconds a move may take under GTP's clock (pure: no clock is read here).

GTP's `time_settings main_time byo_yomi_time byo_yomi_stones` is Canadian overtime: after the main time,
each period of `byo_yomi_time` seconds must hold `byo_yomi_stones` moves. `byo_yomi_time > 0` with
`byo_yomi_stones = 0` means no limit (GTP 2, section 6.3.4); so does `0 0 0` here (an absolute time of
nothing is read as no clock, as controllers send it to say "untimed"). `time_left color time stones`
reports the clock: `stones = 0` while in main time, else the time and stones left in the current period.

The budget: in byo-yomi, the period's time shared by its stones left; in main time, the time left shared by
the moves the player still expects to make (from how empty the board is), plus one stone's share of a
byo-yomi period when one follows; never more than half the main time left when no byo-yomi follows. A
safety margin (network lag, the controller's own overhead) is kept back from every figure.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

MOVES_PER_EMPTY_POINT = 0.35  # own moves still expected per empty point (a 19x19 game: ~125 each)
MIN_MOVES_LEFT = 8  # never plan on fewer own moves than this while in main time
LAG_SECONDS = 1.0  # kept back from each budget (at most a quarter of the time left)
MIN_SECONDS = 0.05  # the shortest budget given: a search needs at least its root evaluation


@dataclass(frozen=True)
class TimeSettings:
    """GTP `time_settings` (seconds, seconds, stones)."""

    main_time: float
    byo_yomi_time: float = 0.0
    byo_yomi_stones: int = 0

    def __post_init__(self) -> None:
        if not (math.isfinite(self.main_time) and math.isfinite(self.byo_yomi_time)):
            raise ValueError("times must be finite")
        if self.main_time < 0 or self.byo_yomi_time < 0 or self.byo_yomi_stones < 0:
            raise ValueError("times and stones cannot be negative")

    @property
    def unlimited(self) -> bool:
        """No time limit: byo-yomi time with no stones (GTP's convention), or all zero."""
        return (self.byo_yomi_time > 0 and self.byo_yomi_stones == 0) or (
            self.main_time == 0 and self.byo_yomi_time == 0 and self.byo_yomi_stones == 0)

    @property
    def has_byo_yomi(self) -> bool:
        return self.byo_yomi_time > 0 and self.byo_yomi_stones > 0


def expected_moves_left(empty_points: int, board_points: int) -> float:
    """Own moves still to come, judged from the empty points (at least MIN_MOVES_LEFT)."""
    empty = min(max(empty_points, 0), max(board_points, 1))
    return max(float(MIN_MOVES_LEFT), MOVES_PER_EMPTY_POINT * empty)


def _usable(seconds: float, lag: float) -> float:
    """`seconds` less the safety margin (the lag, at most a quarter of them)."""
    return max(0.0, seconds - min(lag, 0.25 * seconds))


def seconds_for_move(settings: Optional[TimeSettings], time_left: Optional[tuple[float, int]] = None,
                     empty_points: int = 361, board_points: int = 361, lag: float = LAG_SECONDS,
                     min_seconds: float = MIN_SECONDS) -> Optional[float]:
    """The seconds this move may take, or None when there is no clock (search by visits alone).

    settings: the game's `time_settings` (None: none given). time_left: the player's last `time_left`
    (seconds, stones); None before any, when the whole main time (or a first period) is left.
    empty_points / board_points: how far the game has gone."""
    if settings is None or settings.unlimited:
        return None
    if time_left is None:
        if settings.main_time > 0:
            time_left = (settings.main_time, 0)
        else:
            time_left = (settings.byo_yomi_time, settings.byo_yomi_stones)
    seconds, stones = max(float(time_left[0]), 0.0), max(int(time_left[1]), 0)
    if stones > 0:  # in a byo-yomi period: share what is left of it among its stones
        budget = _usable(seconds, lag) / stones
    else:
        share = _usable(seconds, lag) / expected_moves_left(empty_points, board_points)
        if settings.has_byo_yomi:
            # main time runs into byo-yomi: one stone's share of a period can be spent on top
            budget = share + _usable(settings.byo_yomi_time, lag) / settings.byo_yomi_stones
        else:
            budget = min(share, 0.5 * _usable(seconds, lag))
    return max(budget, min_seconds)
