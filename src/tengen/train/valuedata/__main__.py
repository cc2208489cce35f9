"""`python -m tengen.train.valuedata pack|build|stats`: the games pack, the value dataset built from it, and
its counts."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tengen.train.valuedata", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("pack", help="parse the finished games into the games pack")
    p.add_argument("--games-dir", type=Path, default=None, help="the games folder (default: shared data)")
    p.add_argument("--out", type=Path, default=None, help="pack file (default: in the dataset cache)")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--limit", type=int, default=None, help="games in all (default: every listed game)")
    b = sub.add_parser("build", help="sample positions from the pack and label them (KataGo where asked)")
    b.add_argument("--positions", type=int, default=16, help="positions per game")
    b.add_argument("--shard-games", type=int, default=2000)
    b.add_argument("--workers", type=int, default=2, help="processes that replay and encode")
    b.add_argument("--device", default="auto", help="where KataGo runs: auto, cpu, cuda")
    b.add_argument("--batch", type=int, default=256, help="KataGo batch size")
    b.add_argument("--model", default=None, help="KataGo model file (default: the cached default network)")
    b.add_argument("--no-kata", action="store_true", help="game results only: no KataGo labels (no network)")
    b.add_argument("--time-budget", type=float, default=None, help="seconds; no shard starts after them")
    b.add_argument("--games", type=int, default=None, help="games of the pack to use (from --start)")
    b.add_argument("--start", type=int, default=0, help="the pack's first game to use")
    b.add_argument("--pack", type=Path, default=None, help="the games pack (default: in the dataset cache)")
    b.add_argument("--cache-dir", type=Path, default=None, help="dataset cache (default: ~/.cache/tengen/datasets)")
    s = sub.add_parser("stats", help="print the built dataset's counts as JSON")
    s.add_argument("--cache-dir", type=Path, default=None)
    args = parser.parse_args(argv)
    if args.command == "stats":
        from tengen.train.valuedata.dataset import load, summary_json

        print(summary_json(load(args.cache_dir)))
        return 0
    if args.command == "build":
        from tqdm import tqdm

        from tengen.train.valuedata.build import ValueBuildConfig, build
        from tengen.train.valuedata.dataset import load, summary_json
        from tengen.train.valuedata.pack import pack_path

        pack = args.pack or pack_path(args.cache_dir)
        if not pack.is_file():
            print(f"error: {pack}: no games pack; run `python -m tengen.train.valuedata pack` first", file=sys.stderr)
            return 2
        cfg = ValueBuildConfig(positions_per_game=max(1, args.positions), shard_games=max(1, args.shard_games),
                               workers=max(1, args.workers), device=args.device, batch=max(1, args.batch),
                               model=args.model, label=not args.no_kata, time_budget=args.time_budget,
                               limit=args.games, start=args.start, pack=pack)
        bar = tqdm(total=args.games, unit="game", file=sys.stderr, desc="valuedata")
        try:
            root = build(cfg, args.cache_dir, progress=bar.update)
        finally:
            bar.close()
        print(summary_json(load(root=root)))
        print(f"dataset: {root}")
        return 0
    if args.command == "pack":
        from tqdm import tqdm

        from tengen.train.archives import games_dir
        from tengen.train.valuedata.pack import build_pack, pack_path

        out = args.out or pack_path()
        bar = tqdm(total=args.limit or 47810, unit="game", file=sys.stderr, desc="pack")
        try:
            counts = build_pack(args.games_dir or games_dir(), out, args.workers, args.limit, progress=bar.update)
        finally:
            bar.close()
        print(json.dumps(counts, indent=1))
        print(f"pack: {out}")
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main())
