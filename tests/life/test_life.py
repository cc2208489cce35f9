"""Life and death by search: eye shapes, ko, seki, Benson, capture, the node cap, and the GTP commands."""
from __future__ import annotations

from tengen.go.diagram import board_from_diagram
from tengen.io.engines import gtp_engine
from tengen.life.search import ALIVE, DEAD, LifeConfig, LifeSearch, analyze_group, analyze_region

STRAIGHT_THREE = """
. . . . . . .
O O O O O . .
X X X X O . .
. . . X O . .
"""

BENT_FOUR_CORNER = """
. . . . . .
O O O O O .
X X X X O .
. X X X O .
. . . X O .
"""

BULKY_FIVE = """
. . . . . . .
O O O O O . .
X X X X O . .
. . . X O . .
. . X X O . .
"""

PASS_ALIVE = """
. . . . . . .
O O O O O . .
X X X X O . .
. X . X O . .
"""

IN_ATARI = """
. . . . . .
O O O O . .
X X X O . .
. X X O . .
"""

SEKI = """
. . . . . . . . .
O O O O O O O O .
O X X X X X X O .
O X . O O . X O .
O X O O O O X O .
"""


def test_straight_three_is_critical_at_its_vital_point():
    result = analyze_group(board_from_diagram(STRAIGHT_THREE), (2, 0))
    assert result.status == "critical"
    assert result.attack == (3, 1) and result.defense == (3, 1)
    assert (result.attack_code, result.defense_code) == (1, 1)


def test_straight_three_by_side_to_move():
    search = LifeSearch(board_from_diagram(STRAIGHT_THREE), (2, 0))
    assert search.defend().outcome == ALIVE
    assert search.attack().outcome == DEAD


def test_bulky_five_is_critical_at_its_vital_point():
    result = analyze_group(board_from_diagram(BULKY_FIVE), (2, 0))
    assert result.status == "critical"
    assert result.attack == (3, 1) and result.defense == (3, 1)


def test_bent_four_in_the_corner_is_a_ko_for_the_attacker():
    # White's hane inside leaves Black short of liberties: the best Black gets is a ko (ko for life).
    result = analyze_group(board_from_diagram(BENT_FOUR_CORNER), (2, 0))
    assert result.status == "ko"
    assert result.attack == (4, 1) and result.attack_code == 2
    assert result.defense_code == 1


def test_seki_is_alive():
    # Neither side can fill the two shared liberties without being captured first.
    result = analyze_group(board_from_diagram(SEKI), (2, 1))
    assert result.status == "alive"


def test_pass_alive_group_needs_no_search():
    result = analyze_group(board_from_diagram(PASS_ALIVE), (2, 0))
    assert result.status == "alive" and result.attack is None and result.nodes == 0


def test_group_in_atari_without_eyes_is_dead():
    result = analyze_group(board_from_diagram(IN_ATARI), (2, 0))
    assert result.status == "dead"
    assert result.attack == (3, 0)


def test_region_and_side_that_wants_to_live():
    board = board_from_diagram(STRAIGHT_THREE)
    result = analyze_region(board, [(3, 0), (3, 1), (3, 2), (2, 0), (2, 1)], defender=1)
    assert result.status == "critical"


def test_node_cap_answers_unknown():
    result = analyze_group(board_from_diagram(BULKY_FIVE), (2, 0), LifeConfig(max_nodes=1))
    assert result.status == "unknown" and result.attack is None


def test_every_winning_first_move_is_listed():
    search = LifeSearch(board_from_diagram(STRAIGHT_THREE), (2, 0))
    answer = search.attack()
    assert answer.outcome == DEAD and answer.move in answer.wins and (3, 1) in answer.wins


def test_results_count_nodes_not_seconds():
    board = board_from_diagram(BULKY_FIVE)
    assert analyze_group(board, (2, 0)) == analyze_group(board, (2, 0))


def _engine(diagram: str) -> GtpEngine:
    engine = gtp_engine()
    engine.board = board_from_diagram(diagram)
    return engine


def test_gtp_dragon_status():
    engine = _engine(STRAIGHT_THREE)  # 7 wide, 4 high: A4 is the top-left point
    assert engine.handle("dragon_status A2") == "= critical B1 B1\n\n"
    assert _engine(PASS_ALIVE).handle("1 dragon_status A2") == "=1 alive\n\n"
    assert _engine(IN_ATARI).handle("dragon_status B1") == "= dead\n\n"


def test_gtp_owl_attack_and_defend():
    engine = _engine(STRAIGHT_THREE)
    assert engine.handle("owl_attack A2") == "= 1 B1\n\n"
    assert engine.handle("owl_defend A2") == "= 1 B1\n\n"
    assert _engine(PASS_ALIVE).handle("owl_attack A2") == "= 0\n\n"
    assert _engine(IN_ATARI).handle("owl_defend A2") == "= 0\n\n"
    assert _engine(BENT_FOUR_CORNER).handle("owl_attack A3") == "= 2 B1\n\n"


def test_gtp_life_commands_refuse_bad_input():
    engine = _engine(STRAIGHT_THREE)
    assert engine.handle("dragon_status") == "? syntax error\n\n"
    assert engine.handle("owl_attack A1") == "? vertex must not be empty\n\n"
    assert engine.handle("owl_defend Z9") == "? invalid vertex\n\n"
    assert engine.handle("dragon_status A2 B2") == "? syntax error\n\n"
    assert engine.handle("tengen-life_budget 0") == "? budget must be positive\n\n"
    assert engine.handle("tengen-life_budget many") == "? syntax error\n\n"
    assert engine.handle("tengen-life_budget 5000 -1") == "? budget must be positive\n\n"
    assert engine.handle("tengen-life_budget 5000 60") == "=\n\n"
    assert engine.handle("dragon_status A2") == "= critical B1 B1\n\n"
    assert engine.handle("tengen-life_budget 1") == "=\n\n"
    assert engine.handle("dragon_status A2") == "= unknown\n\n"


# Black's C3 takes White's B3 stone: a ko capture (Black's stone there is left with one liberty, B3)
KO_CAPTURE = """
. X O . .
X O . O .
. X O . .
. . . . .
"""


def test_the_first_ko_capture_on_a_line_is_found_and_the_board_restored():
    board = board_from_diagram(KO_CAPTURE)
    search = LifeSearch(board, (0, 2))  # White's stone on the top edge; Black attacks
    before = (search.nb.hash, search.nb.undo_depth)
    assert search.first_ko_capture(1, (1, 2)) == 1  # Black's capture at C3 is the ko capture
    assert search.first_ko_capture(1, (3, 3)) is None  # no searched line after D1: nothing to follow
    assert (search.nb.hash, search.nb.undo_depth) == before


def test_a_ko_that_the_network_cannot_see_gets_gnu_gos_ko_code():
    from tengen.life.net import owl_answer

    from standin_networks import UniformNetwork

    board = board_from_diagram(BENT_FOUR_CORNER)
    code, move = owl_answer(board, (2, 0), UniformNetwork(), attack=True)  # no ownership: the network finds no kill
    # the search's ko at White's hane inside; White's hane captures first on the searched line: code 2
    assert (code, move) == (2, (4, 1))
    # the search finds Black's defence no ko, so the network's own judgement stands (none, with no ownership)
    assert owl_answer(board, (2, 0), UniformNetwork(), attack=False) == (0, None)
