"""Chains and their fates: Benson pass-alive, weak chains judged by the life judge (cached on the chain's
neighbourhood), and the urgent ones (critical, or in atari) of which the side to move wins the largest."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

from tengen.eval.classic.config import ClassicConfig
from tengen.eval.classic.judges import LifeJudge, LifeVerdict
from tengen.go.board import Board
from tengen.go.coords import Point
from tengen.go.grid import components
from tengen.lru import LruCache

WINDOW = 4  # the judge's verdict is cached on the chain's bounding box grown by this many points


@dataclass
class Chain:
    """One chain with its liberties, its status (STATUSES or 'benson' / 'presumed') and its fate: +1 it
    lives, -1 it dies, 0 half (an urgent fight the side to move does not get), None unknown."""

    color: int
    stones: list[Point]
    liberties: list[Point]
    status: str = "presumed"
    fate: Optional[int] = 1
    attack: Optional[Point] = None
    defense: Optional[Point] = None

    @property
    def lives(self) -> bool:
        return self.fate == 1


def chain_table(board: Board, safe: np.ndarray) -> list[Chain]:
    """Every chain; a Benson pass-alive one is settled, a stone in the opponent's Benson area is dead."""
    out = []
    for stones in board.chains():
        color = board.get(stones[0])
        chain = Chain(color, stones, board.chain_liberties(stones[0]))
        if safe[stones[0]] == color:
            chain.status = "benson"
        elif safe[stones[0]] == -color:
            chain.status, chain.fate = "dead", -1
        out.append(chain)
    return out


def room(grid: np.ndarray, influence: np.ndarray) -> dict[int, np.ndarray]:
    """Per colour, each point's room: the empty points outside the opponent's influence in its component
    of points free of the opponent's stones (what a chain there could make eyes in or run to)."""
    out = {}
    for color in (1, -1):
        labels = np.zeros(grid.shape, dtype=np.int32)
        sizes = [0]
        for i, comp in enumerate(components(grid != -color), start=1):
            for p in comp:
                labels[p] = i
            sizes.append(sum(1 for p in comp if grid[p] == 0 and influence[p] * color >= 0))
        out[color] = np.asarray(sizes)[labels]
    return out


def is_weak(chain: Chain, influence: np.ndarray, rooms: dict[int, np.ndarray], config: ClassicConfig) -> bool:
    """Short of liberties, enclosed (little room behind the opponent's stones), or most of its liberties
    in the opponent's influence."""
    if chain.status != "presumed":
        return False
    if len(chain.liberties) <= config.danger_liberties or rooms[chain.color][chain.stones[0]] <= config.enclosed_room:
        return True
    hostile = sum(1 for p in chain.liberties if influence[p] * chain.color < 0)
    return 2 * hostile > len(chain.liberties)


class JudgeCache:
    """The judge's verdicts keyed by the stones around the chain (its bounding box grown by WINDOW)."""

    def __init__(self, judge: LifeJudge, capacity: int = 20_000):
        self.judge = judge
        self.table: LruCache[LifeVerdict] = LruCache(capacity)
        self.calls = self.hits = 0

    def verdict(self, board: Board, grid: np.ndarray, chain: Chain) -> LifeVerdict:
        """The judge's verdict on `chain`, from the cache when its neighbourhood was seen before."""
        rows = [p[0] for p in chain.stones]
        cols = [p[1] for p in chain.stones]
        r0, r1 = max(0, min(rows) - WINDOW), min(board.height, max(rows) + WINDOW + 1)
        c0, c1 = max(0, min(cols) - WINDOW), min(board.width, max(cols) + WINDOW + 1)
        ko = board.ko_point
        ko = ko if ko is not None and r0 <= ko[0] < r1 and c0 <= ko[1] < c1 else None
        key = (chain.stones[0], r0, r1, c0, c1, grid[r0:r1, c0:c1].tobytes(), ko, board.rules.suicide)
        known = self.table.get(key)
        if known is not None:
            self.hits += 1
            return known
        self.calls += 1
        verdict = self.judge(board, chain.stones[0])
        self.table.put(key, verdict)
        return verdict


def judge_weak(board: Board, chains: list[Chain], influence: np.ndarray, cache: JudgeCache,
               config: ClassicConfig) -> None:
    """Judge the weak chains (fewest liberties first, at most `max_judged`); unjudged ones stay unknown."""
    grid = board.array()
    rooms = room(grid, influence)
    weak = sorted((c for c in chains if is_weak(c, influence, rooms, config)),
                  key=lambda c: (len(c.liberties), -len(c.stones)))
    for i, chain in enumerate(weak):
        if i >= config.max_judged:
            chain.status, chain.fate = "unknown", None
            continue
        verdict = cache.verdict(board, grid, chain)
        chain.status, chain.attack, chain.defense = verdict.status, verdict.attack, verdict.defense
        if (chain.status in ("critical", "ko") and len(chain.liberties) > config.critical_liberties
                and rooms[chain.color][chain.stones[0]] > config.enclosed_room):
            chain.status = "unknown"  # a fight the search's horizon guessed, for a chain with liberties and room
        chain.fate = {"alive": 1, "dead": -1}.get(chain.status)


def swing(chain: Chain) -> float:
    """Points at stake in a fight over `chain`: its stones and liberties change hands (area counting)."""
    return 2.0 * len(chain.stones) + len(chain.liberties)


def resolve_urgent(chains: list[Chain], to_play: int, atari_only: bool = False) -> Optional[Chain]:
    """Critical chains, ko fights and chains in atari the judge did not settle: the side to move wins the
    largest (captures it, or saves its own; with `atari_only`, only a chain in atari can be won), the
    others count half. Returns the chain won, if any."""
    urgent = [c for c in chains if c.status in ("critical", "ko")
              or (len(c.liberties) == 1 and c.status in ("unknown", "presumed"))]
    if not urgent:
        return None
    for c in urgent:
        c.fate = 0
        if c.status in ("unknown", "presumed"):
            c.status = "atari"
            c.attack = c.defense = c.liberties[0]
    winnable = [c for c in urgent if (c.attack if c.color != to_play else c.defense) is not None
                and (len(c.liberties) == 1 or not atari_only)]
    if not winnable:
        return None
    best = max(winnable, key=lambda c: (swing(c), c.color != to_play))
    best.fate = 1 if best.color == to_play else -1
    return best
