"""Where the networks run: `--device` on the commands, one device for all of an analysis's networks, and a
device the machine lacks refused in one line (the machine is made to lack CUDA here, whatever it has)."""
from __future__ import annotations

from pathlib import Path

import pytest
import torch

from tengen.cli import main
from tengen.endgame import analysis, local_games, predictors
from tengen.endgame.evalcache import cached
from tengen.endgame.options import AnalysisOptions
from tengen.eval.devices import DeviceUnavailable, device_of, pick_device
from tengen.go.diagram import board_from_diagram

from standin_networks import ONE_DAME, StandInNetwork

EXAMPLE = Path(__file__).resolve().parents[2] / "src" / "tengen" / "data" / "example.sgf"


@pytest.fixture
def no_cuda(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)


def test_auto_is_the_cpu_without_cuda_and_cuda_is_refused_in_one_line(no_cuda):
    assert pick_device("auto").type == "cpu"
    assert pick_device("cpu").type == "cpu"
    with pytest.raises(DeviceUnavailable, match="no CUDA device"):
        pick_device("cuda")


def test_an_evaluator_without_a_network_device_is_on_the_cpu():
    assert device_of(StandInNetwork()) == "cpu"
    on_gpu = StandInNetwork()
    on_gpu.device = torch.device("cuda")
    assert device_of(on_gpu) == "cuda"
    assert device_of(cached(on_gpu)) == "cuda"  # as the analysis holds it: behind its evaluation cache


def test_an_analysis_grows_its_trees_with_the_local_net_on_the_evaluators_device(monkeypatch):
    """Through the whole analysis (the evaluator behind its cache), the local-move network is asked for on
    the evaluator's device."""
    asked = []

    def local_net(weights, device="cpu"):
        asked.append(device)
        raise RuntimeError("stop here")

    monkeypatch.setattr(predictors, "_load_local_net", local_net)
    evaluator = StandInNetwork()
    evaluator.device = "cuda:0"
    with pytest.raises(RuntimeError, match="stop here"):
        analysis.analyze_board(board_from_diagram(ONE_DAME), evaluator, AnalysisOptions(predictor="net"))
    assert asked == ["cuda:0"]


def test_the_local_move_and_value_networks_follow_the_evaluators_device(monkeypatch):
    """An analysis whose evaluator runs on a device loads its local-move and value networks there too."""
    asked: list[tuple[str, str]] = []

    def local_net(weights, device="cpu"):
        asked.append(("localnet", device))
        raise RuntimeError("stop here")

    monkeypatch.setattr(predictors, "_load_local_net", local_net)
    evaluator = StandInNetwork()
    evaluator.device = "cuda:1"
    with pytest.raises(RuntimeError, match="stop here"):
        analysis.make_predictor("net", evaluator, board_from_diagram(ONE_DAME))

    class ValueNet:
        def __init__(self, weights=None, device="cpu"):
            asked.append(("valuenet", device))

    import tengen.eval.valuenet.evaluator as value_evaluator

    monkeypatch.setattr(value_evaluator, "ValueNetEvaluator", ValueNet)
    monkeypatch.setattr(local_games, "_VALUE_NETS", {})
    first = analysis.value_net_for(None, device_of(evaluator))
    assert analysis.value_net_for(None, "cuda:1") is first  # loaded once per weights and device
    assert analysis.value_net_for(None, "cpu") is not first
    assert asked == [("localnet", "cuda:1"), ("valuenet", "cuda:1"), ("valuenet", "cpu")]


@pytest.mark.parametrize("argv", [
    ["analyze", str(EXAMPLE), "--device", "cuda"],
    ["batch", str(EXAMPLE), "--out", "{out}", "--device", "cuda", "--model", "tiny"],
])
def test_commands_refuse_a_device_the_machine_lacks_before_any_work(argv, no_cuda, tmp_path, capsys):
    out = tmp_path / "out"
    code = main([a.replace("{out}", str(out)) for a in argv])
    err = capsys.readouterr().err.strip().splitlines()
    assert code != 0
    assert len(err) == 1 and "--device" in err[0] and "no CUDA device" in err[0]
    assert not (out / "journal.jsonl").exists()


def test_the_classic_evaluator_takes_no_device(capsys):
    code = main(["analyze", str(EXAMPLE), "--evaluator", "classic", "--device", "auto"])
    assert code != 0
    assert "--device do not apply" in capsys.readouterr().err


def test_a_report_states_the_device_its_networks_ran_on():
    from tengen.io.report import assumptions_text

    from standin_networks import STANDIN_OPTIONS

    evaluator = StandInNetwork()
    on_cpu = analysis.analyze_board(board_from_diagram(ONE_DAME), evaluator, STANDIN_OPTIONS)
    assert on_cpu.settings["device"] == "cpu" and "--device" not in assumptions_text(on_cpu)
    evaluator.device = "cuda:0"
    on_gpu = analysis.analyze_board(board_from_diagram(ONE_DAME), evaluator, STANDIN_OPTIONS)
    assert on_gpu.settings["device"] == "cuda:0" and "--device cuda:0" in assumptions_text(on_gpu)
