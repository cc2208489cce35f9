"""A slow, plain-numpy forward pass of a KataGo network (NCHW, explicit loops over kernel offsets).

Written straight from KataGo's Eigen backend description, independently of the PyTorch modules, so the
tests can check those modules (layouts, masks, pooling, attention, rotary positions) on tiny networks.
"""
from __future__ import annotations

import numpy as np

from tengen.eval.katago import model_desc as md


def _act(x, kind):
    if kind == "relu":
        return np.maximum(x, 0)
    if kind == "silu":
        return x / (1 + np.exp(-x))
    if kind == "mish":
        return x * np.tanh(np.log1p(np.exp(np.minimum(x, 20))) + np.maximum(x, 20) - 20)
    return x


def conv(x, c: md.Conv):
    """x (N, C, H, W); zero padding outside the tensor."""
    n, cin, h, w = x.shape
    cout, _, kh, kw = c.weight.shape
    dy, dx = c.dilation
    out = np.zeros((n, cout, h, w))
    for i in range(kh):
        for j in range(kw):
            oy, ox = (i - kh // 2) * dy, (j - kw // 2) * dx
            shifted = np.zeros_like(x)
            ys, yd = slice(max(0, oy), h + min(0, oy)), slice(max(0, -oy), h - max(0, oy))
            xs, xd = slice(max(0, ox), w + min(0, ox)), slice(max(0, -ox), w - max(0, ox))
            shifted[:, :, yd, xd] = x[:, :, ys, xs]
            out += np.einsum("oc,nchw->nohw", c.weight[:, :, i, j], shifted)
    return out


def bn_act(x, bn: md.BatchNorm, act: md.Activation, mask):
    scale = np.ones(bn.channels) if bn.scale is None else bn.scale
    bias = np.zeros(bn.channels) if bn.bias is None else bn.bias
    y = (x - bn.mean[None, :, None, None]) / np.sqrt(bn.variance[None, :, None, None] + bn.epsilon)
    y = y * scale[None, :, None, None] + bias[None, :, None, None]
    return _act(y, act.kind) * mask


def gpool(x, mask):
    area = mask.sum(axis=(1, 2, 3))[:, None]
    mean = x.sum(axis=(2, 3)) / area
    mx = np.maximum((x + (mask - 1.0)).max(axis=(2, 3)), -1.0)
    return np.concatenate([mean, mean * (np.sqrt(area) - 14) * 0.1, mx], axis=1)


def vpool(x, mask):
    area = mask.sum(axis=(1, 2, 3))[:, None]
    mean = x.sum(axis=(2, 3)) / area
    s = np.sqrt(area) - 14
    return np.concatenate([mean, mean * s * 0.1, mean * (s * s * 0.01 - 0.1)], axis=1)


def rms(x, weight, eps):
    """x (N, L, C) normalised over C."""
    return x / np.sqrt((x * x).mean(axis=-1, keepdims=True) + eps) * weight


def block(x, b, mask):
    if isinstance(b, md.ResidualBlock):
        a = conv(bn_act(x, b.pre_bn, b.pre_act, mask), b.regular_conv)
        return x + conv(bn_act(a, b.mid_bn, b.mid_act, mask), b.final_conv)
    if isinstance(b, md.GlobalPoolingBlock):
        a = bn_act(x, b.pre_bn, b.pre_act, mask)
        r = conv(a, b.regular_conv)
        g = bn_act(conv(a, b.gpool_conv), b.gpool_bn, b.gpool_act, mask)
        r = r + (gpool(g, mask) @ b.gpool_to_bias.weight.T)[:, :, None, None]
        return x + conv(bn_act(r, b.mid_bn, b.mid_act, mask), b.final_conv)
    if isinstance(b, md.NestedBottleneckBlock):
        m = conv(bn_act(x, b.pre_bn, b.pre_act, mask), b.pre_conv)
        for inner in b.blocks:
            m = block(m, inner, mask)
        return x + conv(bn_act(m, b.post_bn, b.post_act, mask), b.post_conv)
    n, c, h, w = x.shape
    tokens = x.reshape(n, c, h * w).transpose(0, 2, 1)
    flat_mask = mask.reshape(n, h * w)
    if isinstance(b, md.FFNBlock):
        t = rms(tokens, b.norm.weight, b.norm.epsilon)
        a, g = t @ b.linear1.weight.T, t @ b.gate.weight.T
        out = (_act(a, "silu") * g) @ b.linear2.weight.T
    else:
        t = rms(tokens, b.norm.weight, b.norm.epsilon)
        q = (t @ b.q_proj.weight.T).reshape(n, h * w, b.num_heads, b.q_head_dim)
        k = (t @ b.k_proj.weight.T).reshape(n, h * w, b.num_kv_heads, b.q_head_dim)
        v = (t @ b.v_proj.weight.T).reshape(n, h * w, b.num_kv_heads, b.v_head_dim)
        ys, xs = np.divmod(np.arange(h * w), w)
        out = np.zeros((n, h * w, b.num_heads * b.v_head_dim))
        for head in range(b.num_heads):
            kv = head * b.num_kv_heads // b.num_heads
            qh, kh = q[:, :, head].copy(), k[:, :, kv].copy()
            for p in range(b.q_head_dim // 2):
                fx, fy = b.rope_freqs[kv, p]
                ang = xs * fx + ys * fy
                for arr in (qh, kh):
                    a0, a1 = arr[:, :, 2 * p].copy(), arr[:, :, 2 * p + 1].copy()
                    arr[:, :, 2 * p] = a0 * np.cos(ang) - a1 * np.sin(ang)
                    arr[:, :, 2 * p + 1] = a0 * np.sin(ang) + a1 * np.cos(ang)
            scores = np.einsum("nqd,nkd->nqk", qh, kh) / np.sqrt(b.q_head_dim)
            scores = np.where(flat_mask[:, None, :] > 0, scores, -np.inf)
            scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
            scores /= scores.sum(axis=-1, keepdims=True)
            out[:, :, head * b.v_head_dim:(head + 1) * b.v_head_dim] = np.einsum("nqk,nkd->nqd", scores,
                                                                                  v[:, :, kv])
        out = out @ b.out_proj.weight.T
    return x + (out * flat_mask[:, :, None]).transpose(0, 2, 1).reshape(n, c, h, w)


def forward(desc: md.ModelDesc, spatial_nhwc, global_, mask_nhw):
    """Returns (policy (N,H,W,P), pass (N,P), value (N,3), score (N,S), ownership (N,H,W))."""
    x_in = np.asarray(spatial_nhwc, dtype=np.float64).transpose(0, 3, 1, 2)
    mask = np.asarray(mask_nhw, dtype=np.float64)[:, None]
    t = desc.trunk
    x = conv(x_in, t.initial_conv) + (global_ @ t.initial_matmul.weight.T)[:, :, None, None]
    for b in t.blocks:
        x = block(x, b, mask)
    if t.tip_rmsnorm is not None:
        r = t.tip_rmsnorm
        count = mask.sum(axis=(1, 2, 3)) * x.shape[1]
        ms = (x * x * mask).sum(axis=(1, 2, 3)) / count
        y = x / np.sqrt(ms + r.epsilon)[:, None, None, None] * r.gamma[None, :, None, None]
        x = _act(y + r.beta[None, :, None, None], t.tip_act.kind) * mask
    else:
        x = bn_act(x, t.tip_bn, t.tip_act, mask)
    p = desc.policy
    g = bn_act(conv(x, p.g1_conv), p.g1_bn, p.g1_act, mask)
    pooled = gpool(g, mask)
    p1 = conv(x, p.p1_conv) + (pooled @ p.gpool_to_bias.weight.T)[:, :, None, None]
    pol = conv(bn_act(p1, p.p1_bn, p.p1_act, mask), p.p2_conv)
    if p.gpool_to_pass2 is not None:
        pp = _act(pooled @ p.gpool_to_pass.weight.T + p.pass_bias.bias, p.pass_act.kind)
        pas = pp @ p.gpool_to_pass2.weight.T
    else:
        pas = pooled @ p.gpool_to_pass.weight.T
    v = desc.value
    v1 = bn_act(conv(x, v.v1_conv), v.v1_bn, v.v1_act, mask)
    v2 = _act(vpool(v1, mask) @ v.v2_mul.weight.T + v.v2_bias.bias, v.v2_act.kind)
    value = v2 @ v.v3_mul.weight.T + v.v3_bias.bias
    score = v2 @ v.sv3_mul.weight.T + v.sv3_bias.bias
    own = conv(v1, v.ownership_conv)[:, 0]
    return pol.transpose(0, 2, 3, 1), pas, value, score, own
