"""The value dataset: the games pack (results, komi, setup stones and moves from hand-made records), the
labels built from a finished game (the 41-komi targets from n; the final ownership with a dead stone, by the
real KataGo network), and the position sampling and build without a network (shards, resume, splits)."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from tengen.eval.localnet.compact import board_codes, flat
from tengen.eval.valuenet.model import KOMIS
from tengen.go import BLACK, WHITE
from tengen.go.coords import from_gtp
from tengen.train.localdata.games import FINISHED_LIST
from tengen.train.valuedata.build import ValueBuildConfig, build, game_board, replay_positions, sample_moves
from tengen.train.valuedata.dataset import load, stats
from tengen.train.valuedata.pack import GamesPack, build_pack, decode_move, encode_move, result_margin
from tengen.train.valuenet.loss import komi_targets

from train_fixtures import capture_game, sgf, write_archive

# A finished 19x19 game: Black walls off the left four columns, White the other fifteen; White's stone at B10
# inside Black's narrow area is dead. Area: Black 76, White 285, n = -209; with komi 6.5 the record says W+215.5.
# (KataGo rightly calls White's wide empty side unsettled, so only Black's side and the walls are asserted.)
WALLS = "AB" + "".join(f"[d{chr(97 + r)}]" for r in range(19)) + "AW" + "".join(f"[e{chr(97 + r)}]" for r in range(19))
DEAD_STONE = sgf(["W[bj]", "B[tt]", "W[tt]"], f"KM[6.5]RE[W+215.5]{WALLS}")


def games_dir(tmp_path, records: dict[str, tuple[bytes, str]]):
    """A games folder with one archive of `records` (name -> (sgf, RE)) and its finished list."""
    write_archive(tmp_path / "kgs_6d_test.tar.xz", {name: data for name, (data, _) in records.items()})
    lines = ["archive\tpath\tRE\tKM\tHA\tmoves"] + [f"kgs_6d_test.tar.xz\t{name}\t{re}\t6.5\t0\t9"
                                                    for name, (_, re) in records.items()]
    (tmp_path / FINISHED_LIST).write_text("\n".join(lines) + "\n")
    return tmp_path


@pytest.mark.parametrize("text, margin", [("B+3.5", 3.5), ("W+0.5", -0.5), ("w+12", -12.0)])
def test_result_margin_reads_black_margin(text, margin):
    assert result_margin(text) == margin


@pytest.mark.parametrize("text", ["B+R", "W+T", "B+0", "0", "Jigo", ""])
def test_result_margin_refuses_what_is_not_a_score(text):
    with pytest.raises(ValueError):
        result_margin(text)


def test_move_codes_round_trip():
    for color, point in [(BLACK, (0, 0)), (WHITE, (18, 18)), (BLACK, None), (WHITE, None), (WHITE, (3, 15))]:
        assert decode_move(encode_move(color, point)) == (color, point)


def test_pack_keeps_komi_margin_setup_and_moves(tmp_path):
    gdir = games_dir(tmp_path, {"a.sgf": (DEAD_STONE, "W+215.5"), "b.sgf": (capture_game(30), "W+3.5"),
                                "c.sgf": (capture_game(20), "B+R")})
    counts = build_pack(gdir, tmp_path / "pack.npz", workers=1)
    assert counts == {"packed": 2, "odd_result": 1}
    pack = GamesPack.load(tmp_path / "pack.npz")
    games = {pack.game(i).path: pack.game(i) for i in range(len(pack))}
    dead = games["a.sgf"]
    assert (dead.komi, dead.margin, dead.n) == (6.5, -215.5, -209.0)
    assert len(dead.setup_black) == 19 and len(dead.setup_white) == 19
    assert dead.moves == [(WHITE, (9, 1)), (BLACK, None), (WHITE, None)]
    assert games["b.sgf"].n == 3.0 and len(games["b.sgf"].moves) == 30


def test_komi_targets_follow_the_final_difference():
    t = komi_targets(torch.tensor([19.0, -3.0, 2.5]), torch.as_tensor(KOMIS))
    assert t.shape == (3, 41)
    assert t[0].tolist() == [1.0] * 32 + [0.0] * 9  # Black wins at every komi below 19
    assert t[1].tolist() == [1.0] * 10 + [0.0] * 31  # ... below -3
    assert t[2, 15].item() == 0.5 and t[2, 14].item() == 1.0 and t[2, 16].item() == 0.0  # a draw at k = n


def test_sampled_positions_replay_the_record(tmp_path):
    gdir = games_dir(tmp_path, {"b.sgf": (capture_game(30), "W+3.5")})
    build_pack(gdir, tmp_path / "pack.npz", workers=1)
    game = GamesPack.load(tmp_path / "pack.npz").game(0)
    moves = sample_moves(len(game.moves), 8, game.key)
    assert len(set(moves.tolist())) == 8 and moves.max() < 30 and (moves == sample_moves(30, 8, game.key)).all()
    out = replay_positions(game, np.asarray([0, 4, 5, 29]))
    board = game_board(game)
    for m, (color, point) in enumerate(game.moves, start=1):
        board.play(color, point)
        if m in (4, 5):
            assert (out["codes"][[0, 4, 5].index(m) if m != 5 else 2] == board_codes(board)).all()
    assert out["codes"][1][flat((0, 0))] != 1 and out["codes"][2][flat((0, 0))] == 1  # A19 captured by move 5
    assert out["to_play"].tolist() == [BLACK, BLACK, WHITE, WHITE]


def test_build_without_network_shards_resumes_and_splits(tmp_path):
    records = {f"g{i}.sgf": (capture_game(20 + i), "B+1.5" if i % 2 else "W+2.5") for i in range(12)}
    gdir = games_dir(tmp_path, records)
    build_pack(gdir, tmp_path / "pack.npz", workers=1)
    cfg = ValueBuildConfig(positions_per_game=5, shard_games=5, workers=1, label=False, pack=tmp_path / "pack.npz")
    root = build(cfg, tmp_path / "cache")
    assert sorted(p.name for p in root.glob("shard-*.npz")) == ["shard-0000.npz", "shard-0001.npz", "shard-0002.npz"]
    data = load(root=root)
    assert len(data) == 60 and not data.labelled
    assert set(np.unique(data.games["game_n"])) == {1.5 + 6.5, -2.5 + 6.5}
    before = (root / "shard-0001.npz").stat().st_mtime_ns
    (root / "shard-0002.npz").unlink()
    build(cfg, tmp_path / "cache")
    assert (root / "shard-0001.npz").stat().st_mtime_ns == before and (root / "shard-0002.npz").exists()
    s = stats(load(root=root))
    assert s["games"] == 12 and sum(s["positions_by_split"].values()) == 60


@pytest.mark.network_model
@pytest.mark.slow
def test_final_ownership_label_removes_the_dead_stone(tmp_path):
    gdir = games_dir(tmp_path, {"a.sgf": (DEAD_STONE, "W+215.5")})
    build_pack(gdir, tmp_path / "pack.npz", workers=1)
    cfg = ValueBuildConfig(positions_per_game=3, shard_games=5, workers=1, device="cpu", batch=8,
                           pack=tmp_path / "pack.npz")
    data = load(root=build(cfg, tmp_path / "cache"))
    assert data.labelled and data.games["game_n"].tolist() == [-209.0]
    final = data.games["final_own"][0].astype(float) / 100
    assert final[flat(from_gtp("B10", 19))] > 0.5  # White's dead stone: Black's point
    black_side = final.reshape(19, 19)[:, :4]
    assert (black_side > 0.5).all()  # the narrow area and its wall are Black's (the dead stone removed)
    assert (final.reshape(19, 19)[:, 4] < -0.5).all()  # White's wall lives
    assert data.positions["kata_own"].shape == (3, 361)
