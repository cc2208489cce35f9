"""KataGo network files as plain Python objects: the layers, blocks and heads of a `ModelDesc`.

The format (learned from KataGo's `cpp/neuralnet/desc.cpp` and `python/export_model_pytorch.py`): a
stream of whitespace-separated text tokens (names, sizes, flags) in which every weight array is either
`@BIN@` followed by little-endian float32 values (binary files) or that many text numbers (`.txt`).
Layers come in a fixed order per block kind; the model version (3 ... 17) decides a few optional fields.
`model_reader` parses files into these objects and `model_writer` writes them back.

Weights are stored here in PyTorch order: convolutions (out, in, kh, kw), matrices (out, in).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Union

import numpy as np

OLDEST_VERSION = 3
NEWEST_VERSION = 17
ACTIVATIONS = ("identity", "relu", "mish", "silu")
ACTIVATION_TOKENS = {a: "ACTIVATION_" + a.upper() for a in ACTIVATIONS}
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



def is_binary_name(path_name: str) -> bool:
    """Whether a file of this name holds binary weights (`.bin`, `.bin.gz`) rather than text (`.txt`, `.txt.gz`)."""
    low = path_name.lower()
    return not (low.endswith(".txt") or low.endswith(".txt.gz"))
