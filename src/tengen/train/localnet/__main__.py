"""`python -m tengen.train.localnet train`: train the local-move network on the built dataset; the same
command on CPU and CUDA (`--device`). Checkpoints go to the cache and resume; the best weights to `--out`."""
from __future__ import annotations

import argparse
import json
import platform
import sys
from dataclasses import fields
from pathlib import Path

from tengen.eval.localnet.weights import DEFAULT_WEIGHTS
from tengen.train.localnet.training import TrainConfig


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tengen.train.localnet", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train", help="train (or resume training) the local-move network")
    for f in fields(TrainConfig):
        if f.name == "augment":
            continue
        kind = float if f.type in ("float", "Optional[float]") else (str if f.type in ("str", "Optional[str]") else int)
        t.add_argument("--" + f.name.replace("_", "-"), type=kind, default=f.default)
    t.add_argument("--no-augment", action="store_true")
    t.add_argument("--out", type=Path, default=DEFAULT_WEIGHTS, help="best weights (default: models/localnet/localnet.pt)")
    t.add_argument("--cache-dir", type=Path, default=None, help="dataset cache (default: ~/.cache/tengen/datasets)")
    t.add_argument("--checkpoint-dir", type=Path, default=None, help="default: beside the dataset, localnet-run/")
    t.add_argument("--fresh", action="store_true", help="ignore an existing checkpoint")
    c = sub.add_parser("card", help="write models/localnet/MODEL_CARD.md from the weights' metadata")
    c.add_argument("--weights", type=Path, default=DEFAULT_WEIGHTS)
    c.add_argument("--accuracy", type=Path, default=None, help="saved output of bench/localnet_accuracy.py")
    c.add_argument("--out", type=Path, default=DEFAULT_WEIGHTS.parent / "MODEL_CARD.md")
    args = parser.parse_args(argv)
    if args.command == "card":
        from tengen.files import write_atomic
        from tengen.train.localnet.card import render

        write_atomic(args.out, render(args.weights, args.weights.parent / "logs", args.accuracy).encode())
        print(args.out)
        return 0
    from tengen.train.localdata.dataset import load

    examples, stats = load(args.cache_dir)
    cfg = TrainConfig(**{f.name: getattr(args, f.name) for f in fields(TrainConfig) if f.name != "augment"},
                      augment=not args.no_augment)
    from tengen.train.localdata.build import dataset_dir
    from tengen.train.localnet.training import train

    ckpt = args.checkpoint_dir or dataset_dir(args.cache_dir) / "localnet-run"
    meta = {"dataset": stats, "command": "python -m tengen.train.localnet " + " ".join(sys.argv[1:] if argv is None else argv),
            "machine": f"{platform.machine()} {platform.processor() or ''}".strip()}
    try:
        import torch
        if torch.cuda.is_available() and cfg.device in ("auto", "cuda"):
            meta["machine"] += f", {torch.cuda.get_device_name(0)}"
    except Exception:
        pass
    solved = None
    if cfg.solved_share > 0:
        from tengen.eval.localnet.lesson_store import lesson_counts, lessons_dir, load_lessons
        from tengen.train.localdata.dataset import Examples

        folder = lessons_dir(args.cache_dir)
        arrays = load_lessons(folder)
        if not arrays:
            print(f"error: --solved-share needs the solver-taught examples in {folder}: run "
                  "`python -m tengen.train.localdata.lesson_shards` first", file=sys.stderr)
            return 2
        solved = Examples(arrays)
        meta["solved"] = lesson_counts(folder)
    best = train(cfg, examples, args.out, ckpt, resume=not args.fresh, meta=meta,
                 log=lambda m: print(m, file=sys.stderr, flush=True), solved=solved)
    print(json.dumps(best, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
