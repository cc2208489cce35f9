"""One archive SGF as a game record: results, komi (stated, repaired, or the collection's default), setup
stones, moves, skip reasons, and the move key."""

from __future__ import annotations

import math

import pytest

from tengen.train.records.game import SkipGame, move_key, parse_game, parse_result


@pytest.mark.parametrize("text, expected", [
    ("B+R", (1, "resign")), ("W+Resign", (-1, "resign")), ("B+T", (1, "time")), ("W+Time", (-1, "time")),
    ("B+3.5", (1, "score")), ("W+12", (-1, "score")), ("W+", (-1, "winner_only")), ("b+r", (1, "resign")),
])
def test_results_with_a_winner(text, expected):
    assert parse_result(text) == expected


@pytest.mark.parametrize("text, reason", [
    (None, "no_result"), ("", "no_result"), ("Void", "void"), ("Jigo", "draw"), ("draw", "draw"), ("0", "draw"),
    ("B+0.0", "zero_margin"), ("W+0.0", "zero_margin"), ("W+F", "forfeit"), ("X+", "odd_result"),
    ("Unfinished", "odd_result"), ("B+AW", "odd_result"), ("W+ (but B does not lose)", "odd_result"),
])
def test_results_that_are_skipped(text, reason):
    with pytest.raises(SkipGame) as err:
        parse_result(text)
    assert err.value.reason == reason


# collection, root properties, komi the dataset stores (nan: unknown), counted notes
KOMI_CASES = [
    ("tom", "KM[7.5]", 7.5, []),
    ("kgs", "KM[0.50]", 0.5, []),
    ("kgs", "KM[-100.00]", -100.0, []),  # a real large komi, written with a point: not x100
    ("pro_aeb", "KM[3.75]", 7.5, ["komi_stones"]),  # Chinese 'zi'
    ("yenw_ai", "KM[650]", 6.5, ["komi_x100"]),
    ("fox_pro", "KM[375]", 7.5, ["komi_x100", "komi_stones"]),
    # the records' komi fix: an even game stating none or 0 takes its collection's default
    ("fox_pro", "KM[0]", 7.5, ["komi_default_fox_pro"]),
    ("yenw_ai", "KM[0]", 7.5, ["komi_default_yenw_ai"]),
    ("yenw_ai", "", 7.5, ["komi_default_yenw_ai"]),
    ("fox_pro", "KM[abc]", 7.5, ["komi_default_fox_pro"]),
    # ... but not a handicap game (stones set up, or HA[1]: a no-komi game) ...
    ("fox_pro", "KM[0]HA[2]AB[dd][pp]", 0.0, []),
    ("fox_pro", "KM[0]HA[1]", 0.0, []),
    # ... nor a collection whose KM[0] means no komi (old professional games: whole-point results)
    ("pro_aeb", "KM[0]", 0.0, []),
    ("pro_aeb", "", math.nan, ["komi_missing"]),
    ("kgs", "KM[abc]", math.nan, ["komi_unreadable"]),
]


@pytest.mark.parametrize("collection, props, komi, notes", KOMI_CASES)
def test_komi_stated_repaired_or_the_collections_default(collection, props, komi, notes):
    rec = parse_game(f"(;GM[1]FF[4]SZ[19]{props}RE[W+R];B[qd];W[dp])".encode(), "k.sgf", collection)
    assert rec.komi == komi or (math.isnan(komi) and math.isnan(rec.komi))
    assert rec.notes == notes


GAME = b"(;GM[1]FF[4]SZ[19]KM[750]RE[W+R];B[pd];W[dp];B[pq];W[dd];B[];W[tt])"


def test_parse_game_reads_moves_passes_and_quirks():
    rec = parse_game(GAME, "g.sgf", "fox_pro")
    assert rec.winner == -1 and rec.result_kind == "resign" and rec.komi == 7.5
    assert rec.moves == [(1, (3, 15)), (-1, (15, 3)), (1, (16, 15)), (-1, (3, 3)), (1, None), (-1, None)]
    assert rec.notes == ["komi_x100"]


def test_parse_game_fixes_a_missing_parenthesis():
    rec = parse_game(b";GM[1]SZ[19]KM[6.5]RE[B+R];B[aa];W[bb])", "p.sgf")
    assert rec.notes == ["fixed_missing_paren"] and rec.moves[0] == (1, (0, 0))


def test_handicap_stones_after_the_root_are_setup():
    rec = parse_game(b"(;SZ[19]HA[2]RE[B+R];AB[pd][dp];W[qp];B[dd])")
    assert sorted(rec.setup_black) == [(3, 15), (15, 3)] and rec.moves == [(-1, (15, 16)), (1, (3, 3))]
    assert rec.notes == ["setup_after_root", "komi_missing"]


def test_compressed_setup_rectangle():
    rec = parse_game(b"(;SZ[19]RE[B+R]AB[aa:bb]AW[cc];B[dd])")
    assert sorted(rec.setup_black) == [(0, 0), (0, 1), (1, 0), (1, 1)] and rec.setup_white == [(2, 2)]


@pytest.mark.parametrize("data, reason", [
    (b"(;SZ[9]RE[B+R];B[aa])", "not_19x19"),
    (b"(;SZ[19]RE[Void];B[aa])", "void"),
    (b"(;SZ[19]RE[B+R])", "no_moves"),
    (b"(;SZ[19];B[aa])", "no_result"),
    (b"this is not sgf", "parse_error"),
    (b"(;GM[3]SZ[19]RE[B+R];B[aa])", "parse_error"),  # not a Go record
    (b"(;SZ[19]RE[B+R];B[aa];AB[bb];W[cc])", "setup_in_game"),
    (b"(;SZ[19]RE[B+R];AE[aa];B[bb])", "setup_in_game"),
])
def test_unusable_games_are_skipped_with_a_reason(data, reason):
    with pytest.raises(SkipGame) as err:
        parse_game(data)
    assert err.value.reason == reason


def test_move_key_is_the_setup_and_the_moves():
    a = parse_game(b"(;SZ[19]KM[6.5]RE[B+R];B[pd];W[dp])", "a.sgf", "kgs")
    same = parse_game(b"(;SZ[19]KM[0]RE[W+5.5]PB[x];B[pd];W[dp])", "b.sgf", "fox_pro")  # other headers
    other = parse_game(b"(;SZ[19]KM[6.5]RE[B+R];B[pd];W[dq])")
    setup = parse_game(b"(;SZ[19]KM[6.5]RE[B+R]AB[aa];B[pd];W[dp])")
    assert move_key(a) == move_key(same)
    assert len({move_key(a), move_key(other), move_key(setup)}) == 3
