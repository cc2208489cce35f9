"""The CLI's table says where each region is (its box and a map of the board with region letters), drops
the temperature and move values of regions where no move gains, names dame, notes a move that is the best
of two regions, and `--explain` puts its terms in plain words."""
from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from standin_networks import ONE_DAME, STANDIN_OPTIONS, StandInNetwork  # noqa: E402
from tengen.endgame.analysis import analyze_board  # noqa: E402
from tengen.go.diagram import board_from_diagram  # noqa: E402
from tengen.io.report import shared_best_moves, text_report, where  # noqa: E402


def one_dame_report(explain: bool = False) -> list[str]:
    analysis = analyze_board(board_from_diagram(ONE_DAME), StandInNetwork(), STANDIN_OPTIONS)
    return text_report(analysis, explain=explain).splitlines()


def test_the_row_says_where_the_region_is_and_that_it_is_dame():
    lines = one_dame_report()
    assert lines[0].split()[:3] == ["region", "where", "points"]
    row = lines[2].split()
    assert row[:4] == ["A", "C4", "1", "0"]  # the box, the size, the count
    assert "dame (1 point by area, 0 by territory)" in lines[2]


def test_the_map_marks_the_regions_empty_points_with_their_letter():
    lines = one_dame_report()
    start = next(i for i, line in enumerate(lines) if line.startswith("regions on the board"))
    assert lines[start + 1:start + 7] == [
        "    A B C D E",
        "  5 X X O O .",
        "  4 X X a O O",
        "  3 X X X O O",
        "  2 . X X O O",
        "  1 X X X O .",
    ]


def test_explain_gives_the_terms_the_table_uses():
    plain, explained = one_dame_report(), one_dame_report(explain=True)
    assert not any(line.startswith("what the table's terms mean") for line in plain)
    glossary = explained[explained.index("what the table's terms mean:") + 1:]
    terms = [line.split(":")[0].strip() for line in glossary]
    assert terms == ["count", "temp (temperature)", "miai", "deiri", "dame"]  # the terms of this table only


def test_boxes_in_gtp_corners():
    assert where([(18, 0)], 19) == "A1"
    assert where([(16, 2), (14, 4), (15, 3)], 19) == "C3-E5"


def test_a_move_best_in_two_regions_is_said_to_join_them():
    region = lambda black, white: SimpleNamespace(best_black=black, best_white=white)  # noqa: E731
    analysis = SimpleNamespace(board=SimpleNamespace(height=19),
                               regions=[region([(3, 3)], []), region([(5, 5)], [(3, 3)]), region([], [])])
    assert shared_best_moves(analysis) == [
        "note: D16 is a best move of regions A and B: they interact (one move plays in both), so their values are "
        "not independent there"]
