"""The local-move loss: cross-entropy over the 723 outputs; on "no move" targets, lambda times the move
probabilities' sum (Frejlak 2024's lambda = 6, so a settled region is not left with plausible moves); binary
cross-entropy for the answer head where the example has an answer label."""
from __future__ import annotations

import torch
from torch.nn import functional as F

from tengen.eval.localnet.compact import NO_MOVE

NO_MOVE_LAMBDA = 6.0


def local_move_loss(logits: torch.Tensor, answer_logit: torch.Tensor, target: torch.Tensor, answer: torch.Tensor,
                    weight: torch.Tensor | None = None, no_move_lambda: float = NO_MOVE_LAMBDA
                    ) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
    """(weighted mean loss, parts). logits (N, 723) and target (N,) in the same layout; answer (N,) is 1, 0 or
    -1 (unlabelled); weight (N,) per-example weights (default 1)."""
    n = target.shape[0]
    w = torch.ones(n, device=logits.device) if weight is None else weight.float()
    logp = F.log_softmax(logits.float(), dim=1)
    ce = -logp.gather(1, target.long().view(-1, 1)).squeeze(1)
    is_none = (target == NO_MOVE).float()
    move_mass = 1.0 - logp[:, NO_MOVE].exp()
    penalty = no_move_lambda * move_mass * is_none
    labelled = (answer >= 0).float()
    bce = F.binary_cross_entropy_with_logits(answer_logit.float(), answer.clamp(min=0).float(), reduction="none")
    wsum = w.sum().clamp(min=1e-8)
    policy = (w * (ce + penalty)).sum() / wsum
    answer_loss = (w * labelled * bce).sum() / (w * labelled).sum().clamp(min=1e-8)
    total = policy + answer_loss
    return total, {"ce": (w * ce).sum() / wsum, "no_move_penalty": (w * penalty).sum() / wsum, "answer": answer_loss}
