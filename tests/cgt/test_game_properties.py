"""Property tests: sums, the game order against normal-play brute force, thermographs against minimax."""
from fractions import Fraction as F
from functools import lru_cache

from hypothesis import given, settings, strategies as st

from tengen.cgt import Game, le, negate, parse_game, simplify
from tengen.cgt.numbers import number_options

LEAVES = [F(n) for n in range(-3, 4)] + [F(1, 2), F(-1, 2), F(3, 2)]


def game_trees(max_leaves: int = 7, leaves=LEAVES):
    leaf = st.sampled_from(leaves).map(Game.num)
    return st.recursive(
        leaf,
        lambda kids: st.builds(Game, st.lists(kids, min_size=1, max_size=2), st.lists(kids, min_size=1, max_size=2)),
        max_leaves=max_leaves,
    )


SETTINGS = settings(max_examples=150)


# ---------------------------------------------------------------- brute force helpers
def minimax_stops(g: Game):
    """(Left stop, Right stop) by alternating play until the position is a number."""
    if g.number is not None:
        return g.number, g.number
    return (max(minimax_stops(o)[1] for o in g.left), min(minimax_stops(o)[0] for o in g.right))


def cooled_stop(g: Game, t: F, left_first: bool):
    """Stop of g cooled by t, by taxed minimax: a subgame no hotter than t is frozen at its mean."""
    th = g.thermograph
    if th.number is not None:
        return th.number
    if th.temperature <= t:
        return th.mean
    if left_first:
        return max(cooled_stop(o, t, False) - t for o in g.left)
    return min(cooled_stop(o, t, True) + t for o in g.right)


@lru_cache(maxsize=None)
def pure(g: Game):
    """The game as a pure normal-play tree (numbers expanded into their canonical options)."""
    if g.value is not None:
        lo, ro = number_options(g.value)
        return (frozenset(pure(Game.num(v)) for v in lo), frozenset(pure(Game.num(v)) for v in ro))
    return (frozenset(pure(o) for o in g.left), frozenset(pure(o) for o in g.right))


@lru_cache(maxsize=None)
def pure_sum(a, b):
    left = frozenset([pure_sum(x, b) for x in a[0]] + [pure_sum(a, y) for y in b[0]])
    right = frozenset([pure_sum(x, b) for x in a[1]] + [pure_sum(a, y) for y in b[1]])
    return (left, right)


@lru_cache(maxsize=None)
def pure_neg(a):
    return (frozenset(pure_neg(x) for x in a[1]), frozenset(pure_neg(x) for x in a[0]))


@lru_cache(maxsize=None)
def left_wins_first(a) -> bool:
    return any(not right_wins_first(x) for x in a[0])


@lru_cache(maxsize=None)
def right_wins_first(a) -> bool:
    return any(not left_wins_first(x) for x in a[1])


def brute_le(g: Game, h: Game) -> bool:
    """g <= h  iff  Left, moving first in g - h, loses (normal play)."""
    return not left_wins_first(pure_sum(pure(g), pure_neg(pure(h))))


# ---------------------------------------------------------------- properties
@SETTINGS
@given(game_trees(), game_trees())
def test_mean_is_additive(g, h):
    assert (g + h).mean == g.mean + h.mean


@SETTINGS
@given(game_trees(), game_trees())
def test_temperature_of_sum_is_at_most_the_hotter(g, h):
    assert (g + h).temperature <= max(g.temperature, h.temperature)


@SETTINGS
@given(game_trees(10))
def test_stops_agree_with_minimax(g):
    th = g.thermograph
    assert (th.ls, th.rs) == minimax_stops(g)
    assert th.left.at(F(0)) == th.ls and th.right.at(F(0)) == th.rs


@SETTINGS
@given(game_trees(10), st.sampled_from([F(0), F(1, 4), F(1, 2), F(1), F(3, 2), F(2), F(5, 2), F(4)]))
def test_walls_agree_with_taxed_minimax_of_cooled_game(g, t):
    th = g.thermograph
    assert th.left.at(t) == cooled_stop(g, t, True)
    assert th.right.at(t) == cooled_stop(g, t, False)


@SETTINGS
@given(game_trees(10))
def test_walls_bracket_the_mast(g):
    th = g.thermograph
    for t in (F(0), F(1, 3), F(1), F(2), F(7)):
        assert th.right.at(t) <= th.mean <= th.left.at(t)
    t = max(th.temperature, F(0))
    assert th.left.at(t) == th.mean == th.right.at(t)


@settings(max_examples=120)
@given(game_trees(4, [F(n) for n in range(-2, 3)] + [F(1, 2), F(-1, 2)]),
       game_trees(4, [F(n) for n in range(-2, 3)] + [F(1, 2), F(-1, 2)]))
def test_order_agrees_with_normal_play_brute_force(g, h):
    assert le(g, h) == brute_le(g, h)


@SETTINGS
@given(game_trees(8))
def test_simplify_keeps_value_and_thermograph(g):
    s = simplify(g)
    assert s.equal(g)
    assert s.thermograph.same_thermograph(g.thermograph)
    assert simplify(s) == s  # idempotent


@SETTINGS
@given(game_trees(8))
def test_negation(g):
    assert negate(g).mean == -g.mean
    assert negate(g).temperature == g.temperature
    assert (g - g).equal(0)


def test_simplify_examples():
    assert simplify(parse_game("{1 | 5/2}")) == Game.num(2)
    assert simplify(parse_game("{0, -1 | 3, 4}")).number == 1
    # {2 | -2} keeps its options; a dominated Left option goes
    assert simplify(parse_game("{2, 1 | -2}")) == parse_game("{2 | -2}")
    # reversible: Left's move to {4 | -5} is answered by -5 <= G, bypassed to -5's Left options (none)
    assert simplify(parse_game("{{4 | -5}, 1 | -1}")) == parse_game("{1 | -1}")


def test_order_examples():
    star = parse_game("*")
    assert star.confused(0) and not star.le(0) and not star.ge(0)
    assert parse_game("{0|*}").ge(0) and not parse_game("{0|*}").le(0)  # up > 0
    assert parse_game("{2|-2}").confused(1)
    g = parse_game("{3||2|1}")
    assert g.ge(2) and g.le(4) and g.confused(3)  # Left moving to 3 keeps G from being <= 3
