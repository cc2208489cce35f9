"""`tengen batch` scaling: the same job (real records from ../shared/data/games, the tiny network, `--what
eval`, one torch thread per worker) with the local pool at 1 and 2 workers and on a local Ray cluster of 2
workers; positions per second of each (steady: from the first finished chunk on, start-up excluded; and
overall), and their outputs compared byte for byte (games/*.jsonl and the annotated SGF).

    python bench/batch_scale.py                   # 60 records, turns every 25 moves and the last
    python bench/batch_scale.py --records 100 --every 20

Ray runs only where the `ray` package is installed (`pip install 'tengen[ray]'`); otherwise its line says
why it was skipped. Last line: `pool_speedup: X` (2 workers' steady rate / 1 worker's).
"""
from __future__ import annotations

import argparse
import filecmp
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tengen.train.archives import games_dir, iter_archive

ARCHIVES = ("pro_aeb_gosei-kifu_71934.tar.xz", "tom_9d_yenw_50956_sgf.tar.xz", "kgs_6d_godmoves_36692.tar.xz",
            "fox_pro_featurecat_10348.tar.xz", "yenw_ai_7259_sgf.tar.xz")


def extract(folder: Path, records: int) -> None:
    per = -(-records // len(ARCHIVES))
    n = 0
    for archive in ARCHIVES:
        for _, data in iter_archive(games_dir() / archive, every=41, limit=per):
            if n < records:
                (folder / f"rec-{n:03d}.sgf").write_bytes(data)
                n += 1


def run(folder: Path, out: Path, every: int, workers: int, ray: bool) -> dict:
    cmd = [sys.executable, "-m", "tengen", "batch", str(folder), "--out", str(out), "--model", "tiny", "--what",
           "eval", "--turns", f"every:{every},last", "--workers", str(workers), "--threads", "1", "--no-progress"]
    if ray:
        cmd += ["--ray", "local"]
    env = {**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    t0 = time.time()
    done = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        sys.exit(f"batch_scale: {' '.join(cmd)} failed: {done.stderr.strip()[-500:]}")
    summary = json.loads((out / "summary.json").read_text())
    summary["wall"] = time.time() - t0
    return summary


def same_outputs(a: Path, b: Path) -> tuple[int, int]:
    """(files compared, files that differ) between two runs' games/ folders."""
    names = sorted(p.name for p in (a / "games").iterdir())
    if names != sorted(p.name for p in (b / "games").iterdir()):
        return len(names), len(names)
    _, mismatch, errors = filecmp.cmpfiles(a / "games", b / "games", names, shallow=False)
    return len(names), len(mismatch) + len(errors)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=60)
    parser.add_argument("--every", type=int, default=25)
    args = parser.parse_args()
    print(f"cpus: {os.cpu_count()}, load average {os.getloadavg()[0]:.2f} (other work on the machine slows "
          "every run)")
    with tempfile.TemporaryDirectory(prefix="tengen-batch-scale-") as tmp:
        folder = Path(tmp) / "records"
        folder.mkdir()
        extract(folder, args.records)
        runs = [("pool, 1 worker", 1, False), ("pool, 2 workers", 2, False), ("ray local, 2 workers", 2, True)]
        results: dict[str, dict] = {}
        first_out = None
        for label, workers, ray in runs:
            if ray and importlib.util.find_spec("ray") is None:
                print(f"{label:22s}: skipped: the ray package is not installed (pip install 'tengen[ray]')")
                continue
            out = Path(tmp) / label.replace(" ", "").replace(",", "-")
            s = run(folder, out, args.every, workers, ray)
            results[label] = s
            compared = ""
            if first_out is None:
                first_out = out
            else:
                n, differ = same_outputs(first_out, out)
                compared = f"; outputs vs 1 worker: {n - differ}/{n} files identical"
            print(f"{label:22s}: {s['computed']} positions, steady {s['steady_positions_per_second']:.1f} pos/s, "
                  f"overall {s['positions_per_second']:.1f} pos/s ({s['wall']:.1f} s with start-up){compared}")
        one = results["pool, 1 worker"]["steady_positions_per_second"]
        two = results["pool, 2 workers"]["steady_positions_per_second"]
        print(f"pool_speedup: {two / one:.2f}")


if __name__ == "__main__":
    main()
