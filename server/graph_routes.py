"""LangServe's /graph routes: the corrective RAG graph as a runnable, on the same path as /query.

The runnable takes the /query request (question, collection, filters, top_k, allow_web) and answers
through the app's QueryService, so LangServe calls are validated, cached, priced and recorded in
telemetry exactly like /query, and run on the app's own services.
"""

from __future__ import annotations

import threading
from typing import Any

import anyio
from fastapi import Depends, FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from langchain_core.runnables import Runnable, RunnableConfig, RunnableLambda
from langserve import add_routes
from pydantic import ValidationError

from core.schemas import AnswerRecord
from server.admission import client_gone
from server.deps import admit, reader
from server.schemas import QueryRequest
from server.security import Caller
from server.state import ServiceState

PATH = "/graph"


def graph_runnable(state: ServiceState) -> Runnable[dict[str, Any], AnswerRecord]:
    def answer(request: dict[str, Any], config: RunnableConfig) -> AnswerRecord:
        caller: Caller = config["configurable"]["caller"]
        gone: threading.Event = config["configurable"]["client_gone"]
        return state.queries.answer(caller, QueryRequest.model_validate(request), endpoint=PATH, gone=gone)

    runnable = RunnableLambda(answer, name="policyrag")
    return runnable.with_types(input_type=QueryRequest, output_type=AnswerRecord)  # type: ignore[arg-type]


async def graph_inputs(request: Request, max_inputs: int) -> list[QueryRequest]:
    """The questions of a /graph/invoke, /batch or /stream body, validated as /query validates its body.

    A batch over `max_inputs` questions is refused whole. A body LangServe itself would refuse (not
    JSON, no `input`) is left to it."""
    try:
        body = await request.json()
    except ValueError:
        return []
    if not isinstance(body, dict):
        return []
    raw = body.get("inputs") if request.url.path.endswith("/batch") else [body.get("input")]
    if not isinstance(raw, list):
        return []
    if len(raw) > max_inputs:
        raise HTTPException(422, f"a batch takes at most {max_inputs} inputs; this one has {len(raw)}")
    inputs, problems = [], []
    for number, item in enumerate(raw):
        try:
            inputs.append(QueryRequest.model_validate(item))
        except ValidationError as error:
            where = ["inputs", number] if request.url.path.endswith("/batch") else ["input"]
            problems += [
                {**e, "loc": [*where, *e["loc"]]} for e in error.errors(include_url=False, include_context=False)
            ]
    if problems:
        raise RequestValidationError(problems)
    return inputs


def mount_graph(app: FastAPI, state: ServiceState) -> None:
    def with_caller(config: dict[str, Any], request: Request) -> dict[str, Any]:
        """The caller admitted for this request (pricing and telemetry need it) and its disconnect signal
        travel with the run; they override anything a client sends as `configurable`."""
        ours = {"caller": request.state.caller, "client_gone": client_gone(request)}
        return {**config, "configurable": {**config.get("configurable", {}), **ours}}

    async def admit_graph_call(request: Request, who: Caller = Depends(reader)) -> None:
        """The same door as /query: inputs validated, collections checked, then one credit per question."""
        if request.method == "POST":
            inputs = await graph_inputs(request, state.settings.graph_batch_max_inputs)
            for item in inputs:
                await anyio.to_thread.run_sync(state.queries.check_scope, item.collection, item.filters)
            admit(who, state, max(1, len(inputs)))
        request.state.caller = who

    add_routes(
        app,
        graph_runnable(state),
        path=PATH,
        input_type=QueryRequest,
        output_type=AnswerRecord,
        dependencies=[Depends(admit_graph_call)],
        per_req_config_modifier=with_caller,
        enabled_endpoints=["invoke", "batch", "stream", "input_schema", "output_schema", "playground"],
    )
