"""The tree-to-game API and kos by the phantom rule."""
from fractions import Fraction as F

import pytest

from tengen.cgt import (BLACK_SENTE, GOTE, KO, UnsupportedKo, Variation, analyze_tree, format_game, game_from_tree,
                        simple_ko, variation_from_dict)

L = Variation.leaf


def hane_connect() -> Variation:
    """First-line hane-connect: both sides gote, area temperature 2."""
    return Variation(
        black=[("E1", Variation(black=[("F1", L("+inf"))],
                                white=[("F1", Variation(black=[("D1", L(2))], white=[("D1", L("-inf"))]))]))],
        white=[("D1", Variation(black=[("C1", Variation(black=[("E1", L("+inf"))], white=[("E1", L(-2))]))],
                                white=[("C1", L("-inf"))]))],
    )


def simple_ko_tree(l=2, r=-2, taker="black") -> Variation:
    """The ko position: the taker takes (then connects for its exit or faces a banned retake);
    the other side connects for its exit."""
    taken = Variation(black=[("D1", L(l))], white=[("D1", Variation.ko_retake())]) if taker == "black" else \
        Variation(white=[("D1", L(r))], black=[("D1", Variation.ko_retake())])
    if taker == "black":
        return Variation(black=[("E1", taken)], white=[("E1", L(r))])
    return Variation(white=[("E1", taken)], black=[("E1", L(l))])


def test_hane_connect_tree():
    a = analyze_tree(hane_connect())
    assert (a.mean, a.temperature, a.kind) == (0, 2, GOTE)
    assert a.best_black == ["E1"] and a.best_white == ["D1"]
    assert a.move_values.miai == 1 and a.move_values.deiri == 2
    assert format_game(a.game) == "{{+inf | {2 | -inf}} | {{+inf | -2} | -inf}}"


def test_sente_tree_and_best_moves():
    root = Variation(black=[("E1", Variation(black=[("F1", L("+inf"))], white=[("F1", L(0))]))],
                     white=[("E1", L(-2)), ("F1", L(-1))])
    a = analyze_tree(root)
    assert (a.mean, a.temperature, a.kind) == (0, 2, BLACK_SENTE)
    assert a.best_white == ["E1"]  # F1 is the smaller move
    assert a.move_values.deiri == 1


def test_simple_ko_black_takes():
    a = analyze_tree(simple_ko_tree())
    assert (a.mean, a.temperature, a.kind) == (F(-2, 3), F(4, 3), KO)
    assert a.ko is not None and a.ko.mean == F(-2, 3) and a.ko.moves == 3
    assert format_game(a.game) == "{{2 | -2/3} | -2}"
    assert a.best_black == ["E1"] and a.best_white == ["E1"]
    assert a.move_values.miai == F(1, 3) and a.move_values.deiri is None


def test_simple_ko_white_takes():
    a = analyze_tree(simple_ko_tree(2, -2, "white"))
    assert (a.mean, a.temperature, a.kind) == (F(2, 3), F(4, 3), KO)
    assert format_game(a.game) == "{2 | {2/3 | -2}}"


@pytest.mark.parametrize("l,r", [(F(9), F(0)), (F(5), F(-1)), (F(1), F(-7, 2))])
def test_ko_chain_formulae(l, r):
    a = analyze_tree(simple_ko_tree(l, r))
    assert a.temperature == (l - r) / 3 and a.mean == (l + 2 * r) / 3
    chain = simple_ko(l, r, "black")
    assert chain.temperature == (l - r) / 3 and chain.mean == (l + 2 * r) / 3


def test_ko_below_the_root_feeds_the_thermograph():
    # Black's hane leads to the ko of the simple_ko_tree; White's block is worth -4
    root = Variation(black=[("B2", simple_ko_tree(6, 0))], white=[("B2", L(-4))])
    g = game_from_tree(root)
    assert g.mean == -1 and g.temperature == 3  # {2 | -4}: the ko counts (6 + 0) / 3 = 2


def test_irrelevant_ko_is_ignored():
    # Black would rather play the big move C3; the ko branch can never matter
    root = Variation(black=[("C3", L(10)), ("E1", Variation(black=[("D1", L(1))], white=[("D1", Variation.ko_retake())]))],
                     white=[("E1", L(-1))])
    a = analyze_tree(root)
    assert a.kind != KO and a.mean == F(9, 2) and a.temperature == F(11, 2)


def test_branching_ko_is_unsupported():
    taken = Variation(black=[("D1", L(2))], white=[("D1", Variation.ko_retake()), ("F1", L(-1))])
    root = Variation(black=[("E1", taken)], white=[("E1", L(-2))])
    with pytest.raises(UnsupportedKo):
        analyze_tree(root)


def test_two_exits_are_unsupported():
    taken = Variation(black=[("D1", L(2)), ("C1", Variation(black=[("A1", L(5))], white=[("A1", L(-1))]))],
                      white=[("D1", Variation.ko_retake())])
    root = Variation(black=[("E1", taken)], white=[("E1", L(-2))])
    with pytest.raises(UnsupportedKo):
        analyze_tree(root)


def test_long_cycles_and_retakes_above_the_root_are_unsupported():
    with pytest.raises(UnsupportedKo):
        game_from_tree(Variation(black=[("D1", L(2))], white=[("D1", Variation.ko_retake())]))
    with pytest.raises(UnsupportedKo):
        game_from_tree(Variation(black=[("E1", Variation(black=[("D1", L(2))],
                                                         white=[("D1", Variation.ko_retake(4))]))],
                                 white=[("E1", L(-2))]))


def test_malformed_trees():
    with pytest.raises(ValueError):
        game_from_tree(Variation())  # no moves and no value
    with pytest.raises(ValueError):
        game_from_tree(Variation(black=[("A1", L(1))], value=F(1)))


def test_variation_from_dict_reads_the_data_format():
    d = {"B E1": {"B D1": {"area": 2, "dead": [], "dame": []},
                  "W D1!": {"area": "-2/3", "why": "ko-banned retake"}},
         "W E1": {"area": -2, "dead": [], "dame": ["C1"]}}
    v = variation_from_dict(d)
    assert [m for m, _ in v.black] == ["E1"] and [m for m, _ in v.white] == ["E1"]
    retake = v.black[0][1].white[0][1]
    assert retake.repeats == 2 and retake.info["why"] == "ko-banned retake"
    assert v.white[0][1].info["dame"] == ["C1"]
    a = analyze_tree(v)
    assert a.kind == KO and a.mean == F(-2, 3)
    threat = variation_from_dict({"B A1": {"threat": "+inf"}, "W A1": {"area": 0}})
    assert threat.black[0][1].value == float("inf")


def test_one_sided_positions_normal_play_or_go_stop():
    """Normal play makes a one-sided position a number ({| 4} = 0, {4 |} = 5); with STOP the side
    without moves cannot play there and the position is worth the other side's stop."""
    from tengen.cgt import INF
    from tengen.cgt.tree import STOP

    white_only = Variation(white=[("a", Variation.leaf(4))])
    assert analyze_tree(white_only).mean == 0
    stop = analyze_tree(white_only, one_sided=STOP)
    assert (stop.mean, stop.temperature, stop.best_white) == (4, 0, ["a"])
    assert analyze_tree(Variation(black=[("a", Variation.leaf(4))])).mean == 5
    # Black's only move is hot ({6 | 2}): White answers it, so Black's stop is 2
    hot = Variation(black=[("a", Variation(black=[("x", Variation.leaf(6))], white=[("y", Variation.leaf(2))]))])
    assert analyze_tree(hot, one_sided=STOP).mean == 2
    assert analyze_tree(Variation(black=[("a", Variation.leaf("+inf"))]), one_sided=STOP).mean == INF
    # inside a tree: {{6 |} | -2} is {7 | -2} in normal play (mean 5/2), {6 | -2} Go-style (mean 2, t 4)
    inner = Variation(black=[("b", Variation(black=[("c", Variation.leaf(6))]))], white=[("w", Variation.leaf(-2))])
    assert analyze_tree(inner).mean == F(5, 2)
    go = analyze_tree(inner, one_sided=STOP)
    assert (go.mean, go.temperature, go.best_black) == (2, 4, ["b"])
    with pytest.raises(ValueError):
        analyze_tree(inner, one_sided="pass")


def test_a_ko_whose_exit_is_another_banned_retake_is_unsupported():
    """Two kos at once: after Black takes the second ko, White's only other move is the banned retake of
    the first. No single phantom values that (it used to come out as a silent 0 exit)."""
    second = Variation(black=[("c", L(5))], white=[("r2", Variation.ko_retake())])
    first = Variation(black=[("k2", second)], white=[("r1", Variation.ko_retake())])
    root = Variation(black=[("k1", first)], white=[("w", L(-3))])
    for one_sided in ("normal", "stop"):
        with pytest.raises(UnsupportedKo):
            analyze_tree(root, one_sided=one_sided)
