"""KataGo networks as PyTorch modules, built from a `ModelDesc` (see `model_desc`).

Layout is channels-last, (N, H, W, C), because nearly every layer of the current networks is a 1x1
convolution or a per-point matrix product: those become one `F.linear` over all points. Larger kernels
run through `conv2d` on a channels-last view, so no copies are made either way.

Boards smaller than the tensor are handled as KataGo does, with an on-board mask (N, H, W): masked
points are zeroed after every normalisation, excluded from pooling, attention and RMS statistics.
With `mask=None` every point is on the board (the fast path used for batches of one board size).
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from typing import NamedTuple, Optional

import numpy as np

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # busy-waiting OpenMP threads slow down shared machines

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from torch import Tensor, nn  # noqa: E402

from tengen.eval.katago.model_desc import (  # noqa: E402
    Activation,
    AttentionBlock,
    BatchNorm,
    Conv,
    FFNBlock,
    GlobalPoolingBlock,
    MatMul,
    ModelDesc,
    NestedBottleneckBlock,
    ResidualBlock,
    RMSNorm,
    UnsupportedModelError,
)


class NetOutput(NamedTuple):
    """Raw network outputs (logits and pre-activation values, from the side to move's view)."""

    policy: Tensor  # (N, H, W, P) logits; channel 0 = policy, 1 = optimistic policy (when P >= 2)
    policy_pass: Tensor  # (N, P)
    value: Tensor  # (N, 3) win / loss / no-result logits
    score: Tensor  # (N, S) score mean, score "stdev" pre-softplus, lead, variance time, errors...
    ownership: Tensor  # (N, H, W) pre-tanh


class _Ctx(NamedTuple):
    mask: Optional[Tensor]  # (N, H, W, 1) float, or None when every point is on the board
    area: Tensor  # (N, 1) number of on-board points


_KEEP_SUBNORMAL = [False]  # set only by `subnormal_weights_kept` (a benchmark's anchor)


@contextmanager
def subnormal_weights_kept():
    """Networks built inside keep their subnormal weights as the model file has them (slow on many CPUs):
    the anchor `bench/net_speed.py` measures the flush against."""
    _KEEP_SUBNORMAL[0] = True
    try:
        yield
    finally:
        _KEEP_SUBNORMAL[0] = False


def _param(array: np.ndarray) -> nn.Parameter:
    """A frozen float32 parameter, with subnormal weights flushed to zero (`flush_subnormal`)."""
    if _KEEP_SUBNORMAL[0]:
        return nn.Parameter(torch.from_numpy(np.array(array, dtype=np.float32, order="C")), requires_grad=False)
    return nn.Parameter(torch.from_numpy(flush_subnormal(array)), requires_grad=False)


def flush_subnormal(array: np.ndarray) -> np.ndarray:
    """float32 copy with subnormal values (nonzero, |x| < 1.2e-38) set to 0. KataGo's networks hold such
    weights (the default one, hundreds of thousands); on CPUs without flush-to-zero every product with one
    takes a slow microcode path, many times slower (`bench/net_speed.py` measures both). Their
    contribution lies below float32 resolution anyway."""
    out = np.array(array, dtype=np.float32, order="C", copy=True)
    out[np.abs(out) < np.finfo(np.float32).tiny] = 0.0
    return out


def _activation(kind: str):
    return {"identity": lambda x: x, "relu": F.relu, "silu": F.silu, "mish": F.mish}[kind]


def _masked(x: Tensor, ctx: _Ctx) -> Tensor:
    return x if ctx.mask is None else x * ctx.mask


def _add_linear(residual: Tensor, inp: Tensor, weight: Tensor, ctx: _Ctx) -> Tensor:
    """residual + inp @ weight.T (masked), as one GEMM with accumulation when that is exact (fp32, no mask)."""
    if ctx.mask is None and residual.dtype == inp.dtype == torch.float32 and not torch.is_autocast_enabled():
        out = torch.addmm(residual.reshape(-1, residual.shape[-1]), inp.reshape(-1, inp.shape[-1]), weight.t())
        return out.view(residual.shape)
    return residual + _masked(F.linear(inp, weight).reshape(residual.shape), ctx)


class ConvLayer(nn.Module):
    def __init__(self, desc: Conv):
        super().__init__()
        kh, kw = desc.weight.shape[2:]
        self.pointwise = kh == 1 and kw == 1
        w = desc.weight[:, :, 0, 0] if self.pointwise else desc.weight
        self.weight = _param(w)
        self.dilation = desc.dilation
        self.padding = (desc.dilation[0] * (kh // 2), desc.dilation[1] * (kw // 2))

    def forward(self, x: Tensor) -> Tensor:
        if self.pointwise:
            return F.linear(x, self.weight)
        y = F.conv2d(x.permute(0, 3, 1, 2), self.weight, padding=self.padding, dilation=self.dilation)
        return y.permute(0, 2, 3, 1)


class NormAct(nn.Module):
    """Merged batch norm, activation, then zero off-board points."""

    def __init__(self, bn: BatchNorm, act: Activation):
        super().__init__()
        mult, offset = bn.merged()
        self.identity_scale = bool(np.all(mult == 1.0))
        self.mult, self.offset = _param(mult), _param(offset)
        self.act = _activation(act.kind)

    def forward(self, x: Tensor, ctx: _Ctx) -> Tensor:
        x = x + self.offset if self.identity_scale else torch.addcmul(self.offset, x, self.mult)
        return _masked(self.act(x), ctx)


def global_pool(x: Tensor, ctx: _Ctx) -> Tensor:
    """KataGo's pooling for policy and blocks: mean, mean scaled by board size, max (floored at -1)."""
    total = x.sum(dim=(1, 2))
    mean = total / ctx.area
    scaled = mean * ((ctx.area.sqrt() - 14.0) * 0.1)
    if ctx.mask is None:
        mx = x.amax(dim=(1, 2))
    else:
        mx = (x + (ctx.mask - 1.0)).amax(dim=(1, 2))
    return torch.cat([mean, scaled, mx.clamp_min(-1.0)], dim=1)


def value_pool(x: Tensor, ctx: _Ctx) -> Tensor:
    """KataGo's value-head pooling: mean, mean x linear and quadratic functions of board size."""
    mean = x.sum(dim=(1, 2)) / ctx.area
    s = ctx.area.sqrt() - 14.0
    return torch.cat([mean, mean * (s * 0.1), mean * (s * s * 0.01 - 0.1)], dim=1)


class ResBlock(nn.Module):
    def __init__(self, d: ResidualBlock):
        super().__init__()
        self.na1, self.conv1 = NormAct(d.pre_bn, d.pre_act), ConvLayer(d.regular_conv)
        self.na2, self.conv2 = NormAct(d.mid_bn, d.mid_act), ConvLayer(d.final_conv)

    def forward(self, x: Tensor, ctx: _Ctx) -> Tensor:
        return x + self.conv2(self.na2(self.conv1(self.na1(x, ctx)), ctx))


class GPoolBlock(nn.Module):
    def __init__(self, d: GlobalPoolingBlock):
        super().__init__()
        self.na1 = NormAct(d.pre_bn, d.pre_act)
        self.conv_r, self.conv_g = ConvLayer(d.regular_conv), ConvLayer(d.gpool_conv)
        self.na_g = NormAct(d.gpool_bn, d.gpool_act)
        self.to_bias = _param(d.gpool_to_bias.weight)
        self.na2, self.conv2 = NormAct(d.mid_bn, d.mid_act), ConvLayer(d.final_conv)

    def forward(self, x: Tensor, ctx: _Ctx) -> Tensor:
        a = self.na1(x, ctx)
        r = self.conv_r(a)
        g = self.na_g(self.conv_g(a), ctx)
        r = r + F.linear(global_pool(g, ctx), self.to_bias)[:, None, None, :]
        return x + self.conv2(self.na2(r, ctx))


class NestedBlock(nn.Module):
    def __init__(self, d: NestedBottleneckBlock):
        super().__init__()
        self.na1, self.conv1 = NormAct(d.pre_bn, d.pre_act), ConvLayer(d.pre_conv)
        self.inner = nn.ModuleList(build_block(b) for b in d.blocks)
        self.na2, self.conv2 = NormAct(d.post_bn, d.post_act), ConvLayer(d.post_conv)

    def forward(self, x: Tensor, ctx: _Ctx) -> Tensor:
        mid = self.conv1(self.na1(x, ctx))
        for block in self.inner:
            mid = block(mid, ctx)
        if self.conv2.pointwise:
            return _add_linear(x, self.na2(mid, ctx), self.conv2.weight, _Ctx(None, ctx.area))
        return x + self.conv2(self.na2(mid, ctx))


def rope_frequencies(d: AttentionBlock) -> tuple[np.ndarray, np.ndarray]:
    """(freq_x, freq_y), each (num_kv_heads or 1, pairs): angle of pair p at column x, row y is
    x * freq_x + y * freq_y, as KataGo's backends compute it (learnable or fixed-theta rotary)."""
    pairs = d.q_head_dim // 2
    if d.learnable_rope:
        f = d.rope_freqs.astype(np.float32)
        return f[:, :, 0], f[:, :, 1]
    half = pairs // 2
    p = np.arange(pairs)
    exponent = (np.where(p < half, 2 * p, 2 * (p - half)) / (d.q_head_dim / 2)).astype(np.float32)
    freq = (1.0 / np.power(np.float32(d.rope_theta), exponent)).astype(np.float32)
    return np.where(p >= half, freq, 0)[None].astype(np.float32), np.where(p < half, freq, 0)[None].astype(np.float32)


class Attention(nn.Module):
    def __init__(self, d: AttentionBlock):
        super().__init__()
        self.use_rope = d.use_rope
        self.heads, self.kv_heads = d.num_heads, d.num_kv_heads
        self.qd, self.vd = d.q_head_dim, d.v_head_dim
        self.norm_w, self.eps = _param(d.norm.weight), float(d.norm.epsilon)
        self.w_qkv = _param(np.concatenate([d.q_proj.weight, d.k_proj.weight, d.v_proj.weight], axis=0))
        self.w_out = _param(d.out_proj.weight)
        if self.use_rope:
            fx, fy = rope_frequencies(d)
            group = self.heads // self.kv_heads
            fx_q = np.repeat(fx, group, axis=0) if fx.shape[0] > 1 else fx
            fy_q = np.repeat(fy, group, axis=0) if fy.shape[0] > 1 else fy
            self.freq_q = _param(np.stack([fx_q, fy_q]))  # (2, heads or 1, pairs)
            self.freq_k = _param(np.stack([fx, fy]))

    @staticmethod
    def _rotate(x: Tensor, freq: Tensor, xs: Tensor, ys: Tensor) -> Tensor:
        """Rotate channel pairs (2p, 2p + 1) of x (N, L, heads, dim) by angle x * fx + y * fy (in float32,
        as one complex multiplication)."""
        angle = xs[:, None, None] * freq[0] + ys[:, None, None] * freq[1]  # (L, heads, pairs)
        n, length, heads, dim = x.shape
        xf = x if x.dtype == torch.float32 else x.float()
        if torch.compiler.is_compiling():  # inductor fuses this; it has no complex kernels
            cos, sin = torch.cos(angle), torch.sin(angle)
            x0, x1 = xf.reshape(n, length, heads, dim // 2, 2).unbind(-1)
            out = torch.stack([x0 * cos - x1 * sin, x0 * sin + x1 * cos], dim=-1)
            return out.reshape(n, length, heads, dim).to(x.dtype)
        rot = torch.polar(torch.ones_like(angle), angle)
        pairs = torch.view_as_complex(xf.reshape(n, length, heads, dim // 2, 2))
        return torch.view_as_real(pairs * rot).reshape(n, length, heads, dim).to(x.dtype)

    def forward(self, x: Tensor, ctx: _Ctx) -> Tensor:
        n, h, w, c = x.shape
        length = h * w
        t = F.rms_norm(x.reshape(n, length, c), (c,), self.norm_w.to(x.dtype), self.eps)
        qkv = F.linear(t, self.w_qkv)
        q, k, v = qkv.split([self.heads * self.qd, self.kv_heads * self.qd, self.kv_heads * self.vd], dim=-1)
        q = q.reshape(n, length, self.heads, self.qd)
        k = k.reshape(n, length, self.kv_heads, self.qd)
        v = v.reshape(n, length, self.kv_heads, self.vd)
        if self.use_rope:
            pos = torch.arange(length, device=x.device)
            ys, xs = (pos // w).float(), (pos % w).float()
            q, k = self._rotate(q, self.freq_q, xs, ys), self._rotate(k, self.freq_k, xs, ys)
        q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
        if self.kv_heads != self.heads:
            group = self.heads // self.kv_heads
            k, v = k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)
        attn_mask = None if ctx.mask is None else (ctx.mask.reshape(n, 1, 1, length) > 0)
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask)
        return _add_linear(x, out.transpose(1, 2).reshape(n, h, w, self.heads * self.vd), self.w_out, ctx)


class FeedForward(nn.Module):
    def __init__(self, d: FFNBlock):
        super().__init__()
        if not d.swiglu:
            raise UnsupportedModelError(f"{d.name}: only SwiGLU feed-forward blocks are supported")
        self.norm_w, self.eps = _param(d.norm.weight), float(d.norm.epsilon)
        self.w_in = _param(np.concatenate([d.linear1.weight, d.gate.weight], axis=0))
        self.w_out = _param(d.linear2.weight)
        self.ffn = d.ffn_channels

    def forward(self, x: Tensor, ctx: _Ctx) -> Tensor:
        t = F.rms_norm(x, (x.shape[-1],), self.norm_w.to(x.dtype), self.eps)
        a, g = F.linear(t, self.w_in).split([self.ffn, self.ffn], dim=-1)
        return _add_linear(x, F.silu(a) * g, self.w_out, ctx)


def build_block(d) -> nn.Module:
    kinds = {ResidualBlock: ResBlock, GlobalPoolingBlock: GPoolBlock, NestedBottleneckBlock: NestedBlock,
             AttentionBlock: Attention, FFNBlock: FeedForward}
    return kinds[type(d)](d)


class TipRMSNorm(nn.Module):
    def __init__(self, d: RMSNorm, act: Activation):
        super().__init__()
        self.gamma, self.beta = _param(d.gamma), _param(d.beta)
        self.eps, self.spatial = float(d.epsilon), d.spatial
        self.act = _activation(act.kind)

    def forward(self, x: Tensor, ctx: _Ctx) -> Tensor:
        c = x.shape[-1]
        if self.spatial:
            sq = (x * x if ctx.mask is None else x * x * ctx.mask).sum(dim=(1, 2, 3))
            rms = torch.rsqrt(sq / (ctx.area[:, 0] * c) + self.eps)[:, None, None, None]
            y = x * rms * self.gamma + self.beta
        else:
            y = F.rms_norm(x, (c,), self.gamma, self.eps) + self.beta
        return _masked(self.act(y), ctx)


class KataGoNet(nn.Module):
    """A KataGo network for inference. `forward(spatial NHWC, global, mask=None) -> NetOutput`."""

    def __init__(self, desc: ModelDesc):
        super().__init__()
        if desc.trunk.metadata_encoder is not None:
            raise UnsupportedModelError(
                f"{desc.name}: networks with an SGF-metadata encoder (human-style models) are not supported")
        self.version = desc.version
        t = desc.trunk
        self.conv_in = ConvLayer(t.initial_conv)
        self.global_in = _param(t.initial_matmul.weight)
        self.blocks = nn.ModuleList(build_block(b) for b in t.blocks)
        if t.tip_rmsnorm is not None:
            self.tip = TipRMSNorm(t.tip_rmsnorm, t.tip_act)
        else:
            self.tip = NormAct(t.tip_bn, t.tip_act)
        p = desc.policy
        self.p1, self.g1 = ConvLayer(p.p1_conv), ConvLayer(p.g1_conv)
        self.g1_na = NormAct(p.g1_bn, p.g1_act)
        self.g_to_bias = _param(p.gpool_to_bias.weight)
        self.p1_na = NormAct(p.p1_bn, p.p1_act)
        self.p2 = ConvLayer(p.p2_conv)
        self.g_to_pass = _param(p.gpool_to_pass.weight)
        self.pass_extra = p.gpool_to_pass2 is not None
        if self.pass_extra:
            self.pass_bias = _param(p.pass_bias.bias)
            self.pass_act = _activation(p.pass_act.kind)
            self.g_to_pass2 = _param(p.gpool_to_pass2.weight)
        v = desc.value
        self.v1 = ConvLayer(v.v1_conv)
        self.v1_na = NormAct(v.v1_bn, v.v1_act)
        self.v2_w, self.v2_b = _param(v.v2_mul.weight), _param(v.v2_bias.bias)
        self.v2_act = _activation(v.v2_act.kind)
        self.v3_w, self.v3_b = _param(v.v3_mul.weight), _param(v.v3_bias.bias)
        self.sv3_w, self.sv3_b = _param(v.sv3_mul.weight), _param(v.sv3_bias.bias)
        self.own = ConvLayer(v.ownership_conv)

    def forward(self, spatial: Tensor, global_: Tensor, mask: Optional[Tensor] = None) -> NetOutput:
        n, h, w, _ = spatial.shape
        if mask is None:
            area = torch.full((n, 1), float(h * w), dtype=torch.float32, device=spatial.device)
            ctx = _Ctx(None, area)
        else:
            m = mask.to(spatial.dtype).reshape(n, h, w, 1)
            ctx = _Ctx(m, m.sum(dim=(1, 2)).float())
        x = self.conv_in(spatial) + F.linear(global_, self.global_in)[:, None, None, :]
        for block in self.blocks:
            x = block(x, ctx)
        x = self.tip(x, ctx)

        g = self.g1_na(self.g1(x), ctx)
        pooled = global_pool(g, ctx)
        p = self.p1(x) + F.linear(pooled, self.g_to_bias)[:, None, None, :]
        policy = self.p2(self.p1_na(p, ctx))
        if self.pass_extra:
            pp = self.pass_act(F.linear(pooled, self.g_to_pass) + self.pass_bias)
            policy_pass = F.linear(pp, self.g_to_pass2)
        else:
            policy_pass = F.linear(pooled, self.g_to_pass)

        v1 = self.v1_na(self.v1(x), ctx)
        v2 = self.v2_act(F.linear(value_pool(v1, ctx), self.v2_w, self.v2_b))
        value = F.linear(v2, self.v3_w, self.v3_b)
        score = F.linear(v2, self.sv3_w, self.sv3_b)
        ownership = self.own(v1)[..., 0]
        return NetOutput(policy, policy_pass, value, score, ownership)


def network_flops(desc: ModelDesc, height: int = 19, width: int = 19) -> float:
    """Multiply-add FLOPs (2 per multiply-add) of one evaluation on a height x width board."""
    pts = height * width
    total = 0.0

    def conv(c: Conv) -> float:
        return 2.0 * pts * c.weight.size

    def mm(m: MatMul) -> float:
        return 2.0 * m.weight.size

    def blocks(bs) -> float:
        s = 0.0
        for b in bs:
            if isinstance(b, ResidualBlock):
                s += conv(b.regular_conv) + conv(b.final_conv)
            elif isinstance(b, GlobalPoolingBlock):
                s += conv(b.regular_conv) + conv(b.gpool_conv) + conv(b.final_conv) + mm(b.gpool_to_bias)
            elif isinstance(b, NestedBottleneckBlock):
                s += conv(b.pre_conv) + conv(b.post_conv) + blocks(b.blocks)
            elif isinstance(b, AttentionBlock):
                s += pts * sum(mm(m) for m in (b.q_proj, b.k_proj, b.v_proj, b.out_proj))
                s += 2.0 * b.num_heads * pts * pts * (b.q_head_dim + b.v_head_dim)
            elif isinstance(b, FFNBlock):
                s += pts * (mm(b.linear1) + mm(b.linear2) + (mm(b.gate) if b.gate is not None else 0.0))
        return s

    t, p, v = desc.trunk, desc.policy, desc.value
    total += conv(t.initial_conv) + mm(t.initial_matmul) + blocks(t.blocks)
    total += conv(p.p1_conv) + conv(p.g1_conv) + conv(p.p2_conv) + mm(p.gpool_to_bias) + mm(p.gpool_to_pass)
    total += conv(v.v1_conv) + conv(v.ownership_conv) + mm(v.v2_mul) + mm(v.v3_mul) + mm(v.sv3_mul)
    return total
