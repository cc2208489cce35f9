"""Network evaluations of the winner dataset's positions, computed once and cached beside the dataset.

- tengen's value network (``tengen.eval.valuenet``): ownership (both heads, int8 x100) and the 41-komi win-rate
  curve (float16) per position, in ``valuenet/<split>.npz``, keyed by the weights file's sha256 (other weights
  recompute). A split can hold a subsample (``index`` says which positions); asking for more positions evaluates
  only the missing ones.
- KataGo (``tengen.eval.katago``): Black's win rate at the game's komi, only on the GNU Go reference positions,
  in ``katago/test.npz`` keyed by the model file's name and size.

Positions are rebuilt as tengen Boards from the stored stones (``position_boards``): area scoring, the game's
komi (0 where the record has none, as for GNU Go), the recorded side to move, no ko (the dataset stores none).
"""
from __future__ import annotations

import logging
import math
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from tengen.eval.katago.weights import sha256_of
from tengen.files import atomic_savez
from tengen.train.records.store import PHASES, PositionSet, dataset_dir

log = logging.getLogger("tengen.train.winner")

OWN_SCALE = 100.0  # ownership stored as int8 round(100 x value)


def game_komi(ps: PositionSet, idx: np.ndarray | None = None) -> np.ndarray:
    """The komi of each position's game (NaN where the record states none)."""
    k = ps.games["game_komi"][ps.game].astype(np.float64)
    return k if idx is None else k[idx]


def game_handicap(ps: PositionSet, idx: np.ndarray | None = None) -> np.ndarray:
    """The handicap (number of stones, 0 for even games) of each position's game."""
    h = ps.games["game_handicap"][ps.game].astype(np.float64)
    return h if idx is None else h[idx]


def eval_komi(komi: float) -> float:
    """The komi the networks are given: the game's, 0 where it is unknown (as for GNU Go)."""
    return float(komi) if math.isfinite(komi) else 0.0


def position_boards(ps: PositionSet, idx: Sequence[int]) -> list:
    """tengen Boards (19x19, area scoring, the game's komi, the side to move) of positions ``idx``."""
    from tengen.train.records.replay import record_board

    komi = game_komi(ps)
    out = []
    for i in idx:
        board = record_board(eval_komi(komi[i]))
        board.set_array(ps.boards[i])
        board.to_play = int(ps.to_play[i])
        out.append(board)
    return out


def subsample(ps: PositionSet, per_phase: int | dict[int, int] | None, seed: int = 0) -> np.ndarray:
    """Sorted position indices: ``per_phase`` (one number, or one per phase) drawn at random from each phase
    (all when None or larger). The draw for a phase depends only on the seed and that phase's count, so a
    larger count is a superset of a smaller one."""
    chosen = []
    for phase in PHASES:
        idx = np.flatnonzero(ps.phase == phase)
        n = per_phase.get(phase) if isinstance(per_phase, dict) else per_phase
        if n is not None and len(idx) > n:
            idx = np.sort(idx[np.random.default_rng(seed + phase).permutation(len(idx))[:n]])
        chosen.append(idx)
    return np.sort(np.concatenate(chosen))


def default_valuenet_weights() -> Path:
    from tengen.eval.valuenet.weights import DEFAULT_WEIGHTS

    return DEFAULT_WEIGHTS


class ValueNetCache:
    """The value network's outputs for one split: ``index`` (sorted positions), ``own`` (n, 2, 361) int8 x100
    (channel 0 = predicted final owner, 1 = distilled KataGo ownership), ``curves`` (n, 41) float16."""

    def __init__(self, split: str, cache_dir: Path | str | None = None, weights: Path | str | None = None):
        self.split = split
        self.weights = Path(weights) if weights else default_valuenet_weights()
        self.sha = sha256_of(Path(self.weights))
        self.path = dataset_dir(cache_dir) / "valuenet" / f"{split}.npz"
        self.index = np.zeros(0, np.int64)
        self.own = np.zeros((0, 2, 361), np.int8)
        self.curves = np.zeros((0, 41), np.float16)
        if self.path.exists():
            with np.load(self.path) as z:
                if str(z["sha256"]) == self.sha:
                    self.index, self.own, self.curves = z["index"], z["own"], z["curves"]
                else:
                    log.info("%s: other value-network weights, recomputing", self.path)

    def missing(self, idx: np.ndarray) -> np.ndarray:
        return np.setdiff1d(np.asarray(idx, np.int64), self.index)

    def fill(self, ps: PositionSet, idx: np.ndarray, chunk: int = 8192, threads: int = 1) -> None:
        """Evaluate the positions of ``idx`` not yet cached (saving after every chunk, so it resumes)."""
        todo = self.missing(idx)
        if not len(todo):
            return
        import torch

        from tengen.eval.valuenet.evaluator import ValueNetEvaluator

        torch.set_num_threads(threads)
        ev = ValueNetEvaluator(self.weights, batch_size=128, threads=threads)
        t0 = time.time()
        for start in range(0, len(todo), chunk):
            part = todo[start:start + chunk]
            curves, own = ev.raw(position_boards(ps, part))
            self._merge(part, np.round(own * OWN_SCALE).astype(np.int8), curves.astype(np.float16))
            self.save()
            done = start + len(part)
            log.info("valuenet %s: %d/%d positions (%.0f/s)", self.split, done, len(todo),
                     done / max(time.time() - t0, 1e-9))

    def _merge(self, idx: np.ndarray, own: np.ndarray, curves: np.ndarray) -> None:
        index = np.concatenate([self.index, idx])
        order = np.argsort(index, kind="stable")
        self.index = index[order]
        self.own = np.concatenate([self.own, own])[order]
        self.curves = np.concatenate([self.curves, curves])[order]

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        atomic_savez(self.path, sha256=np.array(self.sha), weights=np.array(str(self.weights)),
                     index=self.index, own=self.own, curves=self.curves)

    def rows(self, idx: np.ndarray) -> np.ndarray:
        """Rows of the cache for positions ``idx`` (all must be cached)."""
        idx = np.asarray(idx, np.int64)
        pos = np.searchsorted(self.index, idx)
        if len(idx) and (np.any(pos >= len(self.index)) or np.any(self.index[np.minimum(pos, len(self.index) - 1)] != idx)):
            raise KeyError(f"valuenet cache {self.path}: {len(self.missing(idx))} positions not evaluated")
        return pos

    def ownership(self, idx: np.ndarray, channel: int) -> np.ndarray:
        """Ownership in [-1, 1] (n, 361) float32 of positions ``idx`` from head ``channel``."""
        return self.own[self.rows(idx), channel].astype(np.float32) / OWN_SCALE

    def win_at_komi(self, idx: np.ndarray, komi: np.ndarray) -> np.ndarray:
        """Black's win rate at ``komi`` (per position; NaN read as 0) from the cached curves."""
        from tengen.eval.valuenet.curve import curve_at

        k = np.array([eval_komi(x) for x in np.asarray(komi, np.float64)])
        return curve_at(self.curves[self.rows(idx)].astype(np.float64), k)

    def info(self) -> dict[str, Any]:
        return {"weights": self.weights.name, "sha256": self.sha, "positions": len(self.index)}


def katago_winrates(ps: PositionSet, idx: np.ndarray, cache_dir: Path | str | None = None, threads: int = 1,
                    chunk: int = 100) -> tuple[np.ndarray, dict[str, Any]]:
    """KataGo's win rate for Black at the game's komi on positions ``idx`` of the test split (cached)."""
    import torch

    from tengen.eval.katago.weights import default_model_path

    model = Path(default_model_path())
    key = f"{model.name}:{model.stat().st_size}"
    path = dataset_dir(cache_dir) / "katago" / "test.npz"
    index, win = np.zeros(0, np.int64), np.zeros(0, np.float64)
    if path.exists():
        with np.load(path) as z:
            if str(z["model"]) == key:
                index, win = z["index"], z["win"]
    todo = np.setdiff1d(np.asarray(idx, np.int64), index)
    if len(todo):
        from tengen.eval.katago.evaluator import KataGoEvaluator

        torch.set_num_threads(threads)
        ev = KataGoEvaluator(model, threads=threads)
        t0 = time.time()
        for start in range(0, len(todo), chunk):
            part = todo[start:start + chunk]
            w = np.array([e.win for e in ev.evaluate(position_boards(ps, part))])
            index, win = np.concatenate([index, part]), np.concatenate([win, w])
            order = np.argsort(index, kind="stable")
            index, win = index[order], win[order]
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic_savez(path, model=np.array(key), index=index, win=win)
            log.info("katago: %d/%d positions (%.1f/s)", start + len(part), len(todo),
                     (start + len(part)) / max(time.time() - t0, 1e-9))
    pos = np.searchsorted(index, np.asarray(idx, np.int64))
    return win[pos], {"model": model.name}


def gnugo_indices(ps: PositionSet, gnugo: dict[str, Any]) -> np.ndarray:
    """Sorted indices of the test positions in the GNU Go reference (``gnugo_reference.json``)."""
    wanted = {(str(p["game_key"]), int(p["phase"])) for p in gnugo["positions"]}
    keys = ps.games["game_key"][ps.game]
    return np.array([i for i in range(len(ps)) if (str(int(keys[i])), int(ps.phase[i])) in wanted], np.int64)
