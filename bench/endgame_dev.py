"""The endgame dev set through tengen's analyzer: per-problem temperature, mean, type and moves.

Predictors: `oracle` (each problem's own variation tree replayed as the local-move predictor; leaves scored
by tengen, exactly by default or by the network with --leaves network), `exhaustive` (the exact solver),
`kata` (KataGo policy + ownership: the paper's baseline; needs the default network), `net` (tengen's trained
local-move network grows the trees, KataGo scores the leaves), `auto` (the CLI's default: the exact solver
within a small budget, the trained network (or kata without its weights) where it runs out).
Last line: `correct_temperature: n/33`. With `exhaustive` (and `auto` where the exact solver answered),
each miss is followed by one line saying why: a convention difference of the dev set's hand-made trees
(`devkit.devset.EXACT_DIFFERENCES`, checked against the exact values) or UNEXPLAINED.
`kata` lets the exact rules end lines and count leaves in these sealed regions (tengen's default);
`--no-sealed-rules` leaves that to the network's ownership too (the paper's KataGo baseline).
Usage: python bench/endgame_dev.py --predictor oracle|exhaustive|kata|net|auto [--leaves exact|network] [--no-sealed-rules]
       [--max-nodes N --max-total-nodes N] [--data PATH]
Tree budgets: the library's (300 nodes per tree, 400 per position) unless given (the CLI's: 800 / 1000).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from tengen.endgame.analysis import analyze_region
from tengen.endgame.options import AnalysisOptions
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout: devkit/ (test and bench helpers)
from devkit.devset import explain_exact_miss, load_problems, tree_oracle
from tengen.endgame.tree import GrowthConfig, growth_settings
from tengen.go.colors import BLACK
from tengen.go.coords import to_gtp
from tengen.files import shared_data_path  # noqa: E402

DEFAULT_DATA = shared_data_path("endgame_dev", "problems.json", must_exist=False)
TYPE_OF = {"gote": "gote", "black_sente": "sente", "white_sente": "sente", "ko": "ko", "number": "number"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--predictor", choices=["oracle", "exhaustive", "kata", "net", "auto"], default="oracle")
    parser.add_argument("--leaves", choices=["exact", "network"], default="exact",
                        help="oracle leaves: exact area count (Benson dead stones) or the network's rounded ownership")
    parser.add_argument("--no-sealed-rules", action="store_true",
                        help="kata: the network's ownership ends lines and counts leaves (the paper's baseline)")
    parser.add_argument("--max-nodes", type=int, default=None, help="kata / net / auto: node budget per tree")
    parser.add_argument("--max-total-nodes", type=int, default=None, help="kata / net / auto: node budget per position")
    parser.add_argument("--data", default=str(DEFAULT_DATA))
    parser.add_argument("--growth", default="", help="tree-growth settings NAME=VALUE,... (tengen.endgame.tree."
                        "GrowthConfig: leaf_no_move, one_color_share, move_fraction, answer_threshold, ...)")
    parser.add_argument("--local-model", default=None, help="net / auto: local-move network weights "
                        "(default: the committed models/localnet/localnet.pt)")
    parser.add_argument("--model", default=None, help="KataGo network for kata / network leaves")
    args = parser.parse_args()
    if not Path(args.data).exists():
        print(f"dev set not found: {args.data}", file=sys.stderr)
        return 2
    problems = load_problems(args.data)
    evaluator = None
    if args.predictor in ("kata", "net", "auto") or args.leaves == "network":
        from tengen.eval.katago.evaluator import KataGoEvaluator

        evaluator = KataGoEvaluator(args.model)
    growth = growth_settings(args.growth)
    if args.max_nodes is not None:
        growth.max_nodes = args.max_nodes
    if args.max_total_nodes is not None:
        growth.max_total_nodes = args.max_total_nodes
    correct_t = correct_all = solved = misses = explained = 0
    total_time = 0.0
    for p in problems:
        start = time.perf_counter()
        if args.predictor == "oracle":
            result = analyze_region(p.board, p.region, evaluator, AnalysisOptions(
                predictor=tree_oracle(p), growth=GrowthConfig(missing_color="threat"),
                leaf_scoring="exact" if args.leaves == "exact" else "evaluator"))
        elif args.predictor == "exhaustive":
            result = analyze_region(p.board, p.region, None, AnalysisOptions(predictor="exhaustive"))
        else:
            result = analyze_region(p.board, p.region, evaluator, AnalysisOptions(
                predictor=args.predictor, growth=growth, sealed_rules=not args.no_sealed_rules,
                local_model=args.local_model, leaf_scoring="evaluator"))
        seconds = time.perf_counter() - start
        total_time += seconds
        t_ok = result.temperature is not None and abs(result.temperature - float(p.expected_temperature)) < 1e-6
        m_ok = result.count is not None and abs(result.count - float(p.expected_mean)) < 1e-6
        k_ok = TYPE_OF.get(result.kind, result.kind) == p.expected_type
        expected_moves = {(c, pt) for c, pt in p.correct_moves}
        got = {(BLACK, pt) for pt in result.best_black} | {(-BLACK, pt) for pt in result.best_white}
        mv_ok = bool(expected_moves & got) and all(any(c == col for c, _ in got & expected_moves) for col, _ in expected_moves)
        correct_t += t_ok
        correct_all += t_ok and m_ok and k_ok
        moves = " ".join(f"{'B' if c == BLACK else 'W'} {to_gtp(pt, 9)}" for c, pt in sorted(got))
        print(f"{p.id:5} t={_f(result.temperature):>5} (exp {_f(float(p.expected_temperature)):>5}) "
              f"mean={_f(result.count):>5} (exp {_f(float(p.expected_mean)):>5}) type={TYPE_OF.get(result.kind, result.kind):11} "
              f"(exp {p.expected_type:6}) moves={moves or '-':18} {'ok' if t_ok and m_ok and k_ok else 'MISS'}"
              f"{'' if mv_ok else ' (moves differ)'} {seconds:6.2f}s {'; '.join(result.notes)[:80]}")
        exact = result.method == "exhaustive"
        solved += exact
        if exact and not (t_ok and m_ok and k_ok):
            misses += 1
            why = explain_exact_miss(p, result.count, result.temperature)
            explained += why is not None
            print(f"      why: {why or 'UNEXPLAINED: not a known convention difference (a solver bug?)'}")
    mode = " (network ends lines: the paper's baseline)" if args.predictor == "kata" and args.no_sealed_rules else ""
    print(f"tree budgets: {growth.max_nodes} nodes per tree, {growth.max_total_nodes} per position"
          + (f"; growth settings {args.growth}" if args.growth else ""))
    if args.predictor in ("net", "auto"):
        print(f"local-move network: {args.local_model or 'models/localnet/localnet.pt (committed)'}")
    if args.predictor in ("exhaustive", "auto"):
        print(f"solved exactly: {solved}/{len(problems)}; misses of exact solves explained: {explained}/{misses}")
    print(f"predictor {args.predictor}{mode}; all of temperature, mean and type correct: {correct_all}/{len(problems)}; "
          f"total {total_time:.1f} s")
    print(f"correct_temperature: {correct_t}/{len(problems)}")
    return 0


def _f(x) -> str:
    return "-" if x is None else f"{x:g}"


if __name__ == "__main__":
    sys.exit(main())
