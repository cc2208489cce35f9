"""Worked examples and properties of the influence models (Zobrist, Bouzy 5/21, Manhattan cross)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tengen.eval.influence import MODELS, bouzy, cross, cross_kernel, influence_map, territory, zobrist
from tengen.go.diagram import parse_diagram
from tengen.io.influence_report import render_ascii, render_png


def diagram(text: str) -> np.ndarray:
    """A board diagram's stones (tengen.go.diagram: X Black, O White, . empty) as an int8 array; territory
    diagrams use its lowercase x / o for Black's / White's points."""
    return parse_diagram(text)[0]


def grid(text: str) -> np.ndarray:
    """Whitespace-separated integers, one board row per line."""
    return np.array([[int(v) for v in line.split()] for line in text.strip().splitlines()], dtype=np.int32)


LONE = diagram("""
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . X . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""")

JUMP = diagram("""
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . X . X . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""")

WALL = diagram("""
. . X . . . . . .
. . X . . . . . .
. . X . . . . . .
. . X . . . . . .
. . X . . . . . .
. . X . . . . . .
. . X . . . . . .
. . X . . . . . .
. . X . . . . . .
""")


# ------------------------------------------------------------------------------------------ Zobrist

def test_zobrist_lone_stone():
    # By hand: the stone gains 4 in each of rounds 2-4 (64 + 12); a neighbour gets 1, 1, 4, 4; the one-space
    # jump point 0, 1, 1, 4; the diagonal 0, 2, 2, 4; nothing reaches Manhattan distance 5.
    expected = grid("""
    0 0 0 0  1 0 0 0 0
    0 0 0 2  2 2 0 0 0
    0 0 2 4  6 4 2 0 0
    0 2 4 8 10 8 4 2 0
    1 2 6 10 76 10 6 2 1
    0 2 4 8 10 8 4 2 0
    0 0 2 4  6 4 2 0 0
    0 0 0 2  2 2 0 0 0
    0 0 0 0  1 0 0 0 0
    """)
    np.testing.assert_array_equal(zobrist(LONE), expected)


def test_zobrist_one_space_jump_midpoint_gets_from_both_stones():
    z = zobrist(JUMP)
    # Midpoint: rounds 1-2 give +2 each (both stones), rounds 3-4 give +4 each -> 12 (a lone-stone neighbour has 10).
    assert z[4, 4] == 12
    assert z[4, 3] == z[4, 5] == 76
    assert z[3, 4] == z[5, 4] == 10


def test_zobrist_wall():
    z = zobrist(WALL)
    # Mid-wall stone: 64 + (2 wall neighbours from round 1) + 4 + 4 + 4 = 78; an edge-row stone has 3 neighbours.
    assert z[4, 2] == 78
    assert z[0, 2] == 64 + 1 + 3 + 3 + 3
    # Beside the wall the rounds give +1 (the stone), +3 (stone and the two wall-side points), +4, +4 -> 12;
    # one further out 0, 1, 3, 4 -> 8; then 0, 0, 1, 3 -> 4; then a single +1; distance 5 stays 0.
    assert z[4, 1] == z[4, 3] == 12
    assert list(z[4, 3:8]) == [12, 8, 4, 1, 0]
    assert z[4, 0] == 0 + 1 + 3 + 3  # the edge column has three neighbours


def test_zobrist_opposite_stones_cancel_in_the_middle():
    b = diagram("""
    . . . . .
    . . . . .
    . X . O .
    . . . . .
    . . . . .
    """)
    z = zobrist(b)
    assert z[2, 2] == 0  # one +1 and one -1 neighbour every round
    np.testing.assert_array_equal(z, -z[:, ::-1])


# ------------------------------------------------------------------------------------------- Bouzy

def test_bouzy_lone_stone_makes_no_territory():
    # Bouzy chose 21 = 1 + 5 * 4 erosions precisely so that a lone stone's halo erodes away completely:
    # after 5 dilations the stone is 128 + 16 = 144, and it loses 4 per erosion for the last 3 erosions.
    v = bouzy(LONE)
    expected = np.zeros_like(v)
    expected[4, 4] = 132
    np.testing.assert_array_equal(v, expected)
    assert not territory(LONE, v).any()


def test_bouzy_one_space_jump_claims_the_gap():
    v = bouzy(JUMP)
    expected = diagram("""
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . x . . . .
    . . . . x . . . .
    . . . . x . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    """)
    np.testing.assert_array_equal(territory(JUMP, v), expected)
    assert v[4, 4] == 16 and v[3, 4] == v[5, 4] == 8


def test_bouzy_wall_claims_the_edge_side_and_one_line_beyond():
    v = bouzy(WALL)
    expected = diagram("""
    x x . x . . . . .
    x x . x x . . . .
    x x . x x . . . .
    x x . x x . . . .
    x x . x x . . . .
    x x . x x . . . .
    x x . x x . . . .
    x x . x x . . . .
    x x . x . . . . .
    """)
    np.testing.assert_array_equal(territory(WALL, v), expected)
    assert list(v[4, :6]) == [10, 16, 146, 16, 4, 0]


def test_bouzy_contact_blocks_dilation():
    b = diagram("""
    . . .
    X . O
    . . .
    """)
    v = bouzy(b, dilations=1, erosions=0)
    # The middle point touches both colors: it stays 0; the corners next to one stone only gain 1.
    assert v[1, 1] == 0
    assert v[0, 0] == 1 and v[0, 2] == -1
    assert v[1, 0] == 128 + 0 and v[1, 2] == -128  # neighbours were all 0 before the dilation


def test_bouzy_erosion_never_crosses_zero():
    b = diagram("""
    X . . . O
    """)
    v = bouzy(b, dilations=0, erosions=200)
    assert v[0, 0] >= 0 and v[0, 4] <= 0


# ------------------------------------------------------------------------------------------- cross

def test_cross_kernel_values():
    k = cross_kernel()
    c = k.shape[0] // 2
    assert k[c, c] == 10  # the stone itself
    assert k[c, c + 1] == 8  # a neighbour
    assert k[c, c + 2] == 6  # the one-space jump point
    assert k[c, c + 3] == 4 and k[c + 1, c + 2] == 4  # two-space jump and knight's move
    assert k[c + 2, c + 2] == 2 and k.shape == (9, 9)  # distance 4; distance 5 is outside the kernel


def test_cross_lone_stone():
    expected = grid("""
    0 0 0 0  2 0 0 0 0
    0 0 0 2  4 2 0 0 0
    0 0 2 4  6 4 2 0 0
    0 2 4 6  8 6 4 2 0
    2 4 6 8 10 8 6 4 2
    0 2 4 6  8 6 4 2 0
    0 0 2 4  6 4 2 0 0
    0 0 0 2  4 2 0 0 0
    0 0 0 0  2 0 0 0 0
    """)
    np.testing.assert_array_equal(cross(LONE), expected)


def test_cross_one_space_jump_is_the_sum():
    c = cross(JUMP)
    assert c[4, 4] == 8 + 8  # neighbour of both stones
    assert c[4, 3] == 10 + 6  # own 10 plus the other stone's one-space-jump value
    assert c[3, 4] == 6 + 6  # diagonal to both


def test_cross_wall():
    c = cross(WALL)
    # Beside the middle of the wall: 8 from the facing stone + 2 * (6 + 4 + 2) from those above and below.
    assert c[4, 3] == c[4, 1] == 32
    assert c[4, 4] == 6 + 2 * (4 + 2)
    assert c[4, 2] == 10 + 2 * (8 + 6 + 4 + 2)
    assert c[4, 7] == 0  # five columns away


# ------------------------------------------------------------------------------------------ shared

boards = st.integers(min_value=3, max_value=9).flatmap(
    lambda n: st.lists(st.sampled_from([-1, 0, 0, 1]), min_size=n * n, max_size=n * n).map(
        lambda v: np.array(v, dtype=np.int8).reshape(n, n)))


def _naive(board: np.ndarray, model: str) -> np.ndarray:
    """Point-by-point reference implementations, written from the definitions."""
    h, w = board.shape

    def nbrs(r, c):
        return [(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)) if 0 <= r + dr < h and 0 <= c + dc < w]

    if model == "cross":
        out = np.zeros((h, w), dtype=np.int64)
        for r in range(h):
            for c in range(w):
                for rr in range(h):
                    for cc in range(w):
                        out[r, c] += board[rr, cc] * max(0, 10 - 2 * (abs(r - rr) + abs(c - cc)))
        return out
    if model == "zobrist":
        v = board.astype(np.int64) * 64
        for _ in range(4):
            new = v.copy()
            for r in range(h):
                for c in range(w):
                    new[r, c] += sum(int(np.sign(v[q])) for q in nbrs(r, c))
            v = new
        return v
    v = board.astype(np.int64) * 128
    for _ in range(5):
        new = v.copy()
        for r in range(h):
            for c in range(w):
                vals = [v[q] for q in nbrs(r, c)]
                pos, neg = sum(x > 0 for x in vals), sum(x < 0 for x in vals)
                if v[r, c] >= 0 and neg == 0:
                    new[r, c] += pos
                if v[r, c] <= 0 and pos == 0:
                    new[r, c] -= neg
        v = new
    for _ in range(21):
        new = v.copy()
        for r in range(h):
            for c in range(w):
                vals = [v[q] for q in nbrs(r, c)]
                if v[r, c] > 0:
                    new[r, c] = max(0, v[r, c] - sum(x <= 0 for x in vals))
                elif v[r, c] < 0:
                    new[r, c] = min(0, v[r, c] + sum(x >= 0 for x in vals))
        v = new
    return v


@settings(max_examples=25)
@given(boards)
def test_vectorised_models_match_the_definitions(board):
    for model in MODELS:
        np.testing.assert_array_equal(influence_map(board, model), _naive(board, model))


@settings(max_examples=25)
@given(boards)
def test_color_swap_and_symmetry(board):
    for model in MODELS:
        m = influence_map(board, model)
        np.testing.assert_array_equal(influence_map(-board, model), -m)
        np.testing.assert_array_equal(influence_map(board.T.copy(), model), m.T)
        np.testing.assert_array_equal(influence_map(board[::-1].copy(), model), m[::-1])


def test_batches_equal_single_boards():
    rng = np.random.default_rng(0)
    batch = rng.choice(np.array([-1, 0, 0, 1], dtype=np.int8), size=(2, 3, 19, 19))
    for model in MODELS:
        out = influence_map(batch, model)
        assert out.shape == batch.shape and out.dtype == np.int32
        np.testing.assert_array_equal(out[1, 2], influence_map(batch[1, 2], model))


def test_unknown_model_is_rejected():
    with pytest.raises(ValueError, match="unknown influence model"):
        influence_map(LONE, "voronoi")


def test_accepts_a_tengen_board():
    from tengen.go import BLACK, Board

    b = Board(9)
    b.play(BLACK, (4, 4))
    np.testing.assert_array_equal(influence_map(b, "zobrist"), zobrist(LONE))


def test_render_ascii_marks_territory():
    text = render_ascii(JUMP, model="bouzy")
    lines = text.splitlines()
    assert lines[0].split() == list("ABCDEFGHJ")
    assert lines[5].split()[1:-1] == list(". . . X x X . . .".replace(" ", ""))  # row 5 (index 4)
    assert lines[4].split()[1:-1] == list("....x....")
    with_values = render_ascii(JUMP, model="bouzy", values=True)
    assert "142" in with_values and "16" in with_values


def test_render_png_writes_an_image(tmp_path):
    out = render_png(WALL, bouzy(WALL), tmp_path / "wall.png", title="bouzy")
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 2000
