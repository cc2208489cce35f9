"""A life-and-death problem's area, its attacker, and the frame that settles the rest of the board.

A problem diagram (a corner or a side with a few stones, the rest of the board empty) is not a position a
network was trained on: an empty board around the problem makes every group look weak. The usual remedy
(the "tsumego frame" of Lizgoban and KaTrain, written here from that idea, not their code) fills the board
outside the problem with settled stones: a wall of the attacker's around the problem, then the
attacker's and the defender's solid areas, each riddled with single-point eyes so that every frame chain is
unconditionally alive. Inside the problem's box nothing changes.

The box is the stones' bounding box widened by `margin`, reaching the edge where it comes within
`near_edge` of it. The attacker is guessed from geometry: the side whose stones lie farther from the edges
the box touches (it surrounds from outside); a centre problem compares distances from the box's centre.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Optional

from tengen.go.board import Board
from tengen.go.colors import BLACK, EMPTY, WHITE
from tengen.go.coords import Point, neighbours

MARGIN = 1  # empty lines kept around the stones inside the box
NEAR_EDGE = 2  # a box this close to an edge reaches it


@dataclass(frozen=True)
class Box:
    """Rows `top`..`bottom` and columns `left`..`right`, inclusive."""

    top: int
    bottom: int
    left: int
    right: int

    def __contains__(self, point: Point) -> bool:
        return self.top <= point[0] <= self.bottom and self.left <= point[1] <= self.right

    def points(self) -> Iterator[Point]:
        for r in range(self.top, self.bottom + 1):
            for c in range(self.left, self.right + 1):
                yield r, c

    def distance(self, point: Point) -> int:
        """Chebyshev distance from the box (0 inside)."""
        dr = max(self.top - point[0], 0, point[0] - self.bottom)
        dc = max(self.left - point[1], 0, point[1] - self.right)
        return max(dr, dc)


def problem_box(board: Board, margin: int = MARGIN, near_edge: int = NEAR_EDGE) -> Box:
    """The stones' bounding box widened by `margin`, reaching an edge it comes within `near_edge` of."""
    stones = [(r, c) for r in range(board.height) for c in range(board.width) if board.get((r, c)) != EMPTY]
    if not stones:
        raise ValueError("the problem has no stones")
    rows = [p[0] for p in stones]
    cols = [p[1] for p in stones]
    top, bottom = max(0, min(rows) - margin), min(board.height - 1, max(rows) + margin)
    left, right = max(0, min(cols) - margin), min(board.width - 1, max(cols) + margin)
    top = 0 if top <= near_edge else top
    left = 0 if left <= near_edge else left
    bottom = board.height - 1 if bottom >= board.height - 1 - near_edge else bottom
    right = board.width - 1 if right >= board.width - 1 - near_edge else right
    return Box(top, bottom, left, right)


def guess_attacker(board: Board, box: Box) -> int:
    """The colour that surrounds: its stones lie farther from the edges the box touches (ties: White, the
    usual attacker of a Black-to-live diagram; a colour without stones defends nothing)."""
    edges = _touched_edges(board, box)
    centre = ((box.top + box.bottom) / 2, (box.left + box.right) / 2)

    def reach(point: Point) -> float:
        if edges:
            return min(_edge_distance(point, edge, board) for edge in edges)
        return max(abs(point[0] - centre[0]), abs(point[1] - centre[1]))

    mean = {}
    for color in (BLACK, WHITE):
        distances = [reach(p) for p in box.points() if board.get(p) == color]
        mean[color] = sum(distances) / len(distances) if distances else None
    if mean[BLACK] is None or mean[WHITE] is None:
        return BLACK if mean[WHITE] is not None else WHITE
    return BLACK if mean[BLACK] > mean[WHITE] else WHITE


def framed(board: Board, box: Optional[Box] = None, attacker: Optional[int] = None) -> Board:
    """A copy of `board` whose points outside `box` hold the frame (see the module doc); the side to move,
    komi and rules are kept. The board itself is returned unchanged when the box leaves no room for a
    frame (two lines or fewer outside it)."""
    box = problem_box(board) if box is None else box
    attacker = guess_attacker(board, box) if attacker is None else attacker
    outside = sorted((p for p in _all_points(board) if p not in box), key=box.distance)
    if len(outside) < 2 * (board.width + board.height):
        return board.copy()
    split = box.distance(outside[len(outside) // 2])  # about half the outside to each side
    colour = {p: (attacker if box.distance(p) <= max(split, 1) else -attacker) for p in outside}
    black, white, empty = [], [], []
    for p in outside:
        hole = (box.distance(p) >= 2 and (p[0] + 2 * p[1]) % 5 == 0
                and all(colour.get(q) == colour[p] for q in neighbours(p, board.height, board.width)))
        if hole:
            empty.append(p)
        else:
            (black if colour[p] == BLACK else white).append(p)
    out = board.copy()
    out.setup(black=black, white=white, empty=empty)
    out.to_play = board.to_play
    if any(out.liberties(chain[0]) == 0 for chain in out.chains()):
        return board.copy()
    return out


def _all_points(board: Board) -> Iterator[Point]:
    for r in range(board.height):
        for c in range(board.width):
            yield r, c


def _touched_edges(board: Board, box: Box) -> list[str]:
    edges = []
    if box.top == 0:
        edges.append("top")
    if box.bottom == board.height - 1:
        edges.append("bottom")
    if box.left == 0:
        edges.append("left")
    if box.right == board.width - 1:
        edges.append("right")
    return edges if len(edges) < 4 else []


def _edge_distance(point: Point, edge: str, board: Board) -> int:
    return {"top": point[0], "bottom": board.height - 1 - point[0], "left": point[1],
            "right": board.width - 1 - point[1]}[edge]
