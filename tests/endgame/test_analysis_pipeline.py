"""The analyzer end to end with a rule-based stand-in for the network: decomposition from both colors'
ownership, hot-spot splitting, ko retakes from the kata predictor, the evaluation cache, joint growth."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tengen.endgame.analysis import analyze_board
from tengen.endgame.evalcache import CachedEvaluator
from tengen.endgame.predictors import KataPolicyPredictor, LocalPrediction, PredictionRequest
from tengen.endgame.regions import Region, agreed_ownership, find_regions, split_hot_spots
from tengen.endgame.tree import GrowthConfig, grow_tree
from tengen.go import BLACK, WHITE, Board
from tengen.go.coords import from_gtp
from tengen.go.diagram import board_from_diagram, parse_diagram

from standin_networks import ONE_DAME, STANDIN_OPTIONS, StandInNetwork


def ContestedEvaluator() -> StandInNetwork:
    """Policy on the contested points only; see `standin_networks`."""
    return StandInNetwork("contested")



def test_a_point_the_side_to_move_would_take_is_a_region_and_the_move():
    # With one color to move, the contested point C4 looks owned by that color; only the agreement of
    # both colors shows it undecided (the bug: endgame1 recommended moves far from the real fights).
    for to_play in (BLACK, WHITE):
        board = board_from_diagram(ONE_DAME)
        board.to_play = to_play
        analysis = analyze_board(board, ContestedEvaluator())
        assert [sorted(r.region.points) for r in analysis.regions] == [[from_gtp("C4", 5)]]
        (result,) = analysis.regions
        assert result.temperature == 1 and result.count == 0 and result.kind == "gote"
        assert analysis.recommended == (to_play, from_gtp("C4", 5))


def test_agreed_ownership_keeps_the_weaker_of_two_same_sign_values():
    first = np.array([[1.0, 0.95, -0.9, 0.5]])
    second = np.array([[-1.0, 0.92, -0.97, 0.1]])
    assert agreed_ownership(first, second).tolist() == [[0.0, 0.92, -0.9, 0.1]]


def _maps(diagram: str) -> tuple[np.ndarray, np.ndarray]:
    """Ownership and swing maps drawn as a board diagram: X / O settled (+1 / -1, swing 0), ? lukewarm
    (-0.8 whoever moves, swing 0.1), ! hot (0 agreed, swing 1.8)."""
    grid, marks = parse_diagram(diagram)
    own, swing = grid.astype(float), np.zeros(grid.shape)
    for mark, (value, change) in (("?", (-0.8, 0.1)), ("!", (0.0, 1.8))):
        for point in marks.get(mark, []):
            own[point], swing[point] = value, change
    return own, swing


def test_two_hot_spots_joined_by_quiet_points_become_two_regions():
    own, swing = _maps("""
        ? ? ! ! ?
        ! O O O ?
        X X X X X
    """)  # a fight on the top edge and one on the left, joined through the corner
    (joined,) = find_regions(own)
    parts = split_hot_spots([joined], swing)
    assert [sorted(r.points) for r in parts] == [[(0, 1), (0, 2), (0, 3), (0, 4), (1, 4)], [(0, 0), (1, 0)]]
    assert [r.id for r in parts] == [0, 1]
    assert all("split from a region with several hot spots" in r.notes for r in parts)


@pytest.mark.parametrize("diagram", [
    """
        ! ? ! ? ?
        O O O O ?
        X X X X X
    """,  # hot points two steps apart are one spot
    """
        ? ? ! ! ?
        ? O O O ?
        X X X X X
    """,  # one hot spot
], ids=["two-steps-apart", "one-spot"])
def test_one_hot_spot_keeps_the_region_whole(diagram):
    own, swing = _maps(diagram)
    (joined,) = find_regions(own)
    assert split_hot_spots([joined], swing) == [joined]


KO = """
    . . . . .
    . . . . .
    . . . . .
    O . X O .
    . X O . O
"""


def test_kata_predictor_reports_the_retake_that_ko_bans():
    board = board_from_diagram(KO)
    board.play(BLACK, from_gtp("D1", 5))  # captures C1: White may not retake at C1 at once
    region = Region(0, frozenset({from_gtp("B2", 5), from_gtp("C1", 5), from_gtp("D1", 5)}))  # B2 still open
    (pred,) = KataPolicyPredictor(ContestedEvaluator()).predict([PredictionRequest(board, ((BLACK, from_gtp("D1", 5)),), region)])
    assert pred.ko_retake == {WHITE: from_gtp("C1", 5)}


class ScriptedPredictor:
    name = "scripted"

    def __init__(self, script):
        self.script = script

    def predict(self, requests):
        return [self.script.get(req.history, LocalPrediction(no_move=1.0)) for req in requests]


def test_a_ko_banned_color_gets_the_retake_not_a_threat():
    board = board_from_diagram(KO)
    take = (BLACK, from_gtp("D1", 5))
    region = Region(0, frozenset({from_gtp("C1", 5), from_gtp("D1", 5)}))
    script = {
        (): LocalPrediction(black={take[1]: 1.0}, white={from_gtp("D1", 5): 1.0}),
        (take,): LocalPrediction(black={from_gtp("C1", 5): 1.0}, ko_retake={WHITE: from_gtp("C1", 5)}),
    }
    tree = grow_tree(board, region, ScriptedPredictor(script), GrowthConfig(missing_color="probe"))
    after_take = tree.root.children[BLACK][0][1]
    assert after_take.ko_retakes == [(WHITE, from_gtp("C1", 5))]
    assert after_take.children[WHITE] == []  # no +-inf threat leaf for the banned side


def test_a_missing_color_without_a_legal_move_has_no_option_when_probing():
    board = Board(5)
    region = Region(0, frozenset({(4, 0), (4, 1)}))
    b1 = (BLACK, (4, 0))
    script = {(): LocalPrediction(black={(4, 0): 1.0}, white={(4, 1): 1.0}),
              (b1,): LocalPrediction(black={(4, 1): 1.0})}  # White has no local move after B A1
    tree = grow_tree(board, region, ScriptedPredictor(script), GrowthConfig(missing_color="probe"))
    after = tree.root.children[BLACK][0][1]
    assert after.children[WHITE] == [] and [p for p, _ in after.children[BLACK]] == [(4, 1)]


TWO_CONTESTED = """
    X X . O O
    X X . O O
    X X X O O
    X X X O O
    X X X O O
"""


def test_kata_predictor_leaves_other_regions_moves_to_them():
    board = board_from_diagram(TWO_CONTESTED)
    c4, c5 = from_gtp("C4", 5), from_gtp("C5", 5)
    region = Region(0, frozenset({c4}))
    predictor = KataPolicyPredictor(ContestedEvaluator())
    (alone,) = predictor.predict([PredictionRequest(board, (), region)])
    (shared,) = predictor.predict([PredictionRequest(board, (), region, claimed=frozenset({c5}))])
    assert set(alone.black) == {c4, c5} and set(shared.black) == {c4}


def test_cache_evaluates_each_position_and_color_once():
    inner = ContestedEvaluator()
    cache = CachedEvaluator(inner)
    a, b = board_from_diagram(ONE_DAME), board_from_diagram(ONE_DAME)
    b.to_play = WHITE
    cache.evaluate([a, a.copy(), b])
    assert inner.rows == 2 and cache.fresh == [True, False, True]
    # the same stones reached by another move order are one position
    y = Board(5)
    y.play(BLACK, (0, 0)), y.play(WHITE, (3, 3)), y.play(BLACK, (2, 2))
    z = Board(5)
    z.play(BLACK, (2, 2)), z.play(WHITE, (3, 3)), z.play(BLACK, (0, 0))
    cache.evaluate([y])
    cache.evaluate([z])
    assert cache.fresh == [False] and cache.evaluations == 3 and cache.hits == 2


TWO_DAME = """
    X X O O .
    X X . O O
    X X X O O
    X X X X O
    X X . O O
"""


def test_regions_grow_together_and_each_is_charged_its_own_evaluations():
    inner = ContestedEvaluator()
    board = board_from_diagram(TWO_DAME)
    analysis = analyze_board(board, inner, STANDIN_OPTIONS)
    assert len(analysis.regions) == 2
    assert analysis.evaluations == inner.rows
    # the root (2 colors) once for all; then each region's two children, 2 colors each
    assert [r.evaluations for r in analysis.regions] == [4, 4] and inner.rows == 2 + 8


def test_leaves_scored_board_wide_or_region_by_region_give_the_same_analysis_and_its_phases():
    board = board_from_diagram(TWO_DAME)
    by = {batches: analyze_board(board, ContestedEvaluator(), replace(STANDIN_OPTIONS, leaf_batches=batches))
          for batches in ("board", "region")}
    summary = {batches: [(sorted(r.region.points), r.count, r.temperature, r.kind, r.evaluations) for r in a.regions]
               for batches, a in by.items()}
    assert summary["board"] == summary["region"]
    stats = by["board"].phases.stats
    assert stats["ownership/katago"].rows == 2 and stats["trees/katago"].rows == 8  # the counts of the test above
    assert {"regions", "trees", "leaves", "cgt", "move check"} <= set(stats)


def test_a_ko_the_ko_rule_cannot_value_falls_back_to_leaving_the_retake_out():
    from tengen.endgame.results import RegionResult
    from tengen.endgame.cgt_bridge import tree_parts
    from tengen.endgame.tree import LocalNode, LocalTree

    def leaf(value, *history):
        return LocalNode(history=history, kind="leaf", value=value)

    take, connect, retake, other = (BLACK, (4, 3)), (BLACK, (4, 2)), (WHITE, (4, 2)), (WHITE, (3, 4))
    after_take = LocalNode(history=(take,), ko_retakes=[retake])
    after_take.children[BLACK].append((connect[1], leaf(2, take, connect)))
    after_take.children[WHITE].append((other[1], leaf(-1, take, other)))  # a second exit: not a simple ko
    root = LocalNode()
    root.children[BLACK].append((take[1], after_take))
    root.children[WHITE].append((connect[1], leaf(-2, (WHITE, (4, 3)))))
    region = Region(0, frozenset({(4, 2), (4, 3)}))
    value, play, notes = tree_parts(LocalTree(root, region, 5), 5)
    result = RegionResult.from_parts(region, value, play, notes=notes)
    assert any(n.startswith("ko approximated") for n in result.notes)
    assert result.temperature is not None and result.best_black == [take[1]]  # {{2 | -1} | -2}


def test_a_shared_node_budget_cuts_every_tree_alike_and_flags_them():
    from tengen.endgame.tree import grow_trees

    class Wide:
        name = "wide"

        def predict(self, requests):
            out = []
            for req in requests:
                free = [p for p in sorted(req.region.points) if req.board.get(p) == 0]
                moves = {p: 1.0 for p in free}
                out.append(LocalPrediction(black=dict(moves), white=dict(moves)) if free else LocalPrediction(no_move=1.0))
            return out

    top = Region(0, frozenset((0, c) for c in range(5)))
    bottom = Region(1, frozenset((4, c) for c in range(5)))
    config = GrowthConfig(move_fraction=0.1, max_total_nodes=30)
    trees = grow_trees(Board(5), [top, bottom], Wide(), config)
    assert all(t.budget_exhausted for t in trees)
    assert sum(t.nodes - 1 for t in trees) == 30
    # 10 children at each root; the last 10 nodes go one expansion per tree in turn, not all to the first
    assert all(t.nodes > 11 for t in trees)
    cut = [n for t in trees for n in t.root.walk() if n.reason == "node budget"]
    assert cut and all(n.kind == "leaf" for n in cut)


def test_the_board_count_lies_between_the_networks_counts_for_each_side_to_move():
    from tengen.io.report import json_report, text_report

    analysis = analyze_board(board_from_diagram(ONE_DAME), ContestedEvaluator())
    black_first, white_first = analysis.network_counts
    assert (black_first, white_first) == (analysis.sure_count + 1, analysis.sure_count - 1)  # C4 goes to the mover
    assert white_first < analysis.board_count < black_first
    assert "with Black to move" in text_report(analysis)
    assert json_report(analysis)["network_counts"] == {"black_to_move": black_first, "white_to_move": white_first}


def test_a_board_count_outside_the_networks_range_is_flagged():
    from tengen.io.report import text_report

    analysis = analyze_board(board_from_diagram(ONE_DAME), ContestedEvaluator())
    assert "warning" not in text_report(analysis)
    analysis.regions[0].count = 5.0  # as if the region were misjudged by five points
    assert "warning: the board count lies outside the network's range" in text_report(analysis)


def test_a_network_swing_far_beyond_the_hottest_region_is_flagged():
    from tengen.io.report import text_report

    analysis = analyze_board(board_from_diagram(ONE_DAME), ContestedEvaluator())
    black_first, white_first = analysis.network_counts
    assert black_first - white_first == 2 and analysis.regions[0].temperature == 1  # one dame: t 1 each way
    assert analysis.underread_swing() is None and "under-read" not in text_report(analysis)
    analysis.network_counts = (12.0, -8.0)  # as if the network saw a fight worth ten points
    assert analysis.underread_swing() == (10.0, 1.0)
    assert "a region is probably under-read" in text_report(analysis)


def test_the_underread_warning_quotes_the_temperature_the_table_shows():
    """A settled region (a number, temperature -1 in the table) is quoted as -1, not clamped to 0."""
    from tengen.io.report import text_report

    analysis = analyze_board(board_from_diagram(ONE_DAME), ContestedEvaluator())
    analysis.regions[0].temperature, analysis.regions[0].kind = -1.0, "number"
    analysis.network_counts = (12.0, -8.0)
    assert analysis.underread_swing() == (10.0, -1.0)
    report = text_report(analysis)
    assert "no region has a move that gains (the table's temperatures are all '-'):" in report
    assert analysis.regions[0].miai_value is None and analysis.regions[0].deiri_value is None
    row = next(line for line in report.splitlines() if line.startswith("A "))
    assert row.split()[4:7] == ["-", "-", "-"]  # temp, miai, deiri: none, as the warning says


def test_a_node_where_a_color_cannot_play_is_worth_the_other_colors_stop():
    """White took a ko; Black's retake is banned and, when the ko rule cannot value the ko, left out:
    White's connection (-5) is then the node's value, not the normal-play number {| -5} = -6."""
    from tengen.endgame.cgt_bridge import analyze_local, to_variation
    from tengen.endgame.tree import LocalNode

    node = LocalNode(ko_retakes=[(BLACK, (8, 4))])
    node.children[WHITE].append(((8, 4), LocalNode(kind="leaf", value=-5.0)))
    assert analyze_local(to_variation(node, ko=False)).mean == -5
    root = LocalNode()
    root.children[BLACK].append(((8, 2), LocalNode(kind="leaf", value=1.0)))
    root.children[WHITE].append(((8, 3), node))
    ta = analyze_local(to_variation(root, ko=False))
    assert (ta.mean, ta.temperature) == (-2, 3)


def test_the_report_names_every_kind_in_words():
    from tengen.io.report import text_report

    analysis = analyze_board(board_from_diagram(ONE_DAME), ContestedEvaluator())
    for kind, words in (("infinitesimal", "no gain (temperature 0)"), ("unbounded", "unanswered threat (no count)")):
        analysis.regions[0].kind = kind
        assert words in text_report(analysis)


def test_a_number_whose_first_moves_start_fights_is_reported_cold_not_settled():
    """The shape of a real semeai tree (KGS 2002-02-13-29, move 240, cut by the budget): Black's start
    {24 | -17} and White's start {-12 | -18} are hot, yet the root is the number -12 (Black's best start
    ends at -17 once White answers, White's at -12): neither gains by starting. The table must not call
    that settled, and the note gives both ends. A region whose moves only lose points stays settled."""
    from tengen.endgame.results import RegionResult
    from tengen.endgame.cgt_bridge import tree_parts, whole_board_move
    from tengen.endgame.tree import LocalNode, LocalTree
    from tengen.io.report import kind_text

    def switch(left: float, right: float) -> LocalNode:
        node = LocalNode()
        node.children[BLACK].append(((0, 0), LocalNode(kind="leaf", value=left)))
        node.children[WHITE].append(((0, 0), LocalNode(kind="leaf", value=right)))
        return node

    def result_of(black: LocalNode, white: LocalNode) -> RegionResult:
        root = LocalNode()
        root.children[BLACK].append((from_gtp("L5", 19), black))
        root.children[WHITE].append((from_gtp("M4", 19), white))
        region = Region(0, frozenset({from_gtp("L5", 19), from_gtp("M4", 19)}))
        value, play, notes = tree_parts(LocalTree(root, region, 7), 19)
        return RegionResult.from_parts(region, value, play, notes=notes)

    fight = result_of(switch(24, -17), switch(-12, -18))
    assert (fight.kind, fight.count) == ("number", -12)
    assert kind_text(fight) == "cold (no start gains)"
    assert "after Black's best start L5 and best play the count is -17, after White's M4 -12" in fight.cold_fight
    assert fight.cold_fight in fight.notes
    move, reason = whole_board_move([fight], BLACK)
    assert move is None and reason.startswith("no move gains by the regions' values, but region A read cold")
    quiet = result_of(LocalNode(kind="leaf", value=-13.0), LocalNode(kind="leaf", value=-11.0))
    assert (quiet.kind, quiet.cold_fight, kind_text(quiet)) == ("number", "", "settled (number)")
    assert whole_board_move([quiet], BLACK) == (None, "no hot region")
