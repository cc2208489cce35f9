"""Influence models: Zobrist, Bouzy 5/21 and Manhattan cross-influence (drawn by `tengen.io.influence_report`).

Every model reads a stone array (BLACK = 1, WHITE = -1, EMPTY = 0) of shape (height, width), or a batch
of them (..., height, width), and returns an int32 map of the same shape, positive where Black dominates.
All three are vectorised numpy over the whole batch, so the same code serves one board in the CLI and
half a million boards when building training features.

Definitions (off-board points do not exist: they neither send nor receive anything):

* ``zobrist`` (A. Zobrist, 1969): stones start at +64 / -64, empty points at 0. Then four synchronous
  rounds: every point adds, for each of its (up to four) neighbours, the sign of that neighbour's value
  (+1, -1 or 0). A lone stone far from the edge ends at 76; its neighbours 10, the one-space jump point
  6, the diagonal point 8, and the map is zero beyond Manhattan distance 4.
* ``bouzy`` (B. Bouzy, 2003, "5/21"): stones start at +128 / -128. Five dilations then 21 erosions, each
  synchronous over the board. Dilation: a point >= 0 with no negative neighbour gains the number of its
  positive neighbours; symmetrically a point <= 0 with no positive neighbour loses the number of its
  negative neighbours. Erosion: a positive point loses 1 for each neighbour that is negative or zero,
  stopping at 0 (it never crosses zero); symmetrically for negative points. Territory is the set of
  empty points left non-zero.
* ``cross``: each stone projects ``max(0, peak - step * d)`` (signed by its color) onto every point at
  Manhattan distance ``d``; the map is the sum over stones. With the defaults (peak 10, step 2) the stone's
  own point gets 10, a neighbour 8, a one-space jump point 6, a two-space jump or knight's move point 4,
  distance 4 gets 2, and nothing reaches distance 5.

``territory`` turns a map into +1 / -1 marks on empty points.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

MODELS: tuple[str, ...] = ("zobrist", "bouzy", "cross")

# ---------------------------------------------------------------------------------------------- helpers


def as_stones(board: Any) -> np.ndarray:
    """Return the stone array of ``board``: an ndarray as is, or ``board.array()`` for a tengen Board."""
    if isinstance(board, np.ndarray):
        arr = board
    elif hasattr(board, "array"):
        arr = board.array()
    else:
        arr = np.asarray(board)
    if arr.ndim < 2:
        raise ValueError(f"a board needs at least two dimensions, got shape {arr.shape}")
    return arr


def _pad(a: np.ndarray, width: int = 1) -> np.ndarray:
    """Zero-pad the last two axes by ``width``."""
    pad = [(0, 0)] * (a.ndim - 2) + [(width, width), (width, width)]
    return np.pad(a, pad)


def neighbour_sum(a: np.ndarray) -> np.ndarray:
    """Sum of the four orthogonal neighbours of every point (off-board counts as 0)."""
    out = np.zeros_like(a)
    out[..., 1:, :] += a[..., :-1, :]
    out[..., :-1, :] += a[..., 1:, :]
    out[..., :, 1:] += a[..., :, :-1]
    out[..., :, :-1] += a[..., :, 1:]
    return out


def onboard_neighbours(height: int, width: int) -> np.ndarray:
    """Number of on-board neighbours of each point: 4 inside, 3 on an edge, 2 in a corner."""
    return neighbour_sum(np.ones((height, width), dtype=np.int32))


# --------------------------------------------------------------------------------------------- models


def zobrist(board: Any, rounds: int = 4, stone_value: int = 64) -> np.ndarray:
    """Zobrist influence: stones +-64, then ``rounds`` synchronous rounds of +-1 to each neighbour by sign."""
    stones = as_stones(board)
    v = stones.astype(np.int32) * stone_value
    for _ in range(rounds):
        v = v + neighbour_sum(np.sign(v))
    return v


def bouzy_dilate(v: np.ndarray) -> np.ndarray:
    """One Bouzy dilation: points untouched by the opposite sign gain their count of same-sign neighbours."""
    pos = neighbour_sum((v > 0).astype(v.dtype))
    neg = neighbour_sum((v < 0).astype(v.dtype))
    grow = np.where((v >= 0) & (neg == 0), pos, 0)
    shrink = np.where((v <= 0) & (pos == 0), neg, 0)
    return (v + grow - shrink).astype(v.dtype)


def bouzy_erode(v: np.ndarray, onboard: np.ndarray | None = None) -> np.ndarray:
    """One Bouzy erosion: lose 1 per neighbour of the opposite sign or zero, never crossing zero."""
    if onboard is None:
        onboard = onboard_neighbours(*v.shape[-2:])
    pos = neighbour_sum((v > 0).astype(v.dtype))
    neg = neighbour_sum((v < 0).astype(v.dtype))
    # A positive point loses (its neighbours that are not positive); a negative one (those not negative).
    loss_pos = onboard - pos
    loss_neg = onboard - neg
    out = np.where(v > 0, np.maximum(v - loss_pos, 0), v)
    return np.where(v < 0, np.minimum(v + loss_neg, 0), out).astype(v.dtype)


def bouzy(board: Any, dilations: int = 5, erosions: int = 21, stone_value: int = 128) -> np.ndarray:
    """Bouzy's mathematical-morphology influence (5 dilations, 21 erosions by default); stones are +-128."""
    stones = as_stones(board)
    # int16 is ample (|v| <= stone_value + 4 * dilations) and halves the memory traffic of big batches.
    dtype = np.int16 if stone_value + 4 * dilations < 2**14 else np.int32
    v = stones.astype(dtype) * dtype(stone_value)
    for _ in range(dilations):
        v = bouzy_dilate(v)
    onboard = onboard_neighbours(*v.shape[-2:]).astype(dtype)
    for _ in range(erosions):
        v = bouzy_erode(v, onboard)
    return v.astype(np.int32)


def cross_kernel(peak: int = 10, step: int = 2) -> np.ndarray:
    """The (2r+1) x (2r+1) kernel ``max(0, peak - step * manhattan_distance)`` used by ``cross``."""
    radius = max(0, (peak - 1) // step)
    r = np.arange(-radius, radius + 1)
    d = np.abs(r)[:, None] + np.abs(r)[None, :]
    return np.maximum(peak - step * d, 0).astype(np.int32)


def cross(board: Any, peak: int = 10, step: int = 2) -> np.ndarray:
    """Manhattan cross-influence: the sum over stones of ``+-max(0, peak - step * d)``."""
    stones = as_stones(board).astype(np.int32)
    kernel = cross_kernel(peak, step)
    radius = kernel.shape[0] // 2
    h, w = stones.shape[-2:]
    padded = _pad(stones, radius)
    out = np.zeros(stones.shape, dtype=np.int32)
    for dr in range(-radius, radius + 1):
        for dc in range(-radius, radius + 1):
            k = kernel[dr + radius, dc + radius]
            if k:
                # out[r, c] += k * stones[r + dr, c + dc]  (the kernel is symmetric)
                out += k * padded[..., radius + dr : radius + dr + h, radius + dc : radius + dc + w]
    return out


_MODEL_FUNCS: dict[str, Callable[[Any], np.ndarray]] = {"zobrist": zobrist, "bouzy": bouzy, "cross": cross}


def influence_map(board: Any, model: str = "bouzy") -> np.ndarray:
    """Influence of ``board`` (array (..., h, w) or tengen Board) under ``model`` in MODELS, int32, + = Black."""
    try:
        func = _MODEL_FUNCS[model]
    except KeyError:
        raise ValueError(f"unknown influence model {model!r}; choose from {', '.join(MODELS)}") from None
    return func(board)


def territory(board: Any, influence: np.ndarray, threshold: int = 0) -> np.ndarray:
    """int8 marks on empty points: +1 where influence > threshold (Black), -1 where < -threshold."""
    stones = as_stones(board)
    marks = np.where(influence > threshold, 1, np.where(influence < -threshold, -1, 0)).astype(np.int8)
    marks[stones != 0] = 0
    return marks
