"""The loop of `tengen analysis`: a reader (the calling thread) parses each stdin line and answers actions at
once; analysis turns wait in a priority queue (higher `priority` first, ties by arrival, as KataGo orders
them); a worker thread searches them one at a time and writes each response as one flushed JSON line. So
several queries are in flight, and results may come back in another order than the queries.

`terminate` / `terminate_all` answer a queued turn with KataGo's `noResults` line at once and stop a running
search, which then reports what it has (its final `isDuringSearch: false` line). At the end of stdin the
queued turns are finished before the engine exits (KataGo's default). Nothing but protocol lines reaches the
output: a failure inside one turn is an error object with the query's id, then its `noResults` line.

The network loads on the first turn that needs it (actions answer before). Each turn gets a fresh search
tree (no reuse between queries), so a turn's result depends on its query only.
"""
from __future__ import annotations

import heapq
import itertools
import threading
from dataclasses import dataclass
from typing import IO, Callable, Iterator, Optional

from tengen.io.analysis_protocol import analysis_response, dumps, noresult_response
from tengen.io.analysis_query import (
    MAX_LINE_BYTES,
    Action,
    AnalysisQuery,
    QueryError,
    error_object,
    parse_line,
    warning_object,
)
from tengen.io.gtp_player import ANALYSIS_MAX_VISITS

QUEUED, RUNNING, DONE, TERMINATED = "queued", "running", "done", "terminated"
DEFAULT_VISITS = 500  # KataGo's analysis_example.cfg maxVisits


class NetworkUnavailable(RuntimeError):
    """The network could not be loaded (a missing, damaged or irregular model file): the user's to fix."""


@dataclass(frozen=True)
class EngineSettings:
    """The engine's own settings: default and capped visits, the search's batch and root symmetries, extras."""

    default_visits: int = DEFAULT_VISITS
    max_visits_cap: int = ANALYSIS_MAX_VISITS
    batch_size: int = 16
    root_symmetries: int = 8
    endgame: bool = False  # tengenEndgame on every query unless it says false

    def __post_init__(self) -> None:
        if self.default_visits < 1 or self.max_visits_cap < 1:
            raise ValueError("visits must be at least 1")
        if not 1 <= self.batch_size <= 1024:
            raise ValueError("batch_size must be 1..1024")


class _Request:
    """One turn of one query in the queue."""

    __slots__ = ("query", "turn", "priority", "seq", "state", "stop")

    def __init__(self, query: AnalysisQuery, turn: int, seq: int):
        self.query, self.turn, self.seq = query, turn, seq
        self.priority = query.priorities.get(turn, 0)
        self.state = QUEUED
        self.stop = threading.Event()


def default_endgame(board, evaluator):
    """tengen's endgame analysis of one position (the `tengenEndgame` extras), with the defaults every front
    end shares (`AnalysisOptions()`): the same answer `tengen analyze` gives."""
    from tengen.api import analyze

    return analyze(board.copy(), evaluator=evaluator)


class AnalysisEngine:
    """KataGo's analysis engine over tengen's search. `load_evaluator()` gives the network (called once);
    `search_factory(evaluator, config)` makes a search (default `tengen.search.Search`); `endgame(board,
    evaluator)` gives an `Analysis` for the extras (default `tengen.api.analyze`)."""

    def __init__(self, load_evaluator: Callable[[], object], out: IO[str],
                 settings: EngineSettings = EngineSettings(), search_factory: Optional[Callable] = None,
                 endgame: Optional[Callable] = None, version: Optional[str] = None):
        self._load_evaluator = load_evaluator
        self.out = out
        self.settings = settings
        self._search_factory = search_factory
        self._endgame = endgame or default_endgame
        self._version = version
        self._evaluator = None
        self._cond = threading.Condition()
        self._write_lock = threading.Lock()
        self._heap: list[tuple[int, int, _Request]] = []
        self._open: dict[int, _Request] = {}
        self._seq = itertools.count()
        self._closed = False
        self.output_error: Optional[BaseException] = None  # why the responses could not be written

    # ------------------------------------------------------------------ output
    def write(self, obj: dict) -> None:
        """One response line, flushed (several threads write: one lock). When the output cannot take it (a
        full disk, a closed pipe or stream) the engine stops: `output_error` says why, nothing more is
        written, queued turns are dropped, and `serve` ends."""
        line = dumps(obj) + "\n"
        with self._write_lock:
            if self.output_error is not None:
                return
            try:
                self.out.write(line)
                self.out.flush()
            except (OSError, ValueError) as exc:  # ValueError: a write to a closed file
                self.output_error = exc
        if self.output_error is not None:
            with self._cond:
                self._closed = True
                self._heap.clear()
                self._cond.notify_all()

    # ------------------------------------------------------------------ input
    def handle_line(self, line: str) -> None:
        """Parse one input line; answer errors, warnings and actions now, queue analysis turns."""
        warnings: list[dict] = []
        try:
            parsed = parse_line(line, self.settings.max_visits_cap, self.settings.default_visits,
                                self.settings.endgame, warnings)
        except QueryError as exc:
            for w in warnings:
                self.write(w)
            self.write(error_object(exc.message, exc.field, exc.id))
            return
        except Exception as exc:  # never a traceback on the protocol stream
            self.write(error_object(f"internal error reading the request: {' '.join(str(exc).split())}"))
            return
        for w in warnings:
            self.write(w)
        if isinstance(parsed, Action):
            self._action(parsed)
        elif parsed is not None:
            self._enqueue(parsed)

    def _action(self, action: Action) -> None:
        """Answer an action now (KataGo answers them on its reader thread too)."""
        if action.name == "query_version":
            from tengen import __version__

            self.write({**action.echo, "version": self._version or f"tengen-{__version__}", "git_hash": "<omitted>"})
        elif action.name == "clear_cache":
            clear = getattr(self._evaluator, "clear_cache", None)
            if callable(clear):
                clear()
            self.write(action.echo)
        else:  # terminate, terminate_all
            with self._cond:
                for req in list(self._open.values()):
                    if action.name == "terminate" and req.query.id != action.terminate_id:
                        continue
                    if action.turn_numbers is not None and req.turn not in action.turn_numbers:
                        continue
                    req.stop.set()
                    if req.state == QUEUED:
                        req.state = TERMINATED
                        del self._open[req.seq]
                        self.write(noresult_response(req.query.id, req.turn))
            self.write(action.echo)

    def _enqueue(self, query: AnalysisQuery) -> None:
        """One queue entry per analyzed turn, keyed by (-priority, arrival)."""
        with self._cond:
            for turn in query.turns:
                req = _Request(query, turn, next(self._seq))
                self._open[req.seq] = req
                heapq.heappush(self._heap, (-req.priority, req.seq, req))
            self._cond.notify_all()

    # ------------------------------------------------------------------ the worker
    def _next(self, block: bool) -> Optional[_Request]:
        """The highest-priority queued turn, marked running (None: empty and not waiting, or closed)."""
        with self._cond:
            while True:
                while self._heap:
                    req = heapq.heappop(self._heap)[2]
                    if req.state == QUEUED:
                        req.state = RUNNING
                        return req
                if not block or self._closed:
                    return None
                self._cond.wait()

    def run_pending(self) -> int:
        """Analyze every queued turn in this thread, highest priority first (tests); the number analyzed."""
        n = 0
        while (req := self._next(block=False)) is not None:
            self._run(req)
            n += 1
        return n

    def _worker(self) -> None:
        """The worker thread: turns until the input ended and the queue is empty."""
        while (req := self._next(block=True)) is not None:
            self._run(req)

    def _run(self, req: _Request) -> None:
        """Analyze one turn; a failure is an error object and noResults, never a crash."""
        try:
            self._analyze(req)
        except NetworkUnavailable as exc:  # the user's model file or cache, not a bug: said as it is
            self.write(error_object(str(exc), None, req.query.id))
            self.write(noresult_response(req.query.id, req.turn))
        except Exception as exc:  # one turn fails, the engine keeps serving
            self.write(error_object(f"internal error: {' '.join(str(exc).split()) or type(exc).__name__}",
                                    None, req.query.id))
            self.write(noresult_response(req.query.id, req.turn))
        finally:
            with self._cond:
                req.state = DONE
                self._open.pop(req.seq, None)
                self._cond.notify_all()

    def evaluator(self):
        """The network, loaded on first need (`cannot load the network: ...` on failure)."""
        if self._evaluator is None:
            try:
                self._evaluator = self._load_evaluator()
            except Exception as exc:
                text = " ".join(str(exc).split()) or type(exc).__name__
                raise NetworkUnavailable(f"cannot load the network: {text}") from None
        return self._evaluator

    def _analyze(self, req: _Request) -> None:
        """Search one turn (reports during the search when asked), then write its final response."""
        q, turn = req.query, req.turn
        if req.stop.is_set():
            self.write(noresult_response(q.id, turn))
            return
        evaluator = self.evaluator()
        board = q.board_at(turn)
        search = self._make_search(evaluator, q)
        root_eval = evaluator.evaluate([board])[0]

        def progress(result) -> None:
            self.write(analysis_response(q, turn, board, result, root_eval, during_search=True))

        result = search.run(board, visits=q.max_visits, seconds=q.max_time, should_stop=req.stop.is_set,
                            on_progress=progress if q.report_every is not None else None,
                            progress_every=q.report_every or 1.0, allowed_root_moves=q.allowed_root_moves(board))
        moves_own = None
        if q.include_moves_ownership and result.moves:
            children = []
            for stats in result.moves:
                child = board.copy()
                child.play(board.to_play, stats.move)
                children.append(child)
            moves_own = {s.move: e.ownership for s, e in zip(result.moves, evaluator.evaluate(children))}
        endgame = None
        if q.endgame and not req.stop.is_set():
            try:
                endgame = self._endgame(board, evaluator)
            except Exception as exc:
                self.write(warning_object(f"endgame analysis failed: {' '.join(str(exc).split())}",
                                          "tengenEndgame", q.id))
        self.write(analysis_response(q, turn, board, result, root_eval, during_search=False,
                                     moves_ownership=moves_own, endgame=endgame))

    def _make_search(self, evaluator, q: AnalysisQuery):
        """A fresh search for one turn (no tree shared between queries: results depend on the query only)."""
        from tengen.search.results import SearchConfig

        fields = {"visits": q.max_visits, "batch_size": self.settings.batch_size,
                  "root_symmetries": self.settings.root_symmetries}
        if q.c_puct is not None:
            fields["c_puct"] = q.c_puct
        config = SearchConfig(**fields)
        factory = self._search_factory
        if factory is None:
            from tengen.search.mcts import Search

            factory = Search
        return factory(evaluator, config)

    # ------------------------------------------------------------------ the whole session
    def serve(self, stdin: IO[bytes]) -> int:
        """Read queries until the end of stdin, then finish the queued turns; exit status 0, or 1 when the
        responses could not be written (`output_error`)."""
        worker = threading.Thread(target=self._worker, name="tengen-analysis-worker", daemon=True)
        worker.start()
        try:
            for line in read_lines(stdin, self):
                if self.output_error is not None:
                    break
                self.handle_line(line)
        finally:
            with self._cond:
                self._closed = True
                self._cond.notify_all()
            worker.join()
        return 0 if self.output_error is None else 1


def read_lines(stdin: IO[bytes], engine: AnalysisEngine) -> Iterator[str]:
    """Lines of at most MAX_LINE_BYTES (a longer one is skipped with a general error), decoded as UTF-8."""
    while True:
        raw = stdin.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            while raw and not raw.endswith(b"\n"):
                raw = stdin.readline(MAX_LINE_BYTES)
            engine.write(error_object(f"Request line longer than {MAX_LINE_BYTES} bytes, ignoring"))
            continue
        yield raw.decode("utf-8", errors="replace")
