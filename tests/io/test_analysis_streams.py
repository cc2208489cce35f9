"""`tengen analysis` when its streams fail (issue 47 item 3): closed stdin, closed stdout, stdout on a full
device, a pipe closed by its reader. Each ends with one line on stderr and a non-zero exit, never a
traceback (they used to raise AttributeError, an OSError in the worker thread with exit 0, BrokenPipeError)."""
from __future__ import annotations

import os
import shlex
import subprocess
import sys

import pytest

QUERY = '{"id":"q%d","moves":[],"rules":"chinese","komi":7.5,"boardXSize":9,"boardYSize":9,"maxVisits":2}'
ENGINE = f"{shlex.quote(sys.executable)} -m tengen analysis --model tiny"
QUERIES = "; ".join(f"echo '{QUERY % i}'" for i in range(6))

CASES = {
    "closed stdin": (f"{ENGINE} <&-", "stdin is closed"),
    "closed stdout": (f"echo '{QUERY % 0}' | {ENGINE} >&-", "stdout is closed"),
    "stdout on /dev/full": (f"echo '{QUERY % 0}' | {ENGINE} > /dev/full", "No space left on device"),
    "reader closes the pipe": (f"({QUERIES}; sleep 1) | {ENGINE} 2>&3 | head -c 1 > /dev/null", "Broken pipe"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_failed_stream_is_one_line_and_a_nonzero_exit(name):
    if name == "stdout on /dev/full" and not os.path.exists("/dev/full"):
        pytest.skip("this system has no /dev/full")
    script, message = CASES[name]
    # fd 3 carries the engine's stderr out of the pipeline; PIPESTATUS gives the engine's own exit status
    done = subprocess.run(["bash", "-c", f"exec 3>&2; {script}; exit ${{PIPESTATUS[1]:-$?}}"],
                          capture_output=True, text=True, timeout=300)
    errors = [line for line in done.stderr.splitlines() if "ready to begin" not in line]
    assert done.returncode != 0, done.stderr
    assert len(errors) == 1 and message in errors[0], done.stderr
    assert "Traceback" not in done.stderr
