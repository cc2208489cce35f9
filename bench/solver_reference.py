"""The exact local solver against a slow, obviously-correct reference on random small regions (issue 38 item 4).

    python bench/solver_reference.py [--regions 5000] [--seed 1] [--max-empty 6] [--engine auto|python|native]

Each region (a 5x5..7x7 board, <= max-empty empty points plus stones of both colors inside, walls of both
colors, kos and captures frequent: `devkit.reference_solver.generate`) is solved by
`solve_region` (2,000,000 positions, no time limit) and by `devkit.reference_solver.reference_solve` (the
full game tree; repetitions valued at the repeated position's lowest / highest count). Where the reference
is determined the solver must say 'ok' with no ko / loop caveat and exactly the same kind, mean,
temperature and thermograph walls; where it is undetermined a caveat-free solver value must have its mean
inside the reference's bracket. Metamorphic checks: a color swap (mean negated, sente kinds swapped, walls
mirrored), the 7 other symmetries of the board and a translation (same result); with the native engine all
9 on every region, with the Python one 1 per region in turn (`--transforms`; its solves are ~20x slower).
A reference tree over --max-tree nodes (default 10,000) is left unchecked against the reference (counted;
the metamorphic checks still run). A region that is a sum of independent parts at the start (safe stones cut it;
a quarter of the 6x6 and 7x7 boards are drawn with two parts, one in each bottom corner) is also checked as a
sum (`devkit.reference_solver.sum_check`): each part solved alone, the whole's mean the parts' added (plus the
safe stones' count) and its temperature at most the hottest part's. Last line: `disagreements: N`.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
import time
from collections import Counter

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout: devkit/ (test and bench helpers)
from devkit.reference_solver import (
    DETERMINED, TOO_LARGE, TRANSFORMS, UNDETERMINED, against_reference, available_engine, generate, metamorphic,
    outside_bracket, reference_solve_local, solve, sum_check,
)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--regions", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-empty", type=int, default=6, help="empty points inside a region at most")
    ap.add_argument("--max-tree", type=int, default=10_000, help="reference tree nodes before giving up on a region")
    ap.add_argument("--engine", choices=("auto", "python", "native"), default="auto")
    ap.add_argument("--show", type=int, default=5, help="disagreements printed in full")
    ap.add_argument("--transforms", default="", help="metamorphic transforms per region: 'all' (the 7 symmetries, the color "
                    "swap, the translation) or a number (that many, in turn, so each is used equally); default: all with "
                    "the native engine, 1 with the Python one (its solves are ~20x slower); 0: none")
    args = ap.parse_args(argv)

    engine, note = available_engine(args.engine)
    if not engine:
        print(f"engine native: not available ({note})")
        print("disagreements: 1")
        return 1
    print(f"engine: {engine}" + (f"  [{note}]" if note else ""))
    per = args.transforms or ("all" if engine == "native" else "1")
    per = len(TRANSFORMS) if per == "all" else max(0, min(int(per), len(TRANSFORMS)))
    start = time.perf_counter()
    regions, rejects = generate(args.seed, args.regions, args.max_empty)
    gen_s = time.perf_counter() - start
    counts: Counter = Counter()
    caveats: Counter = Counter()
    kinds: Counter = Counter()
    sums: Counter = Counter()  # regions that are sums of independent parts at the start, by what was checked
    shown = 0
    disagreements = 0
    ref_s = solver_s = meta_s = 0.0
    engines: Counter = Counter()
    for number, (reg, board, local) in enumerate(regions):
        t0 = time.perf_counter()
        ref = reference_solve_local(local, max_nodes=args.max_tree)
        t1 = time.perf_counter()
        res = solve(reg, engine)
        t2 = time.perf_counter()
        ref_s += t1 - t0
        solver_s += t2 - t1
        counts[ref.status] += 1
        counts["with a ko retake"] += bool(ref.ko_retakes)
        counts["with a capture"] += bool(ref.captures)
        if isinstance(res, str):
            caveats["solver error"] += 1
        else:
            caveats[f"solver {res.status}"] += 1
            engines[res.engine or engine] += 1
            caveats["ko valued with its taker winning it"] += res.ko_dependent
            caveats["ko valued by the phantom's fixed point"] += res.ko_fixed_point
            caveats["repetition valued with nobody winning it"] += res.loop_dependent
            caveats["kind ko (phantom rule)"] += res.kind == "ko"
            if ref.status == DETERMINED:
                kinds[ref.value.kind] += 1
        problems = []
        why = against_reference(ref, res)
        if why:
            problems.append(("reference", why))
        elif outside_bracket(ref, res):
            caveats["caveated value outside the reference's bracket"] += 1
        checked, why = sum_check(reg, local, res, engine)
        if checked != "one part":
            sums[checked] += 1
            if why:
                problems.append(("decomposition", why))
        if per:
            chosen = [TRANSFORMS[(number * per + j) % len(TRANSFORMS)] for j in range(per)]
            problems += metamorphic(reg, res, engine, chosen)
            meta_s += time.perf_counter() - t2
        if problems:
            disagreements += 1
            counts["disagreeing, with a cold position taking a ko"] += bool(ref.cold_ko_nodes)
            if shown < args.show:
                shown += 1
                print(f"\n--- disagreement {shown}: region {reg.seed} (generate({args.seed}, ...)'s draw)")
                print(reg.diagram())
                print(f"reference: {ref.describe()} ({ref.nodes} nodes"
                      + (f"; {ref.cold_ko_nodes} cold positions with a ko capture among their options" if ref.cold_ko_nodes else "") + ")")
                print(f"solver:    {'' if isinstance(res, str) else res.status + ' '}"
                      f"{res if isinstance(res, str) else f'{res.kind} mean {res.mean} temperature {res.temperature}{res.caveats()}'}")
                for what, why in problems:
                    print(f"  {what}: {why}")
    total = time.perf_counter() - start
    n = len(regions)
    print()
    print(f"regions: {n} (seed {args.seed}, max empty {args.max_empty}; drawn and rejected: "
          + ", ".join(f"{k} {v}" for k, v in sorted(rejects.items())) + ")")
    print(f"reference: determined {counts[DETERMINED]}, undetermined (repetition matters) {counts[UNDETERMINED]}, "
          f"too large (> {args.max_tree} nodes) {counts[TOO_LARGE]}")
    print(f"regions with a ko retake in the tree: {counts['with a ko retake']}, with a capture: {counts['with a capture']}")
    print("determined kinds: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))
    print("solver: " + ", ".join(f"{k} {v}" for k, v in sorted(caveats.items())))
    print("answered by: " + ", ".join(f"{k} {v}" for k, v in sorted(engines.items())))
    print(f"decomposed (independent parts at the start, once safe stones cut the region): {sum(sums.values())}; "
          f"as sums: " + ", ".join(f"{k} {v}" for k, v in sorted(sums.items())))
    print(f"checks: the reference on every region not too large; metamorphic: "
          + ("none" if not per else "all 9 transforms (7 symmetries, color swap, translation) on every region"
             if per == len(TRANSFORMS) else f"{per} of the 9 transforms per region, in turn ({n * per // len(TRANSFORMS)} regions each)"))
    print(f"seconds: total {total:.1f} (generate {gen_s:.1f}, reference {ref_s:.1f}, solver {solver_s:.1f}, "
          f"metamorphic {meta_s:.1f})")
    if disagreements:
        print(f"of the disagreeing regions, {counts['disagreeing, with a cold position taking a ko']} have a cold position "
              "whose options take a ko in the reference's tree (where the solver skipped the at-rest convention "
              "before 8aca40d: tests/endgame/test_solver_reference.py KO_AT_REST)")
    print(f"disagreements: {disagreements}")
    return 0 if disagreements == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
