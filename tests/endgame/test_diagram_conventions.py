"""The local game of a marked diagram (issue 38, item 2; docs/LOCAL_GAME.md, `tengen.endgame.exact.rules`).

A user's mask (SQ[] markup, `source == "mask"`) is not sealed by pass-alive walls. Its local game:
- play only on the region's points (and on the points of chains that joined it);
- outside stones next to the region are walls, trusted alive, unless the chain's liberties all lie inside
  the region: then the chain joins the local game (capturable) -- also when the mask cuts through it;
- an outside empty area bordered by one colour (the region's own stones included) is that colour's
  territory: the opponent's safe chain reaching it breaks the seal (a ±inf threat);
- an outside empty area bordered by both colours or by none goes, point by point, to the colour of the
  nearest stones; equally near, or no stone at all: neutral (dame, owned by nobody, never filled), so a
  region point next to it borders both colours and a stone there cannot be captured locally;
- area scoring over the region (joined chains included): seki stones count, shared liberties are dame;
  kos by the phantom rule.
Each convention has an ASCII fixture; the whole-board reading differs where the docs say."""
from __future__ import annotations

from fractions import Fraction

import pytest

from tengen.endgame.analysis import analyze_regions
from tengen.endgame.exact import ExhaustiveConfig, solve_region
from tengen.endgame.exact import LocalRegion
from tengen.endgame.options import AnalysisOptions
from tengen.endgame.regions import Region
from tengen.go.colors import BLACK, WHITE
from tengen.go.coords import from_gtp
from tengen.go.diagram import board_from_diagram
from tengen.go.rules import Rules

AUTO = AnalysisOptions(predictor="auto")


def board_of(diagram: str):
    return board_from_diagram(diagram, rules=Rules.chinese(komi=0))


def pts(board, vertices: str) -> list:
    return [from_gtp(v, board.height, board.width) for v in vertices.split()]


def local(board, vertices: str) -> LocalRegion:
    return LocalRegion(board, pts(board, vertices), vouched=True)


def solve(board, vertices: str):
    return solve_region(board, pts(board, vertices), ExhaustiveConfig(vouched=True, max_nodes=50_000))


def bit(loc: LocalRegion, board, vertex: str) -> int:
    return 1 << loc.index[from_gtp(vertex, board.height, board.width)]


def auto(board, vertices: str):
    """`auto` on the marked region with no network at all: it must be solved exactly."""
    region = Region(0, frozenset(pts(board, vertices)), "mask")
    (result,) = analyze_regions(board, [region], None, AUTO)
    assert result.method == "exhaustive", result.declined
    return result


# The first-line hane-connect on an open board: C1 and H1 lead to the open area, which borders both colours;
# each goes to its nearest stones (C1: Black's C2, H1: White's H2), so the textbook value comes out.
OPEN_HANE_CONNECT = """
    . . . . . . . . . .
    . X X X X O O O O .
    . . . . . . . . . .
"""


def test_an_open_outside_area_goes_to_the_nearest_stones():
    board = board_of(OPEN_HANE_CONNECT)
    loc = local(board, "D1 E1 F1 G1")
    assert loc.wall[BLACK] & bit(loc, board, "D1") and loc.breach[WHITE] & bit(loc, board, "D1")  # C1 is Black's
    assert loc.wall[WHITE] & bit(loc, board, "G1") and loc.breach[BLACK] & bit(loc, board, "G1")  # H1 is White's
    result = auto(board, "D1 E1 F1 G1")
    assert (result.count, result.temperature, result.kind) == (0, 2, "gote")


def test_moves_stay_on_the_region_points():
    board = board_of(OPEN_HANE_CONNECT)
    result = auto(board, "D1 E1 F1 G1")
    region = set(pts(board, "D1 E1 F1 G1"))
    played = {p for _, p in result.principal_black + result.principal_white} | set(result.best_black + result.best_white)
    assert played and played <= region


# C2 is as near to Black's A3 as to White's E3: neutral. B1 is Black's, D1 White's.
TIE = """
    . . . . .
    . . . . .
    X . . . O
    . . . . .
    . . . . .
"""


def test_an_outside_point_equally_near_both_colours_is_neutral():
    board = board_of(TIE)
    loc = local(board, "C1")
    c1 = bit(loc, board, "C1")
    assert loc.wall[BLACK] & c1 and loc.wall[WHITE] & c1  # borders both colours through the neutral C2
    assert loc.breach[BLACK] & c1 and loc.breach[WHITE] & c1  # and both sides' territories (B1, D1)
    assert any("neutral outside points" in n and "C2" in n for n in loc.notes)


EMPTY = """
    . . . . .
    . . . . .
    . . . . .
    . . . . .
    . . . . .
"""


def test_an_outside_area_with_no_stone_is_neutral_not_a_refusal():
    # formerly "outside point borders no stone": every outside neighbour is dame, nobody's
    board = board_of(EMPTY)
    loc = local(board, "C3")
    assert loc.breach == {BLACK: 0, WHITE: 0} and loc.wall == {BLACK: 1, WHITE: 1}
    result = auto(board, "C3")
    assert result.count == 0


def test_a_stone_next_to_a_neutral_point_cannot_be_captured_locally():
    # White's C3 touches the neutral B3, C4, D3 (no stone is nearer to them than White's own C3 and
    # Black's C2: a tie): it keeps a liberty nobody fills, so Black's moves cannot capture it
    board = board_of("""
        . . . . .
        . . . . .
        . . O . .
        . X X X .
        . . . . .
    """)
    loc = local(board, "C3")
    assert loc.wall[WHITE] & bit(loc, board, "C3")
    result = auto(board, "C3")
    assert result.count == -1


# Black's C1 is a marked stone joined to its wall C2; D1 E1 are bordered by White's D2 E2 and by Black's
# C1: both colours, and D1 is as near to C1 as to D2: neutral. (Unmarked, nobody vouching, D1 would be
# White's and the start already a break-in: tests/endgame/test_unsolved.py.)
REGION_STONE = """
    . . . . .
    X X X O O
    . . X . .
"""


def test_the_regions_own_stones_border_the_outside():
    board = board_of(REGION_STONE)
    loc = local(board, "C1")
    assert loc.breach[BLACK] == 0
    result = auto(board, "C1")
    assert (result.count, result.kind) == (1, "number")


# White's A2..C2 keep liberties A3 B3 C3 outside the region: a trusted wall, never captured; the marked
# White stone B1 touches it, so Black's A1 after C1 captures nothing: it is suicide.
TRUSTED_WALL = """
    . . . . .
    O O O X .
    . O . X .
"""


def test_a_wall_with_a_liberty_outside_is_trusted_alive():
    board = board_of(TRUSTED_WALL)
    loc = local(board, "A1 B1 C1")
    assert loc.n == 3 and not any("joined" in n for n in loc.notes)
    assert any("walls trusted" in n and "A2" in n for n in loc.notes)
    b, w = loc.start[BLACK], loc.start[WHITE]
    b, w, _ = loc.play(b, w, BLACK, loc.index[from_gtp("C1", board.height, board.width)])
    assert loc.play(b, w, BLACK, loc.index[from_gtp("A1", board.height, board.width)]) is None  # suicide, no capture
    assert auto(board, "A1 B1 C1").count == -2  # A1 and B1 White's; C1, between safe stones of both colours, dame


# Black's A2 B2 C2 have no liberty outside the marked first line: their life is what the region decides,
# so they join the local game (capturable); they cannot make two eyes there, so all 7 points are White's.
ENCLOSED = """
    O O O O . .
    X X X O . .
    . . . . O .
"""


def test_a_chain_whose_liberties_all_lie_inside_joins_the_local_game():
    board = board_of(ENCLOSED)
    loc = local(board, "A1 B1 C1 D1")
    assert loc.n == 7 and loc.start[BLACK] == sum(bit(loc, board, v) for v in ("A2", "B2", "C2"))
    assert any("joined to the region" in n and "A2" in n for n in loc.notes)
    result = auto(board, "A1 B1 C1 D1")
    assert result.count == -7  # area over the region and the joined chain: the dead stones' points are White's


def test_a_mask_cutting_through_an_enclosed_chain_joins_the_rest_of_it():
    board = board_of(ENCLOSED)
    loc = local(board, "A1 B1 C1 D1 C2")  # C2 is one stone of the chain A2 B2 C2
    assert loc.n == 7
    assert auto(board, "A1 B1 C1 D1 C2").count == -7


# The mask cuts through Black's chain A2..D2 + D1: its outside part keeps liberties (A1, B1, row 3), so the
# marked stone D1 is safe (a wall touches it), and E1, between safe stones of both colours, is dame (0).
CUT_GROUP = """
    . . . . . .
    X X X X O O
    . . . X . O
"""


def test_a_cut_group_with_liberties_outside_is_a_wall_for_its_marked_part():
    board = board_of(CUT_GROUP)
    loc = local(board, "C1 D1 E1")
    assert loc.n == 3 and loc.wall[BLACK] & bit(loc, board, "D1")
    result = auto(board, "C1 D1 E1")
    assert (result.count, result.kind) == (2, "number")


# A seki inside a marked region: White's C1 C2 and Black's E1 E2 share the liberties D1 D2 (both chains
# join the region); whoever fills one is captured. Area scoring: the stones count, the shared liberties
# are dame: 2 - 2 = 0, and neither side has a move that gains.
SEKI = """
    . X O . X O .
    . X O . X O .
"""


def test_seki_counts_the_stones_and_leaves_the_shared_liberties_dame():
    board = board_of(SEKI)
    result = auto(board, "D1 D2")
    assert (result.count, result.kind) == (0, "number")
    assert result.best_black == [] and result.best_white == []
    assert any("joined to the region" in n for n in result.notes)


# The textbook ko (tests/endgame/test_local_diagrams.py): Black takes at E1 and connects at D1 (+2), White's
# retake is banned, White connects at E1 (-2): the phantom rule, mean -2/3, temperature 4/3.
KO = """
    . . . . . . . .
    X X X X O O O O
    . . . X O . . .
    . . X O . O . .
"""


def test_a_simple_ko_is_valued_by_the_phantom_rule():
    board = board_of(KO)
    result = solve(board, "C1 D1 E1 F1")
    assert (result.kind, result.mean, result.temperature) == ("ko", Fraction(-2, 3), Fraction(4, 3))


def test_the_phantoms_fixed_point_agrees_with_the_textbook_rule_on_a_simple_ko(monkeypatch):
    # with the textbook shape's check switched off, the fixed point at the taker's end gives the same value
    from devkit.python_search import PYTHON, Solver

    monkeypatch.setattr(Solver, "_strict_chain", lambda self, key, lists, opens: None)
    board = board_of(KO)
    result = solve_region(board, pts(board, "C1 D1 E1 F1"), ExhaustiveConfig(vouched=True, engine=PYTHON))
    assert (result.mean, result.temperature, result.ko_fixed_point) == (Fraction(-2, 3), Fraction(4, 3), True)


# A ko at the end of White's sente (efn_dev 06/09, cut out): White's F1 captures G1, Black's E1 answers, and
# the ko at G1 F1 is left; White may also play D1 first. Beyond the textbook shape (the banned side has other
# moves after the take), so valued by the phantom's fixed point at the taker's end: temperature 8/3, the
# book's deiri value 3 1/3 (g = 2 (T - 1)). The brackets (the phantom at the position's lowest and highest
# counts) stay apart: the ko decides the value, and the textbook-only setting declines it.
KO_AFTER_SENTE = """
    . . X . . . . . . . . . . .
    . . . . . . . . . . . . . .
    . . X . . X O . . . . . . .
    . . . . . X O . . . . . . .
    . . . . . X O . . . O . O .
    . . . X . X O . O . . . . .
    . . . . . . X O . . . . . .
"""


@pytest.mark.parametrize("engine", ["native", "python"])
def test_a_ko_beyond_the_textbook_shape_is_valued_by_the_phantoms_fixed_point(engine):
    from devkit.python_search import PYTHON

    engine = PYTHON if engine == "python" else engine
    board = board_of(KO_AFTER_SENTE)
    region = pts(board, "C1 D1 E1 F1 G1 H1 C2 D2 E2 F2 G2")
    result = solve_region(board, region, ExhaustiveConfig(vouched=True, max_nodes=50_000, engine=engine))
    assert (result.mean, result.temperature) == (Fraction(13, 3), Fraction(8, 3))
    assert result.ko_fixed_point and not result.ko_dependent
    assert [b.mean for b in result.bracket] == [4, 5]
    assert any(note.kind == "ko" and "fixed point" in note for note in result.notes)
    strict = solve_region(board, region, ExhaustiveConfig(vouched=True, max_nodes=50_000, engine=engine,
                                                          strict_kos=True))
    assert strict.status == "unsupported" and "beyond the textbook shape" in strict.reason


# White's outside points F2 G1 are White's territory (bordered by White only): Black's F1, joined to its
# wall by E1, would break in, so Black's hane at E1 is sente (a ±inf threat stands for the break-in).
SENTE_HANE = """
    . . . . . . . .
    X X X X O O O O
    . . . X . . . .
"""


def test_reaching_the_opponents_outside_territory_is_a_threat():
    board = board_of(SENTE_HANE)
    loc = local(board, "E1 F1")
    assert loc.breach[BLACK] & bit(loc, board, "F1")
    result = auto(board, "E1 F1")
    assert (result.count, result.temperature, result.kind) == (0, 2, "black_sente")


# A corner fight whose liberties run out of the marked points (the course book's 01/11, on a 10x10 board):
# after Black's atari G10, White's connection F9 leaves White's chain D10-E9 with two liberties, D9 and D10;
# Black's D9 then threatens, and White's extension D10 would run to C10 -- an outside point next to nobody's
# territory. Given to its nearest stones (White's), C10 would make White's chain safe; the wider game plays
# C10 and C9 too, and Black's capture there is what makes White give up three stones instead (book: gote 8).
OUTSIDE_LIBERTY = """
    . . . . O O . X . .
    . . . . O . O X . .
    . . O O X O O X . .
    . . O X X X X X . .
    . . . O . . . . . .
    . . O . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
"""
OUTSIDE_LIBERTY_REGION = "D8 D9 D10 E8 E9 E10 F8 F9 F10 G8 G9 G10 H8 H9 H10"


def test_the_undecided_outside_points_of_a_fight_are_played_too():
    board = board_of(OUTSIDE_LIBERTY)
    marked = solve(board, OUTSIDE_LIBERTY_REGION)  # the marked points alone: C10 and C9 are White's walls
    assert (marked.kind, marked.temperature) == ("black_sente", 2) and marked.opened == []
    wider = LocalRegion(board, pts(board, OUTSIDE_LIBERTY_REGION), vouched=True, open_outside=True)
    assert sorted(wider.opened) == sorted(pts(board, "C10 C9")) and wider.offset == 2  # both White's before
    result = auto(board, OUTSIDE_LIBERTY_REGION)
    assert (result.temperature, result.kind) == (5, "gote")
    assert any("outside points played too" in n and "C10 C9" in n for n in result.notes)


def test_outside_points_next_to_no_fight_stay_with_the_nearest_stones():
    # the hane-connect's C1 and H1 touch no chain in play: the marked game is the whole game
    board = board_of(OPEN_HANE_CONNECT)
    wider = LocalRegion(board, pts(board, "D1 E1 F1 G1"), vouched=True, open_outside=True)
    assert wider.opened == [] and wider.offset == 0


def test_a_mask_with_no_outside_point_to_open_keeps_the_whole_budget(monkeypatch):
    # the wider game's smaller budget applies only where it plays outside points
    import tengen.endgame.cgt_bridge as bridge

    monkeypatch.setattr(bridge, "WIDER_GAME_NODES", 1)
    result = auto(board_of(OPEN_HANE_CONNECT), "D1 E1 F1 G1")
    assert (result.count, result.temperature, result.kind) == (0, 2, "gote")


def test_a_wider_game_too_large_falls_back_to_the_marked_points(monkeypatch):
    import tengen.endgame.cgt_bridge as bridge

    monkeypatch.setattr(bridge, "WIDER_GAME_NODES", 1_000)
    board = board_of(OUTSIDE_LIBERTY)
    result = auto(board, OUTSIDE_LIBERTY_REGION)
    assert (result.temperature, result.kind) == (2, "black_sente")  # the marked game's value, and why
    assert any("outside points C10 C9 given to the nearest stones" in n and "too large" in n for n in result.notes)


def test_the_dev_set_misses_of_the_exact_game_are_explained_conventions():
    # bench/endgame_dev.py --predictor exhaustive: the exact game differs from three hand-made trees (and
    # their copies); each difference is a known convention, checked against the exact values
    from datapaths import shared_data
    from tengen.endgame.analysis import analyze_region
    from devkit.devset import explain_exact_miss, load_problems

    problems = {p.id: p for p in load_problems(shared_data("endgame_dev", "problems.json"))}
    for pid in ("P05", "P11", "P12", "P11s"):
        p = problems[pid]
        result = analyze_region(p.board, p.region, None, AnalysisOptions(predictor="exhaustive"))
        assert result.method == "exhaustive" and result.temperature != float(p.expected_temperature)
        assert "convention, not a solver bug" in explain_exact_miss(p, result.count, result.temperature), pid
    p = problems["P01"]  # a match has nothing to explain, and a wrong value is not excused
    assert explain_exact_miss(problems["P05"], 0, 5 / 2) is None and explain_exact_miss(p, 0, 2) is None
