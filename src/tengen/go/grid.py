"""Connectivity on boolean masks over the board (4-neighbour components), shared by every layer."""
from __future__ import annotations

import numpy as np

from tengen.go.coords import Point, neighbours


def components(mask: np.ndarray) -> list[list[Point]]:
    """4-connected components of a boolean mask, each sorted, in reading order of their first point."""
    h, w = mask.shape
    seen = np.zeros_like(mask, dtype=bool)
    out = []
    for r in range(h):
        for c in range(w):
            if not mask[r, c] or seen[r, c]:
                continue
            comp, todo = [], [(r, c)]
            seen[r, c] = True
            while todo:
                p = todo.pop()
                comp.append(p)
                for n in neighbours(p, h, w):
                    if mask[n] and not seen[n]:
                        seen[n] = True
                        todo.append(n)
            out.append(sorted(comp))
    return out


def touching_colors(points: list[Point], grid: np.ndarray) -> set[int]:
    """The stone colors adjacent to a set of points."""
    h, w = grid.shape
    return {int(grid[n]) for p in points for n in neighbours(p, h, w) if grid[n] != 0}
