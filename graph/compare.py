"""The compare graph: one question, two wordings answered in parallel (Send), then aligned point by point.

START --Send(a), Send(b)--> answer_side (x2, in parallel) -> align -> END
"""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Send

from core.state import CompareInput, CompareOutput, CompareState
from nodes.align import align
from nodes.answer_side import answer_side
from nodes.context import RunContext

DEFAULT_TOP_K = 6


def fan_out(state: CompareState) -> list[Send]:
    """One branch per wording, each with its own filters."""
    sends = []
    for side in ("a", "b"):
        filters = dict(state[side])
        if state.get("collection"):
            filters.setdefault("collection", state["collection"])
        sends.append(
            Send(
                "answer_side",
                {
                    "question": state["question"],
                    "side": side,
                    "filters": filters,
                    "top_k": state.get("top_k") or DEFAULT_TOP_K,
                },
            )
        )
    return sends


def build_compare_graph() -> CompiledStateGraph:
    builder = StateGraph(
        CompareState, context_schema=RunContext, input_schema=CompareInput, output_schema=CompareOutput
    )
    builder.add_node("answer_side", answer_side)
    builder.add_node("align", align)
    builder.add_conditional_edges(START, fan_out, ["answer_side"])
    builder.add_edge("answer_side", "align")
    builder.add_edge("align", END)
    return builder.compile(name="policyrag-compare")


compare_graph = build_compare_graph()
