"""A smaller copy of a KataGo network for carrying to another machine (a GPU call carries at most 64 MiB, and
the default network's 38 MB leave little room beside the repository): every weight rounded to float16
precision and written back as a standard KataGo binary file. The low mantissa bits are then zero, so gzip
shrinks the file (b10c384: 38 MB to 24 MB); KataGo and tengen read it as any network file. Its outputs differ
from the original's by the rounding: `tests/eval/test_katago_transport.py` bounds the difference on a small
network, and `python -m tengen.eval.katago.transport --compare` measures it on real positions.

    python -m tengen.eval.katago.transport IN.bin.gz OUT.bin.gz [--compare]
"""
from __future__ import annotations

import argparse
import copy
import sys
from dataclasses import fields
from pathlib import Path
from typing import Union

import numpy as np

from tengen.eval.katago.model_desc import ModelDesc, iter_layers
from tengen.eval.katago.model_reader import read_model
from tengen.eval.katago.model_writer import write_model


def rounded_to_half(desc: ModelDesc) -> ModelDesc:
    """A copy of `desc` whose float weights are rounded to the nearest float16 (kept as float32)."""
    out = copy.deepcopy(desc)
    for layer in iter_layers(out):
        for f in fields(layer):
            value = getattr(layer, f.name)
            if isinstance(value, np.ndarray) and value.dtype.kind == "f":
                with np.errstate(over="raise"):
                    setattr(layer, f.name, value.astype(np.float16).astype(value.dtype))
    return out


def write_transport_copy(source: Union[str, Path], target: Union[str, Path]) -> tuple[int, int]:
    """Write the float16-rounded copy of the network at `source` to `target` (a `.bin.gz` name); returns the
    two files' sizes in bytes."""
    target = Path(target)
    if not target.name.lower().endswith(".bin.gz"):
        raise ValueError(f"{target}: the copy is written as a binary network, .bin.gz")
    write_model(rounded_to_half(read_model(source)), target)
    return Path(source).stat().st_size, target.stat().st_size


def compare(source: Union[str, Path], target: Union[str, Path]) -> str:
    """How far the copy's outputs lie from the original's on seeded random positions (both colours to move):
    the largest ownership, win-rate and lead differences and how often the policy's best move is the same."""
    from tengen.eval.katago.evaluator import KataGoEvaluator
    from tengen.go import Board
    from tengen.go.playout import play_uniform_random

    rng = np.random.default_rng(3)
    boards = []
    for _ in range(24):
        board = Board(19)
        play_uniform_random(board, rng, int(rng.integers(20, 240)))
        boards.append(board)
    first, second = KataGoEvaluator(source).evaluate(boards), KataGoEvaluator(target).evaluate(boards)
    own = max(float(np.abs(np.asarray(a.ownership) - np.asarray(b.ownership)).max()) for a, b in zip(first, second))
    win = max(abs(a.winrate - b.winrate) for a, b in zip(first, second))
    lead = max(abs(a.score_lead - b.score_lead) for a, b in zip(first, second))
    same = sum(int(np.argmax(a.policy)) == int(np.argmax(b.policy)) for a, b in zip(first, second))
    return (f"{len(boards)} random positions: largest ownership difference {own:.4f}, win rate {win:.4f}, "
            f"lead {lead:.3f} points; the policy's best move the same in {same}/{len(boards)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tengen.eval.katago.transport", description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path)
    parser.add_argument("target", type=Path)
    parser.add_argument("--compare", action="store_true", help="then measure how far the copy's outputs lie")
    args = parser.parse_args(argv)
    try:
        before, after = write_transport_copy(args.source, args.target)
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"{args.target}: {after / 1e6:.1f} MB (the original {before / 1e6:.1f} MB), weights rounded to float16")
    if args.compare:
        print(compare(args.source, args.target))
    return 0


if __name__ == "__main__":
    sys.exit(main())
