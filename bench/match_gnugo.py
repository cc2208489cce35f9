"""tengen's search against GNU Go 3.8: the win rate of even games, with its 95 % interval.

tengen (`tengen gtp --player search --visits N --threads T`) plays GNU Go (`--level 10`, Chinese rules) on
19x19, even games, komi 7.5, colours alternating (tengen Black in games 1, 3, ...), at least 50 games. A
game ends on two passes (scored by GNU Go's final_score as referee), a resignation, an illegal move or the
move cap (3 x 361 moves, then scored). Every game is an SGF under the out folder (default
~/.cache/tengen/matches/gnugo-v<visits>), and a stopped run continues where it stopped when started again
with the same settings (a folder holding other settings is refused). The interval is 1.96 * sqrt(p(1-p)/n).
One match can be shared out between machines: each plays its own game numbers (`--first N --games M`, into
its own folder), and `--merge FOLDER` copies another folder's finished games into this one (same settings only)
before the summary; game N is the same game wherever it is played (colours and seeds follow its number).

    python bench/match_gnugo.py [--games 50] [--visits 16] [--threads 2] [--device cpu] [--parallel 1] [--level 10] [--out DIR]
        [--first N] [--merge FOLDER]

Prints the settings, one line per finished game, the summary, and last `winrate: X` (tengen's win rate).
"""
from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from tengen.eval.gtp_client import find_gnugo  # noqa: E402
from tengen.play.match import MatchError, MatchSettings, merge_match, print_result, run_match  # noqa: E402


def _ranges(numbers: list[int]) -> str:
    """Game numbers as compact ranges: 35-50, 52."""
    parts, start = [], None
    for i, n in enumerate(numbers):
        start = n if start is None else start
        if i + 1 == len(numbers) or numbers[i + 1] != n + 1:
            parts.append(f"{start}-{n}" if n != start else f"{n}")
            start = None
    return ", ".join(parts)


def tengen_lacks(flags: list[str]) -> list[str]:
    """The flags `tengen gtp --help` does not list (the search player may not be there yet)."""
    text = subprocess.run([sys.executable, "-m", "tengen", "gtp", "--help"], capture_output=True, text=True,
                          timeout=120).stdout
    return [flag for flag in flags if flag not in text]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--visits", type=int, default=16, help="tengen's search visits per move (16: one network batch)")
    parser.add_argument("--threads", type=int, default=2, help="tengen's torch threads")
    parser.add_argument("--device", default="cpu", help="tengen's network device: cpu, cuda, auto")
    parser.add_argument("--parallel", type=int, default=1, help="games at once (each with its own engines)")
    parser.add_argument("--level", type=int, default=10, help="GNU Go's level (default 10)")
    parser.add_argument("--size", type=int, default=19)
    parser.add_argument("--komi", type=float, default=7.5)
    parser.add_argument("--out", default=None, help="match folder (default ~/.cache/tengen/matches/gnugo-v<visits>)")
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds per GTP answer")
    parser.add_argument("--first", type=int, default=1, help="play games from this number on (default 1)")
    parser.add_argument("--merge", default=None,
                        help="first copy the finished games of this match folder (same settings) into --out")
    args = parser.parse_args()

    gnugo = find_gnugo()
    if gnugo is None:
        print("match_gnugo: error: GNU Go is not installed (/usr/games/gnugo)", file=sys.stderr)
        return 2
    missing = tengen_lacks(["--player", "--visits", "--threads"])
    if missing:
        print(f"match_gnugo: error: `tengen gtp` has no {', '.join(missing)} yet", file=sys.stderr)
        return 2
    tengen = (f"{shlex.quote(sys.executable)} -m tengen gtp --player search --visits {args.visits} "
              f"--threads {args.threads} --device {args.device}")
    opponent = f"{gnugo} --mode gtp --level {args.level} --chinese-rules"
    out = Path(args.out or Path.home() / ".cache" / "tengen" / "matches" / f"gnugo-v{args.visits}").expanduser()
    settings = MatchSettings(a=tengen, b=opponent, size=args.size, komi=args.komi, handicap=0,
                             a_color="alternate", referee="gnugo")
    print(f"A (tengen): {tengen}")
    print(f"B (GNU Go): {opponent}")
    print(f"{args.size}x{args.size}, komi {args.komi:g}, even games, colours alternate (tengen Black in odd "
          f"games), move cap {settings.move_cap}, referee GNU Go final_score; {args.games} games, "
          f"{args.parallel} at once; out {out}")
    try:
        if args.merge:
            copied = merge_match(out, args.merge, settings)
            print(f"merged {len(copied)} games from {args.merge}" + (f": {_ranges(copied)}" if copied else ""))
        summary = run_match(settings, out, args.games, args.parallel, args.timeout, print_result, first=args.first)
    except MatchError as exc:
        print(f"match_gnugo: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"match_gnugo: stopped; run the same command to continue ({out})", file=sys.stderr)
        return 130
    for line in summary.lines("tengen"):
        print(line)
    print(f"winrate: {summary.winrate:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
