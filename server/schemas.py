"""Request and response models of the HTTP service (they are also its OpenAPI schema)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator


class QueryRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    question: str = Field(min_length=1, max_length=20000, description="The question, in plain words.")
    collection: str | None = Field(None, max_length=64, description="Search only this collection.")
    filters: dict[str, str | int | bool | list[str]] = Field(default_factory=dict, description="Payload filters, e.g. {\"jurisdiction\": \"EU\"}.")
    top_k: int = Field(5, ge=1, le=20)
    allow_web: bool = True

    @field_validator("question")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("the question must not be empty")
        return value.strip()


class CitationOut(BaseModel):
    source: int
    citation: str
    document: str
    url: str = ""
    page: int | None = None
    chunk_id: str = ""
    origin: str = "local"


class EvidenceOut(BaseModel):
    chunk_id: str
    citation: str
    document: str
    collection: str = ""
    text: str
    highlights: list[str] = []
    origin: str
    url: str = ""
    page: int | None = None
    publisher: str = ""
    jurisdiction: str = ""
    document_type: str = ""
    version: str = ""
    effective_from: str = ""
    hierarchy_rank: int = 4
    retrieved_at: str | None = None
    confidence: float | None = None
    grade_explanation: str = ""
    scores: dict[str, Any] = {}
    metadata: dict[str, Any] = {}


class QueryResponse(BaseModel):
    question: str | None = None
    answer: str
    status: Literal["answered", "refused", "evidence_only"]
    status_detail: str = ""
    route: str | None = None
    initial_route: str | None = None
    confidence: float | None = None
    trust_grade: dict[str, str] | None = None
    provenance: dict[str, Any] = {}
    citations: list[CitationOut] = []
    coverage_type: str | None = None
    removed_citations: list[str] = []
    evidence: list[EvidenceOut] = []
    evidence_used: bool = False
    refine_stats: dict[str, int] = {}
    generator: str | None = None
    web_provider: str | None = None
    web_attempts: list[dict[str, str]] = []
    cacheable: bool = False
    cache_hit: bool = False
    cache_similarity: float | None = None
    latency_ms: dict[str, float] = {}
    trace: list[str] = []


class KeyRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=100)
    scopes: list[Literal["read", "admin"]] = Field(default_factory=lambda: ["read"], min_length=1)
    expires_in_days: float | None = Field(None, gt=0, le=3650)
    rate_per_minute: int | None = Field(None, ge=1, le=100000)
    budget: float | None = Field(None, gt=0, le=1e7, description="Token-bucket capacity in credits.")


class KeyResponse(BaseModel):
    key: str = Field(description="Shown once; only a salted hash is stored.")
    key_id: str
    name: str
    scopes: list[str]
    expires_at: str | None


class RevokeRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    key_id: str = Field(min_length=1, max_length=64)


class GraphInputModel(BaseModel):
    """LangServe input schema of the graph."""

    question: str
    collection: str | None = None
    filters: dict[str, Any] = {}
    top_k: int = 5


class GraphOutputModel(BaseModel):
    """LangServe output schema of the graph (the final state's public fields)."""

    model_config = ConfigDict(extra="allow")

    answer: str = ""
    status: str = ""
    route: str | None = None
    initial_route: str | None = None
    confidence: float | None = None
