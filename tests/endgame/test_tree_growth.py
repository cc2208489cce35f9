"""Tree growth follows the published thresholds; checked with scripted predictors (test doubles whose
answers are spelled out per node)."""
from __future__ import annotations

import pytest

from tengen.endgame.predictors import LocalPrediction
from tengen.endgame.regions import Region
from tengen.endgame.tree import GrowthConfig, colors_to_expand, grow_tree, select_moves
from tengen.go import BLACK, WHITE, Board


class ScriptedPredictor:
    """Answers from a dict: local history (tuple) -> LocalPrediction; unknown nodes are leaves."""

    name = "scripted"

    def __init__(self, script):
        self.script = script
        self.calls = 0

    def predict(self, requests):
        self.calls += 1
        return [self.script.get(req.history, LocalPrediction(no_move=1.0)) for req in requests]


def test_select_moves_keeps_those_above_fraction_or_the_best():
    assert select_moves({(0, 0): 0.5, (0, 1): 0.4, (0, 2): 0.1}, 0.3) == [(0, 0), (0, 1)]
    assert select_moves({(0, 0): 0.25, (0, 1): 0.25, (0, 2): 0.25, (0, 3): 0.25}, 0.3) == [(0, 0)]
    assert select_moves({}, 0.3) == []


def test_one_color_above_share_only_below_root():
    pred = LocalPrediction(black={(0, 0): 0.9}, white={(0, 1): 0.1})
    assert colors_to_expand(pred, is_root=True, share=0.85) == [BLACK, WHITE]
    assert colors_to_expand(pred, is_root=False, share=0.85) == [BLACK]
    even = LocalPrediction(black={(0, 0): 0.5}, white={(0, 1): 0.5})
    assert colors_to_expand(even, is_root=False, share=0.85) == [BLACK, WHITE]


def _region():
    return Region(0, frozenset({(4, 0), (4, 1), (4, 2), (4, 3)}))


def test_growth_levels_leaves_and_threats():
    b1, w1 = (BLACK, (4, 1)), (WHITE, (4, 2))
    script = {
        (): LocalPrediction(black={(4, 1): 1.0}, white={(4, 2): 1.0}),
        (b1,): LocalPrediction(black={(4, 2): 0.05}, white={(4, 2): 0.95}),  # White must answer
        (w1,): LocalPrediction(no_move=0.8),
    }
    pred = ScriptedPredictor(script)
    tree = grow_tree(Board(5), _region(), pred, GrowthConfig(missing_color="threat"))
    root = tree.root
    assert [p for p, _ in root.children[BLACK]] == [(4, 1)] and [p for p, _ in root.children[WHITE]] == [(4, 2)]
    after_black = root.children[BLACK][0][1]
    assert [p for p, _ in after_black.children[WHITE]] == [(4, 2)]
    threat = after_black.children[BLACK][0][1]
    assert threat.kind == "threat" and threat.threat == BLACK
    assert root.children[WHITE][0][1].kind == "leaf"
    assert pred.calls == 3  # one batch per level: root, depth 1, depth 2


def test_probe_gives_the_missing_color_its_best_move():
    b1 = (BLACK, (4, 1))
    script = {
        (): LocalPrediction(black={(4, 1): 1.0}, white={(4, 2): 1.0}),
        (b1,): LocalPrediction(black={(4, 3): 0.04, (4, 0): 0.01}, white={(4, 2): 0.95}),
    }
    tree = grow_tree(Board(5), _region(), ScriptedPredictor(script), GrowthConfig(missing_color="probe"))
    after_black = tree.root.children[BLACK][0][1]
    probe_point, probe = after_black.children[BLACK][0]
    assert probe.kind == "probe" and probe_point == (4, 3)


def test_node_budget_sets_the_flag():
    wide = LocalPrediction(black={(4, i): 0.25 for i in range(4)}, white={(4, i): 0.25 for i in range(4)})
    script = {(): wide}
    tree = grow_tree(Board(5), _region(), ScriptedPredictor(script),
                     GrowthConfig(max_nodes=3, move_fraction=0.2))
    assert tree.budget_exhausted and tree.nodes == 3


def test_root_gets_both_colors_even_when_the_budget_is_tiny():
    wide = LocalPrediction(black={(4, i): 0.25 for i in range(4)}, white={(4, i): 0.25 for i in range(4)})
    tree = grow_tree(Board(5), _region(), ScriptedPredictor({(): wide}), GrowthConfig(max_nodes=2, move_fraction=0.2))
    assert len(tree.root.children[BLACK]) == 1 and len(tree.root.children[WHITE]) == 1


def test_the_budget_never_leaves_a_node_with_one_colors_moves():
    """A node the budget cannot give both colors becomes a leaf: as a CGT game a one-sided node is a
    normal-play number ({| 4} = 0), not the count White's move reaches."""
    points = [(4, i) for i in range(4)]
    both = LocalPrediction(black={p: 0.5 for p in points[:2]}, white={p: 0.5 for p in points[2:]})
    script = {(): both}
    for c, p in [(BLACK, q) for q in points[:2]] + [(WHITE, q) for q in points[2:]]:
        script[((c, p),)] = LocalPrediction(black={q: 0.5 for q in points if q != p},
                                            white={q: 0.5 for q in points if q != p})
    for budget in range(3, 16):
        tree = grow_tree(Board(5), _region(), ScriptedPredictor(script),
                         GrowthConfig(max_nodes=budget, max_total_nodes=None, move_fraction=0.2))
        inner = [n for n in tree.root.walk() if n.kind == "inner"]
        assert all(n.children[BLACK] and n.children[WHITE] for n in inner), budget
        assert tree.nodes <= budget and tree.budget_exhausted
    full = grow_tree(Board(5), _region(), ScriptedPredictor(script),
                     GrowthConfig(max_nodes=29, max_total_nodes=None, move_fraction=0.2))
    assert full.nodes == 29 and not full.budget_exhausted  # 1 + 4 + 4 x 6
    assert not any(n.reason == "node budget" for n in full.root.walk())


def test_ko_retake_is_recorded():
    from tengen.go.diagram import board_from_diagram

    board = board_from_diagram("""
        . X O . .
        X . X O .
        . X O . .
        . . . . .
        . . . . .
    """)
    board.to_play = WHITE
    region = Region(0, frozenset({(1, 1), (0, 3)}))
    w_take = (WHITE, (1, 1))
    script = {
        (): LocalPrediction(black={(0, 3): 1.0}, white={(1, 1): 1.0}),
        (w_take,): LocalPrediction(black={(1, 2): 0.9}, white={(0, 3): 0.1}),  # Black wants to retake at C4
    }
    tree = grow_tree(board, region, ScriptedPredictor(script))
    after_take = tree.root.children[WHITE][0][1]
    assert after_take.ko_retakes == [(BLACK, (1, 2))]


def test_an_illegal_chosen_move_falls_back_to_the_most_likely_legal_one():
    """A color whose chosen moves are all illegal (here: an occupied point) still gets an option: its
    most likely legal move, so the node does not lose that color."""
    board = Board(5)
    board.play(BLACK, (4, 0))
    script = {(): LocalPrediction(black={(4, 0): 0.9, (4, 3): 0.06, (4, 2): 0.04}, white={(4, 1): 1.0})}
    tree = grow_tree(board, _region(), ScriptedPredictor(script))
    assert [p for p, _ in tree.root.children[BLACK]] == [(4, 3)]


def test_probe_skips_an_illegal_best_move():
    b1 = (BLACK, (4, 1))
    script = {
        (): LocalPrediction(black={(4, 1): 1.0}, white={(4, 2): 1.0}),
        (b1,): LocalPrediction(black={(4, 1): 0.04, (4, 3): 0.01}, white={(4, 2): 0.95}),  # B4 is Black's stone
    }
    tree = grow_tree(Board(5), _region(), ScriptedPredictor(script), GrowthConfig(missing_color="probe"))
    after_black = tree.root.children[BLACK][0][1]
    assert [(p, c.kind) for p, c in after_black.children[BLACK]] == [((4, 3), "probe")]


def test_growth_settings_override_named_thresholds_and_refuse_unknown_ones():
    from tengen.endgame.tree import GrowthConfig, growth_settings

    got = growth_settings("answer_threshold=0.65, leaf_no_move=0.2,max_total_nodes=none,missing_color=threat",
                          GrowthConfig(max_nodes=50))
    assert (got.answer_threshold, got.leaf_no_move, got.max_total_nodes, got.missing_color, got.max_nodes) == (
        0.65, 0.2, None, "threat", 50)
    assert growth_settings("") == GrowthConfig()
    for bad in ("answer=0.5", "leaf_no_move", "max_nodes=lots", "answer_threshold=2"):
        with pytest.raises(ValueError):
            growth_settings(bad)


def test_root_moves_widens_the_root_only():
    """`root_moves` gives each color at least that many of its most likely moves at the root; below it
    the mass rule alone decides (one move here, a dominant one)."""
    points = [(4, i) for i in range(4)]
    peaked = LocalPrediction(black={p: w for p, w in zip(points, (0.7, 0.1, 0.1, 0.1))},
                             white={p: w for p, w in zip(points, (0.1, 0.7, 0.1, 0.1))})
    script = {(): peaked}
    for c, p in [(BLACK, q) for q in points] + [(WHITE, q) for q in points]:
        script[((c, p),)] = peaked
    narrow = grow_tree(Board(5), _region(), ScriptedPredictor(script), GrowthConfig(max_depth=1))
    assert [p for p, _ in narrow.root.children[BLACK]] == [(4, 0)]
    wide = grow_tree(Board(5), _region(), ScriptedPredictor(script), GrowthConfig(max_depth=1, root_moves=3))
    assert [p for p, _ in wide.root.children[BLACK]] == [(4, 0), (4, 1), (4, 2)]
    assert [p for p, _ in wide.root.children[WHITE]][0] == (4, 1) and len(wide.root.children[WHITE]) == 3
    first = wide.root.children[BLACK][0][1]
    assert all(len(first.children[c]) <= 1 for c in (BLACK, WHITE))
    with pytest.raises(ValueError, match="root_moves"):
        GrowthConfig(root_moves=0)
