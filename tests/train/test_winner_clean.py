"""Winner models on clean influence: dead-stone removal by ownership (a hand-made ownership, no network), the komi
and handicap inputs, the value-net cache's bookkeeping and the clean models' inputs."""

from __future__ import annotations

import numpy as np
import pytest

from tengen.eval.influence import influence_map
from tengen.go.diagram import parse_diagram
from tengen.train.winner.features import (
    CLEAN_SOURCES,
    assemble_inputs,
    board_features,
    clean_features,
    game_inputs,
    influence_of,
    is_clean,
    remove_dead,
)
from tengen.train.winner.metrics import naive_count
from tengen.train.winner.predict import model_inputs

# Black walls off the left, White the right. The Black stone `X` at row 15 sits deep in White's area (dead);
# the White stone at row 3 stands in Black's area, where the ownership is only weakly Black (+0.3).
DIAGRAM = """
. . . . . . . . X . O . . . . . . . .
. . . . . . . . X . O . . . . . . . .
. . . . . . . . X . O . . . . . . . .
. . . O . . . . X . O . . . . . . . .
. . . . . . . . X . O . . . . . . . .
. . . . . . . . X . O . . . . . . . .
. . . . . . . . X . O . . . . . . . .
. . . . . . . . X . O . . . . . . . .
. . . . . . . . X . O . . . . . . . .
. . . . . . . . X . O . . . . . . . .
. . . . . . . . X . O . . . . . . . .
. . . . . . . . X . O . . . . . . . .
. . . . . . . . X . O . . . . . . . .
. . . . . . . . X . O . . . . . . . .
. . . . . . . . X . O . . . . . . . .
. . . . . . . . X . O . . . . X . . .
. . . . . . . . X . O . . . . . . . .
. . . . . . . . X . O . . . . . . . .
. . . . . . . . X . O . . . . . . . .
"""


def _position() -> tuple[np.ndarray, np.ndarray]:
    """(stones (19, 19), fake ownership (19, 19)): +1 left of the dame column 9, -1 right of it, +0.3 at (3, 3)."""
    stones, _ = parse_diagram(DIAGRAM)
    own = np.zeros((19, 19), np.float32)
    own[:, :9], own[:, 10:] = 1.0, -1.0
    own[3, 3] = 0.3
    return stones, own


def test_the_stone_in_the_other_colours_area_is_removed():
    stones, own = _position()
    cleaned, dead = remove_dead(stones, own, threshold=0.5)
    assert list(zip(*np.nonzero(dead))) == [(15, 15)]  # the weakly owned White stone stays at 0.5
    assert cleaned[15, 15] == 0 and cleaned[3, 3] == -1
    assert (cleaned[:, 8] == 1).all() and (cleaned[:, 10] == -1).all()  # the walls live
    _, dead0 = remove_dead(stones, own, threshold=0.0)
    assert sorted(zip(*np.nonzero(dead0))) == [(3, 3), (15, 15)]  # at 0 any stone on the other's point dies


@pytest.mark.parametrize("model", ["zobrist", "bouzy", "cross"])
def test_removal_turns_the_dead_stones_influence_over(model):
    stones, own = _position()
    cleaned, _ = remove_dead(stones, own, threshold=0.5)
    before, after = influence_map(stones, model), influence_map(cleaned, model)
    assert before[15, 15] > 0 and after[15, 15] == 0  # the dead stone's point no longer counts for Black
    assert (after < 0).sum() > (before < 0).sum()  # and White's area grows
    assert naive_count(after.reshape(1, -1), np.array([0.0]))[0] < naive_count(before.reshape(1, -1),
                                                                                np.array([0.0]))[0]


def test_removal_is_batched_and_takes_flat_ownership():
    stones, own = _position()
    boards = np.stack([stones, -stones])
    cleaned, dead = remove_dead(boards, np.stack([own, -own]).reshape(2, 361), 0.5)
    assert cleaned.shape == (2, 19, 19) and dead.sum() == 2
    np.testing.assert_array_equal(cleaned[1], -cleaned[0])


def test_clean_features_are_the_influence_of_the_cleaned_board():
    stones, own = _position()
    maps = clean_features(None, stones[None], own.reshape(1, 361), "bouzy-clean", 1, 0.5, "0" * 64)
    influence = influence_map(remove_dead(stones, own, 0.5)[0], "bouzy").ravel()
    np.testing.assert_array_equal(maps[0], np.sign(influence))  # who controls each point
    assert (maps[0] == -1).sum() > (np.sign(influence_map(stones, "bouzy")) == -1).sum()


def test_source_names():
    from tengen.train.winner.model import model_name, split_name

    assert split_name(model_name("mlp", "bouzy-clean", 180)) == ("mlp", "bouzy-clean", "180")
    assert split_name("logreg-stones-all") == ("logreg", "stones", "all")
    assert CLEAN_SOURCES == ("zobrist-clean", "bouzy-clean", "cross-clean")
    assert is_clean("cross-clean") and not is_clean("cross") and influence_of("bouzy-clean") == "bouzy"
    with pytest.raises(ValueError, match="clean"):
        from tengen.train.winner.features import cached_board_features

        cached_board_features("test", None, "bouzy-clean")
    assert board_features(np.zeros((1, 19, 19), np.int8), "stones").shape == (1, 361)


def test_komi_and_handicap_columns():
    maps = np.zeros((3, 361), np.int16)
    caps = np.array([[1, 2], [0, 0], [5, 0]])
    komi, handicap = np.array([7.5, np.nan, -100.0]), np.array([0, 2, 9])
    x = assemble_inputs(maps, caps, np.array([30, 130, 180]), komi, handicap)
    assert x.shape == (3, 361 + 2 + 2 + 1) and x.dtype == np.float32
    np.testing.assert_allclose(x[:, 363], [0.75, 0.0, -3.0])  # komi / 10, unknown = 0, clipped at -30
    np.testing.assert_allclose(x[:, 364], [0.0, 2 / 9, 1.0])  # handicap / 9
    np.testing.assert_allclose(x[:, -1], [0.3, 1.3, 1.8])  # the move number stays last
    assert assemble_inputs(maps, caps, None, komi, handicap).shape == (3, 365)
    np.testing.assert_allclose(game_inputs(komi, handicap), x[:, 363:365])
    with pytest.raises(ValueError):
        assemble_inputs(maps, caps, None, komi, None)


def test_model_inputs_of_a_clean_model_remove_dead_stones_first():
    stones, own = _position()
    meta = {"name": "mlp-bouzy-clean-180", "source": "bouzy-clean", "phase": "180",
            "dead_stones": {"channel": 0, "threshold": 0.5}}
    x = model_inputs(meta, stones[None], np.array([[0, 0]]), np.array([180]), own.reshape(1, 361),
                     np.array([6.5]), np.array([0]))
    assert x.shape == (1, 365)
    np.testing.assert_array_equal(x[0, :361], np.sign(influence_map(remove_dead(stones, own, 0.5)[0], "bouzy")).ravel())
    with pytest.raises(ValueError, match="ownership"):
        model_inputs(meta, stones[None], np.array([[0, 0]]), np.array([180]))


def test_value_net_cache_merges_and_reads_rows(tmp_path):
    from tengen.train.winner.netcache import ValueNetCache

    weights = tmp_path / "w.pt"
    weights.write_bytes(b"fake weights")
    cache = ValueNetCache("val", tmp_path / "data", weights)
    own = np.zeros((3, 2, 361), np.int8)
    own[:, 1, 0] = [100, -50, 20]
    curves = np.tile(np.linspace(1, 0, 41, dtype=np.float16), (3, 1))
    cache._merge(np.array([7, 2, 5]), own, curves)
    cache.save()
    again = ValueNetCache("val", tmp_path / "data", weights)
    assert list(again.index) == [2, 5, 7] and list(again.missing([1, 2, 7])) == [1]
    np.testing.assert_allclose(again.ownership(np.array([7, 2]), 1)[:, 0], [1.0, -0.5])
    with pytest.raises(KeyError):
        again.rows(np.array([3]))
    assert again.win_at_komi(np.array([2]), np.array([np.nan]))[0] == pytest.approx(
        again.win_at_komi(np.array([2]), np.array([0.0]))[0])
    weights.write_bytes(b"other weights")  # new weights: the cache starts over
    assert len(ValueNetCache("val", tmp_path / "data", weights).index) == 0


def test_subsample_grows_as_a_superset():
    from tengen.train.records.store import PositionSet
    from tengen.train.winner.netcache import subsample

    n = 400
    phase = np.repeat(np.array([30, 80, 130, 180]), n // 4)
    ps = PositionSet(np.zeros((n, 19, 19), np.int8), np.zeros((n, 2)), phase, np.ones(n), np.ones(n),
                     np.zeros(n, int), {})
    small, big = subsample(ps, 10), subsample(ps, {30: 20, 80: 20, 130: 0, 180: 50})
    assert len(small) == 40 and len(big) == 90 and not (phase[big] == 130).any()
    assert set(small[phase[small] != 130]) <= set(big)


def test_predict_winner_with_a_clean_model_reads_the_value_networks_ownership(tmp_path, monkeypatch):
    """A hand-made logistic clean model (P(Black) rises with Black's controlled points minus komi) and a fake
    value network whose ownership calls the Black stone in White's area dead."""
    import json

    import torch

    from tengen.go import Board
    from tengen.go.rules import Rules
    from tengen.train.winner import predict
    from tengen.train.winner.model import WinnerNet, save_model

    net = WinnerNet(365, hidden=0)
    with torch.no_grad():
        net.body.weight.zero_()
        net.body.weight[0, :361] = 0.01
        net.body.weight[0, 363] = -0.1  # komi / 10
        net.body.bias.zero_()
    meta = {"name": "logreg-bouzy-clean-180", "n_inputs": 365, "hidden": 0, "source": "bouzy-clean",
            "phase": "180", "dead_stones": {"channel": 1, "threshold": 0.5}}
    save_model(net, tmp_path / "logreg-bouzy-clean-180.npz", meta)
    (tmp_path / "index.json").write_text(json.dumps({"models": {}, "best": {"180": "logreg-bouzy-clean-180"}}))
    stones, own = _position()

    class FakeValueNet:
        def raw(self, boards):
            assert len(boards) == 1 and (boards[0].array() == stones).all()
            return np.zeros((1, 41)), np.stack([np.zeros(361), own.ravel()])[None]

    monkeypatch.setattr(predict, "_VALUENET", {"ev": FakeValueNet()})
    board = Board(19, rules=Rules("records", 6.5, "area", "simple", False))
    board.set_array(stones)
    p, name, phase = predict.predict_winner(board, 180, models_dir=tmp_path)
    signs = np.sign(influence_map(remove_dead(stones, own, 0.5)[0], "bouzy")).sum()
    assert name == "logreg-bouzy-clean-180" and phase == 180
    assert p == pytest.approx(1 / (1 + np.exp(-(0.01 * signs - 0.065))), abs=2e-3)


def test_clean_models_train_and_bench_end_to_end(tmp_path, monkeypatch, capsys):
    """Synthetic archive -> fake value-network caches (ownership calls nothing dead) -> dead-stone choice ->
    clean models (365 / 366 inputs) -> the bench's clean and value-net rows, without any network."""
    import importlib.util

    from test_winner_bench import REPO, synthetic_dataset

    from tengen.train.records.store import load_split
    from tengen.train.winner import netcache
    from tengen.train.winner.deadstones import choose_dead_stones
    from tengen.train.winner.netcache import ValueNetCache
    from tengen.train.winner.training import TrainConfig, train_all

    data_dir, cache, models = synthetic_dataset(tmp_path)
    weights = tmp_path / "fake.pt"
    weights.write_bytes(b"fake value network")
    monkeypatch.setattr(netcache, "default_valuenet_weights", lambda: weights)
    for split in ("train", "val", "test"):
        ps = load_split(split, cache)
        vc = ValueNetCache(split, cache)
        curves = np.tile(np.where(ps.winner[:, None] > 0, 0.9, 0.1), (1, 41)).astype(np.float16)
        vc._merge(np.arange(len(ps)), np.zeros((len(ps), 2, 361), np.int8), curves)
        vc.save()
    models.mkdir()
    dead = choose_dead_stones(load_split("val", cache), ValueNetCache("val", cache), models, thresholds=(0.0, 0.5))
    assert dead["channel"] == 0 and dead["threshold"] == 0.0 and dead["dead_fraction"]["180"] == 0.0
    cfg = TrainConfig(hidden=8, max_epochs=2, patience=1, threads=1)
    index = train_all(cache, models, sources=("bouzy-clean",), kinds=("mlp",), phases=("180", "all"), cfg=cfg)
    m = index["models"]["mlp-bouzy-clean-all"]
    assert m["n_inputs"] == 366 and index["models"]["mlp-bouzy-clean-180"]["n_inputs"] == 365
    assert m["inputs"] == ["map", "captures", "komi", "handicap"] and m["dead_stones"]["threshold"] == 0.0

    spec = importlib.util.spec_from_file_location("winner_by_phase", REPO / "bench" / "winner_by_phase.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.main(["--cache-dir", str(cache), "--models-dir", str(models), "--no-katago"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert any(line.startswith("mlp-bouzy-clean-180") for line in out)
    assert any(line.startswith("count-bouzy-clean-komi") for line in out)
    vn = next(line for line in out if line.startswith("valuenet @ game komi"))
    assert "100.0%" in vn  # the fake curves know the winner
    assert out[-1].startswith("best_at_180: ")
