"""The compact form of one local-move example (what the dataset stores and the predictor builds): the board
as one uint8 code per point on a 19x19 canvas, the region mask, the recent local moves, the side to move,
the ko point and how many local moves were played. `tengen.eval.localnet.planes` turns batches of it into
network inputs, on whatever device the network runs.

Point indices are flat on the 19x19 canvas (row * 19 + column) whatever the board size, so a smaller board
sits in the canvas's top-left corner and the 723-output layout (361 White moves, 361 Black moves, no move)
is the same for every size.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

import numpy as np

from tengen.go.colors import BLACK, WHITE

CANVAS = 19
POINTS = CANVAS * CANVAS
OUTPUTS = 2 * POINTS + 1  # 361 White moves, 361 Black moves, no move
NO_MOVE = 2 * POINTS
RECENT = 4  # local moves the input remembers

# code = kind | liberties << 2: kind 0 off board, 1 empty, 2 black, 3 white; liberties capped at 3
OFF, EMPTY_CODE, BLACK_CODE, WHITE_CODE = 0, 1, 2, 3


def flat(point: tuple[int, int]) -> int:
    """The canvas index of a board point."""
    return point[0] * CANVAS + point[1]


def unflat(index: int) -> tuple[int, int]:
    return divmod(int(index), CANVAS)


def target_index(color: int, point: Optional[tuple[int, int]]) -> int:
    """Index in the 723 layout: White moves first, then Black moves, then no move (point None)."""
    if point is None:
        return NO_MOVE
    return flat(point) + (POINTS if color == BLACK else 0)


def ko_index(board, to_play: int) -> int:
    """The canvas index of the simple-ko point `to_play` may not retake now, or -1."""
    ko = board.ko
    return flat(ko[0]) if ko is not None and ko[1] == to_play else -1


def board_codes(board) -> np.ndarray:
    """uint8 (361,) codes of a tengen `Board` (kind and capped liberties per point), padded to the canvas."""
    if board.height > CANVAS or board.width > CANVAS:
        raise ValueError(f"the local-move network handles boards up to {CANVAS}x{CANVAS}")
    grid = board.array()
    codes = np.zeros((CANVAS, CANVAS), dtype=np.uint8)
    h, w = grid.shape
    kind = np.where(grid == BLACK, BLACK_CODE, np.where(grid == WHITE, WHITE_CODE, EMPTY_CODE)).astype(np.uint8)
    libs = np.zeros((h, w), dtype=np.uint8)
    done = np.zeros((h, w), dtype=bool)
    for r, c in zip(*np.nonzero(grid)):
        if done[r, c]:
            continue
        chain = board.chain((int(r), int(c)))
        n = min(3, len(board.chain_liberties((int(r), int(c)))))
        for p in chain:
            libs[p] = n
            done[p] = True
    codes[:h, :w] = kind | (libs << 2)
    return codes.reshape(-1)


@dataclass
class CompactBatch:
    """A batch of examples in compact numpy form (N rows); the arrays the dataset stores."""

    codes: np.ndarray  # uint8 (N, 361)
    region: np.ndarray  # bool (N, 361)
    recent: np.ndarray  # int16 (N, RECENT): canvas index of the k-th last local move, -1 none
    recent_color: np.ndarray  # int8 (N, RECENT): its color (0 none)
    to_play: np.ndarray  # int8 (N,)
    ko: np.ndarray  # int16 (N,): canvas index of the simple-ko point, -1 none
    depth: np.ndarray  # int8 (N,): local moves played so far

    def __len__(self) -> int:
        return len(self.to_play)


def compact_row(board, region_points, history: Sequence[tuple[int, Optional[tuple[int, int]]]],
                to_play: int) -> dict[str, np.ndarray]:
    """One example's compact arrays from a board (after the local moves in `history`), its region and the
    local history (color, point) from the region's root."""
    region = np.zeros(POINTS, dtype=bool)
    for p in region_points:
        region[flat(p)] = True
    recent = np.full(RECENT, -1, dtype=np.int16)
    recent_color = np.zeros(RECENT, dtype=np.int8)
    moves = [(c, p) for c, p in history if p is not None]
    for k, (color, point) in enumerate(reversed(moves[-RECENT:])):
        recent[k], recent_color[k] = flat(point), color
    return {"codes": board_codes(board), "region": region, "recent": recent, "recent_color": recent_color,
            "to_play": np.int8(to_play), "ko": np.int16(ko_index(board, to_play)), "depth": np.int8(min(len(history), 127))}


# What a stored example holds: the compact inputs and the labels (`tengen.train.localdata` shards from game
# records, `tengen.train.localdata.lesson_shards` from the exact solver)
EXAMPLE_FIELDS = tuple(CompactBatch.__dataclass_fields__) + ("target", "answer", "region_size", "seq_len")
LESSONS_DATASET = "solver-lessons-v1"  # the solver-taught examples' folder in the datasets cache


def stack_rows(rows: Sequence[dict[str, np.ndarray]]) -> CompactBatch:
    """Stack `compact_row` dicts into a CompactBatch."""
    return CompactBatch(**{k: np.stack([np.asarray(r[k]) for r in rows]) for k in CompactBatch.__dataclass_fields__})
