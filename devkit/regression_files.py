"""GNU Go / Fuego regression suites (`.tst`): `loadsgf FILE N`, a numbered command, `#? [regex]` answers
(a trailing `*` marks an expected failure), with any other setup commands (`play`) kept in order.
Parsing only; each benchmark decides how to answer."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Optional


@dataclass(frozen=True)
class RegressionCase:
    """One numbered test: the position to load, the command and its expected-answer pattern."""

    number: int
    sgf: Path
    move: Optional[int]  # GNU Go's convention: the position before this move number
    command: str
    args: tuple[str, ...]
    pattern: str
    expected_failure: bool
    setup: tuple[str, ...] = ()  # other commands since the loadsgf (`play black Q19`), to replay in order

    def matches(self, answer: str) -> bool:
        """Whether an answer satisfies the `#?` pattern (anchored, case-insensitive like GNU Go's)."""
        body = self.pattern.strip()
        if body.startswith("[") and body.endswith("]"):
            body = body[1:-1]
        return re.fullmatch(body, answer.strip(), flags=re.IGNORECASE) is not None


def parse_suite(path: str | Path) -> list[RegressionCase]:
    """All numbered cases of a .tst file; SGF paths are resolved against the file's folder."""
    path = Path(path)
    cases = []
    sgf: Optional[Path] = None
    move: Optional[int] = None
    pending: Optional[tuple[int, str, tuple[str, ...]]] = None
    setup: list[str] = []
    for raw in path.read_text(errors="replace").splitlines():
        line = raw.strip()
        if line.startswith("#?") and pending is not None:
            answer = line[2:].strip()
            expected_failure = answer.endswith("*")
            answer = answer.rstrip("*").strip()
            number, command, args = pending
            cases.append(RegressionCase(number, sgf, move, command, args, answer, expected_failure, tuple(setup)))
            pending = None
            continue
        if not line or line.startswith("#"):
            continue
        parts = line.split()
        if parts[0] == "loadsgf":
            sgf = path.parent / parts[1]
            move = int(parts[2]) if len(parts) > 2 and parts[2].isdigit() else None
            setup = []
        elif parts[0].isdigit() and len(parts) > 1:
            pending = (int(parts[0]), parts[1], tuple(parts[2:]))
        else:
            setup.append(line)
    return cases
