"""What the graphs track between nodes (internal); their inputs and outputs are in core/schemas.py.

They live in core/ so that nodes never import graph/ (no circular imports).
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, Literal, TypedDict

from core.schemas import ComparePoint, CompareSide, Route, Status, Step, TrustGrade, WebAttempt
from core.types import Citation, Evidence


def merge_latency(left: dict[str, float] | None, right: dict[str, float] | None) -> dict[str, float]:
    """Per-node latencies; a node that runs twice (the regeneration loop) adds up."""
    merged = dict(left or {})
    for node, ms in (right or {}).items():
        merged[node] = round(merged.get(node, 0.0) + ms, 3)
    return merged


def merge_clauses(
    left: dict[str, list[Evidence]] | None, right: dict[str, list[Evidence]] | None
) -> dict[str, list[Evidence]]:
    """The compare branches each add their own side's clauses."""
    return {**(left or {}), **(right or {})}


class GraphState(TypedDict, total=False):
    """Everything the corrective RAG graph tracks between nodes."""

    question: str
    query: str
    candidates: list[Evidence]  # retrieved, then graded: best first
    ask_back: str  # the question named a patient ambiguously: what to name instead (the refusal says so)
    route: Route
    initial_route: Route
    confidence: float
    trust_grade: TrustGrade
    provenance: dict[str, Any]
    refined: list[Evidence]
    refine_stats: dict[str, int]
    web_evidence: list[Evidence]
    web_provider: str | None
    web_attempts: list[WebAttempt]
    web_ran: bool
    evidence: list[Evidence]  # what the answer was written from, or the weak candidates when it refused
    evidence_used: bool
    answer: str
    status: Status
    status_detail: str
    citations: list[Citation]
    removed_citations: list[str]
    generator: str
    coverage_type: str | None
    answer_confidence: float | None
    requeried: bool
    new_evidence: bool
    cacheable: bool
    latency_ms: Annotated[dict[str, float], merge_latency]
    steps: Annotated[list[Step], operator.add]
    trace: Annotated[list[str], operator.add]


class CompareInput(TypedDict):
    """Two wordings and one question. A side is a filter: {"doc_id": ...} or {"product": ..., "variant": ...}."""

    question: str
    a: dict[str, Any]
    b: dict[str, Any]


class SideTask(TypedDict):
    """What one parallel branch of the compare graph answers."""

    question: str
    side: Literal["a", "b"]
    filters: dict[str, Any]


class CompareState(TypedDict, total=False):
    question: str
    a: dict[str, Any]
    b: dict[str, Any]
    sides: Annotated[list[CompareSide], operator.add]
    clauses: Annotated[dict[str, list[Evidence]], merge_clauses]
    points: list[ComparePoint]
    summary: str
    latency_ms: Annotated[dict[str, float], merge_latency]
    steps: Annotated[list[Step], operator.add]
