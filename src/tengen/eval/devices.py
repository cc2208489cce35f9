"""Where a network runs (evaluators, training, bulk labelling): "auto" is CUDA when the machine has it, else the CPU."""
from __future__ import annotations

import torch


def pick_device(name: str = "auto") -> torch.device:
    """The torch device `name` names ("auto": CUDA when available, else CPU)."""
    if name == "auto":
        name = "cuda" if torch.cuda.is_available() else "cpu"
    return torch.device(name)
