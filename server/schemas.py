"""Request models of the HTTP service and its error reply (they are also its OpenAPI schema).

The question, the per-run options, the answer record and the evidence record are the product's own
contracts (core/schemas.py); the service uses them as they are.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from core.schemas import COLLECTION_MAX_CHARS, QUESTION_MAX_CHARS, Filters, Question, QuestionText, SearchScope


class QueryRequest(Question, SearchScope):
    """POST /query: the question and where to look; unknown fields are refused."""

    model_config = ConfigDict(extra="forbid")


class KeyRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=100)
    scopes: list[Literal["read", "admin"]] = Field(default_factory=lambda: ["read"], min_length=1)  # type: ignore[arg-type]
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


class SearchPolicyRequest(BaseModel):
    """ClaimShield-style policy search: a question about one insurer's wordings."""

    model_config = ConfigDict(extra="forbid")

    query: QuestionText = Field(min_length=1, max_length=QUESTION_MAX_CHARS)
    category: str = Field("health", max_length=64)
    provider: str | None = Field(None, max_length=64)
    product: str | None = Field(None, max_length=64)
    variant: str | None = Field(None, max_length=64)
    top_k: int | None = Field(None, ge=1, le=50, description="Clauses retrieved; unset uses POLICYRAG_TOP_K.")


class ComparePoliciesRequest(BaseModel):
    """Two wordings to compare: two document ids, or two products (and/or variants) of one provider."""

    model_config = ConfigDict(extra="forbid")

    query: QuestionText = Field(min_length=1, max_length=QUESTION_MAX_CHARS)
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
    question: QuestionText = Field(min_length=1, max_length=QUESTION_MAX_CHARS)
    gold_citations: list[str] = Field(
        default_factory=list, description="Any chunk citation starting with one of these counts."
    )
    gold_doc_ids: list[str] = Field(default_factory=list)


class EvaluateRetrievalRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    questions: list[LabelledQuestion] = Field(min_length=1, max_length=200)
    k: int | None = Field(None, ge=1, le=50, description="Cut-off rank; unset uses POLICYRAG_TOP_K.")
    collection: str | None = Field(None, max_length=COLLECTION_MAX_CHARS)
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


class CollectionSummary(BaseModel):
    name: str = Field(description="The collection's name, as `collection` in a query.")
    title: str = Field(description="What it holds, in words a reader knows.")
    chunks: int


class CollectionsReply(BaseModel):
    collections: list[CollectionSummary]


class RefusalReason(BaseModel):
    """Why a question got no answer, in plain words (the web page shows it under the refusal)."""

    kind: Literal["medical_advice", "no_such_provision", "absent_from_wording", "not_written", "not_in_sources"]
    text: str
