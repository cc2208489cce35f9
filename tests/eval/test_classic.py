"""The classic evaluator (no network), on ASCII diagrams: Benson areas, dead groups, small enclosed areas,
atari, sealed regions (exact within the branching cap, heuristic beyond), the policy's top move."""
from __future__ import annotations

import numpy as np
import pytest

from tengen.api.classic import ExhaustiveRegionValuer, classic_evaluator
from tengen.endgame.exact import ExhaustiveConfig, solve_region
from tengen.eval.classic import ClassicEvaluator
from tengen.eval.evaluation import Evaluator
from tengen.go.colors import BLACK, WHITE
from tengen.go.diagram import board_from_diagram, parse_diagram
from tengen.go.rules import Rules


def board_of(diagram: str, to_play: int = BLACK, komi: float = 0.0):
    board = board_from_diagram(diagram, rules=Rules.chinese(komi=komi))
    board.to_play = to_play
    return board


def marked(diagram: str, mark: str) -> list:
    return parse_diagram(diagram)[1].get(mark, [])


BENSON = """
. X . X O . .
X X X X O . .
O O O O O . .
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
"""


def test_a_benson_alive_group_owns_its_stones_and_eyes():
    ev = ClassicEvaluator()
    assert isinstance(ev, Evaluator)
    board = board_of(BENSON)
    e = ev.evaluate([board])[0]
    grid = board.array()
    for r, c in [(0, 0), (0, 2)] + [tuple(p) for p in np.argwhere(grid == BLACK)]:
        assert e.ownership[r, c] == 1.0
    assert e.ownership.shape == (7, 7) and np.all(np.abs(e.ownership) <= 1)
    assert e.score_lead == pytest.approx(float(e.ownership.sum()))  # komi 0, area rules


# a lone White stone in Black's 12-point corner (more than a small area): only the life search knows it is dead
DEAD_INSIDE = """
. . . . X . X O .
. O . . X X X O .
. . . . X . X O .
X X X X X X X O .
. X . X O O O O .
X X X X O . . . .
O O O O O . . . .
. . . . . . . . .
. . . . . . . . .
"""


def test_a_dead_group_inside_the_opponents_area_is_flipped_by_the_life_judge():
    board = board_of(DEAD_INSIDE, to_play=WHITE)
    stone = (1, 1)
    judged = classic_evaluator().evaluate([board])[0]
    assert judged.ownership[stone] == 1.0
    assert [stone] in judged.extras["dead"]
    assert judged.ownership[:3, :4].min() == 1.0  # the dead stone's area is Black's too
    unjudged = ClassicEvaluator().evaluate([board])[0]  # the static default judge cannot tell
    assert unjudged.ownership[stone] < 0
    assert judged.score_lead > unjudged.score_lead + 1


# White's stone sits in a 3-point area enclosed by Black's strong wall: too small for two eyes
SMALL_AREA = """
. . . . . . .
. X X X X . .
X X . O X . .
X . X X X . .
X X X . . . .
. . . . O O O
. . . . O . .
"""


def test_an_enclosed_area_too_small_for_two_eyes_is_the_surrounders():
    board = board_of(SMALL_AREA, to_play=WHITE)
    e = ClassicEvaluator().evaluate([board])[0]  # the static judge says "unknown": the area rule decides
    for p in [(2, 2), (2, 3), (3, 1)]:
        assert e.ownership[p] == 1.0
    assert [(2, 3)] in e.extras["dead"]


# two White chains in atari on an open board: Black to move takes the larger (three stones, B6-D6), the
# single stone (F3) counts half
ATARI_OPEN = """
. X X . . . .
X O O O X . .
. X X X . . .
. . . . . X .
. . . . X O X
. . . . . . .
. . . . . . .
"""
# the rest of the board settled: capturing at D7 (or saving the three stones by connecting there) is the
# one move worth playing
ATARI = """
X X X . O O O
X O O O X O O
X X X X X O .
. X . X O O O
X X X X O . O
. X . X O O O
X X X X O . O
"""


def test_the_most_urgent_capture_is_carried_out_and_other_ataris_count_half():
    board = board_of(ATARI_OPEN, to_play=BLACK)
    e = ClassicEvaluator().evaluate([board])[0]
    for p in [(1, 1), (1, 2), (1, 3)]:
        assert e.ownership[p] == 1.0
    assert e.ownership[(4, 5)] == 0.0
    assert e.extras["urgent_won"] == "B6" and e.extras["statuses"]["F3"] == "critical"
    saved = ClassicEvaluator().evaluate([board_of(ATARI_OPEN, to_play=WHITE)])[0]  # White to move saves them
    assert saved.ownership[(1, 2)] == -1.0 and saved.score_lead < e.score_lead
    assert saved.extras["urgent_won"] == "B6"


def test_the_policy_plays_the_capture():
    for to_play in (BLACK, WHITE):
        e = ClassicEvaluator().evaluate([board_of(ATARI, to_play=to_play)])[0]
        assert e.top_moves(1)[0][0] == (0, 3) and e.extras["orthodox_move"] == (0, 3)
        assert e.ownership[(1, 2)] == to_play and e.pass_policy < 0.01


# both walls pass-alive; a 2-point gap between them (2! <= 1000: the exact solver values it)
GAP_2 = """
X X X X O O O O
X . X X O O . O
X X X a a O O O
X . X X O O . O
X X X X O O O O
"""
# a 10-point gap: 10! > 1000, the heuristic values it and the solver is never asked
GAP_10 = """
X X X X . . O O O
X . X X . . O . O
X X X X . . O O O
X . X X . . O . O
X X X X . . O O O
"""


class Spy:
    """A region valuer that records its calls and hands them to the exact solver."""

    def __init__(self):
        self.calls = []
        self.inner = ExhaustiveRegionValuer()

    def __call__(self, board, points):
        self.calls.append(list(points))
        return self.inner(board, points)


def test_a_sealed_region_within_the_cap_is_valued_by_the_exact_solver():
    board = board_of(GAP_2)
    gap = marked(GAP_2, "a")
    spy = Spy()
    e = ClassicEvaluator(region_valuer=spy).evaluate([board])[0]
    (region,) = e.extras["regions"]
    assert sorted(region["points"]) == sorted(gap) and spy.calls == [sorted(gap)]
    truth = solve_region(board, gap, ExhaustiveConfig(seconds=None))
    assert region["exact"] and region["mean"] == pytest.approx(float(truth.mean))
    assert region["temperature"] == pytest.approx(float(truth.temperature)) and region["temperature"] > 0
    assert region["thermograph"] is not None
    assert sum(e.ownership[p] for p in gap) == pytest.approx(float(truth.mean), abs=1e-5)
    # the one hot region: the policy's top move is the solver's best move there
    top = e.top_moves(1)[0][0]
    assert top in truth.best_black
    assert e.pass_policy < 0.01
    white = ClassicEvaluator(region_valuer=spy).evaluate([board_of(GAP_2, to_play=WHITE)])[0]
    assert white.top_moves(1)[0][0] in truth.best_white


def test_a_sealed_region_over_the_cap_falls_back_to_the_heuristic():
    board = board_of(GAP_10)
    spy = Spy()
    e = ClassicEvaluator(region_valuer=spy).evaluate([board])[0]
    (region,) = e.extras["regions"]
    assert len(region["points"]) == 10 and spy.calls == []
    assert not region["exact"] and any("branching cap" in n for n in region["notes"])
    assert region["temperature"] > 0 and e.top_moves(1)[0][0] in region["points"]


FILLED = """
X . X X X
X X X X X
X X X . X
X X X X X
X . X X X
"""


def test_nothing_worth_a_move_makes_passing_likely():
    e = ClassicEvaluator().evaluate([board_of(FILLED)])[0]
    assert e.pass_policy > 0.5 and e.score_lead == 25 and e.win > 0.99
    assert float(e.policy.sum()) + e.pass_policy == pytest.approx(1.0, abs=1e-5)


def test_territory_rules_count_territory_not_stones():
    board = board_from_diagram(FILLED, rules=Rules.japanese(komi=0.5))
    e = ClassicEvaluator().evaluate([board])[0]
    assert e.score_lead == pytest.approx(3 - 0.5)  # three eyes, less komi; stones do not count
