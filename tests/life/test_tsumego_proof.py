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


def _corner_problem(rows: list[str]):
    """A 19x19 board holding `rows` in its top-left corner, Black to play."""
    from tengen.go.diagram import board_from_diagram

    board = board_from_diagram("\n".join(r.ljust(19, ".") for r in rows + ["." * 19] * (19 - len(rows))))
    board.to_play = 1
    return board


# Cho Chikun, Life and Death, elementary problem 274 (sanderland 1a): White's four stones at the top are in
# atari at D19, but capturing them there lets the corner live (C19 makes two eyes); B C19 kills all of White
PROBLEM_274 = ["O...OX",
               ".OOXOX",
               "OOXOOX",
               "XXXXX."]

# Cho Chikun, Life and Death, elementary problem 587 (sanderland 1a): the listed answer E18 and D18 both give
# a ko, which the komaster model cannot tell apart
PROBLEM_587 = ["..XO.OX",
               "X....OX",
               "OOOOOXX",
               "XXXXX.."]


def test_the_target_is_every_defender_stone_in_the_region_not_the_largest_chain():
    from tengen.life.tsumego_proof import problem_group

    board = _corner_problem(PROBLEM_274)
    main, region, group = problem_group(board, (0, 4))
    assert set(group) == {(0, 0), (1, 1), (1, 2), (2, 0), (2, 1), (0, 4), (1, 4), (2, 3), (2, 4)}
    assert main == (1, 1) and set(group) <= set(region)  # the corner's chain (3 liberties), not the one in atari
    answer = solve_problem(board)
    assert (answer.method, answer.proved, answer.status, answer.move) == ("proof", True, "dead", (0, 2))
    assert answer.line[:3] == ((0, 2), (0, 3), (1, 3))  # White connects, Black takes five stones
    # capturing the four stones in atari does not kill: the corner lives, so D19 is not proved
    after_capture, _ = check_move(board, (1, 1), (0, 3))
    assert after_capture is None


def test_a_proved_move_reaching_the_listed_answers_result_is_counted_apart():
    from tengen.life.tsumego_proof import same_result

    board = _corner_problem(PROBLEM_587)
    answer = solve_problem(board)
    assert answer.method == "proof" and answer.proved and answer.status == "ko"
    assert answer.move == (1, 3)  # D18, not the listed E18
    assert same_result(board, answer, {(1, 4)}) == (1, 4)  # E18 proved to give a ko too
    assert same_result(board, answer, {(0, 0)}) is None  # A19 proves no ko
    right = solve_problem(_corner_problem(PROBLEM_274))
    assert same_result(_corner_problem(PROBLEM_274), right, {(0, 2)}) is None  # the listed move itself: nothing apart


# White's top-edge group whose region runs out onto the open board through the gap at G11 (45 points): the
# proof on the points within two steps of it decides, and holds on the whole region
OPEN_EDGE = ("(;GM[1]FF[4]SZ[13]AW[ab][bb][cb][db][eb][fb][fc]AB[ha][hb][ac][bc][cc][dc][ec][ed][fd]PL[W]"
             "C[White to live]\n(;W[ba]C[Correct.]))")


def test_the_solve_command_says_where_a_near_proof_was_made(tmp_path, capsys):
    from tengen.cli import main

    path = tmp_path / "open_edge.sgf"
    path.write_text(OPEN_EDGE)
    assert main(["solve", str(path), "--evaluator", "classic"]) == 0
    out = capsys.readouterr().out
    assert "within 2 steps of the group, the rest taken as the attacker's" in out
    assert "answer: proved (by the df-pn proof search)" in out and "key move: B13" in out
    assert main(["solve", str(path), "--evaluator", "classic", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["proved"], data["proof_reach"], data["move"]) == (True, 2, "B13")
