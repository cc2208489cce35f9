"""Published endgame tesuji problems: tengen's recommended move against the book's answers.

The problems are the endgame chapters of Lee Changho's tesuji volumes in sanderland/tsumego (a partial
19x19 diagram, the side to play, the accepted first moves), read straight from the shared archive. Each
is analyzed the way a player would set it up, with the region given as a mask: the diagram's contested
points (empty points near stones of both colors, `Problem.region`), with the CLI's predictor and tree
budgets. Anchors, from the same runs: the network's policy move alone, on the whole board (on a sparse
diagram it often prefers a big point elsewhere) and within the diagram (its most likely move among the
region's points). Also counted: the roots that come out a number (tengen passes), and among them the cold
fights (first moves hot, yet neither side gains by starting: the tree's values contradict a fight).
With `--predictor net` (or auto) the kata predictor runs in the same run on the same problems as the anchor
(its own evaluator, so neither reuses the other's cached evaluations); `--anchor none` skips it.
Last line: `endgame_problems: n/N` (the chosen predictor).
`--workers N` analyses N problems at once in worker processes of one torch thread each (a many-core host):
the lines come out in the same order with the same moves and values; only the seconds differ.
Usage: python bench/endgame_problems.py [--archive PATH] [--chapter 3.4|6.3] [--limit N] [--predictor auto|kata|net] [--anchor kata|none] [--no-sealed-rules]
       [--model FILE] [--max-nodes N] [--max-total-nodes N] [--workers N]
"""
from __future__ import annotations

import argparse
import json
import sys
import tarfile
import time
from dataclasses import dataclass, replace
from pathlib import Path

from tengen.endgame.options import DEFAULT_MAX_NODES as CLI_MAX_NODES
from tengen.endgame.options import DEFAULT_MAX_TOTAL_NODES as CLI_MAX_TOTAL_NODES
from tengen.endgame.analysis import analyze_board
from tengen.endgame.options import AnalysisOptions
from tengen.endgame.move_check import policy_move
from tengen.endgame.tree import GrowthConfig, growth_settings
from tengen.go.board import Board
from tengen.go.colors import BLACK, WHITE
from tengen.go.coords import Point, to_gtp
from tengen.go.rules import Rules
from tengen.files import shared_data_path  # noqa: E402

DEFAULT_ARCHIVE = shared_data_path("problems", "sanderland_tsumego.tar.xz", must_exist=False)
CHAPTER = "Endgame"  # folder names of the endgame chapters ("3.4 Endgame", "6.3 Endgame")


@dataclass
class Problem:
    name: str
    board: Board
    answers: set[Point]

    def region(self, reach: int = 3) -> list[Point]:
        """The diagram's contested points: empty points of the stones' bounding box (one line wider, clipped
        to the board) within `reach` steps of a stone of each color. The open areas a partial diagram
        leaves empty are not part of the question (the whole box would let a big point elsewhere win);
        with reach 3 the book's answer lies inside for 70 of the 71 problems."""
        grid = self.board.array()
        h, w = self.board.height, self.board.width
        stones = {c: [(r, q) for r in range(h) for q in range(w) if grid[r, q] == c] for c in (BLACK, WHITE)}
        every = stones[BLACK] + stones[WHITE]
        r0, r1 = max(min(r for r, _ in every) - 1, 0), min(max(r for r, _ in every) + 1, h - 1)
        c0, c1 = max(min(q for _, q in every) - 1, 0), min(max(q for _, q in every) + 1, w - 1)

        def near(p: Point, color: int) -> bool:
            return any(abs(p[0] - r) + abs(p[1] - q) <= reach for r, q in stones[color])

        return [(r, q) for r in range(r0, r1 + 1) for q in range(c0, c1 + 1)
                if not grid[r, q] and near((r, q), BLACK) and near((r, q), WHITE)]


def _point(sgf: str) -> Point:
    return ord(sgf[1]) - ord("a"), ord(sgf[0]) - ord("a")


def load_problems(archive: Path) -> list[Problem]:
    """The endgame problems of the archive, in path order (area scoring, no komi: a local question)."""
    out = []
    with tarfile.open(archive) as tar:
        members = sorted((m for m in tar.getmembers() if m.isfile() and m.name.endswith(".json")
                          and f" {CHAPTER}/" in m.name), key=lambda m: m.name)
        for m in members:
            data = json.load(tar.extractfile(m))
            size = int(data.get("SZ", 19))
            board = Board(size, rules=Rules.chinese(komi=0))
            board.setup(black=[_point(v) for v in data.get("AB", [])], white=[_point(v) for v in data.get("AW", [])])
            solutions = data.get("SOL") or []
            if not solutions:
                continue
            board.to_play = BLACK if solutions[0][0] == "B" else WHITE
            answers = {_point(s[1]) for s in solutions if s[0] == solutions[0][0] and len(s[1]) == 2}
            name = "/".join(m.name.split("/")[-2:])
            out.append(Problem(name, board, answers))
    return out


def local_policy_move(board: Board, evaluator, points: list[Point]) -> Point | None:
    """The network's most likely legal move for the side to play among `points`."""
    policy = evaluator.evaluate([board])[0].policy
    legal = [p for p in points if board.is_legal(board.to_play, p)]
    return max(legal, key=lambda p: float(policy[p]), default=None)


@dataclass
class Outcome:
    """One problem's printed line and what it adds to the totals."""

    line: str
    passed: bool
    policy_passed: bool
    local_passed: bool
    anchor_passed: bool
    cold: bool
    fight: bool
    seconds: float
    anchor_seconds: float


class ProblemSolver:
    """The evaluators of one process (their own caches, so no problem reuses another's evaluations) and the
    analysis of one problem with the chosen predictor, the anchor predictor and the policy anchors."""

    def __init__(self, args, threads: int | None = None):
        from tengen.eval.katago.evaluator import KataGoEvaluator

        self.args = args
        self.evaluator = KataGoEvaluator(args.model, threads=threads)
        self.anchor = anchor_predictor(args)
        self.anchor_evaluator = KataGoEvaluator(args.model, threads=threads) if self.anchor else None
        self.growth = growth_settings(args.growth, GrowthConfig(max_nodes=args.max_nodes,
                                                                max_total_nodes=args.max_total_nodes or None))

    def solve(self, p: Problem) -> Outcome:
        args, anchor = self.args, self.anchor
        h = p.board.height
        region = p.region()
        options = AnalysisOptions(predictor=args.predictor, growth=self.growth, sealed_rules=not args.no_sealed_rules,
                                  local_model=args.local_model, leaf_scoring="evaluator")
        anchor_note, anchor_ok, anchor_seconds = "", False, 0.0
        if anchor:
            start = time.perf_counter()
            other = analyze_board(p.board, self.anchor_evaluator, replace(options, predictor=anchor),
                                  region_points=region)
            anchor_seconds = time.perf_counter() - start
            anchor_move = None if other.recommended is None else other.recommended[1]
            anchor_ok = anchor_move in p.answers
            anchor_note = f"; {anchor} {_gtp(anchor_move, h)} {'PASS' if anchor_ok else 'fail'} {anchor_seconds:.1f}s"
        start = time.perf_counter()
        analysis = analyze_board(p.board, self.evaluator, options, region_points=region)
        seconds = time.perf_counter() - start
        move = None if analysis.recommended is None else analysis.recommended[1]
        policy = policy_move(p.board, self.evaluator)
        local = local_policy_move(p.board, self.evaluator, region)
        ok = move in p.answers
        r = analysis.regions[0]
        detail = f"{r.method}, {len(r.region.points)} pts, t {_f(r.temperature)}, {r.kind}" + \
            (", cold fight" if r.cold_fight else "")
        line = (f"{p.name:28} {'B' if p.board.to_play == BLACK else 'W'} tengen {_gtp(move, h):4} "
                f"policy {_gtp(policy, h):4} in diagram {_gtp(local, h):4} expected [{'|'.join(sorted(to_gtp(a, h) for a in p.answers))}]"
                f"{'':2} {'PASS' if ok else 'fail'}  ({detail}; {seconds:.1f}s{anchor_note})")
        return Outcome(line, ok, policy in p.answers, local in p.answers, anchor_ok, r.kind == "number",
                       bool(r.cold_fight), seconds, anchor_seconds)


def anchor_predictor(args) -> str | None:
    """The predictor also run on every problem as the anchor (None: `--anchor none`, or it is the chosen one)."""
    return None if args.anchor == "none" or args.anchor == args.predictor else args.anchor


def select_problems(args) -> list[Problem]:
    """The problems the arguments ask for (ValueError with a one-line message when there are none)."""
    if not Path(args.archive).exists():
        raise ValueError(f"problem archive not found: {args.archive}")
    problems = load_problems(Path(args.archive))
    if args.chapter:
        problems = [p for p in problems if p.name.startswith(f"{args.chapter} ")]
        if not problems:
            raise ValueError(f"no endgame problems in chapter {args.chapter!r}")
    return problems[:args.limit] if args.limit else problems


_WORKER: dict = {}  # in a worker process: its solver and its own copy of the problems


def _worker_start(args) -> None:
    _WORKER["solver"] = ProblemSolver(args, threads=1)
    _WORKER["problems"] = select_problems(args)


def _worker_solve(index: int) -> Outcome:
    return _WORKER["solver"].solve(_WORKER["problems"][index])


def outcomes(args, problems: list[Problem]):
    """Each problem's outcome, in the problems' order: in this process, or with `--workers N` in N worker
    processes of one torch thread each (each loads its own network; the lines and totals are the same)."""
    if args.workers <= 1:
        solver = ProblemSolver(args)
        for p in problems:
            yield solver.solve(p)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("spawn")  # torch is not fork-safe
    with ProcessPoolExecutor(args.workers, mp_context=context, initializer=_worker_start,
                             initargs=(args,)) as pool:
        yield from pool.map(_worker_solve, range(len(problems)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--archive", default=str(DEFAULT_ARCHIVE))
    parser.add_argument("--chapter", default=None, help="only one chapter, by its number (3.4 or 6.3)")
    parser.add_argument("--limit", type=int, default=0, help="only the first N problems (0: all)")
    parser.add_argument("--predictor", choices=["auto", "kata", "net"], default="auto")
    parser.add_argument("--anchor", choices=["kata", "none"], default="kata",
                        help="also run this predictor on every problem (skipped when it is the chosen one)")
    parser.add_argument("--no-sealed-rules", action="store_true",
                        help="let the network end lines and count leaves even where the mask seals the region")
    parser.add_argument("--model", default=None)
    parser.add_argument("--max-nodes", type=int, default=CLI_MAX_NODES, help="node budget per local tree")
    parser.add_argument("--max-total-nodes", type=int, default=CLI_MAX_TOTAL_NODES, help="node budget per position")
    parser.add_argument("--growth", default="", help="tree-growth settings NAME=VALUE,... (tengen.endgame.tree."
                        "GrowthConfig: leaf_no_move, one_color_share, move_fraction, answer_threshold, ...)")
    parser.add_argument("--local-model", default=None, help="net / auto: local-move network weights "
                        "(default: the committed models/localnet/localnet.pt)")
    parser.add_argument("--workers", type=int, default=1,
                        help="problems analysed at once, each worker with one torch thread (default 1: this process)")
    args = parser.parse_args()
    try:
        problems = select_problems(args)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    anchor = anchor_predictor(args)
    passed = policy_passed = local_passed = anchor_passed = 0
    cold = fights = 0
    total = anchor_total = 0.0
    for outcome in outcomes(args, problems):
        print(outcome.line, flush=True)
        passed += outcome.passed
        policy_passed += outcome.policy_passed
        local_passed += outcome.local_passed
        anchor_passed += outcome.anchor_passed
        cold += outcome.cold
        fights += outcome.fight
        total += outcome.seconds
        anchor_total += outcome.anchor_seconds
    workers = f"; {args.workers} workers of 1 thread" if args.workers > 1 else ""
    print(f"settings: predictor {args.predictor}{', no sealed rules' if args.no_sealed_rules else ''}, region = the diagram's contested points, budgets {args.max_nodes} nodes per tree / "
          f"{args.max_total_nodes} per position{'; growth ' + args.growth if args.growth else ''}"
          f"{'; local-move network ' + args.local_model if args.local_model else ''}; {total:.0f} s in all{workers}")
    print(f"the network's policy move alone: {policy_passed}/{len(problems)} on the whole board, "
          f"{local_passed}/{len(problems)} within the diagram")
    print(f"cold roots (the region a number): {cold}; of them cold fights (hot first moves, "
          f"`RegionResult.cold_fight`): {fights}")
    if anchor:
        print(f"anchor in the same run: {anchor} {anchor_passed}/{len(problems)} ({anchor_total:.0f} s); "
              f"{args.predictor} {passed}/{len(problems)} ({total:.0f} s)")
    print(f"endgame_problems: {passed}/{len(problems)}")
    return 0


def _gtp(p, height: int) -> str:
    return "pass" if p is None else to_gtp(p, height)


def _f(x) -> str:
    return "-" if x is None else f"{x:.3g}"


if __name__ == "__main__":
    sys.exit(main())
