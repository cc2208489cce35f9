"""Where an analysis spends its time: seconds, calls and network rows by nested phase.

`analyze_board` runs under a `PhaseClock`; the stages it calls open phases with `phase(name, rows=...)`
wherever they are, without the clock being passed down (a context variable holds the running clock, and
with none running a phase costs one lookup). Time is charged to the innermost open phase, so a network
call inside leaf scoring shows as `leaves/katago`, apart from the Python around it (`leaves`). Counters
(`note`) record events that explain a phase's cost, such as why leaves were deferred to KataGo.
"""
from __future__ import annotations

import time
from collections import Counter
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Iterator, Optional


@dataclass
class PhaseStat:
    """One phase's exclusive seconds (time in nested phases not included), times entered, network rows."""

    seconds: float = 0.0
    calls: int = 0
    rows: int = 0

    def add(self, other: "PhaseStat") -> None:
        """Count `other` in too (phases summed over paths or over analyses)."""
        self.seconds += other.seconds
        self.calls += other.calls
        self.rows += other.rows


class PhaseClock:
    """Accumulates `PhaseStat`s keyed by the phase path ("leaves/katago") and event counters."""

    def __init__(self) -> None:
        self.stats: dict[str, PhaseStat] = {}
        self.events: Counter = Counter()
        self._stack: list[str] = []
        self._nested: list[float] = []  # per open phase: seconds spent in its nested phases so far

    @contextmanager
    def phase(self, name: str, rows: int = 0) -> Iterator[None]:
        path = "/".join(self._stack + [name])
        self._stack.append(name)
        self._nested.append(0.0)
        start = time.perf_counter()
        try:
            yield
        finally:
            elapsed = time.perf_counter() - start
            self._stack.pop()
            nested = self._nested.pop()
            stat = self.stats.setdefault(path, PhaseStat())
            stat.seconds += elapsed - nested
            stat.calls += 1
            stat.rows += rows
            if self._nested:
                self._nested[-1] += elapsed

    def total(self, prefix: str = "") -> PhaseStat:
        """The sum over the phases whose path is `prefix` or starts with `prefix/` (all when empty)."""
        out = PhaseStat()
        for path, stat in self.stats.items():
            if not prefix or path == prefix or path.startswith(prefix + "/"):
                out.add(stat)
        return out

    def by_leaf_name(self) -> dict[str, PhaseStat]:
        """Exclusive figures summed by the last part of the path ("katago" over every stage that called it)."""
        out: dict[str, PhaseStat] = {}
        for path, stat in self.stats.items():
            out.setdefault(path.rsplit("/", 1)[-1], PhaseStat()).add(stat)
        return out


_RUNNING: ContextVar[Optional[PhaseClock]] = ContextVar("tengen_phase_clock", default=None)


def running_clock() -> Optional[PhaseClock]:
    """The clock phases are charged to here (None outside an analysis): a progress line reads its counts."""
    return _RUNNING.get()


@contextmanager
def running(clock: PhaseClock) -> Iterator[PhaseClock]:
    """Make `clock` the one phases are charged to inside this block."""
    token = _RUNNING.set(clock)
    try:
        yield clock
    finally:
        _RUNNING.reset(token)


@contextmanager
def phase(name: str, rows: int = 0) -> Iterator[None]:
    """Charge the block to phase `name` of the running clock (nothing when none runs)."""
    clock = _RUNNING.get()
    if clock is None:
        yield
        return
    with clock.phase(name, rows):
        yield


def note(event: str, count: int = 1) -> None:
    """Count an event on the running clock (nothing when none runs)."""
    clock = _RUNNING.get()
    if clock is not None:
        clock.events[event] += count
