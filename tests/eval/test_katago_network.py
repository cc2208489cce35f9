"""The PyTorch KataGo network against a plain-numpy reference, with and without off-board masks."""
import numpy as np
import pytest
import torch

from _katago_reference import forward as reference_forward
from tengen.eval.katago.network import KataGoNet, network_flops
from tengen.eval.katago.tiny import random_model

CASES = [
    ("v15 transformer + all kinds, rms tip", dict(seed=1, version=15)),
    ("v17 bn tip", dict(seed=2, version=17, rms_tip=False)),
    ("v14 convnet mish", dict(seed=3, version=14, kinds=("ordinary", "gpool", "nested"), activation="mish")),
    ("v10 relu, 1 policy channel", dict(seed=4, version=10, kinds=("ordinary", "gpool", "nested"))),
    ("v16 four policy channels", dict(seed=5, version=16)),
]


def _inputs(rng, n, h, w):
    spatial = (rng.random((n, h, w, 22)) < 0.3).astype(np.float32)
    spatial[..., 0] = 1.0
    glob = rng.standard_normal((n, 19)).astype(np.float32) * 0.5
    return spatial, glob


@pytest.mark.parametrize("name,kwargs", CASES, ids=[c[0] for c in CASES])
def test_network_matches_numpy_reference(name, kwargs):
    desc = random_model(**kwargs)
    net = KataGoNet(desc).eval()
    rng = np.random.default_rng(0)
    spatial, glob = _inputs(rng, 2, 7, 7)
    with torch.inference_mode():
        out = net(torch.from_numpy(spatial), torch.from_numpy(glob))
    ref = reference_forward(desc, spatial, glob, np.ones((2, 7, 7)))
    for got, want in zip(out, ref):
        np.testing.assert_allclose(got.numpy(), want, rtol=2e-4, atol=2e-4)


@pytest.mark.parametrize("name,kwargs", CASES[:3], ids=[c[0] for c in CASES[:3]])
def test_small_board_inside_padded_tensor_matches_exact_size(name, kwargs):
    """A 5x5 board placed in a 7x7 tensor with KataGo's on-board mask gives the exact-size results."""
    desc = random_model(**kwargs)
    net = KataGoNet(desc).eval()
    rng = np.random.default_rng(1)
    spatial, glob = _inputs(rng, 2, 5, 5)
    padded = np.zeros((2, 7, 7, 22), np.float32)
    padded[:, :5, :5] = spatial
    mask = np.zeros((2, 7, 7), np.float32)
    mask[:, :5, :5] = 1.0
    with torch.inference_mode():
        exact = net(torch.from_numpy(spatial), torch.from_numpy(glob))
        masked = net(torch.from_numpy(padded), torch.from_numpy(glob), torch.from_numpy(mask))
    np.testing.assert_allclose(masked.policy[:, :5, :5].numpy(), exact.policy.numpy(), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(masked.ownership[:, :5, :5].numpy(), exact.ownership.numpy(), rtol=1e-4, atol=1e-4)
    for field in ("policy_pass", "value", "score"):
        np.testing.assert_allclose(getattr(masked, field).numpy(), getattr(exact, field).numpy(), rtol=1e-4,
                                   atol=1e-4)
    ref = reference_forward(desc, padded, glob, mask)
    np.testing.assert_allclose(masked.value.numpy(), ref[2], rtol=2e-4, atol=2e-4)


def test_batch_rows_are_independent():
    desc = random_model(7, 15)
    net = KataGoNet(desc).eval()
    spatial, glob = _inputs(np.random.default_rng(2), 4, 9, 9)
    with torch.inference_mode():
        whole = net(torch.from_numpy(spatial), torch.from_numpy(glob))
        single = net(torch.from_numpy(spatial[2:3]), torch.from_numpy(glob[2:3]))
    np.testing.assert_allclose(whole.value[2].numpy(), single.value[0].numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(whole.ownership[2].numpy(), single.ownership[0].numpy(), rtol=1e-5, atol=1e-5)


def test_flop_count_of_tiny_model_counts_every_matrix_product():
    desc = random_model(0, 15, kinds=("ordinary",))
    b = desc.trunk.blocks[0]
    p, v = desc.policy, desc.value
    pts = 81
    expected = 2 * pts * sum(c.weight.size for c in (desc.trunk.initial_conv, b.regular_conv, b.final_conv,
                                                      p.p1_conv, p.g1_conv, p.p2_conv, v.v1_conv, v.ownership_conv))
    expected += 2 * sum(m.weight.size for m in (desc.trunk.initial_matmul, p.gpool_to_bias, p.gpool_to_pass,
                                                v.v2_mul, v.v3_mul, v.sv3_mul))
    assert network_flops(desc, 9, 9) == expected


@pytest.mark.network_model
def test_default_network_flops(default_model_path):
    from tengen.eval.katago.model_reader import read_model

    assert abs(network_flops(read_model(default_model_path)) / 1e9 - 9.56) < 0.01
