"""Textbook thermographs, number detection, walls, kinds and Go move values."""
from fractions import Fraction as F

import math
import pytest

from tengen.cgt import (BLACK_SENTE, GOTE, INFINITESIMAL, NUMBER, UNBOUNDED, WHITE_SENTE, Game, Wall, move_values,
                        parse_game, reverse_sente_player, sente_player)

TEXTBOOK = [
    # game, mean, temperature, kind
    ("{2|-2}", F(0), F(2), GOTE),
    ("{{4|2}|0}", F(3, 2), F(3, 2), GOTE),
    ("{3||2|1}", F(9, 4), F(3, 4), GOTE),
    ("{{10|2}|0}", F(2), F(2), BLACK_SENTE),
    ("{6|{0|-6}}", F(3, 2), F(9, 2), GOTE),
    ("{0|{-2|-10}}", F(-2), F(2), WHITE_SENTE),
    ("{{+inf | 0} | -2}", F(0), F(2), BLACK_SENTE),
    ("{2 | {0 | -inf}}", F(0), F(2), WHITE_SENTE),
]


@pytest.mark.parametrize("text,mean,temp,kind", TEXTBOOK)
def test_textbook_values(text, mean, temp, kind):
    g = parse_game(text)
    assert g.mean == mean
    assert g.temperature == temp
    assert g.kind == kind


@pytest.mark.parametrize("text,value", [
    ("{1 | 5/2}", F(2)), ("{0 | 3}", F(1)), ("{* | 1}", F(0)), ("{0 | 1}", F(1, 2)), ("{1/2 | 1}", F(3, 4)),
    ("{-3 | -1}", F(-2)), ("{ | 4}", F(0)), ("{-1/2 | }", F(0)), ("{3 | }", F(4)), ("{0 | +inf}", F(1)),
    ("{-inf | 5}", F(0)), ("{-2/3 | 5}", F(0)), ("{1/3 | 2/3}", F(1, 2)),
])
def test_number_detection_by_simplicity(text, value):
    g = parse_game(text)
    assert g.number == value
    assert g.kind == NUMBER
    assert g.thermograph.left == Wall.const(value) == g.thermograph.right


def test_number_temperatures_are_conway_ones():
    assert parse_game("{1|5/2}").temperature == -1  # integers
    assert parse_game("{0|1}").temperature == F(-1, 2)
    assert parse_game("{1/2|1}").temperature == F(-1, 4)


def test_cold_game_is_not_the_average_of_its_options():
    g = parse_game("{1 | 5/2}")
    assert g.mean == 2 and g.mean != F(7, 4)


def test_infinitesimals():
    star = parse_game("*")
    assert star.number is None and star.kind == INFINITESIMAL and star.mean == 0 and star.temperature == 0
    up = parse_game("{0 | *}")
    assert up.number is None and up.kind == INFINITESIMAL and up.mean == 0
    assert parse_game("{0, * | 0, *}").kind == INFINITESIMAL  # *2
    assert parse_game("{1* | 2}").number == 1  # 1* is fuzzy with 1, so 1 itself fits: {1*|2} - 1 = {*|1} = 0
    assert parse_game("{ {0|*} | 1}").number == F(1, 2)  # up >= 0, so x > 0 strictly


def test_walls_of_a_simple_switch():
    th = parse_game("{2|-2}").thermograph
    assert th.left.at(F(0)) == 2 and th.left.at(F(1)) == 1 and th.left.at(F(2)) == 0 and th.left.at(F(5)) == 0
    assert th.right.at(F(0)) == -2 and th.right.at(F(1)) == -1 and th.right.at(F(7)) == 0
    assert th.left.slope_below(F(2)) == -1 and th.right.slope_below(F(2)) == 1


def test_walls_with_a_kink():
    th = parse_game("{6|{0|-6}}").thermograph
    # right wall: LW({0|-6}) + t = (0 - t) + t = 0 up to t = 3, then the mast -3 of {0|-6} taxed: -3 + t
    assert th.right.at(F(0)) == 0 and th.right.at(F(3)) == 0 and th.right.at(F(4)) == 1
    assert th.left.at(F(0)) == 6 and th.left.at(F(9, 2)) == F(3, 2)
    assert th.left.breakpoints() == [0, F(9, 2)]


def test_stops():
    th = parse_game("{3||2|1}").thermograph
    assert (th.ls, th.rs) == (3, 2)


def test_unanswered_threat_is_unbounded():
    g = parse_game("{+inf | 0}")
    assert g.kind == UNBOUNDED and g.temperature == math.inf and g.mean is None
    assert g.thermograph.right.at(F(5)) == 5  # White's answer still taxed normally


def test_double_threats_collapse():
    assert parse_game("{+inf | +inf}").number == math.inf
    assert parse_game("{-inf | -inf}").number == -math.inf


def test_move_values_go_conventions():
    gote = move_values(GOTE, F(2))
    assert (gote.miai, gote.deiri, gote.swing) == (1, 2, 2)
    sente = move_values(BLACK_SENTE, F(5, 2))
    assert (sente.miai, sente.deiri, sente.swing) == (F(3, 2), F(3, 2), 3)
    ko = move_values("ko", F(4, 3))
    assert (ko.miai, ko.deiri, ko.swing) == (F(1, 3), None, F(2, 3))
    cold = move_values(NUMBER, F(-1))
    assert cold.miai is None and cold.deiri is None


def test_sente_names():
    assert sente_player(BLACK_SENTE) == "black" and reverse_sente_player(BLACK_SENTE) == "white"
    assert sente_player(WHITE_SENTE) == "white" and reverse_sente_player(WHITE_SENTE) == "black"
    assert sente_player(GOTE) is None


def test_game_leaf_and_options_are_exclusive():
    with pytest.raises(ValueError):
        Game([1], [0], value=F(1))
