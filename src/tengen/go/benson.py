"""Benson's unconditional life: chains that live even if their owner always passes, and the regions they
make safe (opponent stones there are dead whatever happens). Computed natively."""
from __future__ import annotations

import numpy as np


def unconditional_life(board) -> np.ndarray:
    """int8 (height, width): +1 Black pass-alive stones and safe regions, -1 White, 0 elsewhere."""
    raw = board._native.benson()
    return np.frombuffer(raw, dtype=np.int8).reshape(board.height, board.width).copy()
