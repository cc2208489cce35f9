"""Life-and-death problems (issue 44 item 4): the accepted first move, network mode vs classic mode vs
KataGo's raw policy, on the sanderland/tsumego collection (all three tsumego levels) and gogameguru's weekly
problems.

Each problem's side to move solves. Network mode is `tengen solve` (`tengen.life.tsumego.
solve_with_network`: KataGo's policy and ownership read two plies deep in the problem's box); classic mode is
`tengen solve --evaluator classic` (`tengen.life.search`'s search without a network, `--nodes` per search);
the anchor is KataGo's raw policy: its likeliest legal move in the same box (the whole board's likeliest
move on an empty-board diagram is often elsewhere; both are printed). A problem counts as solved when the
move is one of the accepted first moves (sanderland's `SOL`; gogameguru: first moves whose solution subtree
says "Correct"). The sample is each collection's first `--per-collection` problems by name (0: all 4,100,
hours on a 2-core CPU); budgets are counts, so the figures do not depend on the machine.

    python bench/tsumego.py [--per-collection 5] [--gogameguru 10] [--depth 2] [--frame] [--nodes 3000]

Last line `tsumego_first_move: X`: network mode's accepted-first-move rate on the sanderland sample.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from tengen.files import shared_data_path  # noqa: E402
from tengen.io.tsumego_files import TSUMEGO_LEVELS, Problem, load_sgf_problem, sanderland_problems  # noqa: E402
from tengen.life.search import LifeConfig  # noqa: E402
from tengen.life.tsumego import TsumegoConfig, likeliest_in_box, solve_with_network, solve_with_search  # noqa: E402
from tengen.life.frame import problem_box  # noqa: E402

ARCHIVE = shared_data_path("problems", "sanderland_tsumego.tar.xz", must_exist=False)
GOGAMEGURU = shared_data_path("problems", "gogameguru_go-problems", "weekly-go-problems", must_exist=False)
MODES = ("network", "classic", "policy (box)", "policy (board)")


def gogameguru_problems(per_level: int) -> list[Problem]:
    """Each level's first `per_level` weekly problems (by name) that mark a correct first move."""
    out = []
    for level in ("easy", "intermediate", "hard"):
        taken = 0
        for path in sorted((GOGAMEGURU / level).glob("*.sgf")):
            if taken >= per_level:
                break
            problem = load_sgf_problem(path)
            if problem.accepted:
                out.append(Problem(problem.name, problem.board, problem.accepted, f"gogameguru {level}"))
                taken += 1
    return out


def solve_all(problems: list[Problem], evaluator, config: TsumegoConfig, life: LifeConfig, label: str) -> dict:
    """Per group (level or collection) and mode: solved count; and seconds per mode."""
    solved: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    counts: dict[str, int] = defaultdict(int)
    seconds: dict[str, float] = defaultdict(float)
    for i, problem in enumerate(problems):
        group = problem.collection.split("/")[0]
        counts[group] += 1
        board = problem.board
        start = time.perf_counter()
        solved[group]["network"] += solve_with_network(board, evaluator, config).move in problem.accepted
        seconds["network"] += time.perf_counter() - start
        start = time.perf_counter()
        solved[group]["classic"] += solve_with_search(board, life).move in problem.accepted
        seconds["classic"] += time.perf_counter() - start
        start = time.perf_counter()
        evaluation = evaluator.evaluate([board])[0]
        box_move = likeliest_in_box(board, evaluation, problem_box(board), 1)
        solved[group]["policy (box)"] += bool(box_move) and box_move[0] in problem.accepted
        legal = board.legal_moves()
        solved[group]["policy (board)"] += bool(legal) and max(legal, key=lambda p: evaluation.policy[p]) in problem.accepted
        seconds["policy"] += time.perf_counter() - start
        if (i + 1) % 25 == 0:
            print(f"  {label}: {i + 1}/{len(problems)} problems", file=sys.stderr, flush=True)
    return {"solved": solved, "counts": counts, "seconds": seconds}


def report(result: dict, total_label: str) -> float:
    """Print one line per group and a total; network mode's rate over all."""
    totals = defaultdict(int)
    for group in sorted(result["counts"]):
        n = result["counts"][group]
        parts = [f"{mode} {result['solved'][group][mode]}/{n}" for mode in MODES]
        print(f"{group}: " + "; ".join(parts))
        for mode in MODES:
            totals[mode] += result["solved"][group][mode]
    n = sum(result["counts"].values())
    print(f"{total_label}: " + "; ".join(f"{mode} {totals[mode]}/{n} ({totals[mode] / max(n, 1):.1%})"
                                          for mode in MODES))
    s = result["seconds"]
    print(f"seconds per problem: network {s['network'] / max(n, 1):.2f}, classic {s['classic'] / max(n, 1):.2f}, "
          f"policy {s['policy'] / max(n, 1):.2f}")
    return totals["network"] / max(n, 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-collection", type=int, default=5, help="problems per sanderland collection (0: all)")
    parser.add_argument("--gogameguru", type=int, default=10, help="weekly problems per level (0: none)")
    parser.add_argument("--depth", type=int, choices=(1, 2), default=2, help="network mode's plies")
    parser.add_argument("--frame", action="store_true", help="network mode fills the board outside the problem")
    parser.add_argument("--nodes", type=int, default=3000, help="classic search budget per search")
    args = parser.parse_args(argv)
    if not ARCHIVE.is_file():
        print(f"tsumego archive not found at {ARCHIVE}: skipped")
        print("tsumego_first_move: 0 (not run)")
        return 0
    from tengen.api.evaluators import make_evaluator

    evaluator = make_evaluator("katago")
    config = TsumegoConfig(depth=args.depth, frame=args.frame)
    life = LifeConfig(max_nodes=args.nodes)
    print(f"network mode: {config.depth} plies, {config.candidates} candidates, {config.expand} read deeper with "
          f"{config.replies} replies and a pass, frame {'on' if config.frame else 'off'}; classic mode: "
          f"{args.nodes} nodes per search; policy: KataGo's raw policy (default network)")
    problems = list(sanderland_problems(ARCHIVE, TSUMEGO_LEVELS, args.per_collection))
    print(f"sanderland: {len(problems)} problems ({args.per_collection or 'all'} per collection, levels "
          f"{', '.join(TSUMEGO_LEVELS)})")
    rate = report(solve_all(problems, evaluator, config, life, "sanderland"), "sanderland, all levels")
    if args.gogameguru > 0 and GOGAMEGURU.is_dir():
        weekly = gogameguru_problems(args.gogameguru)
        print(f"gogameguru: {len(weekly)} weekly problems ({args.gogameguru} per level)")
        report(solve_all(weekly, evaluator, config, life, "gogameguru"), "gogameguru, all levels")
    print(f"tsumego_first_move: {rate:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
