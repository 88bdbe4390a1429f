"""Who is calling and what they may do (bodies, disconnects and headers: server/admission.py)."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import HTTPException, Request

from core.settings import Settings
from db.keys import DEFAULT_TENANT, ApiKey, KeyStore
from server.ratelimit import Limits

API_KEY_HEADER = "X-API-Key"


@dataclass(frozen=True)
class Caller:
    key_id: str
    scopes: tuple[str, ...]
    limits: Limits
    tenant: str = DEFAULT_TENANT  # whose cache the caller's answers go to and come from

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
    """The caller from X-API-Key (surrounding whitespace is not part of a key); anonymous read only when enabled."""
    presented = (request.headers.get(API_KEY_HEADER) or "").strip()
    if not presented:
        if anonymous_read:
            return Caller("anonymous", ("read",), limits_for(None, settings))
        raise HTTPException(401, "an API key is required in the X-API-Key header")
    key = keys.verify(presented)
    if key is None:
        raise HTTPException(401, "invalid, expired or revoked API key")
    return Caller(key.key_id, key.scopes, limits_for(key, settings), key.tenant)


def require(caller: Caller, scope: str) -> Caller:
    if not caller.allows(scope):
        raise HTTPException(403, f"this key lacks the '{scope}' scope")
    return caller
