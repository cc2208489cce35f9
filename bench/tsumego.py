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

    python bench/tsumego.py [--per-collection 5 | --sample 300] [--gogameguru 10] [--depth 2] [--frame]
                            [--nodes 3000] [--proof-nodes 100000] [--no-network] [--out DIR] [--fresh]

Each problem's answer is appended to `--out`/answers.jsonl (default bench/results/tsumego, committed) as soon
as it is made, keyed by the problem, the settings and a hash of the life-and-death code (`ANSWER_CODE`), so a
stopped run continues where it stopped and a rerun with the same settings and code solves nothing again (the
seconds printed are then the stored runs' own); a change to that code starts afresh (`--fresh` also).

Network mode tries the df-pn proof first (`tengen.life.tsumego_proof.solve_problem`: the network's key move
checked by proof, then a proof from the position; `--proof-nodes 0`: off); `--no-network` runs the proof
with the classic search as its fallback ("proof" mode) beside classic mode, without KataGo (a CPU run). Each
mode's answers are counted proved (by df-pn, or by the rules at the network line's end) or judged, and
proved-but-not-accepted ("proved, not accepted": the proof's model, a region with walls taken as safe and kos
by komaster, or a second solution the file does not list), except a proved move whose listed answer is proved
to reach the same status on the same group (`tengen.life.tsumego_proof.same_result`: komaster kos cannot
tell two kos apart), counted on its own as "proved alternative, same result", never as accepted. `--sample N`: N problems spread evenly over all
4,100 (every collection and level, by name).

Last line `tsumego_first_move: X, proved: P`: the first mode's accepted-first-move rate on the sanderland
sample and its share of proved answers.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from endgame_judge import read_jsonl  # noqa: E402
from tengen.files import append_line, shared_data_path  # noqa: E402
from tengen.io.tsumego_files import TSUMEGO_LEVELS, Problem, load_sgf_problem, sanderland_problems  # noqa: E402
from tengen.life.search import LifeConfig  # noqa: E402
from tengen.life.tsumego import TsumegoConfig, likeliest_in_box, solve_with_network, solve_with_search  # noqa: E402
from tengen.life.frame import problem_box  # noqa: E402
from tengen.life.tsumego_proof import ProofConfig, same_result, solve_problem  # noqa: E402

ARCHIVE = shared_data_path("problems", "sanderland_tsumego.tar.xz", must_exist=False)
GOGAMEGURU = shared_data_path("problems", "gogameguru_go-problems", "weekly-go-problems", must_exist=False)
NETWORK_MODES = ("network", "classic", "policy (box)", "policy (board)")
CPU_MODES = ("proof", "classic")
# the code a stored answer depends on: a change to any of these files starts the answers afresh
LIFE = REPO / "src" / "tengen" / "life"
ANSWER_CODE = sorted([*LIFE.glob("*.py"), *LIFE.glob("*.c")]) + [REPO / "src" / "tengen" / "io" / "tsumego_files.py"]


def code_hash() -> str:
    """A short hash of ANSWER_CODE's sources."""
    digest = hashlib.sha256()
    for path in ANSWER_CODE:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


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


def solve_one(problem: Problem, evaluator, config: TsumegoConfig, life: LifeConfig,
              proof: ProofConfig | None) -> dict:
    """One problem's record: per mode whether its move is accepted, the first mode's proof (proved, a proved
    alternative with the same result, proved and not accepted) and the seconds per mode."""
    board = problem.board
    solved, seconds = {}, {}
    start = time.perf_counter()
    if evaluator is None:
        answer = solve_problem(board, None, proof=proof or ProofConfig(), life=life)
        first = "proof"
    else:
        answer = (solve_problem(board, evaluator, config, proof=proof) if proof is not None
                  else solve_with_network(board, evaluator, config))
        first = "network"
    right = answer.move in problem.accepted
    solved[first] = right
    is_proved = answer.proved and answer.method != "search"
    alternative = (is_proved and not right
                   and same_result(board, answer, problem.accepted, proof or ProofConfig()) is not None)
    seconds[first] = time.perf_counter() - start
    start = time.perf_counter()
    solved["classic"] = solve_with_search(board, life).move in problem.accepted
    seconds["classic"] = time.perf_counter() - start
    if evaluator is not None:
        start = time.perf_counter()
        evaluation = evaluator.evaluate([board])[0]
        box_move = likeliest_in_box(board, evaluation, problem_box(board), 1)
        solved["policy (box)"] = bool(box_move) and box_move[0] in problem.accepted
        legal = board.legal_moves()
        solved["policy (board)"] = bool(legal) and max(legal, key=lambda p: evaluation.policy[p]) in problem.accepted
        seconds["policy"] = time.perf_counter() - start
    return {"key": problem_key(problem), "group": problem.collection.split("/")[0], "solved": solved,
            "proved": is_proved, "alternative": alternative, "wrong": is_proved and not right and not alternative,
            "seconds": {mode: round(x, 3) for mode, x in seconds.items()}}


def problem_key(problem: Problem) -> str:
    return f"{problem.collection}/{problem.name}"


def solve_all(problems: list[Problem], evaluator, config: TsumegoConfig, life: LifeConfig, label: str,
              proof: ProofConfig | None, stored: dict, answers_file: Path | None, settings: str) -> dict:
    """Per group (level or collection) and mode: solved count, proved answers and proved answers not
    accepted; and seconds per mode. Without an evaluator: the proof and classic modes only. A problem whose
    record `stored` holds (keyed by problem) is not solved again; each new record is appended to
    `answers_file` (None: kept in memory only) under `settings`."""
    solved: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    proved: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    counts: dict[str, int] = defaultdict(int)
    modes = CPU_MODES if evaluator is None else NETWORK_MODES
    first = modes[0]
    seconds: dict[str, float] = {mode: 0.0 for mode in (first, "classic") + (() if evaluator is None else ("policy",))}
    reused = 0
    for i, problem in enumerate(problems):
        record = stored.get(problem_key(problem))
        if record is None:
            record = solve_one(problem, evaluator, config, life, proof)
            if answers_file is not None:
                append_line(answers_file, json.dumps({**record, "settings": settings}, sort_keys=True))
        else:
            reused += 1
        group = record["group"]
        counts[group] += 1
        for mode, right in record["solved"].items():
            solved[group][mode] += right
        proved[group][first] += record["proved"]
        proved[group][first + " alternative"] += record["alternative"]
        proved[group][first + " wrong"] += record["wrong"]
        for mode, x in record["seconds"].items():
            seconds[mode] += x
        if (i + 1) % 25 == 0:
            print(f"  {label}: {i + 1}/{len(problems)} problems", file=sys.stderr, flush=True)
    if reused:
        print(f"{label}: {reused} of {len(problems)} answers read from the stored run (the same settings and code)")
    return {"solved": solved, "proved": proved, "counts": counts, "seconds": seconds, "modes": modes}


def report(result: dict, total_label: str) -> tuple[float, float]:
    """Print one line per group and a total; the first mode's rate over all and its proved share."""
    modes, first = result["modes"], result["modes"][0]
    totals: dict[str, int] = defaultdict(int)
    proved: dict[str, int] = defaultdict(int)
    for group in sorted(result["counts"]):
        n = result["counts"][group]
        parts = [f"{mode} {result['solved'][group][mode]}/{n}" for mode in modes]
        g = result["proved"][group]
        print(f"{group}: " + "; ".join(parts) + f"; {first} proved {g[first]}/{n} ({g[first + ' wrong']} proved, "
              f"not accepted; {g[first + ' alternative']} proved alternative, same result)")
        for mode in modes:
            totals[mode] += result["solved"][group][mode]
        proved["all"] += g[first]
        proved["wrong"] += g[first + " wrong"]
        proved["alternative"] += g[first + " alternative"]
    n = sum(result["counts"].values())
    print(f"{total_label}: " + "; ".join(f"{mode} {totals[mode]}/{n} ({totals[mode] / max(n, 1):.1%})"
                                          for mode in modes)
          + f"; {first} proved {proved['all']}/{n} ({proved['all'] / max(n, 1):.1%}; proved, not accepted: "
            f"{proved['wrong']}; proved alternative, same result: {proved['alternative']})")
    s = result["seconds"]
    print("seconds per problem: " + ", ".join(f"{mode} {s[mode] / max(n, 1):.2f}" for mode in s))
    return totals[first] / max(n, 1), proved["all"] / max(n, 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-collection", type=int, default=5, help="problems per sanderland collection (0: all)")
    parser.add_argument("--gogameguru", type=int, default=10, help="weekly problems per level (0: none)")
    parser.add_argument("--depth", type=int, choices=(1, 2), default=2, help="network mode's plies")
    parser.add_argument("--frame", action="store_true", help="network mode fills the board outside the problem")
    parser.add_argument("--nodes", type=int, default=3000, help="classic search budget per search")
    parser.add_argument("--sample", type=int, default=0,
                        help="N sanderland problems spread evenly over every collection and level (instead of "
                             "--per-collection)")
    parser.add_argument("--proof-nodes", type=int, default=100_000,
                        help="df-pn nodes per search, tried first (0: network mode without the proof)")
    parser.add_argument("--policy-order", action="store_true",
                        help="the network's policy orders the df-pn proof's moves (ProofConfig.policy_order)")
    parser.add_argument("--no-network", action="store_true",
                        help="the proof (classic search as its fallback) and classic modes only, no KataGo")
    parser.add_argument("--out", default=str(REPO / "bench" / "results" / "tsumego"),
                        help="where each problem's answer is stored as it is made, so a stopped run continues "
                             "(answers.jsonl, keyed by problem, settings and code)")
    parser.add_argument("--fresh", action="store_true", help="solve every problem again (stored answers unread)")
    args = parser.parse_args(argv)
    if not ARCHIVE.is_file():
        print(f"tsumego archive not found at {ARCHIVE}: skipped")
        print("tsumego_first_move: 0 (not run)")
        return 0
    evaluator = None
    if not args.no_network:
        from tengen.api.evaluators import make_evaluator

        evaluator = make_evaluator("katago")
    config = TsumegoConfig(depth=args.depth, frame=args.frame)
    life = LifeConfig(max_nodes=args.nodes)
    proof = ProofConfig(max_nodes=args.proof_nodes, policy_order=args.policy_order) if args.proof_nodes > 0 else None
    print(f"network mode: {'off' if evaluator is None else 'on'}, {config.depth} plies, {config.candidates} "
          f"candidates, {config.expand} read deeper with {config.replies} replies and a pass, frame "
          f"{'on' if config.frame else 'off'}; df-pn proof first: "
          f"{f'{args.proof_nodes} nodes per search' if proof else 'off'}"
          f"{', moves ordered by the policy' if proof and args.policy_order else ''}; classic mode: {args.nodes} nodes per "
          "search; policy: KataGo's raw policy (default network)")
    if args.sample > 0:
        everything = list(sanderland_problems(ARCHIVE, TSUMEGO_LEVELS, 0))
        step = max(len(everything) / args.sample, 1.0)
        problems = [everything[int(i * step)] for i in range(min(args.sample, len(everything)))]
        how = f"a sample of {len(problems)} spread evenly over {len(everything)}"
    else:
        problems = list(sanderland_problems(ARCHIVE, TSUMEGO_LEVELS, args.per_collection))
        how = f"{args.per_collection or 'all'} per collection"
    settings = json.dumps({"network": evaluator is not None, "depth": config.depth, "frame": config.frame,
                           "nodes": args.nodes, "proof_nodes": args.proof_nodes, "policy_order": args.policy_order,
                           "code": code_hash()}, sort_keys=True)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    answers_file = out / "answers.jsonl"
    stored = {} if args.fresh else {r["key"]: r for r in read_jsonl(answers_file) if r.get("settings") == settings}
    print(f"stored answers: {answers_file} (settings and code {settings})")
    print(f"sanderland: {len(problems)} problems ({how}, levels {', '.join(TSUMEGO_LEVELS)})")
    rate, proved = report(solve_all(problems, evaluator, config, life, "sanderland", proof, stored, answers_file,
                                    settings), "sanderland, all levels")
    if args.gogameguru > 0 and GOGAMEGURU.is_dir():
        weekly = gogameguru_problems(args.gogameguru)
        print(f"gogameguru: {len(weekly)} weekly problems ({args.gogameguru} per level)")
        report(solve_all(weekly, evaluator, config, life, "gogameguru", proof, stored, answers_file, settings),
               "gogameguru, all levels")
    print(f"tsumego_first_move: {rate:.3f}, proved: {proved:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
