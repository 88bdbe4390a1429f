"""LangServe's /graph routes: the corrective RAG graph as a runnable, on the same path as /query.

The runnable takes the /query request (question, collection, filters, top_k, allow_web) and answers
through the app's QueryService, so LangServe calls are validated, cached, priced and recorded in
telemetry exactly like /query, and run on the app's own services.
"""

from __future__ import annotations

from typing import Any

from fastapi import Depends, FastAPI, Request
from langchain_core.runnables import Runnable, RunnableConfig, RunnableLambda
from langserve import add_routes

from core.schemas import AnswerRecord
from server.deps import admitted
from server.schemas import QueryRequest
from server.security import Caller
from server.state import ServiceState

PATH = "/graph"


def graph_runnable(state: ServiceState) -> Runnable[dict[str, Any], AnswerRecord]:
    def answer(request: dict[str, Any], config: RunnableConfig) -> AnswerRecord:
        caller: Caller = config["configurable"]["caller"]
        return state.queries.answer(caller, QueryRequest.model_validate(request), endpoint=PATH)

    runnable = RunnableLambda(answer, name="policyrag")
    return runnable.with_types(input_type=QueryRequest, output_type=AnswerRecord)  # type: ignore[arg-type]


def mount_graph(app: FastAPI, state: ServiceState) -> None:
    def with_caller(config: dict[str, Any], request: Request) -> dict[str, Any]:
        """The caller admitted for this request travels with the run (pricing and telemetry need it)."""
        return {**config, "configurable": {**config.get("configurable", {}), "caller": request.state.caller}}

    def remember_caller(request: Request, who: Caller = Depends(admitted)) -> None:
        request.state.caller = who

    add_routes(
        app,
        graph_runnable(state),
        path=PATH,
        input_type=QueryRequest,
        output_type=AnswerRecord,
        dependencies=[Depends(remember_caller)],
        per_req_config_modifier=with_caller,
        enabled_endpoints=["invoke", "batch", "stream", "input_schema", "output_schema", "playground"],
    )
