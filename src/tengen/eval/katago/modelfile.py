"""Read and write KataGo network files (`.bin.gz`, `.bin`, `.txt.gz`, `.txt`) as plain Python objects.

The format (learned from KataGo's `cpp/neuralnet/desc.cpp` and `python/export_model_pytorch.py`): a
stream of whitespace-separated text tokens (names, sizes, flags) in which every weight array is either
`@BIN@` followed by little-endian float32 values (binary files) or that many text numbers (`.txt`).
Layers come in a fixed order per block kind; the model version (3 ... 17) decides a few optional fields.

Weights are stored here in PyTorch order: convolutions (out, in, kh, kw), matrices (out, in).
"""
from __future__ import annotations

import gzip
import hashlib
import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Union

import numpy as np

OLDEST_VERSION = 3
NEWEST_VERSION = 17
ACTIVATIONS = ("identity", "relu", "mish", "silu")
_ACT_TOKENS = {a: "ACTIVATION_" + a.upper() for a in ACTIVATIONS}
TRUNK_NORM_BATCHNORM, TRUNK_NORM_RMSNORM = 0, 1


class ModelFormatError(ValueError):
    """The file is not a well-formed KataGo network."""


class UnsupportedModelError(ModelFormatError):
    """A well-formed network that this code does not handle (version, layer option)."""


# ---------------------------------------------------------------------------------------------- layers


@dataclass(eq=False)
class Conv:
    name: str
    weight: np.ndarray  # (out, in, kh, kw)
    dilation: tuple[int, int] = (1, 1)

    @property
    def in_channels(self) -> int:
        return int(self.weight.shape[1])

    @property
    def out_channels(self) -> int:
        return int(self.weight.shape[0])


@dataclass(eq=False)
class BatchNorm:
    """Inference batch norm: y = (x - mean) / sqrt(variance + epsilon) * scale + bias."""

    name: str
    mean: np.ndarray
    variance: np.ndarray
    scale: Optional[np.ndarray]  # None: all ones (not stored in the file)
    bias: Optional[np.ndarray]  # None: all zeros
    epsilon: float = 1e-20

    @property
    def channels(self) -> int:
        return int(self.mean.shape[0])

    def merged(self) -> tuple[np.ndarray, np.ndarray]:
        """(multiplier, offset) with y = x * multiplier + offset, computed in float32 as KataGo does."""
        scale = np.ones_like(self.mean) if self.scale is None else self.scale
        bias = np.zeros_like(self.mean) if self.bias is None else self.bias
        mult = (scale / np.sqrt(self.variance + np.float32(self.epsilon))).astype(np.float32)
        return mult, (bias - mult * self.mean).astype(np.float32)


@dataclass(eq=False)
class Activation:
    name: str
    kind: str = "relu"  # identity, relu, mish, silu


@dataclass(eq=False)
class MatMul:
    name: str
    weight: np.ndarray  # (out, in)

    @property
    def in_channels(self) -> int:
        return int(self.weight.shape[1])

    @property
    def out_channels(self) -> int:
        return int(self.weight.shape[0])


@dataclass(eq=False)
class MatBias:
    name: str
    bias: np.ndarray


@dataclass(eq=False)
class RMSNorm:
    """Trunk-tip RMS norm with gain and offset; `spatial` normalises over channels and board together."""

    name: str
    gamma: np.ndarray
    beta: np.ndarray
    epsilon: float = 1e-6
    spatial: bool = True
    cgroup_size: int = 0


@dataclass(eq=False)
class TransformerNorm:
    """RMS norm over channels inside transformer blocks (a gain, no offset)."""

    name: str
    weight: np.ndarray
    epsilon: float = 1e-6


# ---------------------------------------------------------------------------------------------- blocks


@dataclass(eq=False)
class ResidualBlock:
    """`ordinary_block`: pre-activation residual block, two convolutions."""

    name: str
    pre_bn: BatchNorm
    pre_act: Activation
    regular_conv: Conv
    mid_bn: BatchNorm
    mid_act: Activation
    final_conv: Conv


@dataclass(eq=False)
class GlobalPoolingBlock:
    """`gpool_block`: residual block whose middle gets a bias computed from pooled channels."""

    name: str
    pre_bn: BatchNorm
    pre_act: Activation
    regular_conv: Conv
    gpool_conv: Conv
    gpool_bn: BatchNorm
    gpool_act: Activation
    gpool_to_bias: MatMul
    mid_bn: BatchNorm
    mid_act: Activation
    final_conv: Conv


@dataclass(eq=False)
class NestedBottleneckBlock:
    """`nested_bottleneck_block`: 1x1 down, a stack of inner blocks, 1x1 up."""

    name: str
    pre_bn: BatchNorm
    pre_act: Activation
    pre_conv: Conv
    blocks: list
    post_bn: BatchNorm
    post_act: Activation
    post_conv: Conv


@dataclass(eq=False)
class AttentionBlock:
    """`transformer_attention_block`: pre-norm multi-head self-attention with 2-D rotary positions."""

    name: str
    num_heads: int
    num_kv_heads: int
    q_head_dim: int
    v_head_dim: int
    use_rope: bool
    learnable_rope: bool
    norm: TransformerNorm
    q_proj: MatMul
    k_proj: MatMul
    v_proj: MatMul
    out_proj: MatMul
    rope_freqs: Optional[np.ndarray] = None  # (num_kv_heads, q_head_dim // 2, 2): (omega_x, omega_y)
    rope_theta: Optional[float] = None


@dataclass(eq=False)
class FFNBlock:
    """`transformer_ffn_block`: pre-norm feed-forward, SwiGLU when `swiglu`."""

    name: str
    channels: int
    ffn_channels: int
    swiglu: bool
    norm: TransformerNorm
    linear1: MatMul
    gate: Optional[MatMul]
    linear2: MatMul


Block = Union[ResidualBlock, GlobalPoolingBlock, NestedBottleneckBlock, AttentionBlock, FFNBlock]


@dataclass(eq=False)
class MetadataEncoder:
    """SGF metadata encoder of the human-style networks (read and written; not evaluated)."""

    name: str
    num_inputs: int
    mul1: MatMul
    bias1: MatBias
    act1: Activation
    mul2: MatMul
    bias2: MatBias
    act2: Activation
    mul3: MatMul


@dataclass(eq=False)
class Trunk:
    name: str
    trunk_channels: int
    mid_channels: int
    regular_channels: int
    dilated_channels: int
    gpool_channels: int
    norm_kind: int  # TRUNK_NORM_BATCHNORM or TRUNK_NORM_RMSNORM (version >= 15 only)
    initial_conv: Conv
    initial_matmul: MatMul
    metadata_encoder: Optional[MetadataEncoder]
    blocks: list
    tip_bn: Optional[BatchNorm]
    tip_rmsnorm: Optional[RMSNorm]
    tip_act: Activation


@dataclass(eq=False)
class PolicyHead:
    name: str
    out_channels: int  # 1 (v<12), 2 (policy, optimistic policy), 4 (v16: + q predictions)
    p1_conv: Conv
    g1_conv: Conv
    g1_bn: BatchNorm
    g1_act: Activation
    gpool_to_bias: MatMul
    p1_bn: BatchNorm
    p1_act: Activation
    p2_conv: Conv
    gpool_to_pass: MatMul
    pass_bias: Optional[MatBias] = None  # version >= 15
    pass_act: Optional[Activation] = None
    gpool_to_pass2: Optional[MatMul] = None


@dataclass(eq=False)
class ValueHead:
    name: str
    v1_conv: Conv
    v1_bn: BatchNorm
    v1_act: Activation
    v2_mul: MatMul
    v2_bias: MatBias
    v2_act: Activation
    v3_mul: MatMul
    v3_bias: MatBias
    sv3_mul: MatMul
    sv3_bias: MatBias
    ownership_conv: Conv


@dataclass(eq=False)
class PostProcess:
    """Output scalings (version >= 13 stores them; older versions use these defaults)."""

    td_score: float = 20.0
    score_mean: float = 20.0
    score_stdev: float = 20.0
    lead: float = 20.0
    variance_time: float = 40.0
    shortterm_value_error: float = 0.25
    shortterm_score_error: float = 30.0


@dataclass(eq=False)
class ModelDesc:
    """A whole KataGo network."""

    name: str
    version: int
    num_spatial_inputs: int
    num_global_inputs: int
    post: PostProcess
    meta_encoder_version: int
    prefer_pass_alive_under_suicide: bool
    trunk: Trunk
    policy: PolicyHead
    value: ValueHead
    sha256: str = ""

    def num_parameters(self) -> int:
        """Learned parameters (batch-norm running statistics excluded, as KataGo counts them)."""
        total = 0
        for obj in iter_layers(self):
            if isinstance(obj, BatchNorm):
                total += sum(a.size for a in (obj.scale, obj.bias) if a is not None)
            elif isinstance(obj, (Conv, MatMul, TransformerNorm)):
                total += obj.weight.size
            elif isinstance(obj, MatBias):
                total += obj.bias.size
            elif isinstance(obj, RMSNorm):
                total += obj.gamma.size + obj.beta.size
            elif isinstance(obj, AttentionBlock) and obj.rope_freqs is not None:
                total += obj.rope_freqs.size
        return int(total)

    def describe(self) -> str:
        """One line: name, version, block kinds and size."""
        kinds: dict[str, int] = {}
        for b in self.trunk.blocks:
            kinds[type(b).__name__] = kinds.get(type(b).__name__, 0) + 1
        blocks = ", ".join(f"{n} {k}" for k, n in kinds.items())
        return (f"{self.name} (version {self.version}, {self.trunk.trunk_channels} channels, {blocks}, "
                f"{self.num_parameters() / 1e6:.2f} M parameters)")


def iter_layers(obj):
    """Every dataclass layer and block inside `obj`, depth first (the model itself excluded)."""
    from dataclasses import fields, is_dataclass

    stack = [obj]
    while stack:
        cur = stack.pop()
        for f in fields(cur):
            val = getattr(cur, f.name)
            items = val if isinstance(val, list) else [val]
            for item in items:
                if is_dataclass(item) and not isinstance(item, type):
                    yield item
                    stack.append(item)


# ---------------------------------------------------------------------------------------------- reading

_TOKEN = re.compile(rb"\s*(\S+)")


class _Reader:
    def __init__(self, data: bytes, binary: bool):
        self.data = data
        self.pos = 0
        self.binary = binary

    def token(self, what: str) -> str:
        m = _TOKEN.match(self.data, self.pos)
        if m is None:
            raise ModelFormatError(f"file ended while reading {what}")
        tok = m.group(1)
        if self.binary and b"@BIN@" in tok:
            raise ModelFormatError(f"found a weight block where {what} was expected")
        self.pos = m.end()
        try:
            return tok.decode("ascii")
        except UnicodeDecodeError:
            raise ModelFormatError(f"garbage where {what} was expected") from None

    def int(self, what: str) -> int:
        tok = self.token(what)
        try:
            return int(tok)
        except ValueError:
            raise ModelFormatError(f"{what}: expected an integer, got {tok!r}") from None

    def float(self, what: str) -> float:
        tok = self.token(what)
        try:
            return float(tok)
        except ValueError:
            raise ModelFormatError(f"{what}: expected a number, got {tok!r}") from None

    def floats(self, n: int, what: str) -> np.ndarray:
        if not self.binary:
            out = np.array([self.float(what) for _ in range(n)], dtype=np.float32)
        else:
            start = self.pos
            while self.pos < len(self.data) and self.data[self.pos : self.pos + 1].isspace():
                self.pos += 1
                if self.pos - start > 100:
                    break
            if self.data[self.pos : self.pos + 5] != b"@BIN@":
                raise ModelFormatError(
                    f"{what}: expected a binary weight block ('@BIN@'); is this a .txt model named .bin?")
            self.pos += 5
            end = self.pos + 4 * n
            if end > len(self.data):
                raise ModelFormatError(f"{what}: file ends inside a weight block ({n} floats expected)")
            out = np.frombuffer(self.data, dtype="<f4", count=n, offset=self.pos).astype(np.float32)
            self.pos = end
        if not np.all(np.isfinite(out)):
            raise ModelFormatError(f"{what}: NaN or infinite weight")
        return out

    # -- layers
    def conv(self) -> Conv:
        name = self.token("conv name")
        kh, kw, cin, cout, dy, dx = (self.int(f"{name} sizes") for _ in range(6))
        if min(kh, kw, cin, cout, dy, dx) <= 0:
            raise ModelFormatError(f"{name}: convolution sizes, channels and dilations must be positive")
        if kh % 2 != 1 or kw % 2 != 1:
            raise ModelFormatError(f"{name}: convolution filter sizes must be odd")
        w = self.floats(kh * kw * cin * cout, name).reshape(kh, kw, cin, cout).transpose(3, 2, 0, 1)
        return Conv(name, np.ascontiguousarray(w), (dy, dx))

    def bn(self) -> BatchNorm:
        name = self.token("batch norm name")
        c = self.int(f"{name} channels")
        eps = self.float(f"{name} epsilon")
        has_scale, has_bias = self.int(f"{name} flags"), self.int(f"{name} flags")
        if c < 1 or not (eps > 0 and np.isfinite(eps)):
            raise ModelFormatError(f"{name}: bad channel count or epsilon")
        mean = self.floats(c, name)
        var = self.floats(c, name)
        scale = self.floats(c, name) if has_scale else None
        bias = self.floats(c, name) if has_bias else None
        return BatchNorm(name, mean, var, scale, bias, eps)

    def act(self, version: int) -> Activation:
        name = self.token("activation name")
        if version < 11:
            return Activation(name, "relu")
        tok = self.token(f"{name} kind")
        for kind, t in _ACT_TOKENS.items():
            if tok == t:
                return Activation(name, kind)
        raise UnsupportedModelError(f"{name}: unknown activation {tok}")

    def matmul(self) -> MatMul:
        name = self.token("matmul name")
        cin, cout = self.int(f"{name} in"), self.int(f"{name} out")
        if cin <= 0 or cout <= 0:
            raise ModelFormatError(f"{name}: channels must be positive")
        w = self.floats(cin * cout, name).reshape(cin, cout).T
        return MatMul(name, np.ascontiguousarray(w))

    def matbias(self) -> MatBias:
        name = self.token("bias name")
        c = self.int(f"{name} channels")
        if c <= 0:
            raise ModelFormatError(f"{name}: channels must be positive")
        return MatBias(name, self.floats(c, name))

    def rmsnorm(self) -> RMSNorm:
        name = self.token("rmsnorm name")
        c = self.int(f"{name} channels")
        eps = self.float(f"{name} epsilon")
        spatial = self.int(f"{name} spatial") != 0
        cgroup = self.int(f"{name} cgroup")
        if not (0 < eps <= 1) or c < 1:
            raise ModelFormatError(f"{name}: bad rmsnorm channels or epsilon")
        if cgroup != 0:
            raise UnsupportedModelError(f"{name}: grouped spatial RMSNorm (cgroup {cgroup}) is not supported")
        return RMSNorm(name, self.floats(c, name), self.floats(c, name), eps, spatial, cgroup)

    def tnorm(self) -> TransformerNorm:
        name = self.token("transformer norm name")
        c = self.int(f"{name} channels")
        eps = self.float(f"{name} epsilon")
        if c < 1 or not (0 < eps <= 1):
            raise ModelFormatError(f"{name}: bad norm channels or epsilon")
        return TransformerNorm(name, self.floats(c, name), eps)

    # -- blocks
    def block_stack(self, n: int, channels: int, version: int, owner: str) -> list:
        blocks = []
        for _ in range(n):
            kind = self.token(f"{owner} block kind")
            if kind == "ordinary_block":
                b = ResidualBlock(self.token("block name"), self.bn(), self.act(version), self.conv(),
                                  self.bn(), self.act(version), self.conv())
                _check(b.pre_bn.channels == b.regular_conv.in_channels == channels
                       and b.mid_bn.channels == b.regular_conv.out_channels == b.final_conv.in_channels
                       and b.final_conv.out_channels == channels, b.name, "channel counts do not match")
            elif kind == "gpool_block":
                name = self.token("block name")
                b = GlobalPoolingBlock(name, self.bn(), self.act(version), self.conv(), self.conv(), self.bn(),
                                       self.act(version), self.matmul(), self.bn(), self.act(version), self.conv())
                _check(b.pre_bn.channels == channels == b.regular_conv.in_channels == b.gpool_conv.in_channels
                       and b.gpool_bn.channels == b.gpool_conv.out_channels
                       and b.gpool_to_bias.in_channels == 3 * b.gpool_bn.channels
                       and b.mid_bn.channels == b.regular_conv.out_channels == b.gpool_to_bias.out_channels
                       and b.final_conv.in_channels == b.mid_bn.channels
                       and b.final_conv.out_channels == channels, name, "channel counts do not match")
            elif kind == "nested_bottleneck_block":
                name = self.token("block name")
                inner = self.int(f"{name} inner block count")
                if inner < 1:
                    raise ModelFormatError(f"{name}: inner block count must be positive")
                pre_bn, pre_act, pre_conv = self.bn(), self.act(version), self.conv()
                stack = self.block_stack(inner, pre_conv.out_channels, version, name)
                b = NestedBottleneckBlock(name, pre_bn, pre_act, pre_conv, stack, self.bn(), self.act(version),
                                          self.conv())
                _check(b.pre_bn.channels == b.pre_conv.in_channels == channels
                       and b.post_bn.channels == b.pre_conv.out_channels == b.post_conv.in_channels
                       and b.post_conv.out_channels == channels, name, "channel counts do not match")
            elif kind == "transformer_attention_block":
                b = self.attention()
                _check(b.q_proj.in_channels == channels == b.out_proj.out_channels, b.name,
                       "channel counts do not match")
            elif kind == "transformer_ffn_block":
                b = self.ffn()
                _check(b.channels == channels, b.name, "channel counts do not match")
            else:
                raise UnsupportedModelError(f"{owner}: unknown block kind {kind!r}")
            blocks.append(b)
        return blocks

    def attention(self) -> AttentionBlock:
        name = self.token("attention block name")
        heads, kv, qd, vd = (self.int(f"{name} header") for _ in range(4))
        use_rope, learnable = self.int(f"{name} rope") != 0, self.int(f"{name} rope") != 0
        if heads < 1 or kv < 1 or heads % kv or qd < 1 or vd < 1 or (use_rope and qd % 2):
            raise ModelFormatError(f"{name}: bad head counts or dimensions")
        norm, q, k, v, o = self.tnorm(), self.matmul(), self.matmul(), self.matmul(), self.matmul()
        _check(q.out_channels == heads * qd and k.out_channels == kv * qd and v.out_channels == kv * vd
               and o.in_channels == heads * vd, name, "projection sizes do not match the heads")
        freqs, theta = None, None
        if use_rope and learnable:
            self.token(f"{name} rope name")
            nkv, npairs, two = (self.int(f"{name} rope sizes") for _ in range(3))
            _check(nkv == kv and npairs == qd // 2 and two == 2, name, "rope frequency table has the wrong shape")
            freqs = self.floats(nkv * npairs * 2, name).reshape(nkv, npairs, 2)
        elif use_rope:
            self.token(f"{name} rope theta name")
            theta = self.float(f"{name} rope theta")
            _check(theta > 0 and np.isfinite(theta), name, "rope theta must be positive")
        return AttentionBlock(name, heads, kv, qd, vd, use_rope, learnable, norm, q, k, v, o, freqs, theta)

    def ffn(self) -> FFNBlock:
        name = self.token("ffn block name")
        c, f = self.int(f"{name} channels"), self.int(f"{name} channels")
        swiglu = self.int(f"{name} swiglu") != 0
        norm, l1 = self.tnorm(), self.matmul()
        gate = self.matmul() if swiglu else None
        l2 = self.matmul()
        _check(l1.in_channels == c and l1.out_channels == f and l2.in_channels == f and l2.out_channels == c
               and (gate is None or (gate.in_channels == c and gate.out_channels == f)), name,
               "feed-forward sizes do not match")
        return FFNBlock(name, c, f, swiglu, norm, l1, gate, l2)

    # -- parts
    def trunk(self, version: int, meta_version: int) -> Trunk:
        name = self.token("trunk name")
        nblocks, tc, mc, rc, dc, gc = (self.int(f"{name} sizes") for _ in range(6))
        norm_kind = TRUNK_NORM_BATCHNORM
        if version >= 15:
            norm_kind = self.int(f"{name} norm kind")
            for letter in "BCDEF":
                if self.int(f"{name} option {letter}") != 0:
                    raise UnsupportedModelError(f"{name}: unknown trunk option {letter}")
            if norm_kind not in (TRUNK_NORM_BATCHNORM, TRUNK_NORM_RMSNORM):
                raise UnsupportedModelError(f"{name}: unknown trunk norm kind {norm_kind}")
        if nblocks < 1 or min(tc, mc, rc, gc) <= 0:
            raise ModelFormatError(f"{name}: block count and channel counts must be positive")
        conv = self.conv()
        mm = self.matmul()
        _check(conv.out_channels == tc == mm.out_channels, name, "initial layers do not match the trunk width")
        meta = None
        if meta_version > 0:
            mname = self.token("metadata encoder name")
            nin = self.int(f"{mname} inputs")
            meta = MetadataEncoder(mname, nin, self.matmul(), self.matbias(), self.act(version), self.matmul(),
                                   self.matbias(), self.act(version), self.matmul())
        blocks = self.block_stack(nblocks, tc, version, name)
        tip_bn = tip_rms = None
        if norm_kind == TRUNK_NORM_BATCHNORM:
            tip_bn = self.bn()
            _check(tip_bn.channels == tc, name, "trunk tip width")
        else:
            tip_rms = self.rmsnorm()
            _check(tip_rms.gamma.shape[0] == tc, name, "trunk tip width")
        return Trunk(name, tc, mc, rc, dc, gc, norm_kind, conv, mm, meta, blocks, tip_bn, tip_rms,
                     self.act(version))

    def policy(self, version: int) -> PolicyHead:
        name = self.token("policy head name")
        if version >= 17:
            out = self.int(f"{name} channels")
            if out not in (2, 4):
                raise ModelFormatError(f"{name}: policy channels must be 2 or 4, got {out}")
            for letter in "ABC":
                if self.int(f"{name} option {letter}") != 0:
                    raise UnsupportedModelError(f"{name}: unknown policy option {letter}")
        else:
            out = 4 if version == 16 else 2 if version >= 12 else 1
        h = PolicyHead(name, out, self.conv(), self.conv(), self.bn(), self.act(version), self.matmul(), self.bn(),
                       self.act(version), self.conv(), self.matmul())
        if version >= 15:
            h.pass_bias, h.pass_act, h.gpool_to_pass2 = self.matbias(), self.act(version), self.matmul()
        _check(h.p2_conv.out_channels == out and h.gpool_to_bias.in_channels == 3 * h.g1_bn.channels
               and h.gpool_to_pass.in_channels == 3 * h.g1_bn.channels, name, "head sizes do not match")
        final_pass = h.gpool_to_pass2 if version >= 15 else h.gpool_to_pass
        _check(final_pass.out_channels == out, name, "pass output size does not match")
        return h

    def value(self, version: int) -> ValueHead:
        name = self.token("value head name")
        if version >= 17:
            for letter in "ABC":
                if self.int(f"{name} option {letter}") != 0:
                    raise UnsupportedModelError(f"{name}: unknown value option {letter}")
        h = ValueHead(name, self.conv(), self.bn(), self.act(version), self.matmul(), self.matbias(),
                      self.act(version), self.matmul(), self.matbias(), self.matmul(), self.matbias(), self.conv())
        nscore = 6 if version >= 9 else 4 if version >= 8 else 2 if version >= 4 else 1
        _check(h.v3_mul.out_channels == 3 and h.sv3_mul.out_channels == nscore
               and h.v2_mul.in_channels == 3 * h.v1_bn.channels and h.ownership_conv.out_channels == 1,
               name, "head sizes do not match")
        return h

    def model(self) -> ModelDesc:
        name = self.token("model name")
        version = self.int("model version")
        if version < OLDEST_VERSION:
            raise UnsupportedModelError(
                f"model version {version} is from an early KataGo that is no longer supported "
                f"(versions {OLDEST_VERSION}..{NEWEST_VERSION} are)")
        if version > NEWEST_VERSION:
            raise UnsupportedModelError(
                f"model version {version} is newer than this reader knows (versions {OLDEST_VERSION}.."
                f"{NEWEST_VERSION}); a newer tengen may read it")
        nspatial, nglobal = self.int("spatial input count"), self.int("global input count")
        if nspatial <= 0 or nglobal <= 0:
            raise ModelFormatError("input channel counts must be positive")
        post = PostProcess()
        if version >= 13:
            vals = [self.float("output multiplier") for _ in range(7)]
            if not all(v > 0 and np.isfinite(v) for v in vals):
                raise ModelFormatError("output multipliers must be positive")
            post = PostProcess(*vals)
        meta_version, prefer = 0, False
        if version >= 15:
            meta_version = self.int("metadata encoder version")
            if meta_version not in (0, 1):
                raise UnsupportedModelError(f"metadata encoder version {meta_version} is not supported")
            pref = self.int("pass-alive option")
            if pref not in (0, 1):
                raise ModelFormatError(f"pass-alive option must be 0 or 1, got {pref}")
            prefer = pref == 1
            for letter in "CDEFGH":
                if self.int(f"model option {letter}") != 0:
                    raise UnsupportedModelError(f"unknown model option {letter}")
        trunk = self.trunk(version, meta_version)
        policy = self.policy(version)
        value = self.value(version)
        _check(trunk.initial_conv.in_channels == nspatial and trunk.initial_matmul.in_channels == nglobal,
               name, "input counts do not match the first layers")
        _check(policy.p1_conv.in_channels == trunk.trunk_channels == value.v1_conv.in_channels, name,
               "heads do not match the trunk width")
        return ModelDesc(name, version, nspatial, nglobal, post, meta_version, prefer, trunk, policy, value)


def _check(ok: bool, name: str, message: str) -> None:
    if not ok:
        raise ModelFormatError(f"{name}: {message}")


def _is_binary(path_name: str) -> bool:
    low = path_name.lower()
    return not (low.endswith(".txt") or low.endswith(".txt.gz"))


def parse_model(data: bytes, binary: bool = True, sha256: str = "") -> ModelDesc:
    """Parse an uncompressed model file's bytes."""
    desc = _Reader(data, binary).model()
    desc.sha256 = sha256
    return desc


def read_model(path: Union[str, Path]) -> ModelDesc:
    """Read a KataGo network file (`.bin.gz`, `.bin`, `.txt.gz`, `.txt`, or any `.gz`)."""
    path = Path(path)
    raw = path.read_bytes()
    sha = hashlib.sha256(raw).hexdigest()
    if raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError) as e:
            raise ModelFormatError(f"{path}: broken gzip data ({e})") from None
    elif path.name.lower().endswith(".gz"):
        raise ModelFormatError(f"{path}: named .gz but is not gzip-compressed")
    try:
        return parse_model(raw, _is_binary(path.name), sha)
    except ModelFormatError as e:
        raise type(e)(f"{path}: {e}") from None


# ---------------------------------------------------------------------------------------------- writing


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
            self.line(_ACT_TOKENS[a.kind])

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
    data = serialize_model(desc, binary=_is_binary(name.removesuffix(".gz")))
    if name.endswith(".gz"):
        data = gzip.compress(data, compresslevel=6, mtime=0)
    path.write_bytes(data)
    return path
