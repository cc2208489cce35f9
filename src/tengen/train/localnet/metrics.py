"""Held-out metrics of a 723-way local-move prediction: top-1 / top-5, colour accuracy on move targets,
no-move precision and recall (a prediction of "no move" is P(no move) > the tree's 30 % leaf threshold),
and the answer head's ROC AUC."""
from __future__ import annotations

import numpy as np

from tengen.eval.localnet.compact import NO_MOVE, POINTS

LEAF_THRESHOLD = 0.30  # the published leaf threshold: held-out figures stay comparable (the trees use 0.20)


def auc(scores: np.ndarray, labels: np.ndarray) -> float:
    """ROC AUC by ranks (ties averaged); NaN when one class is absent."""
    scores, labels = np.asarray(scores, float), np.asarray(labels, bool)
    pos, neg = labels.sum(), (~labels).sum()
    if pos == 0 or neg == 0:
        return float("nan")
    order = np.argsort(scores, kind="mergesort")
    ranks = np.empty(len(scores))
    sorted_scores = scores[order]
    i = 0
    while i < len(scores):
        j = i
        while j + 1 < len(scores) and sorted_scores[j + 1] == sorted_scores[i]:
            j += 1
        ranks[order[i:j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return float((ranks[labels].sum() - pos * (pos + 1) / 2) / (pos * neg))


def move_metrics(probs: np.ndarray, target: np.ndarray) -> dict[str, float]:
    """probs (N, 723) absolute layout (White, Black, none), target (N,)."""
    target = np.asarray(target)
    top5 = np.argsort(-probs, axis=1)[:, :5]
    is_move = target < NO_MOVE
    moves_only = probs[:, :NO_MOVE]
    best_move = moves_only.argmax(1)
    predicted_none = probs[:, NO_MOVE] > LEAF_THRESHOLD
    true_none = ~is_move
    tp = (predicted_none & true_none).sum()
    return {
        "examples": int(len(target)),
        "top1": float((top5[:, 0] == target).mean()) if len(target) else float("nan"),
        "top5": float((top5 == target[:, None]).any(1).mean()) if len(target) else float("nan"),
        "move_top1": float((best_move[is_move] == target[is_move]).mean()) if is_move.any() else float("nan"),
        "color_accuracy": float(((best_move[is_move] >= POINTS) == (target[is_move] >= POINTS)).mean())
        if is_move.any() else float("nan"),
        "no_move_precision": float(tp / predicted_none.sum()) if predicted_none.any() else float("nan"),
        "no_move_recall": float(tp / true_none.sum()) if true_none.any() else float("nan"),
    }
