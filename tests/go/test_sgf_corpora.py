"""Real-world and hostile SGF: every input loads and replays, or fails with a one-line `SgfError` naming the
file and the problem. Any other exception is a crash, and there must be none.

Inputs: every file under ../shared/data/sgf_corpora (parser test suites, deliberately malformed files,
licences and images included), a sample of the game archives in ../shared/data/games (300 games by
default, 20,000 in the slow test), and hand-made hostile inputs. bench/sgf_corpus.py prints the counts.
"""
from __future__ import annotations

import sys

import pytest

from tengen.go import BLACK, WHITE
from tengen.go.sgf import SgfError, load_game, load_game_bytes
from tengen.go.sgf_bytes import MAX_SGF_BYTES

from datapaths import REPO, shared_data

sys.path.insert(0, str(REPO / "bench"))
import sgf_corpus as corpus  # noqa: E402


def assert_clean(exc: SgfError, source: str) -> None:
    message = str(exc)
    assert "\n" not in message and "\r" not in message
    assert message.startswith(f"{source}: ")
    assert exc.problem and len(message) < 400


# ---------------------------------------------------------------- the shared corpora
def test_every_corpus_file_loads_or_fails_cleanly():
    root = shared_data("sgf_corpora")
    tally = corpus.Tally()
    for path in corpus.corpora_files(root):
        tally.add(corpus.check_file(path))
    assert tally.crashes == []
    assert tally.total >= 200
    assert tally.loaded >= 160  # the valid files of the suites load (the rest: licences, images, broken files)


@pytest.mark.parametrize("name,moves", [
    ("SabakiHQ+sgf/tests/sgf/encoding/nihon-kiin.sgf", 8),      # Shift-JIS, root node without ';'
    ("SabakiHQ+sgf/tests/sgf/utf16le.sgf", 164),                 # UTF-16 with a BOM
    ("herzbube+libsgfcplusplus/test/test-files/encoding-utf16-withbom.sgf", 0),
    ("herzbube+libsgfcplusplus/test/test-files/encoding-utf16-nobom.sgf", 0),
    ("SabakiHQ+sgf/tests/sgf/utf8bom.sgf", None),
])
def test_repaired_corpus_files_load(name, moves):
    game = load_game(shared_data("sgf_corpora", *name.split("/")))
    if moves is not None:
        assert len(game.moves) == moves
    game.board_at(None, strict=False)


def test_utf16_text_is_decoded():
    game = load_game(shared_data("sgf_corpora", "SabakiHQ+sgf", "tests", "sgf", "utf16le.sgf"))
    assert "Kitani" in game.sgf.get_root().get("PB")


@pytest.mark.parametrize("name,problem", [
    ("atw1020+sente/tests/invalid sgf/empty file.txt", "empty file"),
    ("babeheim+kaya/tests/testthat/invalid_sgf/invalid_moves.sgf", "node 5: bad move B[zz] for a 19x19 board"),
    ("atw1020+sente/tests/invalid sgf/missing letter in move.sgf", "node 56: bad move W[n]"),
    ("Remi-Coulom+gogui/test/junit/src/net/sf/gogui/sgf/size-after-invalid-points.sgf", "bad setup point"),
    ("atw1020+sente/tests/invalid sgf/octopus.jpeg", "not a readable SGF game"),
])
def test_broken_corpus_files_fail_with_a_clear_message(name, problem):
    path = shared_data("sgf_corpora", *name.split("/"))
    with pytest.raises(SgfError) as info:
        load_game(path)
    assert_clean(info.value, str(path))
    assert problem in info.value.problem


# ---------------------------------------------------------------- the game archives
def test_archive_sample_loads_and_replays():
    shared_data("games")
    tally = corpus.Tally()
    komi_x100 = 0
    for source, data in corpus.archive_sample(300):
        outcome = corpus.check_bytes(data, source)
        tally.add(outcome)
        if b"KM[750]" in data or b"KM[650]" in data:
            komi_x100 += 1
            assert load_game_bytes(data, source).komi in (7.5, 6.5)
    assert tally.crashes == []
    assert tally.total >= 300
    assert tally.loaded >= 295
    assert tally.moves > 300 * 150
    assert komi_x100 > 0  # the Fox-style x100 komi is in the sample and normalised


def test_fox_files_missing_the_leading_parenthesis():
    archive = shared_data("games", "fox_pro_featurecat_10348.tar.xz")
    wanted = {"fox_pro/Pro/9p/1550746119080010073.sgf", "fox_pro/Pro/9p/1550745857080010073.sgf",
              "fox_pro/Pro/9p/1550554937080010073.sgf"}
    found = 0
    for member, data in corpus.iter_archive(archive, wanted=wanted):
        assert data.lstrip().startswith(b";")
        game = load_game_bytes(data, member)
        board = game.board_at(None)  # strict: these records are legal games
        assert len(board.moves) > 50
        found += 1
    assert found == len(wanted)


@pytest.mark.slow
def test_archive_sample_of_20000_games():
    shared_data("games")
    tally = corpus.Tally()
    corpus.run_archives(tally, 20000)
    print(f"{tally.total} games: {tally.loaded} loaded, errors {dict(tally.errors)}, crashes {len(tally.crashes)}")
    assert tally.total >= 20000
    assert tally.crashes == []


# ---------------------------------------------------------------- hand-made quirks and hostile inputs
@pytest.mark.parametrize("km,komi", [("750", 7.5), ("650", 6.5), ("375", 7.5), ("6.5", 6.5), ("0.50", 0.5),
                                     ("-100.00", -100.0), ("0", 0.0), ("", 0.0)])
def test_komi_quirks(km, komi):
    assert load_game_bytes(f"(;GM[1]SZ[19]KM[{km}];B[pd])".encode()).komi == komi


@pytest.mark.parametrize("re_value", ["B+", "Jigo", "Void", "W+0.0", "draw", "?", "", "B+R", "W+Time", "0"])
def test_odd_results_load(re_value):
    game = load_game_bytes(f"(;GM[1]SZ[9]RE[{re_value}];B[ee];W[cc])".encode(), "odd")
    assert game.result == re_value
    assert len(game.board_at(None).moves) == 2


def test_missing_parenthesis_and_bom_are_repaired():
    for data in (b";GM[1]SZ[9];B[ee];W[cc]", b"\xef\xbb\xbf(;GM[1]SZ[9];B[ee];W[cc])", b"  \r\n;SZ[9];B[ee];W[cc])"):
        assert len(load_game_bytes(data).moves) == 2


def test_undeclared_latin1_and_gbk_text_loads():
    for name in ("Jos\xe9".encode("latin-1"), "\u674e\u660c\u9550".encode("gbk")):
        game = load_game_bytes(b"(;GM[1]SZ[9]PB[" + name + b"];B[ee])", "enc")
        assert len(game.moves) == 1


HOSTILE = [
    ("empty", b"", "empty file"),
    ("whitespace", b" \r\n\t ", "empty file"),
    ("binary garbage", bytes(range(256)) * 8, "not a readable SGF game"),
    ("nul bytes", b"\x00" * 1000, "not a readable SGF game"),
    ("board too big", b"(;GM[1]SZ[30];B[aa])", "board size 30 is not supported (2..25)"),
    ("board too small", b"(;GM[1]SZ[1])", "board size 1 is not supported (2..25)"),
    ("board size zero", b"(;GM[1]SZ[0])", "board size 0 is not supported (2..25)"),
    ("rectangular", b"(;GM[1]SZ[19:13];B[aa])", "rectangular board 19x13 is not supported"),
    ("size not a number", b"(;GM[1]SZ[big])", "bad board size SZ[big]"),
    ("move off the board", b"(;GM[1]SZ[9];B[ee];W[zz])", "node 2: bad move W[zz] for a 9x9 board"),
    ("move not a point", b"(;GM[1]SZ[19];B[Q16])", "node 1: bad move B[Q16]"),
    ("setup off the board", b"(;GM[1]SZ[9]AB[ee][jj])", "node 0: bad setup point in AB[ee][jj]"),
    ("unclosed value", b"(;GM[1]SZ[9];B[ee]C[never closed", "not a readable SGF game"),
    ("no game tree", b"hello world", "not a readable SGF game"),
    ("only parentheses", b"(((())))", "not a readable SGF game"),
]


@pytest.mark.parametrize("name,data,problem", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_bytes_fail_with_one_clear_line(name, data, problem):
    with pytest.raises(SgfError) as info:
        load_game_bytes(data, f"<{name}>")
    assert_clean(info.value, f"<{name}>")
    assert problem in info.value.problem


@pytest.mark.parametrize("name,data,problem", HOSTILE[:6], ids=[h[0] for h in HOSTILE[:6]])
def test_hostile_files_name_the_file(tmp_path, name, data, problem):
    path = tmp_path / "bad game.sgf"
    path.write_bytes(data)
    with pytest.raises(SgfError) as info:
        load_game(path)
    assert_clean(info.value, str(path))
    assert problem in info.value.problem


def test_huge_file_is_refused_before_reading(tmp_path):
    path = tmp_path / "huge.sgf"
    with open(path, "wb") as f:
        f.write(b"(;GM[1]SZ[19]C[")
        f.seek(MAX_SGF_BYTES + 10)
        f.write(b"])")
    with pytest.raises(SgfError, match="file is too large") as info:
        load_game(path)
    assert_clean(info.value, str(path))
    with pytest.raises(SgfError, match="file is too large"):
        load_game_bytes(b" " * (MAX_SGF_BYTES + 1), "huge")


def test_missing_file_and_directory(tmp_path):
    for path in (tmp_path / "missing.sgf", tmp_path):
        with pytest.raises(SgfError) as info:
            load_game(path)
        assert_clean(info.value, str(path))


def test_deep_nesting_and_wide_variations_do_not_crash():
    deep = b"(" * 50000 + b";GM[1]SZ[9];B[ee]" + b")" * 50000
    wide = b"(;GM[1]SZ[9]" + b"(;B[ee])" * 20000 + b")"
    for data in (deep, wide):
        try:
            game = load_game_bytes(data, "nested")
            game.board_at(None, strict=False)
        except SgfError as exc:
            assert_clean(exc, "nested")


# ---------------------------------------------------------------- illegal moves in records
ILLEGAL = [
    ("occupied", b"(;GM[1]SZ[9];B[ee];W[ee])", "move 2 (W E5) is illegal: occupied"),
    ("suicide", b"(;GM[1]SZ[5]AB[ab][ba];W[aa])", "move 1 (W A5) is illegal: suicide"),
    # Black captures at C3 (ko); White retakes at once
    ("ko", b"(;GM[1]SZ[5]AB[bc][cb][cd]AW[db][dd][ec][cc];B[dc];W[cc])", "move 2 (W C3) is illegal: ko"),
]


@pytest.mark.parametrize("name,data,problem", ILLEGAL, ids=[i[0] for i in ILLEGAL])
def test_illegal_moves_strict_error_names_the_move(name, data, problem):
    game = load_game_bytes(data, name)
    with pytest.raises(SgfError) as info:
        game.board_at(None)
    assert_clean(info.value, name)
    assert info.value.problem == problem


def test_illegal_moves_are_forced_when_not_strict():
    occupied = load_game_bytes(ILLEGAL[0][1]).board_at(None, strict=False)
    assert occupied.get((4, 4)) == WHITE  # overwritten, as many editors do
    suicide = load_game_bytes(ILLEGAL[1][1]).board_at(None, strict=False)
    assert suicide.get((0, 0)) == 0 and suicide.captures[BLACK] == 1  # the stone comes off at once
    ko = load_game_bytes(ILLEGAL[2][1]).board_at(None, strict=False)
    assert ko.get((2, 2)) == WHITE and ko.get((2, 3)) == 0  # the retake captures the ko stone
    assert ko.captures == {BLACK: 1, WHITE: 1}
