"""Areas between the living chains: one colour's enclosed areas (its own; opponent stones in one too
small for two eyes are dead), sealed regions (small areas touching both colours' settled stones: local
games) and the open rest (left to influence)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from tengen.eval.classic.config import ClassicConfig
from tengen.eval.classic.groups import Chain
from tengen.go.coords import Point, neighbours
from tengen.go.grid import components


@dataclass
class Areas:
    """The enclosed areas' owners (+1 / -1 per point, 0 elsewhere), the sealed regions, the open areas."""

    owner: np.ndarray
    sealed: list[list[Point]] = field(default_factory=list)
    open: list[list[Point]] = field(default_factory=list)
    small_dead: list[Chain] = field(default_factory=list)


def find_areas(grid: np.ndarray, chains: list[Chain], config: ClassicConfig,
               claimed: Optional[dict[Point, int]] = None) -> Areas:
    """Split the points off the living chains (and off the `claimed` points: dead stones for their
    captor, the urgent move's point for its player) into enclosed, sealed and open areas."""
    h, w = grid.shape
    living = np.zeros((h, w), dtype=np.int8)
    by_point: dict[Point, Chain] = {}
    for c in chains:
        for p in c.stones:
            by_point[p] = c
            if c.lives:
                living[p] = c.color
    for p, color in (claimed or {}).items():
        living[p] = color
    areas = Areas(np.zeros((h, w), dtype=np.int8))
    limit = config.enclosed_limit(h * w)
    for comp in components(living == 0):
        touching = {int(living[q]) for p in comp for q in neighbours(p, h, w) if living[q] != 0}
        if len(touching) == 1 and len(comp) <= limit:
            color = touching.pop()
            small = len(comp) <= config.small_area
            for p in comp:
                if grid[p] == 0 or by_point[p].fate == -1 or (small and grid[p] == -color):
                    areas.owner[p] = color
            if small:
                for chain in {id(by_point[p]): by_point[p] for p in comp if grid[p] == -color}.values():
                    if chain.fate != -1:
                        chain.status, chain.fate = "dead", -1
                        areas.small_dead.append(chain)
        elif len(touching) == 2 and len(comp) <= config.sealed_max:
            areas.sealed.append(comp)
        else:
            areas.open.append(comp)
    return areas
