"""Life and death judged by the network one move deep (`tengen.life.net`), with a stand-in network
whose ownership follows liberties: a chain lives when, after the opponent's next move, it would still have
two liberties. Diagrams: X Black, O White."""
from __future__ import annotations

import numpy as np
import pytest

from tengen.go.coords import from_gtp
from tengen.go.diagram import board_from_diagram
from tengen.io.engines import gtp_engine
from tengen.life.net import dragon, network_status

from standin_networks import LIBERTY_CRITICAL, LibertyNetwork


CRITICAL = LIBERTY_CRITICAL  # the black pair C4-D4: whoever moves first decides
# three liberties (E5, E3, F4): alive even if White moves first
ALIVE = """
    . . . . . .
    . . O O . .
    . O X X X .
    . . O O . .
    . . . . . .
    . . . . . .
"""
# one liberty (B4): dead even if Black moves first
DEAD = """
    . . . . . .
    . . O O . .
    . . X X O .
    . . O O . .
    . . . . . .
    . . . . . .
"""


def test_the_dragon_joins_chains_that_share_a_liberty():
    board = board_from_diagram("""
        X . X . .
        . . . . .
        . . . . X
        . . . . .
        . . . . .
    """)
    assert dragon(board, (0, 0)) == {(0, 0), (0, 2)}  # A5 and C5 share the liberty B5; E3 stands apart


@pytest.mark.parametrize("diagram, status", [(ALIVE, "alive"), (DEAD, "dead"), (CRITICAL, "critical")])
def test_statuses_follow_the_ownership_with_each_side_to_move(diagram, status):
    board = board_from_diagram(diagram)
    result = network_status(board, (2, 2), LibertyNetwork())
    assert result.status == status


def test_a_critical_group_gets_the_moves_that_decide_it():
    board = board_from_diagram(CRITICAL)
    h, w = board.height, board.width
    network = LibertyNetwork()
    result = network_status(board, (2, 2), network)
    # among the likeliest moves (a uniform policy: board order), B4 takes a liberty and B4 extends to four
    assert result.attack == from_gtp("B4", h, w) and result.attack_code == 1
    assert result.defense == from_gtp("B4", h, w) and result.defense_code == 1
    assert result.nodes == network.rows  # every evaluation counted


def test_gtp_answers_in_gnu_gos_formats_proved_first_then_judged_by_the_network():
    network = LibertyNetwork()
    engine = gtp_engine(size=6, life_network=lambda: network)
    board = board_from_diagram(CRITICAL)
    for (r, c) in zip(*np.nonzero(board.array())):
        color = "b" if board.array()[r, c] == 1 else "w"
        assert engine.handle(f"play {color} {'ABCDEF'[c]}{6 - r}").startswith("=")
    assert engine.handle("dragon_status C4") == "= critical B4 B4\n\n"
    assert engine.handle("tengen-life_basis") == "= judged\n\n"  # the defence is not proved within the budget
    assert engine.handle("owl_attack C4") == "= 1 E4\n\n"  # the df-pn proof answers first: the ladder to the edge
    assert engine.handle("tengen-life_basis") == "= proved\n\n"
    assert engine.handle("owl_defend C4") == "= 1 B4\n\n"
    assert engine.handle("tengen-life_basis") == "= judged\n\n"


# Black's corner group has two eyes (A6, C6): pass-alive, whatever anyone plays
TWO_EYES = """
    . X . X O .
    X X X X O .
    O O O O O .
    . . . . . .
    . . . . . .
    . . . . . .
"""


def _engine_with(diagram: str, life_network=None):
    """A 6x6 GTP engine holding the diagram's stones (played in board order)."""
    engine = gtp_engine(size=6, life_network=life_network)
    grid = board_from_diagram(diagram).array()
    for (r, c) in zip(*np.nonzero(grid)):
        color = "b" if grid[r, c] == 1 else "w"
        assert engine.handle(f"play {color} {'ABCDEF'[c]}{6 - r}").startswith("=")
    return engine


def test_tengen_dragon_status_says_how_the_answer_is_known():
    network = LibertyNetwork()
    judged = _engine_with(CRITICAL, lambda: network).handle("tengen-dragon_status C4")
    assert judged.startswith("= critical B4 B4 judged nodes ")
    assert _engine_with(TWO_EYES, lambda: network).handle("tengen-dragon_status B6") == "= alive proved nodes 0\n\n"
    searched = _engine_with(CRITICAL).handle("tengen-dragon_status C4")
    assert searched.startswith("= critical ") and " searched nodes " in searched
