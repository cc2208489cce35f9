"""What a device call would send: the working tree's tracked files, its untracked files that git does not
ignore, and the carried paths, against the 64 MiB a call may carry. Run it before a GPU call (stdlib only):

    python tools/carry_size.py [CARRIED_PATH ...]

Prints the three parts and the largest folders, and ends `travels: X MiB of 64 (fits|too large)`; exits 1
when it is too large.
"""
from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

LIMIT_MIB = 64.0
MIB = 1024 * 1024


def git_files(root: Path, *flags: str) -> list[str]:
    out = subprocess.run(["git", "ls-files", "-z", *flags], cwd=root, capture_output=True, check=True).stdout
    return [p for p in out.decode("utf-8", "surrogateescape").split("\0") if p]


def size_of(path: Path) -> int:
    if path.is_symlink() or not path.exists():
        return 0
    if path.is_file():
        return path.stat().st_size
    return sum(size_of(Path(folder) / name) for folder, _, names in os.walk(path) for name in names)


def main(argv: list[str]) -> int:
    root = Path(subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True,
                               check=True).stdout.strip())
    by_folder: Counter = Counter()
    parts = {}
    for label, files in (("tracked", git_files(root)), ("untracked", git_files(root, "-o", "--exclude-standard"))):
        total = 0
        for name in files:
            size = size_of(root / name)
            total += size
            by_folder["/".join(name.split("/")[:2]) if "/" in name else name] += size
        parts[label] = total
    carried = 0
    for name in argv:
        size = size_of(root / name)
        carried += size
        by_folder[name] += size
    parts["carried"] = carried
    for label, size in parts.items():
        print(f"{label}: {size / MIB:.1f} MiB")
    print("largest: " + ", ".join(f"{name} {size / MIB:.1f}" for name, size in by_folder.most_common(6)))
    total = sum(parts.values()) / MIB
    fits = total <= LIMIT_MIB
    print(f"travels: {total:.1f} MiB of {LIMIT_MIB:.0f} ({'fits' if fits else 'too large'})")
    return 0 if fits else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
