"""The float16-rounded copy of a KataGo network that a GPU call carries: a standard network file, every weight
representable in float16, outputs close to the original's, and bad targets refused in one line."""
from __future__ import annotations

from dataclasses import fields

import numpy as np
import pytest

from tengen.eval.katago import read_model
from tengen.eval.katago.evaluator import KataGoEvaluator
from tengen.eval.katago.model_desc import iter_layers
from tengen.eval.katago.model_writer import write_model
from tengen.eval.katago.tiny import random_model
from tengen.eval.katago.transport import main, write_transport_copy
from tengen.go.diagram import board_from_diagram

POSITIONS = ["""
    . . . . . . . . .
    . . X . . . O . .
    . . . . . . . . .
    . . X . . . O . .
    . . . . X O . . .
    . . . X O . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
""", """
    . . . . . . . . .
    . . . . . . . . .
    . . X X O . . . .
    . X O O X O . . .
    . . X O . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
"""]


def float_weights(desc) -> list[np.ndarray]:
    return [getattr(layer, f.name) for layer in iter_layers(desc) for f in fields(layer)
            if isinstance(getattr(layer, f.name), np.ndarray) and getattr(layer, f.name).dtype.kind == "f"]


def test_the_copy_is_a_network_file_of_half_precision_weights_with_close_outputs(tmp_path):
    original = write_model(random_model(seed=2, channels=16), tmp_path / "net.bin.gz")
    before, after = write_transport_copy(original, tmp_path / "net-f16.bin.gz")
    copy = read_model(tmp_path / "net-f16.bin.gz")
    weights = float_weights(copy)
    assert weights and all(np.array_equal(w, w.astype(np.float16).astype(w.dtype)) for w in weights)
    source = float_weights(read_model(original))
    assert len(source) == len(weights) and any(not np.array_equal(a, b) for a, b in zip(source, weights))
    boards = [board_from_diagram(text) for text in POSITIONS]
    first = KataGoEvaluator(original).evaluate(boards)
    second = KataGoEvaluator(tmp_path / "net-f16.bin.gz").evaluate(boards)
    for a, b in zip(first, second):
        assert np.abs(np.asarray(a.ownership) - np.asarray(b.ownership)).max() < 0.02
        assert abs(a.winrate - b.winrate) < 0.02
        assert np.abs(np.asarray(a.policy) - np.asarray(b.policy)).max() < 0.02
    assert before > 0 and after > 0


def test_a_copy_must_be_a_binary_network_file(tmp_path, capsys):
    original = write_model(random_model(seed=1), tmp_path / "net.bin.gz")
    with pytest.raises(ValueError, match=".bin.gz"):
        write_transport_copy(original, tmp_path / "net.txt")
    assert main([str(tmp_path / "missing.bin.gz"), str(tmp_path / "out.bin.gz")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:")
