"""The resumable journal of a batch job: `journal.jsonl` in the output folder, append-only JSON lines, each
flushed and fsynced before the next unit counts as done.

The first line holds the job's settings (a restart with other settings is refused). Then one line per
finished unit (`{"unit": id, ...result or error}`) and one per skipped record (`{"skip": file_id, "reason"}`).
A restart reads it back and skips what it names; a last line torn by a kill (no newline, or unreadable) is
cut off before anything is appended, so a result is never lost (it is recomputed) nor duplicated (an id
already read is never written again).
"""
from __future__ import annotations

import json
import os
from typing import Optional

from tengen.batch.jobs import BatchError

JOURNAL = "journal.jsonl"


class Journal:
    """The journal file: what is done (`units`, `skipped`) and an fsynced append per finished piece."""

    def __init__(self, out_dir: str, fingerprint: dict):
        self.path = os.path.join(out_dir, JOURNAL)
        self.units: dict[str, dict] = {}  # unit id -> its journal entry
        self.skipped: dict[str, str] = {}  # file id -> reason
        self.torn = 0  # torn lines cut off when opened (0 or 1)
        header = self._read()
        if header is None:
            self._fh = open(self.path, "ab")
            self._append({"job": fingerprint})
        else:
            if header != fingerprint:
                changed = sorted(k for k in set(header) | set(fingerprint) if header.get(k) != fingerprint.get(k))
                raise BatchError(f"{self.path}: the journal was written for other settings ({', '.join(changed)}); "
                                 "use another --out folder, or the same settings to resume")
            self._fh = open(self.path, "ab")

    def _read(self) -> Optional[dict]:
        """Load the entries; cut a torn last line. Returns the job header, or None for a new journal."""
        if not os.path.exists(self.path):
            return None
        with open(self.path, "rb") as fh:
            data = fh.read()
        good = 0  # bytes of complete, readable lines
        header = None
        lines = data.split(b"\n")
        for i, line in enumerate(lines[:-1]):  # the piece after the last newline is torn (or empty)
            try:
                entry = json.loads(line)
            except (ValueError, RecursionError):  # RecursionError: brackets nested past the parser's depth
                if i == len(lines) - 2:  # the last line, cut mid-way before its newline was written back
                    break
                raise BatchError(f"{self.path}: line {i + 1} is not JSON; the journal is damaged "
                                 "(not by a kill: only the last line can be torn)") from None
            good += len(line) + 1
            if i == 0:
                if not isinstance(entry, dict) or "job" not in entry:
                    raise BatchError(f"{self.path}: not a tengen batch journal (no job line first)")
                header = entry["job"]
            elif "unit" in entry:
                self.units.setdefault(entry["unit"], entry)
            elif "skip" in entry:
                self.skipped.setdefault(entry["skip"], entry.get("reason", ""))
        if good < len(data):
            self.torn = 1
            with open(self.path, "r+b") as fh:
                fh.truncate(good)
                os.fsync(fh.fileno())
        if header is None:  # empty, or only a torn header: start afresh
            os.unlink(self.path)
        return header

    def _append(self, *entries: dict) -> None:
        """Write whole lines in one write, then flush and fsync: only then do they count as done."""
        self._fh.write(b"".join((json.dumps(e, separators=(",", ":"), allow_nan=False) + "\n").encode()
                                for e in entries))
        self._fh.flush()
        os.fsync(self._fh.fileno())

    def record(self, results: list[dict]) -> list[dict]:
        """Journal units' results (or errors), one fsync for all; returns those written (a unit already
        done is never written again)."""
        fresh: dict[str, dict] = {}
        for result in results:
            uid = result["id"]
            if uid not in self.units and uid not in fresh:
                fresh[uid] = {"unit": uid, **{k: v for k, v in result.items() if k != "id"}}
        if fresh:
            self._append(*fresh.values())
            self.units.update(fresh)
        return [r for r in results if r["id"] in fresh]

    def skip(self, file_id: str, reason: str) -> None:
        """Journal a record left out, so a restart reports it without reading it again."""
        if file_id not in self.skipped:
            self._append({"skip": file_id, "reason": reason})
            self.skipped[file_id] = reason

    def close(self) -> None:
        self._fh.close()
