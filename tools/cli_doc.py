"""docs/COMMANDS.md from the CLI's own parser: per command what it does (its `about`), its usage and every
flag with its help, so the reference cannot drift from the code.

    python tools/cli_doc.py           # write docs/COMMANDS.md
    python tools/cli_doc.py --check   # exit 1 when docs/COMMANDS.md is not what the parser says
"""
from __future__ import annotations

import argparse
import os
import sys

from generated import REPO, write_or_check  # tools/generated.py

DOC = REPO / "docs" / "COMMANDS.md"
WIDTH = "100"  # argparse wraps usage to $COLUMNS: fixed, so the page is the same on every terminal


def _flag_rows(parser: argparse.ArgumentParser) -> list[str]:
    formatter = parser._get_formatter()  # the same %(default)s expansion `--help` prints
    rows = []
    for action in parser._actions:
        if action.help == argparse.SUPPRESS or isinstance(action, argparse._HelpAction):
            continue
        names = ", ".join(action.option_strings) or action.metavar or action.dest
        if action.option_strings and action.nargs != 0:
            names += f" {formatter._format_args(action, formatter._get_default_metavar_for_optional(action))}"
        if not action.option_strings and action.nargs not in (None, 1):
            names = formatter._format_args(action, action.dest)
        text = formatter._expand_help(action) if action.help else ""
        if action.choices and "{" not in names:
            text += f" (one of: {', '.join(map(str, action.choices))})"
        cell = " ".join(text.split()).replace("|", "\\|")
        rows.append(f"| `{names}` | {cell} |")
    return rows


def render() -> str:
    """The whole page, from `tengen.cli`'s parser."""
    os.environ["COLUMNS"] = WIDTH
    from tengen.cli import build_parser, command_table

    parser = build_parser()
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    table = sorted(command_table(), key=lambda c: c.command_name)
    out = ["# Commands", "",
           "Every `tengen` command with what it does, its usage and its flags. Generated from the CLI's parser by",
           "`python tools/cli_doc.py` (do not edit by hand; `tests/test_cli_doc.py` checks it is current).", ""]
    out += [f"- [`tengen {c.command_name}`](#tengen-{c.command_name}): {c.help_text}" for c in table]
    for c in table:
        sub = subparsers.choices[c.command_name]
        title = f"## tengen {c.command_name}"
        out += ["", title, ""]
        if c.aliases:
            out += [f"Also `tengen {', tengen '.join(c.aliases)}` (the same command).", ""]
        out += [c.about, "", "```", sub.format_usage().strip(), "```", "", "| flag | what it does |", "|---|---|"]
        out += _flag_rows(sub)
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that docs/COMMANDS.md is current")
    args = parser.parse_args(argv)
    return write_or_check(DOC, render(), args.check, "", "python tools/cli_doc.py")

if __name__ == "__main__":
    sys.exit(main())
