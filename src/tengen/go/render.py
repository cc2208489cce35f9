"""A Board drawn as an ASCII diagram for people (`str(board)`, `tengen show`, GTP's showboard), in the
alphabet `tengen.go.diagram` reads back: `X` Black, `O` White, `.` empty, GTP coordinates around."""
from __future__ import annotations

from typing import Optional

import numpy as np

from tengen.go.colors import BLACK, EMPTY, WHITE
from tengen.go.coords import GTP_COLUMNS, Point

SYMBOL = {BLACK: "X", WHITE: "O", EMPTY: "."}


def render_array(grid: np.ndarray, labels: Optional[dict[Point, str]] = None, coordinates: bool = True) -> str:
    """Render a stone array with GTP coordinates; `labels` overrides the character at given points."""
    h, w = grid.shape
    labels = labels or {}
    lines = []
    for r in range(h):
        cells = [labels.get((r, c), SYMBOL[int(grid[r, c])]) for c in range(w)]
        prefix = f"{h - r:>2} " if coordinates else ""
        lines.append(prefix + " ".join(cells))
    if coordinates:
        lines.append("   " + " ".join(GTP_COLUMNS[:w]))
    return "\n".join(lines)


def render(board, last_move: bool = True) -> str:
    """Render a Board: stones, the last move in parentheses-free form as a lowercase mark, and the ko."""
    grid = board.array()
    labels: dict[Point, str] = {}
    if last_move and board.moves and board.moves[-1][1] is not None:
        p = board.moves[-1][1]
        labels[p] = "x" if grid[p] == BLACK else "o"
    if board.ko_point is not None:
        labels[board.ko_point] = "#"
    return render_array(grid, labels)
