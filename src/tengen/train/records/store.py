"""The winner dataset on disk: its constants (phases, chunks), where it is cached, and one split (as
`tengen.train.splits` splits every dataset) loaded as a `PositionSet`."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tengen.files import datasets_cache_dir
from tengen.train.splits import SPLITS

PHASES: tuple[int, ...] = (30, 80, 130, 180)
BOARD_SIZE = 19
# v3: an even game that states no komi (or 0) takes its collection's default komi (records.komi); v2 kept 0
DATASET = "winner-v3"
CHUNK_SIZE = 2000


def default_cache_dir() -> Path:
    """``$TENGEN_CACHE/datasets``, default ``~/.cache/tengen/datasets`` (`tengen.files.datasets_cache_dir`)."""
    return datasets_cache_dir()


def dataset_dir(cache_dir: Path | str | None = None) -> Path:
    """Folder of this dataset version inside the cache."""
    return (Path(cache_dir).expanduser() if cache_dir else default_cache_dir()) / DATASET


@dataclass
class PositionSet:
    """One split in memory, one row per position: stones (N, 19, 19) int8, captures (N, 2) [by Black, by
    White], phase = move number (N,), winner (N,) +-1, to_play (N,) +-1, game (N,) index into ``games``."""

    boards: np.ndarray
    captures: np.ndarray
    phase: np.ndarray
    winner: np.ndarray
    to_play: np.ndarray
    game: np.ndarray
    games: dict[str, np.ndarray]

    def __len__(self) -> int:
        return len(self.phase)

    def select(self, mask: np.ndarray) -> "PositionSet":
        """The positions where ``mask`` is true (games table shared)."""
        return PositionSet(self.boards[mask], self.captures[mask], self.phase[mask], self.winner[mask],
                           self.to_play[mask], self.game[mask], self.games)


def load_split(split: str, cache_dir: Path | str | None = None) -> PositionSet:
    """Load ``train``, ``val`` or ``test`` from the cache (built by ``python -m tengen.train.records build``)."""
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}")
    path = dataset_dir(cache_dir) / f"{split}.npz"
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: run `python -m tengen.train.records build` first")
    with np.load(path) as z:
        games = {k: z[k] for k in z.files if k.startswith("game_")}
        game = z["game"]
        return PositionSet(z["boards"], z["captures"], z["phase"], games["game_winner"][game], z["to_play"],
                           game, games)
