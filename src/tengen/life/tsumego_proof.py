"""Solving a problem by proof: the df-pn search (`tengen.life.proof`) on the group at stake. With the
network, its key move is checked by proof (proved, or judged as before); without it, a proof from the
position answers where it proves the side to move's goal, the classic search otherwise (a judgement). A
proof on the defender's group is tried first on the points near it (`tengen.life.proof.prove_near`: a proof
there that holds on the whole region, which a problem's box usually makes far larger than the fight), then on
the whole region.

A tsumego's target is the defender's stones the problem is about: every stone of the defender's colour in
the problem's region (`problem_group`: the region, `tengen.life.proof.default_region`, grown from a
stone of it), not the one chain or dragon that stone belongs to. The defender loses only when none of
them is left, and lives where any of their chains is pass-alive or escapes: a kill must take the whole
group, so capturing a part of it that the rest can do without (a cutting stone, a chain given up for two
eyes) is no kill (Cho Chikun's elementary problem 274: capturing White's four stones in atari lets the
corner live; the largest chain alone as the target proved that capture a kill).

The stones tried without a network: the defender's largest chain in the problem's box (the defender: the
side `tengen.life.frame.guess_attacker` does not name), then the attacker's largest (the guess reversed),
each standing for its colour's stones in its region. The first for which the side to move's goal (kill or
live) is proved, unconditionally or by a ko, with a move, answers (an answer resting on an escape from the
region is no proof, and does not).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional

from tengen.go.board import Board
from tengen.go.coords import Point
from tengen.life.frame import guess_attacker, problem_box
from tengen.life.prior import move_costs
from tengen.life.proof import DEFAULT_NODES, ProofResult, default_region, main_stone, prove_near_first
from tengen.life.search import LifeConfig
from tengen.life.tsumego import TsumegoAnswer, TsumegoConfig, solve_with_network, solve_with_search


@dataclass(frozen=True)
class ProofConfig:
    """The proof search's budget for one problem (counts; `seconds` an optional cap)."""

    max_nodes: int = DEFAULT_NODES  # per df-pn search (a prove() runs two to four)
    seconds: Optional[float] = None
    defender_chains: int = 1  # the defender's largest chains tried, each for its colour's stones in its region
    attacker_chains: int = 1  # then the attacker's
    framed: bool = False  # the points outside the region taken as the attacker's (a proof of the framed problem)
    # with a network: its policy after the key move orders the proof's moves (`tengen.life.prior`); off by
    # default: measured no more proofs and more nodes (docs/BENCHMARKS.md, the df-pn section)
    policy_order: bool = False

    def __post_init__(self) -> None:
        if self.max_nodes < 1:
            raise ValueError("max_nodes must be at least 1")
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError("seconds must be positive")


def solve_problem(board: Board, evaluator=None, config: TsumegoConfig = TsumegoConfig(),
                  proof: ProofConfig = ProofConfig(), life: LifeConfig = LifeConfig()) -> TsumegoAnswer:
    """The problem's answer, proved where the df-pn search can. With an evaluator: the network mode's
    answer, its key move checked by proof (proved: `proved` True, the proof's line after it; else judged
    as before: the proof never replaces the network's move, measured less often accepted). Without one: a
    proof from the position (method `proof`), else the classic search's answer. `nodes` counts all."""
    if evaluator is not None:
        answer = solve_with_network(board, evaluator, config)
        if answer.target is None or answer.move is None:
            return answer
        checked, nodes = check_move(board, answer.target, answer.move, proof, evaluator)
        if checked is None:
            return replace(answer, nodes=answer.nodes + nodes)
        return replace(answer, status=checked.status, proved=True, line=(answer.move, *checked.line),
                       nodes=answer.nodes + nodes, method="proof", proof_reach=checked.reach)
    answer, nodes = prove_problem(board, at_stake(board, proof), proof)
    if answer is not None:
        return answer
    fallback = solve_with_search(board, life)
    return replace(fallback, nodes=fallback.nodes + nodes)


def check_move(board: Board, target: Point, move: Point, proof: ProofConfig = ProofConfig(), evaluator=None
               ) -> tuple[Optional[ProofResult], int]:
    """The proof, with the opponent to move after `move`, that the side to move reaches its goal on the
    target's group by it (kill: the attack holds, unconditionally or by a ko; live: the defence holds),
    or None; and the nodes searched. With an evaluator (and `proof.policy_order`), its policy after the move
    orders the search."""
    mover = board.to_play
    after = board.copy()
    try:
        after.play(mover, move)
    except Exception:  # an illegal key move proves nothing
        return None, 0
    if after.get(target) != board.get(target):
        return (None, 0) if board.get(target) == mover else (_captured(board, mover), 0)
    try:
        main, region, group = problem_group(after, target)
        near = not proof.framed and after.get(main) != _guessed_attacker(board)
        costs = move_costs(after, evaluator) if evaluator is not None and proof.policy_order else None
        result = prove_near_first(after, main, region, -mover, mover, proof.max_nodes, proof.seconds, near,
                                  group=group, framed=proof.framed, costs=costs)
    except ValueError:
        return None, 0
    killing = board.get(target) != mover
    holds = result.status in (("dead", "ko") if killing else ("alive", "seki", "ko"))
    return (result if result.proved and holds else None), result.nodes


def problem_group(board: Board, target: Point) -> tuple[Point, list[Point], list[Point]]:
    """The target's region (`default_region`), every stone of the target's colour in it (the group a
    tsumego is about, see the module doc) and a stone of its chain with the most liberties (then the
    largest) to name it by: the search orders its moves near that chain, and started from a chain in
    atari it did not finish Cho's problem 274 in 30,000 nodes where it proves it in 1,091 from the main
    chain. ValueError where the region is past the search's limit."""
    region = default_region(board, target)
    color = board.get(target)
    group = [p for p in region if board.get(p) == color]
    return main_stone(board, group), region, group


def _captured(board: Board, mover: int) -> ProofResult:
    """The key move captured the target: dead, by the rules."""
    return ProofResult("dead", True, -mover, mover, 1, None, (), 0)


def at_stake(board: Board, proof: ProofConfig = ProofConfig()) -> list[Point]:
    """Stones of the chains tried as the group at stake without a network (see the module doc)."""
    try:
        box = problem_box(board)
    except ValueError:
        return []
    attacker = guess_attacker(board, box)
    chains = {color: sorted((c for c in board.chains(color) if c[0] in box), key=lambda c: (-len(c), c[0]))
              for color in (attacker, -attacker)}
    return ([c[0] for c in chains[-attacker][: proof.defender_chains]]
            + [c[0] for c in chains[attacker][: proof.attacker_chains]])


def prove_problem(board: Board, targets: list[Point], proof: ProofConfig = ProofConfig()
                  ) -> tuple[Optional[TsumegoAnswer], int]:
    """The first target whose proof proves the side to move's goal with a move, as an answer (None: none
    did), and the nodes searched."""
    nodes, tried = 0, set()
    mover = board.to_play
    attacker = _guessed_attacker(board)
    for target in targets:
        try:
            target, region, group = problem_group(board, target)
        except ValueError:  # a region past the search's limit: no proof for this one
            continue
        key = (frozenset(region), frozenset(group))
        if key in tried:
            continue
        tried.add(key)
        try:
            near = not proof.framed and board.get(target) != attacker  # only the guessed defender's group
            result = prove_near_first(board, target, region, mover, None, proof.max_nodes, proof.seconds, near,
                                      group=group, framed=proof.framed)
        except ValueError:
            continue
        nodes += result.nodes
        if result.proved and result.code in (1, 2) and result.move is not None:
            return answer_from_proof(board, target, result, nodes), nodes
    return None, nodes


def _guessed_attacker(board: Board) -> Optional[int]:
    """The frame's guess of the attacker (`guess_attacker` over the problem's box), or None without a box. A
    proof near a group is tried only for the other side's: near the attacker's own group (the fallback
    target, usually open to the board) it proves a life no tsumego asks about."""
    try:
        return guess_attacker(board, problem_box(board))
    except ValueError:
        return None


def answer_from_proof(board: Board, target: Point, result: ProofResult, nodes: int) -> TsumegoAnswer:
    """A proof's result as `tengen solve`'s answer (method `proof`; proved as the result says)."""
    return TsumegoAnswer(result.move, target, board.get(target), result.status, result.proved, result.line, nodes,
                         attacker=result.attacker, mover=board.to_play, method="proof", proof_reach=result.reach)


def same_result(board: Board, answer: TsumegoAnswer, moves, proof: ProofConfig = ProofConfig()) -> Optional[Point]:
    """One of `moves` (a collection's listed first moves) proved to reach the same status on the proved
    answer's group as the answer's own move (kill: dead, or ko; live: alive, seki, or ko; the status itself
    compared, not who must win a ko), or None: where a proved first move is not the listed one, whether it
    is a second solution by the proof's model (komaster kos cannot tell two kos apart, Cho's elementary
    problem 587) or a disagreement. None too where the answer is not proved by df-pn."""
    if not answer.proved or answer.method != "proof" or answer.target is None:
        return None
    for move in sorted(set(moves) - {answer.move}):
        checked, _ = check_move(board, answer.target, move, proof)
        if checked is not None and checked.status == answer.status:
            return move
    return None
