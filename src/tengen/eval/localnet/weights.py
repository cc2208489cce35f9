"""Saving and loading local-move network weights: one torch file holding the config, the state dict and
metadata (loaded with `weights_only`, so a weights file cannot run code). The trained default lives in the
repository at ``models/localnet/localnet.pt``."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from tengen.eval.localnet.model import LocalMoveNet, NetConfig
from tengen.eval.weights_file import load_weights_file, save_weights_file

MODELS_DIR = Path(__file__).resolve().parents[4] / "models" / "localnet"
DEFAULT_WEIGHTS = MODELS_DIR / "localnet.pt"


class LocalNetWeightsError(ValueError):
    """A weights file that is missing or not a local-move network (bad input: one line)."""


def default_weights() -> Optional[Path]:
    """The committed trained weights, or None when this checkout has none."""
    return DEFAULT_WEIGHTS if DEFAULT_WEIGHTS.is_file() else None


def save_weights(path: Path | str, model: LocalMoveNet, meta: Optional[dict] = None) -> None:
    """Write the model (fp32 state dict, config, metadata) atomically."""
    save_weights_file(path, "tengen-localnet-1", model, model.config.as_dict(), meta)


def load_weights(path: Path | str, device: str = "cpu") -> tuple[LocalMoveNet, dict]:
    """(model in eval mode, metadata) from a weights file."""
    return load_weights_file(path, "tengen-localnet-1", lambda config: LocalMoveNet(NetConfig(**config)), LocalNetWeightsError, "local-move network",
                             device)  # type: ignore[return-value]
