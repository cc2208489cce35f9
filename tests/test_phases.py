"""The phase clock: nested phases charge their own time, calls and rows to their path; counters; nothing
is recorded when no clock runs. (No assertion on how long anything takes: only on what was recorded.)"""
from __future__ import annotations

from tengen.phases import PhaseClock, note, phase, running


def test_nested_phases_are_recorded_by_path_with_calls_and_rows():
    clock = PhaseClock()
    with running(clock):
        with phase("leaves"):
            for rows in (8, 3):
                with phase("katago", rows=rows):
                    with phase("network", rows=rows):
                        pass
            note("leaves deferred: a region point near |ownership| 0.5", 2)
        with phase("cgt"):
            pass
    stats = clock.stats
    assert set(stats) == {"leaves", "leaves/katago", "leaves/katago/network", "cgt"}
    assert (stats["leaves"].calls, stats["leaves/katago"].calls, stats["leaves/katago"].rows) == (1, 2, 11)
    assert clock.total("leaves").rows == 22 and clock.total("leaves").calls == 5
    assert clock.by_leaf_name()["network"].rows == 11
    assert all(stat.seconds >= 0 for stat in stats.values())  # exclusive: nested time is taken out, never below 0
    assert clock.events == {"leaves deferred: a region point near |ownership| 0.5": 2}


def test_without_a_running_clock_phases_and_notes_do_nothing():
    clock = PhaseClock()
    with phase("trees", rows=5):
        note("anything")
    assert clock.stats == {} and not clock.events
