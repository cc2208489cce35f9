"""The network's one-move look at the orthodox move (tengen.endgame.move_check): a local move that loses
stones outside every region is overruled by the policy move; a sound one is kept and the check reported."""
from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest

from tengen.endgame.analysis import analyze_board
from tengen.endgame.move_check import check_move
from tengen.endgame.options import AnalysisOptions
from tengen.go import BLACK, WHITE
from tengen.go.coords import from_gtp
from tengen.go.diagram import board_from_diagram
from tengen.io.report import json_report, text_report

from datapaths import shared_data
from standin_networks import ONE_DAME, STANDIN_OPTIONS, StandInNetwork

# Black's D1-E1 has two liberties: C1 (inside Black's group, decided) and F1 (touching White: the only
# region). Black F1 leaves D1-E1-F1 with the one liberty C1 and White captures there; Black C1 connects.
SHORTAGE = """
    5 . X X O O O . O
    4 X X X O O O O O
    3 . X X O O O . O
    2 X X X O O O O O
    1 X X . X X . O O
      A B C D E F G H
"""


class TacticalStandIn(StandInNetwork):
    """The rule-based stand-in that also sees one capture ahead: an opponent chain in atari counts for
    the side to move. Its policy, when given a point, puts 90 % there (if legal), the rest as before."""

    def __init__(self, policy_point=None, policy: str = "contested"):
        super().__init__(policy)
        self.policy_point = policy_point

    def _one(self, board):
        ev = super()._one(board)
        own = ev.ownership.copy()
        grid = board.array()
        for point in zip(*np.nonzero(grid == -board.to_play)):
            point = (int(point[0]), int(point[1]))
            if len(board.chain_liberties(point)) == 1:
                for p in board.chain(point):
                    own[p] = board.to_play
        ev.ownership, ev.score_lead = own, float(own.sum())
        if self.policy_point is not None and board.is_legal(board.to_play, self.policy_point):
            ev.policy = 0.1 * ev.policy
            ev.policy[self.policy_point] += 0.9 * (1 - ev.pass_policy) + 0.1 * ev.pass_policy
            ev.pass_policy = 0.0
        return ev


def test_a_self_atari_the_regions_cannot_see_is_overruled_by_the_policy_move():
    board = board_from_diagram(SHORTAGE)
    board.to_play = BLACK
    h = board.height
    net = TacticalStandIn(policy_point=from_gtp("C1", h, board.width))
    analysis = analyze_board(board, net, STANDIN_OPTIONS)
    assert [sorted(r.region.points) for r in analysis.regions] == [[from_gtp("F1", h, board.width)]]
    check = analysis.move_check
    assert check is not None and check.orthodox == from_gtp("F1", h, board.width) and check.policy == from_gtp("C1", h, board.width)
    assert check.overruled and check.loss > 3
    assert analysis.recommended == (BLACK, from_gtp("C1", h, board.width))
    assert "the network's policy move" in analysis.recommended_reason and "F1" in analysis.recommended_reason
    assert json_report(analysis)["move_check"]["overruled"] is True
    (region,) = analysis.regions
    assert any("the network's check: F1 loses" in note for note in region.notes)


def test_the_check_can_be_turned_off():
    board = board_from_diagram(SHORTAGE)
    board.to_play = BLACK
    analysis = analyze_board(board, TacticalStandIn(policy_point=from_gtp("C1", board.height, board.width)),
                       replace(STANDIN_OPTIONS, move_check_margin=None))
    assert analysis.move_check is None
    assert analysis.recommended == (BLACK, from_gtp("F1", board.height, board.width))


def test_a_sound_orthodox_move_is_kept_and_the_check_reported():
    # the policy spreads over every legal point and picks one inside Black's own area: a point behind
    board = board_from_diagram(ONE_DAME)
    board.to_play = WHITE
    analysis = analyze_board(board, TacticalStandIn(policy="anywhere"), STANDIN_OPTIONS)
    check = analysis.move_check
    assert analysis.recommended == (WHITE, from_gtp("C4", 5))
    assert check is not None and not check.overruled and check.loss < 0
    assert "network check: the orthodox C4" in text_report(analysis)


def test_the_check_is_reported_under_the_evaluator_s_display_name():
    board = board_from_diagram(ONE_DAME)
    board.to_play = WHITE
    evaluator = TacticalStandIn(policy="anywhere")
    evaluator.display_name = "classic evaluator"
    text = text_report(analyze_board(board, evaluator))
    assert "classic evaluator check: the orthodox C4" in text and "classic evaluator evaluations;" in text
    assert "network" not in text


def test_no_check_when_the_policy_agrees_or_the_move_is_illegal():
    board = board_from_diagram(ONE_DAME)
    board.to_play = BLACK
    net = TacticalStandIn()  # policy on the contested C4 only: the orthodox move itself
    assert check_move(board, net, from_gtp("C4", 5)) is None
    assert check_move(board, net, from_gtp("A5", 5)) is None  # occupied


def fuego_case(number: int):
    """A case of Fuego's uct_endgame.tst and its position, the side to play set."""
    from tengen.go.colors import parse_color
    from tengen.go.sgf import load_game
    from devkit.regression_files import parse_suite

    suite = shared_data("regression", "fuego", "uct_endgame.tst")
    (case,) = [c for c in parse_suite(suite) if c.number == number]
    board = load_game(case.sgf).board_at(case.move - 1, strict=False)
    board.to_play = parse_color(case.args[0])
    return case, board


@pytest.mark.network_model
def test_the_real_network_overrules_a_self_atari_in_a_fuego_endgame(real_evaluator):
    # Fuego's uct_endgame.tst case 50: Black's G1-H1 has the liberties F1 and J1. The one undecided point
    # is J1, so the orthodox move is J1, a self-atari (White F1 captures three); the answer is F1.
    case, board = fuego_case(50)
    # KataGo's policy grows the trees and its ownership scores the leaves: the check is what catches J1 there
    analysis = analyze_board(board, real_evaluator, AnalysisOptions(predictor="kata", leaf_scoring="evaluator"))
    check = analysis.move_check
    assert check is not None and check.orthodox == from_gtp("J1", 9) and check.overruled
    assert analysis.recommended == (BLACK, from_gtp("F1", 9))
    assert case.matches("F1")


@pytest.mark.network_model
def test_the_default_search_look_reads_the_shortage_of_liberties(real_evaluator):
    # the same case through the library's look: the default searches (64 visits a candidate) find White's
    # capture after J1; 32-visit searches put J1 ahead of F1 (docs/BENCHMARKS.md, Fuego's endgame suites)
    from tengen.api import search_look

    case, board = fuego_case(50)
    options = AnalysisOptions(predictor="kata", leaf_scoring="evaluator")
    analysis = analyze_board(board, real_evaluator, options, move_look=search_look(options))
    check = analysis.move_check
    assert check.how == f"by a {options.move_check_visits}-visit search after each"
    assert check.orthodox == from_gtp("J1", 9) and check.overruled
    assert analysis.recommended == (BLACK, from_gtp("F1", 9)) and case.matches("F1")


def test_the_check_by_search_overrules_the_self_atari_and_says_how_it_looked():
    from tengen.search.move_look import SEARCH_MARGIN, SearchLook

    board = board_from_diagram(SHORTAGE)
    board.to_play = BLACK
    h, w = board.height, board.width
    net = TacticalStandIn(policy_point=from_gtp("C1", h, w))
    analysis = analyze_board(board, net, STANDIN_OPTIONS, move_look=lambda evaluator: SearchLook(evaluator, 8))
    check = analysis.move_check
    assert check.orthodox == from_gtp("F1", h, w) and check.overruled and check.margin == SEARCH_MARGIN
    assert check.how == "by a 8-visit search after each" and check.how in analysis.recommended_reason
    assert check.alternatives == 3 and analysis.recommended_reason.startswith("the best of the network's 3 likeliest moves")
    assert analysis.recommended == (BLACK, from_gtp("C1", h, w))
    assert analysis.settings["move_check_visits"] == STANDIN_OPTIONS.move_check_visits
    assert f"--move-check-visits {STANDIN_OPTIONS.move_check_visits}" in text_report(analysis)


def test_the_library_checks_by_search_and_a_bare_analysis_by_one_look():
    import tengen

    board = board_from_diagram(SHORTAGE)
    board.to_play = BLACK
    net = TacticalStandIn(policy_point=from_gtp("C1", board.height, board.width))
    searched = tengen.analyze(board, evaluator=net, options=replace(STANDIN_OPTIONS, move_check_visits=4))
    assert searched.move_check.how == "by a 4-visit search after each" and searched.settings["move_check_visits"] == 4
    bare = analyze_board(board, net, replace(STANDIN_OPTIONS, move_check_visits=4))
    assert bare.move_check.how == "one move later" and bare.settings["move_check_visits"] == 0
    assert "--move-check-visits" not in text_report(bare)


# Every point settled: Black's territory A1-B5, White's D1-E5, no undecided point, so no region and the
# regions' values say pass.
SETTLED = """
    5 . X O . .
    4 X X O O O
    3 . X O . .
    2 X X O O O
    1 . X O . .
      A B C D E
"""


class FixedLook:
    """A look that says what it is told: the mover's lead after a pass and after any move."""

    how, margin, alternatives = "by a fixed look", 0.5, 1

    def __init__(self, after_pass: float, after_move: float):
        self.after_pass, self.after_move = after_pass, after_move

    def leads_after(self, board, moves):
        return [self.after_pass if m is None else self.after_move for m in moves]


@pytest.mark.parametrize("after_move,overruled", [(5.0, True), (0.2, False)])
def test_a_pass_the_regions_recommend_is_checked_like_a_move(after_move, overruled):
    board = board_from_diagram(SETTLED)
    board.to_play = BLACK
    h, w = board.height, board.width
    net = TacticalStandIn(policy_point=from_gtp("E1", h, w))
    analysis = analyze_board(board, net, STANDIN_OPTIONS, move_look=lambda evaluator: FixedLook(0.0, after_move))
    check = analysis.move_check
    assert analysis.regions == [] and check is not None and check.orthodox is None
    assert check.policy == from_gtp("E1", h, w) and check.overruled == overruled
    if overruled:
        assert analysis.recommended == (BLACK, from_gtp("E1", h, w))
        assert "passing" in analysis.recommended_reason and "5.0 points worse by a fixed look" in analysis.recommended_reason
    else:
        assert analysis.recommended is None
    assert check_move(board, net, None, look=FixedLook(0.0, 5.0)).overruled  # the check alone, a pass given


EMPTY_5 = """
    5 . . . . .
    4 . . . . .
    3 . . . . .
    2 . . . . .
    1 . . . . .
      A B C D E
"""


class OrderedPolicy:
    """An evaluator whose policy is the given points, likeliest first (only `top_moves` is read)."""

    def __init__(self, points):
        self.points = points

    def evaluate(self, boards):
        ranked = [(p, 0.5 ** (i + 1)) for i, p in enumerate(self.points)]
        return [SimpleNamespace(top_moves=lambda n: ranked[:n]) for _ in boards]


class LeadsLook:
    """A search look that gives each move the lead it is told, half a point of margin, 3 alternatives."""

    how, margin, alternatives = "by a told look", 0.5, 3

    def __init__(self, leads):
        self.leads = leads

    def leads_after(self, board, moves):
        return [self.leads[m] for m in moves]


# the orthodox A1 against the network's C3, B2, D4 (likeliest first): the leads told, what the check keeps
@pytest.mark.parametrize("orthodox,c3,b2,d4,overruled,chosen", [
    (0.0, 1.0, 1.3, 0.2, True, "C3"),   # C3 and B2 within half a point: the network's order decides
    (0.0, 0.7, 1.3, 0.2, True, "B2"),   # C3 0.6 below the best: the best
    (0.0, 0.2, 0.3, 1.3, True, "D4"),
    (1.0, 1.0, 1.3, 0.2, False, "C3"),  # the orthodox move within half a point of the best: it stands
])
def test_the_check_breaks_ties_within_its_margin_by_the_network_s_order(orthodox, c3, b2, d4, overruled, chosen):
    board = board_from_diagram(EMPTY_5)
    board.to_play = BLACK
    pt = {v: from_gtp(v, 5) for v in ("A1", "C3", "B2", "D4")}
    look = LeadsLook({pt["A1"]: orthodox, pt["C3"]: c3, pt["B2"]: b2, pt["D4"]: d4})
    check = check_move(board, OrderedPolicy([pt["C3"], pt["B2"], pt["D4"]]), pt["A1"], look=look)
    assert check.overruled == overruled and check.policy == pt[chosen]
    assert check.loss == pytest.approx(max(c3, b2, d4) - orthodox)  # the evidence: the best lead, not the chosen
    assert "(ties within 0.5 points to the likeliest)" in check.reason(5, "a reason")
