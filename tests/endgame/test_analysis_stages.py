"""The analysis as named stages (`tengen.endgame.analysis.STAGES`): every front end runs the same ones, the
game review included; the region method apart from the move predictor, each a registry; typed notes; the
settings' checks in AnalysisOptions, said by the CLI with the flag's name. Diagrams: X Black, O White."""
from __future__ import annotations

import pickle
from dataclasses import replace

import pytest

from standin_networks import LIBERTY_CRITICAL, STANDIN_OPTIONS, LibertyNetwork
from tengen.endgame.analysis import STAGES, analyze_board
from tengen.endgame.local_games import REGION_METHODS
from tengen.endgame.move_predictors import MOVE_PREDICTORS
from tengen.endgame.notes import KINDS, Note, of_kind, without_kind
from tengen.endgame.options import PREDICTORS, AnalysisOptions, OptionError
from tengen.go.diagram import board_from_diagram

# a marked corner the exact solver finishes: Black's hane at A1 or White's, one point each way
CORNER = """
    . . . . .
    O O O . .
    X X O . .
    . X O . .
    . X O . .
"""


def test_the_stages_are_named_and_run_in_order():
    assert [name for name, _ in STAGES] == ["network", "ownership", "regions", "local games", "values",
                                            "move check", "life", "totals"]


@pytest.mark.parametrize("predictor,method,proposer", [
    ("auto", "auto", "tree predictor"), ("exhaustive", "exact", None), ("kata", "tree", "kata"),
    ("net", "tree", "net"), ("oracle", "tree", "oracle"),
])
def test_a_predictor_name_splits_into_a_region_method_and_a_move_predictor(predictor, method, proposer):
    options = AnalysisOptions(predictor=predictor)
    assert options.region_method == method and method in REGION_METHODS
    expected = options.tree_predictor() if proposer == "tree predictor" else proposer
    assert options.move_predictor() == expected
    assert expected is None or expected in MOVE_PREDICTORS
    assert set(PREDICTORS) == {"auto", "exhaustive"} | set(MOVE_PREDICTORS)


def test_the_life_stage_runs_inside_the_analysis_on_a_whole_board():
    board = board_from_diagram(LIBERTY_CRITICAL)
    network = LibertyNetwork()
    analysis = analyze_board(board, network, replace(STANDIN_OPTIONS, move_check_margin=None))
    assert len(analysis.critical_groups) == 1 and analysis.critical_groups[0].size == 2
    life = [n for r in analysis.regions for n in of_kind(r.notes, "life")]
    assert len(life) == 1 and life[0].startswith("the Black group at C4 (2 stones) dies if White plays ")
    assert "critical groups" in analysis.phases.stats  # its own phase
    assert analysis.evaluations == network.rows  # its evaluations are the analysis's own, counted once each
    quiet = analyze_board(board, LibertyNetwork(), replace(STANDIN_OPTIONS, move_check_margin=None, life_groups=0))
    assert quiet.critical_groups == [] and not any(of_kind(r.notes, "life") for r in quiet.regions)


def test_a_marked_region_gets_no_life_stage_and_no_network():
    board = board_from_diagram(CORNER)
    points = [(3, 0), (4, 0)]
    analysis = analyze_board(board, None, AnalysisOptions(), region_points=points)
    assert analysis.critical_groups == [] and analysis.evaluations == 0
    (result,) = analysis.regions
    assert result.method == "exhaustive"
    assert [n.kind for n in of_kind(result.notes, "method", "positions")] == ["method", "positions"]


def test_a_note_is_its_sentence_with_a_kind_and_survives_copies():
    note = Note("budget", "budget exhausted: tree cut at 7 nodes")
    assert note == "budget exhausted: tree cut at 7 nodes" and note.kind == "budget"
    again = pickle.loads(pickle.dumps(note))  # batch workers and the region cache copy results
    assert again.kind == "budget" and again == note
    notes = [note, Note("ko", "ko approximated"), "a plain string"]
    assert of_kind(notes, "ko") == ["ko approximated"]
    assert without_kind(notes, "budget") == ["ko approximated", "a plain string"]
    with pytest.raises(ValueError, match="unknown note kind 'gossip'"):
        Note("gossip", "x")
    assert all(isinstance(what, str) and what for what in KINDS.values())


@pytest.mark.parametrize("settings,field", [
    (dict(threshold=0), "threshold"), (dict(margin=-1), "margin"), (dict(life_groups=-2), "life_groups"),
    (dict(leaf_confidence=0.7), "leaf_confidence"), (dict(predictor="magic"), "predictor"),
])
def test_a_setting_out_of_range_names_its_field_and_the_cli_names_its_flag(settings, field):
    with pytest.raises(OptionError) as info:
        AnalysisOptions(**settings)
    assert info.value.field == field
    flag = "--" + field.replace("_", "-")
    said = info.value.flag_message({field: flag})
    assert said.startswith((flag + " ", flag + ":")) and str(info.value) in said.replace(flag, field, 1)


def test_the_tree_budgets_are_checked_with_the_options():
    from tengen.endgame.tree import GrowthConfig

    with pytest.raises(OptionError) as info:
        AnalysisOptions(growth=GrowthConfig(max_nodes=0))
    assert info.value.field == "max_nodes"
    with pytest.raises(OptionError) as info:
        AnalysisOptions(growth=GrowthConfig(max_nodes=5, max_total_nodes=0))
    assert info.value.field == "max_total_nodes"


# LIBERTY_CRITICAL as a record (6x6, Black's pair C4 D4 between White's pairs), then a move far from it
CRITICAL_RECORD = (b"(;GM[1]FF[4]SZ[6]KM[0]RU[Chinese]AB[cc][dc]AW[cb][db][cd][dd]PL[W];W[ff];B[af])")


def test_the_review_runs_the_life_stage_and_says_what_was_at_stake():
    from tengen.endgame.review import review_game
    from tengen.go.sgf import load_game_bytes
    from tengen.io.review_report import move_comment, review_json, review_text

    game = load_game_bytes(CRITICAL_RECORD, "critical.sgf")
    review = review_game(game, LibertyNetwork(), AnalysisOptions(predictor="kata", move_check_margin=None), start=1)
    first = review.moves[0]
    assert len(first.at_stake) == 1 and first.at_stake[0].startswith("the Black group at C4 (2 stones) dies if")
    assert "at stake: the Black group at C4" in review_text(review)
    assert review_json(review)["moves"][0]["at_stake"] == first.at_stake
    assert "At stake: the Black group at C4" in move_comment(first, game.height)
