"""`python -m tengen.train.valuenet train`: train the value network's variants on the value dataset (the same
batches for each), writing each variant's best weights to `--out-dir`."""
from __future__ import annotations

import argparse
import json
import platform
import sys
from pathlib import Path

from tengen.eval.valuenet.weights import MODELS_DIR


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tengen.train.valuenet", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train", help="train the variants")
    t.add_argument("--variants", default="vn,mlvn,bvvn,bvmlvn")
    t.add_argument("--steps", type=int, default=20000)
    t.add_argument("--minutes", type=float, default=None, help="wall-clock budget (the schedule fits it)")
    t.add_argument("--batch", type=int, default=512)
    t.add_argument("--lr", type=float, default=2e-3)
    t.add_argument("--eval-every", type=int, default=500)
    t.add_argument("--blocks", type=int, default=6)
    t.add_argument("--channels", type=int, default=64)
    t.add_argument("--device", default="auto")
    t.add_argument("--threads", type=int, default=None, help="torch CPU threads")
    t.add_argument("--out-dir", type=Path, default=MODELS_DIR)
    t.add_argument("--checkpoints", type=Path, default=None, help="default: beside the dataset")
    t.add_argument("--cache-dir", type=Path, default=None)
    t.add_argument("--fresh", action="store_true", help="ignore an existing checkpoint")
    t.add_argument("--init", default=None, help="weights to start the variants of the same configuration from")
    c = sub.add_parser("card", help="write models/valuenet/MODEL_CARD.md from the weights and logs")
    c.add_argument("--weights", type=Path, default=MODELS_DIR / "bvmlvn.pt")
    c.add_argument("--value-bench", type=Path, default=None, help="saved output of bench/value_net.py")
    c.add_argument("--leaf-bench", type=Path, default=None, help="saved output of bench/leaf_scoring.py")
    c.add_argument("--out", type=Path, default=MODELS_DIR / "MODEL_CARD.md")
    args = parser.parse_args(argv)
    if args.command == "card":
        from tengen.files import write_atomic
        from tengen.train.valuenet.card import render

        write_atomic(args.out, render(args.weights, MODELS_DIR / "logs", args.value_bench, args.leaf_bench).encode())
        print(args.out)
        return 0
    import torch

    from tengen.train.valuedata.build import dataset_dir
    from tengen.train.valuedata.dataset import load, stats
    from tengen.train.valuenet.training import ValueTrainConfig, train

    if args.threads:
        torch.set_num_threads(args.threads)
    try:
        data = load(args.cache_dir)
    except FileNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    cfg = ValueTrainConfig(variants=tuple(v for v in args.variants.split(",") if v), steps=args.steps,
                           batch=args.batch, lr=args.lr, eval_every=args.eval_every, minutes=args.minutes,
                           device=args.device, blocks=args.blocks, channels=args.channels, init=args.init)
    device = "cuda" if (args.device == "auto" and torch.cuda.is_available()) else args.device
    hardware = torch.cuda.get_device_name(0) if device.startswith("cuda") else f"{platform.machine()} CPU"
    meta = {"dataset": stats(data), "command": "python -m tengen.train.valuenet " + " ".join(argv or sys.argv[1:]),
            "hardware": hardware, "torch": str(torch.__version__)}
    ckpt = args.checkpoints or dataset_dir(args.cache_dir).parent / "valuenet-checkpoints"
    best = train(cfg, data, args.out_dir, ckpt, resume=not args.fresh, meta=meta,
                 log=lambda m: print(m, flush=True))
    print(json.dumps(best, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
