"""Who is calling and what they may do; HTTP hardening that applies to every route."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import HTTPException, Request
from starlette.middleware.base import BaseHTTPMiddleware
from starlette.responses import JSONResponse

from core.settings import Settings
from db.keys import ApiKey, KeyStore
from server.ratelimit import Limits

API_KEY_HEADER = "X-API-Key"
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


@dataclass(frozen=True)
class Caller:
    key_id: str
    scopes: tuple[str, ...]
    limits: Limits

    def allows(self, scope: str) -> bool:
        return scope in self.scopes or "admin" in self.scopes


def limits_for(key: ApiKey | None, settings: Settings) -> Limits:
    if key is None:
        return Limits(
            settings.anonymous_credit_capacity,
            settings.anonymous_credit_refill_per_s,
            settings.anonymous_rate_per_minute,
        )
    return Limits(
        key.budget or settings.key_credit_capacity,
        settings.key_credit_refill_per_s,
        key.rate_per_minute or settings.key_rate_per_minute,
    )


def identify(request: Request, keys: KeyStore, settings: Settings, anonymous_read: bool) -> Caller:
    """The caller from X-API-Key; anonymous read only when enabled."""
    presented = request.headers.get(API_KEY_HEADER)
    if not presented:
        if anonymous_read:
            return Caller("anonymous", ("read",), limits_for(None, settings))
        raise HTTPException(401, "an API key is required in the X-API-Key header")
    key = keys.verify(presented)
    if key is None:
        raise HTTPException(401, "invalid, expired or revoked API key")
    return Caller(key.key_id, key.scopes, limits_for(key, settings))


def require(caller: Caller, scope: str) -> Caller:
    if not caller.allows(scope):
        raise HTTPException(403, f"this key lacks the '{scope}' scope")
    return caller


class HardeningMiddleware(BaseHTTPMiddleware):
    """Security headers on every response; bodies over the limit refused before they are read."""

    def __init__(self, app, max_body_bytes: int):
        super().__init__(app)
        self.max_body_bytes = max_body_bytes

    async def dispatch(self, request: Request, call_next):
        declared = request.headers.get("content-length")
        if declared is not None:
            try:
                too_big = int(declared) > self.max_body_bytes
            except ValueError:
                return self._secure(JSONResponse({"detail": "invalid Content-Length"}, status_code=400))
            if too_big:
                return self._secure(
                    JSONResponse({"detail": f"request body over {self.max_body_bytes} bytes"}, status_code=413)
                )
        elif request.method in ("POST", "PUT", "PATCH"):
            body = await request.body()  # chunked upload: measured once read (bounded by the server's own limits)
            if len(body) > self.max_body_bytes:
                return self._secure(
                    JSONResponse({"detail": f"request body over {self.max_body_bytes} bytes"}, status_code=413)
                )
        response = self._secure(await call_next(request))
        if request.url.path == "/" or request.url.path.startswith("/static/"):
            response.headers.setdefault("Content-Security-Policy", PAGE_POLICY)
        return response

    @staticmethod
    def _secure(response):
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response
