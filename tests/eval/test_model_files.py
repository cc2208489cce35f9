"""Model files must be regular files, read with a size bound (issue 47 item 4): a FIFO is refused at once
(it used to hang `analysis`, `gtp`, `eval` and `analyze`), /dev/zero is refused before a byte is read (it
used to grow without bound), and a gzip file that inflates past the bound is refused."""
from __future__ import annotations

import gzip
import os

import pytest

from tengen.cli import main
from tengen.eval.katago.model_desc import ModelFormatError
from tengen.eval.katago.model_reader import read_model
from tengen.eval.localnet.weights import load_weights as load_local_weights
from tengen.files import NotRegularFile, read_regular_file


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "model.bin.gz"
    os.mkfifo(path)
    return path


def test_read_regular_file_refuses_fifos_devices_and_long_files(fifo, tmp_path):
    with pytest.raises(NotRegularFile, match="not a regular file"):
        read_regular_file(fifo, 1000, "network")
    with pytest.raises(NotRegularFile, match="not a regular file"):
        read_regular_file("/dev/zero", 1000, "network")
    long = tmp_path / "long.bin"
    long.write_bytes(b"x" * 1001)
    with pytest.raises(NotRegularFile, match="more than a network may have"):
        read_regular_file(long, 1000, "network")
    assert read_regular_file(long, 1001, "network") == b"x" * 1001


@pytest.mark.parametrize("where", ["fifo", "/dev/zero"])
def test_katago_model_reader_refuses_non_regular_files(fifo, where):
    with pytest.raises(ModelFormatError, match="not a regular file"):
        read_model(fifo if where == "fifo" else where)


def test_a_gzip_bomb_is_refused(tmp_path, monkeypatch):
    import tengen.eval.katago.model_reader as reader

    monkeypatch.setattr(reader, "MAX_MODEL_BYTES", 1000)
    bomb = tmp_path / "bomb.bin.gz"
    bomb.write_bytes(gzip.compress(b"\0" * 100_000))
    with pytest.raises(ModelFormatError, match="decompresses to more than 4000 bytes"):
        read_model(bomb)


def test_tengen_weights_loader_refuses_non_regular_files(fifo):
    with pytest.raises(Exception, match="not a regular file"):
        load_local_weights(fifo)


@pytest.mark.parametrize("command", [["eval", "EXAMPLE"], ["analyze", "EXAMPLE", "--predictor", "kata"]])
def test_cli_with_a_fifo_model_is_one_line_and_no_hang(fifo, capsys, command):
    from datapaths import REPO

    example = str(REPO / "src" / "tengen" / "data" / "example.sgf")
    argv = [example if a == "EXAMPLE" else a for a in command] + ["--model", str(fifo)]
    assert main(argv) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not a regular file" in err[0]
