"""`python -m tengen.train.localdata build|labels|stats`: build (or resume) the local-move dataset; gather its
KataGo labels; print its counts. (The solver-taught examples: `python -m tengen.train.localdata.lesson_shards`.)"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tengen.train.localdata.build import BuildConfig, build, dataset_dir
from tengen.train.localdata.games import DEFAULT_PHASES


def _phases(text: str) -> tuple[float, ...]:
    try:
        values = tuple(float(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError("phases are fractions such as 0.7,0.8,0.9") from None
    if not values or not all(0 < v < 1 for v in values):
        raise argparse.ArgumentTypeError("each phase must lie strictly between 0 and 1")
    return values


def _widths(text: str) -> tuple[int, ...]:
    try:
        values = tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise argparse.ArgumentTypeError("wall widths are whole numbers such as 2,3,4") from None
    if not values or not all(1 <= v <= 18 for v in values):
        raise argparse.ArgumentTypeError("each wall width must lie from 1 to 18")
    return values


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tengen.train.localdata", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="label late positions with KataGo and extract local-move examples")
    b.add_argument("--games", type=int, default=None, help="games to read in all (default: every listed game)")
    b.add_argument("--archives", default=None, help="comma-separated archive names (default: all present)")
    b.add_argument("--phases", type=_phases, default=DEFAULT_PHASES, help="late positions as fractions of the game")
    b.add_argument("--threshold", type=float, default=0.9, help="|ownership| below this is undecided")
    b.add_argument("--shard-games", type=int, default=500)
    b.add_argument("--workers", type=int, default=2, help="processes that parse, replay and extract")
    b.add_argument("--device", default="auto", help="where KataGo runs: auto, cpu, cuda")
    b.add_argument("--batch", type=int, default=64, help="KataGo batch size")
    b.add_argument("--model", default=None, help="KataGo model file (default: the cached default network)")
    b.add_argument("--time-budget", type=float, default=None, help="seconds; no shard starts after them")
    b.add_argument("--games-dir", type=Path, default=None, help="the games folder (default: shared data)")
    b.add_argument("--cache-dir", type=Path, default=None, help="dataset cache (default: ~/.cache/tengen/datasets)")
    b.add_argument("--labels", type=Path, default=None,
                   help="KataGo labels saved by an earlier build (`labels` command), a file or a folder of them "
                        "(labels/localnet): no network needed")
    b.add_argument("--label-missing", action="store_true",
                   help="with --labels: the games they lack are labelled by KataGo (a labelling run that continues "
                        "labels/localnet whatever order earlier runs took)")
    b.add_argument("--split", choices=["train", "val", "test"], default=None, help="build only this split's games")
    b.add_argument("--cutouts", type=_widths, default=(),
                   help="wall widths such as 2,3,4: each local sequence is also played on its cut-out diagram (the "
                        "region and the stones within that many points, on an empty board) at one of them")
    lab = sub.add_parser("labels", help="gather the built shards' KataGo labels into one file")
    lab.add_argument("out", type=Path)
    lab.add_argument("--cache-dir", type=Path, default=None)
    lab.add_argument("--exclude", type=Path, default=None,
                     help="leave out the games these labels (a file or a folder, e.g. labels/localnet) already hold")
    g = sub.add_parser("games", help="write the listed games' records as slim archives (for a GPU call)")
    g.add_argument("--out", type=Path, required=True, help="folder for the archives and the games list")
    g.add_argument("--archives", default=None, help="comma-separated archive names (default: all present)")
    g.add_argument("--games-dir", type=Path, default=None, help="the games folder (default: shared data)")
    s = sub.add_parser("stats", help="print the built dataset's counts as JSON")
    s.add_argument("--cache-dir", type=Path, default=None)
    args = parser.parse_args(argv)
    if args.command == "stats":
        from tengen.train.localdata.dataset import load

        _, stats = load(args.cache_dir)
        print(json.dumps(stats, indent=1))
        return 0
    if args.command == "games":
        return slim_games(args)
    if args.command == "labels":
        from tengen.train.localdata.build import labels_file

        try:
            out, games = labels_file(dataset_dir(args.cache_dir), args.out, args.exclude)
        except FileNotFoundError as exc:  # no shards, nothing new, or no labels at --exclude
            print(f"error: {exc}", file=sys.stderr)
            return 2
        print(f"{out}: {games} games")
        return 0
    if args.label_missing and args.labels is None:
        print("error: --label-missing goes with --labels", file=sys.stderr)
        return 2
    if args.labels is not None and not (args.labels.is_file() or any(args.labels.glob("*.npz"))):
        print(f"error: {args.labels}: no such labels file, nor a folder of them", file=sys.stderr)
        return 2
    cfg = BuildConfig(phases=args.phases, threshold=args.threshold, shard_games=max(1, args.shard_games),
                      limit=args.games, workers=max(1, args.workers), device=args.device, batch=max(1, args.batch),
                      model=args.model, time_budget=args.time_budget, games_dir=args.games_dir,
                      archives=tuple(args.archives.split(",")) if args.archives else None, labels=args.labels,
                      only_split=None if args.split is None else ("train", "val", "test").index(args.split),
                      cutouts=args.cutouts, label_missing=args.label_missing)
    from tqdm import tqdm

    from tengen.train.localdata.build import DatasetConfigMismatch

    bar = tqdm(total=args.games, unit="game", file=sys.stderr, desc="localdata")
    try:
        root = build(cfg, args.cache_dir, progress=bar.update)
    except DatasetConfigMismatch as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    finally:
        bar.close()
    from tengen.train.localdata.dataset import load

    _, stats = load(root=root)
    print(json.dumps({k: v for k, v in stats.items()}, indent=1))
    print(f"dataset: {root}")
    return 0


def slim_games(args: argparse.Namespace) -> int:
    """The finished-games list and, per archive, only its listed records: `--games-dir OUT` on a machine
    without the shared data builds the same dataset."""
    from tengen.train.archives import games_dir, write_slim_archive
    from tengen.train.localdata.games import FINISHED_LIST, finished_games

    source = args.games_dir or games_dir()
    listed = finished_games(source)
    chosen = [a for a in sorted(listed) if (args.archives is None or a in args.archives.split(","))
              and (source / a).exists()]
    args.out.mkdir(parents=True, exist_ok=True)
    lines = (source / FINISHED_LIST).read_text(encoding="utf-8").splitlines(keepends=True)
    (args.out / FINISHED_LIST).write_text(lines[0] + "".join(line for line in lines[1:]
                                                             if line.split("\t", 1)[0] in chosen), encoding="utf-8")
    for archive in chosen:
        written = write_slim_archive(source / archive, args.out / archive, set(listed[archive]))
        size = (args.out / archive).stat().st_size / 1e6
        print(f"{archive}: {written} of {len(listed[archive])} listed records, {size:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
