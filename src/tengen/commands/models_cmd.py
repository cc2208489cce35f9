"""`tengen models`: the network files in the cache (and whether the default one's checksum verifies)."""
from __future__ import annotations

import argparse

from tengen.commands.base import command


ABOUT = ("cached networks and their checksums")


@command("models", "list cached KataGo networks", about=ABOUT)
def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--fetch", action="store_true", help="download the default network now (from PyPI's katrain wheel)")


@add_arguments.handler
def run(args: argparse.Namespace) -> int:
    from tengen.eval.katago.weights import cache_dir, default_model_path, list_cached

    if args.fetch:
        default_model_path(download=True, progress=True)
    models = list_cached()
    print(f"cache: {cache_dir()}")
    if not models:
        print("no cached networks (the default one is downloaded on first use, or with --fetch)")
    for m in models:
        check = {True: "sha256 ok", False: "sha256 MISMATCH", None: "no checksum known"}[m.verified]
        print(f"{m.path.name}  {m.size / 1e6:.1f} MB  {check}")
    return 0
