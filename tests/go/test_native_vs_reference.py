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
