"""A small GTP v2 client: drive another engine (GNU Go, KataGo, tengen itself) over a subprocess pipe.

Used by the GNU Go differential check, and by anything that needs a reference engine (evaluation,
matches, winner prediction). Commands carry ids; each answer is read up to its closing blank line with a
timeout. `send` returns the answer's text and raises `GtpCommandError` on a `?` answer; `query` returns
a `GtpResponse` either way; `query_many` pipelines several commands in one round trip. A dead, silent
or garbled engine raises `GtpEngineError`, after which the client is closed (its state is unknown).

    with GtpClient.gnugo(level=0) as gnugo:
        gnugo.send("boardsize 9")
        gnugo.send("play b E5")
        move = gnugo.send("genmove w")          # 'E4', 'PASS' or 'resign' (GNU Go writes PASS)
        gnugo.query("play b E5")                # GtpResponse(ok=False, text='illegal move')
        gnugo.query_many(["play w D4", "list_stones white"])   # [GtpResponse(True, ''), GtpResponse(True, 'D4 ...')]
"""
from __future__ import annotations

import os
import selectors
import shutil
import subprocess
import time
import weakref
from dataclasses import dataclass
from typing import Optional, Sequence

GNUGO_BINARY = "/usr/games/gnugo"
_PIPELINE = 64  # commands written before reading answers: far below what a pipe buffers (64 KiB)


class GtpClientError(Exception):
    """Base class of everything the client raises."""


class GtpEngineError(GtpClientError):
    """The engine died, stayed silent past the timeout, or spoke something that is not GTP."""


class GtpCommandError(GtpClientError):
    """The engine answered `? message` (the command failed; the session goes on)."""

    def __init__(self, command: str, message: str):
        self.command, self.message = command, message
        super().__init__(f"{command!r} failed: {message}")


@dataclass(frozen=True)
class GtpResponse:
    """One answer: `ok` (True for '=', False for '?') and its text: what follows '=[id] ' (a multi-line
    answer's leading newline dropped), trailing whitespace removed; the first line keeps its indentation."""

    ok: bool
    text: str


def find_gnugo() -> Optional[str]:
    """Path of the GNU Go binary (Debian's /usr/games/gnugo, else `gnugo` on PATH), or None."""
    if os.access(GNUGO_BINARY, os.X_OK):
        return GNUGO_BINARY
    return shutil.which("gnugo")


class GtpClient:
    """A GTP engine in a child process. Use as a context manager, or call `close()`."""

    def __init__(self, argv: Sequence[str], timeout: float = 60.0, cwd: Optional[str] = None,
                 stderr=subprocess.DEVNULL):
        """Start `argv` (e.g. ["/usr/games/gnugo", "--mode", "gtp"]); `timeout` is the default per command."""
        self.argv = list(argv)
        self.timeout = timeout
        try:
            self._proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
                                          cwd=cwd, bufsize=0)
        except OSError as exc:
            raise GtpEngineError(f"cannot start {self.argv[0]}: {exc.strerror or exc}") from None
        self._fd = self._proc.stdout.fileno()
        os.set_blocking(self._fd, False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._fd, selectors.EVENT_READ)
        self._buffer = b""
        self._next_id = 1
        self._closed = False
        # Kill the child even if the owner forgets to close (garbage collection, interpreter exit).
        self._finalizer = weakref.finalize(self, _kill, self._proc)

    @classmethod
    def gnugo(cls, level: int = 0, rules: str = "chinese", extra_args: Sequence[str] = (), binary: Optional[str] = None,
              timeout: float = 60.0) -> "GtpClient":
        """GNU Go in GTP mode at `level` (0 = fastest) with chinese (area) or japanese rules."""
        binary = binary or find_gnugo()
        if binary is None:
            raise GtpEngineError("GNU Go is not installed (looked for /usr/games/gnugo and gnugo on PATH)")
        argv = [binary, "--mode", "gtp", "--level", str(level), f"--{rules}-rules", *extra_args]
        return cls(argv, timeout=timeout)

    # ------------------------------------------------------------------ commands
    def send(self, command: str, timeout: Optional[float] = None) -> str:
        """Send one command and return its answer's text; raises GtpCommandError on a `?` answer."""
        response = self.query(command, timeout)
        if not response.ok:
            raise GtpCommandError(command, response.text)
        return response.text

    def query(self, command: str, timeout: Optional[float] = None) -> GtpResponse:
        """Send one command and return the answer, success or failure, without raising on `?`."""
        return self.query_many([command], timeout)[0]

    def query_many(self, commands: Sequence[str], timeout: Optional[float] = None) -> list[GtpResponse]:
        """Send several commands at once and read their answers in order (one round trip instead of
        many: GTP engines answer commands in sequence). `timeout` applies to each answer."""
        if self._closed:
            raise GtpEngineError("the engine has been closed")
        timeout = self.timeout if timeout is None else timeout
        if any("\n" in command or "\r" in command for command in commands):
            raise ValueError("a GTP command is one line")
        answers: list[GtpResponse] = []
        for start in range(0, len(commands), _PIPELINE):
            batch = commands[start:start + _PIPELINE]
            ids = list(range(self._next_id, self._next_id + len(batch)))
            self._next_id += len(batch)
            lines = "".join(f"{cmd_id} {command}\n" for cmd_id, command in zip(ids, batch))
            try:
                self._proc.stdin.write(lines.encode())
                self._proc.stdin.flush()
            except (BrokenPipeError, OSError):
                self._fail(f"engine exited before {batch[0]!r}")
            for cmd_id, command in zip(ids, batch):
                answers.append(self._parse(self._read_response(command, timeout), cmd_id, command))
        return answers

    def _read_response(self, command: str, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        while True:
            end = self._buffer.find(b"\n\n")
            if end >= 0:
                raw, self._buffer = self._buffer[:end], self._buffer[end + 2:]
                text = raw.decode("utf-8", "replace")
                if text.strip():
                    return text
                continue  # stray blank lines between answers
            left = deadline - time.monotonic()
            if left <= 0:
                self._fail(f"no answer to {command!r} within {timeout:g}s")
            if not self._selector.select(left):
                continue
            try:
                chunk = os.read(self._fd, 1 << 16)
            except BlockingIOError:
                continue
            if not chunk:
                try:
                    status = self._proc.wait(timeout=1)
                except subprocess.TimeoutExpired:
                    status = None
                self._fail(f"engine exited while answering {command!r} (exit status {status})")
            self._buffer += chunk.replace(b"\r", b"")

    def _parse(self, raw: str, cmd_id: int, command: str) -> GtpResponse:
        raw = raw.lstrip("\n")
        status = raw[:1]
        if status not in ("=", "?"):
            self._fail(f"not a GTP answer to {command!r}: {raw[:80]!r}")
        rest = raw[1:]
        digits = len(rest) - len(rest.lstrip("0123456789"))
        if digits and int(rest[:digits]) != cmd_id:
            self._fail(f"answer id {rest[:digits]} does not match command id {cmd_id} ({command!r})")
        text = rest[digits:]
        text = text[1:] if text.startswith(" ") else text  # the separator after '=[id]'
        text = text[1:] if text.startswith("\n") else text  # a multi-line answer may start on the next line
        return GtpResponse(status == "=", text.rstrip())

    def _fail(self, message: str):
        self.close(quit_timeout=0)
        raise GtpEngineError(message)

    # ------------------------------------------------------------------ lifetime
    @property
    def alive(self) -> bool:
        """Whether the engine process is running and the client usable."""
        return not self._closed and self._proc.poll() is None

    def close(self, quit_timeout: float = 2.0) -> Optional[int]:
        """Send `quit`, wait briefly, then terminate/kill if needed. Idempotent; returns the exit status."""
        if self._closed:
            return self._proc.returncode
        self._closed = True
        if quit_timeout > 0 and self._proc.poll() is None:
            try:
                self._proc.stdin.write(b"quit\n")
                self._proc.stdin.flush()
            except OSError:
                pass
        try:
            self._proc.stdin.close()
        except OSError:
            pass
        try:
            self._proc.wait(timeout=quit_timeout if quit_timeout > 0 else 0.05)
        except subprocess.TimeoutExpired:
            _kill(self._proc)
        self._selector.close()
        self._proc.stdout.close()
        self._finalizer.detach()
        return self._proc.returncode

    def __enter__(self) -> "GtpClient":
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"GtpClient({' '.join(self.argv)!r}, {'alive' if self.alive else 'closed'})"


def _kill(proc: subprocess.Popen) -> None:
    """Terminate, then kill, a child that does not leave by itself."""
    if proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout=2)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
