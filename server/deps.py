"""Route dependencies: the app's shared state, who is calling, and whether they may start a request."""

from __future__ import annotations

from fastapi import Depends, HTTPException, Request

from server.security import Caller, identify, require
from server.state import ServiceState


def service(request: Request) -> ServiceState:
    return request.app.state.policyrag


def caller(request: Request, state: ServiceState = Depends(service)) -> Caller:
    return identify(request, state.keys, state.settings, state.anonymous_read)


def reader(who: Caller = Depends(caller)) -> Caller:
    return require(who, "read")


def admin(who: Caller = Depends(caller)) -> Caller:
    return require(who, "admin")


def admit(who: Caller, state: ServiceState, requests: int = 1) -> Caller:
    """The caller, if their rate limit lets `requests` questions start (429 with Retry-After otherwise)."""
    decision = state.limiter.admit(who.key_id, who.limits, requests)
    if not decision.allowed:
        raise HTTPException(429, f"rate limit: {decision.reason}", headers={"Retry-After": str(decision.retry_after_s)})
    return who


def admitted(who: Caller = Depends(reader), state: ServiceState = Depends(service)) -> Caller:
    """A reader whose rate limit lets the request start."""
    return admit(who, state)
