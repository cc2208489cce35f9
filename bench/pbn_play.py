"""The PBN as an additive search prior (issue 25): tengen's playout search with and without it against GNU Go 3.8.

Both arms run `tengen gtp --evaluator playouts --playouts-per-move N [--threads T] [--fpu V]` (no network: the
native playout search `tengen.search.native_uct`, UCT with RAVE over Mogo-style heavy playouts in C); the "prior"
arm adds `--prior pbn --prior-weight W` (value += W * p_pbn / (1 + n), Rosin's additive prior, asked near the
root). Everything else is equal: GNU Go 3.8 at `--level L` (default 10) with Chinese rules, 19x19,
even games, komi 7.5, colours alternating (tengen Black in odd games), GNU Go's final_score as referee, the
move cap 3 x 361. The arms are played in blocks of `--block` games each, alternately, so a run stopped at any
point leaves them about equally long; each arm is a resumable match folder (`tengen.play.match`), and running
the same command again continues. The result is read back from disk: each arm's win rate with its 95 % interval
(1.96 sqrt(p(1-p)/n)), and a two-proportion z-test (pooled, two-sided).

    python bench/pbn_play.py [--games 100] [--playouts-per-move 10000] [--threads 1] [--fpu V] [--prior-weight 1.0]
        [--prior-depth 2] [--prior-decay K] [--level 10] [--handicap N --komi K] [--dynamic-komi vs] [--knowledge classic] [--parallel 1] [--block 10]
        [--out DIR] [--report] [--arms plain,prior] [--first N] [--merge DIR]

`--knowledge` is both arms' tree knowledge (`tengen gtp --knowledge`: classic, the default, after Fuego's default
prior knowledge, which the Cortigo study's plain arm had, and Pachi's line rule; none, the engine of the games
played before it).

`--arms plain` plays the plain arm only: the calibration (its win rate with its interval at a level and
handicap) before the experiment. The experiment can be shared out between machines as `bench/match_gnugo.py`'s
matches are: each plays its own game numbers (`--first N --games M`, into its own `--out`), and `--merge DIR`
(a folder holding both arms' match folders from another machine) copies their finished games into this run's
folders (same settings only) before the summary; game N is the same game wherever it is played.

`--handicap N` gives tengen N fixed handicap stones and Black in every game (both arms alike): the way to a
setting where the plain arm wins some games, so that a difference between the arms can show (a playout search
far below GNU Go loses every even game with or without the prior). With a handicap, `--dynamic-komi vs` lets
tengen's searches run under a komi that keeps their win rates near even (a playout search that sees every move
win plays at random: `tengen.io.gtp_uct_player`).

Last line `delta: X +- Y (games A+B, p P)`: the prior arm's win rate minus the plain arm's (from what is on disk), Y
the half-width of its 95 % interval, 1.96 sqrt(p1(1-p1)/n1 + p2(1-p2)/n2), A and B the prior and plain arms' games,
P the two-sided p of the z-test.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from tengen.eval.gtp_client import find_gnugo  # noqa: E402
from tengen.play.match import MatchError, MatchSettings, merge_match, print_result, run_match  # noqa: E402
from tengen.play.match_record import Summary, summarize  # noqa: E402
from tengen.search.native_uct import KNOWLEDGE, KNOWLEDGE_DEFAULT, UctConfig  # noqa: E402

ARMS = ("plain", "prior")
PRIOR_DEPTH_DEFAULT = UctConfig().prior_depth


def two_proportion_test(w1: float, n1: int, w2: float, n2: int) -> tuple[float, float]:
    """(z, two-sided p) of the pooled two-proportion z-test of w1/n1 against w2/n2 (nan when undefined)."""
    if n1 <= 0 or n2 <= 0:
        return math.nan, math.nan
    pooled = (w1 + w2) / (n1 + n2)
    se = math.sqrt(pooled * (1.0 - pooled) * (1.0 / n1 + 1.0 / n2))
    if se == 0.0:
        return math.nan, math.nan
    z = (w1 / n1 - w2 / n2) / se
    return z, math.erfc(abs(z) / math.sqrt(2.0))


def delta_interval(p1: float, n1: int, p2: float, n2: int) -> tuple[float, float]:
    """(p1 - p2, half-width of its 95 % interval 1.96 sqrt(p1(1-p1)/n1 + p2(1-p2)/n2)); nan when an arm is empty."""
    if n1 <= 0 or n2 <= 0:
        return math.nan, math.nan
    return p1 - p2, 1.96 * math.sqrt(p1 * (1.0 - p1) / n1 + p2 * (1.0 - p2) / n2)


def checkout_python() -> str:
    """This Python as a match records it: relative to the checkout when it lies inside it (the venv), so that
    another machine's checkout continues the same match folders (every run works from the checkout)."""
    exe = Path(sys.executable)
    try:
        return shlex.quote(str(exe.relative_to(REPO)))
    except ValueError:
        return shlex.quote(str(exe))


def relative_to_checkout(folder: Path) -> None:
    """A match folder recorded by an earlier run with this checkout's absolute path in its command lines gets
    the relative form (the same engine; rewritten atomically), so the settings compare equal."""
    path = folder / "match.json"
    if not path.is_file():
        return
    text = path.read_text()
    absolute = json.dumps(str(REPO) + "/")[1:-1]
    if absolute in text:
        tmp = path.with_suffix(".json.tmp")
        tmp.write_text(text.replace(absolute, ""))
        os.replace(tmp, path)


def tengen_command(args: argparse.Namespace, prior: bool) -> str:
    """The `tengen gtp` command line of one arm (run from the checkout)."""
    cmd = (f"{checkout_python()} -m tengen gtp --player search --evaluator playouts "
           f"--playouts-per-move {args.playouts_per_move} --threads {args.threads}")
    if args.fpu is not None:
        cmd += f" --fpu {args.fpu:g}"
    if args.dynamic_komi != "none":
        cmd += f" --dynamic-komi {args.dynamic_komi}"
    cmd += f" --knowledge {args.knowledge}"  # always explicit: the engine's default may change between matches
    if prior:
        cmd += f" --prior pbn --prior-weight {args.prior_weight:g}"
        if args.prior_depth != PRIOR_DEPTH_DEFAULT:  # the default's folders and command lines carry no depth
            cmd += f" --prior-depth {args.prior_depth}"
        if args.prior_decay:  # nor the 1 / (1 + n) fade's a decay
            cmd += f" --prior-decay {args.prior_decay:g}"
    return cmd


def arm_folder(args: argparse.Namespace, arm: str) -> Path:
    """The match folder of one arm (its name carries the settings that decide its games)."""
    base = Path(args.out or Path.home() / ".cache" / "tengen" / "matches").expanduser()
    name = f"pbn-{arm}-uct{args.playouts_per_move}-t{args.threads}-l{args.level}"
    if args.fpu is not None:
        name += f"-fpu{args.fpu:g}"
    if args.handicap:
        name += f"-h{args.handicap}"
    if args.komi != 7.5:
        name += f"-k{args.komi:g}"
    if args.dynamic_komi != "none":
        name += f"-dk{args.dynamic_komi}"
    if args.knowledge != "none":  # the games before the default knowledge have folders without a suffix
        name += f"-kn{args.knowledge}"
    if arm == "prior":
        name += f"-w{args.prior_weight:g}"
        if args.prior_depth != PRIOR_DEPTH_DEFAULT:
            name += f"-d{args.prior_depth}"
        if args.prior_decay:
            name += f"-dec{args.prior_decay:g}"
    return base / name


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per arm (default 100)")
    parser.add_argument("--playouts-per-move", "--visits", dest="playouts_per_move", type=int, default=10_000,
                        help="native search playouts per move (default 10000)")
    parser.add_argument("--threads", type=int, default=1, help="native search threads per engine (default 1)")
    parser.add_argument("--prior-weight", type=float, default=1.0, help="W of the prior arm (default 1.0)")
    parser.add_argument("--prior-depth", type=int, default=PRIOR_DEPTH_DEFAULT,
                        help=f"the prior arm's `--prior-depth` (plies from the root asked at once; default the "
                             f"engine's, {PRIOR_DEPTH_DEFAULT})")
    parser.add_argument("--prior-decay", type=float, default=0.0,
                        help="the prior arm's `--prior-decay K` (its term fades as sqrt(K / (n + K)), Fuego's "
                             "additive knowledge; default 0: as 1 / (1 + n))")
    parser.add_argument("--fpu", type=float, default=None, help="both arms' first-play urgency (default the engine's, 1.0)")
    parser.add_argument("--level", type=int, default=10, help="GNU Go's level (default 10)")
    parser.add_argument("--komi", type=float, default=7.5)
    parser.add_argument("--handicap", type=int, default=0,
                        help="fixed handicap stones for tengen, then always Black (0: even games, colours alternate)")
    parser.add_argument("--dynamic-komi", choices=("none", "vs"), default="none",
                        help="both arms' dynamic komi (vs: value-situational, Baudis; for handicap games; default none)")
    parser.add_argument("--knowledge", choices=KNOWLEDGE, default=KNOWLEDGE_DEFAULT,
                        help=f"both arms' tree knowledge (`tengen gtp --knowledge`; default {KNOWLEDGE_DEFAULT}; none: "
                             "the engine of the games before it, whose folders carry no suffix and whose command "
                             "lines lack the flag)")
    parser.add_argument("--parallel", type=int, default=1, help="games at once per arm")
    parser.add_argument("--block", type=int, default=10, help="games per arm before switching arms (default 10)")
    parser.add_argument("--out", default=None, help="folder of the two match folders (default ~/.cache/tengen/matches)")
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds per GTP answer")
    parser.add_argument("--report", action="store_true", help="play nothing: report what is on disk")
    parser.add_argument("--arms", default="plain,prior",
                        help="arms to play: plain,prior (the experiment) or plain (the calibration)")
    parser.add_argument("--first", type=int, default=1, help="play games from this number on (default 1)")
    parser.add_argument("--merge", default=None, metavar="DIR",
                        help="a folder with both arms' match folders from another machine: merge its games first")
    args = parser.parse_args()
    arms = tuple(a for a in args.arms.split(",") if a)
    if not arms or any(a not in ARMS for a in arms):
        parser.error("--arms: a comma-separated list of plain, prior")
    if args.games < 1 or args.block < 1 or args.playouts_per_move < 1 or args.threads < 1:
        parser.error("--games, --block, --playouts-per-move and --threads must be at least 1")
    if not args.prior_decay >= 0 or not math.isfinite(args.prior_decay):
        parser.error("--prior-decay must be finite and at least 0 (0: the 1 / (1 + n) fade)")
    if args.handicap and not 2 <= args.handicap <= 9:
        parser.error("--handicap: 0 (even games) or 2..9 stones")

    if args.out is not None:
        args.out = os.path.abspath(args.out)  # given from where the user stands; the run works from the checkout
    if args.merge is not None:
        args.merge = os.path.abspath(args.merge)
    os.chdir(REPO)
    gnugo = find_gnugo()
    opponent = f"{gnugo or '/usr/games/gnugo'} --mode gtp --level {args.level} --chinese-rules"
    settings = {arm: MatchSettings(a=tengen_command(args, arm == "prior"), b=opponent, size=19, komi=args.komi,
                                   handicap=args.handicap, a_color="black" if args.handicap else "alternate",
                                   referee="gnugo") for arm in ARMS}
    folders = {arm: arm_folder(args, arm) for arm in ARMS}
    for folder in folders.values():
        relative_to_checkout(folder)
    for arm in ARMS:
        print(f"{arm}: {settings[arm].a}\n  out {folders[arm]}")
    print(f"opponent: GNU Go 3.8 level {args.level}, Chinese rules: {opponent}")
    games = f"tengen Black with {args.handicap} handicap stones" if args.handicap else "even games, colours alternate"
    print(f"19x19, komi {args.komi:g}, {games}, referee GNU Go final_score, move cap "
          f"{settings['plain'].move_cap}; {args.games} games per arm in blocks of {args.block}, "
          f"{args.parallel} at once")
    try:
        if args.merge:
            for arm in ARMS:
                source = Path(args.merge) / folders[arm].name
                if source.is_dir():
                    copied = merge_match(folders[arm], source, settings[arm])
                    print(f"[{arm}] merged {len(copied)} games from {source}")
    except MatchError as exc:
        print(f"pbn_play: error: {exc}", file=sys.stderr)
        return 2
    if not args.report:
        if gnugo is None:
            print("pbn_play: error: GNU Go is not installed (/usr/games/gnugo)", file=sys.stderr)
            return 2
        try:
            target = args.first - 1
            while target < args.games:
                target = min(args.games, target + args.block)
                for arm in arms:
                    run_match(settings[arm], folders[arm], target, args.parallel, args.timeout,
                              lambda r, arm=arm: (print(f"[{arm}] ", end=""), print_result(r)), first=args.first)
        except MatchError as exc:
            print(f"pbn_play: error: {exc}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            print("pbn_play: stopped; run the same command to continue", file=sys.stderr)
            return 130
    summaries: dict[str, Summary] = {arm: summarize(folders[arm]) if folders[arm].exists() else Summary()
                                     for arm in ARMS}
    for arm in ARMS:
        s = summaries[arm]
        print(f"{arm}:")
        for line in s.lines("tengen"):
            print(f"  {line}")
    plain, prior = summaries["plain"], summaries["prior"]
    z, p = two_proportion_test(prior.a_wins, prior.games, plain.a_wins, plain.games)
    print(f"two-proportion z-test (prior vs plain): z = {z:.3f}, two-sided p = {p:.4f}")
    delta, half = delta_interval(prior.winrate, prior.games, plain.winrate, plain.games)
    print(f"delta: {delta:.3f} +- {half:.3f} (games {prior.games}+{plain.games}, p {p:.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
