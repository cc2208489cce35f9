"""``python -m tengen.train.records build|assemble|summary|komi``: build the winner dataset, re-assemble its
checkpoints, print its summary, or survey the archives' komi (the evidence for `records.komi`)."""
from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from tengen.files import SharedDataMissing

from tengen.train.records.build import assemble, build
from tengen.train.records.store import CHUNK_SIZE, DATASET, dataset_dir, default_cache_dir


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run one command; prints the dataset's summary (or the komi survey)."""
    ap = argparse.ArgumentParser(prog="python -m tengen.train.records",
                                 description="Positions with known winners, built from the shared game archives.")
    ap.add_argument("command", choices=("build", "assemble", "summary", "komi"))
    ap.add_argument("--data-dir", type=Path, default=None,
                    help="folder with the *.tar.xz archives (default: the shared data's games/)")
    ap.add_argument("--cache-dir", type=Path, default=None,
                    help=f"datasets root; this dataset lives in <root>/{DATASET} (default {default_cache_dir()})")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--chunk-size", type=int, default=CHUNK_SIZE)
    ap.add_argument("--limit", type=int, default=None, help="only the first N files of each archive")
    ap.add_argument("--archives", nargs="*", default=None, help="only archives whose name contains one of these")
    ap.add_argument("--log", type=Path, default=None, help="also append the log to this file")
    ap.add_argument("--no-progress", action="store_true")
    args = ap.parse_args(argv)
    handlers: list[logging.Handler] = [logging.StreamHandler()]
    if args.log:
        handlers.append(logging.FileHandler(args.log))
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s", handlers=handlers)
    try:
        if args.command == "komi":
            from tengen.train.records.komi_survey import survey, survey_lines

            print("\n".join(survey_lines(survey(args.data_dir, args.workers))))
            return 0
        if args.command == "build":
            build(args.data_dir, args.cache_dir, args.workers, args.chunk_size, args.limit, args.archives,
                  progress=not args.no_progress)
    except SharedDataMissing as exc:  # no archives here: one line saying where tengen looked
        print(f"error: {exc}", file=sys.stderr)
        return 2
    root = dataset_dir(args.cache_dir)
    if args.command == "assemble":
        assemble(root)
    print((root / "summary.json").read_text() if (root / "summary.json").exists() else f"nothing built in {root}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
