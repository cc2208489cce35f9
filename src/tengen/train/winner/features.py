"""The winner models' inputs: an influence map (or the raw stones) per position, the prisoners, for the
"clean" sources the game's komi and handicap, and the move number, stacked as one float row; dead-stone
removal before influence ("<model>-clean" sources); and the 8 board symmetries used for augmentation."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from tengen.eval.influence import MODELS as INFLUENCE_MODELS
from tengen.eval.influence import influence_map
from tengen.train.records.store import PositionSet, dataset_dir

PLAIN_SOURCES: tuple[str, ...] = INFLUENCE_MODELS + ("stones",)  # "stones" = the raw board, a baseline input
CLEAN_SUFFIX = "-clean"
# Influence after removing the stones the value network's ownership calls dead (see `remove_dead`), read as its
# sign: who controls each point (+1 Black, -1 White, 0 neither), what a count adds up (`clean_maps`).
CLEAN_SOURCES: tuple[str, ...] = tuple(m + CLEAN_SUFFIX for m in INFLUENCE_MODELS)
SOURCES: tuple[str, ...] = PLAIN_SOURCES + CLEAN_SOURCES
BOARD = 19
N_POINTS = BOARD * BOARD
MOVE_SCALE = 100.0  # the "all" models read move_number / 100
CAPTURE_SCALE = 10.0
KOMI_SCALE = 10.0  # komi / 10 (unknown komi read as 0, clipped to +-KOMI_CLIP)
KOMI_CLIP = 30.0
HANDICAP_SCALE = 9.0  # handicap stones / 9


def is_clean(source: str) -> bool:
    """True for the sources computed after dead-stone removal ('bouzy-clean', ...)."""
    return source.endswith(CLEAN_SUFFIX)


def influence_of(source: str) -> str:
    """The influence model (or 'stones') behind a source name: 'bouzy-clean' -> 'bouzy'."""
    return source[: -len(CLEAN_SUFFIX)] if is_clean(source) else source


def remove_dead(boards: np.ndarray, ownership: np.ndarray, threshold: float) -> tuple[np.ndarray, np.ndarray]:
    """(boards without dead stones, dead mask): a stone is dead when the ownership of its point (Black's side,
    in [-1, 1]) is beyond ``threshold`` for the other colour, i.e. ``colour * ownership < -threshold``.

    boards (N, 19, 19) or (19, 19) int8; ownership the same shape or flat (N, 361)."""
    boards = np.asarray(boards, dtype=np.int8)
    own = np.asarray(ownership, dtype=np.float32).reshape(boards.shape)
    dead = (boards != 0) & (boards * own < -threshold)
    return np.where(dead, 0, boards).astype(np.int8), dead


def board_features(boards: np.ndarray, source: str, batch: int = 20000) -> np.ndarray:
    """(N, 19, 19) stones -> (N, 361) int16 maps of ``source`` (an influence model, or 'stones')."""
    boards = np.asarray(boards, dtype=np.int8).reshape(-1, BOARD, BOARD)
    out = np.empty((len(boards), N_POINTS), dtype=np.int16)
    for i in range(0, len(boards), batch):
        part = boards[i:i + batch]
        src = influence_of(source)
        maps = part.astype(np.int32) if src == "stones" else influence_map(part, src)
        out[i:i + batch] = maps.reshape(len(part), N_POINTS)
    return out


def cached_board_features(split: str, ps: PositionSet, source: str, cache_dir: Path | str | None = None
                          ) -> np.ndarray:
    """``board_features`` of a whole split, cached next to the dataset as ``features/<split>-<source>.npy``
    (plain sources only: the clean ones depend on the value network, see `clean_features`)."""
    if is_clean(source):
        raise ValueError(f"{source}: clean features come from clean_features (they need the value network)")
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


def game_inputs(komi: np.ndarray, handicap: np.ndarray) -> np.ndarray:
    """(N, 2) float32: komi / 10 (NaN = unknown read as 0, clipped to +-30) and handicap stones / 9."""
    k = np.clip(np.nan_to_num(np.asarray(komi, np.float64), nan=0.0), -KOMI_CLIP, KOMI_CLIP) / KOMI_SCALE
    h = np.asarray(handicap, np.float64) / HANDICAP_SCALE
    return np.stack([k, h], axis=1).astype(np.float32)


def assemble_inputs(maps: np.ndarray, captures: np.ndarray, move_number: np.ndarray | None = None,
                    komi: np.ndarray | None = None, handicap: np.ndarray | None = None) -> np.ndarray:
    """Stack maps (N, 361), prisoners (N, 2) [/10], optionally komi and handicap (`game_inputs`, the clean
    sources' models) and optionally move number (N,) [/100], always last -> float32."""
    cols = [maps.astype(np.float32), np.asarray(captures, dtype=np.float32).reshape(-1, 2) / CAPTURE_SCALE]
    if (komi is None) != (handicap is None):
        raise ValueError("komi and handicap come together")
    if komi is not None:
        cols.append(game_inputs(komi, handicap))
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


def clean_maps(cleaned: np.ndarray, source: str) -> np.ndarray:
    """(N, 361) int16 map of a clean source from boards already cleaned (`remove_dead`): the sign of the
    influence, i.e. which side controls each point. (In development runs the sign trained a few points better
    on validation than the raw influence values.)"""
    return np.sign(board_features(cleaned, influence_of(source))).astype(np.int16)


def clean_tag(sha256: str, channel: int, threshold: float) -> str:
    """The cache key of clean features: the value network's weights, ownership head and threshold."""
    return f"{sha256[:12]}-c{channel}-t{threshold:g}-sign"


def clean_features(split: str | None, boards: np.ndarray, ownership: np.ndarray, source: str, channel: int,
                   threshold: float, sha256: str, cache_dir: Path | str | None = None) -> np.ndarray:
    """`clean_maps` of ``boards`` after `remove_dead` (ownership (N, 361) in [-1, 1]); cached as
    ``features/<split>-<source>-<tag>.npy`` when ``split`` names the positions (the value-net cache's rows)."""
    path = None
    if split is not None:
        path = dataset_dir(cache_dir) / "features" / f"{split}-{source}-{clean_tag(sha256, channel, threshold)}.npy"
        if path.exists():
            arr = np.load(path)
            if arr.shape == (len(boards), N_POINTS):
                return arr
    cleaned, _ = remove_dead(boards, ownership, threshold)
    arr = clean_maps(cleaned, source)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp.npy")
        np.save(tmp, arr)
        tmp.replace(path)
    return arr
