"""The job routes: endgame analyses and game reviews run as bounded jobs (queued, cancellable, time-limited)
with the same status, progress events (SSE), cancel and result routes for both kinds, and an analysis's
regions (thermograph, tree) and recommended move."""
from __future__ import annotations

import asyncio
import json
from fractions import Fraction
from typing import TYPE_CHECKING, Any, AsyncIterator, Callable, Optional

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import Response, StreamingResponse

from tengen.go.colors import BLACK
from tengen.go.coords import to_gtp
from tengen.go.sgf import Game
from tengen.web.jobs import Job
from tengen.web.schemas import MAX_REVIEW_MOVES, AnalysisIn, JobOut, RecommendedOut, ReviewIn, ThermographOut
from tengen.web.state import WebState, analysis_options

if TYPE_CHECKING:
    from tengen.endgame.options import AnalysisOptions


def analyses_router(state: WebState) -> APIRouter:
    """/api/analyses/...: start an analysis, the job routes, and a finished analysis's regions and move."""
    router = APIRouter()

    @router.post("/api/analyses", response_model=JobOut, status_code=202)
    def start_analysis(req: AnalysisIn) -> JobOut:
        """Start an endgame analysis job (429 when the queue is full); follow it at .../events."""
        from tengen.api import region_points

        game, board, move = state.board_of(req)
        if req.region and req.region.strip():
            points = region_points(req.region, board)
        else:  # the record's own SQ[] markup on the node shown, as `tengen analyze` reads it
            points = None if req.line else region_points(None, board, game.node_at(move))
        if req.predictor == "exhaustive" and points is None:
            raise HTTPException(400, "the exhaustive predictor needs a region")
        options = analysis_options(req.predictor, req.max_nodes, req.max_total_nodes, req.leaves)

        def work(job: Job) -> tuple[Any, dict]:
            from tengen.api import analyze
            from tengen.io.report import strict_json_report  # the JSON `tengen analyze --json` writes

            # the exact solver needs no network: none is loaded for it (a server with no network still solves)
            job.check()
            evaluator = None if req.predictor == "exhaustive" else state.job_evaluator(job)
            analysis = analyze(board, region=points, evaluator=evaluator, options=options, progress=job.progress)
            job.check()
            return analysis, strict_json_report(analysis)

        job = state.jobs.submit(work, req.time_limit_s, kind="analysis", asked={"region": points})
        return JobOut(**job.as_dict())

    finished_analysis = job_routes(router, state, "/api/analyses", "analysis",
                                   "The analysis as `tengen analyze --json` writes it.")

    @router.get("/api/analyses/{job_id}/regions/{label}/thermograph", response_model=ThermographOut)
    def thermograph(job_id: str, label: str) -> ThermographOut:
        """A region's thermograph walls as points, for the page to draw."""
        from tengen.cgt.numbers import is_infinite

        job = finished_analysis(job_id)
        r = job.result.regions[region_index(job, label)]
        th = r.thermograph
        if th is None:
            raise HTTPException(404, f"region {label} has no thermograph (no game was found for it: {r.kind})")
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

    @router.get("/api/analyses/{job_id}/regions/{label}/tree")
    def tree(job_id: str, label: str) -> dict[str, Any]:
        """A region's local variation tree (as in the analysis JSON; null for an exact solve)."""
        job = finished_analysis(job_id)
        return {"region": label, "tree": job.report["regions"][region_index(job, label)]["tree"]}

    @router.get("/api/analyses/{job_id}/sgf", response_class=Response,
                responses={200: {"content": {"application/x-go-sgf": {}}}})
    def analysis_sgf(job_id: str) -> Response:
        """The analysed position as a diagram SGF to download: setup stones, side to move, the region asked
        for as SQ[], the analysis as `tengen analyze --sgf` writes it (values in the root comment, best
        lines as variations); `tengen analyze FILE` reads it back to the same numbers."""
        from tengen.web.diagram import analysis_sgf as diagram_of

        job = finished_analysis(job_id)
        return Response(diagram_of(job.result, job.asked.get("region")), media_type="application/x-go-sgf",
                        headers={"Content-Disposition": 'attachment; filename="diagram.sgf"'})

    @router.get("/api/analyses/{job_id}/png", response_class=Response, responses={200: {"content": {"image/png": {}}}})
    def analysis_png(job_id: str, region: str = Query(default="A", max_length=8)) -> Response:
        """A region's picture to download (default the first, A): its diagram on the board beside its
        thermograph, as `tengen analyze --plots` draws it (404 for a region without a value)."""
        from tengen.web.picture import region_png

        job = finished_analysis(job_id)
        index = region_index(job, region)
        if job.result.regions[index].game is None:
            raise HTTPException(404, f"region {region} has no value to draw ({job.result.regions[index].kind})")
        return Response(region_png(job.result, index), media_type="image/png",
                        headers={"Content-Disposition": f'attachment; filename="region_{region}.png"'})

    @router.get("/api/analyses/{job_id}/recommended", response_model=RecommendedOut)
    def recommended(job_id: str) -> RecommendedOut:
        """The recommended move and why."""
        job = finished_analysis(job_id)
        a = job.result
        color = "B" if a.board.to_play == BLACK else "W"
        move = None if a.recommended is None else to_gtp(a.recommended[1], a.board.height)
        return RecommendedOut(color=color, move=move, reason=a.recommended_reason or "no region to play in")

    # ------------------------------------------------------------------ reviews

    return router


def reviews_router(state: WebState) -> APIRouter:
    """/api/reviews/...: start a game review, and the job routes."""
    router = APIRouter()

    @router.post("/api/reviews", response_model=JobOut, status_code=202)
    def start_review(req: ReviewIn) -> JobOut:
        """Start a game review job over moves `from`..`to` (429 when the queue is full); follow it at
        .../events (progress: moves reviewed of the range)."""
        game = state.game_of(req.record_id)
        start, end = review_range(game, req)
        done_before = state.done_review(req.record_id, start, end)
        if done_before is not None:  # the same record and moves reviewed already: its result, no new analysis
            return JobOut(**done_before.as_dict())
        from tengen.api import review_options

        options = review_options(analysis_options())  # `tengen review`'s: the mistake check's visits

        def work(job: Job) -> tuple[Any, dict]:
            from tengen.endgame.evalcache import cached
            from tengen.api import search_look
            from tengen.endgame.review import review_game
            from tengen.io.review_report import review_json
            from tengen.web.quiz import quiz_position

            evaluator = cached(state.job_evaluator(job))  # one cache: the start's search and the review share it
            if start is None:
                check_auto_range(game, evaluator, options, end, job)
            quiz: list = []  # the quiz's positions, kept from the review's own analyses (before a reviewed move)

            def keep(moves_played: int, analysis: Any) -> None:
                position = quiz_position(analysis, moves_played) if moves_played < end else None
                if position is not None:
                    quiz.append(position)

            review = review_game(game, evaluator, options, start=start, end=end,
                                 progress=lambda done, total: job.progress("move", done, total), on_analysis=keep,
                                 mistake_look=search_look(options))
            job.check()
            job.kept.update(quiz=quiz, record=req.record_id)
            return review, review_json(review)

        job = state.jobs.submit(work, req.time_limit_s, kind="review")
        state.remember_review(req.record_id, start, end, job.id)
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

    job_routes(router, state, "/api/reviews", "review", "The review as `tengen.io.review_report.review_json` writes "
               "it: the moves reviewed, the mistakes (move numbers, largest loss first), the totals per colour.")

    return router


def job_routes(router: APIRouter, state: WebState, prefix: str, kind: str,
               result_doc: str) -> Callable[[str], Job]:
    """The routes every kind of job has, one code for all kinds: `prefix`/{job_id} (status; DELETE
    cancels), .../events (SSE) and .../result (the job's JSON report, described by `result_doc`). A job
    of another kind is not found under `prefix`. Returns the lookup of a finished job of this kind, for
    the kind's own routes."""

    def job_of(job_id: str) -> Job:
        job = state.jobs.get(job_id)
        if job is None or job.kind != kind:
            raise HTTPException(404, f"no {kind} {job_id[:64]!r}")
        return job

    def finished(job_id: str) -> Job:
        job = job_of(job_id)
        if job.status != "done":
            raise HTTPException(409, f"{kind} {job_id} is {job.status}" + (f" ({job.error})" if job.error else ""))
        return job

    @router.get(prefix + "/{job_id}", response_model=JobOut, name=f"{kind}_status",
             summary=f"{kind.capitalize()} status")
    def job_status(job_id: str) -> JobOut:
        """The job's status and progress."""
        return JobOut(**job_of(job_id).as_dict())

    @router.delete(prefix + "/{job_id}", response_model=JobOut, name=f"{kind}_cancel", summary=f"Cancel the {kind}")
    def cancel(job_id: str) -> JobOut:
        """Cancel the job: a queued one leaves the queue at once, a running one stops at its next evaluation
        (its place free for new jobs from now)."""
        job = job_of(job_id)
        return JobOut(**(state.jobs.cancel(job_id) or job).as_dict())

    @router.get(prefix + "/{job_id}/events", name=f"{kind}_events", summary=f"{kind.capitalize()} progress events")
    async def events(job_id: str, request: Request) -> StreamingResponse:
        """Server-sent events: `progress` at each change, then one `end` with the final status."""
        return StreamingResponse(job_events(job_of(job_id), request), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    @router.get(prefix + "/{job_id}/result", name=f"{kind}_result", summary=f"{kind.capitalize()} result",
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


def region_index(job: Job, label: str) -> int:
    """The index of the region labelled `label` in a finished analysis (404 when there is none)."""
    from tengen.endgame.results import region_label

    for i in range(len(job.result.regions)):
        if region_label(i) == label:
            return i
    raise HTTPException(404, f"no region {label[:20]!r} in this analysis")
