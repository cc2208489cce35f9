"""The quiz routes (issue 59, item 5): a round of positions drawn from finished reviews (no new analysis:
the review job kept them, `tengen.web.quiz`), and the answer to a move clicked in one of them."""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Query

from tengen.go.coords import from_gtp, to_gtp
from tengen.web.jobs import Job
from tengen.web.quiz import QuizPosition, answer, position_json, quiz_round, round_note
from tengen.web.schemas import MAX_QUIZ_REVIEWS, QuizAnswerIn
from tengen.web.state import WebState


def quiz_router(state: WebState) -> APIRouter:
    """/api/quiz and /api/quiz/answer over the review jobs `state` keeps."""
    router = APIRouter()

    def reviewed(review_id: str) -> Job:
        job = state.jobs.get(review_id)
        if job is None or job.kind != "review":
            raise HTTPException(404, f"no review {review_id[:64]!r} (review the game first; old reviews are dropped)")
        if job.status != "done":
            raise HTTPException(409, f"review {review_id} is {job.status}: the quiz needs a finished review")
        return job

    @router.get("/api/quiz")
    def quiz(reviews: str = Query(min_length=1, max_length=MAX_QUIZ_REVIEWS * 65),
             round_number: int = Query(default=0, ge=0, le=1_000_000, alias="round")) -> dict[str, Any]:
        """A round of up to 10 positions with a clear biggest move from the finished reviews named (comma
        separated: one game, or several of a folder), without their numbers; `round` draws another."""
        ids = [r for r in reviews.split(",") if r]
        if not ids or len(ids) > MAX_QUIZ_REVIEWS or len(set(ids)) != len(ids):
            raise HTTPException(400, f"reviews: name 1 to {MAX_QUIZ_REVIEWS} different finished reviews, comma separated")
        pool = [(job, p) for job in map(reviewed, ids) for p in job.kept.get("quiz", [])]
        picked = quiz_round(pool, round_number=round_number)
        return {"positions": [position_json(p, job.id, job.kept["record"]) for job, p in picked],
                "available": len(pool), "note": round_note(len(picked), len(pool)), "round": round_number}

    @router.post("/api/quiz/answer")
    def quiz_answer(req: QuizAnswerIn) -> dict[str, Any]:
        """The answer to a move clicked in a quiz position: the regions' values, the move's loss, the best
        move and why (400 for a move off the board or on a stone; 404 for a position not in the quiz)."""
        job = reviewed(req.review)
        position = next((p for p in job.kept.get("quiz", []) if p.move == req.move), None)
        if position is None:
            raise HTTPException(404, f"the position after move {req.move} is not a quiz position of review {req.review}")
        game = state.game_of(job.kept["record"])
        board = game.board_at(position.move, strict=False)
        play = from_gtp(req.play, board.height, board.width)
        if play is not None and not board.is_legal(position.to_play, play):
            raise HTTPException(400, f"{to_gtp(play, board.height)} is not a legal move here")
        return answer(position, play, game_move(job, position))

    return router


def game_move(job: Job, position: QuizPosition) -> Any:
    """What the review said of the move the game played in `position` (move, loss, reason), or None."""
    for m in job.report["moves"]:
        if m["move_number"] == position.move + 1:
            return {"move": m["move"], "loss": m["loss"], "reason": m["reason"]}
    return None
