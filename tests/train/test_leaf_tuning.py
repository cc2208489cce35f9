"""The leaf dataset's shards (written, resumed, read back) and the ownership fine-tuning on them."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
import torch

from tengen.train.valuedata.leaf_dataset import leaves_of, write_shard
from tengen.eval.localnet.compact import board_codes
from tengen.eval.valuenet.model import ValueNet, ValueNetConfig
from tengen.go.board import Board
from tengen.go.colors import BLACK
from tengen.train.valuenet.leaf_tuning import load_leaves, region_agreement, tune


def synthetic_leaves(n: int, seed: int = 0) -> dict:
    """Random 19x19 boards whose 'KataGo ownership' is each stone's colour and 0 on empty points, with a
    region of 30 random points per leaf: a target a small network learns quickly."""
    rng = np.random.default_rng(seed)
    codes, kata, region = [], [], []
    for _ in range(n):
        grid = rng.choice([-1, 0, 1], size=(19, 19), p=[0.25, 0.5, 0.25]).astype(np.int8)
        board = Board(19)
        board.set_array(grid)
        codes.append(board_codes(board))
        kata.append(grid.reshape(-1).astype(np.float16))
        mask = np.zeros(361, np.uint8)
        mask[rng.choice(361, 30, replace=False)] = 1
        region.append(mask)
    return {"codes": np.stack(codes), "to_play": np.full(n, BLACK, np.int64), "ko": np.full(n, -1, np.int64),
            "kata": np.stack(kata), "region": np.stack(region), "game": np.arange(n, dtype=np.int32)}


def test_shards_round_trip_and_name_their_games(tmp_path):
    data = synthetic_leaves(6)
    halves = [{k: v[:3] for k, v in data.items()}, {k: v[3:] for k, v in data.items()}]
    write_shard(tmp_path, 0, halves[:1], ["a.sgf", "b.sgf"])
    write_shard(tmp_path, 1, halves[1:], ["c.sgf"])
    assert (tmp_path / "done.txt").read_text().split() == ["a.sgf", "b.sgf", "c.sgf"]
    loaded = load_leaves(tmp_path, torch.device("cpu"))
    assert loaded["codes"].shape == (6, 361)
    assert torch.equal(loaded["game"], torch.arange(6))
    assert np.array_equal(loaded["kata"].numpy(), data["kata"].astype(np.float32))


def test_load_leaves_says_where_to_build_them(tmp_path):
    with pytest.raises(FileNotFoundError, match="leaf_dataset"):
        load_leaves(tmp_path, torch.device("cpu"))


def test_tuning_raises_held_out_agreement_on_a_learnable_target(tmp_path):
    write_shard(tmp_path, 0, [synthetic_leaves(80)], ["x"])
    data = load_leaves(tmp_path, torch.device("cpu"))
    torch.manual_seed(0)
    model = ValueNet(ValueNetConfig(blocks=1, channels=16))
    held = torch.nonzero(data["game"] % 10 == 0).squeeze(1)
    start = region_agreement(model, data, held)
    result = tune(model, data, steps=150, lr=3e-3, batch=32, eval_every=1000, log=lambda _: None)
    assert result["before"] == pytest.approx(start)
    assert result["held_out_leaves"] == 8 and result["train_leaves"] == 72
    assert result["after"] > 0.9 > start


def test_leaves_of_keeps_only_leaves_still_to_be_scored():
    board = Board(19)
    leaf = SimpleNamespace(kind="leaf", board=board, counted=False)
    counted = SimpleNamespace(kind="leaf", board=board, counted=True)
    probe = SimpleNamespace(kind="probe", board=board, counted=False)
    tree = SimpleNamespace(leaves=lambda: [leaf, counted, probe])
    region = SimpleNamespace(points=[(0, 0), (0, 1)])
    analysis = SimpleNamespace(regions=[SimpleNamespace(tree=tree, region=region),
                                        SimpleNamespace(tree=None, region=region)])
    assert leaves_of(analysis) == [(board, ((0, 0), (0, 1)))]
