"""`tengen.analyze`: the main job from Python, with the CLI's defaults, on an SGF file or a Board."""
from __future__ import annotations

import subprocess
import sys

import pytest

import tengen
import tengen.api as api
from tengen.go.coords import from_gtp, to_gtp

from test_local_diagrams import DIAGRAMS, SIZE, _sgf_bytes


@pytest.fixture
def no_network(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a solvable local diagram must not load the network")

    monkeypatch.setattr(api, "default_evaluator", refuse)


@pytest.mark.parametrize("d", DIAGRAMS, ids=[d["name"] for d in DIAGRAMS])
def test_analyze_an_sgf_file_reads_the_marked_region(tmp_path, d, no_network):
    path = tmp_path / "diagram.sgf"
    path.write_bytes(_sgf_bytes(d))
    analysis = tengen.analyze(path, move=0)
    (region,) = analysis.regions
    assert region.method == "exhaustive"
    assert sorted(to_gtp(p, SIZE) for p in region.region.points) == sorted(d["region"].split())
    assert float(region.count) == pytest.approx(d["count"])
    assert float(region.temperature) == pytest.approx(d["temperature"])
    assert region.kind == d["kind"]
    assert from_gtp(d["black"], SIZE) in region.best_black
    assert analysis.recommended == (analysis.board.to_play, from_gtp(d["black"], SIZE))


def test_an_illegal_move_in_the_record_is_a_warning_and_the_analysis_goes_on(tmp_path, no_network):
    d = DIAGRAMS[0]
    path = tmp_path / "diagram.sgf"
    # a White move onto one of the diagram's Black stones: placed anyway, as editors do
    record = _sgf_bytes(d)
    root = record[:record.index(b"(", 1)].rstrip()  # the setup node, without the variations
    first_black = record.split(b"AB[", 1)[1][:2]
    path.write_bytes(root + b";W[" + first_black + b"])")
    with pytest.warns(UserWarning, match=r"move 1 \(W [A-T]\d+\) is illegal: occupied; placed as the record says"):
        analysis = tengen.analyze(path, region=d["region"].replace(" ", ","))
    assert len(analysis.regions) == 1


def test_analyze_a_board_with_a_region_string(no_network):
    from tengen.go.sgf import load_game_bytes

    d = DIAGRAMS[1]  # sente hane
    board = load_game_bytes(_sgf_bytes(d)).board_at(0)
    analysis = tengen.analyze(board, region=d["region"].replace(" ", ","))
    (region,) = analysis.regions
    assert (region.kind, float(region.temperature)) == ("black_sente", 2.0)


def test_the_network_loads_when_no_region_is_given(tmp_path, monkeypatch):
    # without a region the board must be decomposed by the network's ownership: the loader is asked first
    d = DIAGRAMS[0]
    path = tmp_path / "diagram.sgf"
    path.write_bytes(_sgf_bytes(d).replace(b"SQ[", b"TR["))

    class Loaded(Exception):
        pass

    def loader(model=None, device="cpu"):
        raise Loaded(model)

    monkeypatch.setattr(api, "default_evaluator", loader)
    with pytest.raises(Loaded):
        tengen.analyze(path, move=0, model="some.bin.gz")


def test_a_missing_model_file_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="no such model file"):
        api.default_evaluator(str(tmp_path / "absent.bin.gz"))


def test_importing_the_package_stays_light():
    code = "import sys, tengen; print('numpy' in sys.modules, 'torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]
    with pytest.raises(AttributeError):
        tengen.no_such_thing  # noqa: B018


def test_a_region_as_points_or_vertices_gives_the_same_analysis(no_network):
    from tengen.go.sgf import load_game_bytes

    d = DIAGRAMS[1]
    board = load_game_bytes(_sgf_bytes(d)).board_at(0)
    vertices = d["region"].split()
    as_points = tengen.analyze(board, region=[from_gtp(v, SIZE) for v in vertices]).regions[0]
    as_vertices = tengen.analyze(board, region=vertices).regions[0]
    assert (as_points.count, as_points.temperature, as_points.kind) == \
        (as_vertices.count, as_vertices.temperature, as_vertices.kind)


@pytest.mark.parametrize("kwargs,message", [
    (dict(region=[(8, 40)]), f"region point (8, 40) is not a (row, col) point on the {SIZE}x{SIZE} board"),
    (dict(region=["Z99"]), f"off the {SIZE}x{SIZE} board"),
    (dict(predictor="exhaustive"), "the exhaustive predictor needs a region"),
    (dict(leaf_scoring="bogus"), "leaf_scoring must be one of auto, evaluator, exact, valuenet"),
    (dict(threshold=0), "threshold must lie in (0, 1]"),
    (dict(move=3), "move applies to an SGF file"),
])
def test_bad_arguments_are_clear_errors_before_any_work(no_network, kwargs, message):
    from tengen.go.board import Board

    with pytest.raises(ValueError) as info:
        tengen.analyze(Board(SIZE), **kwargs)
    assert message in str(info.value)


def test_an_exact_solve_gives_its_game_to_the_json_report(no_network, tmp_path):
    from tengen.io.report import json_report

    d = DIAGRAMS[2]  # capture or connect: a plain game, no ko inside
    path = tmp_path / "diagram.sgf"
    path.write_bytes(_sgf_bytes(d))
    region = json_report(tengen.analyze(path, move=0, predictor="exhaustive"))["regions"][0]
    assert (region["game"], region["method"], region["exact_rules"]) == ("{2 | -2}", "exhaustive", True)
