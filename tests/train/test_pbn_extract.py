"""PBN samples (issue 25): a replayed move list gives the right region samples; top-k scoring; a few real KGS
games extracted end to end (skipped without the shared data)."""
from __future__ import annotations

import numpy as np

from datapaths import shared_data
from tengen.eval.pbn.model import PBNConfig
from tengen.train.pbn.extract import extract, region_samples, replay_moves
from tengen.train.pbn.training import topk_curve, train_model


def test_region_samples_of_a_short_game():
    """Black 4-4 top-left, White 3-4 top-right, Black a pass-free move at the centre: each move's samples name the
    instances holding it, canonically, with the mover as black."""
    moves = [(1, (3, 3)), (-1, (2, 15)), (1, (9, 9)), (-1, None), (1, (3, 15))]
    game = replay_moves(moves)
    assert len(game.to_play) == 4  # the pass gives no position
    corner = region_samples(game, "corner")
    # moves 0, 1 and 3 lie in corners (top-left, top-right, top-right); tengen 9,9 lies in none
    assert corner["position"].tolist() == [0, 1, 3] and corner["instance"].tolist() == [0, 1, 1]
    assert corner["move"].tolist() == [3 * 9 + 3, 2 * 9 + 3, 3 * 9 + 3]
    assert corner["count"].tolist() == [0, 0, 1]
    # before Black's (3, 15): White's (2, 15) is the opponent's stone, canonical (2, 3) = value 2
    assert corner["points"][2].reshape(9, 9)[2, 3] == 2
    side = region_samples(game, "side")
    # (3,3): top and left strips; (2,15): top and right; (3,15): top and right
    assert sorted(zip(side["position"].tolist(), side["instance"].tolist())) == [(0, 0), (0, 2), (1, 0), (1, 3),
                                                                                (3, 0), (3, 3)]
    combined = region_samples(game, "combined")
    assert combined["points"].shape[1] == 181 and (combined["position"] == 2).sum() == 0
    assert region_samples(game, "corner", max_stones=0)["position"].tolist() == [0, 1]


def test_topk_counts_ties_at_random():
    """A uniform guess over m points scores k/m; a sure guess scores 1."""
    probs = np.tile(np.r_[np.full(10, 0.1), np.zeros(5)], (4, 1))
    curve = topk_curve(probs, np.array([0, 3, 5, 9]), kmax=20)
    np.testing.assert_allclose(curve[:10], np.arange(1, 11) / 10)
    assert (curve[10:] == 1).all()
    assert topk_curve(np.eye(3), np.array([0, 1, 2]), kmax=2).tolist() == [1.0, 1.0]


def test_extract_a_few_kgs_games(tmp_path):
    """The first real KGS games: samples of every kind, capped per bucket, split by game; a tiny model trains."""
    games = shared_data("games")
    counts = extract(tmp_path, train_cap=30, test_cap=5, limit=25, data_dir=games)
    assert set(counts) == {"corner", "side", "combined"}
    z = np.load(tmp_path / "corner-train.npz")
    config = PBNConfig(iterations=2)
    assert (np.bincount(config.bucket_of(z["count"]), minlength=11) <= 30).all()
    assert z["points"].shape[1] == 81 and ((z["move"] >= 0) & (z["move"] < 81)).all()
    assert (z["points"][np.arange(len(z["move"])), z["move"]] == 0).all()  # moves land on empty points
    test = np.load(tmp_path / "corner-test.npz")
    assert set(np.unique(test["game"])).isdisjoint(np.unique(z["game"]))
    assert test["board"].shape[1:] == (19, 19)
    model, _ = train_model("corner", {k: z[k] for k in z.files}, size=10, config=config)
    assert model.buckets and all(b.samples <= 10 for b in model.buckets.values())
