"""`tengen eval --value-net / --value-model / --plot`: KataGo's komi sweep beside tengen's value network's
41-komi curve, and the PNG of both; on a tiny random KataGo network and a tiny random value network (no
download)."""
from __future__ import annotations

import re
import struct

import numpy as np
import pytest
import torch
from datapaths import REPO

from tengen.cli import main
from tengen.eval.evaluation import Evaluation
from tengen.eval.katago import KataGoEvaluator
from tengen.eval.katago.model_writer import write_model
from tengen.eval.katago.tiny import random_model
from tengen.eval.valuenet.evaluator import ValueNetEvaluator
from tengen.eval.valuenet.model import KOMIS, ValueNet, ValueNetConfig
from tengen.eval.valuenet.weights import save_weights
from tengen.go.sgf import load_game
from tengen.io.eval_report import komi_comparison
from tengen.io.komi_plot import komi_curve_figure

EXAMPLE = str(REPO / "src" / "tengen" / "data" / "example.sgf")
MOVE = 170
ROW = re.compile(r"^\s+([+-]\d+\.\d)\s+(\S+)\s+(\S+)(\s+<- the game's komi)?$")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    """(tiny KataGo network file, tiny multi-komi value network, tiny single-komi value network)."""
    folder = tmp_path_factory.mktemp("models")
    kata = write_model(random_model(5, 15, kinds=("ordinary",)), folder / "tiny.bin.gz")
    torch.manual_seed(0)
    multi, single = folder / "vn.pt", folder / "vn1.pt"
    save_weights(multi, ValueNet(ValueNetConfig(blocks=1, channels=8)))
    save_weights(single, ValueNet(ValueNetConfig(blocks=1, channels=8, multi_komi=False)))
    return str(kata), str(multi), str(single)


def _table(out: str) -> list[tuple[float, str, str, bool]]:
    lines = out.splitlines()
    start = lines.index("Black win rate by komi:") + 2
    rows = []
    for line in lines[start:]:
        m = ROW.match(line)
        if not m:
            break
        rows.append((float(m[1]), m[2], m[3], m[4] is not None))
    return rows


def _pct(cell: str) -> float:
    assert cell.endswith("%"), cell
    return float(cell[:-1]) / 100


def _error_line(capsys) -> str:
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tengen: error: "), err
    assert "Traceback" not in err and out == ""
    return lines[0]


def test_side_by_side_table_and_plot(models, tmp_path, capsys):
    kata, vn, _ = models
    png = tmp_path / "komi.png"
    assert main(["eval", EXAMPLE, "--move", str(MOVE), "--model", kata, "--value-model", vn, "--plot", str(png)]) == 0
    out = capsys.readouterr().out
    rows = _table(out)
    assert [k for k, *_ in rows] == [float(k) for k in KOMIS] and len(rows) == 41
    board = load_game(EXAMPLE).board_at(MOVE)
    curve = ValueNetEvaluator(vn).komi_curves([board])[0]
    sweep = KataGoEvaluator(kata).winrate_by_komi(board, KOMIS)
    np.testing.assert_allclose([_pct(v) for _, _, v, _ in rows], curve, atol=0.0006)
    np.testing.assert_allclose([_pct(k) for _, k, _, _ in rows], sweep, atol=0.0006)
    assert [k for k, _, _, marked in rows if marked] == [7.5]  # the record's komi
    assert re.search(r"^\s+even\s+(\S+)\s+(\S+)\s+\(komi where Black's win rate crosses 50%\)$", out, re.MULTILINE)
    ev = ValueNetEvaluator(vn).evaluate([board])[0]
    assert (f"value net ({ev.extras['model']}): Black win rate {100 * ev.win:.1f}% at komi 7.5, "
            f"Black lead {ev.score_lead:+.1f} points") in out
    assert "-12.5:" not in out  # the 8-per-line block gives way to the table
    data = png.read_bytes()
    assert data[:8] == PNG_MAGIC and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    assert width > 300 and height > 200


def test_without_value_net_the_output_is_unchanged(models, capsys):
    kata, _, _ = models
    assert main(["eval", EXAMPLE, "--move", str(MOVE), "--model", kata]) == 0
    out = capsys.readouterr().out
    assert "value net" not in out and "KataGo" not in out
    assert "Black win rate by komi:" in out and "-12.5:" in out and "+27.5:" in out


def test_single_komi_value_head_leaves_its_column_empty(models, capsys):
    kata, _, single = models
    assert main(["eval", EXAMPLE, "--move", str(MOVE), "--model", kata, "--value-model", single]) == 0
    out = capsys.readouterr().out
    rows = _table(out)
    assert len(rows) == 41 and all(v == "-" for _, _, v, _ in rows) and all(k.endswith("%") for _, k, _, _ in rows)
    assert "no score estimate (single-komi head)" in out


def test_komi_comparison_crossings_and_missing_komis():
    def ev(curve, komi=7.5, lead=1.0):
        return Evaluation(to_play=1, komi=komi, policy=np.zeros((19, 19)), pass_policy=0.0,
                          ownership=np.zeros((19, 19)), score_mean=lead, score_stdev=1.0, score_lead=lead,
                          win=0.5, loss=0.5, winrate_by_komi=curve, extras={"model": "m"})

    kata = {-0.5: 1.0, 0.5: 0.6, 1.5: 0.4}  # crosses 50% at +1.0
    vnet = {0.5: 0.7, 1.5: 0.5, 2.5: 0.3}  # crosses at +1.5; it lacks -0.5, KataGo lacks 2.5
    text = komi_comparison(ev(kata), ev(vnet))
    rows = _table(text)
    assert [(k, a, b) for k, a, b, _ in rows] == [(-0.5, "100.0%", "-"), (0.5, "60.0%", "70.0%"),
                                                  (1.5, "40.0%", "50.0%"), (2.5, "-", "30.0%")]
    assert re.search(r"even\s+\+1\.0\s+\+1\.5\s", text)
    assert "value net (m): Black win rate 50.0% at komi 7.5, Black lead +1.0 points" in text


def test_plot_figure_draws_both_curves_and_the_komi():
    kata = {float(k): 1 - i / 40 for i, k in enumerate(KOMIS)}
    fig = komi_curve_figure({"KataGo": kata, "value net": {0.5: 0.6}, "absent": None}, komi=6.5)
    ax = fig.axes[0]
    gids = {line.get_gid(): line for line in ax.get_lines()}
    assert set(gids) == {"KataGo", "value net", "50%", "komi"}
    assert list(gids["KataGo"].get_xdata()) == sorted(kata) and gids["KataGo"].get_ydata()[0] == 100.0
    assert list(gids["komi"].get_xdata()) == [6.5, 6.5]


@pytest.mark.parametrize("case", ["missing", "foreign", "not-19x19", "no-default", "plot-dir", "plot-folder",
                                  "plot-without-curve"])
def test_bad_input_is_one_line_and_exit_2(case, models, tmp_path, capsys, monkeypatch):
    kata, vn, _ = models
    argv = ["eval", EXAMPLE, "--move", str(MOVE), "--model", kata]
    expect = ""
    if case == "missing":
        argv += ["--value-model", str(tmp_path / "nope.pt")]
        expect = "no such value network weights file"
    elif case == "foreign":
        argv += ["--value-model", kata]  # a KataGo network is not a value network
        expect = "value network weights"
    elif case == "not-19x19":
        small = tmp_path / "g.sgf"
        small.write_text("(;GM[1]FF[4]SZ[9]KM[6.5];B[ee];W[cc])")
        argv = ["eval", str(small), "--model", kata, "--value-model", vn]
        expect = "19x19 boards only"
    elif case == "no-default":
        monkeypatch.setattr("tengen.eval.valuenet.evaluator.default_weights", lambda: None)
        argv += ["--value-net"]
        expect = "no value network weights"
    elif case == "plot-dir":
        argv += ["--value-model", vn, "--plot", str(tmp_path)]
        expect = "is a directory"
    elif case == "plot-folder":
        argv += ["--plot", str(tmp_path / "missing" / "k.png")]
        expect = "cannot write into"
    elif case == "plot-without-curve":
        argv += ["--no-komi-sweep", "--plot", str(tmp_path / "k.png")]
        expect = "--no-komi-sweep"
    assert main(argv) == 2
    assert expect in _error_line(capsys)
