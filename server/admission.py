"""The door every request comes through, LangServe's routes included, before any route code runs.

- The body is read here and bounded while it streams in: a declared Content-Length over the limit,
  or a chunked body the moment its running count passes it, is refused with 413 (and the connection
  closed), so no key check, JSON parser or route ever sees it and memory stays flat.
- The client's going away is watched for the whole request: `client_gone(request)` is an Event that
  graph runs check between nodes, so work stops when nobody is waiting for it.
- Security headers go on every reply, and the page's Content-Security-Policy on the page.
Keys, scopes and rate limits are checked next, by the routes' dependencies (server/deps.py).

A pure ASGI middleware (not BaseHTTPMiddleware), so streamed replies and disconnects pass through.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading

from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("policyrag.server")
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
}
# The web page is served by the app itself: no external scripts, styles or fonts. (The OpenAPI docs and
# the LangServe playground bring their own assets, so the policy covers the page only.)
PAGE_POLICY = (
    "default-src 'self'; img-src 'self' data:; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "frame-ancestors 'none'"
)
_SECURITY = [(name.lower().encode(), value.encode()) for name, value in SECURITY_HEADERS.items()]
_PAGE = [(b"content-security-policy", PAGE_POLICY.encode())]
CLIENT_GONE = "client_gone"


class _ClientGone(Exception):
    """The client disconnected before its body was complete."""


def client_gone(request: Request) -> threading.Event:
    """Set once the client has disconnected (a fresh, unset Event outside this middleware)."""
    return request.scope.get("state", {}).get(CLIENT_GONE) or threading.Event()


class RequestAdmission:
    """Bounded body, disconnect watch and security headers for every HTTP request."""

    def __init__(self, app: ASGIApp, max_body_bytes: int):
        self.app = app
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        send = self._with_headers(scope, send)
        declared = Headers(scope=scope).get("content-length")
        if declared is not None and not declared.strip().isdigit():
            await self._refuse(send, 400, "invalid Content-Length")
            return
        if declared is not None and int(declared) > self.max_body_bytes:
            await self._refuse(send, 413, f"request body over {self.max_body_bytes} bytes")
            return
        try:
            body = await self._read_body(receive)
        except _ClientGone:
            return
        if body is None:
            await self._refuse(send, 413, f"request body over {self.max_body_bytes} bytes")
            return
        await self._run(scope, body, receive, send)

    async def _read_body(self, receive: Receive) -> bytes | None:
        """The whole body, or None once it passes the limit (nothing more is read)."""
        pieces: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise _ClientGone
            piece = message.get("body", b"")
            size += len(piece)
            if size > self.max_body_bytes:
                return None
            pieces.append(piece)
            if not message.get("more_body", False):
                return b"".join(pieces)

    async def _run(self, scope: Scope, body: bytes, receive: Receive, send: Send) -> None:
        """The app with the body replayed; afterwards `receive` waits for the disconnect the watcher sees."""
        gone = threading.Event()
        disconnected = asyncio.Event()
        scope.setdefault("state", {})[CLIENT_GONE] = gone
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            await disconnected.wait()
            return {"type": "http.disconnect"}

        async def watch() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            gone.set()
            disconnected.set()

        watcher = asyncio.ensure_future(watch())
        try:
            await self.app(scope, replay, send)
        finally:
            watcher.cancel()

    @staticmethod
    def _with_headers(scope: Scope, send: Send) -> Send:
        path = scope.get("path", "")
        extra = _SECURITY + (_PAGE if path == "/" or path.startswith("/static/") else [])

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers += [(name, value) for name, value in extra if name not in present]
                message = {**message, "headers": headers}
            await send(message)

        return secured

    @staticmethod
    async def _refuse(send: Send, status: int, detail: str) -> None:
        """A JSON error, and the connection closed: the rest of a refused body is never read."""
        body = json.dumps({"detail": detail}).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
        ]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
