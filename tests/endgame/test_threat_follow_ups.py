"""A tree whose answer-head threats (±inf) leave its value unbounded is valued again with each threat a probe of
the threatening color's next move (`tengen.endgame.local_games._threats_by_follow_ups`,
`tengen.endgame.tree.threats_as_probes`): a double sente at ±inf (each side's move judged sente, its answer
leaving a count) has no thermograph; with finite follow-ups it has one. Where that gives no bounded value either
(a break-in threat, which has no follow-up), the tree stays as it was."""
from __future__ import annotations

from tengen.cgt.thermo import UNBOUNDED
from tengen.endgame import cgt_bridge
from tengen.endgame.local_games import _threats_by_follow_ups
from tengen.endgame.notes import of_kind
from tengen.endgame.regions import Region
from tengen.endgame.tree import MISSING, LocalNode, LocalTree, _child, _threat_leaf
from tengen.go.colors import BLACK, WHITE
from tengen.go.diagram import board_from_diagram

# the middle row is the region; Black's wall above it, White's below
DIAGRAM = """
    . . . . .
    X X X X X
    . . . . .
    O O O O O
    . . . . .
"""
REGION = Region(0, frozenset((2, c) for c in range(5)))


def _leaf(parent: LocalNode, color: int, point, value: float) -> LocalNode:
    child, _ = _child(parent, color, point)
    child.kind, child.value = "leaf", value
    return child


def _double_sente(black_follow_up=(2, 0), white_follow_up=(2, 4)) -> LocalTree:
    """Root: Black (2, 1) judged sente, White answers (2, 2) for 2; White (2, 3) judged sente, Black answers
    (2, 2) for -2. Each threat leaf knows its color's next move."""
    root = LocalNode(board=board_from_diagram(DIAGRAM))
    for color, move, answer, value, follow in ((BLACK, (2, 1), (2, 2), 2.0, black_follow_up),
                                               (WHITE, (2, 3), (2, 2), -2.0, white_follow_up)):
        node, _ = _child(root, color, move)
        threat = _threat_leaf(node, color, "threat: the answer head judges the move sente")
        threat.follow_up = follow
        node.children[color].append((MISSING, threat))
        node.children[-color].append((answer, _leaf(node, -color, answer, value)))
        root.children[color].append((move, node))
    return LocalTree(root=root, region=REGION, nodes=7)


def test_a_double_sente_at_infinity_is_unbounded():
    value, _, notes = cgt_bridge.tree_parts(_double_sente(), 5)
    assert value.kind == UNBOUNDED and value.count is None and of_kind(notes, "threat")


def test_the_threats_valued_by_their_follow_ups_give_a_bounded_value_and_say_so():
    tree = _double_sente()
    again, rows = _threats_by_follow_ups(tree, None, 5)
    assert again is not None and rows == 0
    value, _, notes = again
    assert value.kind != UNBOUNDED and value.count is not None and value.temperature is not None
    assert of_kind(notes, "follow-up") and not of_kind(notes, "threat")
    probes = [n for n in tree.root.walk() if n.kind == "probe"]
    assert {p.history[-1] for p in probes} == {(BLACK, (2, 0)), (WHITE, (2, 4))}
    assert all(p.value is not None for p in probes)


def test_without_a_follow_up_the_tree_is_left_as_it_was():
    tree = _double_sente(black_follow_up=None, white_follow_up=None)
    assert _threats_by_follow_ups(tree, None, 5) == (None, 0)
    assert sum(n.kind == "threat" for n in tree.root.walk()) == 2


def test_one_sides_threat_left_infinite_is_sente_by_the_thermograph():
    # with White's threat kept at -inf, White's move is sente: its answer's count, temperature from Black's side
    tree = _double_sente(white_follow_up=None)
    again, _ = _threats_by_follow_ups(tree, None, 5)
    assert again is not None and again[0].kind == "white_sente" and again[0].count == -2.0


def test_a_tree_still_unbounded_gets_its_threats_back():
    tree = _double_sente()
    # a Black move at the root that breaks in (a threat leaf of its own, no follow-up): unbounded whatever
    breaks_in, _ = _child(tree.root, BLACK, (2, 4))
    breaks_in.kind, breaks_in.threat = "threat", BLACK
    tree.root.children[BLACK].append(((2, 4), breaks_in))
    before = [(n.kind, n.history) for n in tree.root.walk()]
    again, _ = _threats_by_follow_ups(tree, None, 5)
    assert again is None and [(n.kind, n.history) for n in tree.root.walk()] == before
