"""The per-move time budget under GTP's clock (pure arithmetic, no clock read)."""
from __future__ import annotations

import pytest

from tengen.search.time_control import MIN_SECONDS, TimeSettings, expected_moves_left, seconds_for_move


def test_no_clock_means_no_time_limit():
    assert seconds_for_move(None) is None
    assert seconds_for_move(TimeSettings(0, 30, 0)) is None  # byo-yomi time with no stones: GTP's "no limit"
    assert seconds_for_move(TimeSettings(0, 0, 0)) is None


def test_byo_yomi_shares_the_period_among_its_stones():
    settings = TimeSettings(600, 60, 10)
    assert seconds_for_move(settings, (60, 10), lag=1.0) == pytest.approx(5.9)
    assert seconds_for_move(settings, (20, 2), lag=1.0) == pytest.approx(9.5)
    assert seconds_for_move(settings, (0.04, 1), lag=1.0) == MIN_SECONDS


def test_main_time_depends_on_time_left_and_emptiness():
    settings = TimeSettings(600)
    full = seconds_for_move(settings, None, empty_points=361, board_points=361, lag=0)
    assert full == pytest.approx(600 / expected_moves_left(361, 361))
    assert seconds_for_move(settings, (300, 0), 361, 361, lag=0) == pytest.approx(full / 2)
    late = seconds_for_move(settings, (300, 0), 40, 361, lag=0)
    assert late > seconds_for_move(settings, (300, 0), 200, 361, lag=0)
    assert seconds_for_move(settings, (4, 0), 5, 361, lag=0) <= 2  # never more than half the time left


def test_main_time_before_byo_yomi_adds_one_stones_share():
    with_byo = seconds_for_move(TimeSettings(600, 30, 5), (300, 0), 200, 361, lag=0)
    without = seconds_for_move(TimeSettings(600), (300, 0), 200, 361, lag=0)
    assert with_byo == pytest.approx(without + 6)


def test_bad_settings_are_refused():
    with pytest.raises(ValueError):
        TimeSettings(-1)
    with pytest.raises(ValueError):
        TimeSettings(float("inf"))
