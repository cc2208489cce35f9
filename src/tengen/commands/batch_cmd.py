"""`tengen batch INPUT... --out DIR`: analyze collections of SGF records (directories, globs, list files):
network evaluations, searches or endgame analyses of selected turns, written per game as JSON lines and as
an SGF annotated with KaTrain's analysis property. A resumable journal in DIR: run the same command again
after a crash or a kill and it goes on where it stopped, never losing or repeating a result. Bad records
are reported and skipped. A local process pool by default; `--ray local|ADDRESS` runs the same job on Ray."""
from __future__ import annotations

import argparse
import sys

from tengen.commands.base import CliError, command
from tengen.commands.common import add_device_argument


ABOUT = ("batch analysis of SGF collections (directories, quoted globs, list files): the network's evaluation, a "
         "search of N visits, or the endgame analysis of the selected turns, written per game as JSON lines and as "
         "an SGF annotated with KaTrain's analysis property (`KT`, KaTrain opens it) and comments; a progress bar "
         "with rate and ETA; a resumable journal (`DIR/journal.jsonl`: run the same command again after a crash or "
         "a kill, nothing is lost or repeated); bad records and records beyond the bounds are reported, skipped "
         "and listed in `DIR/summary.json`; a local process pool by default, `--ray` runs the same job on Ray "
         "(`pip install 'tengen[ray]'`) with the same outputs; `--model tiny` is a tiny random network for tests "
         "and benchmarks")


@command("batch", "analyze SGF collections (resumable; a local process pool or Ray)", about=ABOUT)
def add_arguments(parser: argparse.ArgumentParser) -> None:
    from tengen.batch import jobs

    parser.add_argument("inputs", nargs="+", metavar="INPUT",
                        help="an SGF file, a directory (its .sgf files, recursively), a glob pattern (quoted), or "
                             "a list file (one path per line)")
    parser.add_argument("--out", required=True, metavar="DIR", help="output folder (journal, games/, summary.json)")
    parser.add_argument("--turns", default="every:10", metavar="SPEC",
                        help="which turns (turn t = after t moves): every:N, last, last:N (after each of the last "
                             "N moves), all, A-B, A-, N, or several joined by commas (default every:10)")
    parser.add_argument("--what", default="eval", choices=jobs.KINDS,
                        help="eval: the network's evaluation; search: a search of --visits visits; endgame: "
                             "tengen's endgame analysis (default eval)")
    parser.add_argument("--visits", type=int, default=64, help=f"visits per search (1..{jobs.MAX_VISITS}; default 64)")
    parser.add_argument("--from-move", type=int, default=0, metavar="M", help="no turn before move M (default 0)")
    parser.add_argument("--workers", type=int, default=2,
                        help="worker processes (default 2; 0 = in this process); with --ray, Ray workers")
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads per worker (default 1)")
    add_device_argument(parser, "each worker's networks")
    parser.add_argument("--ray", metavar="local|ADDRESS",
                        help="run on Ray: 'local' starts a local cluster of --workers workers, an address joins "
                             "a running cluster (needs the ray extra: pip install 'tengen[ray]')")
    parser.add_argument("--model", metavar="PATH",
                        help="KataGo network file; default: the cached katrain network; 'tiny': a tiny random "
                             "network (tests and benchmarks only: its values are meaningless)")
    parser.add_argument("--no-maps", action="store_true", help="leave ownership and policy maps out of the results")
    parser.add_argument("--max-files", type=int, default=jobs.MAX_FILES,
                        help=f"input files at most (default {jobs.MAX_FILES})")
    parser.add_argument("--max-file-bytes", type=int, default=jobs.MAX_FILE_BYTES,
                        help=f"larger records are skipped (default {jobs.MAX_FILE_BYTES})")
    parser.add_argument("--max-moves", type=int, default=jobs.MAX_MOVES,
                        help=f"longer records are skipped (default {jobs.MAX_MOVES})")
    parser.add_argument("--max-turns", type=int, default=jobs.MAX_TURNS,
                        help=f"records with more selected turns are skipped (default {jobs.MAX_TURNS})")
    parser.add_argument("--chunk", type=int, default=8, help="turns of one record per worker task (default 8)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


@add_arguments.handler
def run(args: argparse.Namespace) -> int:
    from tengen.batch.jobs import BatchError, JobSettings
    from tengen.batch.runner import run_batch

    if args.threads < 1:
        raise CliError(f"--threads {args.threads}: must be at least 1")
    try:
        settings = JobSettings(what=args.what, turns=args.turns, visits=args.visits, from_move=args.from_move,
                               model=args.model, maps=not args.no_maps, max_file_bytes=args.max_file_bytes,
                               max_moves=args.max_moves, max_turns=args.max_turns, max_files=args.max_files,
                               chunk=args.chunk)
        summary = run_batch(args.inputs, args.out, settings, workers=args.workers, ray=args.ray,
                            threads=args.threads, progress=not args.no_progress, device=args.device)
    except BatchError as exc:
        raise CliError(str(exc)) from None
    print(f"tengen batch: {summary.files} records, {len(summary.skipped)} skipped, {summary.units} positions "
          f"({summary.done_before} done before, {summary.computed} now, {summary.errors} not analyzed); "
          f"{summary.positions_per_second:.1f} positions/s; outputs in {args.out}", file=sys.stdout)
    return 0
