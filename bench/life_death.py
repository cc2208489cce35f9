"""Life and death by search (issue 26 part 1): GNU Go's owl suites and Cho Chikun's problems.

GNU Go's `ld_owl.tst` (190 tests) and `owl.tst` (261) run unchanged through `tengen gtp --player simple` in
two modes: the network's (dragon_status / owl_attack / owl_defend judged one move deep by KataGo's
ownership, `tengen.life.net`) and the classic one (`--evaluator classic`: `tengen.life.search`'s
search without a network at `--nodes` nodes per search), with GNU Go 3.8 (its default level) run on the
same tests as the anchor (by its own marks it passes 171 and
237). Then Cho Chikun's life-and-death collections from the sanderland tsumego archive: the side to move's
first move, by the search (the side to move kills the opponent's weakest chain or saves its own), counted
solved when it is one of the accepted first moves; `--with-network` adds KataGo's policy move as a second
anchor (slow on a CPU). Budgets are nodes, so the pass counts do not depend on the machine; seconds are
reported for information.

    python bench/life_death.py [--suites ld_owl,owl] [--limit N] [--nodes N] [--problems N]
                               [--no-gnugo] [--with-network]

Each suite's line is followed by the answers each tengen mode proved by df-pn (`tengen.life.proof`, tried
first within the node budget; `tengen-life_basis` after each answer) and how many of those passed, then the
seconds per `dragon_status` answer of each tengen mode (the GTP answer alone, median and 95th percentile, on
this machine's cores).

Last line: `ld_owl: N/190` (tests passed by tengen's network mode; N of the tests run when `--limit` cuts
the suite).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tarfile
import time
from pathlib import Path

from tengen.eval.gtp_client import GtpClient, find_gnugo
from tengen.files import shared_data_path
from tengen.go.board import Board
from tengen.go.colors import BLACK, WHITE
from tengen.go.coords import Point
from tengen.go.rules import Rules
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout: devkit/ (test and bench helpers)
from devkit.regression_files import RegressionCase, parse_suite
from tengen.life.search import ALIVE, DEAD, KO, LifeConfig, LifeSearch

SUITES_DIR = shared_data_path("regression", "gnugo", must_exist=False)
ARCHIVE = shared_data_path("problems", "sanderland_tsumego.tar.xz", must_exist=False)
COLLECTIONS = ("Elementary", "Intermediate", "Advanced")
SUITE_SIZES = {"ld_owl": 190, "owl": 261}


def run_cases(client: GtpClient, cases: list[RegressionCase], timeout: float,
              answer_seconds: list[float] | None = None, bases: list[str] | None = None) -> tuple[list[bool], float]:
    """Each case's pass / fail through a GTP engine (loadsgf, then the command), and the seconds taken;
    `answer_seconds` (when given) gets each dragon_status answer's own seconds (the command alone), `bases`
    how each answer is known (tengen's `tengen-life_basis`: proved / judged / searched)."""
    start = time.perf_counter()
    passed = []
    for case in cases:
        load = f"loadsgf {case.sgf}" + (f" {case.move}" if case.move is not None else "")
        client.query(load, timeout=timeout)
        for command in case.setup:
            client.query(command, timeout=timeout)
        asked = time.perf_counter()
        answer = client.query(" ".join((case.command, *case.args)), timeout=timeout)
        if answer_seconds is not None and case.command == "dragon_status":
            answer_seconds.append(time.perf_counter() - asked)
        passed.append(answer.ok and case.matches(answer.text))
        if bases is not None:
            bases.append(client.query("tengen-life_basis", timeout=timeout).text.strip())
    return passed, time.perf_counter() - start


def percentiles(seconds: list[float]) -> str:
    """'median X s, 95th percentile Y s over N' (nearest-rank percentiles)."""
    if not seconds:
        return "no dragon_status test"
    ordered = sorted(seconds)

    def rank(q: float) -> float:
        return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]

    return f"median {rank(0.5):.2f} s, 95th percentile {rank(0.95):.2f} s over {len(ordered)}"


def _point(sgf: str) -> Point:
    return ord(sgf[1]) - ord("a"), ord(sgf[0]) - ord("a")


def load_collection(archive: Path, level: str, limit: int) -> list[tuple[str, Board, set[Point]]]:
    """The first `limit` problems (by name) of one Cho Chikun collection: board, side to move, answers."""
    out = []
    with tarfile.open(archive) as tar:
        members = sorted((m for m in tar.getmembers() if m.isfile() and m.name.endswith(".json")
                          and f"Cho Chikun Encyclopedia Life And Death - {level}/" in m.name),
                         key=lambda m: m.name)
        for m in members:
            if len(out) >= limit:
                break
            data = json.load(tar.extractfile(m))
            solutions = [s for s in data.get("SOL") or [] if len(s) > 1 and len(s[1]) == 2]
            if not solutions:
                continue
            board = Board(int(data.get("SZ", 19)), rules=Rules.chinese(komi=0))
            board.setup(black=[_point(v) for v in data.get("AB", [])], white=[_point(v) for v in data.get("AW", [])])
            board.to_play = BLACK if solutions[0][0] == "B" else WHITE
            answers = {_point(s[1]) for s in solutions if s[0] == solutions[0][0]}
            out.append((m.name.rsplit("/", 1)[-1], board, answers))
    return out


def search_move(board: Board, config: LifeConfig) -> Point | None:
    """The side to move's first move: kill the opponent's chain with the fewest liberties (largest first
    among equals) or, failing that, save its own; the first search that succeeds (or gets a ko) answers."""
    me = board.to_play
    chains: dict[int, list[tuple[int, int, Point]]] = {BLACK: [], WHITE: []}
    seen: set[Point] = set()
    for r in range(board.height):
        for c in range(board.width):
            color = board.get((r, c))
            if color and (r, c) not in seen:
                stones = board.chain((r, c))
                seen.update(stones)
                chains[color].append((board.liberties((r, c)), -len(stones), (r, c)))
    fallback = None
    for color in (-me, me):
        for _, _, point in sorted(chains[color])[:3]:
            search = LifeSearch(board, point, config)
            answer = search.attack() if color == -me else search.defend()
            goal = DEAD if color == -me else ALIVE
            if answer.outcome == goal and answer.move is not None:
                return answer.move
            if answer.outcome == KO and fallback is None:
                fallback = answer.move
    return fallback


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suites", default="ld_owl,owl", help="comma-separated: ld_owl, owl (or none)")
    parser.add_argument("--limit", type=int, default=0, help="first N tests per suite (0: all)")
    parser.add_argument("--nodes", type=int, default=3000, help="life search node budget per search")
    parser.add_argument("--problems", type=int, default=10, help="problems per Cho Chikun collection")
    parser.add_argument("--no-gnugo", action="store_true", help="skip the GNU Go anchor")
    parser.add_argument("--with-network", action="store_true", help="KataGo's policy move as a second anchor")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per GTP answer (a hang guard)")
    parser.add_argument("--modes", default="network,classic", help="tengen's modes to run: network, classic")
    args = parser.parse_args(argv)
    suites = [s for s in args.suites.split(",") if s and s != "none"]
    config = LifeConfig(max_nodes=args.nodes)
    print(f"budget: {args.nodes} nodes per search (attack or defence), depth <= {config.max_depth} plies")
    last = None
    if suites and not SUITES_DIR.is_dir():
        print(f"GNU Go regression suites not found in {SUITES_DIR}: suites skipped")
        suites = []
    gnugo = None if args.no_gnugo or find_gnugo() is None else GtpClient.gnugo(level=10, rules="japanese",
                                                                               timeout=args.timeout)
    modes = [m for m in args.modes.split(",") if m in ("network", "classic")]
    commands = {"network": [sys.executable, "-m", "tengen", "gtp", "--player", "simple"],
                "classic": [sys.executable, "-m", "tengen", "gtp", "--player", "simple", "--evaluator", "classic"]}
    engines = {mode: GtpClient(commands[mode], timeout=args.timeout) for mode in modes}
    if "classic" in engines:
        engines["classic"].send(f"tengen-life_budget {args.nodes}")  # the network mode keeps the default (20,000)
    try:
        for name in suites:
            cases = parse_suite(SUITES_DIR / f"{name}.tst")
            if args.limit:
                cases = cases[: args.limit]
            parts, network_passed, timings, proved_line = [], 0, {}, []
            for mode, client in engines.items():
                timings[mode], bases = [], []
                ours, seconds = run_cases(client, cases, args.timeout, timings[mode], bases)
                proved = [ok for ok, basis in zip(ours, bases) if basis == "proved"]
                parts.append(f"tengen {mode} {sum(ours)}/{len(cases)} in {seconds:.1f}s")
                proved_line.append(f"tengen {mode} proved {len(proved)}/{len(cases)} "
                                   f"({len(proved) / max(len(cases), 1):.1%}; passed among them {sum(proved)})")
                network_passed = sum(ours) if mode == "network" else network_passed
            if gnugo is not None:
                theirs, their_seconds = run_cases(gnugo, cases, args.timeout)
                parts.append(f"GNU Go 3.8 {sum(theirs)}/{len(cases)} in {their_seconds:.1f}s")
            print(f"{name}: " + "; ".join(parts), flush=True)
            print(f"{name} answers proved by df-pn: " + "; ".join(proved_line), flush=True)
            for mode, seconds in timings.items():
                print(f"{name} seconds per dragon_status, tengen {mode}: {percentiles(seconds)} "
                      f"(the GTP answer alone, {os.cpu_count()} cores)", flush=True)
            if name == "ld_owl":
                last = (f"ld_owl: {network_passed}/{len(cases)}" if "network" in engines else
                        f"ld_owl: network mode not run (--modes {','.join(engines)})")
    finally:
        for client in engines.values():
            client.close()
        if gnugo is not None:
            gnugo.close()
    if args.problems > 0 and ARCHIVE.is_file():
        evaluator = None
        if args.with_network:
            from tengen.eval.katago.evaluator import KataGoEvaluator

            evaluator = KataGoEvaluator()
        for level in COLLECTIONS:
            problems = load_collection(ARCHIVE, level, args.problems)
            start = time.perf_counter()
            solved = sum(search_move(board, config) in answers for _, board, answers in problems)
            line = (f"Cho Chikun {level}: search {solved}/{len(problems)} "
                    f"in {time.perf_counter() - start:.1f}s")
            if evaluator is not None:
                hits = 0
                for _, board, answers in problems:
                    policy = evaluator.evaluate([board])[0].policy
                    best = max(board.legal_moves(), key=lambda p: policy[p])
                    hits += best in answers
                line += f"; KataGo policy {hits}/{len(problems)}"
            print(line, flush=True)
    elif args.problems > 0:
        print(f"tsumego archive not found at {ARCHIVE}: problems skipped")
    print(last if last is not None else f"ld_owl: not run (--suites {args.suites})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
