"""`tengen solve` by proof (`tengen.life.tsumego_proof`): the df-pn search answers `proved` where it proves
the side to move's goal (without a network), or checks the network's key move; a judgement otherwise."""
from __future__ import annotations

import json

from tengen.go.colors import WHITE
from tengen.io.tsumego_files import load_sgf_problem, sanderland_problem
from tengen.life.tsumego_proof import ProofConfig, at_stake, check_move, solve_problem

from standin_networks import LibertyNetwork

# Cho Chikun, Life and Death, elementary problem 1 (sanderland's JSON): Black kills with B19 (open to the
# centre: the proof does not finish it in the default budget)
CHO_ELEMENTARY_1 = {"AB": ["eb", "fb", "bc", "cc", "dc", "be"], "AW": ["da", "ab", "bb", "cb", "db"], "SZ": "19",
                    "C": "Black to play: Elementary", "SOL": [["B", "ba", "Correct.", ""]]}

# White's straight three in the corner (A9-C9) inside Black's wall: B9 lives for White and kills for Black
STRAIGHT_THREE = "(;GM[1]FF[4]SZ[9]AW[da][ab][bb][cb][db]AB[ea][eb][ac][bc][cc][dc][ec]PL[{}]C[{}]\n(;{}[ba]C[Correct.]))"


def _problem(tmp_path, to_play: str):
    path = tmp_path / f"three_{to_play}.sgf"
    path.write_text(STRAIGHT_THREE.format(to_play, "problem", to_play))
    return load_sgf_problem(path), path


def test_the_proof_answers_an_enclosed_problem_for_either_side(tmp_path):
    for to_play, status, goal in (("B", "dead", "kill"), ("W", "alive", "live")):
        problem, _ = _problem(tmp_path, to_play)
        answer = solve_problem(problem.board)
        assert (answer.method, answer.proved, answer.status, answer.goal) == ("proof", True, status, goal)
        assert answer.move == (0, 1) and answer.move in problem.accepted and answer.line[0] == answer.move
        assert answer.target_color == WHITE and answer.nodes > 0


def test_an_open_problem_past_the_budget_falls_back_to_the_classic_search():
    problem = sanderland_problem(CHO_ELEMENTARY_1)
    answer = solve_problem(problem.board, proof=ProofConfig(max_nodes=2000))
    assert answer.method == "search" and answer.move in problem.accepted


def test_the_group_at_stake_is_the_defenders_largest_chain_first():
    board = sanderland_problem(CHO_ELEMENTARY_1).board
    first = at_stake(board)[0]
    assert board.get(first) == WHITE and len(board.chain(first)) == 5


def test_a_right_key_move_is_checked_and_a_wrong_one_is_not(tmp_path):
    board = _problem(tmp_path, "B")[0].board
    right, nodes = check_move(board, (0, 3), (0, 1))
    assert right is not None and right.status == "dead" and right.proved and nodes > 0
    wrong, _ = check_move(board, (0, 3), (0, 0))  # the corner: White lives at B9
    assert wrong is None


def test_a_budget_too_small_falls_back_to_a_judgement(tmp_path):
    answer = solve_problem(_problem(tmp_path, "B")[0].board, proof=ProofConfig(max_nodes=1))
    assert answer.method == "search"  # the classic search answered


def test_with_a_network_its_move_is_kept_and_checked(tmp_path):
    from tengen.life.tsumego import solve_with_network

    board = _problem(tmp_path, "B")[0].board
    judged = solve_with_network(board, LibertyNetwork())
    answer = solve_problem(board, LibertyNetwork())
    assert answer.move == judged.move and answer.target == judged.target
    if answer.method == "proof":  # checked: the proof's line follows the network's move
        assert answer.proved and answer.status == "dead" and answer.line[0] == judged.move
    else:
        assert answer.method == "network" and answer.proved == judged.proved


def test_the_solve_command_says_proved_or_judged(tmp_path, capsys):
    from tengen.cli import main

    _, path = _problem(tmp_path, "B")
    assert main(["solve", str(path), "--evaluator", "classic"]) == 0
    out = capsys.readouterr().out
    assert "answer: proved (by the df-pn proof search)" in out and "key move: B9" in out and "(matches)" in out
    assert main(["solve", str(path), "--evaluator", "classic", "--proof-nodes", "0", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["answered_by"] == "search" and data["move"] == "B9"
    assert main(["solve", str(path), "--evaluator", "classic", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["answered_by"] == "proof" and data["proved"] is True
