"""The {3||2|1} notation: precedence of bars, commas, threats, round trips."""
from fractions import Fraction as F

import pytest
from hypothesis import given, settings, strategies as st

from tengen.cgt import Game, GameSyntaxError, format_game, parse_game



def game_trees(max_leaves, leaves):
    leaf = st.sampled_from(leaves).map(Game.num)
    return st.recursive(leaf, lambda kids: st.builds(Game, st.lists(kids, max_size=2), st.lists(kids, max_size=2)),
                        max_leaves=max_leaves)


def test_more_bars_bind_looser():
    assert parse_game("{3||2|1}") == Game([3], [Game([2], [1])])
    assert parse_game("{4|2||0}") == Game([Game([4], [2])], [0])
    assert parse_game("{a|b||c|d}".replace("a", "1").replace("b", "2").replace("c", "3").replace("d", "4")) == \
        Game([Game([1], [2])], [Game([3], [4])])
    assert parse_game("{5|||4|3||2|1}") == Game([5], [Game([Game([4], [3])], [Game([2], [1])])])


def test_commas_braces_and_values():
    assert parse_game("{0, 1 | 2}") == Game([0, 1], [2])
    assert parse_game("{ | -2/3}") == Game([], [F(-2, 3)])
    assert parse_game("{{+inf | {2 | -inf}} | -2}") == Game([Game(["+inf"], [Game([2], ["-inf"])])], [-2])
    assert parse_game("*") == Game([0], [0])
    assert parse_game("3*") == Game([3], [3])
    assert parse_game(" { 3 |\t2 } ") == Game([3], [2])
    assert parse_game("-2/3") == Game.num(F(-2, 3))


@pytest.mark.parametrize("bad", ["", "{3|", "{3|2}}", "{1|2|3}", "{1,|2}", "{x|2}", "{3}", "{1||2||3}"])
def test_syntax_errors(bad):
    with pytest.raises(GameSyntaxError):
        parse_game(bad)


def test_printing():
    g = parse_game("{3||2|1}")
    assert format_game(g) == "{3 | {2 | 1}}"
    assert format_game(g, bars=True) == "{3||2|1}"
    assert format_game(parse_game("{{2 | -2/3} | -2}")) == "{{2 | -2/3} | -2}"
    assert format_game(parse_game("{ | 4}")) == "{| 4}"
    assert format_game(parse_game("{0, {1|0} | {| 3}}"), bars=True) == "{0,{1|0}|{|3}}"


@settings(max_examples=150)
@given(game_trees(10, [F(n) for n in range(-3, 4)] + [F(-2, 3), F(5, 2), float("inf"), float("-inf")]),
       st.booleans())
def test_round_trip(g, bars):
    assert parse_game(format_game(g, bars=bars)) == g
