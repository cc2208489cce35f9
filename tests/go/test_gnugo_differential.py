"""tengen's rules core against GNU Go (Debian's /usr/games/gnugo) over GTP: boards, prisoners, legal-move
sets and ko after every move; area score given GNU Go's dead stones at the end.

The default run plays a handful of games; the full check (200 real + 200 random games) is slow. The
logic lives in bench/gnugo_differential.py, which prints the same counts.
"""
from __future__ import annotations

import sys

import pytest

from tengen.eval.gtp_client import GtpClient, find_gnugo
from tengen.go.coords import from_gtp
from tengen.io.gtp import GtpEngine

from datapaths import REPO, shared_data

sys.path.insert(0, str(REPO / "bench"))
import gnugo_differential as differential  # noqa: E402

pytestmark = [
    pytest.mark.gnugo,
    pytest.mark.skipif(find_gnugo() is None, reason="GNU Go is not installed (/usr/games/gnugo; apt-get install gnugo)"),
]

# (color, vertex, accepted?) on 9x9: a ko, lifted by an exchange elsewhere and again by two passes;
# suicide; filling one's own eye; an occupied point; a three-stone capture whose last liberty is
# suicide for its owner.
SEQUENCE = [
    ("b", "D6", True), ("b", "C5", True), ("b", "D4", True),
    ("w", "E6", True), ("w", "F5", True), ("w", "E4", True), ("w", "D5", True),
    ("b", "E5", True),             # captures D5: a ko
    ("w", "D5", False),            # immediate retake: ko
    ("w", "H8", True), ("b", "H2", True),
    ("w", "D5", True),             # after an exchange elsewhere the retake is legal; captures E5
    ("b", "E5", False),            # and now Black may not retake at once
    ("b", "pass", True), ("w", "pass", True),
    ("b", "E5", True),             # the passes lifted the ko
    ("b", "A2", True), ("b", "B1", True),
    ("w", "A1", False),            # suicide
    ("b", "A1", True),             # filling one's own eye is legal
    ("w", "E5", False),            # occupied
    ("b", "J2", True), ("b", "H1", True),
    ("w", "G1", True), ("w", "G2", True), ("w", "H3", True), ("w", "J3", True),  # H1 H2 J2: one liberty, J1
    ("b", "J1", False),            # suicide: fills the chain's last liberty
    ("w", "J1", True),             # captures three stones
]


def _bench_checker(client):
    tally = differential.Tally()
    return differential.Checker(client, tally), tally


def test_hand_made_sequence_agrees_and_matches_the_rules():
    with GtpClient.gnugo() as gnugo:
        checker, tally = _bench_checker(gnugo)
        board = checker.new_game("sequence", 9, 7.5)
        for color, vertex, accepted in SEQUENCE:
            outcome = checker.play(board, 1 if color == "b" else -1, from_gtp(vertex, 9))
            assert outcome is not False, tally.disagreements
            assert (outcome is True) == accepted, f"{color} {vertex}"
            checker.compare(board, prisoners=True)
    assert tally.disagreements == []
    assert tally.refused_by_both == {"ko": 2, "suicide": 2, "occupied": 1}
    assert tally.ko_checks >= 3
    assert board.captures == {1: 2, -1: 4}


def test_random_games_agree_with_gnugo():
    tally = differential.run(real=0, random_games=5, seed=7)
    assert tally.disagreements == []
    assert tally.random_games == 5
    assert tally.moves > 500
    assert tally.legal_sets == tally.positions > 500
    assert tally.refused_by_both["suicide"] > 0 and tally.refused_by_both["occupied"] > 0
    assert tally.scored["random"] + tally.skipped.total() == 5
    assert tally.score_equal["random"] >= 3  # played-out random boards: the counts agree exactly


def test_real_games_agree_with_gnugo():
    shared_data("games", "finished_19x19_scored_games.txt")
    tally = differential.run(real=3, random_games=0)
    assert tally.disagreements == []
    assert tally.real_games == 3
    assert tally.moves > 3 * 150
    assert tally.scored["real"] == 3 - sum(tally.skipped.values())


def test_score_text_parsing():
    assert differential._margin("B+3.5") == 3.5
    assert differential._margin("W+0.5") == -0.5
    assert differential._margin("0") == 0.0


@pytest.mark.slow
@pytest.mark.long
def test_full_differential_200_real_200_random():
    shared_data("games", "finished_19x19_scored_games.txt")
    tally = differential.run(real=200, random_games=200, seed=1)
    print(differential.report(tally))
    assert tally.real_games == 200 and tally.random_games == 200
    assert tally.disagreements == []
    assert sum(tally.scored.values()) >= 380


def _removed_with_a_move(path, size: int) -> set:
    """Points emptied by AE in a node that also holds a move (FF[4] forbids mixing them; Cgoban writes its
    dead-stone removal that way): tengen applies the AE, GNU Go keeps those stones."""
    from tengen.go.sgf_bytes import parse_sgf_bytes

    removed = set()
    for node in parse_sgf_bytes(path.read_bytes(), str(path)).get_main_sequence():
        if node.has_property("AE") and node.get_move()[0] is not None:
            removed |= {(size - 1 - row, col) for row, col in node.get("AE")}
    return removed


def _loadsgf_agrees(gnugo: GtpClient, folder, argument: str = "") -> int:
    """loadsgf every SGF under `folder` in tengen's engine and in GNU Go: both load it or both refuse, and
    the stones (but for an AE mixed into a move node, see above), the player to move and the prisoners
    agree. Returns the number of files compared."""
    from tengen.io.engines import gtp_engine

    compared = 0
    checker = differential.Checker(gnugo, differential.Tally())
    for path in sorted(folder.rglob("*.sgf")):
        command = f"loadsgf {path} {argument}".strip()
        engine = gtp_engine()
        ours = engine.handle(command)
        theirs = gnugo.query(command)
        assert ours.startswith("=") == theirs.ok, (command, ours, theirs)
        if not theirs.ok:
            continue
        assert ours[2:].strip() == theirs.text, (command, "player to move")
        board = engine.board
        grid = board.array()
        answers = gnugo.query_many(["list_stones black", "list_stones white", "captures black", "captures white"])
        for color, answer in zip((1, -1), answers[:2]):
            ours_stones = {(int(r), int(c)) for r, c in zip(*(grid == color).nonzero())}
            theirs_stones = checker._points(answer.text, board.height)
            if ours_stones != theirs_stones:  # only where tengen applied an AE that GNU Go ignored
                theirs_stones -= _removed_with_a_move(path, board.height)
            assert theirs_stones == ours_stones, (command, color)
        assert [int(a.text) for a in answers[2:]] == [board.captures[1], board.captures[-1]], command
        compared += 1
    return compared


@pytest.mark.parametrize("suite", ["gnugo", pytest.param("fuego", marks=pytest.mark.slow)])
def test_regression_sgfs_load_like_gnugo(suite):
    """Every SGF of GNU Go's (and, slow, Fuego's) regression suites: setup stones, PL, handicap, captures."""
    folder = shared_data("regression", suite)
    with GtpClient.gnugo() as gnugo:
        assert _loadsgf_agrees(gnugo, folder) > 100


@pytest.mark.slow
@pytest.mark.parametrize("argument", ["1", "2", "10", "51", "C3", "D4"])  # (GNU Go mishandles off-board vertices)
def test_regression_sgfs_load_like_gnugo_at_earlier_moves(argument):
    with GtpClient.gnugo() as gnugo:
        for suite in ("gnugo", "fuego"):
            assert _loadsgf_agrees(gnugo, shared_data("regression", suite), argument) > 100
