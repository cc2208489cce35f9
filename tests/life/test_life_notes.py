"""Critical groups said in words (`tengen.life.notes`, `tengen.endgame.analysis.note_critical_groups`, the analysis's life stage, the text and
JSON reports), with the liberty stand-in network (a chain lives when, after the opponent's next move, it would
still have two liberties). Diagrams: X Black, O White."""
from __future__ import annotations

from tengen.endgame.analysis import note_critical_groups
from tengen.endgame.regions import Region
from tengen.endgame.results import Analysis, RegionResult
from tengen.go.colors import BLACK
from tengen.go.diagram import board_from_diagram
from tengen.io.report import json_report, text_report
from tengen.life.notes import at_stake, critical_groups

from standin_networks import LIBERTY_CRITICAL, LibertyNetwork

CRITICAL = LIBERTY_CRITICAL  # the black pair C4-D4: whoever moves first decides
# the black pair has three liberties: alive whoever moves
SETTLED = """
    . . . . . .
    . . O O . .
    . O X X . .
    . . O O . .
    . . . . . .
    . . . . . .
"""


def test_the_group_whose_life_swings_with_the_move_is_at_stake():
    board = board_from_diagram(CRITICAL)
    network = LibertyNetwork()
    own = [e.ownership for e in network.evaluate([_to_play(board, 1), _to_play(board, -1)])]
    assert at_stake(board, own[0], own[1]) == [{(2, 2), (2, 3)}]
    board = board_from_diagram(SETTLED)
    own = [e.ownership for e in network.evaluate([_to_play(board, 1), _to_play(board, -1)])]
    assert at_stake(board, own[0], own[1]) == []


def test_a_critical_group_gets_its_key_moves_and_a_sentence():
    board = board_from_diagram(CRITICAL)
    groups = critical_groups(board, LibertyNetwork())
    assert len(groups) == 1
    group = groups[0]
    assert group.color == BLACK and group.size == 2
    assert group.attack in {(2, 1), (2, 4)} and group.defense in {(2, 1), (2, 4)}
    sentence = group.sentence(board.height)
    assert sentence.startswith("the Black group at C4 (2 stones) dies if White plays ")
    assert "not proved" in sentence


def test_the_note_goes_to_the_region_holding_the_key_move_and_into_both_reports():
    board = board_from_diagram(CRITICAL)
    region = RegionResult(Region(0, frozenset({(2, 1), (2, 4), (2, 5)})))
    elsewhere = RegionResult(Region(1, frozenset({(5, 5)})))
    analysis = Analysis(board, [elsewhere, region], ownership=None, sure_count=0.0)
    note_critical_groups(analysis, LibertyNetwork(), limit=2)
    assert len(region.notes) == 1 and "dies if White plays" in region.notes[0]
    assert elsewhere.notes == []
    report = json_report(analysis)
    assert report["critical_groups"][0]["color"] == "B" and report["critical_groups"][0]["proved"] is False
    assert "dies if White plays" in text_report(analysis)


def test_a_group_outside_every_region_is_said_on_its_own_line():
    board = board_from_diagram(CRITICAL)
    analysis = Analysis(board, [RegionResult(Region(0, frozenset({(5, 5)})))], ownership=None, sure_count=0.0)
    note_critical_groups(analysis, LibertyNetwork(), limit=2)
    assert analysis.regions[0].notes == []
    assert any(line.startswith("life and death: the Black group at C4") for line in text_report(analysis).splitlines())


def _to_play(board, color):
    position = board.copy()
    position.to_play = color
    return position
