"""A failed exact solve is never shown as a value (issue 38, item 1).

Every way the exact solver can fail to value a region comes out as kind `unsolved` (no count, no
temperature) with the reason in `declined`: the start already a threat leaf (0 positions searched, count
±inf), an infinite count, an unanswerable threat (unbounded), a region that is not sealed, a budget hit
(too_large), a ko or loop it cannot value (unsupported). `auto` then grows the region's tree, and the
report says which method answered and why the solver declined. One ASCII fixture per failure mode."""
from __future__ import annotations

import pytest

from tengen.endgame.analysis import analyze_region, analyze_regions
from tengen.endgame.cgt_bridge import solve_exhaustively
from tengen.endgame.exact import ExhaustiveConfig
from tengen.endgame.options import AnalysisOptions
from tengen.endgame.regions import Region
from tengen.endgame.results import UNSOLVED, Analysis, RegionResult
from tengen.go.coords import from_gtp
from tengen.go.diagram import board_from_diagram, parse_diagram
from tengen.go.rules import Rules
from tengen.io.report import json_report, text_report

from standin_networks import StandInNetwork

EXHAUSTIVE = AnalysisOptions(predictor="exhaustive")
AUTO = AnalysisOptions(predictor="auto")


def fixture(diagram: str, source: str = "mask"):
    """The diagram's board (area scoring, no komi) and its region: the points marked `*`."""
    board = board_from_diagram(diagram, rules=Rules.chinese(komi=0))
    _, marks = parse_diagram(diagram)
    return board, Region(0, frozenset(marks["*"]), source)


def assert_unsolved(result: RegionResult, reason: str) -> None:
    assert result.kind == UNSOLVED and result.method != "exhaustive"
    assert result.count is None and result.temperature is None
    assert reason in result.declined
    assert result.best_black == [] and result.best_white == []


def report_of(board, result: RegionResult) -> str:
    return text_report(Analysis(board, [result], None, 0.0, predictor="exhaustive"))


# Black's C1 joins its wall C2 and already touches D1, White's outside territory (D1 E1, bordered by White
# only: the region is not a user's mask, so nobody vouches for the open board): the seal is broken before
# any move. The search visits no position and the count is +inf; it used to be shown as "settled (number)".
ROOT_THREAT = """
    . . . . .
    X X X O O
    . . * . .
"""


def test_a_start_that_is_already_a_threat_leaf_is_unsolved():
    board = board_from_diagram(ROOT_THREAT.replace("*", "X"), rules=Rules.chinese(komi=0))
    region = Region(0, frozenset([from_gtp("C1", 3, 5)]), "ownership")
    result = analyze_region(board, region, None, EXHAUSTIVE)
    assert_unsolved(result, "already a threat leaf")
    assert "0 positions searched" in result.declined
    text = report_of(board, result)
    assert "unsolved" in text and "settled (number)" not in text and "inf" not in text.split("\n")[2]
    (row,) = json_report(Analysis(board, [result], None, 0.0))["regions"]
    assert row["type"] == "unsolved" and row["count"] is None and row["temperature"] is None
    assert "already a threat leaf" in row["declined"]


# Black's D column is one living chain; C2 and E2 each join it to White's one-point territories B2 and F2.
# White can block only one of them: every line ends in Black's break-in, so the count is +inf.
TWO_BREAK_INS = """
    . . . X . . .
    X X X X X X X
    O O O X O O O
    O . * X * . O
    O O O X O O O
"""


def test_an_infinite_count_is_unsolved():
    board, region = fixture(TWO_BREAK_INS)
    result = analyze_region(board, region, None, EXHAUSTIVE)
    assert_unsolved(result, "infinite count")
    assert "settled" not in report_of(board, result)


def test_an_unanswerable_threat_is_unsolved():
    # C2 alone: Black's C2 breaks into B2 at once (+inf), White's C2 only fills: {+inf | -1}, unbounded
    board, _ = fixture(TWO_BREAK_INS)
    region = Region(0, frozenset([from_gtp("C2", 5, 7)]), "mask")
    result = analyze_region(board, region, None, EXHAUSTIVE)
    assert_unsolved(result, "unbounded")


# Nobody vouches for an ownership region's surroundings: B1 and C2 lead to the open board, which borders
# both colours, so the region is not sealed.
OPEN_SIDE = """
    . . . . . .
    X X . O O O
    . . * * . .
"""


def test_a_region_that_is_not_sealed_is_unsolved():
    board, region = fixture(OPEN_SIDE, source="ownership")
    result = analyze_region(board, region, None, EXHAUSTIVE)
    assert_unsolved(result, "region not sealed")
    assert "borders both colors" in result.declined


HANE_CONNECT = """
    . . . . . . . .
    X X X X O O O O
    . . * * * * . .
"""


def test_a_budget_hit_is_unsolved():
    board, region = fixture(HANE_CONNECT)
    result = solve_exhaustively(board, region, RegionResult(region), ExhaustiveConfig(max_nodes=5))
    assert_unsolved(result, "too_large")
    assert "more than 5 positions" in result.declined
    assert "unsolved: the exact solver declined: too_large" in report_of(board, result)


# A ko whose capture leaves more to play: with strict_kos the solver reports it cannot value it.
KO_FIGHT = """
    . . . . . . .
    X X X X O O O
    . . X O * O .
    . * * * * * .
"""


def test_a_ko_the_solver_cannot_value_is_unsolved():
    board, region = fixture(KO_FIGHT)
    result = solve_exhaustively(board, region, RegionResult(region), ExhaustiveConfig(strict_kos=True))
    assert_unsolved(result, "unsupported")
    assert "the value depends on" in result.declined  # a ko or a loop the rules cannot express


@pytest.mark.parametrize("name,diagram,points,reason", [
    ("infinite count", TWO_BREAK_INS, None, "infinite count"),
    ("unbounded", TWO_BREAK_INS, "C2", "unbounded"),
    ("too large", HANE_CONNECT, None, "too_large"),
])
def test_auto_grows_a_tree_where_the_solver_declines_and_says_so(monkeypatch, name, diagram, points, reason):
    import tengen.endgame.local_games as local_games

    if name == "too large":
        monkeypatch.setattr(local_games, "auto_solver_nodes", lambda: 5)
    board, region = fixture(diagram)
    if points is not None:
        region = Region(0, frozenset(from_gtp(p, board.height, board.width) for p in points.split()), "mask")
    (result,) = analyze_regions(board, [region], StandInNetwork("anywhere"), AUTO)
    assert result.method == "tree" and result.tree is not None
    assert reason in result.declined
    assert result.kind != UNSOLVED
    text = text_report(Analysis(board, [result], None, 0.0, predictor="auto"))
    assert "answered by a grown tree" in text and "the exact solver declined: " in text and reason in text


def test_a_solved_region_says_the_exact_solver_answered():
    board, region = fixture(HANE_CONNECT)
    (result,) = analyze_regions(board, [region], None, AUTO)  # no network needed
    assert result.method == "exhaustive" and result.declined == ""
    assert (result.count, result.temperature, result.kind) == (0, 2, "gote")
    assert "answered by the exact solver" in report_of(board, result)


# Bounds before any search (hostile input): a region the exact solver cannot take is declined at once, never
# handed to the slow Python search; a region too large to be a local game gets no tree either.
def _open_board(size: int) -> str:
    return "\n".join(" ".join("*" * size) for _ in range(size))


def test_a_marked_empty_board_is_declined_at_once_without_a_search_or_a_network():
    board, region = fixture(_open_board(19))
    (result,) = analyze_regions(board, [region], None, AUTO)  # no network: a tree would need one
    assert_unsolved(result, "361 points is no local endgame region")
    assert result.tree is None


def test_a_region_over_the_native_limit_is_declined_without_the_python_search():
    board, region = fixture(_open_board(9))  # 81 points: a local game, but more than the solver's 64
    result = solve_exhaustively(board, region, RegionResult(region), ExhaustiveConfig())
    assert_unsolved(result, "81 points (the exact solver takes at most 64")
    assert not any("Python search" in note for note in result.notes)


def test_a_budget_hit_of_the_python_search_names_its_own_limit():
    from devkit.python_search import PYTHON

    board, region = fixture(HANE_CONNECT)
    result = solve_exhaustively(board, region, RegionResult(region), ExhaustiveConfig(max_nodes=5, engine=PYTHON))
    assert_unsolved(result, "more than 5 positions")
    assert "None" not in result.declined and not any("answered" in note for note in result.notes)


# Two copies of the textbook ko, one region: each alone is a ko (mean -2/3, temperature 4/3). Together their
# bans and repetitions leave the loops' fixed points apart (it was shown as "settled (number) -4, temperature
# -1"); valued without repetitions (positional superko on the local line), the region is worth what the sum of
# the two kos is worth: mean -4/3, temperature 4/3, and the notes say how it was valued.
TWO_KOS = """
    . . X O . O . .
    . . . X O . . .
    X X X X O O O O
    . . . . . . . .
    X X X X O O O O
    . . . X O . . .
    . . X O . O . .
"""


def test_two_independent_kos_in_one_region_are_worth_their_sum():
    from fractions import Fraction

    from tengen.cgt.game import Game

    board = board_from_diagram(TWO_KOS, rules=Rules.chinese(komi=0))
    both = Region(0, frozenset(from_gtp(v, 7, 8) for v in "C1 D1 E1 F1 C7 D7 E7 F7".split()), "mask")
    (result,) = analyze_regions(board, [both], None, EXHAUSTIVE)
    one = Region(1, frozenset(from_gtp(v, 7, 8) for v in "C1 D1 E1 F1".split()), "mask")
    (alone,) = analyze_regions(board, [one], None, EXHAUSTIVE)
    assert (alone.kind, alone.count, alone.temperature) == ("ko", -2 / 3, 4 / 3)
    taken = Game([Game(value=Fraction(2))], [Game(value=Fraction(-2, 3))])  # after the take: the phantom retake
    ko = Game([taken], [Game(value=Fraction(-2))])
    total = (ko + ko).thermograph
    assert (result.count, result.temperature) == (float(total.mean), float(total.temperature)) == (-4 / 3, 4 / 3)
    assert any("positional superko on the local line" in note for note in result.notes)


def test_a_value_from_a_cut_tree_is_said_to_be_unreliable():
    board, region = fixture(HANE_CONNECT)
    grown = AnalysisOptions(predictor="kata").with_budgets(2, 2)
    (result,) = analyze_regions(board, [region], StandInNetwork("anywhere"), grown)
    assert result.cut_tree
    assert "unreliable (cut tree)" in text_report(Analysis(board, [result], None, 0.0, predictor="kata"))


def _edge_strip(n: int):
    """A 2 x n first-and-second-line strip between two-eyed walls (bench/exhaustive_size's shape): millions
    of positions for n = 12."""
    from tengen.go.board import Board
    from tengen.go.colors import BLACK, EMPTY, WHITE

    left = n // 2
    grid = [[BLACK] * (left + 1) + [WHITE] * (n - left + 1) for _ in range(4)]
    for r in (0, 2):  # two eyes for each wall
        grid[r][0] = grid[r][-1] = EMPTY
    grid += [[BLACK] + [EMPTY] * n + [WHITE] for _ in range(2)]
    board = Board(n + 2, 6, rules=Rules.chinese(komi=0))
    board.setup(black=[(r, c) for r in range(6) for c in range(n + 2) if grid[r][c] == BLACK],
                white=[(r, c) for r in range(6) for c in range(n + 2) if grid[r][c] == WHITE])
    return board, [(r, c) for r in (4, 5) for c in range(1, n + 1)]


def test_a_callers_deadline_stops_the_native_search():
    """A web job's time limit reaches the native search, which cannot poll the job while it runs: a 2 x 12
    edge strip under a deadline a fifth of a second away stops on time, and says so."""
    import time

    from tengen.deadline import stop_by
    from tengen.endgame.exact import solve_region

    board, region = _edge_strip(12)
    with stop_by(time.monotonic() + 0.2):
        result = solve_region(board, region, ExhaustiveConfig(max_nodes=50_000_000, seconds=None))
    assert result.status == "too_large" and "not finished within" in result.reason


def test_a_cancel_stops_the_native_search():
    """A web job's cancel reaches the native search running without the GIL: the event set from another
    thread stops it (as at a time limit), and the reason says it was cancelled."""
    import threading

    from tengen.deadline import stop_by
    from tengen.endgame.exact import solve_region

    board, region = _edge_strip(12)
    cancelled = threading.Event()
    threading.Timer(0.2, cancelled.set).start()
    with stop_by(None, cancelled):
        result = solve_region(board, region, ExhaustiveConfig(max_nodes=50_000_000, seconds=None))
    assert result.status == "too_large" and result.reason == "stopped: the work was cancelled"


class _CountingNetwork(StandInNetwork):
    def __init__(self):
        super().__init__("anywhere")
        self.positions = 0

    def evaluate(self, boards, **kwargs):
        self.positions += len(boards)
        return super().evaluate(boards, **kwargs)


def test_a_marked_region_solved_exactly_asks_the_given_network_nothing():
    """With a network given, a marked region the exact solver finishes needs no evaluation at all (the root's
    ownership was asked for and not used); one that needs a tree still gets the board count."""
    import tengen

    board = board_from_diagram(TWO_KOS, rules=Rules.chinese(komi=0))
    network = _CountingNetwork()
    analysis = tengen.analyze(board, region="C1 D1 E1 F1", evaluator=network)
    assert analysis.regions[0].method == "exhaustive"
    assert network.positions == 0 and analysis.evaluations == 0 and analysis.network_counts is None
    board, region = fixture(HANE_CONNECT)
    analysis = tengen.analyze(board, region=sorted(region.points), evaluator=network,
                              options=AnalysisOptions(predictor="kata"))
    assert network.positions > 0 and analysis.network_counts is not None  # not deferred for a tree predictor
