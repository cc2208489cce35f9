"""The winner network (standardized inputs, then an MLP or logistic regression) and its storage: float16
weights in one ``.npz`` per model, and ``index.json`` naming every stored model and the best per phase."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from tengen.train.records.store import PHASES
from tengen.train.winner.features import N_POINTS, dihedral_permutations

MODELS_DIR = Path(__file__).resolve().parents[4] / "models" / "winner"


class WinnerNet(nn.Module):
    """Standardize the inputs, then an MLP (hidden sigmoid units) or, with ``hidden=0``, logistic regression.

    ``forward`` returns the logit of P(Black wins); ``predict_proba`` the probability.
    """

    def __init__(self, n_inputs: int, hidden: int = 200):
        super().__init__()
        self.n_inputs, self.hidden = n_inputs, hidden
        self.register_buffer("mean", torch.zeros(n_inputs))
        self.register_buffer("std", torch.ones(n_inputs))
        if hidden:
            self.body: nn.Module = nn.Sequential(nn.Linear(n_inputs, hidden), nn.Sigmoid(), nn.Linear(hidden, 1))
        else:
            self.body = nn.Linear(n_inputs, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body((x - self.mean) / self.std).squeeze(-1)

    @torch.no_grad()
    def predict_proba(self, x: np.ndarray | torch.Tensor) -> np.ndarray:
        """P(Black wins) for a float array of inputs (N, n_inputs)."""
        self.eval()
        t = torch.as_tensor(np.asarray(x, dtype=np.float32))
        return torch.sigmoid(self(t)).numpy()

    def fit_standardization(self, x: np.ndarray) -> None:
        """Mean and std per input from training data; board points averaged over the 8 symmetries."""
        mean, std = x.mean(axis=0).astype(np.float64), x.std(axis=0).astype(np.float64)
        perms = dihedral_permutations()
        mean[:N_POINTS] = np.mean([mean[:N_POINTS][p] for p in perms], axis=0)
        std[:N_POINTS] = np.mean([std[:N_POINTS][p] for p in perms], axis=0)
        std = np.where(std < 1e-3, 1.0, std)
        self.mean.copy_(torch.as_tensor(mean, dtype=torch.float32))
        self.std.copy_(torch.as_tensor(std, dtype=torch.float32))


def model_name(kind: str, source: str, phase: int | str) -> str:
    """'mlp-bouzy-180', 'logreg-stones-all', 'mlp-bouzy-clean-180', ..."""
    return f"{kind}-{source}-{phase}"


def split_name(name: str) -> tuple[str, str, str]:
    """The inverse of `model_name`: 'mlp-bouzy-clean-180' -> ('mlp', 'bouzy-clean', '180')."""
    kind, rest = name.split("-", 1)
    source, phase = rest.rsplit("-", 1)
    return kind, source, phase


def save_model(net: WinnerNet, path: Path, meta: dict[str, Any]) -> None:
    """Weights as float16 (small enough to commit) plus standardization and metadata, in one .npz."""
    arrays = {k: v.detach().numpy().astype(np.float16 if k.startswith("body") else np.float32)
              for k, v in net.state_dict().items()}
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as fh:
        np.savez_compressed(fh, meta=np.array(json.dumps(meta)), **arrays)


def load_model(path: Path | str) -> tuple[WinnerNet, dict[str, Any]]:
    """Read a model written by ``save_model``."""
    with np.load(path) as z:
        meta = json.loads(str(z["meta"]))
        net = WinnerNet(int(meta["n_inputs"]), int(meta["hidden"]))
        state = {k: torch.as_tensor(z[k].astype(np.float32)) for k in z.files if k != "meta"}
    net.load_state_dict(state)
    net.eval()
    return net, meta


def load_index(models_dir: Path | str = MODELS_DIR) -> dict[str, Any]:
    """``index.json``: every stored model with its metrics, and the best model per phase (by validation)."""
    path = Path(models_dir) / "index.json"
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: run `python -m tengen.train.winner train`")
    return json.loads(path.read_text())


def write_index(index: dict[str, Any], models_dir: Path) -> None:
    """Pick the best model per phase by validation log loss and write index.json."""
    best = {}
    for phase in PHASES:
        cands = [(m["val"][str(phase)]["log_loss"], n) for n, m in index["models"].items()
                 if str(phase) in m.get("val", {})]
        if cands:
            best[str(phase)] = min(cands)[1]
    index["best"] = best
    path = Path(models_dir) / "index.json"
    path.write_text(json.dumps(index, indent=1, sort_keys=True))
