"""/query and /query/stream: a question answered with its evidence, whole or as server-sent events."""

from __future__ import annotations

import json
from typing import Any

import anyio
from fastapi import APIRouter, Depends
from sse_starlette.sse import EventSourceResponse

from core.schemas import AnswerRecord
from db.store import StoreError
from server.deps import admitted, known_collection, service
from server.presentation import refusal_reason
from server.schemas import QueryRequest, error_responses
from server.security import Caller
from server.state import ServiceState

router = APIRouter(tags=["query"])
ERRORS = error_responses(401, 403, 404, 400, 413, 422, 429, 503)


@router.post("/query", response_model=AnswerRecord, responses=ERRORS)
def query(body: QueryRequest, who: Caller = Depends(admitted), state: ServiceState = Depends(service)) -> AnswerRecord:
    """Answer with citations, route, confidence, trust grade, evidence with provenance and per-node latency."""
    known_collection(body.collection, state)
    return state.queries.answer(who, body)


@router.post(
    "/query/stream",
    response_class=EventSourceResponse,
    responses={
        200: {
            "description": "Server-sent events: progress, token, final (or error).",
            "content": {"text/event-stream": {"schema": {"type": "string"}}},
        },
        **ERRORS,
    },
)
async def query_stream(
    body: QueryRequest, who: Caller = Depends(admitted), state: ServiceState = Depends(service)
) -> EventSourceResponse:
    """Server-sent events: `progress` per node as it finishes, `token`s of the answer, then the `final` record
    with `refusal_reason` ({kind, text}: why there is no answer, in plain words; null when answered)."""
    await anyio.to_thread.run_sync(known_collection, body.collection, state)

    async def events():
        iterator = state.queries.stream(who, body)
        sentinel = object()
        while True:
            try:
                item: Any = await anyio.to_thread.run_sync(next, iterator, sentinel)
            except Exception as error:  # a failure mid-stream becomes an error event, never a stack trace
                detail = str(error) if isinstance(error, StoreError | ValueError) else "internal error"
                yield {"event": "error", "data": json.dumps({"detail": detail})}
                return
            if item is sentinel:
                return
            event, data = item
            if isinstance(data, AnswerRecord):
                reason = refusal_reason(data, body.collection)
                data = {**data.model_dump(mode="json"), "refusal_reason": reason and reason.model_dump()}
            yield {"event": event, "data": json.dumps(data, default=str)}

    return EventSourceResponse(events())
