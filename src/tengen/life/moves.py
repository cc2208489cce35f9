"""Candidate moves of the life-and-death search and their order: points near the group (its liberties,
its enclosed areas, second liberties when short of them, moves that capture or rescue short chains), ranked
by eye-shape vital points, urgency, contact with the group and a one-move look at the liberties."""
from __future__ import annotations

from typing import Optional

from tengen.life.eyes import EyeSpace


def played_score(nb, p: int, to_move: int, attacker: int, target: int, width: int, suicide: bool) -> float:
    """A one-move look: the mover's new liberties, captures, self-atari and the group's liberties left."""
    r, c = divmod(p, width)
    if nb.play(to_move, r, c, suicide) < 0:
        return -1000.0
    try:
        own = nb.liberties(r, c)
        captured = len(nb.last_captured())
        group = nb.liberties(target // width, target % width)
    finally:
        nb.undo()
    score = 3.0 * captured + (-4.0 if own == 1 and not captured else 0.0)
    if to_move == attacker:
        return score - 2.0 * group + min(own, 3)
    return score + 2.0 * group + min(own, 4)


def candidate_moves(nb, space: EyeSpace, to_move: int, attacker: int, target: int, width: int,
                    orth: list[list[int]], suicide: bool, hint: Optional[int], max_branch: int) -> list[int]:
    """The best `max_branch` points near the group for `to_move` (the table's move `hint` first)."""
    stones = nb.stones()
    points = set(space.liberties)
    for region in space.regions:
        points.update(p for p in region if stones[p] == 0)
    if len(space.liberties) <= 4:
        for lib in space.outside_liberties:
            points.update(n for n in orth[lib] if stones[n] == 0)
    points.update(space.rescue)
    urgent: set[int] = set()
    for libs in space.weak_attackers:
        points.update(libs)
        if len(libs) == 1:
            urgent.update(libs)
    scored = []
    for p in points:
        score = 0.0
        if p in space.vital:
            score += 10
        if p in urgent:
            score += 20
        for n in orth[p]:
            if stones[n] == 0:
                score += 1
            elif n in space.dragon:
                score += 1.5
                if to_move == attacker and len(space.liberties) <= 2:
                    score += 4
        score += played_score(nb, p, to_move, attacker, target, width, suicide)
        if p == hint:
            score += 100
        scored.append((-score, p))
    scored.sort()
    return [p for _, p in scored[:max_branch]]
