"""Saving and loading local-move network weights: one torch file holding the config, the state dict and
metadata (loaded with `weights_only`, so a weights file cannot run code). The trained default lives in the
repository at ``models/localnet/localnet.pt``."""
from __future__ import annotations

import io
from pathlib import Path
from typing import Optional

import torch

from tengen.eval.localnet.model import LocalMoveNet, NetConfig
from tengen.files import write_atomic

MODELS_DIR = Path(__file__).resolve().parents[4] / "models" / "localnet"
DEFAULT_WEIGHTS = MODELS_DIR / "localnet.pt"


class LocalNetWeightsError(ValueError):
    """A weights file that is missing or not a local-move network (bad input: one line)."""


def default_weights() -> Optional[Path]:
    """The committed trained weights, or None when this checkout has none."""
    return DEFAULT_WEIGHTS if DEFAULT_WEIGHTS.is_file() else None


def save_weights(path: Path | str, model: LocalMoveNet, meta: Optional[dict] = None) -> None:
    """Write the model (fp32 state dict, config, metadata) atomically."""
    buf = io.BytesIO()
    state = {k: v.detach().float().cpu().clone() if v.is_floating_point() else v.detach().cpu().clone()
             for k, v in model.state_dict().items()}
    torch.save({"format": "tengen-localnet-1", "config": model.config.as_dict(), "state": state,
                "meta": meta or {}}, buf)
    write_atomic(Path(path), buf.getvalue())


def load_weights(path: Path | str, device: str = "cpu") -> tuple[LocalMoveNet, dict]:
    """(model in eval mode, metadata) from a weights file."""
    path = Path(path)
    if not path.is_file():
        raise LocalNetWeightsError(f"{path}: no such local-move network weights file")
    try:
        blob = torch.load(path, map_location=device, weights_only=True)
        if not isinstance(blob, dict) or blob.get("format") != "tengen-localnet-1":
            raise LocalNetWeightsError(f"{path}: not a tengen local-move network weights file")
        model = LocalMoveNet(NetConfig(**blob["config"]))
        model.load_state_dict(blob["state"])
    except LocalNetWeightsError:
        raise
    except Exception as exc:  # a truncated or foreign file: one line, not a traceback
        raise LocalNetWeightsError(f"{path}: cannot read local-move network weights ({exc.__class__.__name__})") from None
    return model.to(device).eval(), dict(blob.get("meta", {}))
