"""Leaf scoring by tengen's value network (`leaf_scoring="valuenet"`): a leaf it is sure of is counted from its
rounded ownership; a leaf with a region point near the rounding edge (|ownership| within the confidence of 0.5), a probe (unrounded count) and a board that
is not 19x19 go to the fallback evaluator (KataGo); the options and the CLI check their inputs."""
from __future__ import annotations

import numpy as np
import pytest

from datapaths import REPO
from tengen.cli import main
from tengen.endgame.leaves import score_jobs_with_value_net
from tengen.endgame.options import AnalysisOptions
from tengen.endgame.regions import Region
from tengen.endgame.tree import LocalNode
from tengen.eval.evaluation import Evaluation
from tengen.go import Board

EXAMPLE = str(REPO / "src" / "tengen" / "data" / "example.sgf")
REGION = Region(0, frozenset({(0, 0), (0, 1), (0, 2)}))


class FixedOwnership:
    """A stand-in for either network: the same ownership map for every board; counts the boards it saw."""

    def __init__(self, values, size: int = 19):
        self.map = np.zeros((size, size), np.float32)
        self.map[0, :3] = values
        self.seen = 0

    def ownership(self, boards):
        self.seen += len(boards)
        return np.stack([self.map for _ in boards])

    def evaluate(self, boards):
        self.seen += len(boards)
        return [Evaluation(to_play=1, komi=7.5, policy=np.zeros_like(self.map), pass_policy=1.0, ownership=self.map,
                           score_mean=0.0, score_stdev=0.0, score_lead=0.0, win=0.5, loss=0.5) for _ in boards]


def leaf(kind: str = "leaf", size: int = 19) -> LocalNode:
    return LocalNode(board=Board(size), kind=kind)


@pytest.mark.parametrize("values, confidence, expected, deferred", [
    ([0.9, 0.8, -0.75], 0.2, 1.0, 0),  # every point far from the rounding edge: 1 + 1 - 1
    ([0.9, 0.05, -0.8], 0.2, 0.0, 0),  # a sure dame point (0.05 rounds to 0 by a wide margin): 1 + 0 - 1
    ([0.9, 0.4, -0.7], 0.2, -3.0, 1),  # 0.4 is near the edge: KataGo's count (all White)
    ([0.9, 0.4, -0.7], 0.0, 0.0, 0),   # confidence 0: the value network always (0.4 rounds to 0)
])
def test_sure_leaves_use_the_value_network_and_unsure_ones_kataGo(values, confidence, expected, deferred):
    ours, kata = FixedOwnership(values), FixedOwnership([-1.0, -1.0, -1.0])
    node = leaf()
    made, counted = score_jobs_with_value_net([(node, REGION)], ours, kata, confidence)
    assert node.value == expected and sum(made.values()) == deferred and kata.seen == deferred and counted == 1


def test_probes_and_other_board_sizes_go_to_the_fallback():
    ours, kata = FixedOwnership([1.0, 1.0, 1.0]), FixedOwnership([-0.6, -0.4, -1.0], size=9)
    probe, small = leaf("probe"), leaf(size=9)
    made, counted = score_jobs_with_value_net([(probe, REGION), (small, REGION)], ours, kata)
    assert (sum(made.values()), counted, ours.seen) == (2, 0, 0)
    assert probe.value == pytest.approx(-2.0) and small.value == -2.0  # unrounded sum / rounded count


def test_options_check_leaf_scoring_and_confidence():
    assert AnalysisOptions(leaf_scoring="valuenet", leaf_confidence=0.3).leaf_confidence == 0.3
    with pytest.raises(ValueError, match="leaf_scoring"):
        AnalysisOptions(leaf_scoring="magic")
    with pytest.raises(ValueError, match="leaf_confidence"):
        AnalysisOptions(leaf_scoring="valuenet", leaf_confidence=0.6)


@pytest.mark.parametrize("argv, message", [
    (["--leaves", "network", "--leaf-confidence", "0.3"], "go with --leaves valuenet"),
    (["--leaves", "valuenet", "--value-model", "/no/such/file.pt"], "no such value network weights file"),
    (["--leaves", "valuenet", "--leaf-confidence", "0.7"], "--leaf-confidence must lie in"),
])
def test_cli_refuses_bad_leaf_options_in_one_line(argv, message, capsys):
    assert main(["analyze", EXAMPLE, "--move", "170", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_leaves_of_several_regions_are_scored_in_one_pass_and_charged_to_their_regions():
    from tengen.phases import PhaseClock, running

    other = Region(1, frozenset({(5, 5)}))
    ours, kata = FixedOwnership([0.9, 0.4, -0.7]), FixedOwnership([-1.0, -1.0, -1.0])
    ours.map[5, 5] = 0.95
    sure, unsure_a, unsure_b = leaf(), leaf(), leaf("probe")
    clock = PhaseClock()
    with running(clock):
        made, counted = score_jobs_with_value_net([(sure, other), (unsure_a, REGION), (unsure_b, REGION)], ours, kata)
    assert made == {REGION.id: 2} and counted == 2 and ours.seen == 2 and kata.seen == 2
    assert sure.value == 1.0 and unsure_a.value == -3.0
    assert clock.events["leaves deferred: probe or board size"] == 1
    assert clock.events["leaves deferred: a region point near |ownership| 0.5"] == 1
    assert clock.events["doubtful point: an empty point touching no stone"] >= 1  # why: the empty board's 0.4
    assert clock.stats["valuenet"].calls == 1 and clock.stats["valuenet"].rows == 2  # one batch for both regions


def test_options_check_leaf_batches():
    assert AnalysisOptions(leaf_batches="region").leaf_batches == "region"
    with pytest.raises(ValueError, match="leaf_batches"):
        AnalysisOptions(leaf_batches="game")


def test_benson_settles_doubtful_eye_points_of_a_pass_alive_group_on_19x19():
    from tengen.go.diagram import board_from_diagram
    from tengen.phases import PhaseClock, running

    rows = [". X . X" + " ." * 15, "X X X X" + " ." * 15] + [". " * 18 + "."] * 17
    board = board_from_diagram("\n".join(rows))
    region = Region(0, frozenset({(0, 0), (0, 2)}))  # the two eyes of Black's pass-alive corner
    ours, kata = FixedOwnership([0.4, 0.9, 0.45]), FixedOwnership([-1.0, -1.0, -1.0])
    node = LocalNode(board=board, kind="leaf")
    clock = PhaseClock()
    with running(clock):
        made, _ = score_jobs_with_value_net([(node, region)], ours, kata)
    assert node.value == 2.0 and not made and kata.seen == 0
    assert clock.events["leaves decided by Benson (no deferral)"] == 1
