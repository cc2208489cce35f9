"""Where a batch job's chunks run: in this process (`--workers 0`, tests), a local process pool (the default:
N workers, each loading its evaluator once), or a Ray cluster (`--ray local` starts one on this machine with
N workers, `--ray ADDRESS` joins a running one). All run `compute.compute_chunk` on the same chunks, so the
outputs are the same; each yields a chunk's results as soon as it is finished, a few chunks in flight per
worker.

Ray is optional (`pip install 'tengen[ray]'`); on a remote cluster tengen must be installed on every node
(the chunks carry the records' bytes, so no shared file system is needed). The pool spawns its workers:
a script calling `run_batch` with workers needs the `if __name__ == "__main__":` guard.
"""
from __future__ import annotations

import multiprocessing
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Iterable, Iterator, Optional

from tengen.batch import compute
from tengen.batch.jobs import BatchError

IN_FLIGHT_PER_WORKER = 2


def _failed(task: dict, exc: BaseException) -> list[dict]:
    """A chunk whose worker raised: each of its units an error result (reported; the job goes on)."""
    kind = task["settings"]["what"]
    message = " ".join(str(exc).split()) or type(exc).__name__
    return [{"id": f"{task['file_id']}:{t}:{kind}", "file_id": task["file_id"], "turn": t, "kind": kind,
             "error": message} for t in task["turns"]]


class InlineBackend:
    """Chunks computed one after another in this process (`--workers 0`)."""

    name = "inline"

    def __init__(self, model: Optional[str], threads: Optional[int] = None, device: str = "cpu"):
        self.model, self.threads, self.device = model, threads, device
        self.workers = 1

    def run(self, tasks: Iterable[dict]) -> Iterator[tuple[dict, list[dict]]]:
        evaluator = compute.worker_evaluator(self.model, self.threads, self.device)
        for task in tasks:
            try:
                yield task, compute.compute_chunk(task, evaluator)
            except Exception as exc:  # noqa: BLE001
                yield task, _failed(task, exc)

    def close(self) -> None:
        pass


class PoolBackend:
    """A local `ProcessPoolExecutor` of N spawned workers, each loading the evaluator once."""

    name = "pool"

    def __init__(self, workers: int, model: Optional[str], threads: Optional[int] = 1, device: str = "cpu"):
        self.workers = workers
        self.pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                                        initializer=compute.load_worker, initargs=(model, threads, True, device))

    def run(self, tasks: Iterable[dict]) -> Iterator[tuple[dict, list[dict]]]:
        pending: dict[Future, dict] = {}
        source = iter(tasks)
        exhausted = False
        while True:
            while not exhausted and len(pending) < IN_FLIGHT_PER_WORKER * self.workers:
                task = next(source, None)
                if task is None:
                    exhausted = True
                    break
                pending[self.pool.submit(compute.compute_chunk, task)] = task
            if not pending:
                return
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in sorted(done, key=lambda f: pending[f]["seq"]):
                task = pending.pop(future)
                exc = future.exception()
                if exc is not None and type(exc).__name__ == "BrokenProcessPool":
                    raise BatchError("a batch worker process died (out of memory, or killed); "
                                     "run the same command again to resume") from None
                yield task, (_failed(task, exc) if exc is not None else future.result())

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


class RayBackend:
    """N Ray actors (one CPU each), each loading the evaluator once; `address` "local" starts a local cluster."""

    name = "ray"

    def __init__(self, address: str, workers: int, model: Optional[str], threads: Optional[int] = 1,
                 device: str = "cpu"):
        try:
            import ray
        except ImportError:
            raise BatchError("--ray needs the ray package: pip install 'tengen[ray]' (or pip install ray)") from None
        self.ray = ray
        self.started = not ray.is_initialized()
        if self.started:
            if address == "local":
                ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
            else:
                ray.init(address=address, log_to_driver=False, logging_level="ERROR")
        self.workers = workers
        actor = ray.remote(num_cpus=1)(_RayWorker)
        self.actors = [actor.remote(model, threads, device) for _ in range(workers)]

    def run(self, tasks: Iterable[dict]) -> Iterator[tuple[dict, list[dict]]]:
        ray = self.ray
        load = {i: 0 for i in range(len(self.actors))}
        pending: dict = {}  # ObjectRef -> (task, actor index)
        source = iter(tasks)
        exhausted = False
        while True:
            while not exhausted and len(pending) < IN_FLIGHT_PER_WORKER * len(self.actors):
                task = next(source, None)
                if task is None:
                    exhausted = True
                    break
                index = min(load, key=lambda i: load[i])
                load[index] += 1
                pending[self.actors[index].compute.remote(task)] = (task, index)
            if not pending:
                return
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                task, index = pending.pop(ref)
                load[index] -= 1
                try:
                    results = ray.get(ref)
                except Exception as exc:  # noqa: BLE001  (a task's error, or a lost actor)
                    results = _failed(task, exc)
                yield task, results

    def close(self) -> None:
        for a in self.actors:
            self.ray.kill(a)
        if self.started:
            self.ray.shutdown()


class _RayWorker:
    """A Ray actor: the evaluator loaded once, then chunks computed on request."""

    def __init__(self, model: Optional[str], threads: Optional[int], device: str = "cpu"):
        self.evaluator = compute.make_evaluator(model, threads, device)

    def compute(self, task: dict) -> list[dict]:
        return compute.compute_chunk(task, self.evaluator)


def make_backend(workers: int, ray: Optional[str], model: Optional[str], threads: Optional[int] = 1,
                 device: str = "cpu"):
    """The backend the flags ask for: Ray when `ray` is given, else a pool of `workers` (0: this process)."""
    if ray:
        return RayBackend(ray, max(1, workers), model, threads, device)
    if workers == 0:
        return InlineBackend(model, threads, device)
    return PoolBackend(workers, model, threads, device)
