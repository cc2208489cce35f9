"""A client that disconnects mid-upload (issue 47 item 2): the app answers (to nobody) without raising,
so the server logs no ClientDisconnect traceback."""
from __future__ import annotations

import asyncio
import logging

from tengen.web.app import create_app


def test_a_client_gone_mid_upload_is_no_traceback(caplog):
    app = create_app(evaluator=object())
    sent: list[dict] = []
    body = [{"type": "http.request", "body": b"(;GM[1]SZ[9]", "more_body": True}, {"type": "http.disconnect"}]

    async def receive():
        return body.pop(0) if body else {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": "/api/records/upload", "raw_path": b"/api/records/upload", "query_string": b"",
             "root_path": "", "headers": [(b"content-type", b"application/x-go-sgf")], "client": ("127.0.0.1", 1),
             "server": ("127.0.0.1", 8000)}
    with caplog.at_level(logging.DEBUG):
        asyncio.run(app(scope, receive, send))  # raised ClientDisconnect before
    start = [m for m in sent if m["type"] == "http.response.start"]
    assert start and start[0]["status"] == 400
    assert "Traceback" not in caplog.text and "ClientDisconnect" not in caplog.text
