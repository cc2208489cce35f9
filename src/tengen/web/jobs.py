"""A bounded job queue for analyses and game reviews: at most `workers` jobs run at once (one per core by
default), at most `queue_limit` wait; each job reports progress (events a client streams as SSE), can be
cancelled, and stops at its time limit. Cancellation and the time limit are checked at every network
evaluation and progress step."""
from __future__ import annotations

import os
import threading
import time
import uuid
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from tengen.deadline import stop_by

KEEP_FINISHED = 64  # finished jobs kept for their results (the oldest is dropped)


class QueueFull(Exception):
    """More jobs are waiting than the queue allows."""


class JobStopped(Exception):
    """Raised inside a running job when it is cancelled or over its time limit."""


@dataclass
class Job:
    """One job: its kind ("analysis", "review"), state, progress, result (the Analysis or GameReview and its
    JSON report) or error."""

    id: str
    time_limit_s: float
    kind: str = "analysis"
    status: str = "queued"  # queued, running, done, failed, cancelled
    stage: str = ""
    done: int = 0
    total: int = 0
    error: Optional[str] = None
    result: Any = None
    report: Optional[dict] = None
    created: float = field(default_factory=time.monotonic)
    started: Optional[float] = None
    finished: Optional[float] = None
    version: int = 0  # bumped at every change, so event streams know when to send
    asked: dict = field(default_factory=dict)  # what the request asked that a result route needs (an analysis's region)
    kept: dict = field(default_factory=dict)  # what the work kept beside its result for later routes (a review's quiz)
    cancel_requested: threading.Event = field(default_factory=threading.Event)

    @property
    def is_final(self) -> bool:
        return self.status in ("done", "failed", "cancelled")

    @property
    def seconds(self) -> float:
        if self.started is None:
            return 0.0
        return round((self.finished or time.monotonic()) - self.started, 3)

    def check(self) -> None:
        """Stop the job (JobStopped) if it was cancelled or ran past its time limit."""
        if self.cancel_requested.is_set():
            raise JobStopped("cancelled")
        if self.started is not None and time.monotonic() - self.started > self.time_limit_s:
            raise JobStopped(f"time limit of {self.time_limit_s:g} s reached")

    def progress(self, stage: str, done: int, total: int) -> None:
        """The job's progress callback: record it, then check for a stop."""
        self.stage, self.done, self.total = stage, done, total
        self.version += 1
        self.check()

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "status": self.status, "stage": self.stage, "done": self.done, "total": self.total,
                "error": self.error, "seconds": self.seconds}


class JobQueue:
    """Runs `work(job)` for submitted jobs on a thread pool of `workers`; refuses beyond `queue_limit` waiting."""

    def __init__(self, workers: Optional[int] = None, queue_limit: int = 4):
        self.workers = max(1, workers or os.cpu_count() or 1)
        self.queue_limit = max(0, queue_limit)
        self._pool = ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="tengen-job")
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.Lock()

    def submit(self, work: Callable[[Job], tuple[Any, dict]], time_limit_s: float, kind: str = "analysis",
               asked: Optional[dict] = None) -> Job:
        """Queue `work` as a job of `kind` (`asked`: what its result routes need of the request); QueueFull
        when `queue_limit` jobs already wait behind the running ones (of every kind: analyses and reviews
        share the workers and the network); a cancelled job, even one still running to its next check, holds
        no place."""
        with self._lock:
            active = [j for j in self._jobs.values() if not j.is_final and not j.cancel_requested.is_set()]
            waiting = max(0, len(active) - self.workers)
            if len(active) >= self.workers and waiting >= self.queue_limit:
                raise QueueFull(f"the job queue is full ({self.workers} running, {waiting} waiting); "
                                "try again when one finishes")
            job = Job(id=uuid.uuid4().hex[:16], time_limit_s=time_limit_s, kind=kind, asked=dict(asked or {}))
            self._jobs[job.id] = job
            self._trim()
        self._pool.submit(self._run, job, work)
        return job

    def _trim(self) -> None:
        finished = [k for k, j in self._jobs.items() if j.is_final]
        for key in finished[:max(0, len(finished) - KEEP_FINISHED)]:
            del self._jobs[key]

    def _run(self, job: Job, work: Callable[[Job], tuple[Any, dict]]) -> None:
        with self._lock:  # a job cancelled while queued is final already: it never starts
            if job.is_final:
                return
            job.started = time.monotonic()
            job.status = "running"
            job.version += 1
        try:
            with stop_by(job.started + job.time_limit_s, job.cancel_requested):  # for searches that cannot poll it
                job.result, job.report = work(job)
        except JobStopped as exc:
            self._finish(job, "cancelled", str(exc))
        except Exception as exc:  # one line for the client; the server stays up
            self._finish(job, "failed", " ".join(f"{type(exc).__name__}: {exc}".split())[:500])
        else:
            self._finish(job, "done", None)

    @staticmethod
    def _finish(job: Job, status: str, error: Optional[str]) -> None:
        job.finished = time.monotonic()
        job.status, job.error = status, error
        job.version += 1

    def get(self, job_id: str) -> Optional[Job]:
        with self._lock:
            return self._jobs.get(job_id)

    def cancel(self, job_id: str) -> Optional[Job]:
        """Stop a job: a queued one leaves the queue at once (cancelled, it never starts); a running one stops
        at its next check, its place in the queue free from now."""
        with self._lock:
            job = self._jobs.get(job_id)
            if job is not None and not job.is_final:
                job.cancel_requested.set()
                if job.status == "queued":
                    self._finish(job, "cancelled", "cancelled before it started")
                else:
                    job.version += 1
        return job

    def shutdown(self) -> None:
        """Cancel every job and stop the workers (the app's shutdown)."""
        with self._lock:
            for job in self._jobs.values():
                job.cancel_requested.set()
        self._pool.shutdown(wait=False, cancel_futures=True)
