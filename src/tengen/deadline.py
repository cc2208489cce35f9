"""A wall-clock deadline and a cancel event that a caller sets around work it bounds (a web job's time limit
and its cancel button), read by the searches that cannot poll the caller while they run (the native exact
solver): `stop_by(t, cancelled)` around the work, `seconds_left()` and `cancel_event()` inside it (None: none
set). Results never depend on them where none is set."""
from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator, Optional

_DEADLINE: ContextVar[Optional[float]] = ContextVar("tengen_deadline", default=None)
_CANCEL: ContextVar[Optional[threading.Event]] = ContextVar("tengen_cancel", default=None)


@contextmanager
def stop_by(deadline: Optional[float], cancelled: Optional[threading.Event] = None) -> Iterator[None]:
    """Run the block with `deadline` (a `time.monotonic()` value; None: none) as the deadline, and `cancelled`
    (set by another thread to stop the work; None: none) as its cancel event."""
    tokens = _DEADLINE.set(deadline), _CANCEL.set(cancelled)
    try:
        yield
    finally:
        _DEADLINE.reset(tokens[0])
        _CANCEL.reset(tokens[1])


def cancel_event() -> Optional[threading.Event]:
    """The running work's cancel event, or None."""
    return _CANCEL.get()


def seconds_left() -> Optional[float]:
    """Seconds until the running deadline (at least 0.01), or None when none is set."""
    deadline = _DEADLINE.get()
    return None if deadline is None else max(deadline - time.monotonic(), 0.01)
