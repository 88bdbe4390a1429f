"""The web page, /health and the caller's own rate-limit status."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, Depends
from fastapi.responses import FileResponse

from db.store import StoreError
from server.deps import reader, service
from server.presentation import collection_title
from server.schemas import CollectionsReply, error_responses
from server.security import Caller
from server.state import ServiceState

STATIC = Path(__file__).resolve().parents[1] / "static"
router = APIRouter()


@router.get("/", include_in_schema=False)
def page() -> FileResponse:
    return FileResponse(STATIC / "index.html", media_type="text/html")


@router.get("/health", tags=["service"])
def health(state: ServiceState = Depends(service)) -> dict[str, Any]:
    """Index, models, generator and web providers; never a secret."""
    settings = state.settings
    resources = state.services.resources
    index: dict[str, Any]
    try:
        counts = state.collections()  # opens the published generation, so its name is known below
        index = {
            "present": True,
            "generation": resources.reader.generation,
            "chunks_per_collection": counts,
            "backend": "qdrant-server" if settings.qdrant_url else "qdrant-edge",
        }
    except StoreError as error:
        index = {"present": False, "detail": str(error)}
    return {
        "status": "ok" if index["present"] else "degraded",
        "index": index,
        "models": {
            "embedding": settings.embedding_model,
            "variant": settings.embedding_variant,
            "loaded": resources.embedder.loaded,
        },
        "generator": state.services.generator("auto").name,
        "web_providers": [p.name for p in state.services.web.providers],
        "semantic_cache": {"entries": len(state.cache), "threshold": settings.cache_threshold},
        "anonymous_read": state.anonymous_read,
    }


@router.get("/collections", tags=["service"], response_model=CollectionsReply, responses=error_responses(503))
def collections(state: ServiceState = Depends(service)) -> dict[str, Any]:
    """The collections in the index with their human titles (for choosing where to search)."""
    counts = state.collections()
    return {
        "collections": [
            {"name": name, "title": collection_title(name), "chunks": counts[name]} for name in sorted(counts)
        ]
    }


@router.get("/rate-limit-status", tags=["query"], responses=error_responses(401, 403, 503))
def rate_limit_status(who: Caller = Depends(reader), state: ServiceState = Depends(service)) -> dict[str, Any]:
    """The caller's own bucket: credits left, refill rate, requests in the last minute."""
    return {"key_id": who.key_id, **state.limiter.status(who.key_id, who.limits)}
