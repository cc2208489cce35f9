"""Orthodox play over sums, checked against exact minimax."""
import random
from fractions import Fraction as F

import pytest

from tengen.cgt import Game, parse_game
from tengen.cgt.orthodox import (BLACK, WHITE, Move, PlayState, Record, SimpleKo, _minimax, apply, board_temperature,
                                 hotstrat, ko_rule, legal_moves, minimax, orthodox, play_out, sentestrat, tedomari)

STRATEGIES = {"hotstrat": hotstrat, "sentestrat": sentestrat, "tedomari": tedomari, "ko_rule": ko_rule,
              "orthodox": orthodox}


def switch(t) -> Game:
    return Game([t], [-t])


def perfect(state, history):
    """The minimax player (the yardstick)."""
    moves = legal_moves(state)
    values = [_minimax(apply(state, m), 0) for m in moves]
    best = max(values) if state.to_move == BLACK else min(values)
    return moves[values.index(best)]


def random_game(rng: random.Random, depth: int) -> Game:
    if depth == 0 or rng.random() < 0.3:
        return Game.num(rng.randint(-6, 6))
    return Game([random_game(rng, depth - 1) for _ in range(rng.randint(1, 2))],
                [random_game(rng, depth - 1) for _ in range(rng.randint(1, 2))])


def test_switches_hotstrat_is_exact():
    comps = (switch(1), switch(5), switch(3), switch(2))
    for first in (BLACK, WHITE):
        assert play_out(comps, first, hotstrat, hotstrat).score == minimax(comps, first)
    assert minimax(comps, BLACK) == 5 - 3 + 2 - 1


def test_tedomari_plays_sente_first():
    comps = (parse_game("{2|-2}"), parse_game("{{10|2}|0}"))  # gote and Black sente, both temperature 2
    assert minimax(comps, BLACK) == 4
    assert play_out(comps, BLACK, tedomari, tedomari).score == 4
    assert play_out(comps, BLACK, hotstrat, hotstrat).score == 2  # the plain tie-break plays gote first


def test_tedomari_keeps_the_last_move_before_the_drop():
    # two components at temperature 3: a gote, and one whose move leaves another move at 3 behind
    comps = (parse_game("{3|-3}"), parse_game("{{6|0}|-3}"), switch(1))
    for first in (BLACK, WHITE):
        mm = minimax(comps, first)
        assert play_out(comps, first, tedomari, tedomari).score == mm


def test_sentestrat_answers_a_forcing_move():
    # White's move in {0 | {-2 | -10}} threatens -10 at temperature 4 > board temperature 2 before it
    threat = parse_game("{0 | {-2 | -10}}")
    assert threat.kind == "white_sente" and threat.temperature == 2
    full = (threat, switch(2), switch(1))
    white_move = Move(WHITE, 0, 0, threat.right[0])
    history = [Record(white_move, board_temperature(full))]
    after = apply(PlayState(full, WHITE), white_move)
    assert sentestrat(after, history).index == 0  # Black answers: the threat (4) is hotter than the board was (2)
    for first in (BLACK, WHITE):
        assert play_out(full, first, sentestrat, sentestrat).score == minimax(full, first)


@pytest.mark.parametrize("t_e,take", [(F(2), False), (F(1, 2), True)])
def test_ko_rule_against_minimax(t_e, take):
    """3 t_K > 2 t_G + t_E decides between taking the ko (t_K = 3) and the gote (t_G = 4)."""
    ko = SimpleKo(F(9), F(0))  # temperature 3, Black takes
    environment = [switch(t_e - i * t_e / 4) for i in range(4)]
    comps = (ko, switch(4), *environment)
    state = PlayState(comps, BLACK)
    move = ko_rule(state, [])
    assert (move.index == 0) == take
    values = {m.index: _minimax(apply(state, m), 0) for m in legal_moves(state)}
    assert values[move.index] == max(values.values()) == minimax(comps, BLACK)
    assert play_out(comps, BLACK, ko_rule, ko_rule).score == minimax(comps, BLACK)
    if take:  # the plain hottest-first choice loses here
        assert play_out(comps, BLACK, hotstrat, hotstrat).score < minimax(comps, BLACK)


def test_ko_play_respects_the_ban():
    ko = SimpleKo(F(2), F(-2))
    state = apply(PlayState((ko, switch(1)), BLACK), legal_moves(PlayState((ko, switch(1)), BLACK))[0])
    assert state.components[0].taken and state.ko_ban == 0
    assert all(m.index != 0 for m in legal_moves(state))  # White may not retake at once
    later = apply(state, legal_moves(state)[0])  # White plays elsewhere
    assert any(m.label == "connect" for m in legal_moves(later))


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_strategies_lose_at_most_the_temperature_against_perfect_play(name):
    strategy = STRATEGIES[name]
    rng = random.Random(7)
    for _ in range(40):
        comps = tuple(random_game(rng, 3) for _ in range(3))
        t_max = max(max(c.temperature for c in comps), 0)
        for first in (BLACK, WHITE):
            best = minimax(comps, first)
            as_black = play_out(comps, first, strategy, perfect).score
            as_white = play_out(comps, first, perfect, strategy).score
            assert best - t_max <= as_black <= best
            assert best <= as_white <= best + t_max
