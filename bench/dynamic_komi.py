"""Dynamic komi in handicap games: tengen as White giving H2 and H4, with and without dynamic komi.

The seed's handicap comparison scaled to this machine. Each cell is one match: tengen (`tengen gtp --player
search --visits N --dynamic-komi {none,ss,vs,mldk}`) always White, giving the cell's fixed handicap
(GTP fixed_handicap: H2, H4, ...) at komi 0.5, against `--opponent` (default GNU Go level 10, Chinese rules;
calibrate it so that H2-none lands near 50 %: a weaker GNU Go level, or tengen at fewer visits). A game ends
on two passes (scored by GNU Go's final_score as referee), a resignation, an illegal move or the move cap
(3 x points). Cells are played in rounds of --round games each, so a stopped run has comparable cells; each
cell's folder (`~/.cache/tengen/matches/dynkomi-v<visits>-<size>-<hash of the opponent and --tengen-flags>/
<cell>/`: match.json, results.jsonl, games/*.sgf) continues where it stopped. Intervals are 1.96 * sqrt(p(1-p)/n).

    python bench/dynamic_komi.py [--games 50] [--visits 16] [--threads 2] [--device cpu] [--opponent "CMD"]
        [--cells H2-none,H2-mldk,H4-none,H4-mldk] [--size 19] [--tengen-flags "..."] [--parallel 1] [--status]

Prints a table (cell, games, distinct games, tengen wins, win rate +- interval, settings) and last `cells: N`,
the cells with at least --games games finished. `--status` prints the table from what is on disk and plays nothing.
"""
from __future__ import annotations

import argparse
import hashlib
import re
import shlex
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from tengen.eval.gtp_client import find_gnugo  # noqa: E402
from tengen.play.match import MatchError, MatchSettings, print_result, run_match, summarize  # noqa: E402

KOMI = 0.5
MODES = ("none", "ss", "vs", "mldk")
CELL = re.compile(r"^H(\d+)-(none|ss|vs|mldk)$")


def tengen_lacks(flags: list[str]) -> list[str]:
    """The flags `tengen gtp --help` does not list (the search player may not be there yet)."""
    text = subprocess.run([sys.executable, "-m", "tengen", "gtp", "--help"], capture_output=True, text=True,
                          timeout=120).stdout
    return [flag for flag in flags if flag not in text]


def parse_cells(text: str) -> list[tuple[str, int, str]]:
    """'H2-none,H4-mldk' -> [(name, handicap, mode)] (ValueError naming a bad cell)."""
    cells = []
    for name in (c.strip() for c in text.split(",") if c.strip()):
        match = CELL.match(name)
        if not match:
            raise ValueError(f"--cells {name}: expected H<stones>-<{'|'.join(MODES)}>")
        cells.append((name, int(match.group(1)), match.group(2)))
    if not cells:
        raise ValueError("--cells: no cell given")
    return cells


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="games per cell")
    parser.add_argument("--visits", type=int, default=16, help="tengen's search visits per move")
    parser.add_argument("--threads", type=int, default=2, help="tengen's torch threads")
    parser.add_argument("--device", default="cpu", help="tengen's network device: cpu, cuda, auto")
    parser.add_argument("--opponent", default=None, help="Black's engine command (default GNU Go level 10)")
    parser.add_argument("--tengen-flags", default="",
                        help="more `tengen gtp` flags for White in every cell (e.g. '--temperature-halflife 38': "
                             "more varied games on a small board)")
    parser.add_argument("--cells", default="H2-none,H2-mldk,H4-none,H4-mldk")
    parser.add_argument("--size", type=int, default=19)
    parser.add_argument("--parallel", type=int, default=1, help="games at once within a cell")
    parser.add_argument("--round", type=int, default=10, help="games per cell before moving to the next cell")
    parser.add_argument("--out-root", default=None, help="folder of the cells' folders")
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds per GTP answer")
    parser.add_argument("--status", action="store_true", help="print the table from disk; play nothing")
    args = parser.parse_args()

    args.round = max(1, args.round)
    try:
        cells = parse_cells(args.cells)
    except ValueError as exc:
        print(f"dynamic_komi: error: {exc}", file=sys.stderr)
        return 2
    gnugo = find_gnugo()
    opponent = args.opponent or (f"{gnugo} --mode gtp --level 10 --chinese-rules" if gnugo else None)
    if opponent is None:
        print("dynamic_komi: error: GNU Go is not installed; name an --opponent", file=sys.stderr)
        return 2
    flags = " ".join(shlex.quote(flag) for flag in shlex.split(args.tengen_flags))
    tag = hashlib.sha1((opponent + (f"\n{flags}" if flags else "")).encode()).hexdigest()[:8]
    root = Path(args.out_root or Path.home() / ".cache" / "tengen" / "matches"
                / f"dynkomi-v{args.visits}-{args.size}-{tag}").expanduser()
    base = (f"{shlex.quote(sys.executable)} -m tengen gtp --player search --visits {args.visits} "
            f"--threads {args.threads} --device {args.device}")
    if flags:
        base += " " + flags
    plan = {name: MatchSettings(a=f"{base} --dynamic-komi {mode}", b=opponent, size=args.size, komi=KOMI,
                                handicap=stones, a_color="white", referee="gnugo")
            for name, stones, mode in cells}

    print(f"tengen (White, A): {base} --dynamic-komi <cell's mode>")
    print(f"opponent (Black, B): {opponent}")
    print(f"{args.size}x{args.size}, komi {KOMI:g}, fixed handicap per cell, referee GNU Go final_score, "
          f"{args.games} games per cell; cells under {root}")
    if not args.status:
        missing = tengen_lacks(["--player", "--visits", "--dynamic-komi"])
        if missing:
            print(f"dynamic_komi: error: `tengen gtp` has no {', '.join(missing)} yet", file=sys.stderr)
            return 2
        try:
            for target in range(min(args.round, args.games), args.games + args.round, args.round):
                for name, settings in plan.items():
                    print(f"-- {name}: up to {min(target, args.games)} games", flush=True)
                    run_match(settings, root / name, min(target, args.games), args.parallel, args.timeout,
                              print_result)
        except MatchError as exc:
            print(f"dynamic_komi: error: {exc}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            print("dynamic_komi: stopped; run the same command to continue", file=sys.stderr)

    print(f"{'cell':10} {'games':>5} {'distinct':>8} {'tengen wins':>11} {'win rate':>16}  settings")
    full = 0
    for name, stones, mode in cells:
        folder = root / name
        s = summarize(folder) if (folder / "match.json").exists() else None
        games = s.games if s else 0
        full += games >= args.games
        rate = f"{s.winrate:.3f} +- {s.interval:.3f}" if games else "-"
        wins = f"{s.a_wins:g}" if s else "0"
        distinct = s.distinct if s else 0
        print(f"{name:10} {games:>5} {distinct:>8} {wins:>11} {rate:>16}  H{stones}, komi {KOMI:g}, tengen White, "
              f"dynamic komi {mode}, {args.visits} visits" + (f", {flags}" if flags else ""))
    print(f"cells: {full}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
