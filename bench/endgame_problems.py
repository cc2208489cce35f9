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
Usage: python bench/endgame_problems.py [--archive PATH] [--chapter 3.4|6.3] [--limit N] [--predictor auto|kata|net] [--anchor kata|none] [--no-sealed-rules]
       [--model FILE] [--max-nodes N] [--max-total-nodes N]
"""
from __future__ import annotations

import argparse
import json
import sys
import tarfile
import time
from dataclasses import dataclass, replace
from pathlib import Path

from tengen.api import INTERACTIVE_MAX_NODES as CLI_MAX_NODES
from tengen.api import INTERACTIVE_MAX_TOTAL_NODES as CLI_MAX_TOTAL_NODES
from tengen.endgame.analysis import analyze_board
from tengen.endgame.options import AnalysisOptions
from tengen.endgame.move_check import policy_move
from tengen.endgame.tree import GrowthConfig
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
    args = parser.parse_args()
    if not Path(args.archive).exists():
        print(f"problem archive not found: {args.archive}", file=sys.stderr)
        return 2
    problems = load_problems(Path(args.archive))
    if args.chapter:
        problems = [p for p in problems if p.name.startswith(f"{args.chapter} ")]
        if not problems:
            print(f"no endgame problems in chapter {args.chapter!r}", file=sys.stderr)
            return 2
    if args.limit:
        problems = problems[:args.limit]
    from tengen.eval.katago.evaluator import KataGoEvaluator

    evaluator = KataGoEvaluator(args.model)
    anchor = None if args.anchor == "none" or args.anchor == args.predictor else args.anchor
    anchor_evaluator = KataGoEvaluator(args.model) if anchor else None
    growth = GrowthConfig(max_nodes=args.max_nodes, max_total_nodes=args.max_total_nodes or None)
    passed = policy_passed = local_passed = anchor_passed = 0
    cold = fights = 0
    total = anchor_total = 0.0
    for p in problems:
        h = p.board.height
        region = p.region()
        options = AnalysisOptions(predictor=args.predictor, growth=growth, sealed_rules=not args.no_sealed_rules)
        anchor_note = ""
        if anchor:
            start = time.perf_counter()
            other = analyze_board(p.board, anchor_evaluator, replace(options, predictor=anchor), region_points=region)
            anchor_seconds = time.perf_counter() - start
            anchor_total += anchor_seconds
            anchor_move = None if other.recommended is None else other.recommended[1]
            anchor_passed += anchor_move in p.answers
            anchor_note = f"; {anchor} {_gtp(anchor_move, h)} {'PASS' if anchor_move in p.answers else 'fail'} {anchor_seconds:.1f}s"
        start = time.perf_counter()
        analysis = analyze_board(p.board, evaluator, options, region_points=region)
        seconds = time.perf_counter() - start
        total += seconds
        move = None if analysis.recommended is None else analysis.recommended[1]
        policy = policy_move(p.board, evaluator)
        local = local_policy_move(p.board, evaluator, region)
        ok = move in p.answers
        passed += ok
        policy_passed += policy in p.answers
        local_passed += local in p.answers
        r = analysis.regions[0]
        cold += r.kind == "number"
        fights += bool(r.cold_fight)
        detail = f"{r.method}, {len(r.region.points)} pts, t {_f(r.temperature)}, {r.kind}" + \
            (", cold fight" if r.cold_fight else "")
        print(f"{p.name:28} {'B' if p.board.to_play == BLACK else 'W'} tengen {_gtp(move, h):4} "
              f"policy {_gtp(policy, h):4} in diagram {_gtp(local, h):4} expected [{'|'.join(sorted(to_gtp(a, h) for a in p.answers))}]"
              f"{'':2} {'PASS' if ok else 'fail'}  ({detail}; {seconds:.1f}s{anchor_note})", flush=True)
    print(f"settings: predictor {args.predictor}{', no sealed rules' if args.no_sealed_rules else ''}, region = the diagram's contested points, budgets {args.max_nodes} nodes per tree / "
          f"{args.max_total_nodes} per position; {total:.0f} s in all")
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
