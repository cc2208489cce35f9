"""Exact local rules inside predictor-grown trees for sealed regions (`tengen.endgame.sealed`): the rules
core, not the network's ownership, decides where a line ends and what it counts, and a move that breaks
the seal is a ±inf threat. Regions that are not sealed are left to the network."""
from __future__ import annotations

import pytest

from tengen.endgame.analysis import analyze_region
from tengen.endgame.options import AnalysisOptions
from tengen.endgame.regions import Region
from tengen.endgame.sealed import SealedRules
from tengen.go import BLACK, WHITE, Board
from tengen.go.coords import from_gtp
from tengen.go.diagram import board_from_diagram

from standin_networks import StandInNetwork

AUTO = AnalysisOptions(predictor="auto")


def NaiveNetwork() -> StandInNetwork:
    """Plays anywhere legal; like KataGo on a sparse local diagram it calls the first-line point next to a
    fresh hane settled for the hane's color (see `standin_networks`)."""
    return StandInNetwork("anywhere")


# Black's first-line hane at E1 threatens F1, which would break into White's territory (F2, G1): sente.
SENTE_HANE = """
    . X . X O . O
    X X X X O O O
    . . . X O . .
    . . . X O . .
    . . . X . . .
"""


def _region(points: str, board: Board, source: str = "mask") -> Region:
    return Region(0, frozenset(from_gtp(p, board.height, board.width) for p in points.split()), source=source)


def test_the_rules_not_the_network_end_a_line_in_a_sealed_region():
    board = board_from_diagram(SENTE_HANE)
    region = _region("E1 F1", board)
    naive = analyze_region(board, region, NaiveNetwork(), AnalysisOptions(predictor="kata", sealed_rules=False))
    # the network ends every line where its ownership looks settled (after B E1 it credits F1 to Black)
    # and never sees the threat to break in: no sente
    assert naive.kind != "black_sente" and not any(n.kind == "threat" for n in naive.tree.root.walk())
    sealed = analyze_region(board, region, NaiveNetwork(), AnalysisOptions(predictor="kata"))
    assert (sealed.kind, sealed.temperature, sealed.count) == ("black_sente", 2.0, 0.0)
    assert sealed.best_black == [from_gtp("E1", board.height, board.width)]
    hane = dict(sealed.tree.root.children[BLACK])[from_gtp("E1", board.height, board.width)]
    follow_up = dict(hane.children[BLACK])[from_gtp("F1", board.height, board.width)]
    answer = dict(hane.children[WHITE])[from_gtp("F1", board.height, board.width)]
    assert follow_up.kind == "threat" and follow_up.threat == BLACK  # E1-F1 joins the wall and reaches G1
    assert answer.kind == "leaf" and answer.counted and answer.value == 0.0


def test_moves_outside_a_sealed_region_are_not_local_moves():
    board = board_from_diagram(SENTE_HANE)
    region = _region("E1 F1", board)
    result = analyze_region(board, region, NaiveNetwork(), AnalysisOptions(predictor="kata"))
    played = {p for node in result.tree.root.walk() for _, p in node.history}
    assert played <= region.points


# The outside point B2 borders both colors (B3, A2): a region the network found there is not sealed, so the
# network decides (a user's mask of it is a marked diagram: B2 is neutral, A1 and C1 join the local game).
OPEN = """
    . X O . .
    . X O . .
    X X O O O
    O . . O .
    X . X O .
"""


def test_a_region_that_is_not_sealed_is_left_to_the_network():
    board = board_from_diagram(OPEN)
    region = _region("B1 C2", board, "ownership")
    rules = SealedRules(object(), board, [region])
    assert not rules.sealed(region)
    with_rules = analyze_region(board, region, NaiveNetwork(), AnalysisOptions(predictor="kata"))
    without = analyze_region(board, region, NaiveNetwork(), AnalysisOptions(predictor="kata", sealed_rules=False))
    assert with_rules.game_text == without.game_text
    assert not any(n.counted for n in with_rules.tree.root.walk())


def test_walls_must_be_pass_alive_unless_the_user_marked_the_region():
    board = board_from_diagram(SENTE_HANE)
    marked, found = _region("E1 F1", board, "mask"), _region("E1 F1", board, "ownership")
    rules = SealedRules(object(), board, [marked])
    assert rules.sealed(marked)
    # White's wall has one eye (F5) besides the open area: not pass-alive, so an ownership region is not sealed
    assert not SealedRules(object(), board, [found]).sealed(found)


def test_auto_solves_sealed_regions_exactly_and_hands_the_rest_to_a_tree():
    from tengen.endgame.analysis import NeedsNetwork, analyze_regions

    board = board_from_diagram(SENTE_HANE)
    (solved,) = analyze_regions(board, [_region("E1 F1", board)], None, AUTO)  # no network needed
    assert (solved.kind, solved.temperature, solved.count) == ("black_sente", 2.0, 0.0)
    assert solved.tree is None and solved.method == "exhaustive" and "solved exactly" in solved.notes[0]
    open_board = board_from_diagram(OPEN)
    unsealed = _region("B1 C2", open_board, "ownership")
    with pytest.raises(NeedsNetwork):
        analyze_regions(open_board, [unsealed], None, AUTO)
    (grown,) = analyze_regions(open_board, [unsealed], NaiveNetwork(), AUTO)
    assert grown.tree is not None and grown.tree.predictor == AUTO.tree_predictor()  # net, else kata


# White's two stones at B2 C2 (and Black's A2) have no liberty outside the marked first and third lines:
# their life, not a boundary, is the question, so they join the marked region's local game (capturable).
ENCLOSED = """
    . . . . . .
    X X X X . .
    . . . X . .
    X O O X . .
    . . . X . .
"""


def test_auto_joins_an_enclosed_wall_chain_to_a_marked_region_and_solves_it():
    from tengen.endgame.analysis import analyze_regions

    board = board_from_diagram(ENCLOSED)
    region = _region("A1 B1 C1 A3 B3 C3", board)
    (result,) = analyze_regions(board, [region], None, AUTO)  # no network needed
    assert result.method == "exhaustive"
    assert any("joined to the region" in note and "B2" in note for note in result.notes)
    assert result.count == 9  # White's two stones cannot make two eyes: the 6 points, A2 and B2 C2 are Black's


def test_auto_loads_the_network_once_on_demand_and_never_repeats_an_exact_solve(monkeypatch):
    # a sealed region (solved exactly) beside one the solver declines (over a small position budget): the
    # network is loaded when the second needs it, once, and the first region's exact solve is not run again
    from tengen.endgame import cgt_bridge, local_games
    from tengen.endgame.analysis import analyze_regions

    monkeypatch.setattr(local_games, "auto_solver_nodes", lambda: 100)
    board = board_from_diagram(ENCLOSED)
    solvable = _region("F1 F2", board)
    enclosed = Region(1, _region("A1 B1 C1 A3 B3 C3", board).points, source="mask")
    solves, loads = [], []
    real_solve = cgt_bridge.solve_exhaustively
    monkeypatch.setattr(cgt_bridge, "solve_exhaustively",
                        lambda board, region, *rest: solves.append(region.id) or real_solve(board, region, *rest))

    def load():
        loads.append(1)
        return NaiveNetwork()

    results = analyze_regions(board, [solvable, enclosed], None, AUTO, load_evaluator=load)
    assert [r.method for r in results] == ["exhaustive", "tree"]
    assert loads == [1]
    assert sorted(solves) == [0, 1]  # each region tried once by the exact solver, never again
