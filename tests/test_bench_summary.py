"""docs/BENCHMARKS.md's sections under capability headings: the summary table (tools/bench_summary.py) and the
paste (bench/paste_output.py) find each section's end at the next section or capability, never in a block."""
from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _load(path: Path):
    sys.path.insert(0, str(REPO / "tools"))
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


summary = _load(REPO / "tools" / "bench_summary.py")
paste_output = _load(REPO / "bench" / "paste_output.py")

DOC = """# Benchmarks

Intro.

# Endgame analysis
What the capability is.

## Solver: strips
Anchor: the Python engine. More.
```
$ python bench/a.py
2026-01-01T00:00:00Z
# not a heading: a line of output
seconds: 1.5
```

# Speed
The speed capability.

## Rules core speed
```
$ python bench/b.py
2026-01-02T00:00:00Z
ratio: 3.0
```
"""


def test_a_capability_heading_is_no_row_and_ends_the_section_before_it():
    assert summary.rows(DOC) == [
        ("Solver: strips", "seconds: 1.5", "the Python engine", "python bench/a.py", "2026-01-01"),
        ("Rules core speed", "ratio: 3.0", "-", "python bench/b.py", "2026-01-02")]
    sections = summary.sections(DOC)
    assert [s.splitlines()[0] for s in sections] == ["## Solver: strips", "## Rules core speed"]
    assert "# Speed" not in sections[0] and "# not a heading" in sections[0]


def test_a_paste_into_a_capabilitys_last_section_stays_in_it():
    doc = paste_output.paste(DOC, "## Solver", "python bench/new.py", "x: 1\n", "2026-02-01T00:00:00Z")
    head, after = doc.split("# Speed\n", 1)
    assert head.endswith("```\n$ python bench/new.py\n2026-02-01T00:00:00Z\nx: 1\n```\n\n")
    assert after == DOC.split("# Speed\n", 1)[1]
    replaced = paste_output.paste(DOC, "## Solver", "python bench/a.py", "seconds: 2.0", "2026-02-01T00:00:00Z")
    assert "seconds: 2.0" in replaced and "seconds: 1.5" not in replaced and replaced.count("$ python bench/a.py") == 1


def test_a_paste_names_a_section_not_a_capability():
    for heading in ("# Speed", "## No such section"):
        try:
            paste_output.paste(DOC, heading, "python bench/x.py", "x: 1", "2026-02-01T00:00:00Z")
        except SystemExit as refused:
            assert "heading not found" in str(refused)
        else:
            raise AssertionError(f"pasted under {heading!r}")


def test_the_benchmarks_are_grouped_by_capability_without_work_numbers():
    doc = (REPO / "docs" / "BENCHMARKS.md").read_text(encoding="utf-8")
    lines = [doc[a:doc.index("\n", a)] for a in summary.headings(doc)]
    assert lines[0] == "# Benchmarks" and lines[1].startswith("# "), "the first section comes under a capability"
    capabilities = [line for line in lines[1:] if line.startswith("# ")]
    assert len(capabilities) >= 4
    numbered = [line for line in lines if re.search(r"\bissues? \d", line, re.I)]
    assert not numbered, f"headings with a work number: {numbered}"
