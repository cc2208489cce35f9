"""The analysis on a GPU against the same machine's CPU, in one run: KataGo's network rows per second by batch
size (the network alone, and `evaluate` with its feature encoding), the local-move network's rows per second,
and whole-board `tengen analyze` seconds per position on the eleven positions of `bench/endgame_cost.py` (the
bundled example at move 170 and ten scored KGS games at ~80 % of their moves, seed 1), with the CLI's
defaults (predictor auto, leaves auto, trees 800 / 1000 nodes). Each device has its own networks (nothing
cached is shared, and each analysis starts with an empty ladder cache); every network of an analysis runs on
its evaluator's device. The positions alternate device by device, after one warm-up analysis per device
that is not counted. Answers (regions, counts, temperatures, types, best moves, the recommended move) are
compared between the devices, and with `--reference-model` against another network file on the CPU (the
float16-rounded copy a GPU call carries against the original).

Each analysis is what `tengen analyze` runs: `analyze_board`, its critical-group notes included (their own phase).
Where the time goes is printed by phase for each device (exclusive seconds per position; `host` is what is
not a network phase: Python tree growth, feature encoding, the exact solver, CGT), so that what stands
between the GPU's figure and 1 s is named by measurement.

    python bench/gpu_analysis.py [--devices cuda,cpu] [--games 10] [--seed 1]
        [--batches 1,8,32,128,512] [--cpu-batches 1,8,32] [--positions DIR] [--export DIR]

`--export DIR` writes the eleven records and `positions.json` (which move of each) for a machine without
../shared/data (a GPU machine: carry DIR and pass `--positions DIR`). The last line is
`gpu_seconds_per_position: X`; on a machine without CUDA it is `gpu_seconds_per_position: n/a (...)` and the
CPU figures still come.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from analysis_speed import differences  # noqa: E402
from endgame_cost import GAMES, REPO, late_positions  # noqa: E402

from tengen.endgame.analysis import analyze_board  # noqa: E402
from tengen.endgame.options import AnalysisOptions  # noqa: E402
from tengen.go.sgf import load_game  # noqa: E402
from tengen.phases import PhaseStat  # noqa: E402

# a phase whose last part is one of these runs a network ("critical groups": the life-and-death notes
# `tengen analyze` adds, KataGo one move deep on the groups whose life swings; timed as one phase)
NETWORK_PHASES = ("network", "localnet", "valuenet", "critical groups")


def positions(args) -> list[tuple[str, object]]:
    """(label, board): from `--positions DIR` (an export), else the example and the shared games."""
    if args.positions:
        folder = Path(args.positions)
        index = json.loads((folder / "positions.json").read_text())
        return [(row["label"], load_game(folder / row["file"]).board_at(row["move"], strict=False)) for row in index]
    out = [("example (move 170)", load_game(REPO / "src" / "tengen" / "data" / "example.sgf").board_at(170))]
    if not GAMES.exists():
        print(f"game archives not found under {GAMES}; the example only")
        return out
    return out + [(f"{name} (move {move})", board) for name, _, move, board in late_positions(args.games, args.seed)]


def export(args) -> int:
    """Write the positions' records and their index for a machine without the shared data."""
    folder = Path(args.export)
    folder.mkdir(parents=True, exist_ok=True)
    index = [{"label": "example (move 170)", "file": "example.sgf", "move": 170}]
    (folder / "example.sgf").write_bytes((REPO / "src" / "tengen" / "data" / "example.sgf").read_bytes())
    for i, (name, game, move, _) in enumerate(late_positions(args.games, args.seed)):
        from tengen.io.sgf_write import write_game

        file = f"game{i:02d}.sgf"
        write_game(game, folder / file)
        index.append({"label": f"{name} (move {move})", "file": file, "move": move})
    (folder / "positions.json").write_text(json.dumps(index, indent=1))
    print(f"{len(index)} positions written to {folder}")
    return 0


def machine_line(devices: list[str]) -> str:
    import torch

    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    gpu = torch.cuda.get_device_name(0) if "cuda" in devices else "none"
    return (f"machine: {cpu}, {os.cpu_count()} cores, torch {torch.__version__} with {torch.get_num_threads()} CPU "
            f"threads; GPU: {gpu}")


def best_rate(run, rows: int, min_seconds: float = 1.0, rounds: int = 3) -> float:
    """Rows per second of `run()`: the best of `rounds` timings, each repeating `run` for `min_seconds`
    (after one warm-up call; CUDA work is synchronised before each clock reading)."""
    import torch

    def sync():
        if torch.cuda.is_available():
            torch.cuda.synchronize()

    run()
    sync()
    best = 0.0
    for _ in range(rounds):
        start, done = time.perf_counter(), 0
        while True:
            run()
            done += rows
            sync()
            elapsed = time.perf_counter() - start
            if elapsed >= min_seconds:
                break
        best = max(best, done / elapsed)
    return best


def katago_rates(device: str, boards, batches: list[int], model=None) -> dict[int, tuple[float, float]]:
    """Per batch size: (network rows/s on encoded inputs, `evaluate` rows/s with encoding and decoding)."""
    import numpy as np
    import torch

    from tengen.eval.katago.evaluator import KataGoEvaluator

    evaluator = KataGoEvaluator(model, device=device, batch_size=max(batches))  # `evaluate` keeps no results
    encoded = [evaluator.encode(b) for b in boards]
    out = {}
    for size in batches:
        pick = [encoded[i % len(encoded)] for i in range(size)]
        spatial = torch.from_numpy(np.stack([e.spatial for e in pick]))
        global_ = torch.from_numpy(np.stack([e.global_ for e in pick]))
        net = best_rate(lambda: evaluator.run_network(spatial, global_), size)
        chosen = [boards[i % len(boards)] for i in range(size)]
        full = best_rate(lambda: evaluator.evaluate(chosen), size)
        out[size] = (net, full)
    return out


def localnet_rows(boards) -> list[dict]:
    """One local-move network row per position: its empty points as the region, the side to move's view."""
    from tengen.eval.localnet.compact import compact_row

    rows = []
    for board in boards:
        empty = [(r, c) for r in range(board.height) for c in range(board.width) if board.get((r, c)) == 0]
        rows.append(compact_row(board, empty, [], board.to_play))
    return rows


def localnet_rates(model, rows: list[dict], batches: list[int]) -> dict[int, float]:
    """The local-move network's rows per second by batch size (compact rows to probabilities, as the trees
    call it)."""
    from tengen.eval.localnet.compact import stack_rows
    from tengen.eval.localnet.infer import predict

    out = {}
    for size in batches:
        batch = stack_rows([rows[i % len(rows)] for i in range(size)])
        out[size] = best_rate(lambda: predict(model, batch, batch_size=size), size)
    return out


class DeviceRun:
    """The analyses on one device: its own KataGo evaluator (the other networks follow it), the seconds and
    the phases summed over the positions."""

    def __init__(self, device: str, model=None, label: str = ""):
        from tengen.eval.katago.evaluator import KataGoEvaluator

        self.device = label or device
        start = time.perf_counter()
        self.evaluator = KataGoEvaluator(model, device=device)
        self.load_seconds = time.perf_counter() - start
        self.options = AnalysisOptions().resolved(self.evaluator)
        self.seconds: list[float] = []
        self.phases: dict[str, PhaseStat] = {}
        self.events: Counter = Counter()

    def analyze(self, board, counted: bool = True):
        from tengen.eval.katago.ladder import LADDER_CACHE_SIZE, set_ladder_cache

        set_ladder_cache(LADDER_CACHE_SIZE)  # a fresh ladder cache: no device reads the ladders another read
        start = time.perf_counter()
        analysis = analyze_board(board, self.evaluator, self.options)  # its critical-group stage included
        seconds = time.perf_counter() - start
        if counted:
            self.seconds.append(seconds)
            for path, stat in analysis.phases.stats.items():
                self.phases.setdefault(path, PhaseStat()).add(stat)
            self.events.update(analysis.phases.events)
        return analysis, seconds

    def network_seconds(self) -> float:
        return sum(s.seconds for p, s in self.phases.items() if p.rsplit("/", 1)[-1] in NETWORK_PHASES)


def phase_table(runs: list[DeviceRun]) -> None:
    n = max(len(runs[0].seconds), 1)
    names = sorted(set().union(*(r.phases for r in runs)), key=lambda p: -runs[0].phases.get(p, PhaseStat()).seconds)
    print("\nper position (mean): exclusive seconds, calls and network rows by phase")
    print(f"{'phase':28s}" + "".join(f"{r.device + ' s':>16s}{'calls':>7s}{'rows':>7s}" for r in runs))
    for name in names:
        cells = []
        for r in runs:
            s = r.phases.get(name, PhaseStat())
            cells.append(f"{s.seconds / n:16.3f}{s.calls / n:7.1f}{s.rows / n:7.1f}")
        if any(r.phases.get(name, PhaseStat()).seconds / n >= 0.0005 for r in runs):
            print(f"{name:28s}" + "".join(cells))
    for r in runs:
        total = sum(r.seconds) / n
        net = r.network_seconds() / n
        print(f"{r.device}: {total:.3f} s per position = network phases {net:.3f} s + host {total - net:.3f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devices", default="cuda,cpu", help="devices to compare (default cuda,cpu)")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--batches", default="1,8,32,128,512", help="batch sizes timed on CUDA")
    parser.add_argument("--cpu-batches", default="1,8,32", help="batch sizes timed on the CPU")
    parser.add_argument("--positions", metavar="DIR", help="positions exported by --export (no shared data here)")
    parser.add_argument("--export", metavar="DIR", help="write the positions for another machine and stop")
    parser.add_argument("--model", help="KataGo network file (default: the cached default network), e.g. the "
                                        "float16-rounded copy a GPU call carries (`python -m tengen.eval.katago.transport`)")
    parser.add_argument("--reference-model", metavar="FILE",
                        help="also analyze every position on the CPU with this network ('default': the cached "
                             "default) and compare its answers with the first device's")
    args = parser.parse_args()
    if args.export:
        return export(args)
    import torch

    asked = [d.strip() for d in args.devices.split(",") if d.strip()]
    devices = [d for d in asked if d != "cuda" or torch.cuda.is_available()]
    missing = [d for d in asked if d not in devices]
    print(time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
    print(machine_line(devices))
    if missing:
        print(f"not measured: {', '.join(missing)} (this machine has no CUDA device; torch {torch.__version__})")
    print("settings: the CLI's defaults (predictor auto, leaves auto, trees 800 nodes / 1000 per position); "
          "KataGo fp32, one symmetry; every network of an analysis on its evaluator's device")
    from tengen.eval.katago import read_model

    desc = read_model(args.model) if args.model else None
    print(f"KataGo network: {args.model or 'the cached default'}"
          + (f" ({desc.name}, sha256 {desc.sha256[:12]})" if desc is not None else ""))
    chosen = positions(args)
    boards = [board for _, board in chosen]

    print("\nKataGo b10c384 rows/s by batch size: the network on encoded inputs / `evaluate` (encoding included)")
    for device in devices:
        sizes = [int(x) for x in (args.batches if device == "cuda" else args.cpu_batches).split(",")]
        rates = katago_rates(device, boards, sizes, args.model)
        print(f"  {device}: " + ", ".join(f"{s}: {net:.0f} / {full:.0f}" for s, (net, full) in rates.items()))

    print("\nlocal-move network rows/s by batch size (one row per position, its empty points as the region)")
    from tengen.eval.localnet.weights import default_weights, load_weights

    rows = localnet_rows(boards)
    for device in devices:
        model, _ = load_weights(default_weights(), device=device)
        sizes = [int(x) for x in (args.batches if device == "cuda" else args.cpu_batches).split(",")]
        rates = localnet_rates(model, rows, sizes)
        print(f"  {device}: " + ", ".join(f"{s}: {r:.0f}" for s, r in rates.items()))

    print("\nwhole-board analyses (seconds; the first position once more beforehand on each device, not counted)")
    runs = [DeviceRun(d, args.model) for d in devices]
    if args.reference_model:
        reference = None if args.reference_model == "default" else args.reference_model
        runs.append(DeviceRun("cpu", reference, label="cpu-reference"))
    for run in runs:
        run.analyze(boards[0], counted=False)
        print(f"  {run.device}: KataGo loaded in {run.load_seconds:.1f} s; predictor {run.options.predictor}, "
              f"leaves {run.options.leaf_scoring}")
    diffs: list[str] = []
    reference_diffs: list[str] = []
    for label, board in chosen:
        results = [run.analyze(board) for run in runs]
        print(f"{label}: {len(results[0][0].regions)} regions; "
              + ", ".join(f"{run.device} {seconds:.2f} s" for run, (_, seconds) in zip(runs, results)))
        for run, (analysis, _) in zip(runs[1:], results[1:]):
            found = differences(f"{label} {runs[0].device} vs {run.device}", results[0][0], analysis)
            (reference_diffs if run.device == "cpu-reference" else diffs).extend(found)
    phase_table(runs)
    for run in runs:
        deferred = {k: v for k, v in run.events.items() if k.startswith("leaves deferred")}
        if deferred:
            print(f"{run.device}: " + ", ".join(f"{k} {v / len(run.seconds):.1f}" for k, v in deferred.items())
                  + " per position")
    measured = [run for run in runs if run.device != "cpu-reference"]
    if len(measured) > 1:
        print("answers: identical on every position" if not diffs else
              f"answers: {len(diffs)} differences between the devices (floating-point order differs):")
        for line in diffs:
            print(f"  {line}")
    if args.reference_model:
        print(f"answers against the reference network ({args.reference_model}) on the CPU: "
              + ("identical on every position" if not reference_diffs else f"{len(reference_diffs)} differences:"))
        for line in reference_diffs:
            print(f"  {line}")
    for run in runs:
        print(f"{run.device} seconds per position: mean {sum(run.seconds) / len(run.seconds):.2f}, "
              f"max {max(run.seconds):.2f} ({len(run.seconds)} positions)")
    by_device = {run.device: sum(run.seconds) / len(run.seconds) for run in measured}
    if "cpu" in by_device and "cuda" in by_device:
        print(f"cpu / cuda: {by_device['cpu'] / by_device['cuda']:.2f}")
    if "cuda" in by_device:
        print(f"gpu_seconds_per_position: {by_device['cuda']:.2f}")
    else:
        print(f"gpu_seconds_per_position: n/a (no CUDA device on this machine; torch {torch.__version__})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
