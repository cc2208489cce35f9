"""The PBN (issue 25): EM recovers a synthetic hierarchy, inference matches enumeration, regions and their
normalisation on ASCII fixtures, the weights round trip."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from tengen.eval.pbn import PBNConfig, PBNModel, fit_bucket, load_model, predict, predict_board, save_model
from tengen.eval.pbn.inference import move_log_posterior
from tengen.eval.pbn.model import BucketModel, Layer, Subnet, custom_structure, fit_mixture, log_normalize, one_hot, \
    sample_posterior, structure
from tengen.eval.pbn.regions import region_kind, region_stones, to_board
from tengen.go.diagram import parse_diagram


def _best_perm(true: np.ndarray, est: np.ndarray) -> tuple[int, ...]:
    """The label permutation of `est` (values on axis 0) closest to `true`."""
    k = true.shape[0]
    return min(itertools.permutations(range(k)), key=lambda p: np.abs(est[list(p)] - true).sum())


def _draw(rng: np.random.Generator, probs: np.ndarray) -> np.ndarray:
    """One categorical draw per row of (N, V) probabilities."""
    u = rng.random((probs.shape[0], 1))
    return (u > np.cumsum(probs, axis=1)).sum(axis=1).clip(0, probs.shape[1] - 1)


def test_em_recovers_a_two_level_hierarchy():
    """A 2-valued node over three 3-valued nodes over 6 points each (three children: the least that makes a
    mixture identifiable): EM subnet by subnet, the upper one on values sampled from the lower posterior,
    recovers every table up to a relabelling."""
    rng = np.random.default_rng(1)
    n, k3, k2, nodes = 10000, 2, 3, 3
    prior3 = np.array([0.35, 0.65])
    cpt3 = np.array([[[0.8, 0.1, 0.1], [0.1, 0.2, 0.7]],  # P(h | g) for child 0, (g, h)
                     [[0.1, 0.8, 0.1], [0.6, 0.1, 0.3]],
                     [[0.2, 0.2, 0.6], [0.7, 0.2, 0.1]]])
    cpt2 = np.zeros((nodes, 6, k2, 3))  # (node, point, h, x), well separated
    for node in range(nodes):
        for p in range(6):
            for h in range(k2):
                cpt2[node, p, h] = 0.075
                cpt2[node, p, h, (h + p + node) % 3] = 0.85
    g = _draw(rng, np.tile(prior3, (n, 1)))
    h = np.stack([_draw(rng, cpt3[c][g]) for c in range(nodes)], axis=1)  # (N, 3)
    points = np.concatenate([np.stack([_draw(rng, cpt2[c, p][h[:, c]]) for p in range(6)], axis=1)
                             for c in range(nodes)], axis=1)  # (N, 18)
    layer2 = Layer(np.arange(18).reshape(nodes, 6), np.ones((nodes, 6), bool), np.ones((nodes, 6), bool))
    data2 = one_hot(points, layer2, 3)
    sub2 = fit_mixture(data2, 6, 3, k2, iterations=40, alpha=0.01, rng=rng, restarts=3)
    perms = []
    for node in range(nodes):
        est = np.exp(sub2.log_cpt[node]).transpose(1, 0, 2)  # (h, point, x)
        perm = _best_perm(cpt2[node].transpose(1, 0, 2), est)
        perms.append(perm)
        assert np.abs(est[list(perm)] - cpt2[node].transpose(1, 0, 2)).max() < 0.03
    sampled = sample_posterior(sub2, data2, rng)  # (N, 2) in the estimated labels
    relabel = [np.argsort(p) for p in perms]  # estimated label -> true label
    true_h = np.stack([relabel[c][sampled[:, c]] for c in range(nodes)], axis=1)
    assert (true_h == h).mean() > 0.97
    layer3 = Layer(np.array([[0, 1, 2]]), np.ones((1, 3), bool), np.ones((1, 3), bool))
    sub3 = fit_mixture(one_hot(true_h, layer3, k2), 3, k2, k3, iterations=100, alpha=0.01, rng=rng, restarts=3)
    est3 = np.exp(sub3.log_cpt[0]).transpose(1, 0, 2)  # (g, child, h)
    perm = _best_perm(cpt3.transpose(1, 0, 2), est3)
    assert np.abs(est3[list(perm)] - cpt3.transpose(1, 0, 2)).max() < 0.06
    assert np.abs(np.exp(sub3.log_prior[0])[list(perm)] - prior3).max() < 0.06


def _random_bucket(struct, k2: int, k3: int, rng: np.random.Generator) -> BucketModel:
    """A bucket model with random tables of the structure's shapes."""
    def table(*shape):
        return log_normalize(np.log(rng.dirichlet(np.ones(shape[-1]), size=shape[:-1])), axis=-1)
    l2, l3 = struct.level2, struct.level3
    return BucketModel(Subnet(table(l2.nodes, k2), table(l2.nodes, l2.children.shape[1], k2, 3)),
                       Subnet(table(l3.nodes, k3), table(l3.nodes, l3.children.shape[1], k3, k2)),
                       table(struct.points), table(l3.nodes, struct.points, k3), 1)


@pytest.mark.parametrize("overlap", ["share", "assign"])
def test_inference_matches_enumeration(overlap):
    """The upward pass equals summing the joint over every hidden configuration of the tree it stands for (a
    3x9 strip: 4 level-2 nodes sharing columns, 2 level-3 nodes sharing a level-2 node)."""
    rng = np.random.default_rng(2)
    struct = custom_structure(np.ones((3, 9), bool))
    assert struct.level2.nodes == 4 and struct.level3.nodes == 2
    k2, k3 = 3, 2
    bucket = _random_bucket(struct, k2, k3, rng)
    x = rng.integers(0, 3, size=(3, struct.points))
    got = move_log_posterior(bucket, struct, x, overlap, mask_occupied=False)
    l2, l3 = struct.level2, struct.level3
    read2 = l2.mask if overlap == "share" else l2.owner
    read3 = l3.mask if overlap == "share" else l3.owner
    for row in range(len(x)):
        total = np.full(struct.points, -np.inf)
        for gs in itertools.product(range(k3), repeat=l3.nodes):
            base = bucket.top_prior + sum(bucket.top_cpt[k, :, gs[k]] for k in range(l3.nodes))
            # each level-3 node's children (read ones) take values independently given it: enumerate them
            inner = 0.0
            for k in range(l3.nodes):
                for c in range(l3.children.shape[1]):
                    if not read3[k, c]:
                        continue
                    child = l3.children[k, c]
                    terms = []
                    for hv in range(k2):
                        ll = bucket.level3.log_cpt[k, c, gs[k], hv]
                        for p in range(l2.children.shape[1]):
                            if read2[child, p]:
                                ll += bucket.level2.log_cpt[child, p, hv, x[row, l2.children[child, p]]]
                        terms.append(ll)
                    inner += np.logaddexp.reduce(terms)
            total = np.logaddexp(total, base + inner)
        want = total - np.logaddexp.reduce(total)
        np.testing.assert_allclose(got[row], want, atol=1e-9)


def test_structures_follow_the_documented_tiling():
    """9x9: 4x4 level 2, 2x2 level 3; 5x19: 2x9 and 1x4; combined: 36 and 8; every point read."""
    shapes = {k: (structure(k).points, structure(k).level2.nodes, structure(k).level3.nodes)
              for k in ("corner", "side", "combined")}
    assert shapes == {"corner": (81, 16, 4), "side": (95, 18, 4), "combined": (181, 36, 8)}
    for kind in shapes:
        s = structure(kind)
        assert set(s.level2.children[s.level2.mask]) == set(range(s.points))
        assert (s.level2.owner.sum() == s.points) and (s.level3.owner.sum() == s.level2.nodes)


BOARD = """
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . X . . . . . . . . . . . O . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . X . . . . . . . . . . . . . . .
. . O . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
"""


def test_regions_on_a_diagram():
    """Each corner and side in its canonical frame, with the mover as black: the 4-4 / 3-4 points land where a
    top-left view puts them, whatever the corner, and the colours flip with the side to move."""
    grid, _ = parse_diagram(BOARD)
    corner = region_kind("corner")
    as_white = region_stones(grid, -1, "corner").reshape(4, 9, 9)
    as_black = region_stones(grid, 1, "corner").reshape(4, 9, 9)
    # top-left: black at (2,3); top-right: white (2,15) -> canonical (2, 3); bottom-left: black (16,3) -> (2, 3)
    # and white (17,2) -> (1, 2); bottom-right empty
    assert as_black[0, 2, 3] == 1 and as_black[1, 2, 3] == 2 and as_black[2, 2, 3] == 1 and as_black[2, 1, 2] == 2
    assert (as_black[3] == 0).all() and (as_black > 0).sum() == 4
    assert as_white[0, 2, 3] == 2 and as_white[1, 2, 3] == 1  # White to move: white stones are "black" (1)
    assert corner.board_index[1, 2 * 9 + 3] == 2 * 19 + 15
    side = region_stones(grid, 1, "side").reshape(4, 5, 19)
    assert side[0, 2, 3] == 1 and side[0, 2, 15] == 2  # top: the board's rows 0..4
    assert side[1, 2, 3] == 1 and side[1, 1, 2] == 2  # bottom: row 16 -> depth 2, row 17 -> depth 1
    # left: board (row, col) -> depth col, along row; right: depth 18 - col
    assert side[2, 3, 2] == 1 and side[2, 3, 16] == 1 and side[2, 2, 17] == 2 and (side[2] > 0).sum() == 3
    assert (side[3] > 0).sum() == 1 and side[3, 3, 2] == 2
    combined = region_stones(grid, 1, "combined")
    assert combined.shape == (4, 181)
    # the top-left L holds (2,3), (2,15) (top strip) and (16,3), (17,2) (left strip): 4 stones
    assert (combined[0] > 0).sum() == 4 and (combined[3] > 0).sum() == 3  # bottom-right: bottom and right strips
    back = to_board("corner", np.eye(81)[[20, 20, 20, 20]] * 1.0)
    assert back[0, 2, 2] == 1 and back[1, 2, 16] == 1 and back[2, 16, 2] == 1 and back[3, 16, 16] == 1


def _tiny_model(kind: str = "corner") -> PBNModel:
    """A model trained on a few random samples (no data needed)."""
    rng = np.random.default_rng(3)
    config = PBNConfig(iterations=3)
    struct = structure(kind)
    x = rng.choice(3, size=(40, struct.points), p=[0.95, 0.025, 0.025])
    moves = rng.integers(0, struct.points, 40)
    buckets = {b: fit_bucket(struct, x, moves, config, rng) for b in (0, 3)}
    return PBNModel(kind, config, buckets, {"size": 40})


def test_weights_round_trip(tmp_path):
    """Saved and loaded (float16 logs), the model predicts the same distribution to a few parts in a thousand."""
    model = _tiny_model()
    path = tmp_path / "pbn-corner-40.npz"
    save_model(model, path)
    back = load_model(path)
    assert back.kind == "corner" and back.config == model.config and back.meta == {"size": 40}
    assert {b: m.samples for b, m in back.buckets.items()} == {0: 40, 3: 40}
    grid, _ = parse_diagram(BOARD)
    x = region_stones(grid, 1, "corner")  # stone counts 1, 1, 2, 0 -> buckets 1, 1, 2, 0
    before, after = predict(model, x), predict(back, x)
    assert (before[:3] == 0).all() and np.isclose(before[3].sum(), 1.0)
    np.testing.assert_allclose(after, before, atol=2e-3)
    both = predict_board({"corner": back}, grid, 1)
    np.testing.assert_allclose(both["corner"][0], after)
    assert both["corner"][1].shape == (4, 19, 19)
