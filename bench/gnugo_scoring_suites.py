"""GNU Go's scoring regression suites (score.tst, score2.tst) run through tengen's GTP engine in-process.

Each test is `loadsgf FILE [N]`, a numbered `final_score`, and an expected answer `#? [regex]` (a
trailing `*` marks a test GNU Go itself is expected to fail; `!` negates the regex). tengen's
`final_score` counts under the rules the SGF names (RU[Japanese]: territory, otherwise Chinese area) with
the engine's rules where the file states none (Japanese here: GNU Go's default, which the expected
answers assume), and the dead stones it is given: Benson's pass-alive analysis (`tengen gtp`'s default: only what is proven),
or, with --dead-stones network, the default KataGo network's ownership (`tengen gtp --dead-stones network`).
This is a measurement, not a gate.

    python bench/gnugo_scoring_suites.py [--dead-stones benson|network] [--verbose]

Prints, per suite, the tests passed (and among the `*` ones), then a total line.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from tengen.go.rules import Rules
from tengen.go.scoring import benson_dead_stones
from tengen.io.engines import gtp_engine
from tengen.files import shared_data_path  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = shared_data_path(must_exist=False)
SUITES_DIR = SHARED_DATA / "regression" / "gnugo"
SUITES = ("score.tst", "score2.tst")


@dataclass
class Case:
    """One regression test: the GTP commands sent before it, its command, the expected answer."""

    number: int
    setup: list[str]
    command: str
    pattern: str
    expect_failure: bool

    def matches(self, answer: str) -> bool:
        """GNU Go's regress rule: the whole answer matches the regex (`!regex`: must not match)."""
        negate = self.pattern.startswith("!")
        pattern = self.pattern[1:] if negate else self.pattern
        return (re.fullmatch(pattern, answer.strip()) is not None) != negate


@dataclass
class SuiteResult:
    name: str
    passed: list[int] = field(default_factory=list)
    failed: list[tuple[int, str, str]] = field(default_factory=list)  # (number, answer, expected)
    expected_failures: int = 0
    passed_expected_failures: int = 0

    @property
    def total(self) -> int:
        return len(self.passed) + len(self.failed)


def parse_suite(text: str) -> Iterator[Case]:
    """The test cases of a .tst file (commented-out tests, `#`-prefixed, are skipped)."""
    setup: list[str] = []
    pending: tuple[int, str] | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#?"):
            match = re.match(r"#\?\s*\[(.*)\](\*?)", line)
            if pending is not None and match:
                yield Case(pending[0], setup, pending[1], match.group(1), bool(match.group(2)))
                setup = []
            pending = None
            continue
        if line.startswith("#"):
            continue
        numbered = re.match(r"(\d+)\s+(.*)", line)
        if numbered:
            pending = (int(numbered.group(1)), numbered.group(2))
        else:
            setup.append(line)


@contextmanager
def working_directory(path: Path):
    """The suites name their SGF files relative to the suite folder."""
    old = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(old)


def run_suite(path: Path, verbose: bool = False, dead_stones=benson_dead_stones) -> SuiteResult:
    result = SuiteResult(path.name)
    rules = Rules.japanese()  # GNU Go's default rules: what its expected answers count by
    engine = gtp_engine(rules=rules, dead_stones=dead_stones)
    with working_directory(path.parent):
        for case in parse_suite(path.read_text(encoding="utf-8", errors="replace")):
            for command in case.setup:
                engine.handle(command)
            answer = (engine.handle(case.command) or "").strip()
            answer = answer[1:].strip() if answer[:1] in "=?" else answer
            ok = case.matches(answer)
            result.expected_failures += case.expect_failure
            if ok:
                result.passed.append(case.number)
                result.passed_expected_failures += case.expect_failure
            else:
                result.failed.append((case.number, answer, case.pattern))
            if verbose:
                mark = "pass" if ok else "FAIL"
                print(f"  {path.name}:{case.number:<3} {mark}  got {answer:<10} expected [{case.pattern}]"
                      f"{'*' if case.expect_failure else ''}")
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--verbose", action="store_true", help="one line per test")
    parser.add_argument("--suites-dir", type=Path, default=SUITES_DIR)
    parser.add_argument("--dead-stones", choices=("benson", "network"), default="benson")
    args = parser.parse_args(argv)
    if not args.suites_dir.is_dir():
        print(f"GNU Go regression suites not found in {args.suites_dir}: nothing measured")
        return 0
    finder, how = benson_dead_stones, "Benson's unconditional life only"
    if args.dead_stones == "network":
        from tengen.eval.katago.evaluator import KataGoEvaluator
        from tengen.eval.katago.final_score import network_dead_stones

        finder, how = network_dead_stones(KataGoEvaluator()), "the default KataGo network's ownership"
    passed = total = 0
    start = time.perf_counter()
    for name in SUITES:
        result = run_suite(args.suites_dir / name, args.verbose, finder)
        passed += len(result.passed)
        total += result.total
        print(f"{name}: {len(result.passed)}/{result.total} passed "
              f"({result.passed_expected_failures} of the {result.expected_failures} GNU Go expects to fail)")
    print(f"total: {passed}/{total} passed in {time.perf_counter() - start:.1f}s (dead stones: {how})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
