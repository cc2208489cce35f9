"""The PBN's prediction: the posterior of the top node (the next move) given a region's stones, for a batch of
regions, and for all four corners, sides and combined regions of a 19x19 board in one call.

Method (decided here): one upward pass of likelihood messages (belief propagation's lambda messages), in logs.
lambda_2(h) = log P(field | h) for each level-2 node; lambda_3(g) = sum over its children of
log sum_h P(h | g) exp(lambda_2(h)); the move's posterior is P(t) prod_k sum_g P(g_k | t) exp(lambda_3k(g)),
renormalised over the region's empty points (a move on a stone is impossible, so occupied points get 0).
On a tree this is exact (`tests/eval/test_pbn.py` checks it against enumeration). Across overlapping fields,
`overlap="share"` (the default) lets every parent read its whole field, so a shared child's evidence counts once
per parent: exact for the tree in which each shared child is duplicated, the same view each subnet had in
training. `overlap="assign"` is the other tree approximation: each shared child is read only by its first
(top-left) parent, so each point's evidence counts once. `bench/pbn_topk.py --overlap` measures both.
"""
from __future__ import annotations

from typing import Optional

import numpy as np

from tengen.eval.pbn.model import POINT_VALUES, BucketModel, Layer, PBNModel, Structure, one_hot
from tengen.eval.pbn.regions import KINDS, region_stones, stone_count_of, to_board

OVERLAPS: tuple[str, ...] = ("share", "assign")


def _reader(layer: Layer, overlap: str) -> np.ndarray:
    """The children each parent reads: all of its field ('share') or the ones assigned to it ('assign')."""
    if overlap not in OVERLAPS:
        raise ValueError(f"overlap must be one of {OVERLAPS}")
    return layer.mask if overlap == "share" else layer.owner


def _logsumexp_matmul(log_msg: np.ndarray, log_cpt: np.ndarray) -> np.ndarray:
    """log sum_h exp(log_cpt[..., g, h] + log_msg[..., h]): (N, B, C, H) messages with (B, C, G, H) CPTs ->
    (N, B, C, G)."""
    m = log_msg.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    e = np.exp(log_msg - m)
    return np.log(np.einsum("nbch,bcgh->nbcg", e, np.exp(log_cpt)) + 1e-300) + m


def level2_lambda(bucket: BucketModel, struct: Structure, points: np.ndarray, overlap: str = "share") -> np.ndarray:
    """(N, nodes2, K2) log P(the level-2 node's field | its value) from level-1 values (N, P)."""
    layer = struct.level2
    reads = _reader(layer, overlap)
    read_layer = Layer(layer.children, reads, layer.owner)
    data = one_hot(points, read_layer, POINT_VALUES)  # (B, N, C*V)
    b, c, k, v = bucket.level2.log_cpt.shape
    weights = bucket.level2.log_cpt.transpose(0, 1, 3, 2).reshape(b, c * v, k)
    return np.matmul(data.astype(np.float64), weights).transpose(1, 0, 2)


def level3_lambda(bucket: BucketModel, struct: Structure, lam2: np.ndarray, overlap: str = "share") -> np.ndarray:
    """(N, nodes3, K3) log P(the evidence below a level-3 node | its value) from level-2 messages."""
    layer = struct.level3
    reads = _reader(layer, overlap)
    idx = np.where(layer.mask, layer.children, 0)
    msg = lam2[:, idx, :]  # (N, B3, C3, K2)
    per_child = _logsumexp_matmul(msg, bucket.level3.log_cpt)  # (N, B3, C3, K3)
    return (per_child * reads[None, :, :, None]).sum(axis=2)


def move_log_posterior(bucket: BucketModel, struct: Structure, points: np.ndarray, overlap: str = "share",
                       mask_occupied: bool = True) -> np.ndarray:
    """(N, P) log posterior of the move given level-1 values (N, P); -inf on occupied points when masked."""
    points = np.asarray(points)
    lam3 = level3_lambda(bucket, struct, level2_lambda(bucket, struct, points, overlap), overlap)  # (N, B3, K3)
    m = lam3.max(axis=2, keepdims=True)
    e = np.exp(lam3 - m)  # (N, B3, K3)
    terms = np.log(np.einsum("nkg,ktg->nkt", e, np.exp(bucket.top_cpt)) + 1e-300) + m  # (N, B3, P)
    logp = bucket.top_prior[None, :] + terms.sum(axis=1)
    if mask_occupied:
        logp = np.where(points == 0, logp, -np.inf)
    mx = logp.max(axis=1, keepdims=True)
    mx = np.where(np.isfinite(mx), mx, 0.0)
    return logp - (mx + np.log(np.exp(logp - mx).sum(axis=1, keepdims=True) + 1e-300))


def predict(model: PBNModel, points: np.ndarray, overlap: str = "share", chunk: int = 4096) -> np.ndarray:
    """(N, P) move probabilities for level-1 values (N, P), each sample by the net of its stone-count bucket;
    rows whose stone count has no net (more than `max_stones`) are all zero."""
    points = np.asarray(points)
    buckets = model.config.bucket_of(stone_count_of(points))
    out = np.zeros(points.shape, dtype=np.float64)
    for b in np.unique(buckets):
        bucket = model.buckets.get(int(b))
        if bucket is None:
            continue
        rows = np.nonzero(buckets == b)[0]
        for start in range(0, len(rows), chunk):
            part = rows[start:start + chunk]
            out[part] = np.exp(move_log_posterior(bucket, model.structure, points[part], overlap))
    return out


def predict_board(models: dict[str, PBNModel], board: np.ndarray, to_play: int, overlap: str = "share",
                  kinds: Optional[tuple[str, ...]] = None) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """All instances of each region kind on one 19x19 board in one call: kind -> ((instances, P) move
    probabilities in canonical order, (instances, 19, 19) the same on the board); an instance whose stone count
    has no model is all zero."""
    out: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for kind in kinds or tuple(k for k in KINDS if k in models):
        points = region_stones(board, to_play, kind)
        probs = predict(models[kind], points, overlap)
        out[kind] = (probs, to_board(kind, probs))
    return out
