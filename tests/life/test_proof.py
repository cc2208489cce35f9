"""The df-pn life-and-death prover (`tengen.life.proof` over the C search `tengen.life._proof`), data-driven
over ASCII diagrams (X Black, O White, . empty): each fixture's status with either side first, whether it is
proved, and the key move; a budget never yields a wrong proved answer; hostile inputs fail in one line."""
from __future__ import annotations

import random

import pytest

from tengen.go.colors import BLACK, WHITE
from tengen.go.diagram import board_from_diagram
from tengen.life import _proof
from tengen.life.proof import MAX_REGION, default_region, prove

# White's corner eye space of three in a row: the vital point (B1 here, (0, 1)) kills, and lives
STRAIGHT_THREE = """
. . . O X . . . .
O O O O X . . . .
X X X X X . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""

# The L-shaped bent four in the corner, White without outside liberties: Black at the 1-2 point makes a ko
# Black takes first (the shape Japanese rules call dead by convention: Black may start the ko when he likes);
# White first lives at the same point
BENT_FOUR = """
. . . O X . . . .
. O O O X . . . .
O O X X X . . . .
X X X . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""

# Square four: dead whoever moves first
SQUARE_FOUR = """
. . O X . . . . .
. . O X . . . . .
O O O X . . . . .
X X X X . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""

# One sure eye at A9 and a ko for the second: Black takes at C9 ((0, 2)), capturing D9; White cannot make
# the eye without the ko
KO_FOR_LIFE = """
. O . O X . . . .
O O O X . . . . .
X X X X . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""

# Seki: White's group and Black's three inner stones share B9 and F9; whoever fills one is captured
SEKI = """
O . X X X . O X .
O O O O O O O X .
X X X X X X X X .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""

# A ladder: White's F6 stone ((5, 5)) in Black's net; on this empty 11x11 board the ladder works both ways
LADDER = """
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . X . . . .
. . . . X O . . . . .
. . . . . X . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
"""

# The same with White breakers on the four diagonals the ladder could run along
LADDER_BROKEN = """
. . . . . . . . . . .
. O . . . . . . . O .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . X . . . .
. . . . X O . . . . .
. . . . . X . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. O . . . . . . . O .
. . . . . . . . . . .
"""

CASES = [
    # name, diagram, target, first, status, code, key moves (None: any)
    ("straight three, Black first", STRAIGHT_THREE, (1, 0), BLACK, "dead", 1, {(0, 1)}),
    ("straight three, White first", STRAIGHT_THREE, (1, 0), WHITE, "alive", 1, {(0, 1)}),
    ("bent four in the corner, Black first", BENT_FOUR, (1, 1), BLACK, "ko", 2, {(0, 1)}),
    ("bent four in the corner, White first", BENT_FOUR, (1, 1), WHITE, "alive", 1, {(0, 1)}),
    ("square four, Black first", SQUARE_FOUR, (2, 0), BLACK, "dead", 1, None),
    ("square four, White first", SQUARE_FOUR, (2, 0), WHITE, "dead", 0, None),
    ("ko for life, Black first", KO_FOR_LIFE, (1, 0), BLACK, "ko", 2, {(0, 2)}),
    ("ko for life, White first", KO_FOR_LIFE, (1, 0), WHITE, "ko", 2, None),
    ("seki, Black first", SEKI, (1, 0), BLACK, "seki", 0, None),
    ("seki, White first", SEKI, (1, 0), WHITE, "seki", 1, None),
]


@pytest.mark.parametrize("name, diagram, target, first, status, code, moves", CASES, ids=[c[0] for c in CASES])
def test_each_fixture_is_proved_with_its_status(name, diagram, target, first, status, code, moves):
    board = board_from_diagram(diagram)
    result = prove(board, target, first=first)
    assert (result.status, result.code, result.proved, result.basis) == (status, code, True, "proved"), result
    if moves is not None:
        assert result.move in moves
    assert result.nodes >= 1
    if status == "ko":
        assert result.ko_for == first  # the side moving first must win the ko


def test_the_principal_line_is_legal_and_starts_with_the_key_move():
    board = board_from_diagram(STRAIGHT_THREE)
    result = prove(board, (1, 0), first=BLACK)
    assert result.line[0] == result.move
    replay, color = board.copy(), BLACK
    for move in result.line:
        replay.play(color, move)
        color = -color


def test_a_ladder_read_to_the_edge_is_proved_dead():
    board = board_from_diagram(LADDER)
    everything = [(r, c) for r in range(11) for c in range(11)]
    result = prove(board, (5, 5), first=BLACK, region=everything)
    assert (result.status, result.proved, result.code) == ("dead", True, 1)
    assert result.move in {(5, 6), (4, 5)}


# GNU Go's ld_owl test 68 (ld13.sgf after its setup moves and White's B1), its corner turned to the top: White's
# first-line B1 kills Black's group (C4 there, (3, 2) here). Within the 18-point region below, Black's E1 ((0, 4))
# and A6 get liberties on points outside it (F1, A7), which the local game lets nobody play: the defence holds
# there only because White may not fill them
OUTSIDE_LIBERTY = """
. O . O . . . . .
X . X X O O . . .
O . X O O . . . .
X X X O . . . . .
O X O O . . . . .
. O O . . . . . .
. O . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""
OUTSIDE_LIBERTY_REGION = [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (0, 1), (1, 1), (2, 1), (3, 1), (4, 1),
                          (0, 2), (1, 2), (2, 2), (3, 2), (0, 3), (1, 3), (0, 4)]


@pytest.mark.parametrize("region", [OUTSIDE_LIBERTY_REGION, [p for p in OUTSIDE_LIBERTY_REGION if p != (5, 0)]],
                         ids=["with A6", "without A6"])
def test_a_defence_that_leans_on_an_outside_liberty_is_judged_not_proved(region):
    board = board_from_diagram(OUTSIDE_LIBERTY)
    result = prove(board, (3, 2), attacker=WHITE, first=BLACK, region=region, max_nodes=100_000)
    assert (result.status, result.proved, result.basis) == ("alive", False, "outside judged")
    framed = prove(board, (3, 2), attacker=WHITE, first=BLACK, region=region, max_nodes=100_000, framed=True)
    assert framed.proved and framed.status in ("dead", "ko")  # with the outside the attacker's, no outright life


@pytest.mark.parametrize("diagram", [LADDER, LADDER_BROKEN], ids=["no breaker", "breakers"])
def test_a_ladder_leaving_the_region_is_judged_not_proved(diagram):
    board = board_from_diagram(diagram)
    small = [(r, c) for r in range(3, 8) for c in range(3, 8)]  # the breakers lie outside it
    result = prove(board, (5, 5), first=BLACK, region=small)
    assert (result.status, result.proved, result.basis) == ("alive", False, "escape judged")


def test_breakers_inside_the_region_give_no_wrong_proof():
    board = board_from_diagram(LADDER_BROKEN)
    everything = [(r, c) for r in range(11) for c in range(11)]
    result = prove(board, (5, 5), first=BLACK, region=everything, max_nodes=20_000)
    assert not (result.proved and result.status == "dead")  # the breakers save it; life in the open is unread


@pytest.mark.parametrize("diagram, target, first", [(c[1], c[2], c[3]) for c in CASES], ids=[c[0] for c in CASES])
def test_a_small_budget_says_unknown_or_the_right_answer(diagram, target, first):
    board = board_from_diagram(diagram)
    full = prove(board, target, first=first)
    for nodes in (1, 2, 3, 5, 8, 13, 21, 34):
        small = prove(board, target, first=first, max_nodes=nodes)
        if small.status == "unknown":
            assert (small.proved, small.code, small.basis) == (False, None, "budget")
        else:
            assert (small.status, small.code) == (full.status, full.code)


def test_the_seki_budget_of_three_nodes_is_unknown():
    result = prove(board_from_diagram(SEKI), (1, 0), first=BLACK, max_nodes=3)
    assert (result.status, result.proved) == ("unknown", False)


def test_the_default_region_is_the_targets_area_with_the_capturable_inner_stones():
    board = board_from_diagram(SEKI)
    region = set(default_region(board, (1, 0)))
    assert {(0, 1), (0, 2), (0, 3), (0, 4), (0, 5)} <= region  # the shared liberties and Black's inner stones
    assert (2, 0) not in region and (0, 7) not in region  # Black's wall: safe, outside


# GNU Go's ld_owl test 329 (mixed4.sgf) in small: Black's weak L-shape at the bottom (two liberties, (8, 3) and
# (8, 5)) is capturable, so its liberties join White's area; White's chain beyond (8, 3), (7, 2) and (8, 2) with
# (7, 1), must join it too, or it would be a wall the search never captures, next to the fight
BEYOND_A_WEAK_CHAIN = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
X X X X X X X . .
X . O O O . X . .
X . O . O . X . .
X X X O O . X . .
X . O X X O X . .
X X O . X . X . .
"""


def test_the_default_region_takes_the_defenders_chains_beyond_a_weak_chains_liberties():
    board = board_from_diagram(BEYOND_A_WEAK_CHAIN)
    region = set(default_region(board, (4, 2)))
    assert {(7, 3), (7, 4), (8, 4), (8, 3), (8, 5)} <= region  # the weak chain and its liberties
    assert {(7, 2), (8, 2), (7, 1)} <= region  # White's chain beyond (8, 3), and its own point
    assert (3, 0) not in region and (8, 6) not in region  # Black's wall: safe, outside


@pytest.mark.parametrize("kwargs, words", [
    ({"target": (0, 0)}, "not a stone"),
    ({"target": (20, 3)}, "off the board"),
    ({"target": (-1, 0)}, "off the board"),
    ({"target": "A1"}, "(row, col)"),
    ({"target": (1, 0), "region": []}, "region is empty"),
    ({"target": (1, 0), "region": [(0, 0), (9, 9)]}, "off the board"),
    ({"target": (1, 0), "max_nodes": 0}, "max_nodes"),
    ({"target": (1, 0), "seconds": -1.0}, "seconds"),
    ({"target": (1, 0), "attacker": WHITE}, "attacker"),
])
def test_hostile_inputs_fail_in_one_line(kwargs, words):
    board = board_from_diagram(STRAIGHT_THREE)
    with pytest.raises(ValueError) as error:
        prove(board, **kwargs)
    assert words in str(error.value) and "\n" not in str(error.value)


def test_a_region_over_the_limit_is_refused():
    board = board_from_diagram("\n".join([". " * 12] * 12).replace(". " * 12, ". " * 5 + "O " + ". " * 6, 1))
    everything = [(r, c) for r in range(12) for c in range(12)]
    with pytest.raises(ValueError, match=f"more than {MAX_REGION}"):
        prove(board, (0, 5), region=everything)


@pytest.mark.parametrize("args, words", [
    ((0, 9, b"", b"", 0, 1, 1, 1, 0, 10, 0.0, 10), "sides"),
    ((3, 3, b"\0" * 8, b"\1" * 9, 0, 1, 1, 1, 0, 10, 0.0, 10), "width\\*height"),
    ((3, 3, b"\2" + b"\0" * 8, b"\1" * 9, 9, 1, 1, 1, 0, 10, 0.0, 10), "off the board"),
    ((3, 3, b"\2" + b"\0" * 8, b"\1" * 9, 0, 3, 1, 1, 0, 10, 0.0, 10), "colours"),
    ((3, 3, b"\2" + b"\0" * 8, b"\0" * 9, 0, 1, 1, 1, 0, 10, 0.0, 10), "region is empty"),
    ((3, 3, b"\7" + b"\0" * 8, b"\1" * 9, 0, 1, 1, 1, 0, 10, 0.0, 10), "0, 1 or 2"),
    ((3, 3, b"\1" + b"\0" * 8, b"\1" * 9, 0, 1, 1, 1, 0, 10, 0.0, 10), "not a stone of the defender"),
    ((3, 3, b"\2" + b"\0" * 8, b"\1" * 9, 0, 1, 1, 1, 0, 10, 0.0, 99), "tt_bits"),
    ((3, 3, b"\2" + b"\0" * 8, b"\1" * 9, 0, 1, 1, 1, 0, 0, 0.0, 10), "max_nodes"),
    ((3, 3, b"\2" + b"\0" * 8, b"\1" * 9, 0, 1, 1, 1, 0, 10, 0.0, 10, b"\0" * 9, 3), "focus"),
])
def test_the_c_boundary_checks_its_arguments(args, words):
    with pytest.raises(ValueError, match=words):
        _proof.solve(*args)


def test_a_whole_small_board_is_solved_in_c():
    # 3x3, White's single stone at the corner, Black to move: two liberties, Black captures in three moves
    result = _proof.solve(3, 3, b"\2" + b"\0" * 8, b"\1" * 9, 0, 1, 1, 1, 0, 10_000, 0.0, 12)
    assert result[0] == 1 and result[2]


def test_random_inputs_never_crash_the_c_search():
    rng = random.Random(58)
    for _ in range(400):
        w, h = rng.randint(1, 7), rng.randint(1, 7)
        cells = bytes(rng.choice((0, 0, 1, 2)) for _ in range(w * h))
        region = bytes(rng.choice((0, 1, 1)) for _ in range(w * h))
        stones = [i for i, c in enumerate(cells) if c]
        target = rng.choice(stones) if stones else 0
        attacker = 3 - cells[target] if cells[target] else 1
        try:
            winner, nodes, line, end, flags = _proof.solve(w, h, cells, region, target, attacker, rng.choice((1, 2)),
                                                           rng.choice((1, 2)), rng.randint(0, 1),
                                                           rng.randint(1, 3000), 0.0, 10)
        except ValueError:
            continue
        assert winner in (-1, 0, 1) and nodes >= 1 and 0 <= end <= 3 and 0 <= flags <= 15
        assert all(m == -1 or (0 <= m < w * h and region[m]) for m in line)


# White's pass-alive corner and its stone E6 ((3, 4)) in atari, linked by the liberty D6: capturing the stone
# does not kill the group
GROUP_WITH_A_CUTTING_STONE = """
. O . O X . . . .
O O O O X . . . .
X X X O X . . . .
. . X . O X . . .
. . . . X . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""


def test_the_group_is_its_dragon_so_taking_one_stone_does_not_kill_it():
    board = board_from_diagram(GROUP_WITH_A_CUTTING_STONE)
    whole = prove(board, (3, 4), first=BLACK)
    assert (whole.status, whole.proved, whole.code) == ("alive", True, 0)
    alone = prove(board, (3, 4), first=BLACK, group=[(3, 4)])
    assert (alone.status, alone.proved, alone.code, alone.move) == ("dead", True, 1, (3, 3))


def _chain(cells, w, h, p):
    color, seen, todo, libs = cells[p], {p}, [p], set()
    while todo:
        q = todo.pop()
        r, c = divmod(q, w)
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= rr < h and 0 <= cc < w:
                n = rr * w + cc
                if cells[n] == 0:
                    libs.add(n)
                elif cells[n] == color and n not in seen:
                    seen.add(n)
                    todo.append(n)
    return seen, libs


def _play(cells, w, h, p, color, komaster):
    """The local game's move on a whole-board region (the C search's rules): None where illegal."""
    cells = list(cells)
    cells[p] = color
    r, c = divmod(p, w)
    taken = 0
    for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
        n = rr * w + cc
        if 0 <= rr < h and 0 <= cc < w and cells[n] == 3 - color:
            stones, libs = _chain(cells, w, h, n)
            if not libs:
                taken += len(stones)
                for s in stones:
                    cells[s] = 0
    stones, libs = _chain(cells, w, h, p)
    if not libs or (taken == 1 and len(stones) == 1 and len(libs) == 1 and color != komaster):
        return None
    return tuple(cells)


def _attacker_wins(cells, w, h, target, attacker, mover, komaster, path):
    """Exhaustive minimax: the attacker never passes, the defender may; a repeated position is the
    defender's."""
    if cells[target] != 3 - attacker:
        return True
    key = (cells, mover)
    if key in path:
        return False
    path = path | {key}
    moves = [p for p in range(w * h) if cells[p] == 0]
    results = []
    for p in moves:
        after = _play(cells, w, h, p, mover, komaster)
        if after is not None:
            results.append(_attacker_wins(after, w, h, target, attacker, 3 - mover, komaster, path))
            if results[-1] == (mover == attacker):
                return results[-1]
    if mover != attacker:
        results.append(_attacker_wins(cells, w, h, target, attacker, attacker, komaster, path))
    return any(results) if mover == attacker else all(results)


@pytest.mark.parametrize("with_costs", [False, True], ids=["plain", "random move costs"])
def test_the_search_agrees_with_exhaustive_minimax_on_tiny_boards(with_costs):
    # move costs (a network's policy, `tengen.life.prior`) change the search's order, never its answer
    rng = random.Random(27 if with_costs else 26)
    checked = 0
    for _ in range(120):
        w, h = rng.choice(((2, 3), (3, 2), (1, 5), (2, 2)))
        cells = tuple(rng.choice((0, 0, 1, 2)) for _ in range(w * h))
        stones = [i for i, v in enumerate(cells) if v]
        if not stones or any(not _chain(cells, w, h, s)[1] for s in stones):
            continue
        target = rng.choice(stones)
        attacker, mover, komaster = 3 - cells[target], rng.choice((1, 2)), rng.choice((1, 2))
        costs = bytes(rng.randint(0, 20) for _ in range(2 * (w * h + 1))) if with_costs else b""
        winner, _, _, _, flags = _proof.solve(w, h, bytes(cells), b"\1" * (w * h), target, attacker, mover, komaster,
                                              0, 200_000, 0.0, 12, bytes(w * h), 0, costs)
        if winner == -1 or flags & 6:  # the budget, the depth cap or a repetition: no claim to check
            continue
        assert bool(winner) == _attacker_wins(cells, w, h, target, attacker, mover, komaster, frozenset()), cells
        checked += 1
    assert checked >= 40


def test_a_weak_attacker_stone_on_the_areas_edge_is_capturable_not_a_wall():
    """Ishigure 077 (sanderland): Black's (0, 14) has liberties (0, 13) and (0, 15); the second lies
    outside White's area, and without it White's capture at (0, 15) was never searched (a wrong proof)."""
    rows = ["..........XO..X....", "..........XO.OOXX..", "..........XO..XOX..", "..........XO.O.O.X.",
            "..........XXXOO.OX.", ".............XX.X..", "...............X.X."]
    from tengen.go.board import Board

    board = Board(19)
    board.setup(black=[(r, c) for r, row in enumerate(rows) for c, v in enumerate(row) if v == "X"],
                white=[(r, c) for r, row in enumerate(rows) for c, v in enumerate(row) if v == "O"])
    region = set(default_region(board, (0, 11)))
    assert {(0, 14), (0, 15)} <= region


def test_a_focused_search_proves_only_what_exhaustive_minimax_agrees_with():
    # a search that plays one side's moves only near the group (the C search's `relevant`) may miss that side's
    # goal, never prove a wrong one: its win for the focused side agrees with the full game's minimax
    rng = random.Random(61)
    checked, pruned = {1: 0, 2: 0}, 0
    for _ in range(300):
        w, h = rng.choice(((1, 6), (1, 7), (2, 3), (3, 2)))
        cells = tuple(rng.choice((0, 0, 0, 1, 2)) for _ in range(w * h))
        stones = [i for i, v in enumerate(cells) if v]
        if not stones or any(not _chain(cells, w, h, s)[1] for s in stones):
            continue
        target = rng.choice(stones)
        attacker, mover, komaster = 3 - cells[target], rng.choice((1, 2)), rng.choice((1, 2))
        focus = rng.choice((attacker, 3 - attacker))
        winner, _, _, _, flags = _proof.solve(w, h, bytes(cells), b"\1" * (w * h), target, attacker, mover, komaster,
                                              0, 200_000, 0.0, 12, bytes(w * h), focus)
        if winner != (1 if focus == attacker else 0) or flags & 6:
            continue  # not the focused side's goal (no claim), or a budget, depth or repetition caveat
        assert bool(winner) == _attacker_wins(cells, w, h, target, attacker, mover, komaster, frozenset()), cells
        checked[1 if focus == attacker else 2] += 1
        pruned += bool(flags & 8)  # the focus left a move out on the way
    assert checked[1] >= 20 and checked[2] >= 20 and pruned >= 10, (checked, pruned)


@pytest.mark.parametrize("name, diagram, target, first, status, code, moves", CASES, ids=[c[0] for c in CASES])
def test_move_costs_change_the_order_never_the_answer(name, diagram, target, first, status, code, moves):
    # costs (a network's policy, `tengen.life.prior`) only raise new children's proof numbers: any costs at all,
    # here random ones, leave every fixture's proved status and code as they are
    board = board_from_diagram(diagram)
    rng = random.Random(name)
    for _ in range(3):
        costs = bytes(rng.randint(0, 12) for _ in range(2 * (board.width * board.height + 1)))
        result = prove(board, target, first=first, costs=costs)
        assert (result.status, result.code, result.proved) == (status, code, True), (result, costs)
        if moves is not None:
            assert result.move in moves


def test_the_c_boundary_checks_the_costs_length():
    with pytest.raises(ValueError, match="costs"):
        _proof.solve(3, 3, b"\2" + b"\0" * 8, b"\1" * 9, 0, 1, 1, 1, 0, 10, 0.0, 10, b"\0" * 9, 0, b"\1" * 9)

