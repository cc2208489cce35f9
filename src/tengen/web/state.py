"""What the web app's routers share (`WebState`): the records opened, the job queue, the served folder, the
network (loaded on first use) with the locks that serialize it, and the per-page bookkeeping of evaluations;
the position a request names (`board_of`) and the settings of its jobs (`analysis_options`)."""
from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional

from fastapi import HTTPException

from tengen.go.board import Board
from tengen.go.colors import BLACK, parse_color
from tengen.go.coords import from_gtp, to_gtp
from tengen.go.sgf import Game
from tengen.web.files import RecordStore
from tengen.web.jobs import Job, JobQueue
from tengen.web.schemas import DEFAULT_MAX_NODES, DEFAULT_MAX_TOTAL_NODES, PositionIn, RecordOut

if TYPE_CHECKING:
    from tengen.endgame.options import AnalysisOptions

MAX_VARIATIONS = 200  # side lines listed per record
VARIATION_MOVES = 50  # first moves listed per side line
REVIEWS_KEPT = 256  # review jobs remembered by record and moves (their results live as long as the job queue keeps them)


class GuardedEvaluator:
    """The shared evaluator as one job sees it: calls serialized (one network, many jobs), and the job's
    cancellation and time limit checked before each call."""

    def __init__(self, inner: Any, lock: threading.Lock, job: Optional[Job] = None):
        self.inner, self.lock, self.job = inner, lock, job

    def evaluate(self, boards, *args, **kwargs):
        if self.job is not None:
            self.job.check()
        with self.lock:
            return self.inner.evaluate(boards, *args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def acquire_unless(lock: Any, given_up: Callable[[], bool], timeout: Optional[float]) -> Optional[bool]:
    """Acquire `lock` (a Lock or Semaphore) within `timeout` seconds (None: no limit), polling `given_up`:
    True when acquired, False on timeout, None when `given_up()` came true first (nothing acquired)."""
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        if given_up():
            return None
        wait = 0.02 if deadline is None else min(0.02, deadline - time.monotonic())
        if lock.acquire(timeout=max(wait, 0.0)):
            if given_up():
                lock.release()
                return None
            return True
        if deadline is not None and time.monotonic() >= deadline:
            return False


class NetworkUnavailable(RuntimeError):
    """The server's network could not be loaded; what needs it answers 503 with the reason."""


class WebState:
    """One app's shared state; `evaluator` (or one built by `evaluator_factory` on first use, default the
    cached KataGo network) serves every request and job, one call at a time (`net_lock`)."""

    def __init__(self, folder: Optional[str] = None, evaluator: Any = None,
                 evaluator_factory: Optional[Callable[[], Any]] = None, workers: Optional[int] = None,
                 queue_limit: int = 4):
        from tengen.api import default_evaluator

        self.records = RecordStore()
        self.jobs = JobQueue(workers, queue_limit)
        self.root = Path(folder) if folder is not None else None
        self.net_lock, self._load_lock = threading.Lock(), threading.Lock()
        # evaluations share the network with the analyses; beyond this many running or waiting, a request gets 429
        self.evaluation_slots = threading.BoundedSemaphore(max(1, queue_limit) + 1)
        self.in_flight = {"evaluations": 0}
        self.newest: dict[str, int] = {}  # per page (`client`): the number of its newest evaluation request
        self.in_flight_lock = threading.Lock()
        self._evaluator = evaluator
        self._factory = evaluator_factory or default_evaluator
        self.reviews: dict[tuple, str] = {}  # (record, from, to) -> the review job started for it, newest last

    def remember_review(self, record_id: str, start: Optional[int], end: int, job_id: str) -> None:
        """Note the review job of these moves of this record (the newest REVIEWS_KEPT are kept)."""
        key = (record_id, start, end)
        self.reviews.pop(key, None)
        self.reviews[key] = job_id
        while len(self.reviews) > REVIEWS_KEPT:
            self.reviews.pop(next(iter(self.reviews)))

    def done_review(self, record_id: str, start: Optional[int], end: int) -> Optional[Job]:
        """The finished review of these moves of this record, if it is still kept (None otherwise)."""
        job_id = self.reviews.get((record_id, start, end))
        job = None if job_id is None else self.jobs.get(job_id)
        return job if job is not None and job.kind == "review" and job.status == "done" else None

    def shared_evaluator(self) -> Any:
        """The network every request shares, loaded on first use; NetworkUnavailable (its one-line reason)
        when it cannot be loaded (no model and no way to fetch one, an unreadable model file, no device)."""
        with self._load_lock:
            if self._evaluator is None:
                try:
                    self._evaluator = self._factory()
                except Exception as exc:  # whatever stops the load, the client reads why (503, not a 500)
                    reason = " ".join(str(exc).split())[:300] or type(exc).__name__
                    raise NetworkUnavailable(f"no network is loaded: {reason}") from exc
            return self._evaluator

    def job_evaluator(self, job: Job) -> GuardedEvaluator:
        """The shared network as a job sees it (serialized, the job's stop checked at each call); raises
        JobStopped at once when the job was cancelled before it started working."""
        guarded = GuardedEvaluator(self.shared_evaluator(), self.net_lock, job)
        job.check()
        return guarded

    def game_of(self, record_id: str) -> Game:
        game = self.records.get(record_id)
        if game is None:
            raise HTTPException(404, f"no record {record_id[:64]!r} (open it first; old records are dropped)")
        return game

    def board_of(self, req: PositionIn) -> tuple[Game, Board, int]:
        """The board a request names: after `move` moves of the main line, then its `line` played."""
        game = self.game_of(req.record)
        total = len(game.moves)
        move = total if req.move is None else req.move
        if move > total:
            raise HTTPException(400, f"move {move} is out of range (the record has {total} moves)")
        board = game.board_at(move, strict=False)
        for text in req.line:
            parts = text.split()
            if len(parts) != 2:
                raise HTTPException(400, f"line move {text[:40]!r} is not 'B D4' or 'W pass'")
            color = parse_color(parts[0])
            point = from_gtp(parts[1], board.height, board.width)
            board.play(color, point)
        return game, board, move

    def record_out(self, record_id: str, game: Game) -> RecordOut:
        root_node = game.sgf.get_root()

        def prop(name: str) -> Optional[str]:
            try:
                return " ".join(str(root_node.get(name)).split())[:200] if root_node.has_property(name) else None
            except (ValueError, KeyError):
                return None

        moves = [{"number": i + 1, "color": "B" if c == BLACK else "W", "vertex": to_gtp(p, game.height)}
                 for i, (c, p) in enumerate(game.moves)]
        return RecordOut(id=record_id, source=game.source, width=game.width, height=game.height, komi=game.komi,
                         rules=getattr(game.rules, "name", str(game.rules)), rules_said=game.rules_said(), black=prop("PB"), white=prop("PW"),
                         result=prop("RE"), moves=moves, variations=variations(game),
                         warnings=game.load_warnings() + game.forced_warnings())

    def add_record(self, data: bytes, source: str) -> RecordOut:
        record_id, game = self.records.add_bytes(data, source)
        return self.record_out(record_id, game)


def variations(game: Game) -> list[dict[str, Any]]:
    """The side lines branching off the main line: where each starts and its first moves."""
    out: list[dict[str, Any]] = []
    played = 0
    for node in game.sgf.get_main_sequence():
        colour, point = node.get_move()
        if colour is not None:
            played += 1
        for child in list(node)[1:]:
            line, current = [], child
            while current is not None and len(line) < VARIATION_MOVES:
                c, p = current.get_move()
                if c is not None:
                    vertex = "pass" if p is None else to_gtp((game.height - 1 - p[0], p[1]), game.height)
                    line.append(f"{c.upper()} {vertex}")
                current = current[0] if len(current) else None
            out.append({"at_move": played, "moves": line})
            if len(out) >= MAX_VARIATIONS:
                return out
    return out


def analysis_options(predictor: str = "auto", max_nodes: int = DEFAULT_MAX_NODES,
                     max_total_nodes: int = DEFAULT_MAX_TOTAL_NODES, leaves: str = "auto") -> AnalysisOptions:
    """The AnalysisOptions of the web's jobs (analyses and reviews alike): the defaults every front end
    shares with the request's settings, named as `tengen analyze`'s flags (`leaves` "network": the
    evaluator's ownership)."""
    from tengen.endgame.options import AnalysisOptions, leaf_scoring_of_flag

    return AnalysisOptions(predictor=predictor, leaf_scoring=leaf_scoring_of_flag(leaves)).with_budgets(
        max_nodes, max_total_nodes)
