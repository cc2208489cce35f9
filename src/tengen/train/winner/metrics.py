"""How well P(Black wins) predicts the winners (accuracy, log loss), NN-Influence's published accuracies, and
the no-training counting baseline."""
from __future__ import annotations

import numpy as np

SEED_ACCURACY = {30: 52.1, 80: 61.8, 130: 76.7, 180: 89.3}


def metrics(p_black: np.ndarray, winner: np.ndarray) -> dict[str, float]:
    """Accuracy (%) and mean log loss (nats) of P(Black wins) against winners (+1 Black, -1 White)."""
    p = np.clip(np.asarray(p_black, dtype=np.float64), 1e-7, 1 - 1e-7)
    y = (np.asarray(winner) > 0).astype(np.float64)
    if len(y) == 0:
        return {"accuracy": float("nan"), "log_loss": float("nan"), "n": 0}
    acc = float(((p > 0.5) == (y > 0.5)).mean() * 100)
    ll = float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())
    return {"accuracy": acc, "log_loss": ll, "n": int(len(y))}


def naive_count(maps: np.ndarray, komi: np.ndarray) -> np.ndarray:
    """Counting baseline: (points with positive influence - points with negative) - komi; > 0 means Black."""
    return np.sign(maps.reshape(len(maps), -1)).sum(axis=1) - np.nan_to_num(np.asarray(komi, np.float64), nan=0.0)
