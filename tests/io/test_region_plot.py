"""`tengen analyze --plots`: each region's thermograph beside a diagram of the region on the board."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from standin_networks import ONE_DAME, STANDIN_OPTIONS, StandInNetwork  # noqa: E402
from tengen.endgame.analysis import analyze_board  # noqa: E402
from tengen.go.diagram import board_from_diagram  # noqa: E402
from tengen.io.region_plot import region_figure  # noqa: E402


def test_the_thermograph_sits_beside_the_regions_diagram(tmp_path):
    analysis = analyze_board(board_from_diagram(ONE_DAME), StandInNetwork(), STANDIN_OPTIONS)
    fig = region_figure(analysis, 0)
    thermo, board = fig.axes
    assert thermo.get_title().startswith("region A") and "temperature 1" in thermo.get_title()
    shaded = next(c for c in board.collections if c.get_gid() == "region")
    assert [tuple(p) for p in shaded.get_offsets()] == [(2.0, 1.0)]  # C4: column 2, row 1 from the top
    assert [t.get_text() for t in board.get_xticklabels()] == ["A", "B", "C", "D", "E"]
    assert [t.get_text() for t in board.get_yticklabels()] == ["5", "4", "3", "2"]  # two lines around row 4
    fig.savefig(tmp_path / "region_A.png")
    assert (tmp_path / "region_A.png").stat().st_size > 5000
