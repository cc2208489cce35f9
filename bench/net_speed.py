"""How fast does tengen run the default KataGo network, and how close to the machine's limit?

Measures evaluations/s at batch 1, 16 and 64 and, in the same run, the machine's fp32 matrix-multiply
rate through torch (2048^3 GEMMs, measured right before and right after every timed network round).
Achieved GFLOP/s = network FLOPs per evaluation x evaluations/s; efficiency = achieved / GEMM rate, the
median over rounds of these paired ratios (robust on a machine shared with other jobs), at batch 16 in
the default mode (fp32, eager). Other modes (bf16 autocast, torch.compile) are timed the same way and
compared with fp32 on a fixed set of positions (and with KataGo's own outputs when the golden file
tests/data/katago/golden.json is present): win rate, lead, policy, ownership sign changes.

    python bench/net_speed.py [--threads 2] [--modes fp32,fp32-subnormal,bf16,compile,compile-bf16] [--rounds 5]

Mode fp32-subnormal is the anchor for the subnormal-weight flush: the same network with the model file's
subnormal weights kept as they are (tengen flushes them to zero when it builds a network: every product
with one is slow on CPUs without flush-to-zero). The run prints how many the model holds.

The last line is `efficiency: E`.
"""
from __future__ import annotations

import argparse
import json
from contextlib import nullcontext
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # before torch starts its OpenMP pool

import numpy as np  # noqa: E402
import torch  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from tengen.eval.katago import KataGoEvaluator, read_model  # noqa: E402
from tengen.eval.katago.network import network_flops, subnormal_weights_kept  # noqa: E402
from tengen.go import Board, Rules  # noqa: E402
from tengen.go.playout import play_uniform_random  # noqa: E402

GOLDEN = REPO / "tests" / "data" / "katago" / "golden.json"


def gemm_gflops(size: int = 2048, seconds: float = 0.6) -> float:
    """fp32 torch.mm rate (GFLOP/s): the best of the products that fit in `seconds` (at least 2)."""
    a, b = torch.randn(size, size), torch.randn(size, size)
    torch.mm(a, b)
    best, spent, reps = float("inf"), 0.0, 0
    while reps < 2 or spent < seconds:
        t = time.perf_counter()
        torch.mm(a, b)
        dt = time.perf_counter() - t
        best, spent, reps = min(best, dt), spent + dt, reps + 1
    return 2.0 * size ** 3 / best / 1e9


def sample_positions(n: int = 12, seed: int = 7) -> list[Board]:
    """Positions from seeded random games (quiet, legal), sizes 19, 13 and 9, early to late."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        size = (19, 19, 13, 9)[i % 4]
        board = Board(size, rules=Rules.chinese() if i % 3 else Rules.japanese())
        play_uniform_random(board, rng, int(rng.integers(0, int(size * size * 0.7))))
        out.append(board)
    return out


def time_batches(ev: KataGoEvaluator, board: Board, batches: list[int], rounds: int, flops: float,
                 peaks: list[float]) -> tuple[dict[int, float], dict[int, float]]:
    """Evaluations/s per batch size (best round) and efficiency per batch size: the median over rounds of
    achieved GFLOP/s / fp32 GEMM GFLOP/s, the GEMM measured right before and after each round (a machine
    shared with other jobs changes speed from minute to minute; the pairs change together)."""
    enc = ev.encode(board)
    rates, effs = {}, {}
    for bs in batches:
        sp = torch.from_numpy(np.repeat(enc.spatial[None], bs, 0))
        gl = torch.from_numpy(np.repeat(enc.global_[None], bs, 0))
        ev.run_network(sp, gl)  # warm-up (and compilation)
        best, ratios = float("inf"), []
        for _ in range(rounds):
            before = gemm_gflops()
            t = time.perf_counter()
            ev.run_network(sp, gl)
            dt = time.perf_counter() - t
            after = gemm_gflops()
            peaks += [before, after]
            best = min(best, dt)
            ratios.append(bs * flops / dt / 1e9 / ((before + after) / 2))
        rates[bs] = bs / best
        effs[bs] = float(np.median(ratios))
    return rates, effs


def compare(reference: list, other: list) -> dict[str, float]:
    dw = max(abs(a.win - b.win) for a, b in zip(reference, other))
    dl = max(abs(a.score_lead - b.score_lead) for a, b in zip(reference, other))
    dp = max(float(np.max(np.abs(a.policy - b.policy))) for a, b in zip(reference, other))
    flips = sum(int(np.sum(np.rint(a.ownership) != np.rint(b.ownership))) for a, b in zip(reference, other))
    return {"win_pp": 100 * dw, "lead": dl, "policy_pp": 100 * dp, "ownership_round_changes": flips}


def golden_boards():
    if not GOLDEN.exists():
        return None
    sys.path.insert(0, str(REPO / "tools" / "katago_golden"))
    from make_golden import board_from_case  # noqa: E402

    data = json.loads(GOLDEN.read_text())
    cases = data["cases"]
    return cases, [board_from_case(c) for c in cases], data.get("policy_optimism", 0.0)


def golden_errors(cases, evals) -> dict[str, float]:
    dw = dl = dp = do = 0.0
    for case, e in zip(cases, evals):
        k = case["katago"]
        black_win = k["whiteLoss"]
        dw = max(dw, abs(e.win - black_win))
        dl = max(dl, abs(e.score_lead + k["whiteLead"]))
        dp = max(dp, float(np.max(np.abs(e.policy - np.nan_to_num(np.array(k["policy"], dtype=float))))))
        do = max(do, float(np.max(np.abs(e.ownership + np.array(k["whiteOwnership"])))))
    return {"win_pp": 100 * dw, "lead": dl, "policy_pp": 100 * dp, "ownership": do}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", default=None, help="KataGo .bin.gz (default: the cached default network)")
    ap.add_argument("--threads", type=int, default=os.cpu_count(), help="torch CPU threads")
    ap.add_argument("--modes", default="fp32,fp32-subnormal,bf16,compile,compile-bf16")
    ap.add_argument("--batches", default="1,16,64")
    ap.add_argument("--rounds", type=int, default=5, help="timed rounds per batch size")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    modes = [m for m in args.modes.split(",") if m]
    if "fp32" not in modes:
        modes.insert(0, "fp32")
    batches = [int(b) for b in args.batches.split(",")]
    if 16 not in batches:
        batches.append(16)

    from tengen.eval.katago.weights import default_model_path

    model_path = args.model or default_model_path()
    desc = read_model(model_path)
    flops = network_flops(desc, 19, 19)
    print(f"model: {desc.describe()}")
    print(f"network: {flops / 1e9:.2f} GFLOP per 19x19 evaluation; torch {torch.__version__}, "
          f"{args.threads} threads, OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY')}")
    peaks = [gemm_gflops()]
    print(f"fp32 GEMM (2048^3) at start: {peaks[0]:.1f} GFLOP/s")

    bench_board = sample_positions(8)[4]  # a 19x19 middle-game position
    positions = sample_positions()
    golden = golden_boards()
    results, effs, evals, golden_evals = {}, {}, {}, {}
    for mode in modes:
        with subnormal_weights_kept() if mode == "fp32-subnormal" else nullcontext():
            ev = KataGoEvaluator(desc, threads=args.threads, batch_size=16,
                                 precision="bf16" if "bf16" in mode else "fp32", compile=mode.startswith("compile"),
                                 policy_optimism=golden[2] if golden is not None else 0.0)
        if mode == "fp32-subnormal":
            tiny = torch.finfo(torch.float32).tiny
            kept = sum(int(((p != 0) & (p.abs() < tiny)).sum()) for p in ev.net.parameters())
            total = sum(p.numel() for p in ev.net.parameters())
            print(f"subnormal weights in the model file: {kept:,} of {total:,} (flushed to 0 in every mode but this)")
        t0 = time.perf_counter()
        rates, eff = time_batches(ev, bench_board, batches, args.rounds, flops, peaks)
        results[mode], effs[mode] = rates, eff
        evals[mode] = ev.evaluate(positions)
        if golden is not None:
            golden_evals[mode] = ev.evaluate(golden[1])
        cells = "  ".join(f"batch {bs}: {r:6.2f} evals/s ({r * flops / 1e9:6.1f} GFLOP/s, {eff[bs]:.2f} of GEMM)"
                          for bs, r in rates.items())
        print(f"{mode:>13}: {cells}   [{time.perf_counter() - t0:.0f} s incl. warm-up]")

    peak = max(peaks)
    print(f"fp32 GEMM peak over the run: {peak:.1f} GFLOP/s (min {min(peaks):.1f}; the machine may be shared)")
    for mode in modes:
        line = f"{mode:>13}: speed-up at batch 16 vs fp32 {results[mode][16] / results['fp32'][16]:.2f}x"
        if mode != "fp32":
            d = compare(evals["fp32"], evals[mode])
            line += (f"; vs fp32 on {len(positions)} positions: max |dwin| {d['win_pp']:.2f} pp, |dlead| "
                     f"{d['lead']:.2f}, |dpolicy| {d['policy_pp']:.2f} pp, ownership rounding changes "
                     f"{d['ownership_round_changes']}")
        if golden is not None:
            g = golden_errors(golden[0], golden_evals[mode])
            flips = compare(golden_evals["fp32"], golden_evals[mode])["ownership_round_changes"]
            line += (f"; vs KataGo golden ({len(golden[0])}): |dwin| {g['win_pp']:.3f} pp, |dlead| {g['lead']:.3f},"
                     f" |dpolicy| {g['policy_pp']:.3f} pp, |downership| {g['ownership']:.4f}, ownership rounding "
                     f"changes vs fp32 {flips}")
        print(line)
    achieved = results["fp32"][16] * flops / 1e9
    print(f"default mode fp32 eager, batch 16: best {results['fp32'][16]:.2f} evals/s = {achieved:.1f} GFLOP/s; "
          f"best-over-best ratio {achieved / peak:.2f}; median paired ratio {effs['fp32'][16]:.2f}")
    print(f"efficiency: {effs['fp32'][16]:.2f}")


if __name__ == "__main__":
    main()
