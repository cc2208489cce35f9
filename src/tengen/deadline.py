"""A wall-clock deadline that a caller sets around work it bounds by time (a web job's time limit), read by
the searches that cannot poll the caller while they run (the native exact solver): `stop_by(t)` around the
work, `seconds_left()` inside it (None: no deadline). Results never depend on it where no deadline is set."""
from __future__ import annotations

import time
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator, Optional

_DEADLINE: ContextVar[Optional[float]] = ContextVar("tengen_deadline", default=None)


@contextmanager
def stop_by(deadline: Optional[float]) -> Iterator[None]:
    """Run the block with `deadline` (a `time.monotonic()` value; None: none) as the deadline."""
    token = _DEADLINE.set(deadline)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def seconds_left() -> Optional[float]:
    """Seconds until the running deadline (at least 0.01), or None when none is set."""
    deadline = _DEADLINE.get()
    return None if deadline is None else max(deadline - time.monotonic(), 0.01)
