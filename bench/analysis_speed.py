"""Where a whole-board analysis spends its time, by phase, on sixteen fixed positions; the path before
issue 46 and today's, side by side in one run (issue 46).

Positions: the eleven of `bench/endgame_cost.py` (the bundled example at move 170 and ten scored KGS games
at ~80 % of their moves, seed 1) and five professional records of the finished-games list (Brouwer
collection, at least 240 moves) at a seeded move from 180 to 220.
Settings: the CLI's defaults (`tengen analyze`: predictor auto, trees of 800 nodes and 1000 per position,
leaves by the value network where its weights exist and by KataGo where it is unsure, the move check).
Paths: `before` scores each region's leaves in its own batches, reads every position's ladders afresh and
runs KataGo in batches of 16; `after` scores every region's leaves together, remembers ladder maps and runs
KataGo in batches of 8 on the CPU. Each path has its own networks (no evaluation shared), the two alternate
position by position (a busy machine slows both alike), and their regions, counts, temperatures and moves
are compared: any difference is listed.
Phases (exclusive seconds; `a/b` is b inside a): ownership (the root's two KataGo evaluations), regions,
exact solver, trees (growth; `trees/localnet` the local-move network), leaves (`leaves/valuenet`,
`leaves/katago/encode` and `/network`: the leaves the value network defers), cgt, move check; report is
the text report. Deferrals are counted by cause.
Usage: python bench/analysis_speed.py [--games 10] [--pros 5] [--seed 1] [--threads N]
"""
from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from endgame_cost import GAMES, PRO_ARCHIVE, REPO, late_positions, listed, records  # noqa: E402

from tengen.endgame.analysis import analyze_board  # noqa: E402
from tengen.endgame.options import AnalysisOptions  # noqa: E402
from tengen.go.sgf import load_game  # noqa: E402
from tengen.io.report import text_report  # noqa: E402
from tengen.phases import PhaseStat  # noqa: E402

def pro_positions(n: int, seed: int):
    """(label, board) of `n` professional records of at least 240 moves, each at a seeded move 180-220."""
    rng = random.Random(seed)
    wanted = {row[1]: rng.randint(180, 220) for row in rng.sample(listed(PRO_ARCHIVE, 240), n)}
    return [(f"{game.source} (move {wanted[game.source]})", game.board_at(wanted[game.source], strict=False))
            for game in records(GAMES / PRO_ARCHIVE, set(wanted))]


class Path_:
    """One way of running the analysis: its options, its own KataGo evaluator, its ladder-cache setting."""

    def __init__(self, name: str, options, batch_size: int, ladder_cache: int, threads):
        from tengen.eval.katago.evaluator import KataGoEvaluator

        self.name, self.options, self.ladder_cache = name, options, ladder_cache
        start = time.perf_counter()
        self.evaluator = KataGoEvaluator(threads=threads, batch_size=batch_size)
        self.load_seconds = time.perf_counter() - start
        self.phases: dict[str, PhaseStat] = {}
        self.events: Counter = Counter()
        self.seconds: list[float] = []

    def analyze(self, board):
        from tengen.eval.katago.ladder import set_ladder_cache

        set_ladder_cache(self.ladder_cache)
        start = time.perf_counter()
        analysis = analyze_board(board, self.evaluator, self.options)
        report_start = time.perf_counter()
        text_report(analysis)
        report = time.perf_counter() - report_start
        self.seconds.append(time.perf_counter() - start)
        for path, stat in list(analysis.phases.stats.items()) + [("report", PhaseStat(report, 1, 0))]:
            self.phases.setdefault(path, PhaseStat()).add(stat)
        self.events.update(analysis.phases.events)
        return analysis


def summary(analysis) -> list[tuple]:
    """What a player reads off an analysis: per region its points, count, temperature, type and best moves;
    then the recommended move."""
    rows = [(tuple(sorted(r.region.points)), r.count, r.temperature, r.kind, r.best_black, r.best_white)
            for r in analysis.regions]
    return rows + [("recommended", analysis.recommended)]


def differences(label: str, before, after) -> list[str]:
    a, b = summary(before), summary(after)
    if a == b:
        return []
    if len(a) != len(b):
        return [f"{label}: {len(a) - 1} regions before, {len(b) - 1} after"]
    return [f"{label}: {x} -> {y}" for x, y in zip(a, b) if x != y]


def batch_sweep(evaluator, boards, sizes=(1, 4, 8, 16, 32), rounds: int = 2) -> None:
    """KataGo's network rows per second by batch size on these positions (each with both colours to move,
    encoded once; the sizes alternate `rounds` times so a busy machine slows each alike)."""
    import numpy as np
    import torch

    encoded = []
    for board in boards:
        for color in (1, -1):
            copy = board.copy()
            copy.to_play = color
            encoded.append(evaluator.encode(copy))
    spatial = torch.from_numpy(np.stack([e.spatial for e in encoded]))
    global_ = torch.from_numpy(np.stack([e.global_ for e in encoded]))
    evaluator.run_network(spatial[:2], global_[:2])  # warm-up
    rates: dict[int, list[float]] = {size: [] for size in sizes}
    for _ in range(rounds):
        for size in sizes:
            start = time.perf_counter()
            for first in range(0, len(encoded), size):
                evaluator.run_network(spatial[first:first + size], global_[first:first + size])
            rates[size].append(len(encoded) / (time.perf_counter() - start))
    print(f"KataGo network rows/s by batch size ({len(encoded)} rows: the positions, each colour to move; best of "
          f"{rounds}): " + ", ".join(f"{size}: {max(r):.1f}" for size, r in rates.items()))


def _rate(run, rows: int, rounds: int = 3) -> float:
    """Best rows per second of `run()` over `rounds` timed calls (after one warm-up)."""
    run()
    best = 0.0
    for _ in range(rounds):
        start = time.perf_counter()
        run()
        best = max(best, rows / (time.perf_counter() - start))
    return best


def kernel_variants(evaluator, boards, analyses) -> None:
    """Kernel choices measured on these positions, each beside the path in use and with its largest output
    difference: KataGo with channels-last memory at batch 8; the local-move network traced and frozen by
    TorchScript (which folds its batch norms into the convolutions) on the regions' root rows."""
    import numpy as np
    import torch

    from tengen.eval.localnet.compact import compact_row, stack_rows
    from tengen.eval.localnet.planes import build_planes, legal_mask, tensors
    from tengen.eval.localnet.weights import default_weights, load_weights

    encoded = [evaluator.encode(board) for board in boards]
    spatial = torch.from_numpy(np.stack([e.spatial for e in encoded]))[:8]
    global_ = torch.from_numpy(np.stack([e.global_ for e in encoded]))[:8]
    net = evaluator.net
    with torch.inference_mode():
        plain = net(spatial, global_)
        eager = _rate(lambda: net(spatial, global_), len(spatial))
        net.to(memory_format=torch.channels_last)
        changed = max(float((a - b).abs().max()) for a, b in zip(plain, net(spatial, global_)))
        channels_last = _rate(lambda: net(spatial, global_), len(spatial))
        net.to(memory_format=torch.contiguous_format)
    print(f"KataGo rows/s at batch 8: eager {eager:.1f}, channels-last {channels_last:.1f} (largest output "
          f"change {changed:.1e})")
    if default_weights() is None:
        return
    model, _ = load_weights(default_weights())
    rows = [compact_row(a.board, r.region.points, (), a.board.to_play) for a in analyses for r in a.regions]
    t = tensors(stack_rows(rows[:256]))
    planes, mask = build_planes(t), legal_mask(t)
    with torch.inference_mode():
        reference = model(planes, mask)
        frozen = torch.jit.freeze(torch.jit.trace(model.eval(), (planes, mask), check_trace=False))
        changed = max(float((a - b).abs().max()) for a, b in zip(reference, frozen(planes, mask)))
        print(f"local-move network rows/s ({len(planes)} root rows): eager {_rate(lambda: model(planes, mask), len(planes)):.0f}, "
              f"TorchScript frozen {_rate(lambda: frozen(planes, mask), len(planes)):.0f} (largest logit change "
              f"{changed:.1e})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="KGS positions of endgame_cost.py (default 10)")
    parser.add_argument("--pros", type=int, default=5, help="professional positions (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=None, help="torch CPU threads (default: torch's, the cores)")
    args = parser.parse_args()
    import torch

    from tengen.eval.katago.ladder import LADDER_CACHE_SIZE

    options = AnalysisOptions(life_groups=0).resolved()  # the regions' analysis, as measured before it had a life stage
    paths = [Path_("before", replace(options, leaf_batches="region"), 16, 0, args.threads),
             Path_("after", options, None, LADDER_CACHE_SIZE, args.threads)]
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, torch {torch.__version__} with "
          f"{torch.get_num_threads()} threads; settings: the CLI's defaults (predictor {options.predictor}, leaves "
          f"{options.leaf_scoring}, trees {options.growth.max_nodes} nodes / {options.growth.max_total_nodes} per "
          f"position); KataGo batch: before {paths[0].evaluator.batch_size}, after {paths[1].evaluator.batch_size}")
    positions = [("example (move 170)", load_game(REPO / "src" / "tengen" / "data" / "example.sgf").board_at(170))]
    if GAMES.exists():
        positions += [(f"{name} (move {move})", board) for name, _, move, board in late_positions(args.games, args.seed)]
        positions += pro_positions(args.pros, args.seed)
    else:
        print(f"game archives not found under {GAMES}; the example only")
    diffs: list[str] = []
    analyses = []
    for label, board in positions:
        done = {path.name: path.analyze(board) for path in paths}
        analyses.append(done["after"])
        before, after = done["before"], done["after"]
        diffs += differences(label, before, after)
        print(f"{label}: {len(after.regions)} regions; before {paths[0].seconds[-1]:.1f} s, {before.evaluations} "
              f"KataGo evaluations; after {paths[1].seconds[-1]:.1f} s, {after.evaluations} evaluations", flush=True)
    n = len(positions)
    print(f"\nper position (mean of {n}): seconds, calls, network rows by phase")
    names = sorted(set(paths[0].phases) | set(paths[1].phases), key=lambda p: -paths[1].phases.get(p, PhaseStat()).seconds)
    print(f"{'phase':28s} {'before s':>9s} {'calls':>6s} {'rows':>6s}   {'after s':>8s} {'calls':>6s} {'rows':>6s}")
    for name in names:
        b, a = paths[0].phases.get(name, PhaseStat()), paths[1].phases.get(name, PhaseStat())
        print(f"{name:28s} {b.seconds / n:9.2f} {b.calls / n:6.1f} {b.rows / n:6.1f}   "
              f"{a.seconds / n:8.2f} {a.calls / n:6.1f} {a.rows / n:6.1f}")
    for path in paths:
        print(f"{path.name}: KataGo load {path.load_seconds:.1f} s (once; not in the figures)")
    events = paths[1].events
    print("why leaves go to KataGo (per position): " + ", ".join(
        f"{event} {count / n:.1f}" for event, count in sorted(events.items()) if not event.startswith("doubtful")))
    print("what the doubtful points of deferred leaves are (per position): " + ", ".join(
        f"{event[len('doubtful point: '):]} {count / n:.1f}" for event, count in sorted(events.items())
        if event.startswith("doubtful point: ")))
    print("where they lie (per position): " + ", ".join(
        f"{event[len('doubtful point '):]} {count / n:.1f}" for event, count in sorted(events.items())
        if event.startswith("doubtful point at")))
    batch_sweep(paths[1].evaluator, [board for _, board in positions])
    kernel_variants(paths[1].evaluator, [board for _, board in positions], analyses)
    print(f"answers: {'identical on every position' if not diffs else f'{len(diffs)} difference(s)'}")
    for line in diffs:
        print(f"  {line}")
    means = {path.name: sum(path.seconds) / n for path in paths}
    print(f"seconds per position (analysis and report): before {means['before']:.2f}, after {means['after']:.2f}; "
          f"max after {max(paths[1].seconds):.1f}")
    print(f"seconds_per_position: {means['after']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
