"""What a user with one GPU gets from batch analysis: `tengen batch --what endgame --turns last:60` over 200
scored game records (the KGS records of the finished-games list, seeded draw), on a device with N worker
processes, bounded to `--positions` positions (the job resumes: a later run with the same --out continues).
Prints the records, positions done, seconds, positions per second once the workers run, and the seconds per
position a user waits per worker count; the last line is `batch_seconds_per_position: X` (wall seconds per
position of the steady rate, all workers together).

    python bench/gpu_batch.py [--device cuda] [--workers 4] [--positions 200] [--games 200] [--seed 1]
        [--records DIR] [--export DIR] [--out DIR] [--model FILE]

`--export DIR` writes the chosen records for a machine without ../shared/data (then `--records DIR` there).
The same job from the command line: `tengen batch DIR --what endgame --turns last:60 --device cuda
--workers N --out OUT`.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import tarfile
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from endgame_cost import GAMES  # noqa: E402

from tengen.batch.jobs import BatchError, JobSettings  # noqa: E402
from tengen.batch.runner import run_batch  # noqa: E402

KGS_ARCHIVE = "kgs_6d_godmoves_36692.tar.xz"


def chosen_records(games: int, seed: int) -> list[tuple[str, bytes]]:
    """`games` KGS records of the finished-games list (seeded draw), as (name, bytes) in archive order."""
    rows = [line.split("\t") for line in (GAMES / "finished_19x19_scored_games.txt").read_text().splitlines()[1:]
            if line.startswith(KGS_ARCHIVE)]
    wanted = {row[1] for row in random.Random(seed).sample(rows, games)}
    out = []
    with tarfile.open(GAMES / KGS_ARCHIVE, "r:xz") as tar:
        for member in tar:
            if member.name in wanted:
                out.append((member.name, tar.extractfile(member).read()))
    return out


def export(folder: Path, games: int, seed: int) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in chosen_records(games, seed):
        (folder / name.replace("/", "_")).write_bytes(data)
    return folder


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cuda", choices=("cpu", "cuda", "auto"))
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--positions", type=int, default=200, help="stop after this many positions (the job resumes)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--turns", default="last:60")
    parser.add_argument("--records", metavar="DIR", help="records exported by --export (no shared data here)")
    parser.add_argument("--export", metavar="DIR", help="write the chosen records for another machine and stop")
    parser.add_argument("--model", help="KataGo network file (default: the cached default network)")
    parser.add_argument("--out", metavar="DIR", help="the batch's output folder (default: a fresh temporary one)")
    args = parser.parse_args()
    if args.export:
        print(f"{len(list(export(Path(args.export), args.games, args.seed).iterdir()))} records in {args.export}")
        return 0
    if args.records:
        records = Path(args.records)
    elif GAMES.exists():
        records = export(Path(tempfile.mkdtemp(prefix="gpu-batch-records-")), args.games, args.seed)
    else:
        print("no records: ../shared/data/games is absent here and --records was not given")
        return 2
    out = args.out or tempfile.mkdtemp(prefix="gpu-batch-out-")
    import torch

    print(time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
    gpu = torch.cuda.get_device_name(0) if torch.cuda.is_available() else "none"
    print(f"machine: {os.cpu_count()} cores, torch {torch.__version__}, GPU: {gpu}; device {args.device}, "
          f"{args.workers} workers, 1 torch thread each")
    print(f"job: tengen batch {records} --what endgame --turns {args.turns} --device {args.device} "
          f"{'--model ' + args.model + ' ' if args.model else ''}"
          f"--workers {args.workers} --out {out}; bounded to {args.positions} positions")
    settings = JobSettings(what="endgame", turns=args.turns, maps=False, model=args.model)
    try:
        summary = run_batch([str(records)], out, settings, workers=args.workers, threads=1, progress=False,
                            stop_after=args.positions, device=args.device, log=lambda line: None)
    except BatchError as exc:
        print(f"batch refused: {exc}")
        print("batch_seconds_per_position: n/a (the batch did not run)")
        return 2
    print(f"records {summary.files} ({len(summary.skipped)} skipped), positions in the job {summary.units}, "
          f"done before {summary.done_before}, now {summary.computed} ({summary.errors} not analyzed) "
          f"in {summary.seconds:.1f} s")
    print(f"positions/s: {summary.positions_per_second:.2f} overall, {summary.steady_positions_per_second:.2f} once "
          f"the workers run")
    steady = summary.steady_positions_per_second or summary.positions_per_second
    if steady <= 0:
        print("batch_seconds_per_position: n/a (no position was analyzed)")
        return 1
    print(f"batch_seconds_per_position: {1 / steady:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
