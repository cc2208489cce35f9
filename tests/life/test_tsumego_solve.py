"""Solving life-and-death problems (`tengen.life.tsumego`, `tengen.life.frame`) and reading
problem files (`tengen.io.tsumego_files`), with the liberty stand-in network (a chain lives when, after the
opponent's next move, it would still have two liberties) and the classic search. Diagrams: X Black, O White."""
from __future__ import annotations

import json

import numpy as np
import pytest

from tengen.go.colors import BLACK, WHITE
from tengen.go.diagram import board_from_diagram
from tengen.io.tsumego_files import load_sgf_problem, sanderland_problem
from tengen.life.search import LifeConfig
from tengen.life.tsumego import TsumegoConfig, solve_with_network, solve_with_search
from tengen.life.frame import Box, framed, guess_attacker, problem_box

from standin_networks import LibertyNetwork

# Cho Chikun, Life and Death, elementary problem 1 (sanderland's JSON): Black kills with B19
CHO_ELEMENTARY_1 = {"AB": ["eb", "fb", "bc", "cc", "dc", "be"], "AW": ["da", "ab", "bb", "cb", "db"], "SZ": "19",
                    "C": "Black to play: Elementary", "SOL": [["B", "ba", "Correct.", ""]]}

# White's three stones on the top edge have two liberties (A8, B8): either atari kills, since the stone
# that extends into the other point still has one liberty
CORNER_CAPTURE = """
    O O O X . . . . .
    . . X X . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
"""


def test_the_box_reaches_the_edges_a_corner_problem_comes_near():
    problem = sanderland_problem(CHO_ELEMENTARY_1)
    box = problem_box(problem.board)
    assert (box.top, box.left) == (0, 0)  # the corner
    assert (box.bottom, box.right) == (5, 6)  # the stones' extent (rows 0-4, columns 0-5) plus one line


def test_the_attacker_is_the_side_that_surrounds():
    problem = sanderland_problem(CHO_ELEMENTARY_1)
    board = problem.board
    assert guess_attacker(board, problem_box(board)) == BLACK  # White's stones hug the top edge


def test_the_frame_keeps_the_problem_and_leaves_every_frame_chain_pass_alive():
    board = sanderland_problem(CHO_ELEMENTARY_1).board
    box = problem_box(board)
    out = framed(board, box, BLACK)
    inside = list(box.points())
    assert all(out.get(p) == board.get(p) for p in inside)
    assert out.to_play == board.to_play
    benson = out._native.benson()
    for r in range(out.height):
        for c in range(out.width):
            if (r, c) not in box and out.get((r, c)) != 0:
                assert benson[r * out.width + c] == (out.get((r, c)) & 0xFF), (r, c)
    assert out.get((box.bottom + 1, 0)) == BLACK  # the attacker's wall next to the problem


def test_a_board_without_room_for_a_frame_is_left_as_it_is():
    board = board_from_diagram(CORNER_CAPTURE)
    out = framed(board, Box(0, 8, 0, 8), WHITE)
    assert np.array_equal(out.array(), board.array())


def test_the_network_mode_finds_an_atari_that_kills():
    board = board_from_diagram(CORNER_CAPTURE)
    board.to_play = BLACK
    answer = solve_with_network(board, LibertyNetwork(), TsumegoConfig(frame=False))
    assert answer.move in {(1, 0), (1, 1)}  # A8 or B8
    assert answer.target_color == WHITE and answer.goal == "kill"
    assert answer.line[0] == answer.move
    assert answer.status == "dead"
    assert answer.nodes > 2


def test_depth_one_reads_fewer_positions_than_depth_two():
    board = board_from_diagram(CORNER_CAPTURE)
    board.to_play = BLACK
    one = solve_with_network(board, LibertyNetwork(), TsumegoConfig(depth=1, frame=False))
    two = solve_with_network(board, LibertyNetwork(), TsumegoConfig(depth=2, frame=False))
    assert one.nodes < two.nodes
    assert len(one.line) == 1 and len(two.line) == 2


def test_the_line_is_played_on_until_the_group_is_settled():
    from standin_networks import UniformNetwork  # no ownership: nothing is ever clear to it

    board = board_from_diagram(CORNER_CAPTURE)
    board.to_play = BLACK
    short = solve_with_network(board, UniformNetwork(), TsumegoConfig(extend=0))
    played_on = solve_with_network(board, UniformNetwork(), TsumegoConfig(extend=3))
    assert played_on.move == short.move and played_on.line[:2] == short.line
    assert len(played_on.line) == 5 and played_on.nodes == short.nodes + 3  # three more plies, one evaluation each
    assert short.status == "unsettled"
    assert played_on.status == "dead" and played_on.proved  # the line captures them: the rules say so


def test_the_classic_mode_solves_cho_elementary_one():
    problem = sanderland_problem(CHO_ELEMENTARY_1)
    answer = solve_with_search(problem.board, LifeConfig(max_nodes=3000))
    assert answer.move in problem.accepted
    assert answer.status == "dead" and answer.target_color == WHITE


def test_sanderland_json_gives_the_position_the_side_to_move_and_the_answers():
    problem = sanderland_problem(CHO_ELEMENTARY_1)
    assert problem.board.to_play == BLACK
    assert problem.accepted == frozenset({(0, 1)})
    assert problem.board.get((0, 3)) == WHITE and problem.board.get((1, 4)) == BLACK
    assert sanderland_problem({"AB": ["aa"], "SOL": []}) is None


SGF_PROBLEM = b"""(;GM[1]FF[4]SZ[9]AB[cc][dc][ec]AW[cb][db][eb]PL[W]C[White to play]
(;W[bb];B[ba]C[Wrong: dead.])
(;W[fb];B[gb];W[bb]C[Correct.])
(;W[ca];B[bb]))"""


def test_an_sgf_problem_accepts_the_first_moves_that_lead_to_a_correct_comment(tmp_path):
    path = tmp_path / "problem.sgf"
    path.write_bytes(SGF_PROBLEM)
    problem = load_sgf_problem(path)
    assert problem.board.to_play == WHITE
    assert problem.accepted == frozenset({(1, 5)})  # F8 only: the other lines say wrong or nothing
    assert problem.board.get((2, 2)) == BLACK


def test_the_solve_command_answers_a_problem_and_refuses_a_bad_file(tmp_path, capsys):
    from tengen.cli import main

    good = tmp_path / "cho1.json"
    good.write_text(json.dumps(CHO_ELEMENTARY_1))
    assert main(["solve", str(good), "--evaluator", "classic"]) == 0
    out = capsys.readouterr().out
    assert "key move: B19" in out and "(matches)" in out and "status after best play: dead" in out
    assert main(["solve", str(good), "--evaluator", "classic", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["move"] == "B19" and data["matches_solution"] is True and data["goal"] == "kill"
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["solve", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "not a problem file" in err and len(err.strip().splitlines()) == 1


# White's corner group has a straight three on the edge (A9-C9) inside Black's wall: White lives at B9
LIVE_IN_THE_CORNER = b"(;GM[1]FF[4]SZ[9]AW[da][ab][bb][cb][db]AB[ea][eb][ac][bc][cc][dc][ec]PL[W])"


def test_the_network_mode_answer_keeps_the_solver_and_the_candidates_apart():
    board = board_from_diagram(CORNER_CAPTURE)
    board.to_play = WHITE  # White to play: its own group is at stake
    answer = solve_with_network(board, LibertyNetwork(), TsumegoConfig(frame=False))
    assert answer.mover == WHITE and answer.target_color == WHITE and answer.goal == "live"
    assert len(answer.candidates) == TsumegoConfig().candidates
    assert all(isinstance(move, tuple) and isinstance(value, float) for move, value in answer.candidates)


def test_the_solve_command_says_to_live_in_both_modes_when_the_solver_owns_the_group(tmp_path, capsys, monkeypatch):
    import tengen.api.evaluators
    from tengen.cli import main

    monkeypatch.setattr(tengen.api.evaluators, "make_evaluator", lambda *args, **kwargs: LibertyNetwork())
    path = tmp_path / "live.sgf"
    path.write_bytes(LIVE_IN_THE_CORNER)
    for mode in ("classic", "katago"):
        assert main(["solve", str(path), "--evaluator", mode]) == 0
        assert "at stake: the White group at D9 (White to live)" in capsys.readouterr().out, mode
    assert main(["solve", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["goal"] == "live"


def _solve_error(args: list[str], capsys) -> str:
    """The one line `tengen solve` says on stderr for a refused problem file (exit 2)."""
    from tengen.cli import main

    assert main(["solve", *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("tengen: error: "), err
    return err[0]


def test_the_solve_command_refuses_hostile_problem_files_in_one_line(tmp_path, capsys):
    import os

    from tengen.io.tsumego_files import MAX_PROBLEM_BYTES

    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    assert "JSON nested too deep" in _solve_error([str(deep)], capsys)
    long = tmp_path / "long.json"  # a real problem behind whitespace past the bound: refused unread
    long.write_text(" " * MAX_PROBLEM_BYTES + json.dumps(CHO_ELEMENTARY_1))
    assert "more than a problem file may have" in _solve_error([str(long), "--evaluator", "classic"], capsys)
    fifo = tmp_path / "problem.json"
    os.mkfifo(fifo)
    assert "not a regular file" in _solve_error([str(fifo)], capsys)
    zero = tmp_path / "zero.json"
    zero.symlink_to("/dev/zero")
    assert "not a regular file" in _solve_error([str(zero)], capsys)
    assert "not a regular file" in _solve_error(["/dev/zero"], capsys)  # read as SGF: the same refusal
    sgf_fifo = tmp_path / "problem.sgf"
    os.mkfifo(sgf_fifo)
    assert "not a regular file" in _solve_error([str(sgf_fifo)], capsys)
    assert "no such file" in _solve_error([str(tmp_path / "absent.json")], capsys)
    odd = tmp_path / "odd.json"
    odd.write_text(json.dumps({**CHO_ELEMENTARY_1, "SZ": 1e400}))
    assert "not a problem file" in _solve_error([str(odd)], capsys)
