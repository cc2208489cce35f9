"""`tengen serve`: the web UI on localhost (FastAPI + uvicorn, the optional `web` extra)."""
from __future__ import annotations

import argparse
import os

from tengen.commands.base import CliError, command


ABOUT = ("the web UI at http://127.0.0.1:8000/ (`pip install -e '.[web]'`): open a record (upload, paste, or a "
         "file under `--folder`; nothing outside it is read, and no link is followed), step through it (buttons, "
         "arrow keys), ownership and influence overlays, the komi curve, and the endgame analysis as a cancellable "
         "job with a progress bar: regions coloured by temperature with their best moves, the region table (hover "
         "a row, the region lights up), each region's thermograph and local tree (click a node, the board shows "
         "it), the recommended move and why; hover explanations of count, temperature, sente and gote; the "
         "workbench: set up a diagram, mark its region, solve it exactly (no network), step its lines, download it "
         "as SGF. Screenshots: [docs/screenshots/analysis.png](docs/screenshots/analysis.png), "
         "[docs/screenshots/workbench.png](docs/screenshots/workbench.png)")


@command("serve", "the web UI: open a record, step through it, see its regions, values and thermographs", about=ABOUT)
def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument("--folder", metavar="DIR", help="records the page may open by path (nothing outside it is read)")
    parser.add_argument("--model", metavar="PATH|tiny",
                        help="KataGo network file (default: the cached katrain network); 'tiny': a tiny random "
                             "network (tests, demos; its answers mean nothing)")
    parser.add_argument("--workers", type=int, default=None, help="analyses run at once (default: one per core)")
    parser.add_argument("--queue-limit", type=int, default=4, help="analyses that may wait (default 4; more get 429)")


@add_arguments.handler
def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from tengen.web.app import create_app
    except ImportError as exc:
        raise CliError(f"the web UI needs its extra: pip install 'tengen[web]' ({exc})") from None
    if not 0 < args.port < 65536:
        raise CliError("--port must lie in 1..65535")
    if args.workers is not None and args.workers < 1 or args.queue_limit < 0:
        raise CliError("--workers must be at least 1 and --queue-limit at least 0")
    if args.folder is not None and not os.path.isdir(args.folder):
        raise CliError(f"--folder {args.folder}: not a directory")
    factory = None
    if args.model == "tiny":
        def factory():
            from tengen.api.evaluators import make_evaluator

            return make_evaluator("katago", model="tiny")
    elif args.model is not None:
        if not os.path.isfile(args.model):
            raise CliError(f"--model {args.model}: no such model file")
        model = args.model

        def factory():
            from tengen.api import default_evaluator

            return default_evaluator(model)
    app = create_app(folder=args.folder, evaluator_factory=factory, workers=args.workers,
                     queue_limit=args.queue_limit)
    print(f"tengen: serving http://{args.host}:{args.port}/ (Ctrl-C stops)", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0
