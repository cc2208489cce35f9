"""The pyramidal Bayes net (PBN): its four-level structure over a region, its parameters, and EM per subnet.

Levels (Cortigo's sizes are the defaults): level 1 = the region's points (3 values: empty, own, opponent, see
`regions`); level 2 = nodes with 12 values, each over a 3x3 field of level 1; level 3 = nodes with 7 values, each
over a 3x3 field of level 2; level 4 = one top node whose values are the region's points (the next move).

Decisions Cortigo leaves open, written down here:
- Tiling. Every field is a 3x3 window at stride 2 (so neighbouring fields share one row or column: Cortigo's
  "1-point overlap"), clipped to the grid and to the region. A 9x9 corner gives 4x4 level-2 nodes (windows at
  rows/cols 0, 2, 4, 6); the same rule on a 4x4 level 2 gives 2x2 level-3 nodes over level-2 rows/cols {0,1,2}
  and {2,3} (fields 3x3, 3x2, 2x3 and 2x2). A 5x19 strip gives 2x9 level-2 nodes and 1x4 level-3 nodes (fields
  2x3). The combined L-shape (181 points on a 19x19 grid) keeps the level-2 windows lying wholly inside it (36:
  the union of its quadrant's and its two strips' windows, so it reads each part as they do) and the 8 level-3
  windows holding any of them (fields of 9, 8, 6, 6, 8, 4, 6, 6 level-2 nodes).
- Dependence. Inside a subnet (a node and its field below) the children are independent given the node (a
  mixture of categoricals); the top node's children are the level-3 nodes, each depending on the move alone.
- Parameters are per node (no sharing between positions), one net per stone-count bucket: Cortigo's separate
  models per count 0..20, with counts 0..5 alone and 6-7, 8-9, 10-12, 13-16, 17-20 pooled (11 nets; the
  moves change fastest with the count when there are few stones). Pooling halves the training cost at a given
  size per net (a training size is samples per net, as in Cortigo); the data would allow one net per count.
  Measured (`bench/pbn_buckets.py`, 5,000 samples per net, every kind): one net per count changes held-out top-k
  at all counts by at most 0.4 points at any k reported (top-20 within 0.2), inside the sampling noise.
  Regions with more than 20 stones are not modelled (as in Cortigo). `PBNConfig.bucket_starts` changes it.
- EM subnet by subnet, bottom up, vectorised over all nodes of a level at once: level 2 on the region's points;
  level 3 on level-2 values *sampled* from each level-2 node's posterior given its field; the top on level-3
  values sampled from each level-3 node's posterior given its (sampled) field. The top node's value (the move) is
  observed in training, so its subnet is fitted by counting. Each count gets a Dirichlet pseudo-count (`alpha_*`),
  so MAP estimates stay finite with 30 samples. EM starts from random responsibilities (`restarts` tries, the
  best likelihood kept per node) and runs a fixed number of iterations (`iterations`), so results do not depend
  on timing.
- Overlap: a child shared by two parents is part of both subnets in training (each subnet sees its full field).
  `owner` marks, for the tree approximation of `inference`, the one parent each shared child is assigned to
  (the first, i.e. top-left, window holding it).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np
import torch

from tengen.eval.pbn.regions import region_kind

POINT_VALUES = 3
DTYPE = np.float32


@dataclass(frozen=True)
class PBNConfig:
    """The net's sizes and EM settings (Cortigo's sizes by default)."""

    level2_values: int = 12
    level3_values: int = 7
    iterations: int = 20
    restarts: int = 1
    alpha_hidden: float = 0.1  # pseudo-count on level-2 / level-3 counts
    alpha_top: float = 0.5  # pseudo-count on the move prior and P(level 3 | move)
    max_stones: int = 20  # samples with more stones in the region are not modelled (Cortigo's 0..20)
    bucket_starts: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6, 8, 10, 13, 17)  # stone-count buckets: one net each
    seed: int = 0

    def bucket_of(self, count: np.ndarray | int) -> np.ndarray:
        """The bucket (index into `bucket_starts`) of region stone counts; -1 beyond `max_stones`."""
        count = np.asarray(count)
        idx = np.searchsorted(np.asarray(self.bucket_starts), count, side="right") - 1
        return np.where(count > self.max_stones, -1, idx)


@dataclass(frozen=True)
class Layer:
    """One level's parents over the level below: children (parents, C) indices padded with -1, the mask of real
    children, and `owner` (children assigned to this parent in the tree approximation)."""

    children: np.ndarray
    mask: np.ndarray
    owner: np.ndarray

    @property
    def nodes(self) -> int:
        """Number of parent nodes."""
        return int(self.children.shape[0])


@dataclass(frozen=True)
class Structure:
    """A region's net: its points, the level-2 layer over the points and the level-3 layer over level 2."""

    kind: str
    points: int
    level2: Layer
    level3: Layer


def _windows(grid: np.ndarray, whole: bool) -> tuple[list[list[int]], np.ndarray]:
    """3x3 windows at stride 2 over a grid of node ids (-1 = none): the ids in each kept window (row-major) and
    the grid of window ids (-1 where none). A window is kept when it lies wholly inside the region (`whole`,
    level 2) or holds any node (level 3)."""
    h, w = grid.shape
    nh, nw = max(1, -(-(h - 1) // 2)), max(1, -(-(w - 1) // 2))
    fields: list[list[int]] = []
    ids = -np.ones((nh, nw), dtype=np.int64)
    for i in range(nh):
        for j in range(nw):
            block = grid[2 * i:2 * i + 3, 2 * j:2 * j + 3].ravel()
            members = [int(v) for v in block if v >= 0]
            if members and (not whole or len(members) == len(block)):
                ids[i, j] = len(fields)
                fields.append(members)
    return fields, ids


def _layer(fields: list[list[int]]) -> Layer:
    """Padded children, mask and first-parent ownership from lists of children."""
    width = max(len(f) for f in fields)
    children = -np.ones((len(fields), width), dtype=np.int64)
    for k, f in enumerate(fields):
        children[k, :len(f)] = f
    mask = children >= 0
    owner = np.zeros_like(mask)
    seen: set[int] = set()
    for k, f in enumerate(fields):
        for c, child in enumerate(f):
            if child not in seen:
                owner[k, c] = True
                seen.add(child)
    for a in (children, mask, owner):
        a.setflags(write=False)
    return Layer(children, mask, owner)


@lru_cache(maxsize=None)
def structure(kind: str) -> Structure:
    """The net over region `kind` ('corner', 'side', 'combined'), tiled as the module docstring says."""
    rk = region_kind(kind)
    point_ids = -np.ones(rk.shape, dtype=np.int64)
    point_ids[rk.mask] = np.arange(rk.points)
    fields2, grid2 = _windows(point_ids, whole=True)
    fields3, _ = _windows(grid2, whole=False)
    return Structure(kind, rk.points, _layer(fields2), _layer(fields3))


def custom_structure(mask: np.ndarray, kind: str = "custom") -> Structure:
    """The same tiling over any boolean grid mask (small nets for tests)."""
    mask = np.asarray(mask, bool)
    point_ids = -np.ones(mask.shape, dtype=np.int64)
    point_ids[mask] = np.arange(int(mask.sum()))
    fields2, grid2 = _windows(point_ids, whole=True)
    fields3, _ = _windows(grid2, whole=False)
    return Structure(kind, int(mask.sum()), _layer(fields2), _layer(fields3))


@dataclass
class Subnet:
    """A level's subnets: log prior (nodes, K) and log P(child value | node value) (nodes, C, K, V)."""

    log_prior: np.ndarray
    log_cpt: np.ndarray


@dataclass
class BucketModel:
    """The net for one stone count: level 2, level 3, and the top (log P(move) (P,), log P(level 3 | move)
    (nodes3, P, K3)); `samples` is how many training samples fitted it."""

    level2: Subnet
    level3: Subnet
    top_prior: np.ndarray
    top_cpt: np.ndarray
    samples: int


@dataclass
class PBNModel:
    """A trained PBN for one region kind: one `BucketModel` per stone-count bucket, and what describes it."""

    kind: str
    config: PBNConfig
    buckets: dict[int, BucketModel]
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def structure(self) -> Structure:
        """The region's net structure."""
        return structure(self.kind)


def one_hot(values: np.ndarray, layer: Layer, levels: int) -> np.ndarray:
    """(nodes, N, C*levels) float one-hot of each parent's children's values (N, children) (padding all zero)."""
    idx = np.where(layer.mask, layer.children, 0)  # (B, C)
    vals = np.asarray(values)[:, idx].transpose(1, 0, 2)  # (B, N, C)
    b, n, c = vals.shape
    out = (vals[..., None] == np.arange(levels)) & layer.mask[:, None, :, None]
    return out.reshape(b, n, c * levels).astype(DTYPE)


def log_normalize(x: np.ndarray, axis: int) -> np.ndarray:
    """x minus its logsumexp along `axis`."""
    m = x.max(axis=axis, keepdims=True)
    return x - (m + np.log(np.exp(x - m).sum(axis=axis, keepdims=True)))


def _m_step(resp: torch.Tensor, data_t: torch.Tensor, children: int, levels: int, alpha: float
            ) -> tuple[torch.Tensor, torch.Tensor]:
    """MAP log prior (B, K) and log CPT (B, C*V, K) from responsibilities (B, N, K) and the one-hot data
    transposed (B, C*V, N)."""
    counts = torch.bmm(data_t, resp).double()  # (B, C*V, K)
    b, _, k = counts.shape
    counts = counts.reshape(b, children, levels, k) + alpha
    log_cpt = (counts.log() - counts.sum(dim=2, keepdim=True).log()).reshape(b, children * levels, k)
    prior = resp.sum(dim=1).double() + alpha
    return prior.log() - prior.sum(dim=1, keepdim=True).log(), log_cpt


def _joint(log_prior: torch.Tensor, log_cpt: torch.Tensor, data: torch.Tensor) -> torch.Tensor:
    """(B, N, K) log P(node value, field) of one-hot data (B, N, C*V), float32."""
    return torch.bmm(data, log_cpt.float()) + log_prior.float()[:, None, :]


def _to_subnet(log_prior: torch.Tensor, log_cpt: torch.Tensor, children: int, levels: int) -> Subnet:
    """The numpy `Subnet` (CPT as (B, C, K, V)) of torch parameters."""
    b, _, k = log_cpt.shape
    cpt = log_cpt.reshape(b, children, levels, k).permute(0, 1, 3, 2).numpy().copy()
    return Subnet(log_prior.numpy().copy(), cpt)


def _from_subnet(subnet: Subnet) -> tuple[torch.Tensor, torch.Tensor]:
    """Torch (B, K) and (B, C*V, K) parameters of a numpy `Subnet`."""
    b, c, k, v = subnet.log_cpt.shape
    cpt = torch.from_numpy(np.ascontiguousarray(subnet.log_cpt.transpose(0, 1, 3, 2).reshape(b, c * v, k)))
    return torch.from_numpy(np.asarray(subnet.log_prior, dtype=np.float64)), cpt


def subnet_loglik(subnet: Subnet, data: np.ndarray) -> np.ndarray:
    """(B, N, K) log P(node value, field) of one-hot data (B, N, C*V)."""
    prior, cpt = _from_subnet(subnet)
    return _joint(prior, cpt, torch.from_numpy(np.ascontiguousarray(data, dtype=DTYPE))).numpy()


def fit_mixture(data: np.ndarray, children: int, levels: int, values: int, iterations: int, alpha: float,
                rng: np.random.Generator, restarts: int = 1) -> Subnet:
    """EM for B independent subnets at once: a node with `values` values over `children` categorical children
    with `levels` values each, from one-hot data (B, N, children*levels); the best of `restarts` runs per node.
    Runs in torch on the CPU (batched matrix products; float32 data, float64 parameters)."""
    b, n, _ = data.shape
    x = torch.from_numpy(np.ascontiguousarray(data, dtype=DTYPE))
    x_t = x.transpose(1, 2).contiguous()
    best_prior = best_cpt = None
    best_ll = torch.full((b,), -float("inf"), dtype=torch.float64)
    for _ in range(max(1, restarts)):
        resp = torch.from_numpy(rng.dirichlet(np.ones(values), size=(b, n)).astype(DTYPE))
        prior, cpt = _m_step(resp, x_t, children, levels, alpha)
        for _ in range(iterations):
            resp = torch.softmax(_joint(prior, cpt, x), dim=2)
            prior, cpt = _m_step(resp, x_t, children, levels, alpha)
        ll = torch.logsumexp(_joint(prior, cpt, x), dim=2).double().sum(dim=1)
        if best_prior is None:
            best_prior, best_cpt, best_ll = prior, cpt, ll
        else:
            take = ll > best_ll
            best_prior = torch.where(take[:, None], prior, best_prior)
            best_cpt = torch.where(take[:, None, None], cpt, best_cpt)
            best_ll = torch.maximum(ll, best_ll)
    assert best_prior is not None and best_cpt is not None
    return _to_subnet(best_prior, best_cpt, children, levels)


def sample_posterior(subnet: Subnet, data: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """(N, B) node values drawn from each subnet's posterior given its one-hot field (B, N, C*V)."""
    joint = subnet_loglik(subnet, data).astype(np.float64)
    post = np.exp(log_normalize(joint, axis=2))  # (B, N, K)
    cum = np.cumsum(post, axis=2)
    u = rng.random(post.shape[:2] + (1,)) * cum[..., -1:]
    return (u > cum).sum(axis=2).clip(0, post.shape[2] - 1).T.astype(np.int64)


def fit_bucket(struct: Structure, points: np.ndarray, moves: np.ndarray, config: PBNConfig,
               rng: np.random.Generator) -> BucketModel:
    """Train one net bottom up: level 2 on the points (N, P) values 0..2, level 3 on sampled level-2 values, the
    top by counting moves (N,) against sampled level-3 values."""
    l2, l3 = struct.level2, struct.level3
    k2, k3 = config.level2_values, config.level3_values
    data2 = one_hot(points, l2, POINT_VALUES)
    sub2 = fit_mixture(data2, l2.children.shape[1], POINT_VALUES, k2, config.iterations, config.alpha_hidden,
                       rng, config.restarts)
    h2 = sample_posterior(sub2, data2, rng)
    data3 = one_hot(h2, l3, k2)
    sub3 = fit_mixture(data3, l3.children.shape[1], k2, k3, config.iterations, config.alpha_hidden, rng,
                       config.restarts)
    h3 = sample_posterior(sub3, data3, rng)  # (N, nodes3)
    p = struct.points
    prior = np.bincount(moves, minlength=p).astype(np.float64) + config.alpha_top
    counts = np.zeros((l3.nodes, p, k3)) + config.alpha_top
    for k in range(l3.nodes):
        np.add.at(counts[k], (moves, h3[:, k]), 1.0)
    return BucketModel(sub2, sub3, np.log(prior / prior.sum()),
                       np.log(counts / counts.sum(axis=2, keepdims=True)), int(len(moves)))
