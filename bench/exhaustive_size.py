"""How far the exhaustive local solver goes: 2 x N edge strips (first and second line), bounded by a
Benson-alive Black wall over the left half and a White wall over the right half (for an odd N, White's
half is the longer by one point).

    python bench/exhaustive_size.py [--sizes 2,4,6,7,8,10] [--moves local|all] [--seconds 60] [--max-nodes N]

For each strip: points, status, positions searched, seconds, and the result (kind, mean, temperature,
best first moves). For a solved strip, `needed` counts the positions its thermograph needs (reached
through options whose removal would change a thermograph): what even a search that refuted every
other option for free would still have to value (not included in the seconds); `split`, the positions
searched that fall apart into independent local games (safe stones cut the region): all that a
decomposition search (valuing the parts apart, as sums) could spare. The last lines are
`seconds_at_20: S` for the 20-point strip (N = 10) and, last, `seconds_at_14: S` for the 14-point strip
(N = 7, issue 26's size): the time to a result, or, when the budget ran out first, the time spent before
giving up (with the status before each).
"""
from __future__ import annotations

import argparse
import sys
import threading

from tengen.endgame.exhaustive import ExhaustiveConfig, solve_region
from tengen.go.board import Board
from tengen.go.colors import BLACK, EMPTY, WHITE
from tengen.go.coords import to_gtp
from tengen.go.rules import Rules


def edge_strip(n: int, rules: Rules | None = None) -> tuple[Board, list[tuple[int, int]]]:
    """The benchmark shape: a 2 x n strip on the first and second lines, bounded on the third line by a
    Benson-alive Black wall over its left n // 2 columns and a White wall over the rest, the strip's ends
    closed by the walls. Returns (board, region points)."""
    if n < 2:
        raise ValueError("the strip length must be at least 2")
    left, width, height = n // 2, n + 2, 6
    grid = [[BLACK] * (left + 1) + [WHITE] * (n - left + 1) for _ in range(height - 2)]
    for r in (0, 2):  # two eyes for each wall
        grid[r][0] = EMPTY
        grid[r][-1] = EMPTY
    grid += [[BLACK] + [EMPTY] * n + [WHITE] for _ in range(2)]
    board = Board(width, height, rules=rules or Rules.chinese(komi=0))
    board.setup(black=[(r, c) for r in range(height) for c in range(width) if grid[r][c] == BLACK],
                white=[(r, c) for r in range(height) for c in range(width) if grid[r][c] == WHITE])
    region = [(r, c) for r in (height - 2, height - 1) for c in range(1, n + 1)]
    return board, region


def run(sizes: list[int], moves: str, seconds: float, max_nodes: int) -> float | None:
    at: dict[int, tuple[float, str]] = {}  # points -> (seconds, status)
    print(f"moves={moves} seconds<={seconds} max_nodes={max_nodes}")
    print(f"{'N':>3} {'points':>6} {'status':>11} {'nodes':>9} {'needed':>7} {'split':>7} {'seconds':>8}  result")
    for n in sizes:
        board, region = edge_strip(n)
        res = solve_region(board, region, ExhaustiveConfig(moves=moves, seconds=seconds, max_nodes=max_nodes,
                                                           count_essential=True))
        elapsed = res.seconds
        if res.status == "ok":
            best = ",".join(to_gtp(p, board.height) for p in res.best_black) + " / " + \
                ",".join(to_gtp(p, board.height) for p in res.best_white)
            detail = f"{res.kind} mean {res.mean} temperature {res.temperature} (B/W first: {best})"
            detail += res.caveats()
        else:
            detail = res.reason
        needed = "-" if res.essential_nodes is None else res.essential_nodes
        split = "-" if res.split_nodes is None else res.split_nodes
        print(f"{n:>3} {2 * n:>6} {res.status:>11} {res.nodes:>9} {needed:>7} {split:>7} {elapsed:>8.2f}  {detail}",
              flush=True)
        at[2 * n] = (elapsed, res.status)
    for points in (20, 14):
        if points not in at:
            print(f"seconds_at_{points}: not measured (add {points // 2} to --sizes)")
            continue
        print(f"status_at_{points}: {at[points][1]}")
        print(f"seconds_at_{points}: {at[points][0]:.2f}")
    return at.get(14, (None,))[0]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="2,4,6,7,8,10", help="strip lengths N, comma-separated")
    ap.add_argument("--moves", default="all", choices=("all", "local"),
                    help="all: the exact move set; local: the lossy contact heuristic")
    ap.add_argument("--seconds", type=float, default=60.0, help="time limit per strip")
    ap.add_argument("--max-nodes", type=int, default=2_000_000)
    args = ap.parse_args(argv)
    sizes = [int(x) for x in args.sizes.split(",") if x]
    # deep local lines need a deep Python stack
    sys.setrecursionlimit(1_000_000)
    threading.stack_size(512 * 1024 * 1024)
    out: list = []
    worker = threading.Thread(target=lambda: out.append(run(sizes, args.moves, args.seconds, args.max_nodes)))
    worker.start()
    worker.join()
    return 0


if __name__ == "__main__":
    sys.exit(main())
