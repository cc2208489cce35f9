"""The native board agrees with the readable pure-Python reference on random games (legality of every
point, captures, stones, liberties), with and without suicide."""
from __future__ import annotations

import dataclasses
import random

import pytest

from tengen.go import BLACK, Board, Rules
from tengen.go.reference import ReferenceBoard


@pytest.mark.parametrize("seed,size,suicide", [(1, 5, False), (2, 7, True), (3, 9, False), (4, 4, True), (5, 6, False)])
def test_random_games_agree(seed, size, suicide):
    rng = random.Random(seed)
    rules = dataclasses.replace(Rules.chinese(), suicide=suicide)
    board, ref = Board(size, rules=rules), ReferenceBoard(size, suicide=suicide)
    color = BLACK
    points = [(r, c) for r in range(size) for c in range(size)]
    for _ in range(250):
        legal = []
        for p in points:
            ours, theirs = board.legality(color, p), ref.legality(color, p)
            assert ours == theirs, (p, ours, theirs)
            if ours is None:
                legal.append(p)
        move = rng.choice(legal) if legal and rng.random() < 0.95 else None
        assert sorted(board.play(color, move)) == sorted(ref.play(color, move))
        assert (board.array() == ref.grid).all()
        assert board.captures == ref.captures
        if move is not None and ref.grid[move]:
            assert board.liberties(move) == len(ref.chain_and_liberties(move)[1])
        color = -color


def _random_game(size: int, moves: int, seed: int) -> Board:
    rng = random.Random(seed)
    board = Board(size)
    for _ in range(moves):
        legal = board.legal_moves()
        board.play(board.to_play, rng.choice(legal) if legal else None)
    return board


def test_copies_share_history_but_undo_independently():
    """Copies made at different depths, each played on and taken back in turn, all return to the stones
    they had at every earlier depth (the copies share their history's snapshots)."""
    rng = random.Random(7)
    board = _random_game(9, 60, seed=3)
    states = []  # (board, [stones after each of its moves])
    walker = board.copy()
    history = []
    while walker.moves:  # the stones at every depth of the original game
        history.append(walker.array())
        walker.undo()
    history.append(walker.array())
    history.reverse()
    for depth in (60, 40, 20):
        copy = board.copy()
        for _ in range(60 - depth):
            copy.undo()
        branch = [copy.array()]
        for _ in range(10):
            legal = copy.legal_moves()
            copy.play(copy.to_play, rng.choice(legal) if legal else None)
            branch.append(copy.array())
        states.append((copy, depth, branch))
    del board  # the original goes; its copies keep the shared snapshots alive
    for copy, depth, branch in states:
        for k in range(10, -1, -1):
            assert (copy.array() == branch[k]).all()
            if k:
                copy.undo()
        for d in range(depth, -1, -1):
            assert (copy.array() == history[d]).all()
            if d:
                copy.undo()
        assert not copy.moves and copy._native.undo() is False


def test_copying_a_long_game_does_not_copy_its_history():
    """Tree search copies boards late in a game: each copy must cost about one position, not the whole
    game's undo history (once 2-3 MB per copy on 19x19 at move 170)."""
    import tracemalloc

    board = _random_game(19, 150, seed=5)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        copies = []
        for _ in range(50):
            c = board.copy()
            c.play(c.to_play, c.legal_moves()[0])
            copies.append(c)
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    one_state = 20_000  # a 19x19 position's arrays: about 16 KB
    assert grown < 50 * 4 * one_state, f"{grown / 50:.0f} bytes per copy"
