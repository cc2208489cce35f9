"""A page (or part of one) generated from the code or the data: written, or with `--check` compared with the
file, saying in one line whether it is current. The generators in tools/ share this."""
from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def write_or_check(path: Path, text: str, check: bool, what: str, remake: str) -> int:
    """With `check`: 0 when `path` holds `text` ('WHAT is current'), else 1 with the command that remakes it;
    without: write it. Returns the exit status."""
    name = path.relative_to(REPO)
    if check:
        if path.exists() and path.read_text(encoding="utf-8") == text:
            print(f"{name} {what}is current")
            return 0
        print(f"{name} {what}is stale: run {remake}", file=sys.stderr)
        return 1
    path.write_text(text, encoding="utf-8")
    print(f"wrote {name}")
    return 0
