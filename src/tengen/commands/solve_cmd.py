"""`tengen solve PROBLEM`: a life-and-death problem's key move, the group at stake and its status after
best play, with the principal line; PROBLEM is an SGF problem (its solution tree, where it has one, is
compared with the answer) or a sanderland/tsumego JSON file."""
from __future__ import annotations

import argparse
import json

from tengen.commands.base import CliError, command

DEFAULT_PROOF_NODES = 100_000  # df-pn nodes per search (`tengen.life.proof`); a problem runs a few searches


ABOUT = ("a life-and-death problem (an SGF problem, or a sanderland/tsumego JSON file): the key move for the side "
         "to move, the group at stake and its status after best play, the principal line, the positions "
         "evaluated, and whether the answer is among the file's accepted first moves. The df-pn proof search "
         "(`--proof-nodes`) is tried first on the group at stake and answers `proved` where it proves the side "
         "to move's goal; otherwise the network reads the problem's box two plies deep (`--frame` fills the rest "
         "of the board first; proved where the rules decide the line's end: captured or pass-alive, else judged "
         "by its ownership, and said so); `--evaluator classic` uses tengen's search without a network. "
         "`python bench/tsumego.py` measures it")


@command("solve", "solve a life-and-death problem (SGF or sanderland JSON): key move, status, line", about=ABOUT)
def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("problem", help="the problem: an .sgf file (setup stones, PL or the first variation's "
                                        "colour to move) or a sanderland/tsumego .json file")
    parser.add_argument("--evaluator", choices=("katago", "classic"), default="katago",
                        help="katago (default): the network reads the problem two plies deep; classic: "
                             "tengen's life-and-death search without a network")
    parser.add_argument("--model", default=None, help="KataGo network file (default: the cached katrain network)")
    parser.add_argument("--depth", type=int, choices=(1, 2), default=2, help="plies the network mode reads")
    parser.add_argument("--frame", action="store_true",
                        help="fill the board outside the problem with settled stones first (a tsumego frame; "
                             "off by default: it read fewer sanderland problems right)")
    parser.add_argument("--nodes", type=int, default=3000, help="classic search budget per search (nodes)")
    parser.add_argument("--proof-nodes", type=int, default=DEFAULT_PROOF_NODES,
                        help="the df-pn proof search's budget per search, tried first in both modes (0: off)")
    parser.add_argument("--json", action="store_true", help="print the answer as one JSON object")


@add_arguments.handler
def run(args: argparse.Namespace) -> int:
    from tengen.go.coords import to_gtp
    from tengen.life.search import LifeConfig
    from tengen.life.tsumego import TsumegoConfig, solve_with_network, solve_with_search
    from tengen.life.tsumego_proof import ProofConfig, solve_problem

    problem = _load(args.problem)
    board = problem.board
    if args.nodes < 1:
        raise CliError("--nodes must be at least 1")
    if args.proof_nodes < 0:
        raise CliError("--proof-nodes must be at least 0")
    if not any(board.get((r, c)) for r in range(board.height) for c in range(board.width)):
        raise CliError(f"{args.problem}: the problem has no stones")
    proof = ProofConfig(max_nodes=args.proof_nodes) if args.proof_nodes else None
    life = LifeConfig(max_nodes=args.nodes)
    if args.evaluator == "classic":
        answer = solve_problem(board, None, proof=proof, life=life) if proof else solve_with_search(board, life)
        how = f"tengen's life-and-death search without a network, {args.nodes} nodes per search"
    else:
        from tengen.api.evaluators import make_evaluator

        config = TsumegoConfig(depth=args.depth, frame=args.frame)
        evaluator = make_evaluator("katago", model=args.model)
        answer = (solve_problem(board, evaluator, config, proof=proof) if proof
                  else solve_with_network(board, evaluator, config))
        how = (f"KataGo's policy and ownership, {config.depth} plies, {config.candidates} candidate moves, "
               f"{'the board outside the problem framed' if config.frame else 'no frame'}, margin {config.margin}")
    if proof:
        how = f"df-pn proof search first ({args.proof_nodes} nodes per search), then {how}"

    def vertex(point) -> str:
        return "pass" if point is None else to_gtp(point, board.height)

    side = {1: "Black", -1: "White"}
    matches = None if not problem.accepted else answer.move in problem.accepted
    if args.json:
        print(json.dumps({
            "problem": problem.name, "to_play": side[board.to_play], "move": vertex(answer.move),
            "target": None if answer.target is None else vertex(answer.target),
            "goal": answer.goal if answer.target is not None else None, "status": answer.status,
            "proved": answer.proved, "answered_by": answer.method, "line": [vertex(m) for m in answer.line],
            "nodes": answer.nodes, "proof_reach": answer.proof_reach,
            "accepted": sorted(vertex(p) for p in problem.accepted), "matches_solution": matches,
            "settings": how, "rules": _rules_text(board)}))
        return 0
    print(f"problem: {problem.name} ({side[board.to_play]} to play)")
    print(f"assumed: {_rules_text(board)}; read by {how}")
    print(f"key move: {vertex(answer.move)}")
    if answer.target is not None:
        whose = side[answer.target_color]
        print(f"at stake: the {whose} group at {vertex(answer.target)} ({side[board.to_play]} to {answer.goal})")
        print(f"status after best play: {answer.status} ({_basis(answer)})")
    colours = [side[board.to_play if i % 2 == 0 else -board.to_play][0] for i in range(len(answer.line))]
    print("line: " + " ".join(f"{c} {vertex(m)}" for c, m in zip(colours, answer.line)))
    proved = answer.proved and answer.method != "search"  # the classic search reads a bounded tree: a judgement
    print(f"answer: {'proved' if proved else 'judged'} (by {_METHODS[answer.method]})")
    print(f"positions evaluated: {answer.nodes}")
    if matches is not None:
        accepted = " ".join(sorted(vertex(p) for p in problem.accepted))
        print(f"the problem's solution: {accepted} ({'matches' if matches else 'differs'})")
    return 0


_METHODS = {"proof": "the df-pn proof search", "network": "the network", "search": "tengen's search"}


def _basis(answer) -> str:
    """How the status is known, in words."""
    if answer.method == "proof" and answer.proved and answer.proof_reach is not None:
        rest = "the attacker's" if answer.goal == "live" else "the defender's way out"
        return (f"proved by the df-pn search over the points within {answer.proof_reach} steps of the group, the "
                f"rest taken as {rest}: a proof that holds on the problem's whole region")
    if answer.method == "proof":
        return "proved by the df-pn search over the problem's region" if answer.proved else "judged, not proved"
    if answer.method == "search":
        return "by tengen's search without a network"
    return "proved by the rules" if answer.proved else "judged by the network, not proved"


def _rules_text(board) -> str:
    """The rules the answer assumes, as the problem file gives them (sanderland's JSON: Chinese, komi 0)."""
    rules = board.rules
    return f"{rules.name} rules ({rules.scoring} scoring), komi {rules.komi:g}"


def _load(path: str):
    """The problem in the file (an SGF problem or a sanderland JSON); a one-line error otherwise."""
    from tengen.io.tsumego_files import load_problem

    return load_problem(path)
