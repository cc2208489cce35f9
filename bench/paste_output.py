"""Put a benchmark's captured output into docs/BENCHMARKS.md under its heading, verbatim (numbers are
never typed by hand): replaces the fenced block that starts with `$ COMMAND` in that section (the first
`## ` or `### ` heading that starts with the prefix given, up to the next `## ` section or `# ` capability).

    python bench/paste_output.py "## Heading prefix" "python bench/x.py --flag" OUTPUT_FILE
"""
from __future__ import annotations

import argparse
import datetime
import re
import sys
from pathlib import Path

DOC = Path(__file__).resolve().parents[1] / "docs" / "BENCHMARKS.md"
sys.path.insert(0, str(DOC.parents[1] / "tools"))
from bench_summary import headings, with_summary  # tools/bench_summary.py: the table follows every paste


def paste(doc: str, heading: str, command: str, output: str, when: str) -> str:
    """The document with the section's `$ command` block replaced (or appended to the section)."""
    start = doc.find("\n" + heading) if heading.startswith("##") else -1
    if start < 0:
        raise SystemExit(f"heading not found: {heading!r} (the start of a `## ` or `### ` heading)")
    end = next((a - 1 for a in headings(doc) if a > start + 1), len(doc))  # the line break before the next one
    section = doc[start:end]
    block = f"```\n$ {command}\n{when}\n{output.rstrip()}\n```"
    pattern = re.compile(r"```\n\$ " + re.escape(command) + r"\n(?:.*?\n)??```", re.S)
    if pattern.search(section):
        section = pattern.sub(lambda _: block, section, count=1)
    else:
        section = section.rstrip("\n") + "\n" + block + "\n"
    return doc[:start] + section + doc[end:]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("heading")
    ap.add_argument("command")
    ap.add_argument("output", type=Path)
    args = ap.parse_args(argv)
    # when the run finished (the output file's last write), not when it was pasted
    finished = datetime.datetime.fromtimestamp(args.output.stat().st_mtime, datetime.timezone.utc)
    when = finished.strftime("%Y-%m-%dT%H:%M:%SZ")
    DOC.write_text(with_summary(paste(DOC.read_text(), args.heading, args.command, args.output.read_text(), when)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
