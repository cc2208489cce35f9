"""The summary table at the top of docs/BENCHMARKS.md, made from the document itself: per section, the last
pasted block's closing `name: value` line (its headline figure), the section's anchor sentence, the command
and the date of that run. No number is typed: each comes from a script's own pasted output. The rows follow
the document: its `## ` sections, grouped under `# ` capability headings.

    python tools/bench_summary.py           # rewrite the table between the summary markers
    python tools/bench_summary.py --check   # exit 1 when the table is not what the blocks say
"""
from __future__ import annotations

import argparse
import re
import sys

from generated import REPO, write_or_check  # tools/generated.py

DOC = REPO / "docs" / "BENCHMARKS.md"
START, END = "<!-- summary: made by tools/bench_summary.py -->", "<!-- end of summary -->"
_BLOCK = re.compile(r"```\n\$ (?P<command>[^\n]+)\n(?P<when>\d{4}-\d\d-\d\dT[^\n]*)\n(?P<body>.*?)```", re.S)
_HEADLINE = re.compile(r"^[a-z][a-z0-9_]*(?: [a-z0-9_]+)?: \S")
_FENCE_OR_HEADING = re.compile(r"^(?:```|#{1,2} )", re.M)


def headings(doc: str) -> list[int]:
    """Where each `# ` (capability) and `## ` (section) heading line starts; lines in fenced blocks are output."""
    starts, fenced = [], False
    for found in _FENCE_OR_HEADING.finditer(doc):
        if found.group() == "```":
            fenced = not fenced
        elif not fenced:
            starts.append(found.start())
    return starts


def sections(doc: str) -> list[str]:
    """Each `## ` section, from its heading to the next heading of either level (a capability heading groups
    the sections after it and is no section)."""
    starts = headings(doc) + [len(doc)]
    return [doc[a:b] for a, b in zip(starts, starts[1:]) if doc.startswith("## ", a)]


def rows(doc: str) -> list[tuple[str, str, str, str, str]]:
    """(section, headline, anchor, command, date) for each section whose last block ends in a headline."""
    out = []
    for section in sections(doc):
        title = section.splitlines()[0][3:].strip()
        blocks = list(_BLOCK.finditer(section))
        if not blocks:
            continue
        last = blocks[-1]
        lines = [line for line in last.group("body").splitlines() if line.strip()]
        if not lines or not _HEADLINE.match(lines[-1]):
            continue
        out.append((title, lines[-1].strip(), _anchor(section),
                    last.group("command").strip(), last.group("when")[:10]))
    return out


def _anchor(section: str) -> str:
    """The first sentence of the section's 'Anchor:' paragraph (its lines joined), or '-'."""
    found = re.search(r"^Anchors?(?: from the same runs)?: ", section, re.M)
    if not found:
        return "-"
    paragraph = re.split(r"\n\s*\n|\n```", section[found.end():], maxsplit=1)[0]
    text = " ".join(paragraph.split())
    return re.split(r"(?<=[^.])\. ", text, maxsplit=1)[0].rstrip(".")


def table(doc: str) -> str:
    """The summary block, markers included."""
    lines = [START, "Where tengen stands: each section's latest run, its closing figure, what it is measured against, the",
             "command and the date (made from the blocks below by `tools/bench_summary.py`; `bench/paste_output.py` remakes it).",
             "", "| capability (section below) | headline figure | anchor | command | date |", "|---|---|---|---|---|"]
    for title, headline, anchor, command, when in rows(doc):
        cells = [title, f"`{headline}`", anchor, f"`{command}`", when]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines + [END])


def with_summary(doc: str) -> str:
    """The document with its summary table made anew (placed before the first section when it has none)."""
    block = table(doc.split(END, 1)[-1] if END in doc else doc)
    if START in doc and END in doc:
        head, rest = doc.split(START, 1)
        return head + block + rest.split(END, 1)[1]
    first = next(a for a in headings(doc) if a > 0) - 1
    return doc[:first] + "\n\n" + block + "\n" + doc[first:]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that the table is current")
    args = parser.parse_args(argv)
    return write_or_check(DOC, with_summary(DOC.read_text(encoding="utf-8")), args.check, "summary ",
                          "python tools/bench_summary.py")

if __name__ == "__main__":
    sys.exit(main())
