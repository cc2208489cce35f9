"""How each fuzzed run ends, counted: success, clean error, traceback, hang, over 2 GB, crash, broken framing."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Optional

from fuzzing.inputs import expected_ids, parse_responses


# ================================================================ outcomes
OUTCOMES = ("success", "clean error", "traceback", "hang", "over 2 GB", "crash", "broken framing")
FAILURES = OUTCOMES[2:]


@dataclass
class Tally:
    """Outcome counts per command, with a few examples of each failure."""

    counts: dict[str, Counter] = field(default_factory=dict)
    examples: list[str] = field(default_factory=list)

    def add(self, command: str, outcome: str, detail: str = "") -> None:
        self.counts.setdefault(command, Counter())[outcome] += 1
        if outcome in FAILURES and len(self.examples) < 20:
            self.examples.append(f"{command}: {outcome}: {detail[:300]}")

    def failures(self) -> int:
        return sum(c[o] for c in self.counts.values() for o in FAILURES)

    def lines(self, title: str) -> list[str]:
        out = [title]
        for command, counts in self.counts.items():
            shown = ", ".join(f"{counts[o]} {o}" for o in OUTCOMES if counts[o] or o in ("success", "clean error"))
            out.append(f"  {command:<24} {sum(counts.values()):>6}: {shown}")
        out += [f"  failure: {e}" for e in self.examples]
        return out


def classify_cli(rc: Optional[int], err: str) -> str:
    """A CLI run's outcome from its exit status and stderr."""
    if "MemoryError" in err:
        return "over 2 GB"
    if "Traceback" in err:
        return "traceback"
    if rc == 0:
        return "success"
    errors = [line for line in err.splitlines() if line.startswith("tengen: error: ")]
    if rc == 2 and len(errors) == 1 and err.endswith(errors[0] + "\n"):
        return "clean error"
    return "crash" if rc is not None and rc < 0 else "traceback"


def classify_gtp(stream: bytes, out: bytes, tally: Tally, command: str) -> None:
    """Count each command's outcome of one GTP session from its stdout: '=' success, '?' clean error,
    '? internal error' traceback; responses that do not match the commands one to one: broken framing."""
    responses = parse_responses(out)
    ids = expected_ids(stream)
    if responses is None or [r[1] for r in responses] != ids:
        got = "unparsable stdout" if responses is None else f"{len(responses)} responses for {len(ids)} commands"
        tally.add(command, "broken framing", f"{got}: {stream[:120]!r} -> {out[-200:]!r}")
        return
    for status, _, text in responses:
        if status == "?" and "internal error" in text:
            tally.add(command, "traceback", text)
        else:
            tally.add(command, "success" if status == "=" else "clean error")
