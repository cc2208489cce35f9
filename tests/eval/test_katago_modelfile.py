"""KataGo model files: round trips through our writer and reader, and clear errors for bad files."""
import gzip

import numpy as np
import pytest

from tengen.eval.katago.model_desc import TRUNK_NORM_RMSNORM, ModelFormatError, UnsupportedModelError
from tengen.eval.katago.model_reader import parse_model, read_model
from tengen.eval.katago.model_writer import serialize_model, write_model
from tengen.eval.katago.tiny import random_model

OLD_KINDS = ("ordinary", "gpool", "nested")


def _models():
    for version in (8, 9, 10, 11, 12, 13, 14):
        yield version, random_model(3, version, OLD_KINDS)
    for version in (15, 16, 17):
        yield version, random_model(3, version)


@pytest.mark.parametrize("version,desc", list(_models()), ids=lambda x: str(x) if isinstance(x, int) else "")
@pytest.mark.parametrize("suffix", [".bin.gz", ".bin", ".txt.gz", ".txt"])
def test_round_trip_every_version_and_form(tmp_path, version, desc, suffix):
    path = write_model(desc, tmp_path / f"m{suffix}")
    back = read_model(path)
    assert back.version == version
    binary = "bin" in suffix
    assert serialize_model(back, binary) == serialize_model(desc, binary)
    assert back.num_parameters() == desc.num_parameters()
    assert len(back.sha256) == 64


def test_round_trip_keeps_every_block_kind_and_weight(tmp_path):
    desc = random_model(5, 15, ("ordinary", "gpool", "nested", "transformer"), rms_tip=False)
    back = read_model(write_model(desc, tmp_path / "m.bin.gz"))
    kinds = [type(b).__name__ for b in back.trunk.blocks]
    assert kinds == ["ResidualBlock", "GlobalPoolingBlock", "NestedBottleneckBlock", "NestedBottleneckBlock"]
    inner = [type(b).__name__ for b in back.trunk.blocks[3].blocks]
    assert inner == ["AttentionBlock", "FFNBlock"]
    att_a, att_b = desc.trunk.blocks[3].blocks[0], back.trunk.blocks[3].blocks[0]
    np.testing.assert_array_equal(att_a.rope_freqs, att_b.rope_freqs)
    np.testing.assert_array_equal(att_a.q_proj.weight, att_b.q_proj.weight)
    np.testing.assert_array_equal(desc.trunk.blocks[0].regular_conv.weight, back.trunk.blocks[0].regular_conv.weight)
    assert back.trunk.tip_bn is not None and back.trunk.tip_rmsnorm is None


def test_conv_weights_use_katago_file_order():
    """The file stores y, x, in, out; a 1x2-in, 1-out 3x3 kernel with distinct values shows the mapping."""
    desc = random_model(0, 15)
    conv = desc.trunk.initial_conv
    conv.weight = np.arange(conv.weight.size, dtype=np.float32).reshape(conv.weight.shape)
    data = serialize_model(desc)
    start = data.index(b"model.conv_spatial\n")
    blob = data.index(b"@BIN@", start) + 5
    first = np.frombuffer(data, "<f4", count=3, offset=blob)
    # element (y=0, x=0, in=0, out=0..2) comes first: torch weight[out, in, y, x]
    np.testing.assert_array_equal(first, conv.weight[:3, 0, 0, 0])


def _replace_token(data: bytes, old: bytes, new: bytes) -> bytes:
    assert old in data
    return data.replace(old, new, 1)


def test_unsupported_versions_say_why():
    data = serialize_model(random_model(0, 15))
    old = _replace_token(data, b"tiny\n15\n", b"tiny\n2\n")
    with pytest.raises(UnsupportedModelError, match="model version 2 .*no longer supported"):
        parse_model(old)
    new = _replace_token(data, b"tiny\n15\n", b"tiny\n18\n")
    with pytest.raises(UnsupportedModelError, match="version 18 is newer"):
        parse_model(new)


@pytest.mark.parametrize("mutation,error,message", [
    (lambda d: d[: len(d) // 2], ModelFormatError, "ends|ended"),
    (lambda d: d.replace(b"ordinary_block", b"strange_block", 1), UnsupportedModelError, "unknown block kind"),
    (lambda d: d.replace(b"ACTIVATION_SILU", b"ACTIVATION_GELU", 1), UnsupportedModelError, "unknown activation"),
    (lambda d: d.replace(b"@BIN@", b"@XYZ@", 1), ModelFormatError, "binary weight block"),
])
def test_malformed_files_raise_clear_errors(mutation, error, message):
    data = serialize_model(random_model(0, 15))
    with pytest.raises(error, match=message):
        parse_model(mutation(data))


def test_nan_weight_is_rejected():
    desc = random_model(0, 15)
    desc.value.v3_bias.bias[1] = np.nan
    with pytest.raises(ModelFormatError, match="NaN"):
        parse_model(serialize_model(desc))


def test_text_model_named_bin_is_explained(tmp_path):
    path = tmp_path / "m.bin.gz"
    path.write_bytes(gzip.compress(serialize_model(random_model(0, 15), binary=False)))
    with pytest.raises(ModelFormatError, match="binary weight block"):
        read_model(path)


def test_fake_gz_is_rejected(tmp_path):
    path = tmp_path / "m.bin.gz"
    path.write_bytes(serialize_model(random_model(0, 15)))
    with pytest.raises(ModelFormatError, match="not gzip"):
        read_model(path)


@pytest.mark.network_model
def test_default_network_reads_and_rewrites_byte_for_byte(default_model_path):
    desc = read_model(default_model_path)
    assert (desc.name, desc.version, desc.num_spatial_inputs, desc.num_global_inputs) == ("b10c384h6nbttflrs", 15,
                                                                                          22, 19)
    assert desc.trunk.norm_kind == TRUNK_NORM_RMSNORM and desc.trunk.tip_rmsnorm.spatial
    assert len(desc.trunk.blocks) == 10 and desc.trunk.trunk_channels == 384
    att = desc.trunk.blocks[0].blocks[0]
    assert (att.num_heads, att.q_head_dim, att.learnable_rope) == (6, 32, True)
    assert abs(desc.num_parameters() / 1e6 - 10.55) < 0.01
    raw = gzip.decompress(default_model_path.read_bytes())
    assert serialize_model(desc) == raw
