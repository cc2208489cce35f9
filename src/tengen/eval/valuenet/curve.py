"""Reading the 41-komi win-rate curve: the win rate at any komi (linear between the grid's komi values, clipped
at its ends) and a score estimate (the mean and spread of the final difference n implied by the curve)."""
from __future__ import annotations

import numpy as np

from tengen.eval.valuenet.model import KOMIS


def curve_at(curve: np.ndarray, komi: np.ndarray | float) -> np.ndarray:
    """Black's win rate at `komi` from curves (N, 41) (or one curve (41,)); komi per row or one for all."""
    curve = np.asarray(curve, dtype=np.float64)
    single = curve.ndim == 1
    curve = curve.reshape(-1, len(KOMIS))
    komi = np.broadcast_to(np.asarray(komi, dtype=np.float64), (len(curve),))
    pos = np.clip((komi - KOMIS[0]) / (KOMIS[1] - KOMIS[0]), 0, len(KOMIS) - 1)
    lo = np.floor(pos).astype(int)
    hi = np.minimum(lo + 1, len(KOMIS) - 1)
    frac = pos - lo
    rows = np.arange(len(curve))
    out = curve[rows, lo] * (1 - frac) + curve[rows, hi] * frac
    return out[0] if single else out


def expected_difference(curve: np.ndarray) -> np.ndarray:
    """E[n] (Black's area minus White's) from curves P(n > k): the grid's lower edge plus the summed win rates
    (each komi step is one point), made monotone first; exact when n lies inside the grid."""
    c = np.minimum.accumulate(np.asarray(curve, dtype=np.float64), axis=-1)
    return (KOMIS[0] - 0.5) + c.sum(-1) * (KOMIS[1] - KOMIS[0])


def difference_stdev(curve: np.ndarray) -> np.ndarray:
    """The spread of n implied by curves P(n > k) (made monotone): n's probability mass sits half a point on
    either side of each grid komi, the tails at the grid's edges."""
    c = np.minimum.accumulate(np.asarray(curve, dtype=np.float64), axis=-1)
    ones = np.ones(c.shape[:-1] + (1,))
    pmf = -np.diff(np.concatenate([ones, c, 0 * ones], axis=-1), axis=-1)
    centers = np.concatenate([[KOMIS[0] - 0.5], KOMIS + 0.5])
    mean = expected_difference(curve)
    return np.sqrt(np.maximum(0.0, (pmf * (centers - np.expand_dims(mean, -1)) ** 2).sum(-1)))
