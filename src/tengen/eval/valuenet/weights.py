"""Saving and loading value-network weights: one torch file with the config, the state dict and metadata (loaded
with `weights_only`, so a weights file cannot run code). The shipped BV-ML-VN lives at
``models/valuenet/bvmlvn.pt``; the other variants of the seed's comparison (trained together with it on the
same data) sit in ``models/valuenet/comparison/``."""
from __future__ import annotations

import io
from pathlib import Path
from typing import Optional

import torch

from tengen.eval.valuenet.model import ValueNet, ValueNetConfig
from tengen.files import write_atomic

MODELS_DIR = Path(__file__).resolve().parents[4] / "models" / "valuenet"
DEFAULT_WEIGHTS = MODELS_DIR / "bvmlvn.pt"
FORMAT = "tengen-valuenet-1"


class ValueNetWeightsError(ValueError):
    """A weights file that is missing or not a value network (bad input: one line)."""


def default_weights() -> Optional[Path]:
    """The committed BV-ML-VN weights, or None when this checkout has none."""
    return DEFAULT_WEIGHTS if DEFAULT_WEIGHTS.is_file() else None


def variant_weights(variant: str) -> Path:
    """Where a variant's committed weights of the comparison run live (`models/valuenet/comparison/<variant>.pt`;
    the BV-ML-VN of that run is the shipped one unless the folder holds its own)."""
    path = MODELS_DIR / "comparison" / f"{variant}.pt"
    return DEFAULT_WEIGHTS if variant == "bvmlvn" and not path.exists() else path


def save_weights(path: Path | str, model: ValueNet, meta: Optional[dict] = None) -> None:
    """Write the model (fp32 state dict, config, metadata) atomically."""
    buf = io.BytesIO()
    state = {k: v.detach().float().cpu().clone() if v.is_floating_point() else v.detach().cpu().clone()
             for k, v in model.state_dict().items()}
    torch.save({"format": FORMAT, "config": model.config.as_dict(), "state": state, "meta": meta or {}}, buf)
    write_atomic(Path(path), buf.getvalue())


def load_weights(path: Path | str, device: str = "cpu") -> tuple[ValueNet, dict]:
    """(model in eval mode, metadata) from a weights file."""
    path = Path(path)
    if not path.is_file():
        raise ValueNetWeightsError(f"{path}: no such value network weights file")
    try:
        blob = torch.load(path, map_location=device, weights_only=True)
        if not isinstance(blob, dict) or blob.get("format") != FORMAT:
            raise ValueNetWeightsError(f"{path}: not a tengen value network weights file")
        model = ValueNet(ValueNetConfig(**blob["config"]))
        model.load_state_dict(blob["state"])
    except ValueNetWeightsError:
        raise
    except Exception as exc:  # a truncated or foreign file: one line, not a traceback
        raise ValueNetWeightsError(f"{path}: cannot read value network weights ({exc.__class__.__name__})") from None
    return model.to(device).eval(), dict(blob.get("meta", {}))
