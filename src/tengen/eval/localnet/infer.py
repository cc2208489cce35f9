"""Running the local-move network on compact batches: absolute-layout logits for training and evaluation,
probabilities for the predictor."""
from __future__ import annotations

import numpy as np
import torch

from tengen.eval.localnet.compact import CANVAS, NO_MOVE, POINTS, CompactBatch
from tengen.eval.localnet.model import LocalMoveNet
from tengen.eval.localnet.planes import build_planes, legal_mask, tensors, to_absolute


def forward(model: LocalMoveNet, t: dict[str, torch.Tensor]) -> tuple[torch.Tensor, torch.Tensor]:
    """(absolute logits (N, 723): White, Black, no move; answer logit (N,)) for compact tensors."""
    rel, answer = model(build_planes(t), legal_mask(t))
    return to_absolute(rel, t["to_play"]), answer


def board_symmetry_maps(height: int, width: int) -> np.ndarray:
    """(S, 361): where each symmetry of a height x width board (in the canvas's corner) sends each canvas
    point; 8 symmetries for a square board, 4 (flips only) otherwise; points off the board stay put."""
    maps = []
    for s in range(8 if height == width else 4):
        m = np.arange(POINTS)
        for r in range(height):
            for c in range(width):
                rr, cc = (height - 1 - r if s & 1 else r), (width - 1 - c if s & 2 else c)
                if s & 4:
                    rr, cc = cc, rr
                m[r * CANVAS + c] = rr * CANVAS + cc
        maps.append(m)
    return np.stack(maps)


def _transformed(batch: CompactBatch, m: np.ndarray) -> CompactBatch:
    inverse = np.argsort(m)
    def points(x: np.ndarray) -> np.ndarray:
        return np.where(x >= 0, m[np.clip(x, 0, None)], x).astype(x.dtype)
    return CompactBatch(codes=batch.codes[:, inverse], region=batch.region[:, inverse], recent=points(batch.recent),
                        recent_color=batch.recent_color, to_play=batch.to_play, ko=points(batch.ko), depth=batch.depth)


def _board_shape(codes: np.ndarray) -> tuple[int, int]:
    on = (codes.reshape(CANVAS, CANVAS) & 3) != 0
    return int(on.any(1).sum()), int(on.any(0).sum())


def predict(model: LocalMoveNet, batch: CompactBatch, batch_size: int = 256,
            symmetries: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """(probabilities (N, 723), P(answer) (N,)) for a compact batch, on the model's device; with
    `symmetries` > 1 the average over that many of each board's symmetries (one board size per batch)."""
    if symmetries > 1 and len(batch):
        maps = board_symmetry_maps(*_board_shape(batch.codes[0]))[:symmetries]
        total_p, total_a = 0.0, 0.0
        for m in maps:
            p, a = predict(model, _transformed(batch, m), batch_size)
            total_p = total_p + np.concatenate([p[:, :POINTS][:, m], p[:, POINTS:NO_MOVE][:, m], p[:, NO_MOVE:]], 1)
            total_a = total_a + a
        return total_p / len(maps), total_a / len(maps)
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
