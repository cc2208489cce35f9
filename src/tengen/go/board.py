"""The Go board every part of tengen plays on: moves, captures, ko, superko, undo, hashing.

The engine is the C extension `tengen.go._native`; this class adds the rule choices that need the whole
history (positional / situational superko) and the Python-friendly API. `tengen.go.reference` is a
readable pure-Python board that the tests compare this one against.
"""
from __future__ import annotations

from collections import Counter
from typing import Iterable, Optional

import numpy as np

from tengen.go import _native
from tengen.go.colors import BLACK, EMPTY, WHITE
from tengen.go.coords import Move, Point, to_gtp
from tengen.go.rules import Rules

MIN_SIDE, MAX_SIDE = 2, _native.MAX_SIDE
# The most moves (passes included) a game record holds: the longest of the shared archives' 177,179 games
# has 3,701 moves. SGF loading, GTP `play` and the analysis protocol refuse longer games through this bound.
MAX_RECORD_MOVES = 10_000
# Reading past a record's last move (variation trees, search, probes) plays on copies of its board; this
# much room above the record's cap lets every reading of a full-length record run.
READING_MOVES = 2_000
# The most moves (passes included) one board holds. Each keeps a packed undo snapshot (about 9 KB a move on
# 19x19, 15 KB on 25x25), so a full board stays well under 350 MB.
MAX_MOVES = MAX_RECORD_MOVES + READING_MOVES

_ERRORS = {-1: "occupied", -2: "suicide", -3: "ko", -4: "off board"}
# Keys that make a hash situational (who is to move next); stone keys live in C.
_TO_PLAY_KEY = {BLACK: 0x5B1F_0C53_A2E4_97D1, WHITE: 0}


class IllegalMove(ValueError):
    """A move the rules forbid. `reason` is one of: occupied, suicide, ko, superko, off board."""

    def __init__(self, reason: str, color: int = EMPTY, point: Move = None, height: int = 19):
        self.reason = reason
        where = f" at {to_gtp(point, height)}" if point is not None else ""
        super().__init__(f"illegal move{where}: {reason}")


class MoveLimitError(ValueError):
    """A move past a cap: MAX_RECORD_MOVES for a game, MAX_MOVES for a board (whose history, one undo
    snapshot per move, would otherwise grow without bound)."""

    def __init__(self, limit: int = MAX_RECORD_MOVES, what: str = "a game") -> None:
        super().__init__(f"the game is too long: {what} holds at most {limit} moves")


class Board:
    """A rectangular Go board (2..25 per side) with its rules, move history and superko record."""

    def __init__(self, width: int = 19, height: Optional[int] = None, rules: Optional[Rules] = None):
        height = width if height is None else height
        if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
            raise ValueError(f"board size {width}x{height} is not supported (sides {MIN_SIDE}..{MAX_SIDE})")
        self.width, self.height = width, height
        self.rules = rules or Rules.chinese()
        self._native = _native.NativeBoard(width, height)
        self.to_play = BLACK
        self.moves: list[tuple[int, Move]] = []
        self._seen: Counter[int] = Counter()
        self._record_position()

    # ---------------------------------------------------------------- state
    @property
    def size(self) -> int:
        """The side of a square board (ValueError for rectangular boards)."""
        if self.width != self.height:
            raise ValueError("rectangular board has no single size")
        return self.width

    @property
    def hash(self) -> int:
        """Zobrist hash of the stones (positional; independent of whose turn it is)."""
        return self._native.hash

    @property
    def ko_point(self) -> Optional[Point]:
        """The point the player to move may not take back by simple ko, if any."""
        ko = self._native.ko
        return ko[0] if ko is not None and ko[1] == self.to_play else None

    @property
    def ko(self) -> Optional[tuple[Point, int]]:
        """(point, color barred from it) after a single-stone capture that could be retaken."""
        return self._native.ko

    @property
    def captures(self) -> dict[int, int]:
        """Prisoners: stones captured BY each color."""
        b, w = self._native.captures
        return {BLACK: b, WHITE: w}

    @property
    def consecutive_passes(self) -> int:
        """Number of passes at the end of the move list."""
        n = 0
        for _, point in reversed(self.moves):
            if point is not None:
                break
            n += 1
        return n

    def get(self, point: Point) -> int:
        """Color at a point."""
        return self._native.get(*point)

    def array(self) -> np.ndarray:
        """The stones as an int8 array (height, width), row 0 at the top (a copy)."""
        return np.frombuffer(self._native.stones(), dtype=np.int8).reshape(self.height, self.width).copy()

    def on_board(self, point: Point) -> bool:
        r, c = point
        return 0 <= r < self.height and 0 <= c < self.width

    def liberties(self, point: Point) -> int:
        """Number of liberties of the chain at `point` (0 for an empty point)."""
        return self._native.liberties(*point)

    def chain(self, point: Point) -> list[Point]:
        """Stones of the chain at `point`."""
        return self._native.chain(*point)

    def chains(self, color: Optional[int] = None) -> list[list[Point]]:
        """Every chain of `color` (of both colors when None), in row-major order of each chain's first stone."""
        grid = self.array()
        seen: set[Point] = set()
        out = []
        for r, c in zip(*np.nonzero(grid != EMPTY if color is None else grid == color)):
            p = (int(r), int(c))
            if p not in seen:
                chain = self.chain(p)
                seen.update(chain)
                out.append(chain)
        return out

    def chain_liberties(self, point: Point) -> list[Point]:
        """Liberties of the chain at `point`."""
        return self._native.chain_liberties(*point)

    # ---------------------------------------------------------------- moves
    def legality(self, color: int, point: Move) -> Optional[str]:
        """None if `color` may play `point` now, else the reason (occupied, suicide, ko, superko, off board)."""
        if point is None:
            return None
        code = self._native.legality(color, point[0], point[1], self.rules.suicide)
        if code:
            return _ERRORS[code]
        if self.rules.ko != "simple":
            if self._native.play(color, point[0], point[1], self.rules.suicide) < 0:
                return "suicide"
            repeated = self._superko_hash(-color) in self._seen
            self._native.undo()
            if repeated:
                return "superko"
        return None

    def is_legal(self, color: int, point: Move) -> bool:
        """Whether `color` may play `point` now (a pass is always legal)."""
        return self.legality(color, point) is None

    def play(self, color: int, point: Move) -> list[Point]:
        """Play a stone (or pass with None); returns the captured points. Raises IllegalMove, or
        MoveLimitError past MAX_MOVES moves."""
        if len(self.moves) >= MAX_MOVES:
            raise MoveLimitError(MAX_MOVES, "a board (a record and its reading)")
        if point is None:
            self._native.pass_move()
        else:
            if not (isinstance(point, tuple) and len(point) == 2 and self.on_board(point)):
                raise IllegalMove("off board", color, None, self.height)
            code = self._native.play(color, point[0], point[1], self.rules.suicide)
            if code < 0:
                raise IllegalMove(_ERRORS[code], color, point, self.height)
            if self.rules.ko != "simple" and self._superko_hash(-color) in self._seen:
                self._native.undo()
                raise IllegalMove("superko", color, point, self.height)
        self.moves.append((color, point))
        self.to_play = -color
        self._record_position()
        return self._native.last_captured() if point is not None else []

    def undo(self) -> None:
        """Take back the last move or pass. Raises IndexError when there is nothing to undo."""
        if not self.moves:
            raise IndexError("cannot undo")
        self._seen[self._position_key()] -= 1
        if not self._seen[self._position_key()]:
            del self._seen[self._position_key()]
        self._native.undo()
        color, _ = self.moves.pop()
        self.to_play = color

    def legal_moves(self, color: Optional[int] = None) -> list[Point]:
        """All legal stone placements for `color` (default: the player to move)."""
        color = self.to_play if color is None else color
        candidates = self._native.legal_moves(color, self.rules.suicide)
        if self.rules.ko == "simple":
            return candidates
        return [p for p in candidates if self.is_legal(color, p)]

    def setup(self, black: Iterable[Point] = (), white: Iterable[Point] = (), empty: Iterable[Point] = ()) -> None:
        """Add or remove stones without moves (SGF AB/AW/AE, handicap). Clears ko and undo history."""
        grid = self.array()
        for points, value in ((empty, EMPTY), (black, BLACK), (white, WHITE)):
            for p in points:
                if not self.on_board(p):
                    raise ValueError(f"setup point {p} is off the {self.width}x{self.height} board")
                grid[p] = value
        self.set_array(grid)

    def set_array(self, grid: np.ndarray) -> None:
        """Replace every stone from an int8 (height, width) array; keeps prisoners and the side to move."""
        grid = np.asarray(grid, dtype=np.int8)
        if grid.shape != (self.height, self.width):
            raise ValueError(f"array shape {grid.shape} does not match the board {self.height}x{self.width}")
        captures = self._native.captures
        self._native = _native.NativeBoard(self.width, self.height)
        self._native.set_stones(grid.tobytes())
        self._native.set_captures(*captures)
        self.moves = []
        self._seen = Counter()
        self._record_position()

    def copy(self) -> "Board":
        """An independent copy (history, undo stack and superko record included)."""
        other = Board.__new__(Board)
        other.width, other.height, other.rules = self.width, self.height, self.rules
        other._native = self._native.copy()
        other.to_play = self.to_play
        other.moves = list(self.moves)
        other._seen = Counter(self._seen)
        return other

    # ---------------------------------------------------------------- superko bookkeeping
    def _position_key(self) -> int:
        return self._superko_hash(self.to_play)

    def _superko_hash(self, to_play: int) -> int:
        if self.rules.ko == "situational":
            return self._native.hash ^ _TO_PLAY_KEY[to_play]
        return self._native.hash

    def _record_position(self) -> None:
        self._seen[self._position_key()] += 1

    # ---------------------------------------------------------------- display
    def __str__(self) -> str:
        from tengen.go.render import render

        return render(self)

    def __repr__(self) -> str:
        return f"Board({self.width}x{self.height}, {len(self.moves)} moves, to_play={'B' if self.to_play == BLACK else 'W'})"
