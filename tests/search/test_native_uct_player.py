"""The native playout search through its wrapper (`tengen.search.native_uct`) and the GTP front end
(`tengen gtp --evaluator playouts`): tactics (capture a big chain in atari, save one's own), eyes and passing,
legality (random positions, positional superko), determinism, tree reuse, the prior callback. Budgets are
playout counts; nothing depends on the machine's speed."""
from __future__ import annotations

import io
import sys

import numpy as np
import pytest

from tengen.go.board import Board
from tengen.go.colors import BLACK, WHITE
from tengen.go.coords import from_gtp
from tengen.go.diagram import board_from_diagram
from tengen.go.rules import Rules
from tengen.go.scoring import area_score
from tengen.search.native_uct import NativeUct, UctConfig, board_move_prior, mercy_stones, playout_dead_stones


def _search(playouts: int = 2000, seed: int = 1, **config) -> NativeUct:
    return NativeUct(UctConfig(playouts=playouts, seed=seed, **config))


def _eye(board: Board, color: int, point) -> bool:
    """The engine's eye: all neighbours own (or edge), at most one opponent diagonal (none on the edge)."""
    r, c = point
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        q = (r + dr, c + dc)
        if board.on_board(q) and board.get(q) != color:
            return False
    edge, bad = False, 0
    for dr, dc in ((-1, -1), (-1, 1), (1, -1), (1, 1)):
        q = (r + dr, c + dc)
        if not board.on_board(q):
            edge = True
        elif board.get(q) == -color:
            bad += 1
    return bad == 0 if edge else bad <= 1


CAPTURE = """
    . . . . . . . . .
    . . . . . . . . .
    . . X X X X X . .
    . . O O O O O X .
    . . X X X X X . .
    . . . . . . . . .
    . . . . O . . . .
    . . . O . . O . .
    . . . . . . . . ."""

SAVE = """
    . . . . . . . . .
    . . . . . . . . .
    . . O O O O O . .
    . . X X X X X O .
    . . O O O O O . .
    . . . . . . . . .
    . . . . X . . . .
    . . . X . . X . .
    . . . . . . . . ."""


def test_it_captures_a_big_chain_in_atari_when_that_wins():
    board = board_from_diagram(CAPTURE, Rules.chinese(komi=7.5))
    board.to_play = BLACK
    assert _search().genmove(board) == (3, 1)


def test_it_saves_its_own_big_group_in_atari():
    board = board_from_diagram(SAVE, Rules.chinese(komi=-7.5))
    board.to_play = BLACK
    assert _search().genmove(board) == (3, 1)


SETTLED = """
    X . X X O . O
    X X X X O O O
    X . X X O . O
    X X X X O O O
    X . X X O . O"""


@pytest.mark.parametrize("color", [BLACK, WHITE])
def test_it_passes_when_only_own_eye_fills_remain(color):
    board = board_from_diagram(SETTLED)
    board.to_play = color
    search = _search(300)
    assert search.genmove(board) is None
    assert search.last.reason == "no-moves"


def test_it_passes_after_the_opponents_pass_when_the_count_already_wins():
    board = board_from_diagram("""
        X . X . O . O
        X X X . O O O
        X . X . O . O
        X X X . O O O
        X . X . O . O""", Rules.chinese(komi=-2.5))  # 15 points each, the dame column open: Black by 2.5
    board.play(WHITE, None)
    search = _search(300)
    assert search.genmove(board) is None
    assert search.last.reason == "opponent-passed-and-won"
    board.undo()
    board.to_play = BLACK  # no pass before: Black plays on (a dame)
    assert search.genmove(board) is not None


def test_after_the_opponents_pass_it_counts_without_its_own_dead_stones():
    # pbn_calibration, knclassic game 8 and 13, l8 game 13, uct20000 game 18: GNU Go passed, the board's count as
    # it stood (Tromp-Taylor) won for tengen with its dead stones in GNU Go's area counted as alive, tengen passed,
    # and the referee took them off: lost by 4.5 to 31.5. Here the Black stone inside White's area is dead: as it
    # stands Black leads by 5.5 (the white area touches it, so it counts for no one); without it White wins by 10.5.
    board = board_from_diagram("""
        X . X . O . . . O
        X X X . O . . . O
        X . X . O . X . O
        X X X . O . . . O
        X . X . O . . . O""", Rules.chinese(komi=0.5))
    assert area_score(board).margin == 5.5
    board.to_play = WHITE
    board.play(WHITE, None)
    assert playout_dead_stones(board) == [(2, 6)]
    search = _search(300)
    assert search.genmove(board) is not None
    assert search.last.reason == "search"


def _random_position(seed: int, size: int = 9, moves: int = 50) -> Board:
    rng = np.random.default_rng(seed)
    board = Board(size, rules=Rules.tromp_taylor())
    for _ in range(moves):
        legal = [p for p in board.legal_moves() if not _eye(board, board.to_play, p)]
        if not legal:
            board.play(board.to_play, None)
            continue
        board.play(board.to_play, legal[rng.integers(len(legal))])
    return board


@pytest.mark.parametrize("seed", range(8))
def test_the_move_is_always_legal_and_never_an_own_eye(seed):
    board = _random_position(seed, moves=30 + 10 * seed)
    search = _search(300, seed=seed)
    color = board.to_play
    move = search.genmove(board)
    assert move is None or (board.is_legal(color, move) and not _eye(board, color, move))


def test_a_superko_move_ranked_first_is_replaced_by_the_next_legal_one(monkeypatch):
    board = board_from_diagram("""
        . X O . .
        X O . O .
        . X O . .
        . . . . .
        . . . . .""", Rules.tromp_taylor(komi=0.5))
    board.play(BLACK, (1, 2))  # Black captures the white stone at (1, 1): a ko
    board.play(WHITE, None)
    board.play(BLACK, None)
    assert board.ko_point is None and not board.is_legal(WHITE, (1, 1))  # the retake repeats the stones
    search = _search(200)
    w = board.width
    fake = {"moves": [(1 * w + 1, 150.0, 0.9, 10.0, 0.9, 0.0), (3 * w + 3, 40.0, 0.5, 10.0, 0.5, 0.0),
                      (-1, 1.0, 0.1, 0.0, 0.0, 0.0)],
            "playouts": 191, "seconds": 0.01, "reused": 0, "nodes": 10, "root_visits": 191}
    monkeypatch.setattr(search, "search", lambda *a, **k: fake)
    assert search.genmove(board) == (3, 3)
    assert search.last.reason == "superko-next"


def test_the_real_search_respects_superko():
    board = board_from_diagram("""
        . X O . .
        X O . O .
        . X O . .
        . . . . .
        . . . . .""", Rules.tromp_taylor(komi=0.5))
    board.play(BLACK, (1, 2))
    board.play(WHITE, None)
    board.play(BLACK, None)
    move = _search(500).genmove(board)
    assert move is None or board.is_legal(WHITE, move)


def test_the_same_seed_on_one_thread_gives_the_same_search():
    board = _random_position(11)
    a, b = _search(800, seed=5), _search(800, seed=5)
    assert a.genmove(board) == b.genmove(board)
    assert [(s.move, s.visits) for s in a.last.moves] == [(s.move, s.visits) for s in b.last.moves]


def test_tree_reuse_keeps_the_visits_of_the_position_reached():
    # each move played is the searched side's most visited root move, so its subtree has visits to keep
    # (a reply chosen from outside may never have been visited: then nothing is kept)
    board = Board(9)
    search = _search(1500, seed=2)
    for color in (BLACK, WHITE, BLACK):
        move = search.genmove(board)
        assert color == BLACK and board.moves == [] or search.last.reused > 0
        board.play(color, move)
    board.play(WHITE, None)  # two moves since the last search (a stone and a pass): the path is followed
    search.genmove(board)
    assert search.last.reused >= 0
    other = Board(9)
    other.setup(black=[(4, 4)])  # a position set up without history: a fresh tree
    search.genmove(other)
    assert search.last.reused == 0


ATARI_BY_THE_LAST_MOVE = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . O O . . .
    . . . O X X . . .
    . . . . O . . . .
    . . . . . . . . .
    . . . . . . . X .
    . . . . . . . . ."""  # the Black stone at (7, 7) breaks the ladder that would catch the extension at (5, 5)


def _first_visited(knowledge: str, seed: int):
    """The root move the first playout of a search visits, after White's atari at (4, 6) (Black to move)."""
    board = board_from_diagram(ATARI_BY_THE_LAST_MOVE, Rules.chinese(komi=7.5))
    board.to_play = WHITE
    board.play(WHITE, (4, 6))
    raw = _search(1, seed=seed, knowledge=knowledge).search(board)
    visited = [(m, v) for m, v, *_ in raw["moves"] if v > 0]
    assert raw["root_visits"] == 1 and len(visited) == 1  # real visits only: the virtual games are not reported
    m = visited[0][0]
    return None if m < 0 else (m // 9, m % 9)


def test_the_default_knowledge_sends_the_first_playout_to_the_policys_answer():
    # the policy's answer to the atari (the extension at (5, 5)) starts at 1.0 x 9 virtual games, every other
    # move lower (Fuego's GoUctDefaultPriorKnowledge), so the first playout goes there, whatever the seed
    assert {_first_visited("classic", seed) for seed in range(1, 6)} == {(5, 5)}
    # without it every move is untried and ties are drawn at random
    assert len({_first_visited("none", seed) for seed in range(1, 6)}) > 1


def test_the_knowledge_is_checked_and_stated():
    with pytest.raises(ValueError):
        UctConfig(knowledge="mogo")
    assert "knowledge=classic" in UctConfig().describe()
    assert "knowledge=none" in UctConfig(knowledge="none").describe()


def test_the_prior_is_called_and_a_huge_weight_decides_the_move():
    calls = []

    def corner(stones: np.ndarray, to_play: int) -> np.ndarray:
        calls.append((stones.shape, to_play))
        p = np.zeros(stones.shape)
        p[0, 0] = 1.0
        return p

    board = Board(9)
    search = NativeUct(UctConfig(playouts=500, seed=1, prior_weight=1000.0), prior=corner)
    assert search.genmove(board) == (0, 0)
    assert calls and calls[0] == ((9, 9), BLACK)
    plain = _search(500).genmove(Board(9))
    assert plain != (0, 0)


def test_fuegos_slower_fading_prior_keeps_visiting_the_prior_move():
    # a prior on the corner point A9 (a poor first move on 9x9): W p / (1 + n) fades after a few visits,
    # W p sqrt(K / (n + K)) (Fuego's additive knowledge, K = 5) keeps drawing visits to it
    def corner(stones: np.ndarray, to_play: int) -> np.ndarray:
        p = np.zeros(stones.shape)
        p[0, 0] = 1.0
        return p

    visits = {}
    for decay in (0.0, 5.0):
        search = NativeUct(UctConfig(playouts=2000, seed=1, prior_weight=0.5, prior_decay=decay), prior=corner)
        search.genmove(Board(9))
        visits[decay] = {m.move: m.visits for m in search.last.moves}[(0, 0)]
    assert visits[5.0] > 3 * visits[0.0]


def test_prior_decay_is_checked_and_needs_the_prior(capsys):
    from tengen.cli import main

    for bad in (-1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError):
            UctConfig(prior_decay=bad)
    assert main(["gtp", "--evaluator", "playouts", "--prior-decay", "5"]) == 2
    assert "--prior-decay needs" in capsys.readouterr().err


def test_board_move_prior_adapts_a_board_prior():
    seen = []

    def on_board(board: Board) -> np.ndarray:
        seen.append((board.to_play, int(board.array().sum())))
        return np.full((board.height, board.width), 0.5)

    prior = board_move_prior(on_board)
    stones = np.zeros((9, 9), dtype=np.int8)
    stones[4, 4] = 1
    assert prior(stones, WHITE).shape == (9, 9) and seen == [(WHITE, 1)]


def test_two_threads_sum_their_trees():
    search = _search(600, threads=2)
    assert search.genmove(Board(9)) is not None
    assert sum(s.visits for s in search.last.moves) >= 500


def test_config_is_checked():
    with pytest.raises(ValueError):
        UctConfig(playouts=0)
    with pytest.raises(ValueError):
        UctConfig(threads=0)
    with pytest.raises(ValueError):
        UctConfig(rave_equivalence=0)
    for bad in (-0.1, float("nan"), float("inf")):
        with pytest.raises(ValueError):
            UctConfig(mercy=bad)


def test_the_mercy_coefficient_scales_with_the_board_and_reaches_the_engine():
    assert mercy_stones(0.6, 19, 19) == 50 and mercy_stones(0.6, 13, 13) == 28 and mercy_stones(0.6, 9, 9) == 16
    assert mercy_stones(0.0, 19, 19) == 0
    search = NativeUct(UctConfig(playouts=50, seed=1, mercy=0.6))
    assert search.genmove(Board(9)) is not None
    assert search._engine.mercy == 16
    off = NativeUct(UctConfig(playouts=50, seed=1, mercy=0.0))
    off.genmove(Board(9))
    assert off._engine.mercy == 0


def test_gtp_evaluator_playouts_answers_genmove_with_a_legal_vertex(monkeypatch, capsys):
    from tengen.cli import main

    script = b"1 boardsize 9\n2 genmove b\n3 genmove w\n4 version\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(script)))
    assert main(["gtp", "--evaluator", "playouts", "--playouts-per-move", "300", "--size", "9"]) == 0
    out = capsys.readouterr().out
    answers = [block.partition(" ")[2] for block in out.strip().split("\n\n")]
    board = Board(9)
    for color, vertex in zip((BLACK, WHITE), answers[1:3]):
        point = from_gtp(vertex, 9)
        assert point is not None and board.is_legal(color, point)
        board.play(color, point)
    assert "native-uct" in answers[3] and "fpu=1" in answers[3]


def test_gtp_playouts_search_a_handicap_game_with_the_rules_handicap_bonus(monkeypatch, capsys):
    # Chinese rules give White one point a handicap stone (GNU Go's final_score, the match referee, counts so);
    # the playout player searched at the bare komi and lost such games by 1.5 that it counted as won by 0.5
    from tengen.cli import main
    from tengen.search import native_uct

    seen = []

    def genmove(self, board, playouts=None, seconds=None, komi=None):
        seen.append((board.rules.komi, komi))
        return None

    monkeypatch.setattr(native_uct.NativeUct, "genmove", genmove)
    script = b"1 boardsize 9\n2 komi 0.5\n3 set_free_handicap C3 G7\n4 genmove w\n5 clear_board\n6 genmove b\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(script)))
    assert main(["gtp", "--evaluator", "playouts", "--playouts-per-move", "50", "--size", "9"]) == 0
    assert seen == [(2.5, 2.5), (0.5, 0.5)]


def test_gtp_native_flags_are_checked(capsys):
    from tengen.cli import main

    assert main(["gtp", "--evaluator", "playouts", "--playouts", "8"]) == 2
    assert main(["gtp", "--evaluator", "playouts", "--fpu-reduction", "0.1"]) == 2
    assert main(["gtp", "--evaluator", "playouts", "--playouts-per-move", "0"]) == 2
    assert main(["gtp", "--evaluator", "playouts", "--prior-depth", "1"]) == 2  # needs --prior pbn
    assert main(["gtp", "--evaluator", "playouts", "--prior", "pbn", "--prior-depth", "-2"]) == 2


def test_gtp_native_limits_are_refused_at_startup_in_one_line(capsys):
    from tengen.cli import main
    from tengen.commands import gtp_cmd
    from tengen.search import native_uct

    from tengen.io import gtp_uct_player

    assert (gtp_cmd.NATIVE_MAX_THREADS, gtp_cmd.NATIVE_MAX_PLAYOUTS) == (native_uct.MAX_THREADS, native_uct.MAX_PLAYOUTS)
    assert gtp_cmd.NATIVE_DYNAMIC_KOMI == gtp_uct_player.NATIVE_DYNAMIC_KOMI
    assert (gtp_cmd.NATIVE_KNOWLEDGE, gtp_cmd.NATIVE_KNOWLEDGE_DEFAULT) == (native_uct.KNOWLEDGE,
                                                                          native_uct.KNOWLEDGE_DEFAULT)
    for flags, said in ((["--playouts-per-move", str(10**20)], "--playouts-per-move must be 1..16777216"),
                        (["--expand-threshold", "99999999999"], "--expand-threshold must be 0..2147483647"),
                        (["--threads", "17"], "--threads must be 1..16"),
                        (["--size", "25"], "--size must be 2..19"),
                        (["--prior", "pbn", "--prior-depth", "99999999999"], "--prior-depth must be -1..")):
        assert main(["gtp", "--evaluator", "playouts", *flags]) == 2, flags
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and said in err[0], (flags, err)
    import argparse

    parser = argparse.ArgumentParser()
    gtp_cmd.add_arguments(parser)
    assert "at most 16: each thread reserves a tree of about 128 MB" in " ".join(parser.format_help().split())
    with pytest.raises(ValueError, match="threads must be 1..16"):
        UctConfig(threads=17)
    with pytest.raises(ValueError):
        UctConfig(playouts=native_uct.MAX_PLAYOUTS + 1)
    with pytest.raises(ValueError):
        UctConfig(expand_threshold=native_uct.C_INT_MAX + 1)


def test_gtp_playouts_refuses_boards_the_native_engine_does_not_play(monkeypatch, capsys, tmp_path):
    from tengen.cli import main

    big = tmp_path / "big.sgf"
    big.write_text("(;GM[1]FF[4]SZ[25]KM[7.5];B[aa])")
    script = (f"1 boardsize 25\n2 boardsize 20\n3 boardsize 9\n4 genmove b\n5 loadsgf {big}\n6 genmove w\n"
              "7 final_score\n8 boardsize 19\n").encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(script)))
    assert main(["gtp", "--evaluator", "playouts", "--playouts-per-move", "50"]) == 0
    answers = capsys.readouterr().out.strip().split("\n\n")
    assert answers[:3] == ["?1 unacceptable size", "?2 unacceptable size", "=3"]
    assert answers[3].startswith("=4 ") and answers[4] == "=5 white"
    assert answers[5:7] == ["?6 the playout engine plays boards up to 19x19", "?7 the playout engine plays boards up to 19x19"]
    assert answers[7] == "=8"


def test_gtp_prior_depth_reaches_the_native_config():
    import argparse

    from tengen.commands import gtp_cmd

    parser = argparse.ArgumentParser()
    gtp_cmd.add_arguments(parser)
    args = parser.parse_args(["--evaluator", "playouts", "--prior", "pbn", "--prior-depth", "0"])
    assert gtp_cmd._uct_player(args).config.prior_depth == 0
    args = parser.parse_args(["--evaluator", "playouts"])
    assert gtp_cmd._uct_player(args).config.prior_depth == UctConfig().prior_depth
    assert gtp_cmd._uct_player(args).config.prior_decay == 0
    args = parser.parse_args(["--evaluator", "playouts", "--prior", "pbn", "--prior-decay", "5"])
    assert gtp_cmd._uct_player(args).config.prior_decay == 5


# Black with four handicap stones on 9x9 and komi 0.5: every move looks won at the game's komi
HANDICAP_4 = """
    . . . . . . . . .
    . . . . . . . . .
    . . X . . . X . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . X . . . X . .
    . . . . . . . . .
    . . . . . . . . ."""


def test_value_situational_komi_steps_while_the_win_rate_leaves_its_interval():
    from tengen.io.gtp_uct_player import UctPlayer
    from tengen.search.dynamic_komi import WIN_INTERVAL

    board = board_from_diagram(HANDICAP_4, rules=Rules.chinese(komi=0.5))
    player = UctPlayer(UctConfig(playouts=600, seed=3), dynamic_komi="vs")
    komis, winrates = [], []
    for _ in range(3):  # Black searches the same position again: only the komi moves
        komis.append(player.search_komi(board, BLACK))
        player.genmove(board, BLACK)
        result = player.search.last
        assert result.komi == komis[-1] and result.to_play == BLACK
        winrates.append(result.winrate)
    lower, upper = WIN_INTERVAL
    assert komis[0] == 0.5 and winrates[0] > upper  # four stones on 9x9 win nearly every playout at komi 0.5
    for before, after, winrate in zip(komis, komis[1:], winrates):
        assert after == before + (1 if winrate > upper else -1 if winrate < lower else 0)
    assert komis[1] == 1.5 and player.search.last.reused == 0  # a komi that moved grows a new tree
    assert player.search_komi(board, WHITE) == 0.5  # White's komi has its own state


def test_value_situational_komi_only_ever_moves_against_the_player():
    """White far behind at the game's komi: VS would lower White's komi each move (easier for it); the komi stays
    at the game's, so White's search sees its real chances and resigns; under a komi moved against the player
    (a lead made harder) it does not resign."""
    from tengen.io.gtp_uct_player import UctPlayer

    board = board_from_diagram(HANDICAP_4, rules=Rules.chinese(komi=0.5))
    player = UctPlayer(UctConfig(playouts=300, seed=4), dynamic_komi="vs", resign_threshold=0.4, resign_consecutive=1)
    assert player.genmove(board, WHITE) == "resign"  # its win rate at the game's komi is below 0.4
    assert player.search.last.komi == 0.5 and player.search_komi(board, WHITE) == 0.5  # VS's step down is refused
    player._komi_state[WHITE] = (-3.5, player.search.last)  # a komi moved against White (White far ahead, say)
    move = player.genmove(board, WHITE)
    assert player.search.last.komi == -2.5 and move != "resign"  # VS steps back towards the game's komi


def test_gtp_playouts_takes_vs_dynamic_komi_and_refuses_the_network_methods(monkeypatch, capsys):
    from tengen.cli import main

    for method in ("ss", "mldk"):
        assert main(["gtp", "--evaluator", "playouts", "--dynamic-komi", method]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "with --evaluator playouts use none or vs" in err[0]
    script = b"1 boardsize 9\n2 version\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(script)))
    assert main(["gtp", "--evaluator", "playouts", "--dynamic-komi", "vs", "--size", "9"]) == 0
    assert "dynamic-komi=vs" in capsys.readouterr().out
    from tengen.io.gtp_uct_player import UctPlayer

    with pytest.raises(ValueError, match="ss and mldk need the network"):
        UctPlayer(UctConfig(), dynamic_komi="ss")
