"""A minimal GTP client over a subprocess (stand-in until tengen.io.gtp_client exists), used for GNU Go.

Only what the GNU Go reference needs: send a command, read the ``=`` / ``?`` response up to the blank line.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path


class GtpError(RuntimeError):
    """The engine answered ``? message``."""


def find_gnugo() -> str | None:
    """Path of the GNU Go binary (Debian puts it in /usr/games), or None."""
    return shutil.which("gnugo") or (str(Path("/usr/games/gnugo")) if Path("/usr/games/gnugo").exists() else None)


class GtpProcess:
    """Talk GTP v2 to an engine started as ``argv``; use as a context manager."""

    def __init__(self, argv: list[str]):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(self, command: str) -> str:
        """Send one command; return the response text (without ``=``); raise GtpError on ``?``."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(command.strip() + "\n")
        self.proc.stdin.flush()
        lines: list[str] = []
        while True:
            line = self.proc.stdout.readline()
            if line == "":
                raise GtpError(f"engine exited while answering {command!r}")
            line = line.rstrip("\r\n")
            if line == "" and lines:
                break
            if line == "" and not lines:
                continue
            lines.append(line)
        head, text = lines[0][:1], "\n".join([lines[0][1:].lstrip()] + lines[1:]).strip()
        if head == "?":
            raise GtpError(f"{command!r}: {text}")
        if head != "=":
            raise GtpError(f"{command!r}: malformed response {lines[0]!r}")
        return text

    def close(self) -> None:
        """Ask the engine to quit, then make sure it is gone."""
        if self.proc.poll() is None:
            try:
                self.send("quit")
            except (GtpError, OSError, ValueError):
                pass
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()

    def __enter__(self) -> "GtpProcess":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
