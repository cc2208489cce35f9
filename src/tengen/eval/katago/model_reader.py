"""Read KataGo network files (`.bin.gz`, `.bin`, `.txt.gz`, `.txt`) into a `ModelDesc`, checking every size."""
from __future__ import annotations

import hashlib
import re
import zlib
from pathlib import Path
from typing import Union

import numpy as np

from tengen.eval.katago.model_desc import (
    ACTIVATION_TOKENS,
    NEWEST_VERSION,
    OLDEST_VERSION,
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
    MetadataEncoder,
    ModelDesc,
    ModelFormatError,
    NestedBottleneckBlock,
    PolicyHead,
    PostProcess,
    ResidualBlock,
    RMSNorm,
    TransformerNorm,
    Trunk,
    UnsupportedModelError,
    ValueHead,
    is_binary_name,
)
from tengen.files import NotRegularFile, read_regular_file

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
        for kind, t in ACTIVATION_TOKENS.items():
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


def parse_model(data: bytes, binary: bool = True, sha256: str = "") -> ModelDesc:
    """Parse an uncompressed model file's bytes."""
    desc = _Reader(data, binary).model()
    desc.sha256 = sha256
    return desc


MAX_MODEL_BYTES = 1 << 30  # a network file (KataGo's largest public networks are a few hundred MB compressed)


def _gunzip_bounded(path: Path, raw: bytes, limit: int) -> bytes:
    """Decompress gzip data, refusing more than `limit` bytes out (a crafted file cannot exhaust memory)."""
    d = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        out = d.decompress(raw, limit + 1)
    except zlib.error as e:
        raise ModelFormatError(f"{path}: broken gzip data ({e})") from None
    if len(out) > limit:
        raise ModelFormatError(f"{path}: decompresses to more than {limit} bytes")
    if not d.eof:
        raise ModelFormatError(f"{path}: broken gzip data (truncated)")
    return out


def read_model(path: Union[str, Path]) -> ModelDesc:
    """Read a KataGo network file (`.bin.gz`, `.bin`, `.txt.gz`, `.txt`, or any `.gz`)."""
    path = Path(path)
    try:
        raw = read_regular_file(path, MAX_MODEL_BYTES, "KataGo network file")
    except NotRegularFile as e:
        raise ModelFormatError(str(e)) from None
    sha = hashlib.sha256(raw).hexdigest()
    if raw[:2] == b"\x1f\x8b":
        raw = _gunzip_bounded(path, raw, MAX_MODEL_BYTES * 4)
    elif path.name.lower().endswith(".gz"):
        raise ModelFormatError(f"{path}: named .gz but is not gzip-compressed")
    try:
        return parse_model(raw, is_binary_name(path.name), sha)
    except ModelFormatError as e:
        raise type(e)(f"{path}: {e}") from None
