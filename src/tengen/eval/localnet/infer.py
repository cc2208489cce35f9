"""Running the local-move network on compact batches: absolute-layout logits for training and evaluation,
probabilities for the predictor."""
from __future__ import annotations

import numpy as np
import torch

from tengen.eval.localnet.compact import CompactBatch
from tengen.eval.localnet.model import LocalMoveNet
from tengen.eval.localnet.planes import build_planes, legal_mask, tensors, to_absolute


def forward(model: LocalMoveNet, t: dict[str, torch.Tensor]) -> tuple[torch.Tensor, torch.Tensor]:
    """(absolute logits (N, 723): White, Black, no move; answer logit (N,)) for compact tensors."""
    rel, answer = model(build_planes(t), legal_mask(t))
    return to_absolute(rel, t["to_play"]), answer


def predict(model: LocalMoveNet, batch: CompactBatch, batch_size: int = 256) -> tuple[np.ndarray, np.ndarray]:
    """(probabilities (N, 723), P(answer) (N,)) for a compact batch, on the model's device."""
    device = next(model.parameters()).device
    probs, answers = [], []
    with torch.inference_mode():
        for start in range(0, len(batch), batch_size):
            rows = slice(start, start + batch_size)
            part = CompactBatch(**{k: getattr(batch, k)[rows] for k in CompactBatch.__dataclass_fields__})
            logits, answer = forward(model, tensors(part, device))
            probs.append(torch.softmax(logits, 1).cpu().numpy())
            answers.append(torch.sigmoid(answer).cpu().numpy())
    if not probs:
        return np.zeros((0, 723), np.float32), np.zeros(0, np.float32)
    return np.concatenate(probs), np.concatenate(answers)
