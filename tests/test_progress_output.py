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
        log.update(done, 10, f"{10 * done} network evaluations")
    log.close()
    assert out.getvalue().splitlines() == [
        "tengen: analyzing: 4/10 regions, 40 network evaluations, 4 s, about 6 s left",  # not before 3 s; 3 s apart
        "tengen: analyzing: 8/10 regions, 80 network evaluations, 8 s, about 2 s left",
        "tengen: analyzing: 10/10 regions, 100 network evaluations, 9 s",  # the end
    ]


def test_quick_work_prints_nothing():
    clock, out = Clock(), io.StringIO()
    log = PlainProgress("move", "reviewing", 3.0, clock=clock, stream=out)
    clock.now = 1.0
    log.update(3, 3)
    log.close()
    assert out.getvalue() == ""


def test_the_analyze_command_logs_regions_and_network_evaluations_when_stderr_is_a_file(tmp_path, monkeypatch):
    """`tengen analyze` with stderr redirected (a log): progress lines name the regions done and the network
    evaluations so far (the clock runs fast here, so every update is past the interval)."""
    import sys

    import tengen.api
    import tengen.commands.common as common
    from standin_networks import ONE_DAME, StandInNetwork
    from tengen.cli import main

    sgf = tmp_path / "one.sgf"
    rows = [row.split() for row in ONE_DAME.strip().splitlines()]
    stones = {c: "".join(f"[{'abcde'[x]}{'abcde'[y]}]" for y, row in enumerate(rows) for x, v in enumerate(row) if v == c)
              for c in "XO"}
    sgf.write_text(f"(;GM[1]SZ[5]KM[0.5]RU[Chinese]PL[B]AB{stones['X']}AW{stones['O']})")
    monkeypatch.setattr(tengen.api, "default_evaluator", lambda model=None, device="cpu": StandInNetwork())
    ticks = iter(range(0, 10_000, 10))
    monkeypatch.setattr(common.time, "monotonic", lambda: float(next(ticks)))
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["analyze", str(sgf)]) == 0
    lines = [line for line in err.getvalue().splitlines() if line.startswith("tengen: analyzing: ")]
    assert lines and lines[-1].startswith("tengen: analyzing: 1/1 regions, ") and "network evaluations" in lines[-1]
    assert main(["analyze", str(sgf), "--quiet"]) == 0 and "analyzing" not in err.getvalue().split("\n")[-1]
