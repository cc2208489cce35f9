"""The playout search's board (`tengen.search._uct`: the board core of tengen.go with its 8-neighbour codes)
against `tengen.go.board.Board` on random games, move by move: the stones, the stones captured, the legal
points of the side to move, the simple-ko point and the eyes the playouts will not fill; at the end the area
count (the core's, and the playouts' own count and ownership), and Benson: the playouts' pass_alive rule
owns what Board's does but for regions that are vital to no single chain. Games from the empty board and
from diagram positions (a ko, a snapback, a big capture), seeded, and fixed lines from them; the Chinese rules (simple ko, no suicide)
are the playout board's."""
from __future__ import annotations

import random

import numpy as np
import pytest

from tengen.go import Board, Rules
from tengen.go.benson import unconditional_life
from tengen.go.diagram import board_from_diagram
from tengen.go.scoring import area_ownership
from tengen.search import _uct

EDGE = 3  # off the board, in the padded grids below

START = {
    "empty": None,
    "ko": """
        . . . . . .
        . . X O . .
        . X O . O .
        . . X O . .
        . . . . . .
    """,
    "snapback": """
        . . . . . .
        X X X X . .
        O O O X . .
        . . O X . .
    """,
    "big capture": """
        . O O O O . .
        O X X X X O .
        O X . X X O .
        O X X . X O .
        . O O O O . .
    """,
}

# Black's region round C4 touches a pass-alive Black chain at every empty point, but no single chain at all
# of them: Board's Benson owns it for Black, the playouts' pass_alive does not.
VITAL_TO_NONE = """
    O O . O X X
    X X X X X .
    X O . . . X
    X O . X X X
    X . X X X .
    . X . O X X
"""
VITAL_TO_NONE_REGION = [(2, 1), (2, 2), (2, 3), (2, 4), (3, 1), (3, 2), (4, 1)]

# (start, width, height for "empty", games, seed)
CASES = [
    ("empty", 2, 2, 20, 1), ("empty", 3, 3, 30, 2), ("empty", 4, 4, 40, 3), ("empty", 5, 5, 40, 4),
    ("empty", 6, 4, 30, 5), ("empty", 7, 7, 30, 6), ("empty", 9, 9, 20, 7), ("empty", 3, 8, 20, 8),
    ("empty", 19, 19, 2, 9), ("ko", 0, 0, 20, 10), ("snapback", 0, 0, 20, 11), ("big capture", 0, 0, 20, 12),
]


def _padded(grid: np.ndarray) -> np.ndarray:
    out = np.full((grid.shape[0] + 2, grid.shape[1] + 2), EDGE, dtype=np.int8)
    out[1:-1, 1:-1] = grid
    return out


def _neighbours(pad: np.ndarray, offsets) -> np.ndarray:
    """(k, height, width): each point's neighbour at each offset, EDGE off the board."""
    h, w = pad.shape[0] - 2, pad.shape[1] - 2
    return np.stack([pad[1 + dr:1 + dr + h, 1 + dc:1 + dc + w] for dr, dc in offsets])


ORTH = ((-1, 0), (0, -1), (0, 1), (1, 0))
DIAG = ((-1, -1), (-1, 1), (1, -1), (1, 1))


def eyes(grid: np.ndarray) -> np.ndarray:
    """The playouts' eye rule: empty, every neighbour c or off the board, and no diagonal of the opponent
    where a diagonal is off the board, else at most one. 1 Black's, 2 White's."""
    pad = _padded(grid)
    orth, diag = _neighbours(pad, ORTH), _neighbours(pad, DIAG)
    out = np.zeros(grid.shape, dtype=np.int8)
    for color, bit in ((1, 1), (-1, 2)):
        enclosed = ((orth == color) | (orth == EDGE)).all(axis=0) & (grid == 0)
        bad = (diag == -color).sum(axis=0)
        edge = (diag == EDGE).any(axis=0)
        out |= np.where(enclosed & (bad <= np.where(edge, 0, 1)), bit, 0).astype(np.int8)
    return out


def playout_owner(grid: np.ndarray) -> np.ndarray:
    """The playouts' count at their end: stones, and empty points whose stone neighbours are one colour."""
    orth = _neighbours(_padded(grid), ORTH)
    black, white = (orth == 1).any(axis=0), (orth == -1).any(axis=0)
    empty_owner = np.where(black & ~white, 1, np.where(white & ~black, -1, 0))
    return np.where(grid != 0, grid, empty_owner).astype(np.int8)


def random_game(board: Board, rng: random.Random) -> list:
    """Uniformly random legal moves (own eyes too: many captures), a pass now and then, up to two passes in a
    row or three moves a point; the moves as points or None, played on `board`."""
    moves = []
    while len(moves) < 3 * board.width * board.height and board.consecutive_passes < 2:
        legal = board.legal_moves()
        move = rng.choice(legal) if legal and rng.random() < 0.95 else None
        board.play(board.to_play, move)
        moves.append(move)
    return moves


def _flat(move, width: int) -> int:
    return -1 if move is None else move[0] * width + move[1]


def _bytes_grid(raw: bytes, board: Board) -> np.ndarray:
    return np.frombuffer(raw, dtype=np.int8).reshape(board.height, board.width)


def check_benson(board: Board, theirs: np.ndarray) -> None:
    """The playouts' rule (BC_SAFE_VITAL) against Board's (BC_SAFE_TOUCHED): the same pass-alive stones; the
    same regions but those that are vital to no single pass-alive chain."""
    grid, ours = board.array(), unconditional_life(board)
    stones = grid != 0
    alive = {}
    for color in (1, -1):
        mine_stones = stones & (grid == color)
        assert np.array_equal(theirs[mine_stones] == color, ours[mine_stones] == color)
        for r, c in zip(*np.nonzero(mine_stones & (ours == color))):
            alive[(int(r), int(c))] = min(board.chain((int(r), int(c))))
    assert not (np.abs(theirs) > np.abs(ours)).any() and (theirs[theirs != 0] == ours[theirs != 0]).all()
    for r, c in zip(*np.nonzero((ours != 0) & (theirs == 0))):
        color = int(ours[r, c])
        assert grid[r, c] != color
        region = _region(grid, (int(r), int(c)), color)
        heads = None
        for p in region:
            if grid[p] == 0:
                near = {alive[q] for q in _orth(board, p) if grid[q] == color}
                heads = near if heads is None else heads & near
        assert heads is not None and not heads, (r, c)  # vital to no single chain


def _orth(board: Board, p):
    r, c = p
    return [(r + dr, c + dc) for dr, dc in ORTH if 0 <= r + dr < board.height and 0 <= c + dc < board.width]


def _region(grid: np.ndarray, start, color: int) -> set:
    h, w = grid.shape
    seen, stack = {start}, [start]
    while stack:
        r, c = stack.pop()
        for dr, dc in ORTH:
            q = (r + dr, c + dc)
            if 0 <= q[0] < h and 0 <= q[1] < w and q not in seen and grid[q] != color:
                seen.add(q)
                stack.append(q)
    return seen


def play_and_compare(start: Board, rng: random.Random) -> int:
    """One random game from `start`, traced on the playout board and replayed on Board, compared move by move;
    the stones captured in it."""
    played = start.copy()
    moves = random_game(played, rng)
    w = start.width
    steps, end = _uct._trace(start.array().tobytes(), w, start.height, start.to_play, [_flat(m, w) for m in moves])
    board = start.copy()
    assert len(steps) == len(moves)
    for move, (stones, captured, legal, eye, ko) in zip(moves, steps):
        assert len(board.play(board.to_play, move)) == captured
        grid = board.array()
        assert np.array_equal(_bytes_grid(stones, board), grid)
        mask = np.zeros_like(grid)
        for p in board.legal_moves():
            mask[p] = 1
        assert np.array_equal(_bytes_grid(legal, board), mask)
        assert np.array_equal(_bytes_grid(eye, board), eyes(grid))
        assert ko == _flat(board.ko_point, w) if board.ko_point else ko == -1
    grid = board.array()
    assert np.array_equal(_bytes_grid(end["area"], board), area_ownership(board))
    owner = _bytes_grid(end["owner"], board)
    assert np.array_equal(owner, playout_owner(grid)) and end["ub_area"] == int(owner.sum())
    check_benson(board, _bytes_grid(end["benson"], board))
    return sum(step[1] for step in steps)


def _start(name: str, width: int, height: int) -> Board:
    if START[name] is None:
        return Board(width, height, rules=Rules.chinese())
    return board_from_diagram(START[name], rules=Rules.chinese())


@pytest.mark.parametrize("name,width,height,games,seed", CASES)
def test_playout_board_agrees_with_board(name, width, height, games, seed):
    rng = random.Random(seed)
    start = _start(name, width, height)
    captured = sum(play_and_compare(start, rng) for _ in range(games))
    assert captured >= games  # the games capture (big chains too: own eyes are filled)


# Lines played from a fixture: (start, moves, stones each move captures, the ko point after each).
LINES = [
    ("ko", [(2, 3), None, None], [1, 0, 0], [(2, 2), None, None]),  # Black takes, the passes lift the ko
    ("snapback", [(3, 1), (3, 0), (3, 1)], [0, 1, 5], [None, None, None]),  # throw in, White takes, Black retakes
]


@pytest.mark.parametrize("name,moves,captures,kos", LINES)
def test_a_line_from_a_fixture(name, moves, captures, kos):
    start = _start(name, 0, 0)
    w = start.width
    steps, _ = _uct._trace(start.array().tobytes(), w, start.height, 1, [_flat(m, w) for m in moves])
    assert [step[1] for step in steps] == captures
    assert [step[4] for step in steps] == [_flat(k, w) for k in kos]
    board = start.copy()
    for move, step in zip(moves, steps):
        assert len(board.play(board.to_play, move)) == step[1]
        assert np.array_equal(_bytes_grid(step[0], board), board.array())


def test_a_move_the_board_forbids_is_a_value_error():
    """Taking the ko back at once, and a point off the board."""
    start = _start("ko", 0, 0)
    w = start.width
    with pytest.raises(ValueError):
        _uct._trace(start.array().tobytes(), w, start.height, 1, [_flat((2, 3), w), _flat((2, 2), w)])
    with pytest.raises(ValueError):
        _uct._trace(start.array().tobytes(), w, start.height, 1, [w * start.height])


def test_benson_rules_differ_where_a_region_is_vital_to_no_single_chain():
    board = board_from_diagram(VITAL_TO_NONE, rules=Rules.chinese())
    _, end = _uct._trace(board.array().tobytes(), board.width, board.height, 1, [])
    ours, theirs = unconditional_life(board), _bytes_grid(end["benson"], board)
    assert all(ours[p] == 1 for p in VITAL_TO_NONE_REGION) and not any(theirs[p] for p in VITAL_TO_NONE_REGION)
    check_benson(board, theirs)
