"""The whole-board choice over the regions' values (`cgt_bridge.whole_board_move`): the hottest region, a
sente before a gote of the same size (tedomari), and a ko taken before a hotter gote when 3 t_K > 2 t_G + t_E
(the "Computer Go Improvements" ko rule). Each fixture is a board of regions with their local games, as the
analysis hands them over; the rules themselves are checked against exact minimax over sums in
tests/cgt/test_orthodox.py."""
from __future__ import annotations

from fractions import Fraction

import pytest

from tengen.cgt import KO, parse_game
from tengen.cgt.ko import simple_ko
from tengen.cgt.orthodox import BLACK as CGT_BLACK, minimax
from tengen.endgame.cgt_bridge import whole_board_move
from tengen.endgame.regions import Region
from tengen.endgame.results import RegionResult
from tengen.go import BLACK
from tengen.go.coords import from_gtp

SIZE = 19


def region(index: int, vertex: str, game: str) -> RegionResult:
    """A region at `vertex` whose local game is `game` (CGT notation, area counts), best move at `vertex`."""
    g = parse_game(game)
    point = from_gtp(vertex, SIZE)
    return RegionResult(Region(index, frozenset({point})), count=float(g.mean), temperature=float(g.temperature),
                        kind=g.kind, game=g, best_black=[point], best_white=[point])


def ko_region(index: int, vertex: str, black_exit: int, white_exit: int) -> RegionResult:
    """A simple ko Black takes: Black's exit after take and connect, White's after its one connection."""
    chain = simple_ko(Fraction(black_exit), Fraction(white_exit), "black")
    point = from_gtp(vertex, SIZE)
    return RegionResult(Region(index, frozenset({point})), count=float(chain.mean), temperature=float(chain.temperature),
                        kind=KO, ko=chain, best_black=[point], best_white=[point])


def test_the_hottest_region_is_played():
    results = [region(0, "C3", "{1|-1}"), region(1, "Q16", "{5|-5}"), region(2, "K10", "{2|-2}")]
    move, reason = whole_board_move(results, BLACK)
    assert move == (BLACK, from_gtp("Q16", SIZE)) and reason.startswith("hottest region B, temperature 5")


def test_a_sente_is_played_before_a_gote_of_the_same_size():
    # a 2-point gote and Black's sente whose follow-up is hotter (both temperature 2): the sente first
    results = [region(0, "C3", "{2|-2}"), region(1, "Q16", "{{10|2}|0}")]
    assert results[1].kind == "black_sente" and results[0].temperature == results[1].temperature == 2
    move, reason = whole_board_move(results, BLACK)
    assert move == (BLACK, from_gtp("Q16", SIZE)) and "tedomari" in reason
    games = tuple(r.game for r in results)
    assert minimax(games, CGT_BLACK) == 4  # sente first keeps both: what the choice achieves


@pytest.mark.parametrize("t_e,takes_ko", [(Fraction(1, 2), True), (Fraction(2), False)])
def test_a_ko_is_taken_before_a_hotter_gote_when_three_t_k_exceeds_two_t_g_plus_t_e(t_e, takes_ko):
    # t_K = 3 (exits 9 and 0), t_G = 4, the environment at t_E: 9 > 8 + t_E decides
    results = [ko_region(0, "C3", 9, 0), region(1, "Q16", "{4|-4}"), region(2, "K10", f"{{{t_e}|-{t_e}}}")]
    move, reason = whole_board_move(results, BLACK)
    assert (move == (BLACK, from_gtp("C3", SIZE))) == takes_ko
    if takes_ko:
        assert reason.startswith("ko in region A (ko rule, t_K = 3)")
    else:
        assert reason.startswith("hottest region B, temperature 4")
