"""`tengen kata-analysis` (alias `tengen analysis`): KataGo's JSON analysis protocol on stdin/stdout (KaTrain and other KataGo clients)."""
from __future__ import annotations

import argparse
import os
import sys

from tengen.api.evaluators import TINY  # --model tiny: a tiny random network (tests, benches: no download)
from tengen.commands.base import CliError, command
from tengen.commands.common import add_device_argument


ABOUT = ("KataGo's JSON analysis engine (its `docs/Analysis_Engine.md` protocol) over tengen's search, so KaTrain "
         "and other KataGo clients plug in (KaTrain: set the engine's command to `tengen kata-analysis`; `tengen analysis` is the same command): queries with "
         "moves, initial stones, rules, komi, board sizes, analyzeTurns, maxVisits, ownership, policy, per-move "
         "ownership, avoidMoves / allowMoves, reportAnalysisWinratesAs, priorities and reports during the search; "
         "query_version, clear_cache, terminate, terminate_all; KataGo's error and warning objects. Extras KataGo "
         "clients ignore: with `--endgame` or `\"tengenEndgame\": true`, tengen's endgame regions (count, "
         "temperature, gote / sente, best moves) and each candidate move's value. `--visits` is the default when a "
         "query gives no maxVisits (500), `--max-visits-cap` bounds any query (100000)")


@command("kata-analysis", "speak KataGo's JSON analysis protocol on stdin/stdout (KaTrain: set the engine "
                     "command to 'tengen kata-analysis')", about=ABOUT, aliases=("analysis",))
def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--visits", type=int, default=500,
                        help="visits per turn when a query gives no maxVisits (default 500, as KataGo's example "
                             "config)")
    parser.add_argument("--max-visits-cap", type=int, default=100_000, metavar="N",
                        help="at most N visits per turn whatever a query asks (a warning says so; default 100000)")
    parser.add_argument("--model", default=None,
                        help="KataGo model file (default: the cached katrain network)")
    parser.add_argument("--threads", type=int, default=None, help="CPU threads for the network (default: torch's)")
    add_device_argument(parser)
    parser.add_argument("--batch", type=int, default=16, help="positions per network call (default 16)")
    parser.add_argument("--endgame", action="store_true",
                        help="add tengen's endgame regions and move values (tengenEndgame) to every final "
                             "response (a query can also ask with \"tengenEndgame\": true)")


@add_arguments.handler
def run(args: argparse.Namespace) -> int:
    from tengen.io.analysis_engine import AnalysisEngine, EngineSettings

    if args.visits < 1:
        raise CliError("--visits must be at least 1")
    if args.max_visits_cap < 1:
        raise CliError("--max-visits-cap must be at least 1")
    if not 1 <= args.batch <= 1024:
        raise CliError("--batch must be 1..1024")
    if args.threads is not None and args.threads < 1:
        raise CliError("--threads must be at least 1")
    settings = EngineSettings(default_visits=min(args.visits, args.max_visits_cap), max_visits_cap=args.max_visits_cap,
                              batch_size=args.batch, endgame=args.endgame,
                              root_symmetries=1 if args.model == TINY else 8)
    if sys.stdin is None:
        raise CliError("stdin is closed: the engine reads its queries there")
    if sys.stdout is None:
        raise CliError("stdout is closed: the engine writes its responses there")
    _exit_with_parent()
    protocol = sys.stdout
    sys.stdout = sys.stderr  # stdout carries protocol lines only: whatever else prints goes to stderr
    try:
        engine = AnalysisEngine(_lazy_evaluator(args), protocol, settings)
        print("tengen analysis: ready to begin handling requests", file=sys.stderr, flush=True)
        status = engine.serve(sys.stdin.buffer)
    finally:
        sys.stdout = protocol
    if engine.output_error is not None:
        _silence(protocol)
        why = getattr(engine.output_error, "strerror", None) or str(engine.output_error)
        raise CliError(f"stdout: cannot write the responses ({why}); stopped")
    return status


def _silence(stream) -> None:
    """Point a failed output stream at /dev/null, so the interpreter's last flush of it cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
    except (OSError, ValueError):
        pass


def _exit_with_parent(every: float = 1.0) -> None:
    """Exit when the client that started us is gone: a GUI that starts `sh -c "tengen analysis"` and
    terminates the shell (KaTrain) leaves the engine orphaned with stdin still open, searching for nobody."""
    import os
    import threading
    import time

    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(every)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="tengen-analysis-parent-watch", daemon=True).start()


def _lazy_evaluator(args: argparse.Namespace):
    """The KataGo evaluator of the flags (`--model tiny`: a tiny random network), made on first need."""

    def load():
        from tengen.api.evaluators import make_evaluator

        return make_evaluator("katago", model=args.model, device=args.device, threads=args.threads,
                              batch_size=args.batch)
    return load
