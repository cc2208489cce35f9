"""The dev half of the course book "Endgame for nerds" (`../shared/data/efn_dev`, 50 marked diagrams) through
the default analysis, problem by problem, against the book's values and lines.

Each diagram is analyzed as `tengen analyze FILE --move 0` does (the root node: its SQ[] region, the default
`AnalysisOptions()`; the network only where the exact solver declines). Scoring as the reference benchmark
of Frejlak's paper scores it (`efn_dev/README.md`): right when the area temperature T of the marked region
satisfies |T - (g/2 + 1)| <= 1e-5 for the book's value g (a territory-scoring deiri value). Each line gives
the engine that answered, tengen's value in the book's terms (g = 2 (T - 1)) beside the book's, and for a
miss why: the exact solver declined (and its reason), a ko or repetition decided the value (for a ko valued with
its taker winning it, whether the book's temperature lies inside the bracket its valuations span: if not, no ko
rule gives the book's value and the two games differ), or the first move at which tengen's principal line leaves
the book's variations. Every diagram's own variations are valued too (`--predictor oracle --leaves solver`: the
book's tree, each leaf's local game solved exactly and counted by its mean, the way a textbook counts a position
with moves left), so a miss also says whether the book's number follows from the book's own lines: where they give
tengen's value, the book's number is not the CGT value of its lines (a simplification of the book's); where they
give the book's, tengen's search differs from the book's lines (a line the book leaves out, a convention). The
line before the last two: `book_lines: K/50` (the book's own lines right by the same test).
Last lines: `efn_dev_exact: S solved, R right` (regions the exact solver answered, and how many of those are
right) and `efn_dev_correct: N/50`.
Usage: python bench/efn_dev.py [--chapter 06-value-of-ko] [--data DIR]
"""
from __future__ import annotations

import argparse
import re
import sys
import time
import warnings
from fractions import Fraction
from pathlib import Path
from typing import Optional

from tengen.endgame.notes import of_kind
from tengen.files import shared_data_path
from tengen.go.colors import BLACK
from tengen.go.coords import to_gtp

TOLERANCE = 1e-5
_VALUE = re.compile(r"\s*(-?\d+)(?:\s+(\d+)/(\d+)|/(\d+))?")


def book_value(comment: str) -> Fraction:
    """The book's value from the root comment: `6`, `4 1/2`, `25/9` (a sentence may follow)."""
    m = _VALUE.match(comment or "")
    if not m:
        raise ValueError(f"no value in the comment {comment[:40]!r}")
    whole, num, den, over = m.groups()
    if over:
        return Fraction(int(whole), int(over))
    value = Fraction(int(whole))
    return value + Fraction(int(num), int(den)) if num else value


def book_lines(node, height: int) -> dict:
    """The book's variations as {(color, point): subtree} (points as tengen's (row, col), row 0 on top)."""
    out = {}
    for child in node:
        color, move = child.get_move()
        if color is None:
            continue
        point = None if move is None else (height - 1 - move[0], move[1])
        out[(BLACK if color == "b" else -BLACK, point)] = book_lines(child, height)
    return out


def divergence(line: list, tree: dict, height: int) -> str:
    """Where tengen's principal line leaves the book's tree, in words ('' when the book holds it all)."""
    for ply, (color, point) in enumerate(line, 1):
        name = f"{'B' if color == BLACK else 'W'} {to_gtp(point, height) if point else 'pass'}"
        if not tree:
            return f"move {ply} ({name}): the book's line stops before it"
        if (color, point) not in tree:
            book = ", ".join(f"{'B' if c == BLACK else 'W'} {to_gtp(p, height) if p else 'pass'}" for c, p in tree)
            return f"move {ply} ({name}): the book plays {book} here"
        tree = tree[(color, point)]
    return ""


_BRACKET = re.compile(r"temperature between (-?\d+(?:/\d+)?) and (-?\d+(?:/\d+)?)")


def why(result, book_tree: dict, height: int, book_temperature: Optional[Fraction] = None) -> str:
    """The first reason a miss has: the solver declined, a ko or repetition (and whether the book's temperature
    lies inside the bracket the ko's valuations span), or where the lines part."""
    if result is None:
        return "no region found"
    if result.declined:
        if result.temperature is None:
            return f"exact solver declined: {result.declined}"
        return f"exact solver declined: {result.declined}; the tree answered: {_lines(result, book_tree, height)}"
    kos = of_kind(result.notes, "repetition")  # a ko or loop that decided the value
    if kos and result.method == "exhaustive":
        found = _BRACKET.search(kos[-1])
        if found and book_temperature is not None:
            low, high = sorted(Fraction(x) for x in found.groups())
            span = f"the bracket its ko valuations span ({_fraction_text(low)}..{_fraction_text(high)})"
            where = (f"inside {span}: a ko valuation could give the book's value" if low <= book_temperature <= high
                     else f"outside {span}: no ko valuation gives it, the two games differ")
            return f"a ko decides it; the book's temperature {_fraction_text(book_temperature)} lies {where}: {kos[-1]}"
        return "a ko or repetition decides it: " + kos[-1]
    return _lines(result, book_tree, height)


def _lines(result, book_tree: dict, height: int) -> str:
    """Where each side's principal line leaves the book's tree, or that the lines are the book's."""
    parts = []
    for first, line in ((BLACK, result.principal_black), (-BLACK, result.principal_white)):
        d = divergence(line, book_tree, height)
        if d:
            parts.append(f"{'Black' if first == BLACK else 'White'} first leaves the book at {d}")
    return "; ".join(parts) or "the same lines as the book, valued differently (the leaves' counts)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chapter", default=None, help="one chapter's folder, e.g. 06-value-of-ko")
    parser.add_argument("--data", default=str(shared_data_path("efn_dev", must_exist=False)))
    args = parser.parse_args()
    data = Path(args.data)
    if not data.is_dir():
        print(f"skipped: the efn_dev diagrams are not at {data}", file=sys.stderr)
        return 0
    files = sorted(data.glob(f"{args.chapter or '*'}/*.sgf"))
    if not files:
        print(f"no diagrams under {data} for chapter {args.chapter!r}", file=sys.stderr)
        return 2
    import tengen
    from tengen.go.position import load_position

    print("assumed: each diagram's root node, Chinese (area) rules, the default settings; book values are "
          "territory deiri values g, compared as area temperature g/2 + 1")
    solved = right_exact = right = book_right = 0
    start = time.perf_counter()
    for path in files:
        name = f"{path.parent.name}/{path.stem}"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            position = load_position(path, 0)
            g = book_value(position.node.get("C") if position.node.has_property("C") else "")
            t0 = time.perf_counter()
            analysis = tengen.analyze(position)
            seconds = time.perf_counter() - t0
            lines = tengen.analyze(position, predictor="oracle", leaf_scoring="solver").regions
        book_t = lines[0].temperature if lines else None
        unsolved_leaves = _unsolved_leaves(lines[0]) if lines else 0
        result = analysis.regions[0] if analysis.regions else None
        temperature = None if result is None else result.temperature
        ok = temperature is not None and abs(temperature - float(g / 2 + 1)) <= TOLERANCE
        book_ok = book_t is not None and abs(book_t - float(g / 2 + 1)) <= TOLERANCE
        book_right += book_ok
        exact = result is not None and result.method == "exhaustive"
        solved += exact
        right_exact += exact and ok
        right += ok
        engine = "exact" if exact else ("unsolved" if result is None or temperature is None else
                                        f"tree ({analysis.predictor})")
        mine = "-" if temperature is None else _fraction_text(2 * (Fraction(temperature).limit_denominator(1000) - 1))
        kind = "-" if result is None else result.kind
        line = (f"{name:28s} {'right' if ok else 'MISS ':5s} engine {engine:11s} type {kind:12s} "
                f"tengen g {mine:>6s}  book g {_fraction_text(g):>6s}  {seconds:5.1f} s")
        if not ok:
            line += "  why: " + why(result, book_lines(position.node, position.board.height), position.board.height,
                                    g / 2 + 1)
            line += "; " + own_lines_verdict(book_t, temperature, book_ok, unsolved_leaves)
        print(line, flush=True)
    print(f"seconds: {time.perf_counter() - start:.1f}")
    print(f"book_lines: {book_right}/{len(files)}")
    print(f"efn_dev_exact: {solved} solved, {right_exact} right")
    print(f"efn_dev_correct: {right}/{len(files)}")
    return 0


def _unsolved_leaves(result) -> int:
    """How many of the book tree's leaves the exact solver left to the area count (from the region's note)."""
    found = re.search(r"(\d+) too large or unsolved", " ".join(of_kind(result.notes, "leaves")))
    return int(found.group(1)) if found else 0


def own_lines_verdict(book_t: Optional[float], temperature: Optional[float], book_ok: bool, unsolved: int = 0) -> str:
    """What the book's own lines, their leaves solved exactly, say about a miss (book_t: their temperature;
    `unsolved`: leaves too large for the solver, counted as they stand)."""
    how = ("leaves solved exactly" if not unsolved else
           f"leaves solved exactly but {unsolved} too large for the solver, counted as they stand")
    if book_t is None:
        return f"the book's own lines ({how}) give no value"
    g = _fraction_text(2 * (Fraction(book_t).limit_denominator(1000) - 1))
    if book_ok:
        return f"the book's own lines ({how}) give the book's value g {g}: tengen's play leaves them"
    if temperature is not None and abs(book_t - temperature) <= TOLERANCE:
        return (f"the book's own lines ({how}) give tengen's value g {g}: the book's number does not "
                "follow from its lines by CGT" + (" (a simplification of the book's)" if not unsolved else ""))
    return f"the book's own lines ({how}) give g {g}, neither tengen's nor the book's"


def _fraction_text(x: Fraction) -> str:
    return str(x) if x.denominator != 1 else str(x.numerator)


if __name__ == "__main__":
    sys.exit(main())
