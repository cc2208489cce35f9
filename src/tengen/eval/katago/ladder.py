"""Ladder reader: which chains are caught in a working ladder, as KataGo's input features define it.

A chain in atari is "laddered" when, with the defender to move (and any ko assumed to work for the
defender at the start), every defender reply - extending or capturing an adjacent chain in atari - is
answered by an atari that eventually captures. A two-liberty chain is laddered when the attacker has a
first atari (a "working move") that leads to such a ladder. The search follows KataGo's
(`cpp/game/board.cpp`: `searchIsLadderCaptured`, `searchIsLadderCapturedAttackerFirst2Libs`) rules:
a ko left by the attacker counts as an escape, double-ko death counts as capture, a node budget of
25,000 makes a ladder "not working", and suicide is never allowed.

The search runs on `LadderBoard`, a small padded board with play/undo made for this job.
"""
from __future__ import annotations

from typing import Optional

import numpy as np

from tengen.lru import LruCache

WALL = 2
NODE_BUDGET = 25_000


class _BudgetExhausted(Exception):
    pass


class LadderBoard:
    """A padded one-dimensional board: point (r, c) is index (r + 1) * (width + 2) + c + 1."""

    def __init__(self, grid: np.ndarray, ko_point: Optional[tuple[int, int]] = None):
        h, w = grid.shape
        self.height, self.width, self.stride = h, w, w + 2
        cells = np.full((h + 2, w + 2), WALL, dtype=np.int8)
        cells[1:-1, 1:-1] = grid
        self.colors: list[int] = cells.reshape(-1).tolist()
        self.adj = (-self.stride, -1, 1, self.stride)
        self.ko = self.index(ko_point) if ko_point is not None else -1

    def index(self, point: tuple[int, int]) -> int:
        return (point[0] + 1) * self.stride + point[1] + 1

    def point(self, loc: int) -> tuple[int, int]:
        r, c = divmod(loc, self.stride)
        return r - 1, c - 1

    # -- chains
    def chain(self, loc: int) -> list[int]:
        colors, adj = self.colors, self.adj
        color = colors[loc]
        seen = {loc}
        out = [loc]
        for cur in out:
            for d in adj:
                n = cur + d
                if colors[n] == color and n not in seen:
                    seen.add(n)
                    out.append(n)
        return out

    def liberties(self, loc: int, limit: int = 10_000) -> list[int]:
        """Liberties of the chain at `loc` in discovery order (stops early once `limit` are found)."""
        colors, adj = self.colors, self.adj
        color = colors[loc]
        seen = {loc}
        stones = [loc]
        libs: list[int] = []
        for cur in stones:
            for d in adj:
                n = cur + d
                c = colors[n]
                if c == 0:
                    if n not in libs:
                        libs.append(n)
                        if len(libs) >= limit:
                            return libs
                elif c == color and n not in seen:
                    seen.add(n)
                    stones.append(n)
        return libs

    def num_liberties(self, loc: int, limit: int = 10_000) -> int:
        return len(self.liberties(loc, limit))

    # -- moves
    def is_legal(self, loc: int, color: int) -> bool:
        """Legal without suicide, with the simple-ko ban."""
        if self.colors[loc] != 0 or loc == self.ko:
            return False
        for d in self.adj:
            n = loc + d
            c = self.colors[n]
            if c == 0:
                return True
            if c == color and self.num_liberties(n, 2) > 1:
                return True
            if c == -color and self.num_liberties(n, 2) == 1:
                return True
        return False

    def play(self, loc: int, color: int) -> tuple[int, int, list[int]]:
        """Play a legal move; returns the record `undo` needs."""
        old_ko = self.ko
        self.colors[loc] = color
        captured: list[int] = []
        for d in self.adj:
            n = loc + d
            if self.colors[n] == -color and self.num_liberties(n, 1) == 0:
                stones = self.chain(n)
                for s in stones:
                    self.colors[s] = 0
                captured.extend(stones)
        self.ko = -1
        if len(captured) == 1 and all(self.colors[loc + d] != color for d in self.adj):
            if self.num_liberties(loc, 2) == 1:
                self.ko = captured[0]
        return loc, old_ko, captured

    def undo(self, record: tuple[int, int, list[int]]) -> None:
        loc, old_ko, captured = record
        color = self.colors[loc]
        self.colors[loc] = 0
        for s in captured:
            self.colors[s] = -color
        self.ko = old_ko

    # -- helpers of the search
    def immediate_liberties(self, loc: int) -> int:
        return sum(1 for d in self.adj if self.colors[loc + d] == 0)

    def capture_moves(self, loc: int) -> list[int]:
        """Points capturing an opposing chain in atari next to the chain at `loc` (liberty-gaining captures)."""
        opp = -self.colors[loc]
        moves: list[int] = []
        checked: set[int] = set()
        for cur in self.chain(loc):
            for d in self.adj:
                n = cur + d
                if self.colors[n] == opp and n not in checked:
                    stones = self.chain(n)
                    checked.update(stones)
                    libs = self.liberties(n, 2)
                    if len(libs) == 1 and libs[0] not in moves:
                        moves.append(libs[0])
        return moves

    def bound_liberties_after_play(self, loc: int, color: int) -> tuple[int, int]:
        """KataGo's quick (lower, upper) bound on the liberties of a stone played at `loc`."""
        immediate = caps = cap_stones = conn_sum = conn_max = 0
        for d in self.adj:
            n = loc + d
            c = self.colors[n]
            if c == 0:
                immediate += 1
            elif c == -color:
                if self.num_liberties(n, 2) == 1:
                    caps += 1
                    cap_stones += len(self.chain(n))
            elif c == color:
                extra = self.num_liberties(n) - 1
                conn_sum += extra
                conn_max = max(conn_max, extra)
        return caps + max(conn_max, immediate), immediate + cap_stones + conn_sum

    def liberties_after_play(self, loc: int, color: int, limit: int) -> int:
        """Exact liberties a stone played at `loc` would have (capped at `limit`)."""
        rec = self.play(loc, color)
        n = self.num_liberties(loc, limit)
        self.undo(rec)
        return min(n, limit)

    def would_be_ko_capture(self, loc: int, color: int) -> bool:
        if self.colors[loc] != 0:
            return False
        capturable = -1
        for d in self.adj:
            n = loc + d
            c = self.colors[n]
            if c != WALL and c != -color:
                return False
            if c == -color and self.num_liberties(n, 2) == 1:
                if capturable != -1:
                    return False
                capturable = n
        return capturable != -1 and len(self.chain(capturable)) == 1

    def connection_score_x2(self, loc: int, color: int) -> int:
        total = 0
        for d in self.adj:
            n = loc + d
            if self.colors[n] == color:
                libs = self.num_liberties(n)
                if libs > 1:
                    total += 2 * libs - 3
        return total

    def has_liberty_gaining_captures(self, loc: int) -> bool:
        return bool(self.capture_moves(loc))


def is_ladder_captured(board: LadderBoard, loc: int, defender_first: bool = True) -> bool:
    """Whether the chain at `loc` (with at most 2 liberties) is captured by a ladder."""
    if board.colors[loc] not in (1, -1):
        return False
    libs = board.num_liberties(loc, 3)
    if libs > 2 or (defender_first and libs > 1):
        return False
    defender = board.colors[loc]
    saved_ko = board.ko
    if defender_first:
        board.ko = -1
    max_depth = board.width * board.height * 3 // 2 + 1
    count = [0]

    def search(depth: int) -> bool:
        is_defender = (depth % 2 == 0) == defender_first
        if depth >= max_depth - 1:
            return True
        n = board.num_liberties(loc, 3)
        if not is_defender and n <= 1:
            return True
        if not is_defender and n >= 3:
            return False
        if is_defender and n >= 2:
            return False
        if is_defender and board.ko != -1:
            return False
        if is_defender:
            moves = board.capture_moves(loc)
            moves += [m for m in board.liberties(loc) if m not in moves]
            low, high = board.bound_liberties_after_play(moves[-1], defender)
            if low >= 3:
                return False
            if len(moves) == 1 and high <= 1:
                return True
        else:
            moves = board.liberties(loc)
            m0, m1 = moves[0], moves[1]
            libs0, libs1 = board.immediate_liberties(m0), board.immediate_liberties(m1)
            if (libs0 == 0 and libs1 == 0 and board.would_be_ko_capture(m0, -defender)
                    and board.would_be_ko_capture(m1, -defender)
                    and board.liberties_after_play(m0, defender, 3) <= 2
                    and board.liberties_after_play(m1, defender, 3) <= 2
                    and not board.has_liberty_gaining_captures(loc)):
                return True
            if m1 - m0 not in board.adj:
                if libs0 >= 3 and libs1 >= 3:
                    return False
                if libs0 >= 3:
                    moves = [m0]
                elif libs1 >= 3:
                    moves = [m1]
            if len(moves) > 1:
                s0 = 2 * libs0 + board.connection_score_x2(m0, defender)
                s1 = 2 * libs1 + board.connection_score_x2(m1, defender)
                if s1 > s0:
                    moves = [m1, m0]
        mover = defender if is_defender else -defender
        for move in moves:
            if count[0] >= NODE_BUDGET:
                raise _BudgetExhausted
            if not board.is_legal(move, mover):
                continue
            rec = board.play(move, mover)
            count[0] += 1
            try:
                result = search(depth + 1)
            finally:
                board.undo(rec)
            if is_defender and not result:
                return False
            if not is_defender and result:
                return True
        return is_defender

    try:
        return search(0)
    except _BudgetExhausted:
        return False
    finally:
        board.ko = saved_ko


def ladder_working_moves(board: LadderBoard, loc: int) -> list[int]:
    """For a two-liberty chain: the attacker's first ataris that lead to a working ladder."""
    if board.colors[loc] not in (1, -1) or board.num_liberties(loc, 3) != 2:
        return []
    attacker = -board.colors[loc]
    working = []
    for move in board.liberties(loc):
        if board.is_legal(move, attacker):
            rec = board.play(move, attacker)
            try:
                if is_ladder_captured(board, loc, True):
                    working.append(move)
            finally:
                board.undo(rec)
    return working


# positions whose ladder maps are remembered: the inputs of a position also hold the ladders of the two
# positions before it, which the sibling lines of a local tree share (an analysis's profile showed 350 ladder
# reads for 130 encoded positions). 0 turns the cache off (the speed bench's "before")
LADDER_CACHE_SIZE = 4096
_cache: Optional[LruCache] = LruCache(LADDER_CACHE_SIZE)


def set_ladder_cache(size: int) -> None:
    """Remember the ladder maps of up to `size` positions (0: none, every call reads its ladders again)."""
    global _cache
    _cache = LruCache(size) if size > 0 else None


def ladder_features(grid: np.ndarray, ko_point: Optional[tuple[int, int]], to_play: int
                    ) -> tuple[np.ndarray, np.ndarray]:
    """(laddered, working) boolean (height, width) maps, read-only (shared by the cache).

    `laddered`: stones of chains with one or two liberties that a ladder captures. `working`: for the
    opponent's (not `to_play`'s) two-liberty laddered chains, the points where `to_play` starts it.
    """
    stones = np.asarray(grid, dtype=np.int8)
    key = (stones.shape, stones.tobytes(), ko_point, to_play)
    cache = _cache
    found = cache.get(key) if cache is not None else None
    if found is None:
        found = _read_ladders(stones, ko_point, to_play)
        for plane in found:
            plane.setflags(write=False)
        if cache is not None:
            cache.put(key, found)
    return found


def _read_ladders(grid: np.ndarray, ko_point: Optional[tuple[int, int]], to_play: int
                  ) -> tuple[np.ndarray, np.ndarray]:
    board = LadderBoard(grid, ko_point)
    h, w = board.height, board.width
    laddered = np.zeros((h, w), dtype=bool)
    working = np.zeros((h, w), dtype=bool)
    done: set[int] = set()
    for r in range(h):
        for c in range(w):
            loc = board.index((r, c))
            if board.colors[loc] not in (1, -1) or loc in done:
                continue
            stones = board.chain(loc)
            done.update(stones)
            libs = board.num_liberties(loc, 3)
            if libs == 1:
                hit, moves = is_ladder_captured(board, loc, True), []
            elif libs == 2:
                moves = ladder_working_moves(board, loc)
                hit = bool(moves)
            else:
                continue
            if hit:
                for s in stones:
                    laddered[board.point(s)] = True
                if board.colors[loc] == -to_play:
                    for m in moves:
                        working[board.point(m)] = True
    return laddered, working
