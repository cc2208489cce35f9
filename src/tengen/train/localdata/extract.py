"""From one labelled position of a game to local-move examples (pure functions, no network).

Undecided points (-threshold < ownership < threshold) form 4-connected local positions. Points that looked
settled but did not end with the same owner (the final ownership's sign differs) are blacklisted. Every
other point joins the nearest local position (multi-source BFS through non-blacklisted points), and each
later move of the game goes to its point's local position: one local sequence per region, colours not
necessarily alternating. Each step of a sequence is one example: the position with the local moves so far,
the region mask, and the next local move (or "no move" after the last one), with whether that move came
straight after the previous local move in the game (an answer).
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Iterable, Optional, Sequence

import numpy as np

from tengen.eval.localnet.compact import NO_MOVE, compact_row, target_index
from tengen.go.board import Board, IllegalMove
from tengen.go.coords import Point, neighbours
from tengen.go.grid import components

UNASSIGNED = -1


@dataclass
class LocalSequence:
    """One region of a position: its undecided points, and the moves the game played in its zone."""

    points: list[Point]
    moves: list[tuple[int, int, Point]] = field(default_factory=list)  # (game move index, color, point)


@dataclass
class Partition:
    """Regions of a labelled position and which region each board point belongs to (-1: blacklisted or cut
    off)."""

    regions: list[LocalSequence]
    zone: np.ndarray  # int16 (height, width)
    blacklisted: np.ndarray  # bool (height, width)


def partition(ownership: np.ndarray, final_ownership: np.ndarray, threshold: float = 0.9) -> Partition:
    """Local positions of a labelled position and the zone of each (see module docstring)."""
    own = np.asarray(ownership, dtype=float)
    final = np.asarray(final_ownership, dtype=float)
    undecided = np.abs(own) < threshold
    blacklisted = ~undecided & (np.sign(own) * final <= 0)
    h, w = own.shape
    zone = np.full((h, w), UNASSIGNED, dtype=np.int16)
    regions = []
    queue: deque[Point] = deque()
    for rid, points in enumerate(components(undecided)):
        regions.append(LocalSequence(points))
        for p in points:
            zone[p] = rid
            queue.append(p)
    while queue:
        p = queue.popleft()
        for n in neighbours(p, h, w):
            if zone[n] == UNASSIGNED and not blacklisted[n]:
                zone[n] = zone[p]
                queue.append(n)
    return Partition(regions, zone, blacklisted)


def assign_moves(part: Partition, moves: Sequence[tuple[int, Optional[Point]]], start: int) -> None:
    """Append each move from game index `start` on to its point's region (passes and blacklisted points are
    dropped)."""
    for index in range(start, len(moves)):
        color, point = moves[index]
        if point is None:
            continue
        rid = int(part.zone[point])
        if rid != UNASSIGNED:
            part.regions[rid].moves.append((index, color, point))


def sequence_examples(board: Board, to_play: int, seq: LocalSequence) -> list[dict[str, np.ndarray]]:
    """The examples of one local sequence, played from `board` (not modified). A move the local sequence
    cannot play without the game's other moves (illegal here) ends it without a "no move" example."""
    board = board.copy()
    history: list[tuple[int, Point]] = []
    rows = []
    size = len(seq.points)
    length = len(seq.moves)
    for k in range(length + 1):
        row = compact_row(board, seq.points, history, to_play)
        if k < length:
            index, color, point = seq.moves[k]
            if board.legality(color, point) is not None:
                return rows
            row["target"] = np.int16(target_index(color, point))
            answer = -1 if k == 0 else int(index == seq.moves[k - 1][0] + 1)
        else:
            row["target"] = np.int16(NO_MOVE)
            answer = -1
        row["answer"] = np.int8(answer)
        row["region_size"] = np.int16(min(size, 361))
        row["seq_len"] = np.int16(min(length, 361))
        rows.append(row)
        if k < length:
            try:
                board.play(color, point)
            except IllegalMove:  # legality said yes; kept for safety (never expected)
                return rows
            history.append((color, point))
            to_play = -color
    return rows


def cut_out(board: Board, keep: Iterable[Point], width: int) -> Board:
    """The position as a book prints a local diagram: the stones within `width` points (rows and columns) of
    the points `keep` (a region and its local moves) on an otherwise empty board, with the cut-out's own
    liberties (the stones are set up afresh; ko and history are cleared)."""
    grid = board.array()  # a copy
    near = np.zeros(grid.shape, dtype=bool)
    for r, c in keep:
        near[max(0, r - width):r + width + 1, max(0, c - width):c + width + 1] = True
    grid[~near] = 0
    out = board.copy()
    out.set_array(grid)
    return out


def position_examples(board: Board, to_play: int, ownership: np.ndarray, final_ownership: np.ndarray,
                      moves: Sequence[tuple[int, Optional[Point]]], start: int, threshold: float = 0.9,
                      cutouts: Sequence[int] = (), seed: int = 0) -> tuple[Partition, list[dict[str, np.ndarray]]]:
    """Partition the position after `start` game moves and turn every region's local sequence into examples.
    With `cutouts` (wall widths), each sequence is also played on its cut-out diagram (`cut_out`) at one
    width, drawn from `cutouts` by `seed` and the region's index; those rows carry `cutout` = the width
    (whole-board rows 0)."""
    part = partition(ownership, final_ownership, threshold)
    assign_moves(part, moves, start)
    rows = []
    for index, seq in enumerate(part.regions):
        rows += [{**row, "cutout": np.int8(0)} for row in sequence_examples(board, to_play, seq)]
        if cutouts and seq.moves:
            width = cutouts[(seed + index) % len(cutouts)]
            diagram = cut_out(board, list(seq.points) + [point for _, _, point in seq.moves], width)
            rows += [{**row, "cutout": np.int8(width)} for row in sequence_examples(diagram, to_play, seq)]
    return part, rows
