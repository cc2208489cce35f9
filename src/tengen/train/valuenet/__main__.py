"""`python -m tengen.train.valuenet train`: train the value network's variants on the value dataset (the same
batches for each), writing each variant's best weights to `--out-dir`; `leaves`: fine-tune a model's KataGo-
ownership channel on the leaves of real analyses (`python -m tengen.train.valuedata.leaf_dataset`)."""
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
    lv = sub.add_parser("leaves", help="fine-tune the ownership channel on analysis leaves")
    lv.add_argument("--base", type=Path, default=MODELS_DIR / "bvmlvn.pt", help="weights to start from")
    lv.add_argument("--data", type=Path, required=True, help="leaf dataset folder (python -m tengen.train.valuedata.leaf_dataset "
                                                             "writes DATASETS_CACHE/leaves-v1)")
    lv.add_argument("--out", type=Path, required=True, help="weights file to write")
    lv.add_argument("--steps", type=int, default=2000)
    lv.add_argument("--lr", type=float, default=3e-4)
    lv.add_argument("--batch", type=int, default=256)
    lv.add_argument("--rest-weight", type=float, default=0.2, help="loss weight of points outside the region")
    lv.add_argument("--device", default="auto")
    args = parser.parse_args(argv)
    if args.command == "leaves":
        return _leaves(args, argv)
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


def _leaves(args, argv) -> int:
    """The `leaves` subcommand: fine-tune, then write the weights with what was done in their metadata."""
    from tengen.eval.devices import pick_device
    from tengen.eval.valuenet.weights import load_weights, save_weights
    from tengen.train.valuenet.leaf_tuning import load_leaves, tune

    device = pick_device(args.device)
    try:
        data = load_leaves(args.data, device)
        model, meta = load_weights(args.base, device=str(device))
        result = tune(model, data, args.steps, args.lr, args.batch, args.rest_weight,
                      log=lambda m: print(m, flush=True))
    except (FileNotFoundError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    meta = dict(meta)
    meta["leaf_tuning"] = {**result, "base": str(args.base),
                           "command": "python -m tengen.train.valuenet " + " ".join(argv or sys.argv[1:])}
    save_weights(args.out, model.cpu(), meta)
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
