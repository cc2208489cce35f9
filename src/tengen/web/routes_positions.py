"""The position routes: a position's stones, the network's evaluation of it (a page's newer request
supersedes its older one waiting for the network), and the classic influence maps."""
from __future__ import annotations

from fastapi import APIRouter, HTTPException
from starlette.exceptions import HTTPException as StarletteHTTPException

from tengen.eval.evaluation import sweeps_komi
from tengen.go.colors import BLACK
from tengen.go.coords import from_gtp, to_gtp
from tengen.web.schemas import EvaluateIn, EvaluationOut, InfluenceOut, PositionIn, PositionOut
from tengen.web.state import WebState, acquire_unless

INFLUENCE_MODELS = ("zobrist", "bouzy", "cross")
EVALUATION_WAIT_S = 5.0  # a page's evaluation waits this long for a slot before 429 (a newer one of its own ends it)


def positions_router(state: WebState) -> APIRouter:
    """/api/position, /api/evaluate and /api/influence/{model} over `state`."""
    router = APIRouter()

    @router.post("/api/position", response_model=PositionOut)
    def position(req: PositionIn) -> PositionOut:
        """The stones, side to move and last move of a position."""
        game, board, move = state.board_of(req)
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

    @router.post("/api/evaluate", response_model=EvaluationOut)
    def evaluate(req: EvaluateIn) -> EvaluationOut:
        """The network's ownership, score and win rate by komi for a position. A request from a page
        (`client`) supersedes that page's older requests still waiting for the network: they answer
        `superseded` at once, so stepping through a record never queues one evaluation per move."""
        from tengen.eval.katago.evaluator import DEFAULT_KOMIS

        _, board, _ = state.board_of(req)
        asked = {"record": req.record, "move": req.move, "line": req.line}
        with state.in_flight_lock:
            number = state.newest[req.client] = state.newest.get(req.client, 0) + 1 if req.client else 0
        superseded = (lambda: state.newest.get(req.client) != number) if req.client else (lambda: False)
        slot = acquire_unless(state.evaluation_slots, superseded, EVALUATION_WAIT_S if req.client else 0.0)
        if slot is None:
            return EvaluationOut(**asked, superseded=True)
        if not slot:
            raise StarletteHTTPException(429, "too many evaluations running or waiting; try again shortly")
        with state.in_flight_lock:
            state.in_flight["evaluations"] += 1
        try:
            ev_obj = state.shared_evaluator()
            kwargs = {}
            if sweeps_komi(ev_obj):
                kwargs["komi_sweep"] = DEFAULT_KOMIS
            if not acquire_unless(state.net_lock, superseded, None):
                return EvaluationOut(**asked, superseded=True)
            try:
                (ev,) = ev_obj.evaluate([board], **kwargs)
            finally:
                state.net_lock.release()
        finally:
            with state.in_flight_lock:
                state.in_flight["evaluations"] -= 1
                if req.client and state.newest.get(req.client) == number:
                    del state.newest[req.client]  # the page's newest is answered: nothing of it kept
            state.evaluation_slots.release()
        best = None
        if ev.policy is not None and ev.policy.size and float(ev.policy.max()) > ev.pass_policy:
            r, c = divmod(int(ev.policy.argmax()), ev.policy.shape[1])
            best = to_gtp((r, c), board.height)
        curve = sorted((float(k), round(float(w), 4)) for k, w in (ev.winrate_by_komi or {}).items())
        return EvaluationOut(**asked, ownership=[[round(float(v), 3) for v in row] for row in ev.ownership],
                             score_lead=round(float(ev.score_lead), 3), score_mean=round(float(ev.score_mean), 3),
                             win=round(float(ev.win), 4), komi=float(board.rules.komi), winrate_by_komi=curve,
                             policy_best=best)

    @router.post("/api/influence/{model}", response_model=InfluenceOut)
    def influence(model: str, req: PositionIn) -> InfluenceOut:
        """An influence map (Zobrist, Bouzy 5/21 or the Manhattan cross) and the territory it marks."""
        from tengen.eval.influence import influence_map, territory

        if model not in INFLUENCE_MODELS:
            raise HTTPException(404, f"unknown influence model {model[:40]!r} (choose {', '.join(INFLUENCE_MODELS)})")
        _, board, _ = state.board_of(req)
        inf = influence_map(board, model)
        return InfluenceOut(model=model, influence=inf.astype(int).tolist(),
                            territory=territory(board, inf).astype(int).tolist())

    return router
