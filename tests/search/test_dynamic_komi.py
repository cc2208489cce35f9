"""Dynamic komi (SS, VS, ML-DK after the multi-labelled value network paper): the komi-rate curve, the paper's
worked example, each method's steps for both colours, and the fallbacks when a result lacks what a method uses."""
from __future__ import annotations

import itertools
import math

import pytest

from tengen.eval.valuenet.model import KOMIS
from tengen.search.dynamic_komi import (
    DYNAMIC_KOMI_NAMES,
    KOMI_LABELS,
    KOMI_RATE_B,
    KOMI_RATE_C,
    KOMI_RATE_S,
    WIN_INTERVAL,
    DynamicKomi,
    MultiLabelledKomi,
    NoDynamicKomi,
    ScoreSituational,
    ValueSituational,
    komi_rate,
    make_dynamic_komi,
)
from tengen.search.results import SearchResult

BLACK, WHITE = 1, -1


def result(to_play: int = BLACK, winrate: float = 0.5, score_lead: float = 0.0, komi: float = 7.5,
           curve: dict[float, float] | None = None) -> SearchResult:
    """A SearchResult with only what the komi methods read (winrate and score_lead are to_play's view)."""
    return SearchResult(to_play=to_play, komi=komi, visits=1, winrate=winrate, score_lead=score_lead, moves=[],
                        best=None, winrate_by_komi=curve)


def logistic_curve(diff: float, scale: float = 2.0) -> dict[float, float]:
    """Black's win rate at every label when Black's expected difference is `diff`: 1 / (1 + e^((k - diff)/scale))."""
    return {float(k): 1.0 / (1.0 + math.exp((float(k) - diff) / scale)) for k in KOMIS}


def worked_example_curve() -> dict[float, float]:
    """The paper's example around k0 = 7.5: Black ahead there, w_10.5 = 57 %, w_11.5 = 53 % (falling in k)."""
    given = {7.5: 0.70, 8.5: 0.65, 9.5: 0.61, 10.5: 0.57, 11.5: 0.53, 12.5: 0.49}
    return {float(k): given.get(float(k), 0.99 if k < 7.5 else 0.40) for k in KOMIS}


# --- constants and the komi rate ---------------------------------------------------------------------------


def test_constants_are_the_papers():
    """c = 8, s = 0.45, B = 361, (l, u) = (45 %, 55 %), and the 41 labels -12.5 .. 27.5 of the network."""
    assert (KOMI_RATE_C, KOMI_RATE_S, KOMI_RATE_B) == (8.0, 0.45, 361)
    assert WIN_INTERVAL == (0.45, 0.55)
    assert DYNAMIC_KOMI_NAMES == ("none", "ss", "vs", "mldk")
    assert KOMI_LABELS == tuple(float(k) for k in KOMIS)
    assert len(KOMI_LABELS) == 41 and KOMI_LABELS[0] == -12.5 and KOMI_LABELS[-1] == 27.5


@pytest.mark.parametrize("t, board_points, expected", [
    (0, 361, 1.0),  # the whole step at the start
    # t/B = s: (1 + e^-3.6) / 2, e^-3.6 = 0.0273237...
    (45, 100, (1.0 + 0.02732372244729256) / 2.0),
    # t = 100: 8 (100/361 - 0.45) = -1.38393..., e^that = 0.25060...; 1.0273237 / 1.2506 = 0.82147
    (100, 361, 0.8214706470799007),
    (361, 361, 1.0273237224472926 / (1.0 + math.exp(4.4))),  # the end of a full board: ~0.0125
    (722, 361, 1.0273237224472926 / (1.0 + math.exp(8.0 * 1.55))),  # past the end: ~4e-6
])
def test_komi_rate_values(t: int, board_points: int, expected: float):
    """r(t) = (1 + e^(-cs)) / (1 + e^(c(t/B - s))) against values worked out by hand."""
    assert komi_rate(t, board_points=board_points) == pytest.approx(expected, rel=1e-9, abs=1e-15)


def test_komi_rate_hand_rounded_values():
    """The same curve in round numbers: 1, about 0.82 at move 100, about 0.51 near s*B, about 0.012 at 361."""
    assert komi_rate(0) == pytest.approx(1.0, abs=1e-15)
    assert komi_rate(100) == pytest.approx(0.8215, abs=1e-4)
    assert komi_rate(162) == pytest.approx(0.5162, abs=1e-4)
    assert komi_rate(361) == pytest.approx(0.01246, abs=1e-5)


def test_komi_rate_shape():
    """Starts at 1, falls strictly with the move number, stays positive, is near 0 past the game's end."""
    rates = [komi_rate(t) for t in range(1000)]
    assert rates[0] == pytest.approx(1.0)
    assert all(a > b for a, b in itertools.pairwise(rates))
    assert all(0.0 < r <= 1.0 + 1e-12 for r in rates)
    assert rates[361] < 0.02 and rates[500] < 1e-3
    assert komi_rate(10**7) == pytest.approx(0.0, abs=1e-300)  # no overflow in a very long game


@pytest.mark.parametrize("c, s", [(4.0, 0.45), (8.0, 0.3), (16.0, 0.6)])
def test_komi_rate_other_constants(c: float, s: float):
    """For any c, s: 1 at t = 0 and exactly (1 + e^(-cs)) / 2 where t/B = s."""
    assert komi_rate(0, c=c, s=s, board_points=100) == pytest.approx(1.0)
    assert komi_rate(round(s * 100), c=c, s=s, board_points=100) == pytest.approx((1 + math.exp(-c * s)) / 2)


@pytest.mark.parametrize("t, board_points", [(-1, 361), (0, 0)])
def test_komi_rate_rejects_bad_arguments(t: int, board_points: int):
    """A negative move number or an empty board is a caller's bug."""
    with pytest.raises(ValueError):
        komi_rate(t, board_points=board_points)


# --- ML-DK -------------------------------------------------------------------------------------------------


def test_worked_example_target_label():
    """k0 = 7.5, w_10.5 = 57 %, w_11.5 = 53 %: the curve comes back under u = 55 % at 11.5."""
    mldk = MultiLabelledKomi(7.5)
    assert mldk.target_label(7.5, BLACK, result(curve=worked_example_curve())) == 11.5


@pytest.mark.parametrize("move_number, expected", [
    (0, 11.5),  # r = 1: exactly the paper's 11.5
    (83, 11.5),  # r = 0.8766: 7.5 + 3.506 -> 11.5 (the last move with 11.5: the step is over 3.5)
    (84, 10.5),  # r = 0.8737: 7.5 + 3.495 -> 10.5
    (180, 9.5),  # r = 0.4150: 7.5 + 1.660 -> 9.5
    (361, 7.5),  # r = 0.0125: a step of 0.05 is no step
])
def test_worked_example_next_komi(move_number: int, expected: float):
    """The paper's example gives exactly 11.5 while r(t) * 4 >= 3.5 (t <= 83, r(0) = 1), less later."""
    mldk = MultiLabelledKomi(7.5)
    assert mldk.next_komi(7.5, BLACK, move_number, result(curve=worked_example_curve())) == expected


@pytest.mark.parametrize("color", [BLACK, WHITE])
@pytest.mark.parametrize("diff, komi, expected", [
    # Black's expected difference 12: w_11.5 = 0.562, w_12.5 = 0.438. Black is ahead at 7.5 (w = 0.905):
    # its komi rises to 12.5; White is behind there (9.5 %): its komi rises to 12.5 as well, helping White.
    (12.0, 7.5, 12.5),
    # Black's expected difference 2: w_2.5 = 0.438 < l, w_1.5 = 0.562. Black is behind at 7.5 (6 %): its komi
    # falls to 1.5 (helping Black); White is ahead (94 %): its komi falls to 1.5 (harder for White).
    (2.0, 7.5, 1.5),
    (-8.0, 0.5, -8.5),  # w_-7.5 = 0.438 < l, w_-8.5 = 0.562: from 0.5 down to -8.5
    (7.4, 7.5, 7.5),  # w_7.5 = 0.475: inside (l, u), no move
])
def test_mldk_both_colors(color: int, diff: float, komi: float, expected: float):
    """With (l, u) symmetric about 50 %, both players are sent to the same komi: the balanced one."""
    mldk = MultiLabelledKomi(komi)
    res = result(to_play=color, winrate=0.5, curve=logistic_curve(diff))
    assert mldk.next_komi(komi, color, 0, res) == expected


@pytest.mark.parametrize("interval, black_target, white_target", [
    # Black's difference 5: w_6.5 = 0.321, w_5.5 = 0.438, w_4.5 = 0.562; from 7.5 (w = 0.223) both move down.
    ((0.40, 0.55), 5.5, 4.5),  # Black (22 % < l) stops at w >= 0.40: 5.5; White (78 % > u) at 1 - w <= 0.55: 4.5
    ((0.45, 0.55), 4.5, 4.5),  # the paper's symmetric interval: the same komi for both
])
def test_mldk_interval_read_from_the_players_side(interval: tuple[float, float], black_target: float,
                                                  white_target: float):
    """Each player reads (l, u) on its own win rate: an asymmetric interval tells the colours apart."""
    mldk = MultiLabelledKomi(7.5, interval=interval)
    curve = logistic_curve(5.0)
    assert mldk.next_komi(7.5, BLACK, 0, result(to_play=BLACK, curve=curve)) == black_target
    assert mldk.next_komi(7.5, WHITE, 0, result(to_play=WHITE, curve=curve)) == white_target


def test_mldk_white_perspective_mirrors_black():
    """A White player's view of the same curve: White ahead at 7.5 takes a lower (harder) komi."""
    curve = {float(k): (0.30 if k > 4.5 else 0.43 if k == 4.5 else 0.47 if k == 3.5 else 0.80) for k in KOMIS}
    # White's win rates: 70 % at 7.5 (> u), 57 % at 4.5, 53 % at 3.5: White's komi goes down to 3.5.
    mldk = MultiLabelledKomi(7.5)
    assert mldk.next_komi(7.5, WHITE, 0, result(to_play=WHITE, winrate=0.70, curve=curve)) == 3.5


def test_mldk_current_komi_off_the_labels_uses_root_winrate():
    """An integer game komi is no label: the player's root win rate says whether it is out of (l, u)."""
    mldk = MultiLabelledKomi(7.0)
    curve = logistic_curve(12.0)
    assert mldk.next_komi(7.0, BLACK, 0, result(winrate=0.9, komi=7.0, curve=curve)) == 12.5
    assert mldk.next_komi(7.0, BLACK, 0, result(winrate=0.5, komi=7.0, curve=curve)) == 7.0


@pytest.mark.parametrize("color, diff, komi, expected", [
    (BLACK, 60.0, 7.5, 27.5),  # Black wins at every label: the furthest label up
    (WHITE, 60.0, 7.5, 27.5),  # White loses at every label: the most help the curve can see
    (BLACK, -40.0, 7.5, -12.5),  # Black loses at every label: the furthest label down
    (BLACK, 60.0, 27.5, 27.5),  # already at the top label: nowhere further to go
])
def test_mldk_curve_never_reenters(color: int, diff: float, komi: float, expected: float):
    """When no label brings the win rate back into (l, u), ML-DK goes as far as the labels reach."""
    mldk = MultiLabelledKomi(7.5)
    assert mldk.next_komi(komi, color, 0, result(to_play=color, curve=logistic_curve(diff))) == expected


@pytest.mark.parametrize("res", [None, result(winrate=0.9, score_lead=20.0), result(winrate=0.9, curve={})])
def test_mldk_falls_back_without_a_curve(res: SearchResult | None):
    """No result, or no komi curve in it: the komi stays."""
    assert MultiLabelledKomi(7.5).next_komi(9.5, BLACK, 10, res) == 9.5


# --- VS ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("color, to_play, winrate, komi, expected", [
    (BLACK, BLACK, 0.60, 7.5, 8.5),  # Black ahead: one point harder (up)
    (BLACK, BLACK, 0.40, 7.5, 6.5),  # Black behind: one point easier (down)
    (BLACK, BLACK, 0.50, 7.5, 7.5),
    (BLACK, BLACK, 0.55, 7.5, 7.5),  # the bounds are inside
    (BLACK, BLACK, 0.45, 7.5, 7.5),
    (WHITE, WHITE, 0.60, 7.5, 6.5),  # White ahead: one point harder (down)
    (WHITE, WHITE, 0.40, 7.5, 8.5),  # White behind at the real komi: a komi that helps White (up)
    (BLACK, WHITE, 0.30, 7.5, 8.5),  # a result searched for White: Black's win rate is 70 %
    (WHITE, BLACK, 0.99, -3.5, -2.5),  # White's win rate 1 %: up, from any komi
    (BLACK, BLACK, 0.90, 7.0, 8.0),  # whole points from an integer komi
])
def test_vs_steps(color: int, to_play: int, winrate: float, komi: float, expected: float):
    """+-1 komi per move when the player's root win rate leaves [45 %, 55 %], in the direction against it."""
    vs = ValueSituational(7.5)
    assert vs.next_komi(komi, color, 50, result(to_play=to_play, winrate=winrate)) == expected


def test_vs_walks_one_point_per_move_and_keeps_no_state():
    """Three searches at 70 % move the komi three points; the same call twice gives the same answer."""
    vs = ValueSituational(7.5)
    komi = 7.5
    for t in range(3):
        komi = vs.next_komi(komi, BLACK, 2 * t, result(winrate=0.7))
    assert komi == 10.5
    assert vs.next_komi(7.5, BLACK, 0, result(winrate=0.7)) == vs.next_komi(7.5, BLACK, 0, result(winrate=0.7))


@pytest.mark.parametrize("res", [None, result(winrate=float("nan"))])
def test_vs_falls_back(res: SearchResult | None):
    """No result, or no win rate: the komi stays."""
    assert ValueSituational(7.5).next_komi(9.5, BLACK, 10, res) == 9.5


def test_vs_komi_range():
    """An optional range bounds the komi, but never moves a komi that starts outside it."""
    vs = ValueSituational(7.5, komi_range=(-12.5, 27.5))
    assert vs.next_komi(27.5, BLACK, 0, result(winrate=0.9)) == 27.5
    assert vs.next_komi(26.5, BLACK, 0, result(winrate=0.9)) == 27.5
    assert vs.next_komi(40.5, BLACK, 0, result(winrate=0.1)) == 39.5  # outside, moving in
    assert vs.next_komi(40.5, BLACK, 0, result(winrate=0.9)) == 40.5  # outside, not pushed further out


# --- SS ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("color, to_play, lead, komi, t, expected", [
    (BLACK, BLACK, 4.2, 7.5, 0, 11.5),  # r = 1: 7.5 + 4.2 = 11.7 -> 11.5
    (BLACK, BLACK, 10.0, 7.5, 100, 15.5),  # r(100) = 0.82147: 7.5 + 8.215 = 15.715 -> 15.5
    (WHITE, WHITE, 10.0, 7.5, 100, -0.5),  # White ahead by 10: 7.5 - 8.215 = -0.715 -> -0.5 (harder for White)
    (WHITE, WHITE, -10.0, 7.5, 100, 15.5),  # White behind by 10: the komi rises by 8.2, helping White
    (BLACK, WHITE, -10.0, 7.5, 100, 15.5),  # a result searched for White: Black's lead is +10
    (BLACK, BLACK, -6.0, 0.5, 0, -5.5),  # Black behind by 6: 0.5 - 6 = -5.5
    (BLACK, BLACK, 0.4, 7.5, 0, 7.5),  # under half a point: no move
    (BLACK, BLACK, 0.5, 7.5, 0, 7.5),  # 8.0 is halfway between 7.5 and 8.5: towards the current komi
    (BLACK, BLACK, 0.6, 7.5, 0, 8.5),
    (BLACK, BLACK, 3.0, 7.0, 0, 9.5),  # integer komi 7 + 3 = 10.0: halfway, towards 7 -> 9.5
    (BLACK, BLACK, 20.0, 7.5, 361, 7.5),  # r(361) = 0.0125: 0.25 of a point is no move
])
def test_ss_against_hand_computation(color: int, to_play: int, lead: float, komi: float, t: int,
                                     expected: float):
    """k' = k + r(t) * (Black's expected score at k), put on the x.5 grid; worked out by hand."""
    ss = ScoreSituational(7.5)
    assert ss.next_komi(komi, color, t, result(to_play=to_play, score_lead=lead)) == expected


def test_ss_matches_formula_before_rounding():
    """The unrounded move is r(t) times Black's lead, for a lead where rounding cannot hide a slip."""
    ss = ScoreSituational(7.5)
    for t in (0, 40, 120, 200):
        moved = ss.next_komi(7.5, BLACK, t, result(score_lead=30.0)) - 7.5
        assert abs(moved - komi_rate(t) * 30.0) <= 0.5


@pytest.mark.parametrize("res", [None, result(score_lead=float("nan")), result(score_lead=float("inf"))])
def test_ss_falls_back(res: SearchResult | None):
    """No result, or no finite score: the komi stays."""
    assert ScoreSituational(7.5).next_komi(9.5, WHITE, 10, res) == 9.5


def test_ss_komi_range():
    """An optional range bounds the komi SS reaches."""
    ss = ScoreSituational(7.5, komi_range=(-12.5, 27.5))
    assert ss.next_komi(7.5, BLACK, 0, result(score_lead=60.0)) == 27.5
    assert ScoreSituational(7.5).next_komi(7.5, BLACK, 0, result(score_lead=60.0)) == 67.5


# --- none, the factory, argument checks ---------------------------------------------------------------------


@pytest.mark.parametrize("color", [BLACK, WHITE])
def test_none_returns_the_game_komi(color: int):
    """The baseline: the real komi whatever the current komi or the result."""
    none = NoDynamicKomi(6.5)
    assert none.next_komi(11.5, color, 100, result(to_play=color, winrate=0.95, score_lead=30.0)) == 6.5
    assert none.next_komi(6.5, color, 0, None) == 6.5


@pytest.mark.parametrize("name, cls", [("none", NoDynamicKomi), ("ss", ScoreSituational), ("vs", ValueSituational),
                                       ("mldk", MultiLabelledKomi), (" MLDK ", MultiLabelledKomi)])
def test_make_dynamic_komi(name: str, cls: type):
    """Each name makes its method with the game's komi and board; the method says its name."""
    method = make_dynamic_komi(name, 0.5, board_points=81)
    assert isinstance(method, cls) and isinstance(method, DynamicKomi)
    assert method.name == name.strip().lower()
    assert method.game_komi == 0.5 and method.board_points == 81


def test_make_dynamic_komi_unknown_name_lists_choices():
    """An unknown name is a ValueError naming every choice."""
    with pytest.raises(ValueError) as err:
        make_dynamic_komi("pachi", 7.5)
    assert all(name in str(err.value) for name in DYNAMIC_KOMI_NAMES)


@pytest.mark.parametrize("name", DYNAMIC_KOMI_NAMES)
def test_bad_color_rejected(name: str):
    """Colours are 1 and -1 only."""
    with pytest.raises(ValueError):
        make_dynamic_komi(name, 7.5).next_komi(7.5, 0, 0, result())


@pytest.mark.parametrize("make", [
    lambda: ValueSituational(7.5, interval=(0.6, 0.4)),
    lambda: MultiLabelledKomi(7.5, interval=(-0.1, 0.5)),
    lambda: MultiLabelledKomi(7.5, c=0.0),
    lambda: ScoreSituational(7.5, board_points=0),
])
def test_bad_settings_rejected(make):
    """An interval with l >= u or outside [0, 1], a flat rate, an empty board: rejected when made."""
    with pytest.raises(ValueError):
        make()


def test_board_points_scale_the_rate():
    """A 9x9 board (81 points) is 'late' sooner: move 40 takes r = 0.4245 of the step there, 0.9634 on 19x19."""
    res = result(score_lead=10.0)
    assert ScoreSituational(7.5, board_points=81).next_komi(7.5, BLACK, 40, res) == 11.5  # 7.5 + 4.245
    assert ScoreSituational(7.5).next_komi(7.5, BLACK, 40, res) == 17.5  # 7.5 + 9.634
