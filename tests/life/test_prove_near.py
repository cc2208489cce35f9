"""Proofs on the points near a group that hold on its whole region (`tengen.life.proof.prove_near`): a fixture
whose region opens onto the board, and a differential check against the proof over the whole region on
random positions (a near proof must never be contradicted by the whole region's), and GTP's owl commands using
it on the dragon."""
from __future__ import annotations

import random

import pytest

from tengen.go.board import Board
from tengen.go.colors import BLACK, WHITE
from tengen.go.diagram import board_from_diagram
from tengen.life.proof import default_region, prove, prove_near

# White's top-edge group: Black's wall has a gap at G11, so the group's region runs out onto the open board
# (45 points), while its life is decided on the six edge points: White first lives at B13, Black first
# cannot kill.
OPEN_CORNER = """
. . . . . . . X . . . . .
O O O O O O . X . . . . .
X X X X X O . . . . . . .
. . . . X X . . . . . . .
. . . . . . . . . . . . .
. . . . . . . . . . . . .
. . . . . . . . . . . . .
. . . . . . . . . . . . .
. . . . . . . . . . . . .
. . . . . . . . . . . . .
. . . . . . . . . . . . .
. . . . . . . . . . . . .
. . . . . . . . . . . . .
"""


def test_life_is_proved_near_the_group_and_agrees_with_the_whole_region():
    board = board_from_diagram(OPEN_CORNER)
    whole = default_region(board, (1, 0))
    near, nodes = prove_near(board, (1, 0), whole, WHITE)
    assert near is not None and (near.status, near.proved, near.framed) == ("alive", True, True)
    assert near.reach == 2 and len(whole) > 40 and nodes == near.nodes
    full = prove(board, (1, 0), region=whole, first=WHITE, max_nodes=200_000)
    assert (full.status, full.proved) == ("alive", True)
    replay = board.copy()
    replay.play(WHITE, near.move)  # the near proof's move lives on the whole region too
    after = prove(replay, (1, 0), region=whole, first=BLACK, max_nodes=200_000)
    assert (after.status, after.proved) == ("alive", True)


def test_a_kill_that_fails_is_not_proved_near():
    board = board_from_diagram(OPEN_CORNER)
    near, nodes = prove_near(board, (1, 0), default_region(board, (1, 0)), BLACK)
    assert near is None and nodes > 0


def _random_board(rng: random.Random, size: int, moves: int) -> Board:
    """A position of `moves` random legal moves (captures as they come), either colour at random."""
    board = Board(size, size)
    for _ in range(moves):
        color = rng.choice((BLACK, WHITE))
        empty = [(r, c) for r in range(size) for c in range(size) if board.get((r, c)) == 0]
        legal = [p for p in empty if board.legality(color, p) is None]
        if legal:
            board.play(color, rng.choice(legal))
    return board


def _differential(seed: int, size: int, moves: tuple[int, int], positions: int, kills_only: bool) -> int:
    """Random positions: every near proof met by a finished proof over the whole region (the same group:
    the stones the near region holds) must agree with it; the number compared."""
    rng = random.Random(seed)
    compared = 0
    for _ in range(positions):
        board = _random_board(rng, size, rng.randint(*moves))
        stones = [(r, c) for r in range(size) for c in range(size) if board.get((r, c)) != 0]
        target = rng.choice(stones)
        whole = default_region(board, target)
        color = board.get(target)
        for first in (BLACK, WHITE):
            for winner in ((-color,) if kills_only else (first, -first)):
                near, _ = prove_near(board, target, whole, first, winner, max_nodes=2000)
                if near is None:
                    continue
                small = default_region(board, target, reach=near.reach)
                group = [p for p in small if board.get(p) == color]
                full = prove(board, target, region=whole, group=group, first=first, max_nodes=50_000)
                if full.proved:
                    compared += 1
                    killing = winner != color
                    assert near.status == ("dead" if killing else "alive")
                    # the whole region's search tells seki from life by reading its own line: both are life
                    assert full.status in (("dead",) if killing else ("alive", "seki")), (board, target, first, winner)
    return compared


def test_a_near_proof_is_never_contradicted_by_the_whole_region():
    assert _differential(2026, 9, (25, 45), 200, kills_only=False) >= 10  # enough compared to mean something


@pytest.mark.slow
def test_a_near_kill_is_never_contradicted_by_the_whole_region():
    assert _differential(7, 11, (30, 70), 1500, kills_only=True) >= 10


def test_gtp_owl_defend_is_proved_near_the_dragon():
    from tengen.io.engines import gtp_engine

    engine = gtp_engine()
    engine.board = board_from_diagram(OPEN_CORNER)
    whole = prove(engine.board, (1, 0), first=WHITE, max_nodes=100)
    assert not whole.proved  # 100 nodes a search do not prove it over the whole region
    assert engine.handle("tengen-life_budget 100") == "=\n\n"
    assert engine.handle("owl_defend A12") == "= 1 B13\n\n"
    assert engine.handle("tengen-life_basis") == "= proved\n\n"
