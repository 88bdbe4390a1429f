"""The compare graph: one question, two wordings answered in parallel (Send), then aligned point by point.

START --Send(a), Send(b)--> answer_side (x2, in parallel) -> align -> END
"""

from __future__ import annotations

from functools import partial

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Send

from core.schemas import CompareRecord, RunContext
from core.state import CompareInput, CompareState
from nodes.align import align
from nodes.answer_side import answer_side
from retrieval.services import Services


def fan_out(state: CompareState) -> list[Send]:
    """One branch per wording, each with its own filters."""
    return [
        Send("answer_side", {"question": state["question"], "side": side, "filters": dict(state[side])})
        for side in ("a", "b")
    ]


def build_compare_graph(
    services: Services,
) -> CompiledStateGraph[CompareState, RunContext, CompareInput, CompareRecord]:
    builder = StateGraph(
        CompareState, context_schema=RunContext, input_schema=CompareInput, output_schema=CompareRecord
    )
    builder.add_node("answer_side", partial(answer_side, services=services))
    builder.add_node("align", align)
    builder.add_conditional_edges(START, fan_out, ["answer_side"])
    builder.add_edge("answer_side", "align")
    builder.add_edge("align", END)
    return builder.compile(name="policyrag-compare")
