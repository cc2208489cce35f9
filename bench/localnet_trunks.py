"""The local-move network's trunk sizes on this CPU: parameters and milliseconds per row at the batch sizes the
trees use, for 6x64 (today's), 10x96 and 10x128, against the bar of 10 ms per row on 2 cores. Weights are
drawn at random (inference cost does not depend on training); the rows are the eleven positions of
`bench/endgame_cost.py`, each with its empty points as the region. The trunks alternate round by round so a
busy machine slows each alike; the best round counts.

    python bench/localnet_trunks.py [--trunks 6x64,10x96,10x128] [--batches 1,32,256] [--threads 2]

The last line is `trunks_under_10ms: LIST` (the trunks whose rows cost under 10 ms at batch 32, the size of a
tree level's call on a typical position).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gpu_analysis import best_rate, localnet_rows, positions  # noqa: E402

BAR_MS = 10.0
TYPICAL_BATCH = 32


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trunks", default="6x64,10x96,10x128", help="blocks x channels, comma-separated")
    parser.add_argument("--batches", default=f"1,{TYPICAL_BATCH},256")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    import torch

    from tengen.eval.localnet.compact import stack_rows
    from tengen.eval.localnet.infer import predict
    from tengen.eval.localnet.model import LocalMoveNet, NetConfig

    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    trunks = [tuple(int(x) for x in t.split("x")) for t in args.trunks.split(",")]
    batches = [int(b) for b in args.batches.split(",")]
    if TYPICAL_BATCH not in batches:
        parser.error(f"--batches must include {TYPICAL_BATCH}, the batch the last line reads")
    args.positions = None
    rows = localnet_rows([board for _, board in positions(args)])
    models = {t: LocalMoveNet(NetConfig(blocks=t[0], channels=t[1])).eval() for t in trunks}
    print(time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
    print(f"machine: {os.cpu_count()} cores, torch {torch.__version__} with {torch.get_num_threads()} threads; "
          f"{len(rows)} rows (one per position), random weights")
    best: dict[tuple, dict[int, float]] = {t: {b: 0.0 for b in batches} for t in trunks}
    for _ in range(args.rounds):
        for t, model in models.items():
            for b in batches:
                batch = stack_rows([rows[i % len(rows)] for i in range(b)])
                rate = best_rate(lambda: predict(model, batch, batch_size=b), b, min_seconds=0.5, rounds=1)
                best[t][b] = max(best[t][b], rate)
    under = []
    for t, model in models.items():
        params = sum(p.numel() for p in model.parameters())
        cells = ", ".join(f"batch {b}: {1000 / best[t][b]:.2f} ms/row" for b in batches)
        print(f"{t[0]}x{t[1]}: {params:,} parameters; {cells}")
        if 1000 / best[t][TYPICAL_BATCH] < BAR_MS:
            under.append(f"{t[0]}x{t[1]}")
    print(f"trunks_under_10ms: {','.join(under) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
