"""The exhaustive local solver: its rules against the rules core, settledness, kos, known shapes,
color symmetry, budgets, and the dev set (where the shared data is present)."""
from __future__ import annotations

import json
import random
from fractions import Fraction as F

import numpy as np
import pytest

from conftest import shared_data
from sealed_walls import SEALED_TOP
from tengen.cgt.numbers import INF
from tengen.go import BLACK, WHITE, Board, Rules
from tengen.go.coords import from_gtp
from tengen.go.diagram import parse_diagram
from tengen.endgame.exact import ExhaustiveConfig, solve_region
from tengen.endgame.exact import LocalRegion, RegionNotSealed

TOP = SEALED_TOP

SHAPES = {
    # name: (rows 2 and 1, region, mean, temperature, kind, best black, best white)
    "first-line hane, Black sente": (". . . X O . . . .\n. . . X . . . . .", "E1 F1", F(0), F(2), "black_sente",
                                     ["E1"], ["E1"]),
    "capture two stones": (". . X X O . . . .\n. X O O . . . . .", "B1 C1 C2 D1 E1 F1", F(1), F(3), "gote",
                           ["E1"], ["E1"]),
    "first-line hane, 1 point gote": (". . . X X O . . .\n. . . X . . . . .", "E1 F1 G1", F(-1, 2), F(3, 2), "gote",
                                      ["F1"], ["F1"]),
    "simple ko": (". . . X O . . . .\n. . X O . O . . .", "C1 D1 E1 F1", F(-2, 3), F(4, 3), "ko", ["E1"], ["E1"]),
}


# 2 x n strips on the first and second lines (the region, *), Black's Benson-alive wall over the left half and
# White's over the right, the longer by one for an odd n (bench/exhaustive_size.py's edge_strip(n) builds them)
STRIPS = {
    2: """
. X O .
X X O O
. X O .
X X O O
X * * O
X * * O
""",
    3: """
. X O O .
X X O O O
. X O O .
X X O O O
X * * * O
X * * * O
""",
    4: """
. X X O O .
X X X O O O
. X X O O .
X X X O O O
X * * * * O
X * * * * O
""",
    6: """
. X X X O O O .
X X X X O O O O
. X X X O O O .
X X X X O O O O
X * * * * * * O
X * * * * * * O
""",
}


def marked(diagram: str) -> tuple[Board, list]:
    """A diagram's board (area scoring, no komi) and its region, the points marked *."""
    grid, marks = parse_diagram(diagram)
    board = Board(grid.shape[1], grid.shape[0], rules=Rules.chinese(komi=0))
    board.set_array(grid)
    return board, marks["*"]


def strip(n: int) -> tuple[Board, list]:
    """The strip of length n as (board, region points)."""
    return marked(STRIPS[n])


def test_strips_are_the_bench_shape():
    import importlib.util

    from datapaths import REPO

    spec = importlib.util.spec_from_file_location("exhaustive_size", REPO / "bench" / "exhaustive_size.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    for n in STRIPS:
        ours, region = strip(n)
        theirs, their_region = bench.edge_strip(n)
        np.testing.assert_array_equal(ours.array(), theirs.array())
        assert region == their_region and ours.rules == theirs.rules


def board_of(bottom: str, rules=None) -> Board:
    grid, _ = parse_diagram(TOP + bottom)
    board = Board(grid.shape[1], grid.shape[0], rules=rules or Rules.chinese(komi=0))
    board.set_array(grid)
    return board


def points(text: str, height: int = 9) -> list:
    return [from_gtp(v, height) for v in text.split()]


def mirrored(board: Board, region: list) -> tuple[Board, list]:
    """Left-right mirror with colors swapped: every value should change sign."""
    grid = -board.array()[:, ::-1]
    other = Board(board.width, board.height, rules=board.rules)
    other.set_array(grid)
    return other, [(r, board.width - 1 - c) for r, c in region]


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_known_shapes(name):
    bottom, region, mean, temp, kind, best_b, best_w = SHAPES[name]
    board = board_of(bottom)
    res = solve_region(board, points(region), ExhaustiveConfig(moves="all"))
    assert res.status == "ok", res.reason
    assert (res.mean, res.temperature, res.kind) == (mean, temp, kind)
    assert res.best_black == points(" ".join(best_b)) and res.best_white == points(" ".join(best_w))


def test_simple_ko_is_valued_by_the_phantom_rule():
    board = board_of(SHAPES["simple ko"][0])
    res = solve_region(board, points("C1 D1 E1 F1"))
    assert res.ko is not None and res.ko.moves == 3 and res.ko.mean == F(-2, 3)
    assert res.move_values.miai == F(1, 3) and res.move_values.deiri is None
    assert not res.ko_dependent


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_color_mirror_symmetry(name):
    bottom, region, *_ = SHAPES[name]
    board = board_of(bottom)
    a = solve_region(board, points(region), ExhaustiveConfig(moves="all"))
    b = solve_region(*mirrored(board, points(region)), ExhaustiveConfig(moves="all"))
    swap = {"black_sente": "white_sente", "white_sente": "black_sente"}
    assert b.mean == -a.mean and b.temperature == a.temperature and b.kind == swap.get(a.kind, a.kind)


def test_principal_variation_of_the_sente_hane():
    board = board_of(SHAPES["first-line hane, Black sente"][0])
    res = solve_region(board, points("E1 F1"))
    assert res.principal_black == [(BLACK, from_gtp("E1", 9)), (WHITE, from_gtp("F1", 9))]
    assert res.principal_white == [(WHITE, from_gtp("E1", 9))]


FOLLOW_UPS = {
    # shape: (rows 2 and 1, region, mean, temperature, kind, temperature left after Black's first move,
    #         after White's; "threat": the move threatens a seal break that must be answered; "settled": a number, below 0)
    "first-line hane, Black sente": (SHAPES["first-line hane, Black sente"][0], "E1 F1", F(0), F(2), "black_sente",
                                     "threat", "settled"),
    # Black's block D1 or White's push D1 and Black's block C1 (the corridor A1-D1 under Black's wall):
    # {4 | {2 | {0 | -3}}}. White's push leaves {2 | {0 | -3}} at temperature 7/4, just below the push's own
    # 15/8, so by the thermograph the push is gote; its follow-up is what players weigh when they call it sente.
    "first-line corridor push": ("X X X X O . . . .\n. . . . O . . . .", "A1 B1 C1 D1", F(17, 8), F(15, 8), "gote",
                                 "settled", F(7, 4)),
}


@pytest.mark.parametrize("name", sorted(FOLLOW_UPS))
def test_the_temperature_each_first_move_leaves(name):
    bottom, region, mean, temperature, kind, after_black, after_white = FOLLOW_UPS[name]
    res = solve_region(board_of(bottom), points(region))
    assert (res.mean, res.temperature, res.kind) == (mean, temperature, kind)
    for got, want in ((res.follow_black, after_black), (res.follow_white, after_white)):
        if want == "threat":
            assert got == INF
        elif want == "settled":
            assert got is not None and got < 0
        else:
            assert got == want


def test_local_rules_match_the_rules_core():
    """Random local move sequences (either color may move twice: play elsewhere) on the strip: legality,
    captures and the simple-ko ban agree with tengen.go.Board."""
    rng = random.Random(3)
    board0, region = strip(6)
    local = LocalRegion(board0, region)
    checked = 0
    for _ in range(25):
        board = board0.copy()
        b, w, ban = local.start[BLACK], local.start[WHITE], None
        for _ in range(40):
            color = rng.choice((BLACK, WHITE))
            legal = []
            for i, p in enumerate(local.points):
                nxt = local.play(b, w, color, i)
                ours = nxt is not None and ban != (i, color)
                assert ours == (board.legality(color, p) is None), (p, color)
                checked += 1
                if ours:
                    legal.append((i, nxt))
            if not legal:
                break
            i, (b, w, ban) = rng.choice(legal)
            board.play(color, local.points[i])
            grid = board.array()
            for j, p in enumerate(local.points):
                expect = BLACK if b >> j & 1 else WHITE if w >> j & 1 else 0
                assert grid[p] == expect
            assert (board.ko is None) == (ban is None)
            if ban is not None:
                assert board.ko == (local.points[ban[0]], ban[1])
    assert checked > 1000


def test_settledness_dead_stones_and_breaks():
    board = board_of(". . . X O . . . .\n. . . X . . . . .")
    local = LocalRegion(board, points("E1 F1"))
    e1, f1 = 1, 2  # bit masks: points are sorted, E1 = (8, 4) first
    info = local.analyze(0, 0)
    assert not info.settled and info.open_points == e1 | f1
    info = local.analyze(0, e1 | f1)  # White fills both: White's territory
    assert info.settled and info.count == -2
    info = local.analyze(e1, f1)  # Black E1, White F1: settled, one each
    assert info.settled and info.count == 0
    info = local.analyze(e1 | f1, 0)  # Black reaches G1, White's outside territory: a threat leaf
    assert info.settled and info.threat == BLACK
    # a White stone enclosed in Black's small area is dead and counts for Black
    board = board_of(". . X X O . . . .\n. X O . X . . . .")
    local = LocalRegion(board, points("C1 D1"))
    info = local.analyze(0, 1)
    assert info.settled and info.count == 2


def test_not_sealed_and_budget():
    board = board_of(". . . X . . . . .\n. . . . . . . . .")  # E2 open: the two sides' areas meet
    with pytest.raises(RegionNotSealed):
        solve_region(board, points("E1"))
    board, region = strip(6)
    from devkit.python_search import PYTHON

    res = solve_region(board, region, ExhaustiveConfig(max_nodes=50, engine=PYTHON))
    assert res.status == "too_large" and "too large" in res.reason and res.nodes == 51
    # the native engine's budget also counts the positions it merged (settled parts filled): fewer searched
    res = solve_region(board, region, ExhaustiveConfig(max_nodes=50, engine="native"))
    assert res.status == "too_large" and res.reason == "too large: more than 50 positions" and res.nodes <= 50


def test_untrusted_walls_are_noted():
    # walls that are not pass-alive but keep liberties outside the region (rows 0 and 4)
    board, region = marked("""
        . . . .
        X X X X
        * * * *
        O O O O
        . . . .
    """)
    res = solve_region(board, region, ExhaustiveConfig(max_nodes=10_000))
    assert res.status == "ok"
    assert any("not Benson" in n for n in res.notes)
    with pytest.raises(RegionNotSealed):
        solve_region(board, region, ExhaustiveConfig(require_benson=True))


def test_walls_whose_liberties_all_lie_in_the_region_are_not_walls():
    # Black's and White's lines live or die by the row between them: the local game, which takes walls
    # as safe, would answer another question; kata's sealed rules may still trust them
    board, region = marked("""
        X X X X
        * * * *
        O O O O
    """)
    with pytest.raises(RegionNotSealed, match="no liberty outside the region"):
        solve_region(board, region, ExhaustiveConfig(max_nodes=10_000))
    assert LocalRegion(board, region, trust_enclosed_walls=True).n == 4


def test_small_strip_is_symmetric():
    board, region = strip(2)
    res = solve_region(board, region, ExhaustiveConfig(moves="all"))
    assert res.status == "ok" and res.mean == 0


# Problems of the dev set the exhaustive search reproduces exactly (the others differ for reasons
# explained by bench/cgt_devset.py: hand-made ±inf simplifications, an omitted first-line move, loops).
DEV_MATCHES = ["P01", "P03", "P04", "P06", "P07", "P08", "P09", "P10", "K01", "P13",
               "P01s", "P03s", "P06s", "P07s", "P08s", "P09s", "P10s", "P13s", "K01s", "P07m", "P10m", "K01m"]


def test_dev_set_matches():
    from devkit.devset import load_problems

    path = shared_data("endgame_dev", "problems.json")
    problems = {p.id: p for p in load_problems(path)}
    assert len(json.loads(path.read_text())) == 33
    for pid in DEV_MATCHES:
        p = problems[pid]
        res = solve_region(p.board, p.region.points, ExhaustiveConfig(moves="all"))
        kind = {"gote": "gote", "ko": "ko"}.get(p.expected_type) or \
            {"B": "black_sente", "W": "white_sente"}[p.sente_player]
        assert (res.status, res.mean, res.temperature, res.kind) == \
            ("ok", p.expected_mean, p.expected_temperature, kind), pid


@pytest.mark.parametrize("name", ["first-line hane, Black sente", "capture two stones", "first-line hane, 1 point gote"])
def test_essential_game_has_the_solved_thermograph(name):
    bottom, region, *_ = SHAPES[name]
    res = solve_region(board_of(bottom), points(region))
    assert res.game is not None
    assert res.game.thermograph.same_thermograph(res.thermograph)


def test_a_ko_inside_gives_no_plain_game_but_joins_orthodox_play_as_a_stand_in():
    from tengen.endgame.cgt_bridge import _component
    from tengen.endgame.results import RegionResult

    bottom, region, *_ = SHAPES["simple ko"]
    res = solve_region(board_of(bottom), points(region))
    assert res.kind == "ko" and res.game is None
    gote = solve_region(board_of(SHAPES["capture two stones"][0]), points(SHAPES["capture two stones"][1]))
    holder = RegionResult.__new__(RegionResult)
    holder.kind, holder.game, holder.ko = gote.kind, gote.thermograph, None  # as if a ko lay inside
    stand = _component(holder)
    assert (stand.thermograph.mean, stand.thermograph.temperature, stand.thermograph.kind) == \
        (gote.mean, gote.temperature, gote.kind)


@pytest.mark.slow
@pytest.mark.parametrize("pid", ["P02", "P02s", "P02m"])
def test_second_line_hane_connect_with_repetitions(pid):
    """The 10-point second-line hane-connect has capture-and-refill repetitions: valued with nobody
    winning them it is the textbook gote of area temperature 4, in every orientation."""
    from devkit.devset import load_problems

    p = {q.id: q for q in load_problems(shared_data("endgame_dev", "problems.json"))}[pid]
    res = solve_region(p.board, p.region.points, ExhaustiveConfig(moves="all"))
    assert (res.status, res.kind, res.mean, res.temperature, res.loop_dependent) == ("ok", "gote", 0, 4, True)
    assert res.bracket[0].mean < 0 < res.bracket[1].mean
    strict = solve_region(p.board, p.region.points, ExhaustiveConfig(moves="all", strict_kos=True))
    assert strict.status == "unsupported"


def _plain_positions(game) -> int:
    """Distinct non-number nodes of an essential game."""
    seen: set = set()

    def walk(g):
        if id(g) in seen or g.number is not None:
            return
        seen.add(id(g))
        for option in (*g.left, *g.right):
            walk(option)

    walk(game)
    return len(seen)


@pytest.mark.parametrize("name,needed", [("first-line hane, Black sente", 2), ("capture two stones", None),
                                         ("first-line hane, 1 point gote", None), ("simple ko", 2)])
def test_positions_the_thermograph_needs(name, needed):
    # between the essential game's hot nodes and all positions searched (it also walks cold unsettled
    # positions, whose value still has to be established); the hane and the ko: both positions are needed
    bottom, region, *_ = SHAPES[name]
    res = solve_region(board_of(bottom), points(region), ExhaustiveConfig(count_essential=True))
    if needed is not None:
        assert res.essential_nodes == needed == res.nodes
    assert (_plain_positions(res.game) if res.game else 1) <= res.essential_nodes <= res.nodes
    assert solve_region(board_of(bottom), points(region)).essential_nodes is None  # only when asked


def test_independent_parts_are_cut_only_by_safe_stones():
    """The strip falls apart where a column holds safe stones (chains touching their own wall); the same
    column of unsafe stones (White under Black's wall) cuts nothing."""
    board, region = strip(4)  # rows 4-5, columns 1-4; Black's wall over columns 0-2
    local = LocalRegion(board, region)

    def mask(*pts):
        return sum(1 << local.points.index(p) for p in pts)

    column = mask((4, 2), (5, 2))
    assert local.independent_parts(0, 0) == 1
    assert local.independent_parts(column, 0) == 2  # column 1 and columns 3-4
    assert local.independent_parts(0, column) == 1  # White's stones touch only Black's wall: unsafe
    assert local.independent_parts(mask((4, 1), (5, 1)), 0) == 1  # at the strip's end: nothing left over
    res = solve_region(board, region, ExhaustiveConfig(count_essential=True, seconds=None))  # ~4,000 positions
    assert 0 < res.split_nodes < res.nodes


CORNER_4 = """
    . X O O O O .
    X X O O O O O
    . X O O O O .
    X X O O O O O
    X X O O O O O
    . . . . O O O
    . . . . O O O
    . . . . O O O
"""


def test_the_benchs_corner_is_a_region_between_two_eyed_walls():
    """bench/exhaustive_size.py's corner (its `seconds_corner_30` line): the first three lines from the corner,
    Black's wall over the corner's half, White's over the rest and down the far end, both Benson-alive."""
    import importlib.util

    from datapaths import REPO

    from tengen.endgame.exact import LocalRegion

    spec = importlib.util.spec_from_file_location("exhaustive_size", REPO / "bench" / "exhaustive_size.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    board, region = bench.corner_region(4)
    grid, _ = parse_diagram(CORNER_4)
    np.testing.assert_array_equal(board.array(), grid)
    assert sorted(region) == [(r, c) for r in (5, 6, 7) for c in range(4)]
    assert LocalRegion(board, region, require_benson=True).n == 12  # walls pass-alive: no RegionNotSealed
    assert len(bench.corner_region(10)[1]) == 30
