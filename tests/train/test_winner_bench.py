"""End to end on a synthetic archive: build -> train tiny models -> bench table ending with best_at_180."""

from __future__ import annotations

import importlib.util
import io
import tarfile
from pathlib import Path

import numpy as np

from tengen.train.records.build import build
from tengen.train.winner.card import write_model_card
from tengen.train.winner.training import TrainConfig, train_all

REPO = Path(__file__).resolve().parents[2]


def _long_game(seed: int) -> bytes:
    """A few stones, then passes to move 190; Black wins when it has more stones on the left half."""
    rng = np.random.default_rng(seed)
    letters = "abcdefghijklmnopqrs"
    points = rng.choice(361, size=12, replace=False)
    moves, black_left = [], 0
    for i, p in enumerate(points):
        color = "B" if i % 2 == 0 else "W"
        r, c = divmod(int(p), 19)
        black_left += (color == "B") * (c < 9) - (color == "W") * (c < 9)
        moves.append(f"{color}[{letters[c]}{letters[r]}]")
    for i in range(len(points), 190):
        moves.append(("B" if i % 2 == 0 else "W") + "[]")
    result = "B+R" if black_left > 0 else "W+R"
    return f"(;GM[1]FF[4]SZ[19]KM[6.5]RE[{result}];{';'.join(moves)})".encode()


def synthetic_dataset(tmp_path):
    """(games folder, dataset cache, models folder) of 120 synthetic long games, the winner dataset built."""
    data_dir, cache, models = tmp_path / "games", tmp_path / "cache", tmp_path / "models"
    data_dir.mkdir()
    with tarfile.open(data_dir / "kgs_6d_synthetic.tar.xz", "w:xz") as tar:
        for n in range(120):
            data = _long_game(n)
            info = tarfile.TarInfo(f"kgs/{n}.sgf")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    build(data_dir, cache, workers=1, chunk_size=50, progress=False)
    return data_dir, cache, models


def test_build_train_bench(tmp_path, capsys):
    data_dir, cache, models = synthetic_dataset(tmp_path)
    cfg = TrainConfig(hidden=8, max_epochs=2, patience=1, threads=1)
    index = train_all(cache, models, sources=("cross",), kinds=("logreg", "mlp"), phases=("180", "all"),
                             cfg=cfg)
    assert set(index["models"]) == {"logreg-cross-180", "logreg-cross-all", "mlp-cross-180", "mlp-cross-all"}
    assert index["best"]["180"] in index["models"]
    card = write_model_card(models, cache).read_text()
    assert "mlp-cross-180" in card and "| seed (original) | 52.1 | 61.8 | 76.7 | 89.3 |" in card

    spec = importlib.util.spec_from_file_location("winner_by_phase", REPO / "bench" / "winner_by_phase.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.main(["--cache-dir", str(cache), "--models-dir", str(models)]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[-1].startswith("best_at_180: ")
    float(out[-1].split(": ")[1])
    assert any(line.startswith("seed (original MLP)") and "89.3%" in line for line in out)
    assert any(line.startswith("mlp-cross-180") for line in out)
