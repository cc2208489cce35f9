"""`tengen batch` survives kills: 200 real records from ../shared/data/games (40 from each archive, extracted
into a temporary folder), evaluated with the tiny network at a few turns per game by `tengen batch` as a
subprocess, killed with SIGKILL at three random points and restarted until it finishes. Then the outputs
(games/*.jsonl) are compared with the full unit list, computed here independently (each record read with
`tengen.go.sgf.load_game`, the turns every 50 moves and the last).

    python bench/batch_resume.py                  # 200 records, 2 workers, seed 1
    python bench/batch_resume.py --records 50 --seed 7

Last line: `lost: N duplicated: M` (results missing from the outputs; results written more than once).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from tengen.go.sgf import SgfError, load_game
from tengen.train.archives import games_dir, iter_archive

ARCHIVES = ("pro_aeb_gosei-kifu_71934.tar.xz", "tom_9d_yenw_50956_sgf.tar.xz", "kgs_6d_godmoves_36692.tar.xz",
            "fox_pro_featurecat_10348.tar.xz", "yenw_ai_7259_sgf.tar.xz")
EVERY = 50
MAX_MOVES = 1000  # the job's --max-moves (its default)


def extract(folder: Path, records: int) -> list[Path]:
    """`records` SGF files spread over the archives (every 37th member), written as rec-NNN.sgf."""
    per = -(-records // len(ARCHIVES))
    paths: list[Path] = []
    for archive in ARCHIVES:
        for _, data in iter_archive(games_dir() / archive, every=37, limit=per):
            if len(paths) == records:
                break
            path = folder / f"rec-{len(paths):03d}.sgf"
            path.write_bytes(data)
            paths.append(path)
    return paths


def expected_units(paths: list[Path]) -> tuple[set[tuple[str, int]], set[str]]:
    """(file, turn) of every unit the job owes, and the records it must skip, read independently."""
    units: set[tuple[str, int]] = set()
    skipped: set[str] = set()
    for path in paths:
        try:
            moves = len(load_game(path).moves)
        except SgfError:
            skipped.add(str(path))
            continue
        if moves > MAX_MOVES:
            skipped.add(str(path))
            continue
        units.update((str(path), t) for t in set(range(EVERY, moves + 1, EVERY)) | {moves})
    return units, skipped


class JournalWatch:
    """Counts the journal's unit lines, reading only what was appended since the last look."""

    def __init__(self, path: Path):
        self.path, self.offset, self.count = path, 0, 0

    def units(self) -> int:
        try:
            with open(self.path, "rb") as fh:
                size = os.fstat(fh.fileno()).st_size
                if size < self.offset:  # a torn line was cut off on restart: count afresh
                    self.offset, self.count = 0, 0
                fh.seek(self.offset)
                data = fh.read()
        except FileNotFoundError:
            return 0
        cut = data.rfind(b"\n") + 1
        self.count += data[:cut].count(b'{"unit"')
        self.offset += cut
        return self.count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=200)
    parser.add_argument("--kills", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="tengen-batch-resume-") as tmp:
        folder, out = Path(tmp) / "records", Path(tmp) / "out"
        folder.mkdir()
        t0 = time.time()
        paths = extract(folder, args.records)
        units, skipped = expected_units(paths)
        print(f"records: {len(paths)} extracted ({time.time() - t0:.1f} s); expected: {len(units)} positions, "
              f"{len(skipped)} records to skip")
        cmd = [sys.executable, "-m", "tengen", "batch", str(folder), "--out", str(out), "--model", "tiny",
               "--what", "eval", "--turns", f"every:{EVERY},last", "--workers", str(args.workers), "--chunk", "2",
               "--no-progress"]
        targets = sorted(rng.uniform(0.05, 0.9) * len(units) for _ in range(args.kills))
        env = {**os.environ, "OMP_NUM_THREADS": "1"}
        runs = 0
        watch = JournalWatch(out / "journal.jsonl")
        t0 = time.time()
        for target in targets + [None]:
            runs += 1
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
                                    start_new_session=True)
            if target is None:
                stdout, _ = proc.communicate()
                print(f"run {runs}: finished (exit {proc.returncode}): {stdout.decode().strip()}")
                break
            while proc.poll() is None and watch.units() < target:
                time.sleep(0.02)
            time.sleep(rng.uniform(0.0, 0.3))  # land anywhere: between lines, mid-write, mid-output
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
                proc.wait()
                print(f"run {runs}: SIGKILL with {watch.units()}/{len(units)} positions journaled")
            else:
                print(f"run {runs}: finished before its kill (exit {proc.returncode})")
            time.sleep(1.0)  # orphaned workers notice their parent is gone and exit
            try:
                os.killpg(proc.pid, signal.SIGKILL)  # any left (none expected) are this bench's own
            except ProcessLookupError:
                pass
        print(f"{runs} runs, {time.time() - t0:.1f} s")
        found: Counter[tuple[str, int]] = Counter()
        for jsonl in (out / "games").glob("*.jsonl"):
            for line in jsonl.read_text().splitlines():
                entry = json.loads(line)
                if "result" in entry:
                    found[(entry["file"], entry["turn"])] += 1
        journal: Counter[str] = Counter(json.loads(line)["unit"] for line in
                                        (out / "journal.jsonl").read_text().splitlines() if '"unit"' in line)
        summary = json.loads((out / "summary.json").read_text())
        reported = {s["file"] for s in summary["skipped"]}
        lost = len(units - set(found))
        duplicated = sum(n - 1 for n in found.values() if n > 1) + sum(n - 1 for n in journal.values() if n > 1)
        extra = len(set(found) - units)
        print(f"outputs: {sum(found.values())} results in {len(list((out / 'games').glob('*.jsonl')))} games, "
              f"{extra} not expected; skipped records reported {len(reported)}, expected {len(skipped)} "
              f"({'same' if reported == skipped else 'DIFFERENT'}); errors {summary['errors']}")
        print(f"lost: {lost} duplicated: {duplicated}")


if __name__ == "__main__":
    main()
