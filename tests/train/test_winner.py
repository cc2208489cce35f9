"""Winner models: features, symmetry augmentation, training on a toy problem, storage, predict_winner."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from tengen.eval.influence import influence_map
from tengen.train.reference import parse_estimate
from tengen.train.winner.features import assemble_inputs, board_features, dihedral_permutations
from tengen.train.winner.metrics import metrics, naive_count
from tengen.train.winner.model import MODELS_DIR, WinnerNet, load_model, save_model
from tengen.train.winner.predict import nearest_phase, predict_winner
from tengen.train.winner.training import TrainConfig, train_model


def test_metrics_by_hand():
    m = metrics(np.array([0.9, 0.2, 0.6, 0.4]), np.array([1, -1, -1, 1]))
    assert m["accuracy"] == 50.0 and m["n"] == 4
    expected = -(math.log(0.9) + math.log(0.8) + math.log(0.4) + math.log(0.4)) / 4
    assert m["log_loss"] == pytest.approx(expected)


def test_dihedral_permutations_are_the_eight_symmetries():
    rng = np.random.default_rng(1)
    b = rng.integers(-1, 2, size=(19, 19))
    perms = dihedral_permutations()
    images = {b.ravel()[p].tobytes() for p in perms}
    expected = {np.rot90(x, k).ravel().tobytes() for x in (b, b.T) for k in range(4)}
    assert images == expected and len(images) == 8


@pytest.mark.parametrize("model", ["zobrist", "bouzy", "cross"])
def test_influence_features_commute_with_symmetries(model):
    """Augmenting the feature vector equals computing features of the transformed board."""
    rng = np.random.default_rng(2)
    b = rng.choice(np.array([-1, 0, 0, 1], dtype=np.int8), size=(19, 19))
    feats = influence_map(b, model).ravel()
    for k, p in enumerate(dihedral_permutations()):
        transformed = b.ravel()[p].reshape(19, 19)
        np.testing.assert_array_equal(influence_map(transformed, model).ravel(), feats[p], err_msg=str(k))


def test_assemble_inputs_layout():
    maps = np.arange(2 * 361, dtype=np.int16).reshape(2, 361)
    x = assemble_inputs(maps, np.array([[3, 10], [0, 20]]), np.array([30, 180]))
    assert x.shape == (2, 364) and x.dtype == np.float32
    assert list(x[1, 361:]) == [0.0, 2.0, 1.8]
    assert assemble_inputs(maps, np.array([[3, 10], [0, 20]])).shape == (2, 363)


def test_board_features_stones_and_batches():
    boards = np.zeros((3, 19, 19), np.int8)
    boards[1, 3, 3] = 1
    f = board_features(boards, "stones", batch=2)
    assert f.shape == (3, 361) and f[1, 3 * 19 + 3] == 1 and f.sum() == 1
    np.testing.assert_array_equal(board_features(boards, "bouzy", batch=2)[1],
                                  influence_map(boards[1], "bouzy").ravel())


def _toy(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Winner = sign of (sum of a 'territory' region - 3): learnable by both models."""
    rng = np.random.default_rng(seed)
    maps = rng.integers(-1, 2, size=(n, 361)).astype(np.int16)
    caps = rng.integers(0, 5, size=(n, 2))
    y = np.where(maps[:, :180].sum(1) + caps[:, 0] - caps[:, 1] > 3, 1, -1)
    return assemble_inputs(maps, caps), y


@pytest.mark.parametrize("hidden", [0, 16])
def test_training_learns_a_toy_rule_and_stops_early(hidden):
    xtr, ytr = _toy(3000, 0)
    xva, yva = _toy(1000, 1)
    cfg = TrainConfig(hidden=hidden, lr=3e-3, max_epochs=8, patience=2, augment=False, batch=128, threads=1)
    net, history = train_model(xtr, ytr, xva, yva, cfg)
    acc = metrics(net.predict_proba(xva), yva)["accuracy"]
    assert acc > 85 and 1 <= len(history) <= 8
    best = min(h["log_loss"] for h in history)
    assert metrics(net.predict_proba(xva), yva)["log_loss"] == pytest.approx(best, abs=1e-4)


def test_save_load_round_trip(tmp_path):
    xtr, ytr = _toy(500, 3)
    net, _ = train_model(xtr, ytr, xtr[:100], ytr[:100], TrainConfig(hidden=8, max_epochs=1, threads=1))
    save_model(net, tmp_path / "m.npz", {"n_inputs": 363, "hidden": 8, "source": "stones", "phase": "80"})
    loaded, meta = load_model(tmp_path / "m.npz")
    assert meta["source"] == "stones"
    np.testing.assert_allclose(loaded.predict_proba(xtr[:50]), net.predict_proba(xtr[:50]), atol=2e-3)


def test_nearest_phase():
    assert [nearest_phase(n) for n in (0, 54, 56, 105, 106, 155, 156, 300)] == [30, 30, 80, 80, 130, 130, 180, 180]


def _tiny_models_dir(tmp_path):
    """A models folder with one hand-made logistic model: P(Black) rises with Black's stone count."""
    net = WinnerNet(363, hidden=0)
    import torch

    with torch.no_grad():
        net.body.weight.zero_()
        net.body.weight[0, :361] = 1.0
        net.body.bias.zero_()
    save_model(net, tmp_path / "logreg-stones-all.npz", {"n_inputs": 363, "hidden": 0, "source": "stones",
                                                         "phase": "130"})
    index = {"models": {}, "best": {str(p): "logreg-stones-all" for p in (30, 80, 130, 180)}}
    (tmp_path / "index.json").write_text(json.dumps(index))
    return tmp_path


def test_predict_winner_with_a_board_and_an_array(tmp_path):
    from tengen.go import BLACK, WHITE, Board

    models = _tiny_models_dir(tmp_path)
    b = Board(19)
    b.play(BLACK, (3, 3))
    b.play(WHITE, (15, 15))
    b.play(BLACK, (3, 15))
    p, name, phase = predict_winner(b, 100, models_dir=models)
    assert name == "logreg-stones-all" and phase == 80
    assert p == pytest.approx(1 / (1 + math.exp(-1)), abs=1e-3)  # one stone more for Black
    p2, _, phase2 = predict_winner(-b.array(), 170, captures=(0, 0), models_dir=models)
    assert p2 == pytest.approx(1 - p, abs=1e-3) and phase2 == 180
    with pytest.raises(ValueError, match="19x19"):
        predict_winner(np.zeros((9, 9), np.int8), 30, models_dir=models)


def test_committed_models_predict_a_probability():
    from tengen.go import BLACK, Board

    index_path = MODELS_DIR / "index.json"

    b = Board(19)
    b.play(BLACK, (3, 3))
    for move in (30, 80, 130, 180):
        p, name, phase = predict_winner(b, move)
        assert 0.0 < p < 1.0 and phase == move and name in json.loads(index_path.read_text())["models"]


def test_committed_models_were_trained_on_the_full_dataset():
    """index.json records the dataset the models saw: >= 20,000 held-out test games, every phase in each split."""
    data = json.loads((MODELS_DIR / "index.json").read_text())["data"]
    assert data["test"]["games"] >= 20000
    assert all(data[s]["positions"][str(q)] > 1000 for s in ("train", "val", "test") for q in (30, 80, 130, 180))


@pytest.mark.parametrize("komi, count", [(0.0, 2.0), (7.5, -5.5), (-3.0, 5.0), (math.nan, 2.0)])
def test_naive_count_is_the_influence_balance_minus_komi(komi, count):
    maps = np.zeros((1, 361), np.int16)
    maps[0, :3], maps[0, 3] = 5, -2  # three points Black's, one White's
    assert naive_count(maps, np.array([komi]))[0] == count  # unknown komi (NaN) counts as 0


@pytest.mark.parametrize("text, score", [("W+7.5 (upper bound: 7.5, lower: 7.5)", -7.5), ("B+12.0", 12.0),
                                         ("0", 0.0)])
def test_parse_gnugo_estimate(text, score):
    assert parse_estimate(text) == score


@pytest.mark.gnugo
def test_gnugo_estimate_sees_who_owns_the_board():
    from tengen.eval.gtp_client import GtpClient, find_gnugo
    from tengen.train.reference import gnugo_estimate

    gnugo = find_gnugo()
    if gnugo is None:
        pytest.skip("GNU Go is not installed (apt-get install -y gnugo)")
    # Black fills columns A-O with stones and single-point eyes, White columns Q-T likewise; column P is dame.
    stones = np.zeros((19, 19), np.int8)
    stones[:, :14] = 1
    stones[:, 15:] = -1
    rows, cols = np.meshgrid(np.arange(19), np.arange(19), indexing="ij")
    stones[(rows % 2 == 1) & (cols % 2 == 1) & (cols != 13) & (cols != 15)] = 0  # eyes
    with GtpClient([gnugo, "--mode", "gtp", "--chinese-rules"]) as engine:
        black = gnugo_estimate(engine, stones, 1, 7.5)
        white = gnugo_estimate(engine, -stones[:, ::-1].copy(), 1, 7.5)
    assert black > 150 and white < -150  # about (266 - 76) - 7.5
