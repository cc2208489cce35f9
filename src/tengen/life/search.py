"""Life and death by search: can a group be killed (attacker first) or saved (defender first)?

Alpha-beta over three outcomes (alive < ko < dead, from the attacker's side) on the native rules core.
Candidate moves stay near the group (its liberties, second liberties when short of them, its enclosed
areas, the liberties of short-of-liberty neighbours; a pass for the defender). A line ends when the group
is captured (dead), pass-alive by Benson, has two eyes by the eye-space heuristics of `tengen.life.eyes` even
if the attacker moves first (alive), has escaped (enough outside liberties: alive), or is enclosed with
fewer than two eyes, no weak neighbour and no stone to capture inside (dead). A win that needs a ko
capture counts as ko. Iterative deepening (2, 4, ... `max_depth` plies, stopping at the first exact
answer): at an iteration's depth limit a leaf is guessed (two eyes for the side to move, or more outside
liberties than `escape_liberties` with open room beyond: alive), and the deepest finished iteration
answers, its winning first moves then listed so the vital point (a move that both kills and saves) can
be preferred. If no iteration finishes within `max_nodes`, the answer is "unknown". Budgets are nodes,
so results do not depend on machine speed; `seconds` is for GTP only.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Iterable, Optional

from tengen.go.board import Board
from tengen.go.colors import EMPTY
from tengen.go.coords import Point
from tengen.life.eyes import EyeSpace, eye_space, neighbor_table
from tengen.life.moves import candidate_moves

ALIVE, KO, DEAD = 0, 1, 2  # outcomes from the attacker's side: it maximizes, the defender minimizes
STATUSES = ("alive", "dead", "critical", "ko", "unknown")


@dataclass(frozen=True)
class LifeConfig:
    """The search's budgets and thresholds (counts only; `seconds` is an optional extra cap for GTP)."""

    max_nodes: int = 20_000  # per search (attack or defence); past it: unknown
    max_depth: int = 24  # plies of the deepest iteration (its leaves are guessed by `_horizon`)
    max_region: int = 12  # enclosed areas up to this many points count as eye space
    escape_liberties: int = 3  # outside liberties needed to count as escaped, with
    escape_room: int = 8  # this many open empty points 2-3 steps beyond them
    max_branch: int = 14  # candidate moves tried per node, best first
    seconds: Optional[float] = None  # wall-clock cap (GTP only; makes results machine-dependent)


@dataclass(frozen=True)
class SearchAnswer:
    """One search: the outcome for the side that moved first, its key move (None: pass), nodes used."""

    outcome: Optional[int]  # ALIVE / KO / DEAD, None when the budget ran out
    move: Optional[Point]
    nodes: int
    wins: tuple[Optional[Point], ...] = ()  # every first move found to reach the goal (best first)


@dataclass(frozen=True)
class LifeResult:
    """A group's status with its key moves: `attack` kills (or makes ko) if the attacker moves first,
    `defense` saves (or makes ko) if the defender moves first; codes 0 fail, 1 succeed, 2 ko (GNU Go's)."""

    status: str  # alive / dead / critical / ko / unknown
    attack: Optional[Point]
    attack_code: int
    defense: Optional[Point]
    defense_code: int
    nodes: int


class _OutOfBudget(Exception):
    """The node (or time) budget ran out: the answer is unknown."""


class LifeSearch:
    """The search for one group (a stone of it) on a private copy of the board."""

    def __init__(self, board: Board, point: Point, config: LifeConfig = LifeConfig()):
        color = board.get(point)
        if color == EMPTY:
            raise ValueError("the point holds no stone")
        self.config = config
        self.width, self.height = board.width, board.height
        self.nb = board._native.copy()
        self.suicide = board.rules.suicide
        self.defender, self.attacker = color, -color
        self.target = point[0] * self.width + point[1]
        self.orth, self.diag = _tables(self.width, self.height)
        self.table: dict[tuple, tuple[int, bool, int, Optional[int]]] = {}
        self.nodes = 0
        self.depth_limit = config.max_depth
        self.node_limit = config.max_nodes
        self.deadline: Optional[float] = None
        self.enumerate_root = False  # the root tries every move, listing the winners in root_wins
        self.root_wins: list[Optional[int]] = []

    # ------------------------------------------------------------------ public
    def attack(self) -> SearchAnswer:
        """Whether the attacker, moving first, kills the group (or makes ko), with its key move."""
        return self._root(self.attacker)

    def defend(self) -> SearchAnswer:
        """Whether the defender, moving first, saves the group (or makes ko), with its key move."""
        return self._root(self.defender)

    # ------------------------------------------------------------------ search
    def _root(self, first: int) -> SearchAnswer:
        """Iterative deepening (2, 4, ... max_depth plies) until an answer is exact or the budget runs out;
        the deepest finished iteration answers (none finished: unknown)."""
        start = self.nodes
        self.node_limit = start + self.config.max_nodes
        self.deadline = None if self.config.seconds is None else time.monotonic() + self.config.seconds
        answer = SearchAnswer(None, None, 0)
        limit = finished = 2
        while True:
            self.depth_limit = min(limit, self.config.max_depth)
            try:
                value, move, exact = self._children(first, 0)
            except _OutOfBudget:  # every move played was taken back on the way out
                break
            point = None if move is None else (move // self.width, move % self.width)
            answer = SearchAnswer(value, point, self.nodes - start)
            finished = self.depth_limit
            if exact or self.depth_limit >= self.config.max_depth:
                break
            limit += 2
        goal = DEAD if first == self.attacker else ALIVE
        if answer.outcome == goal:  # list every winning first move at the last finished depth
            self.depth_limit = finished
            self.node_limit = self.nodes + max(1, self.config.max_nodes // 2)
            self.enumerate_root, self.root_wins = True, []
            try:
                self._children(first, 0)
            except _OutOfBudget:
                pass
            self.enumerate_root = False
            wins = tuple(None if m is None else (m // self.width, m % self.width) for m in self.root_wins)
            answer = SearchAnswer(answer.outcome, answer.move, self.nodes - start, wins)
        return answer

    def first_ko_capture(self, first: int, move: Optional[Point], plies: int = 16) -> Optional[int]:
        """Who makes the first ko capture on the searched line that starts with `first` playing `move`: the
        line follows the transposition table's best moves (after `attack()` or `defend()`); None when the
        line captures no ko within `plies`. GNU Go numbers a ko result by it: 2 when the side that wins the
        ko takes it first, 3 when the other side does (the winner then needs a threat to retake)."""
        depth = self.nb.undo_depth
        to_move, point = first, move
        try:
            for _ in range(plies):
                if point is None:
                    self.nb.pass_move()
                elif self.nb.play(to_move, point[0], point[1], self.suicide) < 0:
                    return None
                elif self.nb.ko is not None:
                    return to_move
                to_move = -to_move
                if self._captured():
                    return None
                entry = self.table.get((self.nb.hash, to_move, self.nb.ko))
                if entry is None or entry[3] is None:
                    return None
                point = (entry[3] // self.width, entry[3] % self.width)
            return None
        finally:
            while self.nb.undo_depth > depth:
                self.nb.undo()

    def _captured(self) -> bool:
        """Whether the target stone has been taken off the board."""
        return self.nb.get(self.target // self.width, self.target % self.width) != self.defender

    def _static(self, space: EyeSpace, to_move: int) -> Optional[int]:
        """ALIVE / DEAD when the position is settled for the search's purpose, else None."""
        if space.eyes_attacker_first >= 2:
            return ALIVE
        if (len(space.outside_liberties) >= self.config.escape_liberties
                and space.open_points >= self.config.escape_room):
            return ALIVE
        if len(space.regions) >= 2:
            benson = self.nb.benson()
            if benson[self.target] == (self.defender & 0xFF):
                return ALIVE
        if (space.eyes_defender_first < 2 and not space.outside_liberties and not space.weak_attackers
                and not space.occupied):
            return DEAD
        if to_move == self.attacker and space.eyes_defender_first < 2 and len(space.liberties) == 1:
            return DEAD  # in atari with no way to make eyes: the attacker captures
        return None

    def _horizon(self, space: EyeSpace, to_move: int) -> int:
        """The leaf guess at the depth limit: alive with two eyes (the side to move first) or room to run."""
        eyes = space.eyes_defender_first if to_move == self.defender else space.eyes_attacker_first
        room = len(space.outside_liberties) + (1 if to_move == self.defender else 0)
        if eyes >= 2 or (room > self.config.escape_liberties and 2 * space.open_points >= self.config.escape_room):
            return ALIVE
        return DEAD

    def _node(self, to_move: int, depth: int) -> tuple[int, bool]:
        """(outcome, exact) with `to_move` to play; exact is False when a depth cut decided a leaf below."""
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise _OutOfBudget
        if self.deadline is not None and self.nodes % 256 == 0 and time.monotonic() > self.deadline:
            raise _OutOfBudget
        if self._captured():
            return DEAD, True
        key = (self.nb.hash, to_move, self.nb.ko)
        entry = self.table.get(key)
        remaining = self.depth_limit - depth
        if entry is not None and (entry[1] or entry[2] >= remaining):
            return entry[0], entry[1]
        value, exact, move = self._search(to_move, depth)
        self.table[key] = (value, exact, remaining, move)
        return value, exact

    def _search(self, to_move: int, depth: int) -> tuple[int, bool, Optional[int]]:
        """A node past the table: static end, depth-limit guess, or expansion."""
        space = eye_space(self.nb, self.target, self.defender, self.width, self.orth, self.diag,
                          self.config.max_region)
        settled = self._static(space, to_move)
        if settled is not None:
            return settled, True, None
        if depth >= self.depth_limit:
            return self._horizon(space, to_move), False, None
        value, move, exact = self._expand(to_move, depth, space)
        return value, exact, move

    def _children(self, to_move: int, depth: int) -> tuple[int, Optional[int], bool]:
        """The root: always expanded (a key move is wanted even where the static view settles it)."""
        if self._captured():
            return DEAD, None, True
        space = eye_space(self.nb, self.target, self.defender, self.width, self.orth, self.diag,
                          self.config.max_region)
        return self._expand(to_move, depth, space, root=True)

    def _expand(self, to_move: int, depth: int, space: EyeSpace,
                root: bool = False) -> tuple[int, Optional[int], bool]:
        """Try the candidate moves best first; alpha-beta on the three outcomes. At the root every move is
        tried after a win (within the budget) so that all winning key moves are known."""
        attacking = to_move == self.attacker
        goal = DEAD if attacking else ALIVE
        best = ALIVE if attacking else DEAD
        best_move: Optional[int] = None
        exact = True
        key = (self.nb.hash, to_move, self.nb.ko)
        hint = self.table.get(key)
        moves = self._candidates(space, to_move, None if hint is None else hint[3])
        tried = False
        for move in moves:
            if move is None:
                self.nb.pass_move()
                ko_capture = False
            else:
                if self.nb.play(to_move, move // self.width, move % self.width, self.suicide) < 0:
                    continue
                ko_capture = self.nb.ko is not None
            try:
                value, child_exact = self._node(-to_move, depth + 1)
            except _OutOfBudget:
                if not (root and self.enumerate_root):
                    raise
                break  # the budget ran out listing the other winning moves: keep what is known
            finally:
                self.nb.undo()
            first = not tried
            tried = True
            exact = exact and child_exact
            if ko_capture:
                value = min(value, KO) if attacking else max(value, KO)
            if first or (attacking and value > best) or (not attacking and value < best):
                best, best_move = value, move
            if root and self.enumerate_root:
                if value == goal:
                    self.root_wins.append(move)
            elif best == goal:
                break
        if not tried:
            return (ALIVE if attacking else DEAD), None, exact
        return best, best_move, exact

    def _candidates(self, space: EyeSpace, to_move: int, hint: Optional[int]) -> list[Optional[int]]:
        """Moves near the group, best first, at most max_branch (plus the defender's pass)."""
        moves: list[Optional[int]] = candidate_moves(self.nb, space, to_move, self.attacker, self.target,
                                                     self.width, self.orth, self.suicide, hint,
                                                     self.config.max_branch)
        if to_move == self.defender:
            moves.append(None)
        return moves


_TABLES: dict[tuple[int, int], tuple[list[list[int]], list[list[int]]]] = {}


def _tables(width: int, height: int) -> tuple[list[list[int]], list[list[int]]]:
    """Neighbour tables per board size, built once."""
    if (width, height) not in _TABLES:
        _TABLES[(width, height)] = neighbor_table(width, height)
    return _TABLES[(width, height)]


def _code(outcome: Optional[int], success: int) -> int:
    """GNU Go's result code for a side whose goal is `success`: 1 reached, 2 ko, 0 failed."""
    if outcome is None:
        return 0
    if outcome == success:
        return 1
    return 2 if outcome == KO else 0


def analyze_group(board: Board, point: Point, config: LifeConfig = LifeConfig()) -> LifeResult:
    """The group at `point`: alive (no attack works), dead (no defence works), critical (the side to move
    decides), ko (the best either side gets is a ko) or unknown (a budget ran out), with the key moves."""
    search = LifeSearch(board, point, config)
    attack = search.attack()
    if attack.outcome is None:
        return LifeResult("unknown", None, 0, None, 0, search.nodes)
    if attack.outcome == ALIVE:
        return LifeResult("alive", None, 0, None, 0, search.nodes)
    defend = search.defend()
    if defend.outcome is None:
        return LifeResult("unknown", attack.move, _code(attack.outcome, DEAD), None, 0, search.nodes)
    a_code, d_code = _code(attack.outcome, DEAD), _code(defend.outcome, ALIVE)
    if defend.outcome == DEAD:
        return LifeResult("dead", attack.move, a_code, None, 0, search.nodes)
    status = "critical" if a_code == 1 and d_code == 1 else "ko"
    attack_move, defense_move = shared_key_move(attack, defend)
    return LifeResult(status, attack_move, a_code, defense_move, d_code, search.nodes)


def shared_key_move(attack: SearchAnswer, defend: SearchAnswer) -> tuple[Optional[Point], Optional[Point]]:
    """The key moves to report: where one point both kills and saves (the vital point), that point for
    both; otherwise each search's own best."""
    if attack.outcome == DEAD and defend.outcome == ALIVE:
        common = [m for m in attack.wins if m is not None and m in defend.wins]
        if common:
            return common[0], common[0]
    return attack.move, defend.move


def analyze_region(board: Board, region: Iterable[Point], defender: int,
                   config: LifeConfig = LifeConfig()) -> LifeResult:
    """The life of `defender`'s stones in `region` (its largest chain there stands for the group)."""
    best: Optional[Point] = None
    size = 0
    for p in region:
        if board.get(p) == defender:
            n = len(board.chain(p))
            if n > size:
                best, size = p, n
    if best is None:
        raise ValueError("no stone of the defender in the region")
    return analyze_group(board, best, config)
