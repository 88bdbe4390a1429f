"""Conditional edges: each returns the name of the next step and does nothing else."""

from __future__ import annotations

from langgraph.graph import END

from core.state import GraphState


def after_grade(state: GraphState) -> str:
    return "web_search" if state.get("route") == "INCORRECT" else "refine"


def after_refine(state: GraphState) -> str:
    return "generate" if state.get("route") == "CORRECT" else "web_search"


def after_answerability(state: GraphState) -> str:
    return "requery" if state.get("status") == "refused" and not state.get("requeried") else END


def after_requery(state: GraphState) -> str:
    return "generate" if state.get("new_evidence") else END
