"""A measured negative result for the exact solver's reach (issue 55 item 3): pruning an option by a bound
from one reply does not shrink the local game's search, because the positions it would spare are reached
anyway by other move orders.

The idea (the thermograph form of alpha-beta's refutation): at a position G whose options valued so far
(S) give the record R_S, a Left option C (Black plays) can be left out when some Right option D of C (one
White reply) is valued and LW_D(t) <= R_S's left wall for every t in [0, T(R_S)], strictly at t = 0:
C's contribution to G's left scaffold is RW_C(t) - t <= LW_D(t) (the right scaffold of C is at most D's
left wall taxed, and C's walls lie within its scaffolds or at its mast), so C changes neither the scaffold
below the crossing, nor the crossing, nor the stops and flags the number test reads; Right options
likewise. Every option left out is checked again against G's final R_S (a later option can raise the
crossing). Only positions with no ko ban, whose kept options are all valued outside any loop, prune.

`python devkit/pruned_search_probe.py s4 c2 c3` solves edge strips (`sN`: bench/exhaustive_size.py's 2 x N
strip) and corners (`cN`: its 3 x N corner) with the Python search and with the pruned one, and prints both
position counts, whether the two values agree, and how often each reason stopped the pruning.
"""
from __future__ import annotations

import sys
import threading
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout: devkit/
from exhaustive_size import corner_region, edge_strip  # noqa: E402

from tengen.cgt.thermo import UNBOUNDED  # noqa: E402
from tengen.endgame.exact import LocalRegion  # noqa: E402
from devkit.python_search import Solver, _Open  # noqa: E402
from tengen.go.colors import BLACK, WHITE  # noqa: E402


def _final(res) -> bool:
    """A valued position outside any open loop or ko (one record for all three counts)."""
    return res is not None and not isinstance(res, _Open) and res[0] is not None and res[0] is res[1] is res[2]


def _below(a, b, t_max) -> bool:
    """Wall a <= wall b on [0, t_max] (both piecewise linear: compared at every breakpoint and both ends)."""
    ts = {0, t_max} | {t for t in a.breakpoints() + b.breakpoints() if 0 < t < t_max}
    return all(a.at(t) <= b.at(t) for t in ts)


class PrunedSolver(Solver):
    """`devkit.python_search.Solver` with options left out when one reply bounds them below the options kept."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.pruned = 0
        self.why: Counter = Counter()

    def _visit(self, key: tuple) -> None:
        entered = self._push(key)
        if entered is None:
            return
        info, index = entered
        self.stands[key] = info.as_it_stands
        self.low[key] = low = index

        def go(child) -> None:
            nonlocal low
            low = self._visit_option(child, low)

        opts = self.options(key, info)
        can_prune = key[2] is None
        self.why["a ko ban at the position"] += not can_prune
        kept: tuple[list, list] = ([], [])
        deferred: tuple[list, list] = ([], [])
        for side in (0, 1):
            for n, (i, child) in enumerate(opts[side]):
                later = can_prune and n > 0 and child is not None and child[2] is None
                (deferred if later else kept)[side].append((i, child))
        for side in (0, 1):
            for _, child in kept[side]:
                go(child)
        while can_prune and any(deferred):
            lefts = [self.tt.get(c) for _, c in kept[0]]
            rights = [self.tt.get(c) for _, c in kept[1]]
            rec = None
            if all(_final(x) for x in lefts + rights):
                rec = self.record([x[0] for x in lefts], [x[0] for x in rights])
            if rec is None or rec.kind == UNBOUNDED or not lefts or not rights:
                self.why["an option kept is in a loop or ko" if rec is None else "unbounded or one-sided"] += 1
                for side in (0, 1):
                    for _, child in deferred[side]:
                        go(child)
                    kept[side].extend(deferred[side])
                    deferred[side].clear()
                break
            failed = self._first_needed(rec, kept, deferred, go)
            if failed is None:
                self.why["pruned"] += 1
                self.pruned += len(deferred[0]) + len(deferred[1])
                break
            self.why["an option needed after all"] += 1
            side, item = failed
            deferred[side].remove(item)
            go(item[1])
            kept[side].append(item)
        self.children[key] = kept
        self._close_component(key, index, low)

    def _first_needed(self, rec, kept, deferred, go):
        """The first deferred (side, option) no reply bounds below rec, or None when every one is bounded."""
        t_max = max(rec.temperature, 0) if rec.number is None else 0
        ls0 = max(self.tt[c][0].rs for _, c in kept[0])
        rs0 = min(self.tt[c][0].ls for _, c in kept[1])
        black = [i for i, c in sorted(kept[0], key=lambda ic: -self.tt[ic[1]][0].rs)]
        white = [i for i, c in sorted(kept[1], key=lambda ic: self.tt[ic[1]][0].ls)]
        for side in (0, 1):
            for item in deferred[side]:
                if not self._bounded(item[1], side, rec, t_max, ls0, rs0, white if side == 0 else black, go):
                    return side, item
        return None

    def _bounded(self, child, side, rec, t_max, ls0, rs0, replies, go) -> bool:
        """Whether one of the opponent's first two replies to `child` bounds it below rec."""
        color = WHITE if side == 0 else BLACK
        for point in replies[:2]:
            reply = self.local.play(child[0], child[1], color, point)
            if reply is None or reply[2] is not None:
                continue
            go(reply)
            res = self.tt.get(reply)
            if not _final(res) or res[0].mean is None:
                continue
            d = res[0]
            if side == 0 and d.ls < ls0 and _below(d.left, rec.left, t_max):
                return True
            if side == 1 and d.rs > rs0 and _below(rec.right, d.right, t_max):
                return True
        return False


def compare(name: str) -> str:
    """One shape through both searches: a line with both position counts and whether the values agree."""
    board, points = (edge_strip if name[0] == "s" else corner_region)(int(name[1:]))
    local = LocalRegion(board, points, False, True)
    root = (local.start[BLACK], local.start[WHITE], None)
    runs = []
    for cls in (Solver, PrunedSolver):
        solver = cls(local, max_nodes=3_000_000, seconds=None, moves="all", sacrifices=False, loop_passes=60)
        t0 = time.perf_counter()
        res = solver.value(root)
        runs.append((solver, res, time.perf_counter() - t0))
    (full, a, ta), (pruned, b, tb) = runs
    same = all(x is y or (x is not None and y is not None and x.same_thermograph(y)) for x, y in zip(a, b))
    why = ", ".join(f"{k} {v}" for k, v in sorted(pruned.why.items()))
    return (f"{name:4s} positions full {full.nodes:7d} ({ta:5.1f} s)  pruned {pruned.nodes:7d} ({tb:5.1f} s)  "
            f"ratio {full.nodes / max(pruned.nodes, 1):4.2f}  same value {same}  options left out {pruned.pruned}  [{why}]")


def main(argv: list[str]) -> int:
    shapes = argv or ["s4", "c2", "c3"]
    sys.setrecursionlimit(200_000)
    threading.stack_size(512 * 1024 * 1024)  # the recursive Python search goes deep
    lines: list[str] = []
    worker = threading.Thread(target=lambda: lines.extend(print(line, flush=True) or line
                                                         for line in map(compare, shapes)))
    worker.start()
    worker.join()
    return 0 if len(lines) == len(shapes) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
