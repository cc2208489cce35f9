"""Re-record the golden GTP transcripts (tests/io/transcripts/NAME.out) after an intended change.

    python tools/gtp_transcripts/record.py              # every transcript
    python tools/gtp_transcripts/record.py protocol     # only the named ones

Each NAME.gtp runs exactly as tests/io/test_gtp_transcripts.py runs it (same function, repository as the
working directory). Review the diff of the .out files before committing: the tests only compare against
them, they never rewrite them.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "io"))

from test_gtp_transcripts import TRANSCRIPTS, run_engine  # noqa: E402


def record(names: list[str]) -> list[Path]:
    """Run the named transcripts (all when empty) and write their .out files; returns the files written."""
    known = {p.stem: p for p in TRANSCRIPTS}
    unknown = sorted(set(names) - set(known))
    if unknown:
        raise SystemExit(f"no transcript named {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    os.chdir(REPO)  # loadsgf paths in the transcripts are relative to the repository
    written = []
    for name in names or sorted(known):
        script = known[name]
        out = script.with_suffix(".out")
        out.write_text(run_engine(script.read_bytes().decode("utf-8")), encoding="utf-8", newline="")
        written.append(out)
    return written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", help="transcript names (tests/io/transcripts/NAME.gtp); default: all")
    for path in record(ap.parse_args(argv).names):
        print(f"wrote {path.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
