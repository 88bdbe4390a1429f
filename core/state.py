"""The corrective-RAG graph's schemas: what callers give, what the graph tracks, what callers get.

They live in core/ so that nodes never import graph/ (no circular imports).
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, Literal, NotRequired, TypedDict

from core.types import Citation, Evidence

Route = Literal["CORRECT", "AMBIGUOUS", "INCORRECT"]
Status = Literal["answered", "refused", "evidence_only"]


def merge_latency(left: dict[str, float] | None, right: dict[str, float] | None) -> dict[str, float]:
    """Per-node latencies; a node that runs twice (the regeneration loop) adds up."""
    merged = dict(left or {})
    for node, ms in (right or {}).items():
        merged[node] = round(merged.get(node, 0.0) + ms, 3)
    return merged


class TrustGrade(TypedDict):
    grade: Literal["high", "medium", "low"]
    rationale: str


class WebAttempt(TypedDict):
    provider: str
    status: Literal["ok", "empty", "failed", "timeout", "skipped", "cached"]
    detail: str


class GraphInput(TypedDict):
    """What a caller gives."""

    question: str
    collection: NotRequired[str | None]
    filters: NotRequired[dict[str, Any]]
    top_k: NotRequired[int]


class GraphState(TypedDict, total=False):
    """Everything the graph tracks between nodes."""

    question: str
    collection: str | None
    filters: dict[str, Any]
    top_k: int
    query: str
    evidence: list[Evidence]
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
    context: list[Evidence]
    answer: str
    status: Status
    status_detail: str
    citations: list[Citation]
    removed_citations: list[str]
    generator: str
    coverage_type: str | None
    requeried: bool
    new_evidence: bool
    cacheable: bool
    latency_ms: Annotated[dict[str, float], merge_latency]
    trace: Annotated[list[str], operator.add]


class GraphOutput(TypedDict, total=False):
    """What a caller gets back."""

    question: str
    answer: str
    status: Status
    status_detail: str
    route: Route
    initial_route: Route
    confidence: float
    trust_grade: TrustGrade
    provenance: dict[str, Any]
    citations: list[Citation]
    coverage_type: str | None
    removed_citations: list[str]
    context: list[Evidence]
    evidence: list[Evidence]
    refine_stats: dict[str, int]
    generator: str
    web_provider: str | None
    web_attempts: list[WebAttempt]
    cacheable: bool
    latency_ms: dict[str, float]
    trace: list[str]


class CompareInput(TypedDict):
    """Two wordings and one question. A side is a filter: {"doc_id": ...} or {"product": ..., "variant": ...}."""

    question: str
    a: dict[str, Any]
    b: dict[str, Any]
    collection: NotRequired[str | None]
    top_k: NotRequired[int]


class SideTask(TypedDict):
    """What one parallel branch of the compare graph answers."""

    question: str
    side: Literal["a", "b"]
    filters: dict[str, Any]
    top_k: int


class CompareState(TypedDict, total=False):
    question: str
    a: dict[str, Any]
    b: dict[str, Any]
    collection: str | None
    top_k: int
    sides: Annotated[list[dict[str, Any]], operator.add]
    points: list[dict[str, Any]]
    summary: str
    latency_ms: Annotated[dict[str, float], merge_latency]


class CompareOutput(TypedDict, total=False):
    question: str
    sides: list[dict[str, Any]]
    points: list[dict[str, Any]]
    summary: str
    latency_ms: dict[str, float]
