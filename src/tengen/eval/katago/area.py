"""The area map KataGo feeds its networks (input features 18 and 19) under area scoring.

Benson's algorithm marks each player's pass-alive chains and the regions they make safe; KataGo then
also gives each player small regions (at most one point not touching the player) and "big territories"
(empty-or-opponent regions with no opponent stone) bordered only by the player, and finally every
remaining stone to its own color. Learned from `Board::calculateArea` / `calculateAreaForPla` in
KataGo's `cpp/game/board.cpp`; `tengen.go.benson` computes the plain pass-alive part.
"""
from __future__ import annotations

import numpy as np

WALL = 2


def _padded(grid: np.ndarray) -> tuple[list[int], int]:
    h, w = grid.shape
    cells = np.full((h + 2, w + 2), WALL, dtype=np.int8)
    cells[1:-1, 1:-1] = grid
    return cells.reshape(-1).tolist(), w + 2


def _area_for(colors: list[int], stride: int, h: int, w: int, pla: int, suicide_legal: bool,
              result: list[int], big_territories: bool = True) -> None:
    """Mark `pla`'s pass-alive stones and safe regions (and big territories) into `result` (in place)."""
    opp = -pla
    adj = (-stride, -1, 1, stride)
    n = len(colors)
    # pla chains
    chain_of = [-1] * n
    chains: list[list[int]] = []
    for loc in range(n):
        if colors[loc] == pla and chain_of[loc] < 0:
            cid = len(chains)
            stones = [loc]
            chain_of[loc] = cid
            i = 0
            while i < len(stones):
                cur = stones[i]
                i += 1
                for d in adj:
                    nb = cur + d
                    if colors[nb] == pla and chain_of[nb] < 0:
                        chain_of[nb] = cid
                        stones.append(nb)
            chains.append(stones)
    at_least_one = bool(chains)

    # regions of empty-or-opp points, each started from an empty point (scan order as KataGo)
    region_of = [-1] * n
    regions: list[list[int]] = []
    vital: list[list[int]] = []
    internal: list[int] = []
    contains_opp: list[bool] = []
    for r in range(h):
        for c in range(w):
            loc = (r + 1) * stride + c + 1
            if region_of[loc] >= 0 or colors[loc] != 0:
                continue
            rid = len(regions)
            cand: list[int] = []
            for d in adj:
                cid = chain_of[loc + d]
                if cid >= 0 and cid not in cand:
                    cand.append(cid)
            pts = [loc]
            region_of[loc] = rid
            n_internal = 0
            has_opp = False
            i = 0
            while i < len(pts):
                cur = pts[i]
                i += 1
                if cand and (suicide_legal or colors[cur] == 0):
                    near = {chain_of[cur + d] for d in adj}
                    cand = [cid for cid in cand if cid in near]
                if n_internal < 2 and not any(colors[cur + d] == pla for d in adj):
                    n_internal += 1
                if colors[cur] == opp:
                    has_opp = True
                for d in adj:
                    nb = cur + d
                    if (colors[nb] == 0 or colors[nb] == opp) and region_of[nb] < 0:
                        region_of[nb] = rid
                        pts.append(nb)
            regions.append(pts)
            vital.append(cand)
            internal.append(n_internal)
            contains_opp.append(has_opp)

    vital_count = [0] * len(chains)
    for cids in vital:
        for cid in cids:
            vital_count[cid] += 1
    killed = [False] * len(chains)
    borders_dead = [False] * len(regions)
    changed = True
    while changed:
        changed = False
        for cid, stones in enumerate(chains):
            if killed[cid] or vital_count[cid] >= 2:
                continue
            killed[cid] = True
            changed = True
            for s in stones:
                for d in adj:
                    nb = s + d
                    rid = region_of[nb]
                    if rid >= 0 and not borders_dead[rid] and colors[nb] in (0, opp):
                        borders_dead[rid] = True
                        for other in vital[rid]:
                            vital_count[other] -= 1

    for cid, stones in enumerate(chains):
        if not killed[cid]:
            for s in stones:
                result[s] = pla
    for rid, pts in enumerate(regions):
        safe = internal[rid] <= 1 and not borders_dead[rid] and at_least_one
        safe = safe or (big_territories and not contains_opp[rid] and not borders_dead[rid] and at_least_one)
        if safe:
            for p in pts:
                result[p] = pla
        elif big_territories and not contains_opp[rid] and at_least_one:
            for p in pts:
                if result[p] == 0:
                    result[p] = pla


def kata_area(grid: np.ndarray, suicide_legal: bool = False) -> np.ndarray:
    """int8 (height, width): +1 / -1 where KataGo's area feature gives the point to Black / White, else 0.

    Includes pass-alive stones and regions, big territories and (last) every other stone as its color;
    empty points between both colors (dame, contested space) stay 0.
    """
    grid = np.asarray(grid, dtype=np.int8)
    h, w = grid.shape
    colors, stride = _padded(grid)
    result = [0] * len(colors)
    for pla in (1, -1):
        _area_for(colors, stride, h, w, pla, suicide_legal, result)
    out = np.array(result, dtype=np.int8).reshape(h + 2, w + 2)[1:-1, 1:-1].copy()
    out[out == 0] = grid[out == 0]
    return out


def pass_alive(grid: np.ndarray, suicide_legal: bool = False) -> np.ndarray:
    """int8 (height, width): pass-alive stones and the regions they make safe (Benson), +1 Black, -1 White."""
    grid = np.asarray(grid, dtype=np.int8)
    h, w = grid.shape
    colors, stride = _padded(grid)
    result = [0] * len(colors)
    for pla in (1, -1):
        _area_for(colors, stride, h, w, pla, suicide_legal, result, big_territories=False)
    return np.array(result, dtype=np.int8).reshape(h + 2, w + 2)[1:-1, 1:-1].copy()
