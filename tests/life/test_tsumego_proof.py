"""`tengen solve` by proof first (`tengen.life.tsumego_proof`): the df-pn search answers `proved` where it
proves the side to move's goal, the network's (or the classic search's) answer otherwise, labelled judged."""
from __future__ import annotations

import json

from tengen.go.colors import WHITE
from tengen.io.tsumego_files import sanderland_problem
from tengen.life.tsumego_proof import ProofConfig, at_stake, check_move, solve_problem

from standin_networks import LibertyNetwork

# Cho Chikun, Life and Death, elementary problem 1 (sanderland's JSON): Black kills with B19
CHO_ELEMENTARY_1 = {"AB": ["eb", "fb", "bc", "cc", "dc", "be"], "AW": ["da", "ab", "bb", "cb", "db"], "SZ": "19",
                    "C": "Black to play: Elementary", "SOL": [["B", "ba", "Correct.", ""]]}


def test_the_proof_answers_cho_elementary_one_without_a_network():
    problem = sanderland_problem(CHO_ELEMENTARY_1)
    answer = solve_problem(problem.board)
    assert (answer.method, answer.proved, answer.status, answer.goal) == ("proof", True, "dead", "kill")
    assert answer.move in problem.accepted and answer.line[0] == answer.move
    assert answer.target_color == WHITE and answer.nodes > 0


def test_the_group_at_stake_is_the_defenders_largest_chain_first():
    board = sanderland_problem(CHO_ELEMENTARY_1).board
    first = at_stake(board)[0]
    assert board.get(first) == WHITE and len(board.chain(first)) == 5


def test_a_right_key_move_is_checked_and_a_wrong_one_is_not():
    board = sanderland_problem(CHO_ELEMENTARY_1).board
    right, nodes = check_move(board, (0, 3), (0, 1))
    assert right is not None and right.status == "dead" and right.proved and nodes > 0
    wrong, _ = check_move(board, (0, 3), (5, 5))  # far away: White lives
    assert wrong is None


def test_a_budget_too_small_falls_back_to_a_judgement():
    problem = sanderland_problem(CHO_ELEMENTARY_1)
    answer = solve_problem(problem.board, proof=ProofConfig(max_nodes=5))
    assert answer.method == "search"  # the classic search answered


def test_with_a_network_the_answer_is_the_networks_move_proved_or_the_proofs():
    problem = sanderland_problem(CHO_ELEMENTARY_1)
    answer = solve_problem(problem.board, LibertyNetwork())
    assert answer.method in ("network", "proof")
    if answer.proved:
        assert answer.status in ("dead", "ko")


def test_the_solve_command_says_proved_or_judged(tmp_path, capsys):
    from tengen.cli import main

    path = tmp_path / "cho1.json"
    path.write_text(json.dumps(CHO_ELEMENTARY_1))
    assert main(["solve", str(path), "--evaluator", "classic"]) == 0
    out = capsys.readouterr().out
    assert "answer: proved (by the df-pn proof search)" in out and "key move: B19" in out
    assert main(["solve", str(path), "--evaluator", "classic", "--proof-nodes", "0", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["answered_by"] == "search" and data["move"] == "B19"
    assert main(["solve", str(path), "--evaluator", "classic", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["answered_by"] == "proof" and data["proved"] is True
