"""How far the exhaustive local solver goes, the native engine (C) and the Python oracle (`devkit.python_search`)
side by side in one run: 2 x N
edge strips (first and second line), bounded by a Benson-alive Black wall over the left half and a White
wall over the right half (for an odd N, White's half is the longer by one point).

    python bench/exhaustive_size.py [--sizes 1,2,...,9] [--moves local|all] [--seconds 60] [--max-nodes N]
                                    [--python-seconds 60] [--engines native,python]

For each strip and engine: status, positions searched, seconds (one core: the search runs in this
process's one thread), and the result (kind, mean, temperature, best first moves); both engines must give
the same result, and the line says so (the native engine searches fewer positions: those that differ only
in settled parts are one position to it). The native engine's memory (its tables, bytes per position) is
printed too. For a strip the native engine solved, `needed` counts the positions its thermograph needs
(reached through options whose removal would change a thermograph): what even a search that refuted every
other option for free would still have to value (not included in the seconds); `split`, the positions
searched that fall apart into independent local games (safe stones cut the region): what a decomposition
search (valuing the parts apart, as sums) could spare. The Python engine is skipped for strips after the
first it could not finish. Then `status_at_14` and `seconds_at_14: S` for the 14-point strip (N = 7): the
native engine's time to a result, or, when its budget ran out first, the time spent before giving up. Last,
the issue's 30-point bar (`--corner-columns 10`, 0 to skip): a 3 x 10 corner region (the first three lines
from the corner, 30 empty points) under a Benson-alive Black wall over its five corner columns and a White
wall over the rest and down its open end, solved by the native engine within the same limits:
`status_corner_30` and, last, `seconds_corner_30: Y` (as `seconds_at_14`).
"""
from __future__ import annotations

import argparse
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout: devkit/ (the Python oracle)
from devkit.python_search import PYTHON  # noqa: E402
from tengen.endgame.exact import ExhaustiveConfig, solve_region  # noqa: E402
from tengen.go.board import Board  # noqa: E402
from tengen.go.colors import BLACK, EMPTY, WHITE  # noqa: E402
from tengen.go.coords import to_gtp  # noqa: E402
from tengen.go.rules import Rules  # noqa: E402

ENGINES = {"native": "native", "python": PYTHON}  # the product's engine, and the Python oracle beside it


def edge_strip(n: int, rules: Rules | None = None) -> tuple[Board, list[tuple[int, int]]]:
    """The benchmark shape: a 2 x n strip on the first and second lines, bounded on the third line by a
    Benson-alive Black wall over its left n // 2 columns and a White wall over the rest, the strip's ends
    closed by the walls. Returns (board, region points)."""
    if n < 1:
        raise ValueError("the strip length must be at least 1")
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


def corner_region(columns: int, rows: int = 3, rules: Rules | None = None) -> tuple[Board, list[tuple[int, int]]]:
    """A rows x columns corner region (the first `rows` lines from the lower-left corner) between walls: above it
    a Black wall over the corner's columns // 2 columns and a White wall over the rest, the White wall also
    closing the region's far end; each wall two eyes (Benson-alive). Returns (board, region points)."""
    if columns < 2 or rows < 1:
        raise ValueError("the corner needs at least 2 columns and 1 row")
    left, wall_rows, width = columns // 2, 5, columns + 3
    height = wall_rows + rows
    grid = [[BLACK] * left + [WHITE] * (width - left) for _ in range(wall_rows)]
    grid += [[EMPTY] * columns + [WHITE] * 3 for _ in range(rows)]
    for r in (0, 2):  # two eyes for each wall: Black's at the board's left edge, White's at the right
        grid[r][0] = EMPTY
        grid[r][-1] = EMPTY
    board = Board(width, height, rules=rules or Rules.chinese(komi=0))
    board.setup(black=[(r, c) for r in range(height) for c in range(width) if grid[r][c] == BLACK],
                white=[(r, c) for r in range(height) for c in range(width) if grid[r][c] == WHITE])
    region = [(r, c) for r in range(wall_rows, height) for c in range(columns)]
    return board, region


def run_corner(columns: int, moves: str, seconds: float, max_nodes: int) -> None:
    """The 3 x columns corner by the native engine: one row, then `status_corner_N` and `seconds_corner_N`."""
    board, region = corner_region(columns)
    res = solve_region(board, region, ExhaustiveConfig(moves=moves, seconds=seconds, max_nodes=max_nodes,
                                                       engine="native"))
    mb = f"{res.memory_bytes / 1e6:.0f}" if res.memory_bytes else "-"
    print(f"corner 3 x {columns} ({len(region)} points) native {res.status} positions {res.nodes} "
          f"seconds {res.seconds:.2f} MB {mb}  {_summary(res, board)}", flush=True)
    print(f"status_corner_{len(region)}: {res.status}")
    print(f"seconds_corner_{len(region)}: {res.seconds:.2f}")


def _summary(res, board) -> str:
    if res.status != "ok":
        return res.reason
    best = ",".join(to_gtp(p, board.height) for p in res.best_black) + " / " + \
        ",".join(to_gtp(p, board.height) for p in res.best_white)
    return f"{res.kind} mean {res.mean} temperature {res.temperature} (B/W first: {best})" + res.caveats()


def run(sizes: list[int], moves: str, seconds: float, max_nodes: int, python_seconds: float,
        engines: list[str]) -> float | None:
    at: dict[int, tuple[float, str]] = {}  # points -> (native seconds, status)
    print(f"moves={moves} native: seconds<={seconds} max_nodes={max_nodes}; python: seconds<={python_seconds}")
    print(f"{'N':>3} {'points':>6} {'engine':>7} {'status':>10} {'positions':>10} {'needed':>7} {'split':>8} "
          f"{'seconds':>8} {'MB':>6}  result")
    python_done = "python" in engines
    for n in sizes:
        board, region = edge_strip(n)
        results = {}
        for engine in engines:
            if engine == "python" and not python_done:
                print(f"{n:>3} {2 * n:>6} {'python':>7} {'skipped':>10}  (a shorter strip was already too large)")
                continue
            limit = python_seconds if engine == "python" else seconds
            res = solve_region(board, region, ExhaustiveConfig(moves=moves, seconds=limit, max_nodes=max_nodes,
                                                               count_essential=True, engine=ENGINES[engine]))
            results[engine] = res
            needed = "-" if res.essential_nodes is None else res.essential_nodes
            split = "-" if res.split_nodes is None else res.split_nodes
            mb = f"{res.memory_bytes / 1e6:.0f}" if res.memory_bytes else "-"
            print(f"{n:>3} {2 * n:>6} {engine:>7} {res.status:>10} {res.nodes:>10} {needed:>7} {split:>8} "
                  f"{res.seconds:>8.2f} {mb:>6}  {_summary(res, board)}", flush=True)
            if engine == "python" and res.status != "ok":
                python_done = False
        if "native" in results and "python" in results and results["python"].status == "ok":
            a, b = results["native"], results["python"]
            # the same answer; the native search counts fewer positions (those differing only in settled parts
            # are one position to it: exact.native)
            same = (a.status, a.kind, a.mean, a.temperature, a.best_black, a.best_white, a.caveats()) == \
                (b.status, b.kind, b.mean, b.temperature, b.best_black, b.best_white, b.caveats())
            ratio = b.seconds / a.seconds if a.seconds > 0 else float("inf")
            print(f"{'':>3} {'':>6} {'':>7} {'same' if same else 'DIFFERENT':>10}  native {ratio:.0f}x faster")
        first = results.get("native") or results.get("python")
        if first is not None:
            at[2 * n] = (first.seconds, first.status)
    if 14 not in at:
        print("seconds_at_14: not measured (add 7 to --sizes)")
        return None
    print(f"status_at_14: {at[14][1]}")
    print(f"seconds_at_14: {at[14][0]:.2f}")
    return at[14][0]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1,2,3,4,5,6,7,8,9", help="strip lengths N (2N points), comma-separated")
    ap.add_argument("--moves", default="all", choices=("all", "local"),
                    help="all: the exact move set; local: the lossy contact heuristic")
    ap.add_argument("--seconds", type=float, default=60.0, help="the native engine's time limit per strip")
    ap.add_argument("--max-nodes", type=int, default=12_000_000,
                    help="positions per strip (the native engine holds about 250 bytes each: 12M ~ 3 GB)")
    ap.add_argument("--python-seconds", type=float, default=60.0, help="the Python engine's time limit per strip")
    ap.add_argument("--engines", default="native,python", help="which engines, comma-separated")
    ap.add_argument("--corner-columns", type=int, default=10,
                    help="the corner region's columns (3 rows; the issue's bar: 10, 30 points); 0: skip it")
    args = ap.parse_args(argv)
    sizes = [int(x) for x in args.sizes.split(",") if x]
    # deep local lines need a deep Python stack
    sys.setrecursionlimit(1_000_000)
    threading.stack_size(512 * 1024 * 1024)
    out: list = []
    engines = [e for e in args.engines.split(",") if e]
    def both() -> None:
        out.append(run(sizes, args.moves, args.seconds, args.max_nodes, args.python_seconds, engines))
        if args.corner_columns:
            run_corner(args.corner_columns, args.moves, args.seconds, args.max_nodes)

    worker = threading.Thread(target=both)
    worker.start()
    worker.join()
    return 0


if __name__ == "__main__":
    sys.exit(main())
