"""The records routes: the served folder's list (searched, paged), and opening a record from the folder, a
paste or an upload; each answers the record's moves, side lines and what loading read leniently."""
from __future__ import annotations

import asyncio

from fastapi import APIRouter, HTTPException, Query, Request
from starlette.requests import ClientDisconnect

from tengen.web.files import MAX_RECORD_BYTES, MAX_SCANNED, PAGE_SIZE, FileRefused, list_records, read_under
from tengen.web.schemas import FilesOut, PasteIn, PathIn, RecordOut
from tengen.web.state import WebState


def records_router(state: WebState) -> APIRouter:
    """/api/files and /api/records/... over `state`."""
    router = APIRouter()

    @router.get("/api/files", response_model=FilesOut)
    def files(search: str = Query(default="", max_length=200), offset: int = Query(default=0, ge=0, le=MAX_SCANNED),
              limit: int = Query(default=PAGE_SIZE, ge=1, le=PAGE_SIZE)) -> FilesOut:
        """The .sgf files under the served folder whose path contains `search`, a page at a time."""
        listing = list_records(state.root, search, offset, limit)
        return FilesOut(folder=None if state.root is None else str(state.root), files=listing.files, total=listing.total,
                        offset=offset, search=search, complete=listing.complete)

    @router.post("/api/records/open", response_model=RecordOut)
    def open_path(body: PathIn) -> RecordOut:
        """Open a record by its path relative to the served folder (anything outside is refused)."""
        return state.add_record(read_under(state.root, body.path), body.path)

    @router.post("/api/records/paste", response_model=RecordOut)
    def paste(body: PasteIn) -> RecordOut:
        """Open a record pasted as text."""
        data = body.sgf.encode("utf-8")
        if len(data) > MAX_RECORD_BYTES:
            raise FileRefused(f"the record is larger than {MAX_RECORD_BYTES} bytes")
        return state.add_record(data, "<pasted>")

    @router.post("/api/records/upload", response_model=RecordOut,
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
        return await asyncio.to_thread(state.add_record, b"".join(chunks), name)

    @router.get("/api/records/{record_id}", response_model=RecordOut)
    def get_record(record_id: str) -> RecordOut:
        return state.record_out(record_id, state.game_of(record_id))

    return router
