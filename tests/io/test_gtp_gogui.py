"""GoGui analyze commands and tengen-endgame over tengen's endgame analysis, with the stand-in evaluator
(one dame-like region on a 5x5 board) and the `kata` predictor: no network, seconds at most."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from standin_networks import ONE_DAME, StandInNetwork  # noqa: E402
from tengen.endgame.options import AnalysisOptions  # noqa: E402
from tengen.endgame.tree import GrowthConfig  # noqa: E402
from tengen.io.engines import gtp_engine  # noqa: E402
from tengen.io.gtp_gogui import GoGuiCommands  # noqa: E402


@pytest.fixture
def engine():
    e = gtp_engine(size=5, load_evaluator=lambda: StandInNetwork())
    e.handler(GoGuiCommands).endgame_options = AnalysisOptions(predictor="kata", growth=GrowthConfig(max_nodes=40, max_total_nodes=80))
    rows = [r.split() for r in ONE_DAME.strip().splitlines()]
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            if cell in "XO":
                assert e.handle(f"play {'b' if cell == 'X' else 'w'} {'ABCDE'[c]}{5 - r}").startswith("=")
    return e


def test_analyze_commands_list_gogui_types(engine):
    lines = engine.handle("gogui-analyze_commands")[2:-2].split("\n")
    assert "gfx/tengen region temperatures/tengen-gfx_temperatures" in lines
    assert all(line.split("/")[0] in ("gfx", "string") and line.split("/")[2] in engine.commands() for line in lines)


def test_gfx_commands(engine):
    temps = engine.handle("tengen-gfx_temperatures")
    assert temps.startswith("= \nLABEL C4 ") or temps.startswith("=\nLABEL C4 "), temps
    own = engine.handle("tengen-gfx_ownership")
    assert own.startswith("=\nINFLUENCE A5 ") and own.count(" ") == 2 * 25
    regions = engine.handle("tengen-gfx_regions")
    assert regions.startswith("=\nCOLOR #e6194b C4")
    seq = engine.handle("tengen-gfx_sequences")
    assert re.match(r"=\nVAR [bw] C4", seq) or seq.startswith("=\nTEXT ")
    move = engine.handle("tengen-gfx_move")
    assert move.startswith("=\n") and re.search(r"TEXT (Black|White): ", move)


def test_tengen_endgame_is_the_report_table(engine):
    table = engine.handle("tengen-endgame")
    assert table.startswith("=\nregion  where  points") and "recommended for " in table and table.endswith("\n\n")


def test_bad_input_and_a_missing_network(engine):
    assert engine.handle("3 tengen-endgame now") == "?3 1 unexpected argument(s): this command analyzes the current position\n\n"

    def broken():
        raise OSError("offline")

    e = gtp_engine(size=5, load_evaluator=broken)
    assert e.handle("tengen-gfx_move") == "? cannot load the network: offline\n\n"
