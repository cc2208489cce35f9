"""A one-move look by the network at the orthodox move before it is recommended.

The regions' local games assume the rest of the board is settled. A local move can still lose stones
outside its region (a self-atari in a shortage of liberties, a filled liberty the opponent then uses),
which no region's count sees. So the recommended move is compared with the network's own first policy
choice by the network's score lead one move later; when it is worse by more than `margin` points, the
policy move is recommended instead and the report says why.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from tengen.go.board import Board
from tengen.go.colors import BLACK
from tengen.go.coords import Move, Point, to_gtp

DEFAULT_MARGIN = 3.0  # points; the network's one-move score differences between sound endgame moves are smaller


@dataclass(frozen=True)
class MoveCheck:
    """The orthodox move, the network's policy move, each one's score lead for the mover one move later."""

    orthodox: Point
    policy: Point
    orthodox_score: float
    policy_score: float
    margin: float
    judge: str = "network"  # what the report calls the evaluator that looked (its `display_name`)

    @property
    def loss(self) -> float:
        """Points the orthodox move is behind the policy move by the network's look (negative: ahead)."""
        return self.policy_score - self.orthodox_score

    @property
    def overruled(self) -> bool:
        return self.loss > self.margin

    def region_note(self, height: int) -> str:
        """For the region whose move was overruled: its values cannot see what the move loses outside it."""
        return (f"the {self.judge}'s check: {to_gtp(self.orthodox, height)} loses {self.loss:.1f} points on the whole "
                "board one move later; this region's values do not see it")

    def reason(self, height: int, orthodox_reason: str) -> str:
        return (f"the {self.judge}'s policy move: the orthodox {to_gtp(self.orthodox, height)} ({orthodox_reason}) "
                f"is {self.loss:.1f} points worse one move later (a consequence outside the regions, or a misread region)")


def policy_move(board: Board, evaluator) -> Optional[Point]:
    """The network's most likely move for the side to play (None when that is a pass)."""
    return evaluator.evaluate([board])[0].top_moves(1)[0][0]


def check_move(board: Board, evaluator, move: Move, margin: float = DEFAULT_MARGIN,
               judge: str = "network") -> Optional[MoveCheck]:
    """Compare `move` for the side to play with the network's policy move (None when they agree, when
    either is a pass, or when `move` is illegal here); `judge` is what reports call the evaluator."""
    if move is None or not board.is_legal(board.to_play, move):
        return None
    best = policy_move(board, evaluator)
    if best is None or best == move:
        return None
    ours, theirs = scores_after(board, evaluator, (move, best))
    return MoveCheck(move, best, ours, theirs, margin, judge)


def scores_after(board: Board, evaluator, points: Sequence[Point]) -> list[float]:
    """The network's score lead after the side to play plays each point, from that side's view (one batch)."""
    mover = board.to_play
    after = []
    for point in points:
        b = board.copy()
        b.play(mover, point)
        after.append(b)
    sign = 1 if mover == BLACK else -1
    return [sign * e.score_lead for e in evaluator.evaluate(after)]
