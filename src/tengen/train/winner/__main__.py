"""``python -m tengen.train.winner valuenet|dead-stones|train|evaluate|gnugo|card``: ``valuenet`` evaluates the
dataset's positions with tengen's value network (cached; train and validation subsampled per phase, test whole)
and KataGo on the GNU Go reference positions; ``dead-stones`` chooses the ownership head and threshold for
dead-stone removal on validation; ``train`` fits and saves every model (``--sources zobrist-clean ...`` for the
influence-after-removal models, which also read komi and handicap); ``evaluate`` prints held-out metrics;
``gnugo`` measures the GNU Go ``estimate_score`` reference on test positions; ``card`` rewrites
``MODEL_CARD.md`` from what was measured (``valuenet``, ``dead-stones``, ``train`` and ``gnugo`` also do)."""
from __future__ import annotations

import argparse
import logging
from pathlib import Path

from tengen.train.records.store import PHASES
from tengen.train.reference import gnugo_reference
from tengen.train.winner.card import write_model_card
from tengen.train.winner.features import PLAIN_SOURCES, SOURCES
from tengen.train.winner.model import MODELS_DIR, load_index
from tengen.train.winner.training import TrainConfig, train_all


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run one command (the model card is rewritten after train, gnugo and card)."""
    ap = argparse.ArgumentParser(prog="python -m tengen.train.winner",
                                 description="Winner prediction from influence maps: train, evaluate, the GNU Go "
                                             "reference, the model card.")
    ap.add_argument("command", choices=("valuenet", "dead-stones", "train", "evaluate", "gnugo", "card"))
    ap.add_argument("--cache-dir", type=Path, default=None, help="datasets root (see tengen.train.records)")
    ap.add_argument("--models-dir", type=Path, default=MODELS_DIR)
    ap.add_argument("--sources", nargs="*", default=list(PLAIN_SOURCES), choices=SOURCES,
                    help="train: feature sources (default the plain ones; the -clean ones need `valuenet` and "
                         "`dead-stones` first)")
    ap.add_argument("--kinds", nargs="*", default=["logreg", "mlp"])
    ap.add_argument("--phases", nargs="*", default=[str(p) for p in PHASES] + ["all"])
    ap.add_argument("--max-epochs", type=int, default=TrainConfig.max_epochs)
    ap.add_argument("--patience", type=int, default=TrainConfig.patience)
    ap.add_argument("--max-train", type=int, default=None, help="subsample training positions (smoke runs)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--per-phase", type=int, default=500, help="gnugo: test positions per phase")
    ap.add_argument("--train-per-phase", type=int, nargs="+", default=[5000, 8000, 16000, 40000],
                    help="valuenet: training positions evaluated per phase, one number or one per phase 30 80 130 "
                         "180 (a subsample: ~130 positions/s on one core)")
    ap.add_argument("--val-per-phase", type=int, nargs="+", default=[3000, 4000, 6000, 12000],
                    help="valuenet: validation positions per phase (as --train-per-phase)")
    ap.add_argument("--test-per-phase", type=int, nargs="+", default=None,
                    help="valuenet: test positions per phase (default all; GNU Go's are always included)")
    ap.add_argument("--no-katago", action="store_true", help="valuenet: skip KataGo on the GNU Go positions")
    ap.add_argument("--log", type=Path, default=None)
    args = ap.parse_args(argv)
    handlers: list[logging.Handler] = [logging.StreamHandler()]
    if args.log:
        handlers.append(logging.FileHandler(args.log))
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", handlers=handlers)
    if args.command == "valuenet":
        from tengen.train.winner.netreference import fill_network_caches

        def per_phase(v: list[int] | None) -> int | dict[int, int] | None:
            if v is None or len(v) == 1:
                return None if v is None else v[0]
            if len(v) != len(PHASES):
                ap.error(f"give one count or {len(PHASES)} (one per phase {' '.join(map(str, PHASES))})")
            return dict(zip(PHASES, v))

        fill_network_caches(args.cache_dir, args.models_dir, per_phase(args.train_per_phase),
                            per_phase(args.val_per_phase), per_phase(args.test_per_phase),
                            katago=not args.no_katago, threads=1)
    elif args.command == "dead-stones":
        from tengen.train.records.store import load_split
        from tengen.train.winner.deadstones import choose_dead_stones
        from tengen.train.winner.netcache import ValueNetCache

        d = choose_dead_stones(load_split("val", args.cache_dir), ValueNetCache("val", args.cache_dir), args.models_dir)
        print(f"dead stones: ownership head {d['channel']}, threshold {d['threshold']:g}")
    elif args.command == "train":
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
    if args.command in ("valuenet", "dead-stones", "train", "gnugo", "card") and (Path(args.models_dir) / "index.json").exists():
        print(f"wrote {write_model_card(args.models_dir, args.cache_dir)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
