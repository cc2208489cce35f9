"""The PBN's regions on a 19x19 board: the 9x9 corner quadrants, the 5x19 side strips and "combined" (a corner's
quadrant with its two strips), each read in one canonical orientation with the player to move as +1.

Decisions (Cortigo leaves them open):
- Canonical frames. `corner`: a 9x9 grid, the corner point at canonical (0, 0) (rows and columns 0..8 of the
  board for the top-left corner, mirrored for the others). `side`: a 5x19 grid, canonical row 0 on the edge,
  canonical row r = distance r from that edge, canonical column c = the board's column (top, bottom) or row
  (left, right) c. `combined`: a 19x19 grid with a mask, the union of the top-left 9x9 quadrant, rows 0..4 and
  columns 0..4 (181 points, an L-shape), mirrored for the other corners.
- Symmetry. Each instance maps onto its canonical frame by a reflection (corners: a row and/or a column flip;
  bottom side: a row flip; left and right sides: a transposition, then a flip for the right). The corners'
  remaining diagonal symmetry is not folded: a pattern and its transpose are two patterns, as a player sees them.
- Colour. The region's stones are multiplied by the colour to move, so the player to move is always +1
  ("black") and the opponent -1; level-1 values are 0 = empty, 1 = own ("black"), 2 = opponent ("white").
- Instances of a kind overlap (a point near the top-left corner lies in the top and the left strip, and in up to
  three combined L-shapes); each instance is a separate sample and each predicts moves in its own points.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

BOARD = 19
KINDS: tuple[str, ...] = ("corner", "side", "combined")
CORNER_SIZE, SIDE_DEPTH = 9, 5
# Instance names in the order every (instances, points) array uses.
INSTANCES: dict[str, tuple[str, ...]] = {
    "corner": ("top-left", "top-right", "bottom-left", "bottom-right"),
    "side": ("top", "bottom", "left", "right"),
    "combined": ("top-left", "top-right", "bottom-left", "bottom-right"),
}


@dataclass(frozen=True)
class RegionKind:
    """A canonical region: its grid shape, the mask of its points in it, and for each instance on the board the
    flat board index of every region point (points in row-major canonical order)."""

    name: str
    shape: tuple[int, int]
    mask: np.ndarray  # bool (H, W)
    board_index: np.ndarray  # int (instances, points): flat 19x19 index of canonical point p

    @property
    def points(self) -> int:
        """How many points the region has (the top node's number of values)."""
        return int(self.mask.sum())

    @property
    def cells(self) -> np.ndarray:
        """(points, 2) canonical (row, col) of each region point."""
        return np.argwhere(self.mask)


def _flip(r: np.ndarray, c: np.ndarray, flip_r: bool, flip_c: bool) -> tuple[np.ndarray, np.ndarray]:
    """Board coordinates of canonical corner-frame (r, c) under a row and/or column flip."""
    return (BOARD - 1 - r if flip_r else r), (BOARD - 1 - c if flip_c else c)


@lru_cache(maxsize=None)
def region_kind(name: str) -> RegionKind:
    """The canonical frame and instance maps of `corner`, `side` or `combined`."""
    if name == "corner":
        mask = np.ones((CORNER_SIZE, CORNER_SIZE), bool)
    elif name == "side":
        mask = np.ones((SIDE_DEPTH, BOARD), bool)
    elif name == "combined":
        mask = np.zeros((BOARD, BOARD), bool)
        mask[:CORNER_SIZE, :CORNER_SIZE] = True
        mask[:SIDE_DEPTH, :] = True
        mask[:, :SIDE_DEPTH] = True
    else:
        raise ValueError(f"region kind must be one of {KINDS}, not {name!r}")
    r, c = np.nonzero(mask)
    rows = []
    if name == "side":
        maps = [(r, c), (BOARD - 1 - r, c), (c, r), (c, BOARD - 1 - r)]
    else:
        maps = [_flip(r, c, fr, fc) for fr, fc in ((False, False), (False, True), (True, False), (True, True))]
    for br, bc in maps:
        rows.append(br * BOARD + bc)
    index = np.stack(rows).astype(np.int64)
    index.setflags(write=False)
    mask.setflags(write=False)
    return RegionKind(name, mask.shape, mask, index)


def encode(stones: np.ndarray) -> np.ndarray:
    """Stones from the mover's side (+1 own, -1 opponent, 0 empty) as level-1 values 0 empty, 1 own, 2 opponent."""
    s = np.asarray(stones, dtype=np.int8)
    return np.where(s > 0, 1, np.where(s < 0, 2, 0)).astype(np.int8)


def region_stones(board: np.ndarray, to_play: int, kind: str) -> np.ndarray:
    """(instances, points) level-1 values of every instance of `kind` on a (19, 19) or (N, 19, 19) board array,
    colour-normalised so the player to move is "black" (value 1); a leading batch axis is kept."""
    rk = region_kind(kind)
    arr = np.asarray(board, dtype=np.int8)
    flat = arr.reshape(arr.shape[:-2] + (BOARD * BOARD,))
    if np.ndim(to_play) == 0:
        signed = flat * np.int8(to_play)
    else:
        signed = flat * np.asarray(to_play, dtype=np.int8).reshape((-1, 1))
    return encode(signed[..., rk.board_index])


def to_board(kind: str, values: np.ndarray) -> np.ndarray:
    """(instances, points) values spread onto a (instances, 19, 19) board, 0 outside each instance."""
    rk = region_kind(kind)
    out = np.zeros((values.shape[0], BOARD * BOARD), dtype=np.float64)
    np.put_along_axis(out, rk.board_index, values, axis=1)
    return out.reshape(values.shape[0], BOARD, BOARD)


def stone_count_of(points: np.ndarray) -> np.ndarray:
    """Stones in each region from level-1 values (..., P): the key of the per-stone-count models."""
    return (np.asarray(points) > 0).sum(axis=-1)
