"""``python -m tengen.train.winner train|evaluate|gnugo|card``: ``train`` fits and saves every model;
``evaluate`` prints held-out metrics; ``gnugo`` measures the GNU Go ``estimate_score`` reference on test
positions; ``card`` rewrites ``MODEL_CARD.md`` from what was measured (``train`` and ``gnugo`` also do)."""
from __future__ import annotations

import argparse
import logging
from pathlib import Path

from tengen.train.records.store import PHASES
from tengen.train.reference import gnugo_reference
from tengen.train.winner.card import write_model_card
from tengen.train.winner.features import SOURCES
from tengen.train.winner.model import MODELS_DIR, load_index
from tengen.train.winner.training import TrainConfig, train_all


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run one command (the model card is rewritten after train, gnugo and card)."""
    ap = argparse.ArgumentParser(prog="python -m tengen.train.winner",
                                 description="Winner prediction from influence maps: train, evaluate, the GNU Go "
                                             "reference, the model card.")
    ap.add_argument("command", choices=("train", "evaluate", "gnugo", "card"))
    ap.add_argument("--cache-dir", type=Path, default=None, help="datasets root (see tengen.train.records)")
    ap.add_argument("--models-dir", type=Path, default=MODELS_DIR)
    ap.add_argument("--sources", nargs="*", default=list(SOURCES))
    ap.add_argument("--kinds", nargs="*", default=["logreg", "mlp"])
    ap.add_argument("--phases", nargs="*", default=[str(p) for p in PHASES] + ["all"])
    ap.add_argument("--max-epochs", type=int, default=TrainConfig.max_epochs)
    ap.add_argument("--patience", type=int, default=TrainConfig.patience)
    ap.add_argument("--max-train", type=int, default=None, help="subsample training positions (smoke runs)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--per-phase", type=int, default=500, help="gnugo: test positions per phase")
    ap.add_argument("--log", type=Path, default=None)
    args = ap.parse_args(argv)
    handlers: list[logging.Handler] = [logging.StreamHandler()]
    if args.log:
        handlers.append(logging.FileHandler(args.log))
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", handlers=handlers)
    if args.command == "train":
        cfg = TrainConfig(max_epochs=args.max_epochs, patience=args.patience, threads=args.threads)
        train_all(args.cache_dir, args.models_dir, tuple(args.sources), tuple(args.kinds), tuple(args.phases),
                  cfg, args.max_train)
    elif args.command == "evaluate":
        index = load_index(args.models_dir)
        for name, m in sorted(index["models"].items()):
            row = "  ".join(f"{p}: {m['test'][p]['accuracy']:.1f}% {m['test'][p]['log_loss']:.3f}"
                            for p in map(str, PHASES) if p in m.get("test", {}))
            print(f"{name:24s} {row}")
        print("best (by validation):", index.get("best"))
    elif args.command == "gnugo":
        gnugo_reference(args.cache_dir, args.models_dir, per_phase=args.per_phase)
    if args.command in ("train", "gnugo", "card") and (Path(args.models_dir) / "index.json").exists():
        print(f"wrote {write_model_card(args.models_dir, args.cache_dir)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
