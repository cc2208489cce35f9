"""Write a `ModelDesc` as a KataGo network file (binary or text, gzipped or not), as KataGo reads it."""
from __future__ import annotations

import gzip
import io
from pathlib import Path
from typing import Union

import numpy as np

from tengen.eval.katago.model_desc import (
    ACTIVATION_TOKENS,
    TRUNK_NORM_BATCHNORM,
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
    ResidualBlock,
    TransformerNorm,
    is_binary_name,
)


class _Writer:
    def __init__(self, binary: bool):
        self.out = io.BytesIO()
        self.binary = binary

    def line(self, *items) -> None:
        for it in items:
            self.out.write((_fmt(it) + "\n").encode("ascii"))

    def floats(self, arr: np.ndarray) -> None:
        flat = np.ascontiguousarray(arr, dtype="<f4").reshape(-1)
        if self.binary:
            self.out.write(b"@BIN@" + flat.tobytes() + b"\n")
        else:
            self.out.write((" ".join(repr(float(x)) for x in flat) + "\n").encode("ascii"))

    def conv(self, c: Conv) -> None:
        oc, ic, kh, kw = c.weight.shape
        self.line(c.name, kh, kw, ic, oc, c.dilation[0], c.dilation[1])
        self.floats(c.weight.transpose(2, 3, 1, 0))

    def bn(self, b: BatchNorm) -> None:
        self.line(b.name, b.channels, b.epsilon, int(b.scale is not None), int(b.bias is not None))
        for a in (b.mean, b.variance, b.scale, b.bias):
            if a is not None:
                self.floats(a)

    def act(self, a: Activation, version: int) -> None:
        self.line(a.name)
        if version >= 11:
            self.line(ACTIVATION_TOKENS[a.kind])

    def matmul(self, m: MatMul) -> None:
        self.line(m.name, m.in_channels, m.out_channels)
        self.floats(m.weight.T)

    def matbias(self, m: MatBias) -> None:
        self.line(m.name, m.bias.shape[0])
        self.floats(m.bias)

    def tnorm(self, n: TransformerNorm) -> None:
        self.line(n.name, n.weight.shape[0], n.epsilon)
        self.floats(n.weight)

    def blocks(self, blocks: list, version: int) -> None:
        for b in blocks:
            if isinstance(b, ResidualBlock):
                self.line("ordinary_block", b.name)
                self.bn(b.pre_bn), self.act(b.pre_act, version), self.conv(b.regular_conv)
                self.bn(b.mid_bn), self.act(b.mid_act, version), self.conv(b.final_conv)
            elif isinstance(b, GlobalPoolingBlock):
                self.line("gpool_block", b.name)
                self.bn(b.pre_bn), self.act(b.pre_act, version), self.conv(b.regular_conv), self.conv(b.gpool_conv)
                self.bn(b.gpool_bn), self.act(b.gpool_act, version), self.matmul(b.gpool_to_bias)
                self.bn(b.mid_bn), self.act(b.mid_act, version), self.conv(b.final_conv)
            elif isinstance(b, NestedBottleneckBlock):
                self.line("nested_bottleneck_block", b.name, len(b.blocks))
                self.bn(b.pre_bn), self.act(b.pre_act, version), self.conv(b.pre_conv)
                self.blocks(b.blocks, version)
                self.bn(b.post_bn), self.act(b.post_act, version), self.conv(b.post_conv)
            elif isinstance(b, AttentionBlock):
                self.line("transformer_attention_block", b.name, b.num_heads, b.num_kv_heads, b.q_head_dim,
                          b.v_head_dim, int(b.use_rope), int(b.learnable_rope))
                self.tnorm(b.norm)
                for m in (b.q_proj, b.k_proj, b.v_proj, b.out_proj):
                    self.matmul(m)
                if b.use_rope and b.learnable_rope:
                    self.line(b.name + ".rope_freqs", *b.rope_freqs.shape)
                    self.floats(b.rope_freqs)
                elif b.use_rope:
                    self.line(b.name + ".rope_theta", b.rope_theta)
            elif isinstance(b, FFNBlock):
                self.line("transformer_ffn_block", b.name, b.channels, b.ffn_channels, int(b.swiglu))
                self.tnorm(b.norm), self.matmul(b.linear1)
                if b.swiglu:
                    self.matmul(b.gate)
                self.matmul(b.linear2)
            else:
                raise TypeError(f"not a block: {b!r}")

    def model(self, d: ModelDesc) -> None:
        v = d.version
        self.line(d.name, v, d.num_spatial_inputs, d.num_global_inputs)
        if v >= 13:
            p = d.post
            self.line(p.td_score, p.score_mean, p.score_stdev, p.lead, p.variance_time, p.shortterm_value_error,
                      p.shortterm_score_error)
        if v >= 15:
            self.line(d.meta_encoder_version, int(d.prefer_pass_alive_under_suicide), *([0] * 6))
        t = d.trunk
        self.line(t.name, len(t.blocks), t.trunk_channels, t.mid_channels, t.regular_channels, t.dilated_channels,
                  t.gpool_channels)
        if v >= 15:
            self.line(t.norm_kind, *([0] * 5))
        self.conv(t.initial_conv), self.matmul(t.initial_matmul)
        if t.metadata_encoder is not None:
            m = t.metadata_encoder
            self.line(m.name, m.num_inputs)
            self.matmul(m.mul1), self.matbias(m.bias1), self.act(m.act1, v)
            self.matmul(m.mul2), self.matbias(m.bias2), self.act(m.act2, v), self.matmul(m.mul3)
        self.blocks(t.blocks, v)
        if t.norm_kind == TRUNK_NORM_BATCHNORM:
            self.bn(t.tip_bn)
        else:
            r = t.tip_rmsnorm
            self.line(r.name, r.gamma.shape[0], r.epsilon, int(r.spatial), r.cgroup_size)
            self.floats(r.gamma), self.floats(r.beta)
        self.act(t.tip_act, v)
        h = d.policy
        self.line(h.name)
        if v >= 17:
            self.line(h.out_channels, 0, 0, 0)
        self.conv(h.p1_conv), self.conv(h.g1_conv), self.bn(h.g1_bn), self.act(h.g1_act, v)
        self.matmul(h.gpool_to_bias), self.bn(h.p1_bn), self.act(h.p1_act, v), self.conv(h.p2_conv)
        self.matmul(h.gpool_to_pass)
        if v >= 15:
            self.matbias(h.pass_bias), self.act(h.pass_act, v), self.matmul(h.gpool_to_pass2)
        vh = d.value
        self.line(vh.name)
        if v >= 17:
            self.line(0, 0, 0)
        self.conv(vh.v1_conv), self.bn(vh.v1_bn), self.act(vh.v1_act, v)
        self.matmul(vh.v2_mul), self.matbias(vh.v2_bias), self.act(vh.v2_act, v)
        self.matmul(vh.v3_mul), self.matbias(vh.v3_bias), self.matmul(vh.sv3_mul), self.matbias(vh.sv3_bias)
        self.conv(vh.ownership_conv)


def _fmt(x) -> str:
    if isinstance(x, bool):
        return str(int(x))
    return str(x)


def serialize_model(desc: ModelDesc, binary: bool = True) -> bytes:
    """The uncompressed file bytes for `desc`."""
    w = _Writer(binary)
    w.model(desc)
    return w.out.getvalue()


def write_model(desc: ModelDesc, path: Union[str, Path]) -> Path:
    """Write `desc` as KataGo reads it; the suffix picks the form (`.bin.gz`, `.bin`, `.txt.gz`, `.txt`)."""
    path = Path(path)
    name = path.name.lower()
    data = serialize_model(desc, binary=is_binary_name(name.removesuffix(".gz")))
    if name.endswith(".gz"):
        data = gzip.compress(data, compresslevel=6, mtime=0)
    path.write_bytes(data)
    return path
