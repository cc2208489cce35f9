"""Where fuzzed inputs run: long-lived worker processes under a memory limit (in-process `tengen.cli.main` and
GTP sessions with rebuilt stdio), restarted after a crash or a hang, and the real console script."""
from __future__ import annotations

import io
import os
import pickle
import queue
import resource
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path
from typing import Callable, Optional

from fuzzing.inputs import GTP_ARGS, HANG_SECONDS, MEMORY_LIMIT, REPO
from fuzzing.outcomes import classify_cli

FUZZ_SCRIPT = str(Path(__file__).resolve().parents[1] / "fuzz.py")  # the workers run its --worker loop


# ================================================================ worker processes
def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def _send(fd: int, obj) -> None:
    data = pickle.dumps(obj)
    view = memoryview(len(data).to_bytes(8, "little") + data)
    while view:
        view = view[os.write(fd, view):]


def _recv(fd: int, timeout: Optional[float] = None):
    """One message, or None at end of file; TimeoutError when nothing complete arrives in `timeout` s."""
    deadline = None if timeout is None else time.monotonic() + timeout
    buf = bytearray()
    need = 8
    while len(buf) < need:
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise TimeoutError
        chunk = os.read(fd, min(1 << 20, need - len(buf)))
        if not chunk:
            return None
        buf += chunk
        if need == 8 and len(buf) == 8:
            need = 8 + int.from_bytes(buf, "little")
    return pickle.loads(bytes(buf[8:]))


class Worker:
    """A long-lived child running jobs in-process (see worker_main), under the memory limit, restarted after
    a hang or a crash."""

    def __init__(self, env: dict[str, str]):
        self.env = env
        self.proc: Optional[subprocess.Popen] = None

    def _start(self) -> None:
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        self.proc = subprocess.Popen(
            [sys.executable, FUZZ_SCRIPT, "--worker", str(to_child_r), str(from_child_w)],
            pass_fds=(to_child_r, from_child_w), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, env=self.env, preexec_fn=_limit_memory, cwd=REPO)
        os.close(to_child_r)
        os.close(from_child_w)
        self.send_fd, self.recv_fd = to_child_w, from_child_r
        self.hello = _recv(self.recv_fd, 120)  # the locale it started under

    def run(self, job: dict) -> dict:
        """The job's result, or {'outcome': 'hang' | 'crash', ...} when the child did not answer."""
        if self.proc is None:
            self._start()
        try:
            _send(self.send_fd, job)
            result = _recv(self.recv_fd, HANG_SECONDS)
        except TimeoutError:
            self.stop()
            return {"outcome": "hang", "detail": f"no answer in {HANG_SECONDS} s"}
        except OSError as exc:  # the child died while we wrote
            result, _ = None, exc
        if result is None:
            code = self.stop()
            return {"outcome": "crash", "detail": f"worker ended with status {code}"}
        if result.get("restart"):
            self.stop()
        return result

    def stop(self) -> Optional[int]:
        if self.proc is None:
            return None
        proc, self.proc = self.proc, None
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
        for fd in (self.send_fd, self.recv_fd):
            os.close(fd)
        return proc.wait()


def _run_cli(argv: list[str]) -> tuple[Optional[int], str, str]:
    """tengen.cli.main(argv) in this process: (exit status, stdout, stderr); a traceback lands in stderr."""
    from tengen import cli

    out, err = io.TextIOWrapper(io.BytesIO(), "utf-8", "backslashreplace"), io.StringIO()
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        rc = cli.main(argv)
    except SystemExit as exc:
        rc = exc.code if isinstance(exc.code, int) else 2
    except BaseException:  # noqa: BLE001  (what the fuzzing is looking for)
        rc = None
        err.write(traceback.format_exc())
    finally:
        sys.stdout, sys.stderr = saved
    out.flush()
    return rc, out.buffer.getvalue().decode("utf-8", "replace"), err.getvalue()


def _run_gtp(stream: bytes, workdir: Path, encodings_: dict[str, tuple[str, str]]) -> tuple[Optional[int], bytes, str]:
    """`tengen gtp` in this process with sys.stdin / sys.stdout rebuilt over files, with the encoding and
    error handler this process's locale gave the real ones (what a fresh `tengen gtp` would get)."""
    from tengen import cli

    (workdir / "in").write_bytes(stream)
    saved = sys.stdin, sys.stdout, sys.stderr
    in_enc, in_err = encodings_["stdin"]
    out_enc, out_err = encodings_["stdout"]
    sys.stdin = io.TextIOWrapper(io.BufferedReader(io.FileIO(workdir / "in", "r")), in_enc, in_err)
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(io.FileIO(workdir / "out", "w")), out_enc, out_err)
    sys.stderr = err = io.StringIO()
    try:
        rc = cli.main(list(GTP_ARGS))
    except SystemExit as exc:
        rc = exc.code if isinstance(exc.code, int) else 2
    except BaseException:  # noqa: BLE001
        rc = None
        err.write(traceback.format_exc())
    finally:
        for stream_ in (sys.stdin, sys.stdout):
            try:
                stream_.close()
            except Exception:  # noqa: BLE001
                pass
        sys.stdin, sys.stdout, sys.stderr = saved
    return rc, (workdir / "out").read_bytes(), err.getvalue()


def worker_main(recv_fd: int, send_fd: int) -> None:
    """The child's loop: a job in, a result out, until end of input."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    encodings_ = {"stdin": (sys.stdin.encoding, sys.stdin.errors), "stdout": (sys.stdout.encoding, sys.stdout.errors)}
    import tengen.cli  # noqa: F401  (imported once, before the first job)

    workdir = Path(tempfile.mkdtemp(prefix="tengen-fuzz-worker-"))
    _send(send_fd, {"encodings": encodings_})
    try:
        while True:
            job = _recv(recv_fd)
            if job is None:
                return
            try:
                if job["kind"] == "sgf":
                    path = workdir / "input.sgf"
                    path.write_bytes(job["data"])
                    argv = [job["argv"][0], str(path), *job["argv"][1:]]
                    rc, _, err = _run_cli(argv)
                    outcome = classify_cli(rc, err)
                    result = {"outcome": outcome, "detail": err.strip().splitlines()[-1:] or [""], "rc": rc}
                    result["detail"] = result["detail"][0]
                else:
                    rc, out, err = _run_gtp(job["data"], workdir, encodings_)
                    result = {"outcome": classify_cli(rc, err) if rc != 0 or err else "success", "out": out,
                              "detail": err.strip()[-300:], "rc": rc}
            except MemoryError:
                result = {"outcome": "over 2 GB", "detail": "MemoryError", "restart": True}
            if result["outcome"] in ("over 2 GB", "traceback"):
                result["restart"] = True  # a process past a MemoryError or a bug may be in a bad state
            _send(send_fd, result)
            if result.get("restart"):
                return
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


class Pool:
    """Two workers fed from a bounded queue by the caller; results handed to `on_result` (in worker threads,
    under a lock)."""

    def __init__(self, env: dict[str, str], on_result: Callable[[dict, dict], None], size: int = 2):
        self.jobs: queue.Queue = queue.Queue(maxsize=2 * size)
        self.lock = threading.Lock()
        self.on_result = on_result
        self.workers = [Worker(env) for _ in range(size)]
        self.threads = [threading.Thread(target=self._loop, args=(w,), daemon=True) for w in self.workers]
        for t in self.threads:
            t.start()

    def _loop(self, worker: Worker) -> None:
        while True:
            job = self.jobs.get()
            if job is None:
                worker.stop()
                return
            result = worker.run(job) if job.get("kind") != "real" else run_real(job)
            with self.lock:
                self.on_result(job, result)

    def put(self, job: dict) -> None:
        self.jobs.put(job)

    def close(self) -> None:
        for _ in self.threads:
            self.jobs.put(None)
        for t in self.threads:
            t.join()


# ================================================================ the real console script
CONSOLE_SCRIPT = Path(sys.executable).parent / "tengen"


def tengen_argv(*args: str) -> list[str]:
    return [str(CONSOLE_SCRIPT), *args] if CONSOLE_SCRIPT.exists() else [sys.executable, "-m", "tengen", *args]


def run_tengen(args: list[str], stdin: Optional[bytes] = None, env: Optional[dict] = None, close_stdin: bool = False,
               timeout: float = HANG_SECONDS) -> dict:
    """The real console script under the memory limit: {'rc', 'out', 'err', 'outcome'} ('hang' past timeout)."""
    def limits():
        _limit_memory()
        if close_stdin:
            os.close(0)

    try:
        proc = subprocess.run(tengen_argv(*args), input=stdin, stdin=None if stdin is not None or close_stdin else
                              subprocess.DEVNULL, capture_output=True, timeout=timeout, env=env, cwd=REPO,
                              preexec_fn=limits)
    except subprocess.TimeoutExpired:
        return {"rc": None, "out": b"", "err": "", "outcome": "hang"}
    err = proc.stderr.decode("utf-8", "replace")
    return {"rc": proc.returncode, "out": proc.stdout, "err": err, "outcome": classify_cli(proc.returncode, err)}


def run_real(job: dict) -> dict:
    """A pool job through the real console script (a sample of the in-process runs, to compare)."""
    with tempfile.TemporaryDirectory(prefix="tengen-fuzz-real-") as tmp:
        if job["of"] == "sgf":
            path = Path(tmp) / "input.sgf"
            path.write_bytes(job["data"])
            result = run_tengen([job["argv"][0], str(path), *job["argv"][1:]], env=job["env"])
        else:
            result = run_tengen(list(GTP_ARGS), stdin=job["data"], env=job["env"])
    result["detail"] = result["err"].strip()[-300:]
    return result


def locale_available(name: str) -> bool:
    """Whether the C library has the locale (`locale -a` spells en_US.UTF-8 as en_US.utf8)."""
    try:
        names = subprocess.run(["locale", "-a"], capture_output=True, text=True, timeout=30).stdout.split()
    except (OSError, subprocess.SubprocessError):
        return False
    wanted = name.lower().replace("-", "")
    return any(n.lower().replace("-", "") == wanted for n in names)
