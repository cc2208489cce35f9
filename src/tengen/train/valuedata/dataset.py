"""The value dataset loaded back: every shard's positions and games concatenated, positions pointing at their
game's row, and the split of each position (by game, the same hash split as every tengen dataset)."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import numpy as np

from tengen.train.splits import split_of
from tengen.train.valuedata.build import dataset_dir, shard_paths

POSITION_FIELDS = ("codes", "ko", "to_play", "move", "kata_own", "kata_lead", "kata_win")
GAME_FIELDS = ("game_key", "game_n", "game_komi", "game_handicap", "game_collection", "game_length", "final_own")


@dataclass
class ValueData:
    """Positions (`positions[field]`, `game` = row in `games`) and games (`games[field]`); `labelled` says
    whether the KataGo fields are present."""

    positions: dict[str, np.ndarray]
    games: dict[str, np.ndarray]
    labelled: bool

    def __len__(self) -> int:
        return len(self.positions["move"])

    def game_split(self) -> np.ndarray:
        """Per game: 0 train, 1 validation, 2 test."""
        return np.asarray([split_of(int(k)) for k in self.games["game_key"]], dtype=np.int8)

    def split(self) -> np.ndarray:
        """Per position: 0 train, 1 validation, 2 test."""
        return self.game_split()[self.positions["game"]]


def load(cache_dir: Path | str | None = None, root: Optional[Path] = None) -> ValueData:
    """Every shard of the dataset (FileNotFoundError naming the build command when there is none)."""
    root = root or dataset_dir(cache_dir)
    shards = shard_paths(root)
    if not shards:
        raise FileNotFoundError(f"no value dataset in {root}: run `python -m tengen.train.valuedata build`")
    pos: dict[str, list] = {k: [] for k in POSITION_FIELDS + ("game",)}
    games: dict[str, list] = {k: [] for k in GAME_FIELDS}
    labelled = True
    offset = 0
    for shard in shards:
        with np.load(shard) as z:
            labelled = labelled and "kata_own" in z.files
            for k in POSITION_FIELDS:
                if k in z.files:
                    pos[k].append(z[k])
            pos["game"].append(z["game"] + offset)
            for k in GAME_FIELDS:
                if k in z.files:
                    games[k].append(z[k])
            offset += len(z["game_key"])
    keep = lambda d: {k: np.concatenate(v) for k, v in d.items() if v and (labelled or not k.startswith(("kata", "final")))}  # noqa: E731
    return ValueData(keep(pos), keep(games), labelled)


def stats(data: ValueData) -> dict:
    """Counts for the model card: games and positions by split, komi values, labelled or not."""
    game_split = data.game_split()
    split = game_split[data.positions["game"]]
    komi, counts = np.unique(data.games["game_komi"], return_counts=True)
    top = sorted(zip(counts.tolist(), komi.tolist()), reverse=True)[:6]
    return {"games": len(data.games["game_key"]), "positions": len(data),
            "games_by_split": {s: int((game_split == i).sum()) for i, s in enumerate(("train", "val", "test"))},
            "positions_by_split": {s: int((split == i).sum()) for i, s in enumerate(("train", "val", "test"))},
            "komi_games": {f"{k:g}": c for c, k in top}, "kata_labelled": data.labelled}


def summary_json(data: ValueData) -> str:
    return json.dumps(stats(data), indent=1)
