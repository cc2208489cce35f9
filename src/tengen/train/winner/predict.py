"""P(Black wins) for one position from the stored winner models: the trained phase nearest the move number
and the model validation chose for it (or a named one)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from tengen.eval.influence import as_stones
from tengen.go import BLACK, WHITE
from tengen.train.records.store import PHASES
from tengen.train.winner.features import BOARD, assemble_inputs, board_features
from tengen.train.winner.model import MODELS_DIR, WinnerNet, load_index, load_model


def nearest_phase(move_number: int) -> int:
    """The trained phase (30, 80, 130, 180) closest to ``move_number``."""
    return min(PHASES, key=lambda p: (abs(p - move_number), p))


_LOADED: dict[tuple[str, str], tuple[WinnerNet, dict[str, Any]]] = {}


def _cached_model(models_dir: Path, name: str) -> tuple[WinnerNet, dict[str, Any]]:
    key = (str(models_dir), name)
    if key not in _LOADED:
        _LOADED[key] = load_model(models_dir / f"{name}.npz")
    return _LOADED[key]


def model_inputs(meta: dict[str, Any], boards: np.ndarray, captures: np.ndarray, move_number: np.ndarray
                 ) -> np.ndarray:
    """The input matrix a stored model expects, from stones (N, 19, 19), prisoners (N, 2), move numbers (N,)."""
    maps = board_features(boards, meta["source"])
    return assemble_inputs(maps, captures, move_number if meta["phase"] == "all" else None)


def predict_winner(board: Any, move_number: int, captures: tuple[int, int] | None = None,
                   model: str | None = None, models_dir: Path | str = MODELS_DIR) -> tuple[float, str, int]:
    """P(Black wins) for a 19x19 position -> (p_black, model name, phase used).

    ``board`` is a tengen Board (its prisoners are used) or an int8 array with ``captures`` =
    (stones captured by Black, by White). The phase is the trained one nearest to ``move_number``; the model
    is the best on validation for that phase from ``index.json`` unless ``model`` names one.
    """
    stones = as_stones(board)
    if stones.shape != (BOARD, BOARD):
        raise ValueError(f"the winner models read 19x19 boards, not {stones.shape}")
    if captures is None:
        caps = getattr(board, "captures", None)
        captures = (caps[BLACK], caps[WHITE]) if isinstance(caps, dict) else (0, 0)
    models_dir = Path(models_dir)
    phase = nearest_phase(move_number)
    name = model or load_index(models_dir)["best"][str(phase)]
    if not (models_dir / f"{name}.npz").is_file():
        known = sorted(p.stem for p in models_dir.glob("*.npz"))
        raise ValueError(f"no winner model named {name!r} (known: {', '.join(known)})")
    net, meta = _cached_model(models_dir, name)
    # The "all" models saw moves 30..180 only: clamp instead of extrapolating.
    move = np.array([min(max(move_number, PHASES[0]), PHASES[-1]) if meta["phase"] == "all" else phase])
    x = model_inputs(meta, stones[None], np.array([captures]), move)
    return float(net.predict_proba(x)[0]), name, phase
