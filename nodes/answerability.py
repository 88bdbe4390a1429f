"""answerability: did the answer refuse? Then the graph requeries once; a retried run settles the route."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from core.schemas import RunContext
from core.state import GraphState
from core.steps import timed


@timed("answerability")
def answerability(state: GraphState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Decide whether a refusal gets a second try; after the retry, AMBIGUOUS if it recovered, INCORRECT if not."""
    status = state.get("status")
    if state.get("requeried"):
        route = "AMBIGUOUS" if status == "answered" else "INCORRECT"
        return {"route": route, "trace": [f"answerability: after requery {status}; route {route}"]}
    if status == "refused":
        return {"trace": ["answerability: refused; requerying once"]}
    return {"trace": [f"answerability: {status}"]}
