"""Why a region's best move lies outside its points: the report names a region's moves, and a move on the
region's boundary (the predictors propose the region and the points next to it) is said with its reason.

`outside_reason(board, points, color, move)` reads the position before the move, in this order: it captures
stones next to the region, it ataris them, it saves own stones in atari, it connects own chains that reach the
region, or else it simply stands next to the region (a boundary point: a block or an extension). A move
further away is said to be so. `note_outside_moves` puts one `outside move` note per such move on the result.
"""
from __future__ import annotations

from typing import Iterable, Optional, Sequence

from tengen.endgame.notes import Note
from tengen.endgame.results import RegionResult, region_label
from tengen.go.board import Board
from tengen.go.colors import BLACK, EMPTY, WHITE
from tengen.go.coords import Point, neighbours, to_gtp


def _names(points: Iterable[Point], height: int) -> str:
    return " ".join(to_gtp(p, height) for p in sorted(points))


def _touches(board: Board, chain: list[Point], points: set[Point]) -> bool:
    """Whether the chain lies in the region or next to it."""
    h, w = board.height, board.width
    return any(p in points or any(q in points for q in neighbours(p, h, w)) for p in chain)


def _reason(board: Board, points: set[Point], color: int, move: Point) -> tuple[str, str]:
    """(kind, sentence) of a move outside the region: kind one of capture, atari, save, connect, boundary, near."""
    h, w, name = board.height, board.width, to_gtp(move, board.height)
    around = list(neighbours(move, h, w))
    seen: set[Point] = set()
    opponent_chains, own_chains = [], []
    for q in around:
        stone = board.get(q)
        if stone == EMPTY or q in seen:
            continue
        chain = board.chain(q)
        seen.update(chain)
        (own_chains if stone == color else opponent_chains).append(chain)
    near = [c for c in opponent_chains if _touches(board, c, points)]
    captured = [c for c in near if len(board.chain_liberties(c[0])) == 1]
    if captured:
        stones = [p for c in captured for p in c]
        return "capture", f"{name} lies outside the region: it captures {_names(stones, h)} next to it"
    atari = [c for c in near if len(board.chain_liberties(c[0])) == 2]
    if atari:
        return "atari", f"{name} lies outside the region: it ataris {_names([p for c in atari for p in c], h)} next to it"
    mine = [c for c in own_chains if _touches(board, c, points)]
    short = [c for c in mine if len(board.chain_liberties(c[0])) == 1]
    if short:
        return "save", (f"{name} lies outside the region: it gives {_names([p for c in short for p in c], h)} "
                        "(in atari) more liberties")
    if len(own_chains) >= 2 and mine:
        return "connect", f"{name} lies outside the region: it connects {' and '.join(_names(c, h) for c in own_chains)}"
    if any(q in points for q in around):
        side = "Black" if color == BLACK else "White"
        return "boundary", f"{name} lies outside the region, next to it: {side} takes a boundary point (a block or an extension)"
    return "near", f"{name} lies outside the region, near it (within the predictors' reach of its boundary)"


def outside_reason(board: Board, points: set[Point], color: int, move: Point) -> Optional[str]:
    """What `color`'s move at `move` does for the region `points` (None when the move is one of its points)."""
    return None if move in points else _reason(board, points, color, move)[1]


def note_outside_moves(result: RegionResult, board: Board, others: Sequence[RegionResult] = ()) -> None:
    """An `outside move` note for each of the region's best moves that is not one of its points (one note
    for a point both colours' best moves share, where it does the same for both: a boundary point). A move
    that is a point of another of `others` (the analysis's regions, in order) says so: one move in two
    regions, whose values then are not independent (the sum of their values assumes they are)."""
    points = set(result.region.points)
    owner = {p: region_label(i) for i, other in enumerate(others) if other is not result for p in other.region.points}
    said: list[str] = []
    shared = set(result.best_black) & set(result.best_white)
    for color, moves in ((BLACK, result.best_black), (WHITE, result.best_white)):
        for move in moves:
            if move is None or move in points:
                continue
            kind, why = _reason(board, points, color, move)
            if kind == "boundary" and move in shared:
                why = f"{to_gtp(move, board.height)} lies outside the region, next to it: a boundary point both sides want"
            if move in owner:
                why += (f"; it is a point of region {owner[move]} too: one move in two regions, which interact "
                        "(their values are added as if independent)")
            if why not in said and why not in result.notes:
                said.append(why)
    result.notes.extend(Note("outside move", why) for why in said)
