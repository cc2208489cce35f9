"""A group's life and death judged by the network, one move deep: the status the network's ownership gives
with each side to move, and the key moves found among the policy's candidates near the group, each checked
by the ownership after it. Judged, not proved (`LifeResult.nodes` counts network evaluations): the proof
search with the network at its horizon is what comes next (`tengen.life.search` proves without one).

The group is a dragon: the chain at the point and the chains of its colour that share a liberty with it,
transitively. Ownership is averaged over the dragon's stones from its owner's side (+1 alive). With the
attacker to move above `margin`: alive. With the defender to move below -`margin`: dead. Otherwise the
attacker's `candidates` likeliest moves near the dragon (within `REACH` points) are tried, the defender to
move after each, and the one that leaves the dragon's ownership lowest is the attack if it is below 0; the
defender's likewise (the attacker to move after, highest above 0). Both found: critical; only the attack:
dead; only the defence (or neither): alive.
"""
from __future__ import annotations

from typing import Iterable, Optional

import numpy as np

from tengen.go.board import Board
from tengen.go.coords import Point, neighbours
from tengen.life.search import KO, LifeConfig, LifeResult, LifeSearch

DEFAULT_MARGIN = 0.5
DEFAULT_CANDIDATES = 10  # chosen on GNU Go's ld_owl with REACH 3 (fewer and nearer read less; more, no better)
REACH = 3  # candidate moves lie within this many points (Manhattan) of a dragon stone


def dragon(board: Board, point: Point) -> set[Point]:
    """The chain at `point` and the chains of its colour linked to it by a shared liberty, transitively."""
    color = board.get(point)
    grid = board.array()
    h, w = grid.shape
    stones: set[Point] = set()
    todo = [point]
    while todo:
        p = todo.pop()
        if p in stones:
            continue
        chain = board.chain(p)
        stones.update(chain)
        for liberty in {q for s in chain for q in neighbours(s, h, w) if grid[q] == 0}:
            todo.extend(q for q in neighbours(liberty, h, w) if grid[q] == color and q not in stones)
    return stones


def network_status(board: Board, point: Point, evaluator, margin: float = DEFAULT_MARGIN,
                   candidates: int = DEFAULT_CANDIDATES, key_moves: bool = False) -> LifeResult:
    """The dragon at `point`: alive, dead or critical with its attacking and defending moves, judged by
    `evaluator`'s ownership (see the module doc); `nodes` is the number of positions evaluated. With
    `key_moves` the moves are looked for even where the ownership alone already says alive or dead (GNU Go's
    owl_attack and owl_defend answer with a move)."""
    owner = board.get(point)
    if owner == 0:
        raise ValueError("no stone at the point")
    stones = sorted(dragon(board, point))
    rows, cols = zip(*stones)

    def life(evaluations) -> list[float]:
        return [owner * float(np.mean(ev.ownership[rows, cols])) for ev in evaluations]

    with_defender, with_attacker = with_to_play(board, owner), with_to_play(board, -owner)
    defender_first, attacker_first = evaluator.evaluate([with_defender, with_attacker])
    evaluated = 2
    own_defender, own_attacker = life([defender_first, attacker_first])
    if own_attacker > margin and not key_moves:
        return LifeResult("alive", None, 0, None, 0, evaluated)
    if own_defender < -margin and not key_moves:
        return LifeResult("dead", None, 0, None, 0, evaluated)
    attack, after_attacks = _best_reply(with_attacker, attacker_first, stones, candidates, evaluator, owner, life,
                                        lowest=True)
    defense, after_defenses = _best_reply(with_defender, defender_first, stones, candidates, evaluator, owner,
                                          life, lowest=False)
    evaluated += after_attacks + after_defenses
    kills = attack is not None and attack[1] < 0
    saves = defense is not None and defense[1] > 0
    if kills and saves:
        return LifeResult("critical", attack[0], 1, defense[0], 1, evaluated)
    if kills:
        return LifeResult("dead", attack[0], 1, None, 0, evaluated)
    return LifeResult("alive", None, 0, defense[0] if saves else None, 1 if saves else 0, evaluated)


def pass_alive(board: Board, point: Point) -> bool:
    """Whether the chain at `point` is pass-alive (Benson's algorithm, in the rules core): proved alive."""
    benson = board._native.benson()
    return benson[point[0] * board.width + point[1]] == (board.get(point) & 0xFF)


def with_to_play(board: Board, color: int) -> Board:
    """A copy of `board` with `color` to move."""
    position = board.copy()
    position.to_play = color
    return position


def _best_reply(position: Board, evaluation, stones: list[Point], candidates: int, evaluator, owner: int, life,
                lowest: bool) -> tuple[Optional[tuple[Point, float]], int]:
    """Among the mover's `candidates` likeliest legal moves within REACH of the dragon, the one that leaves
    the dragon's life lowest (the attacker: `lowest`) or highest (the defender), with that life, the other
    side to move; and the number of positions evaluated. (Reading one reply further was measured worse: the
    leaves then have the defender to move, and the network's ownership there follows the whole board's best
    play, in which the defender may well play elsewhere.)"""
    tried = _near_moves(position, evaluation, stones, candidates)
    if not tried:
        return None, 0
    lives = life(evaluator.evaluate([after_move(position, p) for p in tried]))
    ranked = sorted(zip(tried, lives), key=lambda pl: pl[1] if lowest else -pl[1])
    return ranked[0], len(tried)


def _near_moves(position: Board, evaluation, stones: list[Point], count: int) -> list[Point]:
    """The side to move's `count` likeliest legal moves within REACH of the stones (ties: board order)."""
    h, w = position.height, position.width
    near = {(r, c) for r0, c0 in stones for r in range(max(0, r0 - REACH), min(h, r0 + REACH + 1))
            for c in range(max(0, c0 - REACH), min(w, c0 + REACH + 1)) if abs(r - r0) + abs(c - c0) <= REACH}
    return likeliest(position, evaluation, sorted(near), count)


def likeliest(position: Board, evaluation, points: Iterable[Point], count: int) -> list[Point]:
    """The side to move's `count` likeliest legal moves among `points` by the policy (ties: the points' order)."""
    mover = position.to_play
    legal = [p for p in points if position.get(p) == 0 and position.is_legal(mover, p)]
    legal.sort(key=lambda p: -float(evaluation.policy[p]))
    return legal[:count]


def after_move(position: Board, move: Optional[Point]) -> Board:
    """The position after the side to move plays `move` (None: passes), the other side to move."""
    child = position.copy()
    if move is not None:
        child.play(position.to_play, move)
    child.to_play = -position.to_play
    return child


KO_CHECK_NODES = 3000  # the search's budget when it checks a network answer for a ko (GNU Go's codes 2 and 3)
KO_GATE = 0.9  # a network answer leaving the dragon's |ownership| at least this is not checked for a ko


def owl_answer(board: Board, point: Point, evaluator, attack: bool, ko_check: Optional[LifeConfig] = None,
               ko_gate: float = KO_GATE) -> tuple[int, Optional[Point]]:
    """GNU Go's owl_attack (`attack`) or owl_defend answer for the dragon at `point`: (code, move) with
    code 0 (fails), 1 (succeeds), 2 (a ko the mover takes first) or 3 (a ko the other side takes first).
    The network judges the move one move deep (`network_status`); `tengen.life.search`'s search (no
    network, `ko_check` budget) then says whether the best it finds is a ko, which the network's ownership
    cannot tell, and the first ko capture on its line gives the code. A ko is believed unless the network
    found a move after which the dragon's ownership is beyond `ko_gate` (sure life or death); the network's
    move is kept where it found one, the search's where it did not."""
    owner = board.get(point)
    result = network_status(board, point, evaluator, key_moves=True)
    move = result.attack if attack else result.defense
    code = result.attack_code if attack else result.defense_code
    mover = -owner if attack else owner
    if code:
        stones = sorted(dragon(board, point))
        after = evaluator.evaluate([after_move(with_to_play(board, mover), move)])[0]
        rows, cols = zip(*stones)
        if abs(float(np.mean(after.ownership[rows, cols]))) >= ko_gate:
            return code, move
    search = LifeSearch(board, point, ko_check or LifeConfig(max_nodes=KO_CHECK_NODES))
    answer = search.attack() if attack else search.defend()
    if answer.outcome != KO:
        return (code, move) if code else (0, None)
    first = search.first_ko_capture(mover, answer.move)
    return (3 if first == -mover else 2), (move if code else answer.move)
