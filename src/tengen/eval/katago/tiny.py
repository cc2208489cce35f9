"""Tiny random KataGo networks for tests: a few channels, one block of each kind, any model version.

They exercise every layer kind of the file format and the PyTorch modules in milliseconds and need no
download. Their outputs are meaningless.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from tengen.eval.katago.model_desc import (
    TRUNK_NORM_BATCHNORM,
    TRUNK_NORM_RMSNORM,
    Activation,
    AttentionBlock,
    BatchNorm,
    Conv,
    FFNBlock,
    GlobalPoolingBlock,
    MatBias,
    MatMul,
    ModelDesc,
    NestedBottleneckBlock,
    PolicyHead,
    PostProcess,
    ResidualBlock,
    RMSNorm,
    TransformerNorm,
    Trunk,
    ValueHead,
)

ALL_KINDS = ("ordinary", "gpool", "nested", "transformer")


class _Gen:
    def __init__(self, seed: int, version: int, activation: str):
        self.rng = np.random.default_rng(seed)
        self.version = version
        self.activation = activation if version >= 11 else "relu"

    def arr(self, *shape, scale: float = 1.0) -> np.ndarray:
        return (self.rng.standard_normal(shape) * scale).astype(np.float32)

    def conv(self, name: str, cin: int, cout: int, k: int = 3) -> Conv:
        return Conv(name, self.arr(cout, cin, k, k, scale=1.0 / np.sqrt(cin * k * k)))

    def bn(self, name: str, c: int, full: bool = True) -> BatchNorm:
        var = (0.5 + self.rng.random(c)).astype(np.float32)
        if not full:  # bias-only, as exported by KataGo's "BiasMask" layers
            return BatchNorm(name, np.zeros(c, np.float32), np.full(c, 1.0 - 1e-20, np.float32), None,
                             self.arr(c, scale=0.1), 1e-20)
        return BatchNorm(name, self.arr(c, scale=0.1), var, 1.0 + self.arr(c, scale=0.1), self.arr(c, scale=0.1),
                         1e-5)

    def act(self, name: str, kind: str = "") -> Activation:
        return Activation(name, kind or self.activation)

    def mm(self, name: str, cin: int, cout: int) -> MatMul:
        return MatMul(name, self.arr(cout, cin, scale=1.0 / np.sqrt(cin)))

    def bias(self, name: str, c: int) -> MatBias:
        return MatBias(name, self.arr(c, scale=0.1))

    def tnorm(self, name: str, c: int) -> TransformerNorm:
        return TransformerNorm(name, 1.0 + self.arr(c, scale=0.1), 1e-6)


def random_model(seed: int = 0, version: int = 15, kinds: Sequence[str] = ALL_KINDS, channels: int = 8,
                 activation: str = "silu", rms_tip: bool | None = None, name: str = "tiny") -> ModelDesc:
    """A random network with one trunk block per entry of `kinds` (ordinary, gpool, nested, transformer).

    `transformer` is a nested-bottleneck block holding attention + SwiGLU feed-forward with learnable
    2-D rotary positions, like the default b10c384h6nbttflrs network. `rms_tip` (default: version >= 15)
    ends the trunk with a spatial RMS norm instead of a batch norm.
    """
    g = _Gen(seed, version, activation)
    c, mid, gp = channels, max(2, channels // 2), 2
    rms_tip = version >= 15 if rms_tip is None else rms_tip
    if rms_tip and version < 15:
        raise ValueError("an RMS-norm trunk tip needs model version >= 15")
    blocks = []
    for i, kind in enumerate(kinds):
        n = f"model.blocks.{i}"
        if kind == "ordinary":
            blocks.append(_ordinary(g, n, c, mid))
        elif kind == "gpool":
            blocks.append(_gpool(g, n, c, mid, gp))
        elif kind == "nested":
            inner = [_ordinary(g, n + ".blockstack.0", mid, mid), _gpool(g, n + ".blockstack.1", mid, mid, gp)]
            blocks.append(NestedBottleneckBlock(n, g.bn(n + ".p.norm", c), g.act(n + ".p.act"),
                                                g.conv(n + ".p.conv", c, mid, 1), inner, g.bn(n + ".q.norm", mid),
                                                g.act(n + ".q.act"), g.conv(n + ".q.conv", mid, c, 1)))
        elif kind == "transformer":
            if version < 15:
                raise ValueError("transformer blocks need model version >= 15")
            heads, hd = 2, 4
            dm = heads * hd
            att = AttentionBlock(n + ".blockstack.0", heads, heads, hd, hd, True, True,
                                 g.tnorm(n + ".blockstack.0.norm1", dm), g.mm(n + ".q", dm, dm), g.mm(n + ".k", dm, dm),
                                 g.mm(n + ".v", dm, dm), g.mm(n + ".o", dm, dm),
                                 rope_freqs=g.arr(heads, hd // 2, 2, scale=0.5))
            ffn = FFNBlock(n + ".blockstack.1", dm, 12, True, g.tnorm(n + ".blockstack.1.norm", dm),
                           g.mm(n + ".l1", dm, 12), g.mm(n + ".gate", dm, 12), g.mm(n + ".l2", 12, dm))
            blocks.append(NestedBottleneckBlock(n, g.bn(n + ".p.norm", c), g.act(n + ".p.act"),
                                                g.conv(n + ".p.conv", c, dm, 1), [att, ffn],
                                                g.bn(n + ".q.norm", dm, full=False), g.act(n + ".q.act"),
                                                g.conv(n + ".q.conv", dm, c, 1)))
        else:
            raise ValueError(f"unknown block kind {kind!r}")
    tip_bn = None if rms_tip else g.bn("model.norm_trunkfinal", c)
    tip_rms = RMSNorm("model.norm_trunkfinal", 1.0 + g.arr(c, scale=0.1), g.arr(c, scale=0.1), 1e-6, True, 0) \
        if rms_tip else None
    trunk = Trunk("trunk", c, mid, mid - gp, gp, gp, TRUNK_NORM_RMSNORM if rms_tip else TRUNK_NORM_BATCHNORM,
                  g.conv("model.conv_spatial", 22, c), g.mm("model.linear_global", 19, c), None, blocks, tip_bn,
                  tip_rms, g.act("model.act_trunkfinal"))
    pc, gc = 4, 2
    pol_out = 4 if version == 16 else 2 if version >= 12 else 1
    policy = PolicyHead("model.policy_head", pol_out, g.conv("p.conv1p", c, pc, 1), g.conv("p.conv1g", c, gc, 1),
                        g.bn("p.biasg", gc, full=False), g.act("p.actg"), g.mm("p.linear_g", 3 * gc, pc),
                        g.bn("p.bias2", pc, full=False), g.act("p.act2"), g.conv("p.conv2p", pc, pol_out, 1),
                        g.mm("p.linear_pass", 3 * gc, pc if version >= 15 else pol_out))
    if version >= 15:
        policy.pass_bias, policy.pass_act = g.bias("p.linear_pass_bias", pc), g.act("p.act_pass")
        policy.gpool_to_pass2 = g.mm("p.linear_pass2", pc, pol_out)
    vc, v2 = 4, 6
    nscore = 6 if version >= 9 else 4 if version >= 8 else 2 if version >= 4 else 1
    value = ValueHead("model.value_head", g.conv("v.conv1", c, vc, 1), g.bn("v.bias1", vc, full=False),
                      g.act("v.act1"), g.mm("v.linear2", 3 * vc, v2), g.bias("v.bias2", v2), g.act("v.act2"),
                      g.mm("v.linear_valuehead", v2, 3), g.bias("v.bias_valuehead", 3),
                      g.mm("v.linear_miscvaluehead", v2, nscore), g.bias("v.bias_miscvaluehead", nscore),
                      g.conv("v.conv_ownership", vc, 1, 1))
    post = PostProcess() if version < 13 else PostProcess(20.0, 20.0, 20.0, 20.0, 40.0, 0.25, 150.0)
    return ModelDesc(name, version, 22, 19, post, 0, False, trunk, policy, value)


def _ordinary(g: _Gen, n: str, c: int, mid: int) -> ResidualBlock:
    return ResidualBlock(n, g.bn(n + ".normactconv1.norm", c), g.act(n + ".normactconv1.act"),
                         g.conv(n + ".normactconv1.conv", c, mid), g.bn(n + ".normactconv2.norm", mid),
                         g.act(n + ".normactconv2.act"), g.conv(n + ".normactconv2.conv", mid, c))


def _gpool(g: _Gen, n: str, c: int, mid: int, gp: int) -> GlobalPoolingBlock:
    return GlobalPoolingBlock(n, g.bn(n + ".norm", c), g.act(n + ".act"), g.conv(n + ".conv1r", c, mid - gp),
                              g.conv(n + ".conv1g", c, gp), g.bn(n + ".normg", gp), g.act(n + ".actg"),
                              g.mm(n + ".linear_g", 3 * gp, mid - gp), g.bn(n + ".norm2", mid - gp),
                              g.act(n + ".act2"), g.conv(n + ".conv2", mid - gp, c))
