"""Lessons from the exact solver: small edge and corner regions, solved, their best play as local-move examples.

Issue 39 item 2: books print an endgame as a cut-out diagram (the region and its walls on an otherwise empty
board), and the network trained on game records misses their lines. Here random shapes of that kind (a
strip of 1-3 lines along the edge or in the corner, 2-8 points wide, a few points cut off, walls of both
colours, sometimes a stone or two already inside) are solved by the native exact solver under the marked
diagram's conventions (`tengen.endgame.exact.rules`, `vouched`), and each solved position gives examples:

- while the region is hot, each colour's best local move (the solver's orthodox moves) is a target;
- the answer label of the colour replying to the last local move is 1 when that move was sente (it left
  the region hotter than before it), else 0; the mover's own follow-up is labelled 0; at the root, -1;
- once the region is cold (a number, or temperature <= 0) the target is "no move".

The walk follows each colour's orthodox line from the root (the colours alternating, as the solver's
principal line does), re-solving the region at every step. Regions the solver does not value exactly (too
large, a ko or a loop deciding it) give no example: the teacher must never teach a guess.
"""
from __future__ import annotations

import random
import zlib
from dataclasses import dataclass
from fractions import Fraction
from typing import Optional

import numpy as np

from tengen.endgame.exact import OK, ExhaustiveConfig, solve_region
from tengen.eval.localnet.compact import NO_MOVE, compact_row, target_index
from tengen.go.board import Board, IllegalMove
from tengen.go.colors import BLACK, WHITE
from tengen.go.coords import Point, neighbours
from tengen.go.rules import Rules

SIZE = 19
MAX_EMPTY = 14  # a taught region's empty points at most: the regions the exact solver finishes in seconds
MAX_STEPS = 10  # moves followed along one orthodox line


@dataclass
class Shape:
    """A cut-out diagram: the stones on an empty 19x19 board and the region's points."""

    black: list[Point]
    white: list[Point]
    region: list[Point]


@dataclass
class TeachConfig:
    max_nodes: int = 50_000  # positions per solve; larger regions are dropped, not guessed
    seconds: Optional[float] = None  # a node budget alone keeps the shards the same on any machine
    corner_share: float = 0.4
    one_colour_share: float = 0.1  # walls of one colour only: territory, a no-move lesson
    inside_stones_share: float = 0.5


def random_shape(rng: random.Random, cfg: TeachConfig = TeachConfig()) -> Optional[Shape]:
    """A random strip along the bottom edge (in the left corner with `corner_share`), walls around it split
    between the colours along the wall's path, and sometimes stones inside; None when it came out empty."""
    depth = rng.choice((1, 2, 2, 3))
    width = rng.randint(2, 8)
    corner = rng.random() < cfg.corner_share
    x0 = 0 if corner else rng.randint(3, SIZE - width - 3)
    bottom = SIZE - 1
    cells = {(bottom - r, x0 + c) for r in range(depth) for c in range(width)}
    for _ in range(rng.randint(0, 3)):  # bite a corner off the strip's top line
        top = [p for p in cells if p[0] == bottom - depth + 1 and len(cells) > 2]
        if top:
            end = min(top, key=lambda p: p[1]) if rng.random() < 0.5 else max(top, key=lambda p: p[1])
            cells.discard(end)
    region = sorted(cells)
    wall = _wall_path(cells)
    if not region or not wall:
        return None
    split = len(wall) if rng.random() < cfg.one_colour_share else rng.randint(1, len(wall) - 1)
    first, second = (BLACK, WHITE) if rng.random() < 0.5 else (WHITE, BLACK)
    colour = {p: (first if i < split else second) for i, p in enumerate(wall)}
    black = [p for p, c in colour.items() if c == BLACK]
    white = [p for p, c in colour.items() if c == WHITE]
    if rng.random() < cfg.inside_stones_share:
        _add_inside_stones(rng, region, black, white)
    stones = set(black) | set(white)
    empty = sum(1 for p in region if p not in stones)
    if empty == 0 or empty > MAX_EMPTY:
        return None
    return Shape(black, white, region)


def _wall_path(cells: set[Point]) -> list[Point]:
    """The points next to the strip and off it, ordered from the left end along the top to the right end (so
    that a split of the path gives each colour one connected wall)."""
    around = {n for p in cells for n in neighbours(p, SIZE, SIZE) if n not in cells}
    # diagonal corners keep the wall connected where the strip steps down
    for p in list(around):
        for q in list(around):
            if abs(p[0] - q[0]) == 1 and abs(p[1] - q[1]) == 1:
                for c in ((p[0], q[1]), (q[0], p[1])):
                    if c not in cells:
                        around.add(c)
    left = min(c[1] for c in cells)
    return sorted(around, key=lambda p: (p[1], -p[0] if p[1] <= left else p[0]))


def _add_inside_stones(rng: random.Random, region: list[Point], black: list[Point], white: list[Point]) -> None:
    """One or two stones on the region's points, each with two liberties or more when placed."""
    for _ in range(rng.randint(1, 2)):
        board = _board(Shape(black, white, region))
        free = [p for p in region if board.array()[p] == 0]
        if len(free) < 3:
            return
        p = rng.choice(free)
        colour = rng.choice((BLACK, WHITE))
        libs = sum(1 for n in neighbours(p, SIZE, SIZE) if board.array()[n] == 0)
        if libs >= 2:
            (black if colour == BLACK else white).append(p)


def _board(shape: Shape) -> Board:
    board = Board(SIZE, rules=Rules.chinese(komi=0))
    board.setup(black=shape.black, white=shape.white)
    return board


def _solve(board: Board, region: list[Point], cfg: TeachConfig):
    res = solve_region(board, region, ExhaustiveConfig(vouched=True, max_nodes=cfg.max_nodes, seconds=cfg.seconds))
    if res.status != OK or res.ko_dependent or res.ko_fixed_point or res.loop_dependent or res.ko is not None:
        return None
    return res


def _hot(res) -> bool:
    return res.kind != "number" and res.temperature is not None and res.temperature > 0


def teach(shape: Shape, cfg: TeachConfig = TeachConfig()) -> list[dict[str, np.ndarray]]:
    """The examples of one shape (see the module docstring); [] when the root is not solved exactly."""
    root = _board(shape)
    res = _solve(root, shape.region, cfg)
    if res is None:
        return []
    rows: list[dict[str, np.ndarray]] = []
    if not _hot(res):
        rows.append(_row(root, shape.region, [], BLACK, None, -1))
        return rows
    for first in (BLACK, WHITE):
        rows += _walk(root, shape.region, res, first, cfg, with_root=first == BLACK)
    return rows


def _walk(root: Board, region: list[Point], res, first: int, cfg: TeachConfig, with_root: bool
          ) -> list[dict[str, np.ndarray]]:
    """Examples along `first`'s orthodox line: each colour's best move at every hot position, "no move"
    where it turns cold."""
    board = root.copy()
    history: list[tuple[int, Point]] = []
    rows: list[dict[str, np.ndarray]] = []
    last: Optional[int] = None
    before: Optional[Fraction] = None
    mover = first
    for _ in range(MAX_STEPS):
        if not _hot(res):
            rows.append(_row(board, region, history, mover, None, -1))
            break
        sente = last is not None and before is not None and res.temperature > before
        if history or with_root:
            for colour, best in ((BLACK, res.best_black), (WHITE, res.best_white)):
                if best:
                    answer = -1 if last is None else (int(sente) if colour == -last else 0)
                    rows.append(_row(board, region, history, mover, (colour, best[0]), answer))
        best = res.best_black if mover == BLACK else res.best_white
        if not best:
            break
        try:
            board.play(mover, best[0])
        except IllegalMove:
            break
        history.append((mover, best[0]))
        before, last, mover = res.temperature, mover, -mover
        res = _solve(board, region, cfg)
        if res is None:
            break
    return rows


def _row(board: Board, region: list[Point], history: list[tuple[int, Point]], to_play: int,
         move: Optional[tuple[int, Point]], answer: int) -> dict[str, np.ndarray]:
    row = compact_row(board, region, history, to_play)
    row["target"] = np.int16(NO_MOVE if move is None else target_index(*move))
    row["answer"] = np.int8(answer)
    row["region_size"] = np.int16(len(region))
    row["seq_len"] = np.int16(len(history))
    return row


def shape_key(seed: int, index: int) -> int:
    """A stable 63-bit key per shape: the dataset's split by key (train / validation / test) applies to it."""
    return zlib.crc32(f"solved:{seed}:{index}".encode()) | (index << 32)
