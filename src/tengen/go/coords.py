"""Every coordinate conversion in tengen lives here.

Internal points are `(row, col)` with row 0 at the TOP (like SGF `aa` and KataGo tensors); `None` is a pass.

| system            | example (19x19)  | top-left | bottom-left | notes                         |
|-------------------|------------------|----------|-------------|-------------------------------|
| internal (row,col)| (15, 3)          | (0, 0)   | (18, 0)     | row 0 at the top              |
| flat index        | 15*19+3 = 288    | 0        | 342         | row-major, `row * width + col`|
| GTP vertex        | D4               | A19      | A1          | letters skip I, up to Z (25)  |
| SGF               | dp               | aa       | as          | col letter first, '' / tt pass|
"""
from __future__ import annotations

from typing import Optional

Point = tuple[int, int]
Move = Optional[Point]

GTP_COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
SGF_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


class CoordinateError(ValueError):
    """A vertex or SGF point that does not name a point on the board."""


def from_gtp(vertex: str, height: int, width: int | None = None) -> Move:
    """'D4' -> (height-4, 3); 'pass' -> None. Raises CoordinateError when malformed or off board."""
    width = height if width is None else width
    v = vertex.strip().upper()
    if v == "PASS":
        return None
    if len(v) < 2 or v[0] not in GTP_COLUMNS or not (v[1:].isascii() and v[1:].isdigit()):
        raise CoordinateError(f"invalid vertex {vertex!r}")
    col = GTP_COLUMNS.index(v[0])
    number = int(v[1:]) if len(v) <= 8 else 0  # longer: off any board (int() refuses over 4,300 digits)
    row = height - number
    if not (0 <= col < width and 0 <= row < height and number >= 1):
        raise CoordinateError(f"vertex {vertex!r} is off the {width}x{height} board")
    return row, col


def to_gtp(point: Move, height: int) -> str:
    """(row, col) -> 'D4'; None -> 'pass'."""
    if point is None:
        return "pass"
    row, col = point
    return f"{GTP_COLUMNS[col]}{height - row}"


def to_sgf(point: Move) -> str:
    """(3, 3) -> 'dd'; None -> '' (FF[4] pass)."""
    if point is None:
        return ""
    row, col = point
    return SGF_LETTERS[col] + SGF_LETTERS[row]


def neighbours(point: Point, height: int, width: int) -> list[Point]:
    """The up-to-four orthogonal neighbours on the board."""
    r, c = point
    out = []
    if r > 0:
        out.append((r - 1, c))
    if r < height - 1:
        out.append((r + 1, c))
    if c > 0:
        out.append((r, c - 1))
    if c < width - 1:
        out.append((r, c + 1))
    return out


def parse_point_list(text: str, height: int, width: int | None = None) -> list[Point]:
    """'C1,D1 E1' -> points (GTP vertices separated by commas or spaces); passes are rejected."""
    points = []
    for token in text.replace(",", " ").split():
        p = from_gtp(token, height, width)
        if p is None:
            raise CoordinateError("a pass is not a point")
        points.append(p)
    return points
