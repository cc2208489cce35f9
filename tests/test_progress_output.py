"""Progress on stderr when it is not a terminal (a log, CI): a plain line at most every few seconds with the
count and an estimate of the time left, and a last line when the work ends; nothing for quick work."""
from __future__ import annotations

import io

from tengen.commands.common import PlainProgress


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_line_every_interval_with_the_time_left_and_a_last_line():
    clock, out = Clock(), io.StringIO()
    log = PlainProgress("region", "analyzing", 3.0, clock=clock, stream=out)
    for second, done in ((1, 1), (2, 2), (4, 4), (5, 5), (6, 6), (8, 8), (9, 10)):
        clock.now = second
        log.update(done, 10)
    log.close()
    assert out.getvalue().splitlines() == [
        "tengen: analyzing: 4/10 regions, 4 s, about 6 s left",  # nothing before 3 s, then every 3 s at most
        "tengen: analyzing: 8/10 regions, 8 s, about 2 s left",
        "tengen: analyzing: 10/10 regions, 9 s",  # the end
    ]


def test_quick_work_prints_nothing():
    clock, out = Clock(), io.StringIO()
    log = PlainProgress("move", "reviewing", 3.0, clock=clock, stream=out)
    clock.now = 1.0
    log.update(3, 3)
    log.close()
    assert out.getvalue() == ""
