"""P(Black wins) for one position from the stored winner models: the trained phase nearest the move number
and the model validation chose for it (or a named one). The clean models (influence after dead-stone removal)
evaluate the position with tengen's value network for its ownership and read komi and handicap."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from tengen.eval.influence import as_stones
from tengen.go import BLACK, WHITE
from tengen.train.records.store import PHASES
from tengen.train.winner.features import BOARD, assemble_inputs, board_features, clean_maps, is_clean, remove_dead
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


def model_inputs(meta: dict[str, Any], boards: np.ndarray, captures: np.ndarray, move_number: np.ndarray,
                 ownership: np.ndarray | None = None, komi: np.ndarray | None = None,
                 handicap: np.ndarray | None = None) -> np.ndarray:
    """The input matrix a stored model expects, from stones (N, 19, 19), prisoners (N, 2), move numbers (N,);
    a clean model also needs the value network's ownership (N, 361) from the head its metadata names, the komi
    and the handicap (N,)."""
    boards = np.asarray(boards, np.int8)
    move = move_number if meta["phase"] == "all" else None
    if not is_clean(meta["source"]):
        return assemble_inputs(board_features(boards, meta["source"]), captures, move)
    if ownership is None or komi is None or handicap is None:
        raise ValueError(f"{meta['name']} reads the value network's ownership, the komi and the handicap")
    cleaned, _ = remove_dead(boards, ownership, float(meta["dead_stones"]["threshold"]))
    return assemble_inputs(clean_maps(cleaned, meta["source"]), captures, move, komi, handicap)


_VALUENET: dict[str, Any] = {}


def _ownership(board: Any, stones: np.ndarray, to_play: int, komi: float, channel: int) -> np.ndarray:
    """The value network's ownership (1, 361) of a position, from head ``channel``."""
    from tengen.go import Board
    from tengen.go.rules import Rules

    if "ev" not in _VALUENET:
        from tengen.eval.valuenet.evaluator import ValueNetEvaluator

        _VALUENET["ev"] = ValueNetEvaluator()
    if not isinstance(board, Board):
        board = Board(BOARD, rules=Rules("records", komi, "area", "simple", False))
        board.set_array(stones)
        board.to_play = to_play
    _, own = _VALUENET["ev"].raw([board])
    return own[:, channel]


def predict_winner(board: Any, move_number: int, captures: tuple[int, int] | None = None,
                   model: str | None = None, models_dir: Path | str = MODELS_DIR, komi: float | None = None,
                   handicap: int = 0, to_play: int | None = None) -> tuple[float, str, int]:
    """P(Black wins) for a 19x19 position -> (p_black, model name, phase used).

    ``board`` is a tengen Board (its prisoners are used) or an int8 array with ``captures`` =
    (stones captured by Black, by White). The phase is the trained one nearest to ``move_number``; the model
    is the best on validation for that phase from ``index.json`` unless ``model`` names one. The clean models
    also read ``komi`` (default: the Board's rules, else 7.5), ``handicap`` and the side to move (default: the
    Board's, else the parity of ``move_number``).
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
    if not is_clean(meta["source"]):
        x = model_inputs(meta, stones[None], np.array([captures]), move)
        return float(net.predict_proba(x)[0]), name, phase
    rules = getattr(board, "rules", None)
    komi = float(komi if komi is not None else (rules.komi if rules is not None else 7.5))
    if to_play is None:
        to_play = int(getattr(board, "to_play", BLACK if move_number % 2 == 0 else WHITE))
    own = _ownership(board, stones, to_play, komi, int(meta["dead_stones"]["channel"]))
    x = model_inputs(meta, stones[None], np.array([captures]), move, own, np.array([komi]), np.array([handicap]))
    return float(net.predict_proba(x)[0]), name, phase
