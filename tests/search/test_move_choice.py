"""The played move: most visited without a seed; early in the game a seeded, visits-weighted draw."""
from __future__ import annotations

import random

import pytest

from tengen.search.move_choice import chosen_move, move_temperature
from tengen.search.results import MoveStats, SearchResult


def _result(visits: list[int]) -> SearchResult:
    moves = [MoveStats(move=(0, i), visits=v, winrate=0.5, score_lead=0.0, prior=0.1, lcb=0.4, utility=0.5,
                       order=i) for i, v in enumerate(visits)]
    return SearchResult(to_play=1, komi=7.5, visits=sum(visits) + 1, winrate=0.5, score_lead=0.0, moves=moves,
                        best=moves[0].move)


@pytest.mark.parametrize("move_number,points,expected", [(0, 361, 0.5), (19, 361, 0.25), (38, 361, 0.125),
                                                         (9, 171, 0.25)])
def test_temperature_halves_every_halflife_scaled_by_area(move_number, points, expected):
    assert move_temperature(move_number, int(points)) == pytest.approx(expected, rel=1e-3)


def test_without_a_generator_the_most_visited_move_is_played():
    assert chosen_move(_result([10, 9, 8]), 0, None) == (0, 0)


def test_late_in_the_game_the_draw_is_the_best_move():
    rng = random.Random(1)
    assert {chosen_move(_result([10, 9, 8]), 200, rng) for _ in range(50)} == {(0, 0)}


def test_early_draws_follow_visits_and_repeat_with_the_seed():
    draws = [chosen_move(_result([10, 9, 1, 0]), 0, random.Random(seed)) for seed in range(400)]
    counts = {m: draws.count(m) for m in set(draws)}
    # weights (v/10)**2: 1, 0.81, 0.01 (the last below 10 % of the best visits: never)
    assert set(counts) <= {(0, 0), (0, 1), (0, 2)} and (0, 3) not in counts
    assert counts[(0, 0)] > counts[(0, 1)] > counts.get((0, 2), 0)
    assert draws == [chosen_move(_result([10, 9, 1, 0]), 0, random.Random(seed)) for seed in range(400)]


def test_a_longer_halflife_keeps_drawing_later_in_the_game():
    # on 9x9 the default halflife (19 moves of 19x19) is about 4 moves: by move 20 the draw is the best move
    late = [chosen_move(_result([10, 9, 8]), 20, random.Random(seed), 81) for seed in range(100)]
    assert set(late) == {(0, 0)}
    longer = [chosen_move(_result([10, 9, 8]), 20, random.Random(seed), 81, halflife=76.0) for seed in range(100)]
    assert len(set(longer)) == 3


def test_temperature_zero_always_plays_the_most_visited_move():
    assert {chosen_move(_result([10, 9, 8]), 0, random.Random(seed), early=0.0) for seed in range(50)} == {(0, 0)}


def _one_visit_result(priors: dict) -> SearchResult:
    best = max(priors, key=priors.get)
    return SearchResult(to_play=1, komi=7.5, visits=1, winrate=0.5, score_lead=0.0, moves=[], best=best,
                        root_policy=priors)


def test_a_one_visit_search_draws_early_moves_from_the_policy():
    priors = {(2, 2): 0.5, (2, 6): 0.45, (4, 4): 0.04, None: 0.01}
    draws = [chosen_move(_one_visit_result(priors), 0, random.Random(seed), 81) for seed in range(400)]
    counts = {m: draws.count(m) for m in set(draws)}
    # weights (p / 0.5) ** 2 among moves with at least 10 % of the top prior: 1 and 0.81; never (4, 4) or pass
    assert set(counts) == {(2, 2), (2, 6)} and counts[(2, 2)] > counts[(2, 6)]
    assert chosen_move(_one_visit_result(priors), 0, None, 81) == (2, 2)
    assert {chosen_move(_one_visit_result(priors), 40, random.Random(s), 81) for s in range(50)} == {(2, 2)}
