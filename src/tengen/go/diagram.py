"""ASCII board diagrams parsed into boards (tests and fixtures); `tengen.go.render` draws them.

Diagram alphabet: `X` Black, `O` White, `.` (or `+`, `,`) empty; other marks (`*`, `a`..) are returned as
labelled points so fixtures can name regions or expected moves.
"""
from __future__ import annotations

import numpy as np

from tengen.go.colors import BLACK, EMPTY, WHITE
from tengen.go.coords import GTP_COLUMNS, Point

STONE_CHARS = {"X": BLACK, "x": BLACK, "O": WHITE, "o": WHITE, ".": EMPTY, "+": EMPTY, ",": EMPTY}


def parse_diagram(text: str) -> tuple[np.ndarray, dict[str, list[Point]]]:
    """Parse rows of stone characters (blank-separated or not; coordinate labels ignored).

    Returns the int8 stone array (row 0 = first row) and {mark: points} for any other characters,
    which stand on empty points.
    """
    rows: list[list[str]] = []
    for line in text.strip("\n").splitlines():
        tokens = line.split()
        if not tokens:
            continue
        if tokens[0].isdigit():
            tokens = tokens[1:]
        if not tokens or all(len(t) == 1 and t in GTP_COLUMNS for t in tokens) and "X" not in tokens and "O" not in tokens and len(tokens) > 1 and tokens == sorted(tokens):
            continue  # a column-label line
        cells = list("".join(tokens)) if all(len(t) > 1 for t in tokens) else tokens
        rows.append(cells)
    if not rows or len({len(r) for r in rows}) != 1:
        raise ValueError("diagram rows must be non-empty and of equal length")
    grid = np.zeros((len(rows), len(rows[0])), dtype=np.int8)
    marks: dict[str, list[Point]] = {}
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch in STONE_CHARS:
                grid[r, c] = STONE_CHARS[ch]
            else:
                marks.setdefault(ch, []).append((r, c))
    return grid, marks


def board_from_diagram(text: str, rules=None):
    """A Board holding the diagram's stones (setup, not moves)."""
    from tengen.go.board import Board

    grid, _ = parse_diagram(text)
    board = Board(grid.shape[1], grid.shape[0], rules=rules)
    board.set_array(grid)
    return board
