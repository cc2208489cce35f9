"""The batch loop: collect the records, plan their units, skip what the journal says is done, send the rest
to a backend chunk by chunk, journal each result as it arrives (progress bar with rate and ETA), and write a
game's outputs the moment its last unit is journaled. Bad records are reported and skipped, never fatal;
a killed run is resumed by running the same command again."""
from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field
from typing import Callable, Iterator, Optional

from tengen.batch.jobs import BatchError, FileJob, JobSettings, RecordSkipped, collect_files, plan_file
from tengen.batch.journal import Journal
from tengen.batch.outputs import game_paths, write_game_outputs, write_summary

SHOWN = 20  # skipped records and unit errors named one by one on stderr; the rest are counted


@dataclass
class BatchSummary:
    """What a run did: the job's totals and this run's share."""

    files: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (path, reason)
    units: int = 0  # units of the job (readable records)
    done_before: int = 0  # already journaled when this run started
    computed: int = 0  # journaled by this run
    errors: int = 0  # units that could not be analyzed (journaled with their error)
    games_written: int = 0  # games whose outputs this run wrote
    seconds: float = 0.0
    steady_computed: int = 0  # units journaled after the first chunk came back (workers loaded)
    steady_seconds: float = 0.0  # from the first chunk's arrival to the last's
    complete: bool = False

    @property
    def positions_per_second(self) -> float:
        return self.computed / self.seconds if self.seconds > 0 else 0.0

    @property
    def steady_positions_per_second(self) -> float:
        """The rate once every worker has started (start-up excluded): what more workers speed up."""
        return self.steady_computed / self.steady_seconds if self.steady_seconds > 0 else 0.0

    def as_json(self) -> dict:
        return {"files": self.files, "skipped": [{"file": p, "reason": r} for p, r in self.skipped],
                "units": self.units, "done_before": self.done_before, "computed": self.computed,
                "errors": self.errors, "games_written": self.games_written, "complete": self.complete,
                "seconds": round(self.seconds, 3), "positions_per_second": round(self.positions_per_second, 3),
                "steady_positions_per_second": round(self.steady_positions_per_second, 3)}


def resolve_model(model: Optional[str]) -> Optional[str]:
    """The network every worker loads: "tiny", a checked path, or the default network's cached path
    (fetched here once, not by each worker)."""
    if model == "tiny":
        return model
    if model is None:
        from tengen.eval.katago.weights import default_model_path

        return str(default_model_path())
    if not os.path.isfile(model):
        raise BatchError(f"--model {model}: no such model file")
    return os.path.abspath(model)


def check_device(device: str) -> None:
    """A device this machine lacks is one line before any work, not a worker that dies loading its network."""
    from tengen.eval.devices import DeviceUnavailable, pick_device

    try:
        pick_device(device)
    except DeviceUnavailable as exc:
        raise BatchError(f"--device: {exc}") from None


def run_batch(inputs: list[str], out_dir: str, settings: JobSettings, workers: int = 2, ray: Optional[str] = None,
              threads: Optional[int] = 1, progress: bool = True, stop_after: Optional[int] = None,
              log: Callable[[str], None] = lambda line: print(line, file=sys.stderr),
              device: str = "cpu") -> BatchSummary:
    """Run (or resume) the job over `inputs` into `out_dir`, the networks on `device` in every worker;
    `stop_after` ends it after that many units (tests: an interrupted run). Per-query errors raise
    `BatchError` before any work starts."""
    from tengen.files import check_output_dir

    start = time.perf_counter()
    if workers < 0 or workers > 256:
        raise BatchError(f"--workers {workers}: must be 0..256")
    check_output_dir("--out", out_dir)
    unreadable: list[tuple[str, str]] = []  # folders that could not be read: listed as skipped
    files = collect_files(inputs, settings.max_files, exclude=out_dir, unreadable=unreadable)
    if not files:
        raise BatchError("no SGF records found in the inputs" +
                         (f" ({len(unreadable)} folders could not be read)" if unreadable else ""))
    os.makedirs(os.path.join(out_dir, "games"), exist_ok=True)
    model = resolve_model(settings.model)  # a missing model file: one line, before any work
    check_device(device)
    run = _BatchRun(out_dir, settings, log, BatchSummary(files=len(files)))
    for folder, reason in unreadable:
        run.skip(folder, reason, f"{folder}: {reason}")
    run.plan(files, progress)
    run.write_finished()  # finished before a kill, outputs not yet written
    if sum(run.remaining.values()):
        from tengen.batch.backends import make_backend

        run.compute(make_backend(workers, ray, model, threads, device), threads, progress, stop_after, device)
    else:
        run.journal.close()
    return run.close(start)


class _BatchRun:
    """One run of a job: its journal, the records planned (`by_id`), the units each still needs
    (`remaining`), the summary, and the few lines it shows (at most SHOWN)."""

    def __init__(self, out_dir: str, settings: JobSettings, log: Callable[[str], None], summary: BatchSummary):
        self.out_dir, self.settings, self.log, self.summary = out_dir, settings, log, summary
        self.journal = Journal(out_dir, settings.fingerprint())
        self.by_id: dict[str, FileJob] = {}
        self.remaining: dict[str, int] = {}
        self.shown = 0
        if self.journal.torn:
            log(f"tengen: batch: {self.journal.path}: its last line was cut short (a kill); that work is done again")

    def report(self, line: str) -> None:
        self.shown += 1
        if self.shown <= SHOWN:
            self.log(f"tengen: batch: {line}")

    def skip(self, path: str, reason: str, line: str) -> None:
        self.summary.skipped.append((path, reason))
        self.report(f"skipped: {line}")

    def plan(self, files: list[FileJob], progress: bool) -> None:
        """Each record's units (its selected turns), or why it is skipped (journaled, so a resume agrees)."""
        from tqdm import tqdm

        for job in tqdm(files, desc="reading records", unit="file", disable=not progress or len(files) < 200,
                        file=sys.stderr, leave=False):
            if job.file_id in self.journal.skipped:
                self.summary.skipped.append((job.path, self.journal.skipped[job.file_id]))
                continue
            try:
                plan_file(job, self.settings)
            except RecordSkipped as exc:
                self.journal.skip(job.file_id, str(exc))
                self.skip(job.path, str(exc), str(exc))
                continue
            self.by_id[job.file_id] = job
        self.summary.units = sum(len(j.units) for j in self.by_id.values())
        self.remaining = {fid: sum(u.id not in self.journal.units for u in j.units) for fid, j in self.by_id.items()}
        self.summary.done_before = self.summary.units - sum(self.remaining.values())

    def finish(self, job: FileJob) -> None:
        """Write a record's outputs from its journaled units."""
        from tengen.go.sgf_bytes import read_regular_file

        entries = [self.journal.units[u.id] for u in job.units]
        write_game_outputs(self.out_dir, job.name, job.path, read_regular_file(job.path), entries)
        self.summary.games_written += 1

    def write_finished(self) -> None:
        for fid, job in self.by_id.items():
            if self.remaining[fid] == 0 and not os.path.exists(game_paths(self.out_dir, job.name)[0]):
                self.finish(job)

    def tasks(self, threads: Optional[int], device: str = "cpu") -> Iterator[dict]:
        """The chunks still to compute: a record's pending turns, `settings.chunk` at a time."""
        from tengen.go.sgf_bytes import read_regular_file

        seq = 0
        for fid, job in self.by_id.items():
            pending = [u.turn for u in job.units if u.id not in self.journal.units]
            if not pending:
                continue
            data = read_regular_file(job.path)
            for i in range(0, len(pending), self.settings.chunk):
                seq += 1
                yield {"seq": seq, "file_id": fid, "source": job.path, "data": data,
                       "turns": pending[i:i + self.settings.chunk], "settings": self.settings.fingerprint(),
                       "threads": threads, "device": device}

    def compute(self, backend, threads: Optional[int], progress: bool, stop_after: Optional[int],
                device: str = "cpu") -> None:
        """Run the pending chunks on `backend`, journaling each result and writing each record's outputs
        as its last unit arrives; the steady rate (after the first chunk) goes to the summary."""
        from tqdm import tqdm

        summary = self.summary
        bar = tqdm(total=summary.units, initial=summary.done_before, desc=f"batch {self.settings.what}", unit="pos",
                   file=sys.stderr, disable=not progress, smoothing=0.1, dynamic_ncols=True)
        first: Optional[float] = None
        try:
            for task, results in backend.run(self.tasks(threads, device)):
                if first is None:
                    first, before = time.perf_counter(), summary.computed + len(results)
                if stop_after is not None:
                    results = results[:max(0, stop_after - summary.computed)]
                for result in self.journal.record(results):
                    summary.computed += 1
                    self.remaining[result["file_id"]] -= 1
                    if "error" in result:
                        summary.errors += 1
                        bar.clear()
                        self.report(f"{self.by_id[result['file_id']].path} turn {result['turn']}: {result['error']}")
                bar.update(len(results))
                if self.remaining[task["file_id"]] == 0:
                    self.finish(self.by_id[task["file_id"]])
                if stop_after is not None and summary.computed >= stop_after:
                    break
            if first is not None:
                summary.steady_seconds = time.perf_counter() - first
                summary.steady_computed = max(0, summary.computed - before)
        finally:
            bar.close()
            backend.close()
            self.journal.close()

    def close(self, start: float) -> BatchSummary:
        """The summary, written atomically."""
        summary = self.summary
        summary.errors = sum("error" in e for e in self.journal.units.values())
        if self.shown > SHOWN:
            self.log(f"tengen: batch: {self.shown - SHOWN} more records skipped or positions not analyzed "
                     "(see summary.json)")
        summary.complete = all(v == 0 for v in self.remaining.values())
        summary.seconds = time.perf_counter() - start
        write_summary(self.out_dir, summary.as_json())
        return summary
