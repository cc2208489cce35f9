"""The web app (FastAPI): the page, the error contract, and the routers (`routes_records`,
`routes_positions`, `routes_jobs`: analyses and reviews, `routes_quiz`, `routes_own_move`) over one shared `WebState`. Every bad input gets a JSON error object
`{"error": one line, "status": code}` with a 4xx status; nothing answers with a traceback."""
from __future__ import annotations

import logging
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Callable, Optional

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from tengen.go.board import IllegalMove
from tengen.go.sgf import SgfError
from tengen.web.files import FileRefused
from tengen.web.jobs import QueueFull
from tengen.web.routes_jobs import analyses_router, reviews_router
from tengen.web.routes_own_move import own_move_router
from tengen.web.routes_positions import positions_router
from tengen.web.routes_quiz import quiz_router
from tengen.web.routes_records import records_router
from tengen.web.state import NetworkUnavailable, WebState

STATIC = Path(__file__).parent / "static"
log = logging.getLogger("tengen.web")


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:500] or type(exc).__name__


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message, "status": status}, status_code=status)


def create_app(folder: Optional[str] = None, evaluator: Any = None,
               evaluator_factory: Optional[Callable[[], Any]] = None, workers: Optional[int] = None,
               queue_limit: int = 4) -> FastAPI:
    """The app: records from uploads, pastes or `folder` (nothing outside it is read); `evaluator` (or one
    built by `evaluator_factory` on first use, default the cached KataGo network) shared by every request."""
    state = WebState(folder, evaluator, evaluator_factory, workers, queue_limit)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        yield
        state.jobs.shutdown()  # running jobs stop at their next check

    app = FastAPI(title="tengen", description="Go endgame analysis in the browser", version="1", lifespan=lifespan)
    app.state.evaluations_in_flight = lambda: state.in_flight["evaluations"]  # tests and monitoring
    app.state.jobs, app.state.records = state.jobs, state.records

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

    @app.exception_handler(NetworkUnavailable)
    async def no_network(request: Request, exc: NetworkUnavailable) -> JSONResponse:
        return _error(503, str(exc))

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error on %s", request.url.path)
        return _error(500, f"internal error: {type(exc).__name__}")

    # ------------------------------------------------------------------ the page
    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    for router in (records_router(state), positions_router(state), analyses_router(state), reviews_router(state),
                   quiz_router(state), own_move_router(state)):
        app.include_router(router)
    return app
