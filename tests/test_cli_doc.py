"""The command reference and the benchmarks summary are generated and current, and the README's Commands rows
(one line of what a command does and one example each; the flags live in docs/COMMANDS.md)."""
from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

from tengen.cli import build_parser

REPO = Path(__file__).resolve().parents[1]
MAX_ROW_WORDS = 25


def _tool(name: str):
    """A module of tools/ (which imports its siblings by name)."""
    sys.path.insert(0, str(REPO / "tools"))
    spec = importlib.util.spec_from_file_location(name, REPO / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_docs_commands_md_is_what_the_parser_says():
    assert (REPO / "docs" / "COMMANDS.md").read_text(encoding="utf-8") == _tool("cli_doc").render(), \
        "docs/COMMANDS.md is stale: run python tools/cli_doc.py"


def _commands_rows(readme: str) -> list[str]:
    section = readme[readme.index("\n## Commands"):]
    section = section[:section.index("\n## ", 1)]
    return [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| command")]


def _words(row: str) -> int:
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", row)  # a link counts as its text
    return len([w for w in re.split(r"[\s|`]+", text) if w])


def test_every_command_has_a_short_readme_row():
    rows = _commands_rows((REPO / "README.md").read_text(encoding="utf-8"))
    names = {re.search(r"tengen ([a-z-]+)", row).group(1) for row in rows if "tengen " in row}
    assert names >= {c for c in build_parser()._subparsers._group_actions[0].choices if c != "analysis"}
    long = {row[:40]: _words(row) for row in rows if _words(row) > MAX_ROW_WORDS}
    assert not long, f"README Commands rows over {MAX_ROW_WORDS} words: {long}"


def test_kata_analysis_keeps_its_old_name_as_an_alias():
    parser = build_parser()
    for name in ("kata-analysis", "analysis"):
        args = parser.parse_args([name, "--visits", "3"])
        assert args.visits == 3 and args.handler.__module__ == "tengen.commands.analysis_cmd"


def test_the_benchmarks_summary_is_what_the_pasted_blocks_say():
    module = _tool("bench_summary")
    doc = (REPO / "docs" / "BENCHMARKS.md").read_text(encoding="utf-8")
    assert module.with_summary(doc) == doc, "docs/BENCHMARKS.md's summary is stale: run python tools/bench_summary.py"
    assert len(module.rows(doc)) >= 30
