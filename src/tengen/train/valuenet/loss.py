"""The value network's losses: binary cross-entropy of Black winning at each komi (at the game's komi for a
single-output net), and for the BV variants cross-entropy of each point's owner (final position, and KataGo's
ownership of the position when the dataset has it), both as soft targets in [0, 1]."""
from __future__ import annotations

import torch
from torch.nn import functional as F

from tengen.eval.valuenet.model import KOMIS

OWNERSHIP_WEIGHT = 1.0
DISTILL_WEIGHT = 1.0


def komi_targets(n: torch.Tensor, komis: torch.Tensor) -> torch.Tensor:
    """1 where Black wins at komi k (k < n), 0 where Black loses (k > n), 0.5 on a draw; (N, K)."""
    diff = n[:, None] - komis
    return (diff > 0).float() + 0.5 * (diff == 0).float()


def value_loss(logits: torch.Tensor, n: torch.Tensor, komi: torch.Tensor) -> torch.Tensor:
    """Mean BCE over the batch (and over the 41 komi values for a multi-komi head)."""
    if logits.shape[1] == 1:
        target = komi_targets(n, komi[:, None])[:, 0]
        return F.binary_cross_entropy_with_logits(logits[:, 0], target)
    grid = torch.as_tensor(KOMIS, dtype=n.dtype, device=n.device)
    return F.binary_cross_entropy_with_logits(logits, komi_targets(n, grid))


def ownership_loss(own: torch.Tensor, final: torch.Tensor, kata: torch.Tensor | None, on_board: torch.Tensor) -> torch.Tensor:
    """own (N, 2, 361) logits; final / kata (N, 361) in [-1, 1]; the mean over on-board points."""
    area = on_board.sum().clamp(min=1)
    loss = OWNERSHIP_WEIGHT * (F.binary_cross_entropy_with_logits(own[:, 0], (final + 1) / 2, reduction="none")
                               * on_board).sum() / area
    if kata is not None:
        loss = loss + DISTILL_WEIGHT * (F.binary_cross_entropy_with_logits(own[:, 1], (kata + 1) / 2, reduction="none")
                                        * on_board).sum() / area
    return loss
