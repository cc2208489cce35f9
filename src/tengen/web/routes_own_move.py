"""The workbench's "try your own move" route (issue 59, item 3): a move inside a solved diagram's region,
valued by the exact solver after it and after the best move, as a job of its own (progress, cancel, time
limit; `tengen.web.own_move` says what it is worth)."""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException

from tengen.go.colors import BLACK, parse_color
from tengen.go.coords import from_gtp, to_gtp
from tengen.web.jobs import Job
from tengen.web.routes_jobs import job_routes
from tengen.web.schemas import JobOut, OwnMoveIn
from tengen.web.state import WebState, analysis_options

OWN_MOVE_SECONDS = 120.0  # the two solves' time limit


def own_move_router(state: WebState) -> APIRouter:
    """POST /api/analyses/{id}/own-move starts the job; /api/own-moves/{id}... are its job routes."""
    router = APIRouter()

    @router.post("/api/analyses/{job_id}/own-move", response_model=JobOut, status_code=202)
    def own_move(job_id: str, req: OwnMoveIn) -> JobOut:
        """Value a move of your own inside the analysed diagram's marked region against the best move there
        (400: no marked region, a move outside it or illegal); follow it at /api/own-moves/{id}/events."""
        solved = state.jobs.get(job_id)
        if solved is None or solved.kind != "analysis":
            raise HTTPException(404, f"no analysis {job_id[:64]!r}")
        if solved.status != "done":
            raise HTTPException(409, f"analysis {job_id} is {solved.status}")
        points = solved.asked.get("region")
        if not points:
            raise HTTPException(400, "trying a move needs the analysis of a marked region (a workbench diagram)")
        board = solved.result.board
        color = board.to_play if req.color is None else parse_color(req.color)
        move = from_gtp(req.move, board.height, board.width)
        if move is None or move not in set(points):
            raise HTTPException(400, f"{req.move} is not a point of the marked region")
        if not board.is_legal(color, move):
            raise HTTPException(400, f"{to_gtp(move, board.height)} is not a legal move here")
        regions = solved.result.regions
        if len(regions) != 1 or regions[0].temperature is None:
            raise HTTPException(400, "trying a move needs a solved region (this analysis has no value for it)")
        temperature = regions[0].temperature
        best = next(iter(regions[0].best_black if color == BLACK else regions[0].best_white), None)
        options = analysis_options("exhaustive")

        def value_after(job: Job, point) -> Any:
            from tengen.api import analyze
            from tengen.web.own_move import after_move

            after = board.copy()
            after.play(color, point)
            job.check()
            return after_move(analyze(after, region=points, evaluator=None, options=options).regions, color, temperature)

        def work(job: Job) -> tuple[Any, dict]:
            from tengen.web.own_move import worth

            job.progress("your move", 0, 2)
            yours = value_after(job, move)
            job.progress("the best move", 1, 2)
            best_after = None if best is None else yours if best == move else value_after(job, best)
            job.progress("done", 2, 2)
            out = worth(move, color, yours, best, best_after, temperature, board.height)
            return out, out

        job = state.jobs.submit(work, OWN_MOVE_SECONDS, kind="own_move")
        return JobOut(**job.as_dict())

    job_routes(router, state, "/api/own-moves", "own_move", "What the move is worth: its loss against the best "
               "move (points, the mover's side), the region's count and temperature after each, and why in words.")
    return router
