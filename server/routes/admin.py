"""Admin routes: analytics over the telemetry, and API keys (created once, revoked)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, HTTPException

from server.deps import admin, service
from server.schemas import KeyRequest, KeyResponse, RevokeRequest, error_responses
from server.security import Caller
from server.state import ServiceState

router = APIRouter(tags=["admin"])


@router.get("/analytics", responses=error_responses(401, 403, 503))
def analytics(who: Caller = Depends(admin), state: ServiceState = Depends(service)) -> dict[str, Any]:
    """Totals, latency percentiles, route breakdown, cache hit rate and refusal rate (from SQLite)."""
    return state.telemetry.analytics()


@router.post("/auth/generate", response_model=KeyResponse, responses=error_responses(401, 403, 400, 413, 422, 503))
def generate_key(
    body: KeyRequest, who: Caller = Depends(admin), state: ServiceState = Depends(service)
) -> dict[str, Any]:
    """A new API key, shown once in this reply and stored only as a salted hash."""
    plain, key = state.keys.create(
        body.name, list(body.scopes), body.expires_in_days, body.rate_per_minute, body.budget, body.tenant
    )
    return {
        "key": plain,
        "key_id": key.key_id,
        "name": key.name,
        "scopes": list(key.scopes),
        "expires_at": key.expires_at,
        "tenant": key.tenant,
    }


@router.post("/auth/revoke", responses=error_responses(401, 403, 404, 400, 413, 422, 503))
def revoke_key(
    body: RevokeRequest, who: Caller = Depends(admin), state: ServiceState = Depends(service)
) -> dict[str, Any]:
    if not state.keys.revoke(body.key_id):
        raise HTTPException(404, f"no active key with id '{body.key_id}'")
    return {"revoked": body.key_id}
