"""Groups whose life is at stake, said in words instead of folded into a region's count.

The network's ownership with Black to move and with White to move is read first. A group (a
dragon: `tengen.life.net.dragon`) that its owner's ownership calls alive with the owner to move and
dead with the opponent to move is a candidate; the `limit` largest such swings are read by the network one
move deep (`tengen.life.net.network_status`), and each group it finds critical gets a note on the
region holding its key move or its stones: "the White group at D17 dies if Black plays C18 first (White
saves it at C18)". The reading is a judgement by the network, not a proof, and the note says so.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

from tengen.go.board import Board
from tengen.go.colors import EMPTY
from tengen.go.coords import Point, to_gtp
from tengen.life.net import dragon, network_status, with_to_play

DEFAULT_LIMIT = 2  # groups read per analysis (each costs up to 22 network evaluations)
SWING = 0.5  # the owner's mean ownership must be above this with it to move and below -this with the other


@dataclass(frozen=True)
class CriticalGroup:
    """A group the side to move decides: `attack` kills it, `defense` saves it (judged by the network)."""

    stone: Point
    color: int
    size: int
    attack: Optional[Point]
    defense: Optional[Point]
    status: str  # critical (or ko) as network_status judged it

    def sentence(self, height: int, judge: str = "network") -> str:
        """The note a player reads; `judge` names the evaluator that judged it."""
        names = {1: "Black", -1: "White"}
        where = to_gtp(self.stone, height)
        attack = "a move" if self.attack is None else to_gtp(self.attack, height)
        text = f"the {names[self.color]} group at {where} ({self.size} stones) dies if {names[-self.color]} plays {attack} first"
        if self.defense is not None:
            text += f"; {names[self.color]} saves it at {to_gtp(self.defense, height)}"
        return text + f" (judged by the {judge} one move deep, not proved)"


def at_stake(board: Board, black_first: np.ndarray, white_first: np.ndarray, limit: int = DEFAULT_LIMIT) -> list[set[Point]]:
    """The `limit` groups whose owner's mean ownership swings from above SWING (owner to move) to below
    -SWING (opponent to move), largest swing times size first."""
    seen: set[Point] = set()
    found: list[tuple[float, set[Point]]] = []
    for r in range(board.height):
        for c in range(board.width):
            owner = board.get((r, c))
            if owner == EMPTY or (r, c) in seen:
                continue
            stones = dragon(board, (r, c))
            seen.update(stones)
            rows, cols = zip(*stones)
            own_first = black_first if owner == 1 else white_first
            other_first = white_first if owner == 1 else black_first
            life_owner = owner * float(np.mean(own_first[rows, cols]))
            life_other = owner * float(np.mean(other_first[rows, cols]))
            if life_owner > SWING and life_other < -SWING:
                found.append(((life_owner - life_other) * len(stones), stones))
    found.sort(key=lambda t: -t[0])
    return [stones for _, stones in found[:limit]]


def critical_groups(board: Board, evaluator, limit: int = DEFAULT_LIMIT) -> list[CriticalGroup]:
    """The groups at stake that the network confirms critical, with their key moves."""
    positions = [with_to_play(board, color) for color in (1, -1)]
    black_first, white_first = (np.asarray(e.ownership, dtype=float) for e in evaluator.evaluate(positions))
    out = []
    for stones in at_stake(board, black_first, white_first, limit):
        stone = min(stones)
        result = network_status(board, stone, evaluator)
        if result.status in ("critical", "ko"):
            out.append(CriticalGroup(stone, board.get(stone), len(stones), result.attack, result.defense,
                                     result.status))
    return out
