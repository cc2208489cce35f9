"""The KataGo network that labels training data in bulk: on the GPU when there is one (bf16), else the CPU."""
from __future__ import annotations

from typing import Optional


def labelling_evaluator(model: Optional[str] = None, device: str = "auto", batch: int = 256):
    """A `KataGoEvaluator` for bulk labelling (`device` "auto" picks CUDA when available)."""
    from tengen.eval.katago import KataGoEvaluator
    from tengen.eval.devices import pick_device

    where = pick_device(device)
    precision = "bf16" if where.type == "cuda" else "fp32"
    return KataGoEvaluator(model, device=str(where), batch_size=batch, precision=precision)
