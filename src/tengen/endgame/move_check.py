"""A whole-board look at the orthodox move before it is recommended.

The regions' local games assume the rest of the board is settled. A local move can still lose stones
outside its region (a self-atari in a shortage of liberties, a filled liberty the opponent then uses),
which no region's count sees, and a region's tree can misread its own value. So the recommended move is
compared with the network's own first policy choice by a look at the position after each: the network's
score lead one move later (`NetworkLook`, one evaluation each), or a search from each position (a
`MoveLook` the caller gives: `tengen.search.move_look.SearchLook`, which the library's analysis uses);
when the orthodox move is worse than the best of them by more than the look's margin, the likeliest of the
network's moves within that margin of the best is recommended instead (the look cannot tell such moves apart;
the network's order can), and the report says why.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Protocol, Sequence, runtime_checkable

from tengen.go.board import Board
from tengen.go.colors import BLACK
from tengen.go.coords import Move, Point, to_gtp

DEFAULT_MARGIN = 3.0  # points; the network's one-move score differences between sound endgame moves are smaller


@runtime_checkable
class MoveLook(Protocol):
    """How the orthodox move is compared with the policy move: `leads_after(board, moves)`, the mover's score
    lead after each move; `how`, the words a report uses ("one move later", "by a 32-visit search")."""

    how: str
    margin: float  # points by which the policy move must be ahead to overrule the orthodox one
    alternatives: int  # how many of the network's likeliest moves are compared with the orthodox one

    def leads_after(self, board: Board, moves: Sequence[Point]) -> list[float]:
        ...


class NetworkLook:
    """The network's score lead one move later (one evaluation per move, one batch)."""

    how = "one move later"
    alternatives = 1

    def __init__(self, evaluator, margin: float = DEFAULT_MARGIN):
        self.evaluator, self.margin = evaluator, margin

    def leads_after(self, board: Board, moves: Sequence[Point]) -> list[float]:
        return scores_after(board, self.evaluator, moves)


@dataclass(frozen=True)
class MoveCheck:
    """The orthodox move, the network's policy move, each one's score lead for the mover one move later."""

    orthodox: Optional[Point]  # None: the regions' values say pass (nothing gains)
    policy: Point
    orthodox_score: float
    policy_score: float
    margin: float
    judge: str = "network"  # what the report calls the evaluator that looked (its `display_name`)
    how: str = "one move later"  # the look (`MoveLook.how`)
    alternatives: int = 1  # the network's likeliest moves compared: `policy` is the likeliest within the margin of the best
    best_score: Optional[float] = None  # the best of their leads by the look (None: `policy_score`)

    @property
    def loss(self) -> float:
        """Points the orthodox move is behind the best of the network's moves by the look (negative: ahead)."""
        return (self.policy_score if self.best_score is None else self.best_score) - self.orthodox_score

    @property
    def overruled(self) -> bool:
        return self.loss > self.margin

    def region_note(self, height: int) -> str:
        """For the region whose move was overruled: its values cannot see what the move loses outside it."""
        return (f"the {self.judge}'s check: {to_gtp(self.orthodox, height)} loses {self.loss:.1f} points on the whole "
                f"board {self.how}; this region's values do not see it")

    def reason(self, height: int, orthodox_reason: str) -> str:
        which = ("the {j}'s policy move" if self.alternatives == 1 else
                 f"the best of the {{j}}'s {self.alternatives} likeliest moves (ties within {self.margin:g} points "
                 f"to the likeliest)").format(j=self.judge)
        orthodox = "passing" if self.orthodox is None else f"the orthodox {to_gtp(self.orthodox, height)}"
        return (f"{which}: {orthodox} ({orthodox_reason}) "
                f"is {self.loss:.1f} points worse {self.how} (a consequence outside the regions, or a misread region)")


def policy_move(board: Board, evaluator) -> Optional[Point]:
    """The network's most likely move for the side to play (None when that is a pass)."""
    return evaluator.evaluate([board])[0].top_moves(1)[0][0]


def check_move(board: Board, evaluator, move: Move, margin: float = DEFAULT_MARGIN,
               judge: str = "network", look: Optional[MoveLook] = None) -> Optional[MoveCheck]:
    """Compare `move` for the side to play (None: a pass, where the regions see nothing to gain) with the
    network's likeliest moves by `look` (default `NetworkLook` with `margin`; a given look brings its own margin):
    the check's `policy` is the likeliest of them within the margin of the best; None when the network's first
    choice is `move` or a pass, or when `move` is illegal here; `judge` is what reports call the evaluator."""
    if move is not None and not board.is_legal(board.to_play, move):
        return None
    look = look or NetworkLook(evaluator, margin)
    likeliest = [p for p, _ in evaluator.evaluate([board])[0].top_moves(look.alternatives + 1)]
    if not likeliest or likeliest[0] is None or likeliest[0] == move:
        return None  # the network's first choice is a pass, or agrees
    others = [p for p in likeliest if p is not None and p != move and board.is_legal(board.to_play, p)]
    others = others[:look.alternatives]
    ours, *theirs = look.leads_after(board, [move, *others])
    top = max(theirs)
    chosen = next(i for i, lead in enumerate(theirs) if lead >= top - look.margin)  # `others` is in the network's order
    return MoveCheck(move, others[chosen], ours, theirs[chosen], look.margin, judge, look.how, look.alternatives, top)


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
