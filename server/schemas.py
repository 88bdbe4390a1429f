"""Request and response models of the HTTP service (they are also its OpenAPI schema)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints

from core.types import Citation

# Filter keys are payload field names (a leading "!" negates): anything else is not a valid path
# for Qdrant and used to fail the request with a 500. Integers must fit Qdrant's 64-bit integers.
FilterKey = Annotated[
    str, StringConstraints(pattern=r"^!?[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$", max_length=64)
]
FilterValue = str | Annotated[int, Field(ge=-(2**63), le=2**63 - 1)] | bool | list[str]
Filters = dict[FilterKey, FilterValue]


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be empty")
    return value.strip()


# A question (or query): trimmed, and refused when it is only whitespace.
QuestionText = Annotated[str, AfterValidator(_not_blank)]


class GraphInputModel(BaseModel):
    """A question and where to look: the graph's LangServe input (the graph fails on anything else)."""

    question: QuestionText = Field(min_length=1, max_length=20000, description="The question, in plain words.")
    collection: str | None = Field(None, max_length=64, description="Search only this collection.")
    filters: Filters = Field(default_factory=dict, description='Payload filters, e.g. {"jurisdiction": "EU"}.')
    top_k: int = Field(5, ge=1, le=20)


class QueryRequest(GraphInputModel):
    """POST /query: the graph's input, strict about unknown fields, and whether web search may run."""

    model_config = ConfigDict(extra="forbid")

    allow_web: bool = True


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
    citations: list[Citation] = []
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


class GraphOutputModel(BaseModel):
    """LangServe output schema of the graph (the final state's public fields)."""

    model_config = ConfigDict(extra="allow")

    answer: str = ""
    status: str = ""
    route: str | None = None
    initial_route: str | None = None
    confidence: float | None = None


class SearchPolicyRequest(BaseModel):
    """ClaimShield-style policy search: a question about one insurer's wordings."""

    model_config = ConfigDict(extra="forbid")

    query: QuestionText = Field(min_length=1, max_length=20000)
    category: str = Field("health", max_length=64)
    provider: str | None = Field(None, max_length=64)
    product: str | None = Field(None, max_length=64)
    variant: str | None = Field(None, max_length=64)
    top_k: int = Field(5, ge=1, le=20)


class ComparePoliciesRequest(BaseModel):
    """Two wordings to compare: two document ids, or two products (and/or variants) of one provider."""

    model_config = ConfigDict(extra="forbid")

    query: QuestionText = Field(min_length=1, max_length=2000)
    category: str | None = Field(None, max_length=64)
    provider: str | None = Field(None, max_length=64)
    product_a: str | None = Field(None, max_length=64)
    product_b: str | None = Field(None, max_length=64)
    variant_a: str | None = Field(None, max_length=64)
    variant_b: str | None = Field(None, max_length=64)
    document_a: str | None = Field(None, max_length=200)
    document_b: str | None = Field(None, max_length=200)

    def sides(self) -> tuple[dict[str, str], dict[str, str]]:
        """The two filters; raises ValueError when the request does not name two wordings."""
        if self.document_a and self.document_b:
            return {"doc_id": self.document_a}, {"doc_id": self.document_b}
        shared = {k: v for k, v in (("category", self.category), ("provider", self.provider)) if v}
        a = {
            **shared,
            **({"product": self.product_a} if self.product_a else {}),
            **({"variant": self.variant_a} if self.variant_a else {}),
        }
        b = {
            **shared,
            **({"product": self.product_b} if self.product_b else {}),
            **({"variant": self.variant_b} if self.variant_b else {}),
        }
        if a == b or not (self.product_a or self.variant_a) or not (self.product_b or self.variant_b):
            raise ValueError(
                "name two wordings: document_a and document_b, or product_a/variant_a and product_b/variant_b"
            )
        return a, b


class LabelledQuestion(BaseModel):
    question: QuestionText = Field(min_length=1, max_length=2000)
    gold_citations: list[str] = Field(
        default_factory=list, description="Any chunk citation starting with one of these counts."
    )
    gold_doc_ids: list[str] = Field(default_factory=list)


class EvaluateRetrievalRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    questions: list[LabelledQuestion] = Field(min_length=1, max_length=200)
    k: int = Field(5, ge=1, le=20)
    collection: str | None = None
    filters: Filters = Field(default_factory=dict)


class ErrorReply(BaseModel):
    """Every 4xx/5xx reply: a readable detail, never a stack trace."""

    detail: str = Field(description="What went wrong, in plain words.")
    problems: list[str] | None = Field(None, description="On 422: each invalid field and why.")
    reference: str | None = Field(None, description="On 500: the reference of the logged error.")


ERROR_DESCRIPTIONS = {
    400: "Malformed request (an invalid Content-Length).",
    401: "No API key in X-API-Key, or an invalid, expired or revoked one.",
    403: "The key lacks the scope this route needs.",
    404: "Not found: an unknown collection, key id or policy wording (the detail says which).",
    413: "The request body is over the configured limit.",
    422: "Invalid request: `problems` lists each invalid field.",
    429: "Rate limited or quota spent; `Retry-After` says when to retry.",
    503: "The index or storage is unavailable; nothing was changed (`Retry-After` when storage is busy).",
}


def error_responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI entries for the error statuses a route can answer with."""
    return {code: {"model": ErrorReply, "description": ERROR_DESCRIPTIONS[code]} for code in codes}
