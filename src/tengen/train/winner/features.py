"""The winner models' inputs: an influence map (or the raw stones) per position, the prisoners and the move
number, stacked as one float row; and the 8 board symmetries used for augmentation."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from tengen.eval.influence import MODELS as INFLUENCE_MODELS
from tengen.eval.influence import influence_map
from tengen.train.records.store import PositionSet, dataset_dir

SOURCES: tuple[str, ...] = INFLUENCE_MODELS + ("stones",)  # "stones" = the raw board, a baseline input
BOARD = 19
N_POINTS = BOARD * BOARD
MOVE_SCALE = 100.0  # the "all" models read move_number / 100
CAPTURE_SCALE = 10.0


def board_features(boards: np.ndarray, source: str, batch: int = 20000) -> np.ndarray:
    """(N, 19, 19) stones -> (N, 361) int16 maps of ``source`` (an influence model, or 'stones')."""
    boards = np.asarray(boards, dtype=np.int8).reshape(-1, BOARD, BOARD)
    out = np.empty((len(boards), N_POINTS), dtype=np.int16)
    for i in range(0, len(boards), batch):
        part = boards[i:i + batch]
        maps = part.astype(np.int32) if source == "stones" else influence_map(part, source)
        out[i:i + batch] = maps.reshape(len(part), N_POINTS)
    return out


def cached_board_features(split: str, ps: PositionSet, source: str, cache_dir: Path | str | None = None
                          ) -> np.ndarray:
    """``board_features`` of a whole split, cached next to the dataset as ``features/<split>-<source>.npy``."""
    path = dataset_dir(cache_dir) / "features" / f"{split}-{source}.npy"
    if path.exists():
        arr = np.load(path, mmap_mode="r")
        if arr.shape == (len(ps), N_POINTS):
            return np.asarray(arr)
    arr = board_features(ps.boards, source)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npy")
    np.save(tmp, arr)
    tmp.replace(path)
    return arr


def assemble_inputs(maps: np.ndarray, captures: np.ndarray, move_number: np.ndarray | None = None
                    ) -> np.ndarray:
    """Stack maps (N, 361), prisoners (N, 2) [/10] and optionally move number (N,) [/100] -> float32."""
    cols = [maps.astype(np.float32), np.asarray(captures, dtype=np.float32).reshape(-1, 2) / CAPTURE_SCALE]
    if move_number is not None:
        cols.append(np.asarray(move_number, dtype=np.float32).reshape(-1, 1) / MOVE_SCALE)
    return np.concatenate(cols, axis=1)


def dihedral_permutations(n: int = BOARD) -> np.ndarray:
    """(8, n*n) index arrays: ``flat[perm[k]]`` is the board under the k-th rotation / reflection."""
    idx = np.arange(n * n).reshape(n, n)
    perms = []
    for k in range(4):
        r = np.rot90(idx, k)
        perms.append(r.ravel())
        perms.append(r.T.ravel())
    return np.stack(perms)
