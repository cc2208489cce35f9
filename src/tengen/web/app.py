"""The web app's routes (FastAPI): records in, positions, evaluations, influence maps, and endgame analyses
and game reviews run as bounded jobs with progress events (SSE) and cancellation. Every bad input gets a
JSON error object `{"error": one line, "status": code}` with a 4xx status; nothing answers with a traceback."""
from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from contextlib import asynccontextmanager
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, AsyncIterator, Callable, Optional

from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, StreamingResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect

from tengen.eval.evaluation import sweeps_komi
from tengen.go.board import Board, IllegalMove
from tengen.go.colors import BLACK, parse_color
from tengen.go.coords import from_gtp, to_gtp
from tengen.go.sgf import Game, SgfError
from tengen.web.files import (MAX_RECORD_BYTES, MAX_SCANNED, PAGE_SIZE, FileRefused, RecordStore, list_records,
                              read_under)
from tengen.web.jobs import Job, JobQueue, QueueFull
from tengen.web.schemas import (DEFAULT_MAX_NODES, DEFAULT_MAX_TOTAL_NODES, MAX_REVIEW_MOVES, AnalysisIn,
                                EvaluateIn, EvaluationOut, FilesOut, InfluenceOut, JobOut, PasteIn, PathIn, PositionIn,
                                PositionOut, RecommendedOut, RecordOut, ReviewIn, ThermographOut)

if TYPE_CHECKING:
    from tengen.endgame.options import AnalysisOptions

STATIC = Path(__file__).parent / "static"
MAX_VARIATIONS = 200  # side lines listed per record
VARIATION_MOVES = 50  # first moves listed per side line
INFLUENCE_MODELS = ("zobrist", "bouzy", "cross")
EVALUATION_WAIT_S = 5.0  # a page's evaluation waits this long for a slot before 429 (a newer one of its own ends it)
log = logging.getLogger("tengen.web")


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


def _acquire_unless(lock: Any, given_up: Callable[[], bool], timeout: Optional[float]) -> Optional[bool]:
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


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:500] or type(exc).__name__


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message, "status": status}, status_code=status)


def create_app(folder: Optional[str] = None, evaluator: Any = None,
               evaluator_factory: Optional[Callable[[], Any]] = None, workers: Optional[int] = None,
               queue_limit: int = 4) -> FastAPI:
    """The app: records from uploads, pastes or `folder` (nothing outside it is read); `evaluator` (or one
    built by `evaluator_factory` on first use, default the cached KataGo network) shared by every request."""
    from tengen.api import default_evaluator

    records = RecordStore()
    jobs = JobQueue(workers, queue_limit)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        yield
        jobs.shutdown()  # running jobs stop at their next check

    app = FastAPI(title="tengen", description="Go endgame analysis in the browser", version="1", lifespan=lifespan)
    root = Path(folder) if folder is not None else None
    net_lock, load_lock = threading.Lock(), threading.Lock()
    # evaluations share the network with the analyses; beyond this many running or waiting, a request gets 429
    evaluation_slots = threading.BoundedSemaphore(max(1, queue_limit) + 1)
    in_flight = {"evaluations": 0}
    newest: dict[str, int] = {}  # per page (`client`): the number of its newest evaluation request
    in_flight_lock = threading.Lock()
    app.state.evaluations_in_flight = lambda: in_flight["evaluations"]  # tests and monitoring
    state: dict[str, Any] = {"evaluator": evaluator}
    factory = evaluator_factory or default_evaluator
    app.state.jobs, app.state.records = jobs, records

    def shared_evaluator() -> Any:
        with load_lock:
            if state["evaluator"] is None:
                state["evaluator"] = factory()
            return state["evaluator"]

    # ------------------------------------------------------------------ errors: JSON, one line, 4xx
    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return _error(exc.status_code, str(exc.detail))

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        for e in exc.errors()[:3]:
            where = ".".join(str(x) for x in e.get("loc", ()) if x != "body")
            parts.append(f"{where}: {e.get('msg', 'invalid')}" if where else str(e.get("msg", "invalid")))
        return _error(422, "; ".join(parts) or "invalid request")

    for bad_input in (SgfError, FileRefused, IllegalMove, ValueError, UnicodeError):
        app.add_exception_handler(bad_input, lambda request, exc: _error(400, _one_line(exc)))
    app.add_exception_handler(QueueFull, lambda request, exc: _error(429, _one_line(exc)))

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error on %s", request.url.path)
        return _error(500, f"internal error: {type(exc).__name__}")

    # ------------------------------------------------------------------ the page
    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # ------------------------------------------------------------------ records
    def record_out(record_id: str, game: Game) -> RecordOut:
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

    def add_record(data: bytes, source: str) -> RecordOut:
        record_id, game = records.add_bytes(data, source)
        return record_out(record_id, game)

    @app.get("/api/files", response_model=FilesOut)
    def files(search: str = Query(default="", max_length=200), offset: int = Query(default=0, ge=0, le=MAX_SCANNED),
              limit: int = Query(default=PAGE_SIZE, ge=1, le=PAGE_SIZE)) -> FilesOut:
        """The .sgf files under the served folder whose path contains `search`, a page at a time."""
        listing = list_records(root, search, offset, limit)
        return FilesOut(folder=None if root is None else str(root), files=listing.files, total=listing.total,
                        offset=offset, search=search, complete=listing.complete)

    @app.post("/api/records/open", response_model=RecordOut)
    def open_path(body: PathIn) -> RecordOut:
        """Open a record by its path relative to the served folder (anything outside is refused)."""
        return add_record(read_under(root, body.path), body.path)

    @app.post("/api/records/paste", response_model=RecordOut)
    def paste(body: PasteIn) -> RecordOut:
        """Open a record pasted as text."""
        data = body.sgf.encode("utf-8")
        if len(data) > MAX_RECORD_BYTES:
            raise FileRefused(f"the record is larger than {MAX_RECORD_BYTES} bytes")
        return add_record(data, "<pasted>")

    @app.post("/api/records/upload", response_model=RecordOut,
              openapi_extra={"requestBody": {"content": {"application/x-go-sgf": {"schema": {"type": "string"}}},
                                             "required": True}})
    async def upload(request: Request) -> RecordOut:
        """Open a record sent as the raw request body (the page sends a chosen file this way)."""
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_RECORD_BYTES):
            raise HTTPException(413, f"the record is larger than {MAX_RECORD_BYTES} bytes")
        chunks, size = [], 0
        try:
            async for chunk in request.stream():
                size += len(chunk)
                if size > MAX_RECORD_BYTES:
                    raise HTTPException(413, f"the record is larger than {MAX_RECORD_BYTES} bytes")
                chunks.append(chunk)
        except ClientDisconnect:  # the client left mid-upload: nothing to read, nobody to answer, nothing to log
            raise HTTPException(400, "the client disconnected during the upload") from None
        name = request.headers.get("x-filename", "<upload>")[:200]
        return await asyncio.to_thread(add_record, b"".join(chunks), name)

    @app.get("/api/records/{record_id}", response_model=RecordOut)
    def get_record(record_id: str) -> RecordOut:
        return record_out(record_id, game_of(record_id))

    def game_of(record_id: str) -> Game:
        game = records.get(record_id)
        if game is None:
            raise HTTPException(404, f"no record {record_id[:64]!r} (open it first; old records are dropped)")
        return game

    # ------------------------------------------------------------------ positions
    def board_of(req: PositionIn) -> tuple[Game, Board, int]:
        """The board a request names: after `move` moves of the main line, then its `line` played."""
        game = game_of(req.record)
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

    @app.post("/api/position", response_model=PositionOut)
    def position(req: PositionIn) -> PositionOut:
        """The stones, side to move and last move of a position."""
        game, board, move = board_of(req)
        last = None
        if req.line:
            last = to_gtp(from_gtp(req.line[-1].split()[1], board.height, board.width), board.height)
        elif move > 0:
            last = to_gtp(game.moves[move - 1][1], board.height)
        caps = board.captures
        return PositionOut(record=req.record, move=move, width=board.width, height=board.height,
                           to_play="B" if board.to_play == BLACK else "W",
                           stones=[[int(v) for v in row] for row in board.array()], last_move=last,
                           captures={"B": int(caps.get(BLACK, 0)), "W": int(caps.get(-BLACK, 0))},
                           komi=float(board.rules.komi))

    @app.post("/api/evaluate", response_model=EvaluationOut)
    def evaluate(req: EvaluateIn) -> EvaluationOut:
        """The network's ownership, score and win rate by komi for a position. A request from a page
        (`client`) supersedes that page's older requests still waiting for the network: they answer
        `superseded` at once, so stepping through a record never queues one evaluation per move."""
        from tengen.eval.katago.evaluator import DEFAULT_KOMIS

        _, board, _ = board_of(req)
        asked = {"record": req.record, "move": req.move, "line": req.line}
        with in_flight_lock:
            number = newest[req.client] = newest.get(req.client, 0) + 1 if req.client else 0
        superseded = (lambda: newest.get(req.client) != number) if req.client else (lambda: False)
        slot = _acquire_unless(evaluation_slots, superseded, EVALUATION_WAIT_S if req.client else 0.0)
        if slot is None:
            return EvaluationOut(**asked, superseded=True)
        if not slot:
            raise StarletteHTTPException(429, "too many evaluations running or waiting; try again shortly")
        with in_flight_lock:
            in_flight["evaluations"] += 1
        try:
            ev_obj = shared_evaluator()
            kwargs = {}
            if sweeps_komi(ev_obj):
                kwargs["komi_sweep"] = DEFAULT_KOMIS
            if not _acquire_unless(net_lock, superseded, None):
                return EvaluationOut(**asked, superseded=True)
            try:
                (ev,) = ev_obj.evaluate([board], **kwargs)
            finally:
                net_lock.release()
        finally:
            with in_flight_lock:
                in_flight["evaluations"] -= 1
                if req.client and newest.get(req.client) == number:
                    del newest[req.client]  # the page's newest is answered: nothing of it kept
            evaluation_slots.release()
        best = None
        if ev.policy is not None and ev.policy.size and float(ev.policy.max()) > ev.pass_policy:
            r, c = divmod(int(ev.policy.argmax()), ev.policy.shape[1])
            best = to_gtp((r, c), board.height)
        curve = sorted((float(k), round(float(w), 4)) for k, w in (ev.winrate_by_komi or {}).items())
        return EvaluationOut(**asked, ownership=[[round(float(v), 3) for v in row] for row in ev.ownership],
                             score_lead=round(float(ev.score_lead), 3), score_mean=round(float(ev.score_mean), 3),
                             win=round(float(ev.win), 4), komi=float(board.rules.komi), winrate_by_komi=curve,
                             policy_best=best)

    @app.post("/api/influence/{model}", response_model=InfluenceOut)
    def influence(model: str, req: PositionIn) -> InfluenceOut:
        """An influence map (Zobrist, Bouzy 5/21 or the Manhattan cross) and the territory it marks."""
        from tengen.eval.influence import influence_map, territory

        if model not in INFLUENCE_MODELS:
            raise HTTPException(404, f"unknown influence model {model[:40]!r} (choose {', '.join(INFLUENCE_MODELS)})")
        _, board, _ = board_of(req)
        inf = influence_map(board, model)
        return InfluenceOut(model=model, influence=inf.astype(int).tolist(),
                            territory=territory(board, inf).astype(int).tolist())

    # ------------------------------------------------------------------ jobs: analyses and reviews
    def analysis_options(predictor: str = "auto", max_nodes: int = DEFAULT_MAX_NODES,
                         max_total_nodes: int = DEFAULT_MAX_TOTAL_NODES, leaves: str = "auto") -> AnalysisOptions:
        """The AnalysisOptions of the web's jobs (analyses and reviews alike): the defaults every front end
        shares with the request's settings, named as `tengen analyze`'s flags (`leaves` "network": the
        evaluator's ownership)."""
        from tengen.endgame.options import AnalysisOptions

        return AnalysisOptions(predictor=predictor, leaf_scoring={"network": "evaluator"}.get(leaves, leaves)
                               ).with_budgets(max_nodes, max_total_nodes)

    def job_evaluator(job: Job) -> GuardedEvaluator:
        """The shared network as a job sees it (serialized, the job's stop checked at each call); raises
        JobStopped at once when the job was cancelled before it started working."""
        guarded = GuardedEvaluator(shared_evaluator(), net_lock, job)
        job.check()
        return guarded

    def job_routes(prefix: str, kind: str, result_doc: str) -> Callable[[str], Job]:
        """The routes every kind of job has, one code for all kinds: `prefix`/{job_id} (status; DELETE
        cancels), .../events (SSE) and .../result (the job's JSON report, described by `result_doc`). A job
        of another kind is not found under `prefix`. Returns the lookup of a finished job of this kind, for
        the kind's own routes."""

        def job_of(job_id: str) -> Job:
            job = jobs.get(job_id)
            if job is None or job.kind != kind:
                raise HTTPException(404, f"no {kind} {job_id[:64]!r}")
            return job

        def finished(job_id: str) -> Job:
            job = job_of(job_id)
            if job.status != "done":
                raise HTTPException(409, f"{kind} {job_id} is {job.status}" + (f" ({job.error})" if job.error else ""))
            return job

        @app.get(prefix + "/{job_id}", response_model=JobOut, name=f"{kind}_status",
                 summary=f"{kind.capitalize()} status")
        def job_status(job_id: str) -> JobOut:
            """The job's status and progress."""
            return JobOut(**job_of(job_id).as_dict())

        @app.delete(prefix + "/{job_id}", response_model=JobOut, name=f"{kind}_cancel", summary=f"Cancel the {kind}")
        def cancel(job_id: str) -> JobOut:
            """Cancel the job: a queued one never starts, a running one stops at its next evaluation."""
            job_of(job_id)
            return JobOut(**jobs.cancel(job_id).as_dict())

        @app.get(prefix + "/{job_id}/events", name=f"{kind}_events", summary=f"{kind.capitalize()} progress events")
        async def events(job_id: str, request: Request) -> StreamingResponse:
            """Server-sent events: `progress` at each change, then one `end` with the final status."""
            return StreamingResponse(job_events(job_of(job_id), request), media_type="text/event-stream",
                                     headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

        @app.get(prefix + "/{job_id}/result", name=f"{kind}_result", summary=f"{kind.capitalize()} result",
                 description=result_doc)
        def result(job_id: str) -> dict[str, Any]:
            """The finished job's JSON report (409 until it is done)."""
            return finished(job_id).report

        return finished

    async def job_events(job: Job, request: Request) -> AsyncIterator[str]:
        """A job's state as SSE: a `progress` event whenever it changed, an `end` event once it is final."""
        seen = -1
        while True:
            final = job.is_final
            if job.version != seen:
                seen = job.version
                yield f"event: progress\ndata: {json.dumps(job.as_dict())}\n\n"
            if final:
                yield f"event: end\ndata: {json.dumps(job.as_dict())}\n\n"
                return
            if await request.is_disconnected():
                return
            await asyncio.sleep(0.1)

    # ------------------------------------------------------------------ analyses
    @app.post("/api/analyses", response_model=JobOut, status_code=202)
    def start_analysis(req: AnalysisIn) -> JobOut:
        """Start an endgame analysis job (429 when the queue is full); follow it at .../events."""
        from tengen.api import region_points

        _, board, _ = board_of(req)
        points = region_points(req.region, board) if req.region and req.region.strip() else None
        if req.predictor == "exhaustive" and points is None:
            raise HTTPException(400, "the exhaustive predictor needs a region")
        options = analysis_options(req.predictor, req.max_nodes, req.max_total_nodes, req.leaves)

        def work(job: Job) -> tuple[Any, dict]:
            from tengen.api import analyze
            from tengen.io.report import strict_json_report  # the JSON `tengen analyze --json` writes

            analysis = analyze(board, region=points, evaluator=job_evaluator(job), options=options,
                               progress=job.progress)
            job.check()
            return analysis, strict_json_report(analysis)

        job = jobs.submit(work, req.time_limit_s, kind="analysis")
        return JobOut(**job.as_dict())

    finished_analysis = job_routes("/api/analyses", "analysis", "The analysis as `tengen analyze --json` writes it.")

    def region_index(job: Job, label: str) -> int:
        from tengen.endgame.results import region_label

        for i in range(len(job.result.regions)):
            if region_label(i) == label:
                return i
        raise HTTPException(404, f"no region {label[:20]!r} in this analysis")

    @app.get("/api/analyses/{job_id}/regions/{label}/thermograph", response_model=ThermographOut)
    def thermograph(job_id: str, label: str) -> ThermographOut:
        """A region's thermograph walls as points, for the page to draw."""
        from tengen.cgt.numbers import is_infinite

        job = finished_analysis(job_id)
        r = job.result.regions[region_index(job, label)]
        if r.game is None:
            raise HTTPException(404, f"region {label} has no plain game (a ko or repetition inside: {r.kind})")
        th = r.game.thermograph
        temp = th.temperature
        finite_t = temp if not is_infinite(temp) and temp > 0 else Fraction(0)
        bps = [b for w in (th.left, th.right) for b in w.breakpoints()]
        top = max([finite_t, *bps, Fraction(1)]) * Fraction(3, 2)

        def points(wall) -> list[tuple[float, float]]:
            if wall.infinite:
                return []
            limit = top if is_infinite(temp) else min(top, finite_t)
            pts = wall.points(limit) if limit > 0 else [(Fraction(0), wall.at(Fraction(0)))]
            return [(float(t), float(v)) for t, v in pts]

        return ThermographOut(region=label, kind=r.kind, mean=None if th.mean is None else float(th.mean),
                              temperature=None if is_infinite(temp) else float(temp), top=float(top),
                              left=points(th.left), right=points(th.right), left_infinite=th.left.infinite,
                              right_infinite=th.right.infinite)

    @app.get("/api/analyses/{job_id}/regions/{label}/tree")
    def tree(job_id: str, label: str) -> dict[str, Any]:
        """A region's local variation tree (as in the analysis JSON; null for an exact solve)."""
        job = finished_analysis(job_id)
        return {"region": label, "tree": job.report["regions"][region_index(job, label)]["tree"]}

    @app.get("/api/analyses/{job_id}/recommended", response_model=RecommendedOut)
    def recommended(job_id: str) -> RecommendedOut:
        """The recommended move and why."""
        job = finished_analysis(job_id)
        a = job.result
        color = "B" if a.board.to_play == BLACK else "W"
        move = None if a.recommended is None else to_gtp(a.recommended[1], a.board.height)
        return RecommendedOut(color=color, move=move, reason=a.recommended_reason or "no region to play in")

    # ------------------------------------------------------------------ reviews
    @app.post("/api/reviews", response_model=JobOut, status_code=202)
    def start_review(req: ReviewIn) -> JobOut:
        """Start a game review job over moves `from`..`to` (429 when the queue is full); follow it at
        .../events (progress: moves reviewed of the range)."""
        game = game_of(req.record_id)
        start, end = review_range(game, req)
        options = analysis_options()

        def work(job: Job) -> tuple[Any, dict]:
            from tengen.endgame.evalcache import cached
            from tengen.endgame.review import review_game
            from tengen.io.review_report import review_json

            evaluator = cached(job_evaluator(job))  # one cache: the start's search and the review share it
            if start is None:
                check_auto_range(game, evaluator, options, end, job)
            review = review_game(game, evaluator, options, start=start, end=end,
                                 progress=lambda done, total: job.progress("move", done, total))
            job.check()
            return review, review_json(review)

        job = jobs.submit(work, req.time_limit_s, kind="review")
        return JobOut(**job.as_dict())

    def review_range(game: Game, req: ReviewIn) -> tuple[Optional[int], int]:
        """The review's first move (None: found at the endgame's start) and last, checked against the
        record and MAX_REVIEW_MOVES (400 otherwise) before any work."""
        total = len(game.moves)
        if total == 0:
            raise HTTPException(400, "the record has no moves to review")
        end = total if req.end is None else req.end
        start = None if req.start == "auto" else req.start
        for name, number in (("from", start), ("to", end)):
            if number is not None and number > total:
                raise HTTPException(400, f"{name} move {number} is out of range (the record has {total} moves)")
        if start is not None and start > end:
            raise HTTPException(400, f"from move {start} is after to move {end}")
        if start is not None and end - start + 1 > MAX_REVIEW_MOVES:
            raise HTTPException(400, f"moves {start}-{end} are {end - start + 1} moves; a review covers at most "
                                     f"{MAX_REVIEW_MOVES} (ask for a shorter range)")
        return start, end

    def check_auto_range(game: Game, evaluator: Any, options: AnalysisOptions, end: int, job: Job) -> None:
        """`from` "auto": the range is known only once the endgame's start is found (by the network, so in
        the job); a start after `to`, or a range longer than MAX_REVIEW_MOVES, fails the job with a one-line
        error. The review then finds the same start again from the evaluations cached here."""
        from tengen.endgame.review import find_endgame_start

        job.progress("finding the endgame start", 0, 0)
        start, _ = find_endgame_start(game, evaluator, options)
        if start > end:
            raise ValueError(f"the endgame starts at move {start}, after to move {end}")
        if end - start + 1 > MAX_REVIEW_MOVES:
            raise ValueError(f"the endgame starts at move {start}: moves {start}-{end} are more than "
                             f"{MAX_REVIEW_MOVES}; ask for a shorter range with from and to")

    job_routes("/api/reviews", "review", "The review as `tengen.io.review_report.review_json` writes it: the "
               "moves reviewed, the mistakes (move numbers, largest loss first), the totals per colour.")

    return app
