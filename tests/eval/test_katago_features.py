"""KataGo input features from tengen boards: planes, globals, history handling, ladders and areas."""
import numpy as np
import pytest

from tengen.eval.katago.area import kata_area, pass_alive
from tengen.eval.katago.features import KataRules, encode, komi_parity_wave
from tengen.eval.katago.ladder import ladder_features
from tengen.go import BLACK, WHITE, Board, Rules
from tengen.go.benson import unconditional_life
from tengen.go.diagram import board_from_diagram, parse_diagram
from tengen.go.playout import play_uniform_random

LADDER = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . X . . . .
    . . . X O . . . .
    . . . . . X . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
"""


def planes(board, **kw):
    enc = encode(board, **kw)
    return enc.spatial, enc.global_, enc


def test_empty_board_inputs():
    sp, gl, enc = planes(Board(19))
    assert sp.shape == (19, 19, 22) and gl.shape == (19,)
    assert np.all(sp[..., 0] == 1) and not sp[..., 1:].any()
    assert gl[5] == pytest.approx(-7.5 / 20)  # Black to move: komi counts against the side to move
    assert gl[18] == pytest.approx(-0.5)
    assert np.count_nonzero(gl) == 2
    assert enc.legal.all()


@pytest.mark.parametrize("self_komi,w,h,wave", [
    (-7.5, 19, 19, -0.5), (7.5, 19, 19, 0.5), (-7.0, 19, 19, 0.0), (-6.0, 19, 19, 0.0), (-6.25, 19, 19, 0.25), (7.5, 8, 8, -0.5),
    (6.0, 8, 8, 0.0), (6.5, 8, 8, 0.5), (0.25, 9, 9, -0.25),
])
def test_komi_parity_wave(self_komi, w, h, wave):
    assert komi_parity_wave(self_komi, w, h) == pytest.approx(wave)


def test_stone_and_liberty_planes_are_from_the_side_to_move():
    board = board_from_diagram("""
        . X O . .
        X O O . .
        . X . . .
        . . . . .
        . . . . .
    """)
    board.to_play = WHITE
    sp, _, _ = planes(board)
    assert sp[0, 2, 1] == 1 and sp[1, 1, 1] == 1 and sp[1, 1, 2] == 0  # White's own stones on plane 1
    assert sp[0, 1, 2] == 1 and sp[1, 0, 2] == 1 and sp[0, 1, 1] == 0
    assert sp[0, 1, 3] == 1  # the X at (0,1) has one liberty
    assert sp[1, 0, 4] == 1  # the X at (1,0) has two
    assert sp[1, 1, 5] == 1 and sp[2, 1, 5] == 1  # the O chain and the X at (2,1) have three


def test_history_planes_and_passes():
    board = Board(9, rules=Rules.tromp_taylor())
    board.play(BLACK, (2, 2))
    board.play(WHITE, (6, 6))
    board.play(BLACK, None)
    sp, gl, _ = planes(board)
    assert gl[0] == 1  # the last move (Black's) was a pass
    assert sp[6, 6, 10] == 1 and sp[2, 2, 11] == 1
    assert not sp[..., 9].any() and not sp[..., 12:14].any()
    assert gl[14] == 1  # one more pass ends the game


def test_friendly_pass_rule_hides_history_under_chinese_rules():
    board = Board(9, rules=Rules.chinese())
    board.play(BLACK, (2, 2))
    board.play(WHITE, None)
    sp, gl, _ = planes(board)
    assert not sp[..., 9:14].any() and gl[0] == 0
    assert gl[14] == 0


def test_history_shown_with_pass_flag_under_japanese_rules():
    board = Board(9, rules=Rules.japanese())
    board.play(BLACK, (2, 2))
    board.play(WHITE, None)
    sp, gl, _ = planes(board)
    assert gl[0] == 1 and sp[2, 2, 10] == 1
    assert gl[14] == 1 and gl[9] == 1 and gl[10] == 1  # pass ends the phase; territory scoring, seki tax


def test_game_over_keeps_only_the_last_move():
    board = Board(9, rules=Rules.tromp_taylor())
    board.play(BLACK, (4, 4))
    board.play(WHITE, None)
    board.play(BLACK, None)
    sp, gl, _ = planes(board)
    assert gl[0] == 1 and gl[1] == 0 and not sp[..., 10].any()


def test_other_side_to_move_clears_history_like_kata_raw_nn():
    board = Board(9, rules=Rules.tromp_taylor())
    board.play(BLACK, (4, 4))
    sp, gl, enc = planes(board, to_play=BLACK)
    assert enc.to_play == BLACK and sp[4, 4, 1] == 1
    assert not sp[..., 9:14].any() and gl[:5].sum() == 0
    assert gl[5] == pytest.approx(-7.5 / 20)


def test_history_stops_when_colors_do_not_alternate():
    board = Board(9, rules=Rules.tromp_taylor())
    board.play(BLACK, (0, 0))
    board.play(BLACK, (1, 1))
    board.play(WHITE, (2, 2))
    sp, _, _ = planes(board)  # Black to move: W (2,2), then B (1,1), then B (0,0) breaks alternation
    assert sp[2, 2, 9] == 1 and sp[1, 1, 10] == 1 and not sp[..., 11].any()


def _ko_board(rules):
    board = board_from_diagram("""
        . X O . .
        X O . O .
        . X O . .
        . . . . .
        . . . . .
    """, rules=rules)
    board.play(BLACK, (1, 2))  # captures the O at (1,1): ko
    return board


def test_ko_point_plane_and_legality():
    board = _ko_board(Rules.chinese())
    sp, _, enc = planes(board)
    assert board.to_play == WHITE and sp[1, 1, 6] == 1
    assert not enc.legal[1 * 5 + 1]


def test_superko_banned_point_plane():
    board = _ko_board(Rules.tromp_taylor())
    board.play(WHITE, None)
    board.play(BLACK, None)
    sp, _, enc = planes(board)  # retaking would repeat the position before Black's capture
    assert sp[1, 1, 6] == 1 and not enc.legal[6]
    simple = _ko_board(Rules.chinese())
    simple.play(WHITE, None)
    simple.play(BLACK, None)
    sp2, _, enc2 = planes(simple)
    assert sp2[1, 1, 6] == 0 and enc2.legal[6]


def test_ladder_features_on_a_working_ladder():
    grid, _ = parse_diagram(LADDER)
    laddered, working = ladder_features(grid, None, BLACK)
    assert laddered.sum() == 1 and laddered[4, 4]
    assert set(zip(*np.nonzero(working))) == {(4, 5), (5, 4)}
    laddered_w, working_w = ladder_features(grid, None, WHITE)
    assert laddered_w[4, 4] and not working_w.any()  # working moves only against the opponent


def test_ladder_breakers():
    grid, _ = parse_diagram(LADDER)
    one = grid.copy()
    one[7, 2] = WHITE  # breaks the ladder running towards the lower left
    laddered, working = ladder_features(one, None, BLACK)
    assert laddered[4, 4] and set(zip(*np.nonzero(working))) == {(5, 4)}
    both = one.copy()
    both[1, 6] = WHITE
    laddered, working = ladder_features(both, None, BLACK)
    assert not laddered.any() and not working.any()


def test_one_liberty_chain_that_escapes_is_not_laddered():
    grid, _ = parse_diagram("""
        . . . . . . .
        . . . X . . .
        . . X O X . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
    """)
    laddered, _ = ladder_features(grid, None, WHITE)
    assert not laddered.any()  # extending to (3,3) gives three liberties


def test_ladder_planes_in_the_encoding_include_previous_boards():
    board = Board(9, rules=Rules.tromp_taylor())
    for color, p in [(BLACK, (3, 4)), (WHITE, (4, 4)), (BLACK, (4, 3)), (WHITE, (1, 1)), (BLACK, (5, 5)),
                     (WHITE, (6, 7))]:
        board.play(color, p)
    sp, _, _ = planes(board)  # B (5,5) put the white stone at (4,4) in a two-liberty ladder
    assert sp[4, 4, 14] == 1 and sp[4, 4, 15] == 1 and sp[4, 4, 16] == 0
    assert set(zip(*np.nonzero(sp[..., 17]))) == {(4, 5), (5, 4)}
    board.play(BLACK, (7, 7))
    sp, _, _ = planes(board)  # White to move: no working moves against Black
    assert sp[4, 4, 14] == 1 and not sp[..., 17].any()


def test_area_plane_under_area_scoring_only():
    board = board_from_diagram("""
        . X . X O . .
        X X X X O . .
        . . . X O . .
        X X X X O O O
        O O O O . . .
        . . . . . . .
        . . . . . . .
    """, rules=Rules.chinese())
    sp, _, _ = planes(board)  # Black to move: plane 18 = Black's area
    own, opp = sp[..., 18], sp[..., 19]
    assert own[0, 0] == 1 and own[0, 2] == 1 and own[2, 0] == 1  # pass-alive eyes and region
    assert opp[6, 6] == 1 and opp[0, 6] == 1  # empty regions bordered only by White
    jp = board.copy()
    jp.rules = Rules.japanese()
    sp_jp, _, _ = planes(jp)
    assert not sp_jp[..., 18:20].any()


def test_kata_area_marks_stones_big_territories_and_leaves_dame():
    grid, _ = parse_diagram("""
        . X O .
        . X O .
        . X O .
        . X O .
    """)
    area = kata_area(grid)
    expected, _ = parse_diagram("""
        X X O O
        X X O O
        X X O O
        X X O O
    """)  # as owners: Black's, White's
    assert np.array_equal(area, expected)
    grid2, _ = parse_diagram("""
        . X . O .
        . X . O .
        . X . O .
    """)
    assert np.array_equal(kata_area(grid2)[:, 2], [0, 0, 0])  # dame


def test_pass_alive_stones_agree_with_tengen_benson():
    rng = np.random.default_rng(0)
    with_alive = 0
    for _ in range(150):
        n = int(rng.integers(5, 9))
        board = Board(n)
        play_uniform_random(board, rng, int(rng.integers(10, n * n)))
        g = board.array()
        ours = (pass_alive(g) == g) & (g != 0)
        theirs = (unconditional_life(board) == g) & (g != 0)
        assert np.array_equal(ours, theirs)
        with_alive += bool(theirs.any())
    assert with_alive >= 10  # not only boards where both find nothing (21 of the 150 have pass-alive stones)


def test_handicap_compensation_enters_the_komi_input():
    board = board_from_diagram("""
        . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
        . . . X . . . . . . . . . . . X . . .
        . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
        . . . X . . . . . . . . . . . X . . .
        . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
    """, rules=Rules.chinese(komi=0.5))  # four handicap stones
    board.to_play = WHITE
    _, gl, _ = planes(board)
    assert gl[5] == pytest.approx((0.5 + 4) / 20)  # Chinese: White gets N points
    aga = board.copy()
    aga.rules = Rules.aga(komi=0.5)
    _, gl2, _ = planes(aga)
    assert gl2[5] == pytest.approx((0.5 + 3) / 20)  # AGA: N - 1
    jp = board.copy()
    jp.rules = Rules.japanese(komi=0.5)
    _, gl3, _ = planes(jp)
    assert gl3[5] == pytest.approx((0.5 + 4) / 20)  # territory: 4 more black stones than white on the board


def test_territory_scoring_turns_komi_into_area_terms():
    board = Board(9, rules=Rules.japanese(komi=6.5))
    board.play(BLACK, (2, 2))
    board.play(WHITE, (6, 6))
    board.play(BLACK, (2, 6))
    _, gl, _ = planes(board)  # White to move; Black has played one stone more
    assert gl[5] == pytest.approx(7.5 / 20) and gl[18] == 0


def test_rules_globals():
    _, gl, _ = planes(Board(9, rules=Rules.tromp_taylor()))
    assert (gl[6], gl[7], gl[8], gl[9]) == (1.0, 0.5, 1.0, 0.0)
    _, gl, _ = planes(Board(9, rules=Rules.aga()))
    assert (gl[6], gl[7], gl[8]) == (1.0, -0.5, 0.0)
    assert KataRules.from_rules(Rules.chinese()).friendly_pass_ok
    assert not KataRules.from_rules(Rules.tromp_taylor()).friendly_pass_ok


def test_custom_komi_overrides_rules():
    _, gl, enc = planes(Board(9), komi=-3.5)
    assert gl[5] == pytest.approx(3.5 / 20) and enc.self_komi == pytest.approx(3.5)


def test_remembered_ladder_maps_equal_fresh_reads_and_cannot_be_changed():
    from tengen.eval.katago.ladder import LADDER_CACHE_SIZE, set_ladder_cache

    grid, _ = parse_diagram(LADDER)
    broken = grid.copy()
    broken[7, 2] = WHITE
    try:
        set_ladder_cache(0)
        fresh = [ladder_features(g, None, color) for g in (grid, broken) for color in (BLACK, WHITE)]
        set_ladder_cache(LADDER_CACHE_SIZE)
        first = [ladder_features(g, None, color) for g in (grid, broken) for color in (BLACK, WHITE)]
        again = [ladder_features(g.copy(), None, color) for g in (grid, broken) for color in (BLACK, WHITE)]
    finally:
        set_ladder_cache(LADDER_CACHE_SIZE)
    for a, b, c in zip(fresh, first, again):
        for x, y, z in zip(a, b, c):
            assert (x == y).all() and (y == z).all()
    assert again[0][0] is first[0][0]  # the second read of the same stones came from memory
    with pytest.raises(ValueError):
        again[0][0][4, 4] = False  # shared maps are read-only: an encoder cannot spoil another's ladders
