"""The `net` local-move predictor (tengen's trained local-move network behind `LocalMovePredictor`): its
decoding of the 723 outputs, the published growth thresholds on its predictions, one network call per tree
level across regions, ko retakes, the answer head (a move judged sente gives its color a threat leaf), the
real trained model on 9x9 and 19x19 boards, `auto`'s choice of it, and the CLI's one-line errors.

Most tests run a scripted stand-in network (`ScriptedNet`) through the predictor's `runner` seam: it reads
each row's local history back from the compact batch, so the predictor's encoding is exercised too."""
from __future__ import annotations

import numpy as np
import pytest

from datapaths import REPO
from tengen.cli import main
from tengen.endgame.analysis import analyze_regions, make_predictor
from tengen.endgame.options import AnalysisOptions
from tengen.endgame.predictors import LocalNetPredictor, LocalPrediction, PredictionRequest, UntrainedModelError
from tengen.endgame.regions import Region
from tengen.endgame.tree import MISSING, GrowthConfig, grow_tree, grow_trees
from tengen.eval.localnet import weights as localnet_weights
from tengen.eval.localnet.compact import NO_MOVE, POINTS, flat, unflat
from tengen.go import BLACK, WHITE, Board
from tengen.go.coords import from_gtp, to_gtp
from tengen.go.diagram import board_from_diagram, parse_diagram

from standin_networks import StandInNetwork

EXAMPLE = str(REPO / "src" / "tengen" / "data" / "example.sgf")
TRAINED = localnet_weights.default_weights()
needs_trained = pytest.mark.skipif(TRAINED is None, reason="no trained local-move network (models/localnet/localnet.pt)")


class ScriptedNet:
    """A stand-in network for `LocalNetPredictor(runner=...)`. The script maps a local history ("" at the
    root, else "B:C1 W:D1", oldest first, read back from the batch's recent moves) to
    {"B": {vertex: p}, "W": {vertex: p}, "none": p, "answer": p}; an unscripted row says "no move"."""

    def __init__(self, script: dict, size: int = 5):
        self.script, self.size = script, size
        self.batches: list[int] = []  # rows per call
        self.regions: list[list[frozenset]] = []  # per call, each row's region (canvas indices)

    def __call__(self, batch):
        self.batches.append(len(batch))
        self.regions.append([frozenset(np.flatnonzero(row)) for row in batch.region])
        probs = np.zeros((len(batch), NO_MOVE + 1))
        answers = np.zeros(len(batch))
        for i in range(len(batch)):
            entry = self.script.get(self.history(batch, i), {"none": 1.0})
            for color, offset in (("W", 0), ("B", POINTS)):
                for vertex, p in entry.get(color, {}).items():
                    probs[i, offset + flat(from_gtp(vertex, self.size))] = p
            probs[i, NO_MOVE] = entry.get("none", 0.0)
            answers[i] = entry.get("answer", 0.0)
        return probs, answers

    def history(self, batch, i: int) -> str:
        moves = [(int(c), int(p)) for c, p in zip(batch.recent_color[i], batch.recent[i]) if c != 0]
        return " ".join(f"{'B' if c == BLACK else 'W'}:{to_gtp(unflat(p), self.size)}" for c, p in reversed(moves))


def _points(vertices: str, size: int = 5) -> frozenset:
    return frozenset(from_gtp(v, size) for v in vertices.split())


def _net(script: dict, size: int = 5) -> tuple[LocalNetPredictor, ScriptedNet]:
    net = ScriptedNet(script, size)
    return LocalNetPredictor(runner=net), net


def _grow(script: dict, board: Board | None = None, region: str = "A1 B1 C1 D1 E1", **config):
    board = board if board is not None else Board(5)
    predictor, net = _net(script, board.height)
    tree = grow_tree(board, Region(0, _points(region, board.height)), predictor, GrowthConfig(**config))
    return tree, predictor, net


def _at(tree, history: str):
    """The node reached by a history "B:C1 W:D1" from the root."""
    node = tree.root
    for move in history.split():
        color, vertex = move.split(":")
        node = dict(node.children[BLACK if color == "B" else WHITE])[from_gtp(vertex, 5)]
    return node


def _options(node) -> dict[str, list[tuple[str, str]]]:
    """A node's children per color as (vertex or 'threat', kind)."""
    return {name: [("threat" if p == MISSING else to_gtp(p, 5), child.kind) for p, child in node.children[color]]
            for name, color in (("B", BLACK), ("W", WHITE))}


# ---------------------------------------------------------------- the published thresholds on the net's output
@pytest.mark.parametrize("none,kind", [(0.21, "leaf"), (0.19, "inner")])
def test_no_move_above_20_percent_makes_a_leaf(none, kind):
    rest = (1 - none) / 2
    script = {"": {"B": {"B1": 0.5}, "W": {"C1": 0.5}},
              "B:B1": {"none": none, "B": {"D1": rest}, "W": {"C1": rest}}}
    tree, _, _ = _grow(script)
    node = _at(tree, "B:B1")
    assert node.kind == kind
    if kind == "inner":
        assert _options(node) == {"B": [("D1", "leaf")], "W": [("C1", "leaf")]}


@pytest.mark.parametrize("white_share,options", [
    (0.86, {"B": [("D1", "probe")], "W": [("C1", "leaf")]}),  # only White's answer; Black's best is probed
    (0.84, {"B": [("D1", "leaf")], "W": [("C1", "leaf")]}),   # both colors move
])
def test_one_color_above_85_percent_of_the_move_mass_moves_alone(white_share, options):
    script = {"": {"B": {"B1": 0.5}, "W": {"C1": 0.5}},
              "B:B1": {"W": {"C1": white_share * 0.9}, "B": {"D1": (1 - white_share) * 0.9}, "none": 0.1}}
    tree, _, _ = _grow(script)
    assert _options(_at(tree, "B:B1")) == options


@pytest.mark.parametrize("black,chosen", [
    ({"A1": 0.20, "B1": 0.175, "C1": 0.125}, ["A1", "B1"]),  # 40 % and 35 % of Black's mass are above 30 %
    ({"A1": 0.125, "B1": 0.125, "C1": 0.125, "D1": 0.125}, ["A1"]),  # none above 30 %: the single best
    ({"E1": 0.004, "A1": 0.02}, ["A1"]),  # small masses: fractions of the color's own mass (83 %, 17 %)
    ({"C1": 0.3, "D1": 0.2, "E1": 0.1}, ["C1", "D1"]),  # 50 %, 33 %, 17 %
])
def test_moves_above_30_percent_of_a_colors_mass_else_the_best(black, chosen):
    tree, _, _ = _grow({"": {"B": black, "W": {"E1": 0.3}, "none": 0.05}})
    assert [to_gtp(p, 5) for p, _ in tree.root.children[BLACK]] == chosen


def test_the_root_gets_both_colors_even_when_one_holds_the_move_mass():
    lopsided = {"B": {"C1": 0.95}, "W": {"D1": 0.04}, "none": 0.01}
    tree, _, _ = _grow({"": lopsided, "B:C1": {"B": {"D1": 0.95}, "W": {"B1": 0.04}, "none": 0.01}})
    assert _options(tree.root) == {"B": [("C1", "inner")], "W": [("D1", "leaf")]}
    assert _options(_at(tree, "B:C1")) == {"B": [("D1", "leaf")], "W": [("B1", "probe")]}  # below it: one color


# A1 is Black's eye (suicide for White), B1 holds a Black stone, C1 belongs to another region.
DROPS = """
    . . . . .
    . . . . .
    . . . . .
    X X . . .
    . X . . .
"""


def test_claimed_and_illegal_points_are_dropped_without_renormalising():
    board = board_from_diagram(DROPS)
    script = {"": {"B": {"A1": 0.1, "B1": 0.2, "C1": 0.1, "D1": 0.1},
                   "W": {"A1": 0.2, "C1": 0.1, "D1": 0.1}, "none": 0.1}}
    predictor, _ = _net(script)
    request = PredictionRequest(board, (), Region(0, _points("A1 D1")), claimed=_points("C1"))
    (pred,) = predictor.predict([request])
    assert {to_gtp(p, 5): round(v, 6) for p, v in pred.black.items()} == {"A1": 0.1, "D1": 0.1}
    assert {to_gtp(p, 5): round(v, 6) for p, v in pred.white.items()} == {"D1": 0.1}
    assert pred.no_move == pytest.approx(0.1) and pred.answer is None and pred.ownership is None


def test_one_network_call_per_level_for_all_regions():
    # two regions on the first line; the root rows propose moves in both, each region keeps its own
    script = {"": {"B": {"A1": 0.25, "E1": 0.25}, "W": {"A1": 0.25, "E1": 0.25}},
              "B:A1": {"B": {"B1": 0.5}, "W": {"B1": 0.5}}, "B:E1": {"B": {"D1": 0.5}, "W": {"D1": 0.5}}}
    predictor, net = _net(script)
    left, right = Region(0, _points("A1 B1")), Region(1, _points("D1 E1"))
    trees = grow_trees(Board(5), [left, right], predictor)
    assert net.batches == [2, 4, 4] and predictor.calls == 3  # root, depth 1, depth 2: one call each
    for rows in net.regions:  # every call holds rows of both regions
        assert {frozenset(flat(p) for p in left.points), frozenset(flat(p) for p in right.points)} <= set(rows)
    assert [to_gtp(p, 5) for p, _ in trees[0].root.children[BLACK]] == ["A1"]
    assert [to_gtp(p, 5) for p, _ in trees[1].root.children[BLACK]] == ["E1"]
    assert predictor.evaluations == 10 and predictor.evaluations_by_region == {0: 5, 1: 5}


# Black's D1 takes White's C1 stone: White may not retake at C1 at once.
KO = """
    . . . . .
    . . . . .
    . . . . .
    O . X O .
    . X O . O
"""
TAKE = {"B": {"C1": 0.2}, "W": {"C1": 0.5, "B2": 0.1}, "none": 0.1}  # C1 is White's retake, barred by ko


@pytest.mark.parametrize("region,retake", [("B2 C1 D1", {WHITE: "C1"}), ("A5 B5", {})])
def test_the_retake_ko_bans_is_recorded_in_the_regions_neighbourhood(region, retake):
    board = board_from_diagram(KO)
    board.play(BLACK, from_gtp("D1", 5))
    # the far region's moves are not restricted to it here: what is tested is the ban's record and legality
    predictor = LocalNetPredictor(runner=ScriptedNet({"B:D1": TAKE}), local_only=False)
    (pred,) = predictor.predict([PredictionRequest(board, ((BLACK, from_gtp("D1", 5)),), Region(0, _points(region)))])
    assert {c: to_gtp(p, 5) for c, p in pred.ko_retake.items()} == retake
    assert from_gtp("C1", 5) not in pred.white and from_gtp("C1", 5) in pred.black  # illegal for White only


def test_the_ko_retake_reaches_the_tree():
    tree, _, _ = _grow({"": {"B": {"D1": 0.5}, "W": {"D1": 0.3}}, "B:D1": TAKE},
                       board_from_diagram(KO), region="B2 C1 D1")
    after_take = _at(tree, "B:D1")
    assert after_take.ko_retakes == [(WHITE, from_gtp("C1", 5))] and after_take.children[WHITE] == []


# ---------------------------------------------------------------- where its moves may lie
def test_the_net_proposes_moves_in_the_region_and_on_its_boundary_only():
    # the network's mass on a far point (E5, three steps from the first-line region) is dropped, as kata's
    # policy is restricted: a region's best moves lie in it or next to it
    script = {"": {"B": {"B1": 0.4, "E5": 0.4}, "W": {"C2": 0.4, "E4": 0.4}, "none": 0.2}}
    predictor, _ = _net(script)
    board = Board(5)
    request = PredictionRequest(board, (), Region(0, _points("A1 B1 C1")))
    (local,) = predictor.predict([request])
    assert set(local.black) == {from_gtp("B1", 5)} and set(local.white) == {from_gtp("C2", 5)}
    anywhere = LocalNetPredictor(runner=ScriptedNet(script), local_only=False)
    (free,) = anywhere.predict([request])
    assert from_gtp("E5", 5) in free.black and from_gtp("E4", 5) in free.white


# ---------------------------------------------------------------- the answer head
def _sente_script(answer):
    return {"": {"B": {"C1": 0.3}, "W": {"D1": 0.3}, "none": 0.1},
            "B:C1": {"W": {"D1": 0.4}, "B": {"D1": 0.1, "B1": 0.05}, "none": 0.1, "answer": answer},
            "W:D1": {"B": {"C1": 0.3}, "W": {"C1": 0.3}, "none": 0.1, "answer": 0.2}}


NORMAL = {"B": [("D1", "leaf"), ("B1", "leaf")], "W": [("D1", "leaf")]}  # White's share 73 %: both colors


@pytest.mark.parametrize("answer,threshold,after_black", [
    (0.9, 0.5, {"B": [("threat", "threat")], "W": [("D1", "leaf")]}),  # sente: Black's threat, White answers
    (0.51, 0.5, {"B": [("threat", "threat")], "W": [("D1", "leaf")]}),
    (0.5, 0.5, NORMAL),  # not above the threshold
    (0.9, 0.95, NORMAL),  # the threshold is a setting
    (0.0, 0.5, NORMAL),
])
@pytest.mark.parametrize("missing", ["probe", "threat"])
def test_a_move_judged_sente_gives_its_color_a_threat_and_grows_the_answer(answer, threshold, after_black, missing):
    tree, _, _ = _grow(_sente_script(answer), answer_threshold=threshold, missing_color=missing)
    node = _at(tree, "B:C1")
    assert _options(node) == after_black
    if after_black["B"][0][0] == "threat":
        threat = node.children[BLACK][0][1]
        assert threat.threat == BLACK and "answer head" in threat.reason and f"{answer:.0%}" in threat.reason
    # the reverse (White's move at the root) is grown as any node: both colors
    assert _options(_at(tree, "W:D1")) == {"B": [("C1", "leaf")], "W": [("C1", "leaf")]}


class Scripted:
    """LocalPredictions as kata, oracle and exhaustive give them (answer None), keyed like ScriptedNet."""

    name = "scripted"

    def __init__(self, script):
        self.script = script

    def predict(self, requests):
        out = []
        for req in requests:
            key = " ".join(f"{'B' if c == BLACK else 'W'}:{to_gtp(p, 5)}" for c, p in req.history)
            entry = self.script.get(key, {"none": 1.0})
            out.append(LocalPrediction(black={from_gtp(v, 5): p for v, p in entry.get("B", {}).items()},
                                       white={from_gtp(v, 5): p for v, p in entry.get("W", {}).items()},
                                       no_move=entry.get("none", 0.0), answer=entry.get("answer")))
        return out


@pytest.mark.parametrize("missing", ["probe", "threat"])
def test_predictions_without_an_answer_grow_as_before(missing):
    script = _sente_script(None)
    script["B:C1"].pop("answer")
    config = GrowthConfig(missing_color=missing, answer_threshold=0.0)  # no answer: the threshold never applies
    tree = grow_tree(Board(5), Region(0, _points("A1 B1 C1 D1 E1")), Scripted(script), config)
    assert _options(_at(tree, "B:C1")) == NORMAL
    # one color above 85 %: the other is probed or made a threat as the missing-color setting says
    script["B:C1"] = {"W": {"D1": 0.9}, "B": {"B1": 0.05}, "none": 0.05}
    tree = grow_tree(Board(5), Region(0, _points("A1 B1 C1 D1 E1")), Scripted(script), config)
    expected = [("B1", "probe")] if missing == "probe" else [("threat", "threat")]
    assert _options(_at(tree, "B:C1")) == {"B": expected, "W": [("D1", "leaf")]}


def test_the_answer_head_yields_to_a_ko_ban():
    # White, barred from retaking, cannot answer locally at once: the ko rule sees the retake, no threat leaf
    tree, _, _ = _grow({"": {"B": {"D1": 0.5}, "W": {"D1": 0.3}}, "B:D1": dict(TAKE, answer=0.95)},
                       board_from_diagram(KO), region="B2 C1 D1")
    after_take = _at(tree, "B:D1")
    assert after_take.ko_retakes == [(WHITE, from_gtp("C1", 5))]
    assert [to_gtp(p, 5) for p, _ in after_take.children[BLACK]] == ["C1"]


def test_the_answer_is_reported_below_the_root_only():
    board = Board(5)
    board.play(BLACK, from_gtp("C1", 5))
    predictor, _ = _net({"": {"W": {"D1": 0.5}, "answer": 0.7}, "B:C1": {"W": {"D1": 0.5}, "answer": 0.7}})
    region = Region(0, _points("B1 C1 D1"))
    root, child = predictor.predict([PredictionRequest(Board(5), (), region),
                                     PredictionRequest(board, ((BLACK, from_gtp("C1", 5)),), region)])
    assert root.answer is None and child.answer == pytest.approx(0.7)


def test_growth_config_checks_the_answer_threshold():
    with pytest.raises(ValueError, match="answer_threshold"):
        GrowthConfig(answer_threshold=1.5)


# ---------------------------------------------------------------- loading, auto, options
def test_no_weights_anywhere_is_refused_in_one_line(monkeypatch, tmp_path):
    monkeypatch.setattr(localnet_weights, "DEFAULT_WEIGHTS", tmp_path / "absent.pt")
    with pytest.raises(UntrainedModelError, match="no trained local-move network"):
        LocalNetPredictor()
    assert AnalysisOptions(predictor="auto").tree_predictor() == "kata"  # auto falls back on kata
    assert AnalysisOptions(predictor="auto", local_model=str(tmp_path / "given.pt")).tree_predictor() == "net"


@pytest.mark.parametrize("predictor,has_region,leaves,needs", [
    ("net", False, "evaluator", True),  # regions are found from the evaluator's ownership
    ("net", True, "evaluator", True),  # leaves are scored by it
    ("net", True, "exact", False),
    ("kata", True, "exact", True),
])
def test_net_still_needs_the_evaluator_for_regions_and_leaves(predictor, has_region, leaves, needs):
    assert AnalysisOptions(predictor=predictor, leaf_scoring=leaves).needs_network(has_region) is needs


SMALL_SEALED = """
    X X O O .
    X X . O O
    X X X O O
    . X X O O
    X X X O .
"""


def test_a_net_predictor_object_runs_through_the_analyzer():
    board = board_from_diagram(SMALL_SEALED)
    c4 = from_gtp("C4", 5)
    predictor, net = _net({"": {"B": {"C4": 0.4}, "W": {"C4": 0.4}, "none": 0.2}})
    (result,) = analyze_regions(board, [Region(0, frozenset({c4}))], StandInNetwork(),
                                AnalysisOptions(predictor=predictor))
    assert result.tree.predictor == "net" and net.batches == [1, 2]
    assert (result.kind, result.temperature, result.count) == ("gote", 1, 0)


# ---------------------------------------------------------------- the trained model
NINE = """
    . . . . . . . . .
    . . . . . . . . .
    . . X X X O O . .
    . X a a X O b O .
    . X X X X O O O .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
"""


def _nine():
    grid, marks = parse_diagram(NINE)
    board = board_from_diagram(NINE)
    region = frozenset(marks["a"] + marks["b"]) | {(r, c) for r in range(2) for c in range(2, 8)}
    return board, Region(0, region)


def _nineteen():
    from tengen.go.position import load_position

    board = load_position(EXAMPLE, 150).board
    empty = board.array() == 0
    region = frozenset((r, c) for r in range(14, 19) for c in range(0, 6) if empty[r, c])
    return board, Region(0, region)


@needs_trained
def test_the_trained_model_predicts_on_9x9_and_19x19_boards():
    from tengen.eval.localnet.compact import compact_row, stack_rows
    from tengen.eval.localnet.infer import predict

    model, meta = localnet_weights.load_weights(TRAINED)
    cases = [_nine(), _nineteen()]
    batch = stack_rows([compact_row(b, r.points, (), b.to_play) for b, r in cases])
    probs, answers = predict(model, batch)
    assert probs.shape == (2, 723) and answers.shape == (2,)
    assert np.allclose(probs.sum(axis=1), 1, atol=1e-4) and ((answers >= 0) & (answers <= 1)).all()
    for row, (board, _) in zip(probs, cases):  # no mass off the board or on a stone
        occupied = np.ones((19, 19), bool)
        occupied[:board.height, :board.width] = board.array() != 0
        assert row[:POINTS][occupied.reshape(-1)].max() < 1e-6 and row[POINTS:NO_MOVE][occupied.reshape(-1)].max() < 1e-6

    predictor = LocalNetPredictor()
    requests = []
    for board, region in cases:
        move = next(p for p in sorted(region.points) if board.is_legal(board.to_play, p))
        after = board.copy()
        after.play(board.to_play, move)
        after.to_play = -board.to_play
        requests += [PredictionRequest(board, (), region), PredictionRequest(after, ((board.to_play, move),), region)]
    preds = predictor.predict(requests)
    assert predictor.calls == 1 and predictor.evaluations == 4
    for req, pred in zip(requests, preds):
        assert (pred.answer is None) == (not req.history)
        assert pred.answer is None or 0 <= pred.answer <= 1
        assert 0 <= pred.no_move <= 1 and pred.mass(BLACK) + pred.mass(WHITE) + pred.no_move <= 1 + 1e-6
        assert all(req.board.on_board(p) and req.board.is_legal(BLACK, p) for p in pred.black)
        assert all(req.board.on_board(p) and req.board.is_legal(WHITE, p) for p in pred.white)
        assert pred.mass(BLACK) + pred.mass(WHITE) > 0


@needs_trained
def test_the_trained_model_grows_a_tree_and_auto_picks_it():
    board, region = _nine()
    predictor = make_predictor("net", None, board, local_model=str(TRAINED))
    tree = grow_tree(board, region, predictor, GrowthConfig(max_nodes=30, max_total_nodes=None))
    assert tree.predictor == "net" and 3 <= tree.nodes <= 30
    assert tree.root.children[BLACK] and tree.root.children[WHITE]
    assert predictor.calls <= GrowthConfig().max_depth + 2
    assert AnalysisOptions(predictor="auto").tree_predictor() == "net"


# ---------------------------------------------------------------- the CLI
@pytest.mark.parametrize("extra,message", [
    (["--local-model", "/nonexistent"], "/nonexistent: no such local-move network weights file"),
    (["--predictor", "net", "--local-model", "/nonexistent"], "/nonexistent: no such local-move network weights file"),
    (["--predictor", "net", "--local-model", "GARBAGE"], "cannot read local-move network weights"),
    (["--predictor", "kata", "--local-model", "/nonexistent"], "--local-model applies to --predictor net or auto"),
    (["--local-model", ""], "--local-model: an empty file name"),
])
def test_a_bad_local_model_is_refused_in_one_line(capsys, tmp_path, extra, message):
    garbage = tmp_path / "garbage.pt"
    garbage.write_bytes(b"not a torch file")
    argv = ["analyze", EXAMPLE, "--no-progress", *[str(garbage) if a == "GARBAGE" else a for a in extra]]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


def test_net_without_trained_weights_is_refused_in_one_line(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(localnet_weights, "DEFAULT_WEIGHTS", tmp_path / "absent.pt")
    assert main(["analyze", EXAMPLE, "--predictor", "net", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no trained local-move network" in err


@needs_trained
def test_the_library_front_door_takes_the_net_predictor():
    import tengen

    board = board_from_diagram(SMALL_SEALED)
    analysis = tengen.analyze(board, predictor="net", evaluator=StandInNetwork(), local_model=str(TRAINED))
    assert analysis.predictor == "net" and [r.tree.predictor for r in analysis.regions] == ["net"]
    assert analysis.regions[0].region.points == {from_gtp("C4", 5)}
