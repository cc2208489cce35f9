"""The PBN's move probabilities as the search's additive prior: a `move_prior` for `Search`.

The committed models are loaded once (`DEFAULT_MODELS`: the largest training size of each kind, 40,000 samples
per net). For a 19x19 board, `predict_board` gives each region instance (4 corners, 4 sides,
4 combined L-shapes) a distribution over its empty points, conditional on the next move lying in it, for the
side to move. A point gets the **max** over the instances covering it that have a model for their stone count
(`combine="max"`, the default; points outside every such instance get 0). Why max: each instance answers
"where in this region", on its own scale (a 9x9 corner spreads its mass over 81 points, an L-shape over 181), and a
point covered by several instances should keep the sharpest view of it, e.g. the corner model's confident joseki
answer, not have it diluted by a wider region's flatter guess; an instance without a model (more than 20 stones)
says nothing rather than 0. `combine="mean"` (the mean over the covering instances with a model) is the
smoother alternative.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Callable, Optional

import numpy as np

from tengen.eval.pbn.inference import predict_board
from tengen.eval.pbn.model import PBNModel
from tengen.eval.pbn.regions import BOARD, region_kind
from tengen.eval.pbn.weights import MODELS_DIR, load_model, weights_name
from tengen.go.board import Board

DEFAULT_MODELS: dict[str, int] = {"corner": 40000, "side": 40000, "combined": 40000}  # kind -> training size
COMBINES: tuple[str, ...] = ("max", "mean")


@lru_cache(maxsize=4)
def _load(models_dir: str, sizes: tuple[tuple[str, int], ...]) -> dict[str, PBNModel]:
    """The models of `sizes` from `models_dir`, read once per process."""
    out: dict[str, PBNModel] = {}
    for kind, size in sizes:
        path = Path(models_dir) / weights_name(kind, size)
        if not path.exists():
            raise FileNotFoundError(f"{path}: no such PBN model")
        out[kind] = load_model(path)
    return out


def load_prior_models(sizes: Optional[dict[str, int]] = None, models_dir: Path | str = MODELS_DIR
                      ) -> dict[str, PBNModel]:
    """The PBN models of the prior (default `DEFAULT_MODELS` from `models/pbn/`), cached."""
    return _load(str(models_dir), tuple(sorted((sizes or DEFAULT_MODELS).items())))


def combine_regions(per_kind: dict[str, tuple[np.ndarray, np.ndarray]], combine: str = "max") -> np.ndarray:
    """(19, 19) per-point prior from `predict_board`'s output: the max or mean over covering instances with a model."""
    if combine not in COMBINES:
        raise ValueError(f"combine must be one of {COMBINES}")
    best = np.zeros((BOARD, BOARD), dtype=np.float64)
    total = np.zeros((BOARD, BOARD), dtype=np.float64)
    count = np.zeros((BOARD, BOARD), dtype=np.float64)
    for kind, (probs, on_board) in per_kind.items():
        rk = region_kind(kind)
        for inst in range(probs.shape[0]):
            if not probs[inst].sum() > 0:
                continue  # no model for this instance's stone count: it says nothing
            best = np.maximum(best, on_board[inst])
            total += on_board[inst]
            covered = np.zeros(BOARD * BOARD, dtype=np.float64)
            covered[rk.board_index[inst]] = 1.0
            count += covered.reshape(BOARD, BOARD)
    if combine == "max":
        return best
    return np.divide(total, count, out=np.zeros_like(total), where=count > 0)


def pbn_move_prior(models: Optional[dict[str, PBNModel]] = None, combine: str = "max", overlap: str = "share"
                   ) -> Callable[[Board], np.ndarray]:
    """A `move_prior` for `Search`: the PBN's (19, 19) probabilities for the board's side to move (0 elsewhere)."""
    if combine not in COMBINES:
        raise ValueError(f"combine must be one of {COMBINES}")
    chosen = load_prior_models() if models is None else models

    def prior(board: Board) -> np.ndarray:
        """The combined region probabilities of `board` for its side to move; zeros off 19x19."""
        if board.width != BOARD or board.height != BOARD:
            return np.zeros((board.height, board.width), dtype=np.float64)
        return combine_regions(predict_board(chosen, board.array(), board.to_play, overlap), combine)
    return prior
