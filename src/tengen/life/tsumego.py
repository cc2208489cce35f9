"""Solving a life-and-death problem: the side to move's key move, the group at stake and its status after
best play, with the principal line.

Network mode (`solve_with_network`): a small minimax reads the problem (framed first by `tengen.life.frame`
when asked: measured, the frame made KataGo's answers worse on the sanderland problems). Moves are the network policy's likeliest legal points in the problem's box (the side not on move may
also pass: tenuki). A position's value is the side to move at the root's mean ownership over the box
(stones and empty points alike: a kill, a capture and a life all move it). The root's `candidates` moves
are each evaluated with the opponent to move; with `depth` 2 the best `expand` of them are read one reply
further (the opponent's `replies` likeliest answers and a pass, leaves with the solver to move again) and
the key move is the one whose worst reply is best; the line is then played on by each side's likeliest local
move (`extend` plies at most) until the group's fate is clear. The group at stake is the dragon in the box whose
ownership the side to move changes most (its ownership with either side to move first); its status after
the principal line is proved where the rules decide it (captured; pass-alive by Benson) and otherwise
judged from its ownership with `margin`. Classic mode (`solve_with_search`): `tengen.life.search`'s search
without a network, killing the opponent's weakest chain or saving the solver's own. `tengen.life.tsumego_proof`
puts the df-pn proof (`tengen.life.proof`) before either.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from tengen.go.board import Board
from tengen.go.colors import BLACK, EMPTY, WHITE
from tengen.go.coords import Point
from tengen.life.search import ALIVE, DEAD, KO, LifeConfig, LifeSearch
from tengen.life.net import after_move, dragon, likeliest, pass_alive, with_to_play
from tengen.life.frame import Box, framed, guess_attacker, problem_box

DEFAULT_CANDIDATES = 8
DEFAULT_EXPAND = 3
DEFAULT_REPLIES = 5
DEFAULT_MARGIN = 0.5


@dataclass(frozen=True)
class TsumegoConfig:
    """How far the network-mode minimax reads (all counts, so answers do not depend on the machine)."""

    depth: int = 2  # plies read: 1 (the key move judged) or 2 (and the best replies)
    candidates: int = DEFAULT_CANDIDATES  # the solver's moves tried at the root
    expand: int = DEFAULT_EXPAND  # of those, read one reply deeper (depth 2)
    replies: int = DEFAULT_REPLIES  # the opponent's answers tried (plus a pass)
    margin: float = DEFAULT_MARGIN  # |ownership| past this judges a group alive or dead
    frame: bool = False  # fill the board outside the problem (`tengen.life.frame`; measured worse, see BENCHMARKS)
    extend: int = 6  # plies the principal line is played on (each side's likeliest move) until the status is clear

    def __post_init__(self) -> None:
        if self.depth not in (1, 2):
            raise ValueError("depth must be 1 or 2")
        if self.extend < 0:
            raise ValueError("extend must be at least 0")
        if min(self.candidates, self.expand, self.replies) < 1:
            raise ValueError("candidates, expand and replies must be at least 1")
        if not 0.0 < self.margin < 1.0:
            raise ValueError("margin must be in (0, 1)")


@dataclass(frozen=True)
class TsumegoAnswer:
    """A solved problem. `move` None: pass (nothing works or nothing is needed). `status` is the group at
    stake's after the line: alive, dead, ko or unsettled; `proved` when the rules decide it at the line's
    end (captured, or pass-alive), else judged by the network. `nodes`: positions evaluated or searched."""

    move: Optional[Point]
    target: Optional[Point]  # a stone of the group at stake
    target_color: int
    status: str
    proved: bool
    line: tuple[Optional[Point], ...]
    nodes: int
    attacker: int  # the frame's guess of the side that surrounds
    mover: int  # the side that solves (to move in the problem)
    candidates: tuple[tuple[Point, float], ...] = field(default=())  # root moves with their values
    method: str = "network"  # what answered: network, search (classic) or proof (`tengen.life.tsumego_proof`)
    proof_reach: Optional[int] = None  # proved on the points within this many steps of the group (`prove_near`)

    @property
    def goal(self) -> str:
        """'live' when the solver owns the group at stake, else 'kill'."""
        return "live" if self.target_color == self.mover else "kill"


def solve_with_network(board: Board, evaluator, config: TsumegoConfig = TsumegoConfig()) -> TsumegoAnswer:
    """The network-mode solution of the problem on `board` (its side to move solves); see the module doc."""
    box = problem_box(board)
    attacker = guess_attacker(board, box)
    position = framed(board, box, attacker) if config.frame else board.copy()
    mover = board.to_play
    root_mover, root_other = with_to_play(position, mover), with_to_play(position, -mover)
    first, other_first = evaluator.evaluate([root_mover, root_other])
    nodes = 2
    box_rows, box_cols = zip(*box.points())

    def value(evaluation) -> float:
        return mover * float(np.mean(evaluation.ownership[box_rows, box_cols]))

    target = _group_at_stake(position, box, first, other_first)
    moves = likeliest_in_box(root_mover, first, box, config.candidates)
    if not moves:
        return _answer(position, target, attacker, None, (None,), first, nodes, (), config, mover)
    children = [after_move(root_mover, m) for m in moves]
    child_evals = evaluator.evaluate(children)
    nodes += len(children)
    scored = sorted(zip(moves, children, child_evals), key=lambda t: -value(t[2]))
    candidates = tuple((m, value(e)) for m, _, e in scored)
    best_move, best_line, best_eval = scored[0][0], (scored[0][0],), scored[0][2]
    if config.depth == 2:
        best_worst = -np.inf
        for move, child, child_eval in scored[: config.expand]:
            replies = likeliest_in_box(child, child_eval, box, config.replies) + [None]
            grandchildren = [after_move(child, r) for r in replies]
            grand_evals = evaluator.evaluate(grandchildren)
            nodes += len(grandchildren)
            worst = min(zip(replies, grand_evals), key=lambda t: value(t[1]))
            if value(worst[1]) > best_worst:
                best_worst = value(worst[1])
                best_move, best_line, best_eval = move, (move, worst[0]), worst[1]
    best_line, best_eval, extra = _extended(position, box, target, mover, best_line, best_eval, evaluator, config)
    return _answer(position, target, attacker, best_move, best_line, first, nodes + extra, candidates, config,
                   mover, final=best_eval)


def _extended(position: Board, box: Box, target: Optional[Point], mover: int, line: tuple, evaluation, evaluator,
              config: TsumegoConfig) -> tuple[tuple, object, int]:
    """The line played on, each side its likeliest move in the box, for at most `config.extend` plies, until
    the group at stake is captured, pass-alive or its ownership past 0.9 either way, or the side to move
    would rather play elsewhere (its pass is likelier than the local move, or a move elsewhere twice as
    likely): (line, the last position's evaluation, positions evaluated)."""
    if target is None or config.extend == 0:
        return line, evaluation, 0
    owner = position.get(target)
    stones = sorted(dragon(position, target))
    end = position.copy()
    color = mover
    for m in line:
        end = after_move(with_to_play(end, color), m)
        color = -color
    evaluated = 0
    for _ in range(config.extend):
        if end.get(target) != owner or pass_alive(end, target):
            break
        rows, cols = zip(*[p for p in stones if end.get(p) == owner] or [target])
        if abs(float(np.mean(evaluation.ownership[rows, cols]))) > 0.9:
            break
        local = likeliest_in_box(end, evaluation, box, 1)
        if not local or float(evaluation.policy[local[0]]) < max(float(evaluation.pass_policy),
                                                                  float(np.max(evaluation.policy)) / 2):
            break
        end = after_move(end, local[0])
        evaluation = evaluator.evaluate([end])[0]
        evaluated += 1
        line = line + (local[0],)
    return line, evaluation, evaluated


def solve_with_search(board: Board, config: LifeConfig = LifeConfig()) -> TsumegoAnswer:
    """Classic mode: kill the opponent's chain with the fewest liberties (the largest among equals), or
    failing that save the solver's own, by `tengen.life.search` (no network); the first search that
    succeeds answers, else the first that gets a ko, else a pass."""
    mover = board.to_play
    box = problem_box(board)
    attacker = guess_attacker(board, box)
    chains: dict[int, list[tuple[int, int, Point]]] = {BLACK: [], WHITE: []}
    for chain in board.chains():
        color = board.get(chain[0])
        chains[color].append((board.liberties(chain[0]), -len(chain), chain[0]))
    nodes = 0
    fallback: Optional[tuple[Point, Point, int]] = None
    for color in (-mover, mover):
        for _, _, point in sorted(chains[color])[:3]:
            search = LifeSearch(board, point, config)
            answer = search.attack() if color == -mover else search.defend()
            nodes = search.nodes
            goal = DEAD if color == -mover else ALIVE
            if answer.outcome == goal and answer.move is not None:
                status = "dead" if goal == DEAD else "alive"
                return TsumegoAnswer(answer.move, point, color, status, True, (answer.move,), nodes, attacker,
                                     mover, method="search")
            if answer.outcome == KO and answer.move is not None and fallback is None:
                fallback = (answer.move, point, color)
    if fallback is not None:
        return TsumegoAnswer(fallback[0], fallback[1], fallback[2], "ko", True, (fallback[0],), nodes, attacker,
                             mover, method="search")
    return TsumegoAnswer(None, None, EMPTY, "unsettled", False, (None,), nodes, attacker, mover, method="search")


def _answer(position: Board, target: Optional[Point], attacker: int, move: Optional[Point], line: tuple, first,
            nodes: int, candidates: tuple, config: TsumegoConfig, mover: int, final=None) -> TsumegoAnswer:
    """The answer with the group at stake (`target`, a stone of it) and its status at the end of `line`
    (`final`: that position's evaluation; none: the root's with the solver to move)."""
    if target is None:
        return TsumegoAnswer(move, None, EMPTY, "unsettled", False, line, nodes, attacker=attacker, mover=mover,
                             candidates=candidates)
    owner = position.get(target)
    stones = sorted(dragon(position, target))
    end = position.copy()
    color, ko = mover, False
    for m in line:
        if m is not None:
            end.play(color, m)
            ko = ko or end.ko_point is not None
        color = -color
    if end.get(target) != owner:
        status, proved = "dead", True
    elif pass_alive(end, target):
        status, proved = "alive", True
    else:
        evaluation = final if final is not None else first
        rows, cols = zip(*[p for p in stones if end.get(p) == owner] or [target])
        life = owner * float(np.mean(evaluation.ownership[rows, cols]))
        status = "alive" if life > config.margin else "dead" if life < -config.margin else "unsettled"
        status = "ko" if ko and status == "unsettled" else status
        proved = False
    return TsumegoAnswer(move, target, owner, status, proved, line, nodes, attacker=attacker, mover=mover,
                         candidates=candidates)


def _group_at_stake(position: Board, box: Box, first, other_first) -> Optional[Point]:
    """A stone of the dragon in the box whose ownership moves most with the side to move (times its size)."""
    seen: set[Point] = set()
    best, best_swing = None, -1.0
    for p in box.points():
        if position.get(p) == EMPTY or p in seen:
            continue
        stones = dragon(position, p)
        seen.update(stones)
        rows, cols = zip(*stones)
        swing = abs(float(np.sum(first.ownership[rows, cols]) - np.sum(other_first.ownership[rows, cols])))
        if swing > best_swing:
            best, best_swing = p, swing
    return best


def likeliest_in_box(position: Board, evaluation, box: Box, count: int) -> list[Point]:
    """The side to move's `count` likeliest legal moves in the box by the policy (ties: board order)."""
    return likeliest(position, evaluation, box.points(), count)
