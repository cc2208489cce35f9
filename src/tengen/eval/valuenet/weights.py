"""Saving and loading value-network weights: one torch file with the config, the state dict and metadata (loaded
with `weights_only`, so a weights file cannot run code). The shipped BV-ML-VN lives at
``models/valuenet/bvmlvn.pt``; the other variants of Wu et al.'s comparison (trained together with it on the
same data) sit in ``models/valuenet/comparison/``."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from tengen.eval.valuenet.model import ValueNet, ValueNetConfig
from tengen.eval.weights_file import load_weights_file, save_weights_file

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
    save_weights_file(path, FORMAT, model, model.config.as_dict(), meta)


def load_weights(path: Path | str, device: str = "cpu") -> tuple[ValueNet, dict]:
    """(model in eval mode, metadata) from a weights file."""
    return load_weights_file(path, FORMAT, lambda config: ValueNet(ValueNetConfig(**config)), ValueNetWeightsError, "value network",
                             device)  # type: ignore[return-value]
