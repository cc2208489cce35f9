"""Dynamic komi: the komi each search of tengen's runs under, moved away from the game's real komi so that
the search sees a balanced game (handicap games, one-sided positions), as in Wu et al. (2018).

Source: Ti-Rong Wu, I-Chen Wu, Guan-Wun Chen, Ting-han Wei, Hung-Chun Wu, Tung-Yi Lai, Li-Cheng Lan,
"Multi-Labelled Value Networks for Computer Go", IEEE Transactions on Games 10(4), 2018 (arXiv 1705.10701),
its dynamic-komi section: SS (score-situational) and VS (value-situational) after Baudiš ("Balancing MCTS
by dynamically adjusting the komi value", ICGA Journal 2011, implemented in Pachi's `uct/dynkomi.c`), and
its own ML-DK (multi-labelled dynamic komi) over the 41-komi win-rate curve.

Wu et al.'s text on dynamic komi could not be retrieved while this was written (the stored copies reachable
held only its abstract and introduction), so the formulas are the best-documented forms, each with where it
comes from:

* komi rate  r(t) = (1 + exp(-c*s)) / (1 + exp(c*(t/B - s))),  c = 8, s = 0.45, B = 361 (Wu et al.'s
  constants). It is Pachi's sigmoid adapter (`adapter_sigmoid` in `uct/dynkomi.c`: 1 / (1 + exp(-rate *
  (game portion - phase)))) with the game portion t/B, turned to fall with t and scaled so that r(0) = 1:
  whole steps at the start, almost none past the end of a game (r(B) ~ 0.012). The form handed down with
  the task, (1 + exp(c*s)) / (1 + exp(c*(t/B - s))), gives r(0) = exp(c*s) ~ 36.6, not 1, so its numerator
  is read as the normalising 1 + exp(-c*s).
* SS   k' = k + r(t) * d, d = Black's expected score (lead) at the current komi k: the komi follows the
  expected score, by a share that falls as the game goes on (Pachi's `komi_by_score`).
* VS   k' = k + 1 when Black's root win rate is above u, k - 1 when it is below l, (l, u) = (45 %, 55 %)
  (Pachi's `komi_by_value`, whose defaults are 2 points and (45 %, 60 %), here without its komi latch).
* ML-DK  when the win rate at the current komi k leaves (l, u), the label k* where the 41-komi curve comes
  back into the interval (Wu et al.'s worked example: k = 7.5, w_10.5 = 57 %, w_11.5 = 53 % -> k* = 11.5),
  then k' = k + r(t) * (k* - k).

Everything above is from Black's side (Black's win rate falls as komi rises). The code works from the
player's side, which is the same thing for either colour: raising the komi makes the game harder for Black,
lowering it harder for White, so a player who is ahead gets a komi that is harder for it and a player who is
behind one that helps it (a White player behind at the real komi gets a higher komi). The result's
`winrate` and `score_lead` are the side to move's at the root (`result.to_play`), its `winrate_by_komi`
Black's; each is turned into the player's view before use.

Choices where Wu et al. (as far as their text could be read) leave things open: a komi moved by SS or ML-DK lands
on the labels' half-point grid (x.5: the values the multi-labelled network is trained on, and no jigo),
and a move of less than half a point is no move (ties go towards the current komi); VS moves whole points
from the current komi. ML-DK takes the furthest label when the curve never comes back into the interval.
No method has a bound of its own beyond ML-DK's labels; SS and VS take an optional `komi_range`.

Rollouts are not used: the network's value replaces them (Wu et al.'s lambda = 1), so every win rate and
score here is the search's backed-up network value.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from tengen.eval.valuenet.model import KOMIS
from tengen.search.results import SearchResult

KOMI_RATE_C, KOMI_RATE_S, KOMI_RATE_B = 8.0, 0.45, 361
WIN_INTERVAL = (0.45, 0.55)
DYNAMIC_KOMI_NAMES = ("none", "ss", "vs", "mldk")
KOMI_LABELS = tuple(float(k) for k in KOMIS)  # the multi-labelled network's 41 komi labels, -12.5 .. 27.5

__all__ = [
    "DYNAMIC_KOMI_NAMES", "KOMI_LABELS", "KOMI_RATE_B", "KOMI_RATE_C", "KOMI_RATE_S", "WIN_INTERVAL",
    "DynamicKomi", "MultiLabelledKomi", "NoDynamicKomi", "ScoreSituational", "ValueSituational",
    "komi_rate", "make_dynamic_komi",
]


def komi_rate(move_number: int, c: float = KOMI_RATE_C, s: float = KOMI_RATE_S,
              board_points: int = KOMI_RATE_B) -> float:
    """The share of a komi step taken at move t: (1 + e^(-cs)) / (1 + e^(c(t/B - s))), 1 at t = 0, falling."""
    if move_number < 0:
        raise ValueError(f"move_number must be at least 0, not {move_number}")
    if board_points < 1:
        raise ValueError(f"board_points must be at least 1, not {board_points}")
    x = c * (move_number / board_points - s)
    # 1 / (1 + e^x), written so that a large x (a long game, a steep c) cannot overflow.
    falling = math.exp(-x) / (1.0 + math.exp(-x)) if x > 0 else 1.0 / (1.0 + math.exp(x))
    return (1.0 + math.exp(-c * s)) * falling


@runtime_checkable
class DynamicKomi(Protocol):
    """A dynamic komi method: the komi of a player's next search from the last search's result."""

    name: str

    def next_komi(self, komi: float, color: int, move_number: int, result: SearchResult | None) -> float:
        """The komi for the next search of `color` (1 Black / -1 White) at `move_number` (moves played so far),
        given the current dynamic komi and the previous search's result (None before the first search)."""
        ...


def _check_color(color: int) -> None:
    """Colours are 1 (Black) and -1 (White); anything else is a caller's bug, not a komi."""
    if color not in (1, -1):
        raise ValueError(f"color must be 1 (Black) or -1 (White), not {color!r}")


def _check_interval(interval: tuple[float, float]) -> None:
    """A win-rate interval (l, u) with 0 <= l < u <= 1."""
    lower, upper = interval
    if not 0.0 <= lower < upper <= 1.0:
        raise ValueError(f"win interval must satisfy 0 <= l < u <= 1, not {interval}")


def _check_rate(c: float, s: float, board_points: int) -> None:
    """The komi rate's constants: a positive slope and board size, a finite phase."""
    if not (c > 0 and math.isfinite(c) and math.isfinite(s)):
        raise ValueError(f"komi rate needs c > 0 and a finite s, not c={c}, s={s}")
    if board_points < 1:
        raise ValueError(f"board_points must be at least 1, not {board_points}")


def _player_winrate(result: SearchResult, color: int) -> float:
    """The root win rate from `color`'s side (the result's is the side to move's)."""
    return result.winrate if result.to_play == color else 1.0 - result.winrate


def _player_lead(result: SearchResult, color: int) -> float:
    """The root score lead from `color`'s side (the result's is the side to move's)."""
    return result.score_lead if result.to_play == color else -result.score_lead


def _on_half_grid(komi: float, target: float) -> float:
    """`target` put on the x.5 grid; a move of under half a point keeps `komi`, ties go towards `komi`."""
    if abs(target - komi) < 0.5:
        return komi
    low = math.floor(target - 0.5) + 0.5
    high = low + 1.0
    d_low, d_high = target - low, high - target
    if abs(d_low - d_high) < 1e-9:
        return low if abs(low - komi) <= abs(high - komi) else high
    return low if d_low < d_high else high


def _clip(komi: float, new: float, komi_range: tuple[float, float] | None) -> float:
    """`new` inside `komi_range`, widened to hold `komi` so that the bound alone never moves the komi."""
    if komi_range is None:
        return new
    lo, hi = min(komi_range[0], komi), max(komi_range[1], komi)
    return min(max(new, lo), hi)


@dataclass(frozen=True)
class NoDynamicKomi:
    """No dynamic komi: every search runs under the game's real komi."""

    game_komi: float
    board_points: int = KOMI_RATE_B
    name: str = field(default="none", init=False)

    def next_komi(self, komi: float, color: int, move_number: int, result: SearchResult | None) -> float:
        """The game's komi, whatever the position (the baseline Wu et al. compare against)."""
        _check_color(color)
        return self.game_komi


@dataclass(frozen=True)
class ScoreSituational:
    """SS (Baudiš; Pachi): the komi follows the expected score, scaled by the komi rate r(t)."""

    game_komi: float
    board_points: int = KOMI_RATE_B
    c: float = KOMI_RATE_C
    s: float = KOMI_RATE_S
    komi_range: tuple[float, float] | None = None  # no bound in Wu et al.; (lo, hi) keeps the komi inside
    name: str = field(default="ss", init=False)

    def __post_init__(self) -> None:
        _check_rate(self.c, self.s, self.board_points)

    def next_komi(self, komi: float, color: int, move_number: int, result: SearchResult | None) -> float:
        """k + r(t) * (Black's expected score at k), on the x.5 grid: a player ahead takes a harder komi.

        The score is the root's `score_lead` (side to move's view) turned to the player's; the komi moves
        against the player by r(t) times its lead (up for Black, down for White), which is k + r(t) * d
        with d Black's lead. No result, or no finite lead, leaves the komi as it is."""
        _check_color(color)
        if result is None or not math.isfinite(result.score_lead):
            return komi
        shift = komi_rate(move_number, self.c, self.s, self.board_points) * _player_lead(result, color)
        return _clip(komi, _on_half_grid(komi, komi + color * shift), self.komi_range)


@dataclass(frozen=True)
class ValueSituational:
    """VS (Baudiš; Pachi): one point of komi per move while the root win rate is outside (l, u)."""

    game_komi: float
    board_points: int = KOMI_RATE_B
    interval: tuple[float, float] = WIN_INTERVAL
    komi_range: tuple[float, float] | None = None  # no bound in Wu et al.; (lo, hi) keeps the komi inside
    name: str = field(default="vs", init=False)

    def __post_init__(self) -> None:
        _check_interval(self.interval)

    def next_komi(self, komi: float, color: int, move_number: int, result: SearchResult | None) -> float:
        """k one point harder for the player above u, one point easier below l, unchanged inside [l, u].

        Uses the root `winrate` (side to move's view) turned to the player's: Black above u gets k + 1,
        White above u gets k - 1. No result, or a win rate that is not finite, leaves the komi as it is."""
        _check_color(color)
        if result is None or not math.isfinite(result.winrate):
            return komi
        lower, upper = self.interval
        winrate = _player_winrate(result, color)
        if winrate > upper:
            step = color
        elif winrate < lower:
            step = -color
        else:
            return komi
        return _clip(komi, komi + step, self.komi_range)


@dataclass(frozen=True)
class MultiLabelledKomi:
    """ML-DK (Wu et al.'s own): the label where the komi curve re-enters (l, u), reached at the komi rate."""

    game_komi: float
    board_points: int = KOMI_RATE_B
    c: float = KOMI_RATE_C
    s: float = KOMI_RATE_S
    interval: tuple[float, float] = WIN_INTERVAL
    name: str = field(default="mldk", init=False)

    def __post_init__(self) -> None:
        _check_rate(self.c, self.s, self.board_points)
        _check_interval(self.interval)

    def target_label(self, komi: float, color: int, result: SearchResult) -> float | None:
        """The label k* Wu et al. move towards, or None when the win rate at `komi` is inside (l, u).

        In Black's terms (w_k, Black's win rate at komi k, falls as k rises): above u, k* is the first label
        above the komi with w_k* <= u (so w_(k*-1) > u; the worked example: w_10.5 = 57 %, w_11.5 = 53 % ->
        11.5). Below l Wu et al. print "w_k >= l and w_(k-1) < l", which cannot hold for a falling curve
        (w_(k-1) >= w_k); its evident intent, implemented here, is the first label below the komi with
        w_k* >= l (so w_(k*+1) < l). From the player's side both read: the nearest label, in the direction
        that helps a player below l or hinders a player above u, whose win rate is back on the near side of
        the bound. When no label gets there, the furthest label in that direction (the most the curve can
        see). The player's win rate at `komi` is the curve's there, or the root's when `komi` is no label."""
        _check_color(color)
        curve = result.winrate_by_komi
        if not curve:
            return None
        lower, upper = self.interval
        labels = {float(k): float(w) for k, w in curve.items()}

        def player_wr(black_wr: float) -> float:
            return black_wr if color == 1 else 1.0 - black_wr

        current = next((w for k, w in labels.items() if abs(k - komi) < 1e-9), None)
        now = player_wr(current) if current is not None else _player_winrate(result, color)
        if not math.isfinite(now):
            return None
        if now > upper:
            harder = color  # komi moves this way to hinder the player: up for Black, down for White
            candidates = sorted((k for k in labels if harder * (k - komi) > 1e-9), key=lambda k: harder * k)
            back = [k for k in candidates if player_wr(labels[k]) <= upper]
        elif now < lower:
            easier = -color
            candidates = sorted((k for k in labels if easier * (k - komi) > 1e-9), key=lambda k: easier * k)
            back = [k for k in candidates if player_wr(labels[k]) >= lower]
        else:
            return None
        if not candidates:
            return None  # already at the curve's edge in that direction
        return back[0] if back else candidates[-1]

    def next_komi(self, komi: float, color: int, move_number: int, result: SearchResult | None) -> float:
        """k + r(t) * (k* - k) on the x.5 grid (k* from `target_label`); k itself when there is no curve.

        Uses `result.winrate_by_komi` (Black's view); without one (None, or empty) the komi stays."""
        _check_color(color)
        if result is None:
            return komi
        target = self.target_label(komi, color, result)
        if target is None:
            return komi
        rate = komi_rate(move_number, self.c, self.s, self.board_points)
        return _on_half_grid(komi, komi + rate * (target - komi))


def make_dynamic_komi(name: str, game_komi: float, board_points: int = KOMI_RATE_B) -> DynamicKomi:
    """The dynamic komi method called `name` (one of DYNAMIC_KOMI_NAMES) for a game with this komi."""
    key = name.strip().lower()
    if key == "none":
        return NoDynamicKomi(game_komi, board_points)
    if key == "ss":
        return ScoreSituational(game_komi, board_points)
    if key == "vs":
        return ValueSituational(game_komi, board_points)
    if key == "mldk":
        return MultiLabelledKomi(game_komi, board_points)
    raise ValueError(f"unknown dynamic komi {name!r}: choose one of {', '.join(DYNAMIC_KOMI_NAMES)}")
