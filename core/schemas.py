"""The contracts callers see, each defined once.

- `Question`: what a caller asks (the graph's input).
- `SearchScope` and `RunContext`: per-run options; `RunContext` is the graph's context schema, so
  LangGraph Studio shows every field with its description. `None` means "the setting's value".
- `Step`: one node's progress (node, route, timing), streamed while a run goes and kept in the record.
- `AnswerRecord`: the graph's output, the CLI's `--json`, `/query`, the stream's final event,
  LangServe's output and what the evaluation scores.
- `CompareRecord`: the compare graph's output, `policyrag compare --json` and `/compare-policies`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints

from core.settings import Settings
from core.types import Citation, Evidence

Route = Literal["CORRECT", "AMBIGUOUS", "INCORRECT"]
Status = Literal["answered", "refused", "evidence_only"]
RetrievalMode = Literal["dense", "sparse", "hybrid", "rerank"]

QUESTION_MAX_CHARS = 2000
COLLECTION_MAX_CHARS = 64
FILTER_VALUE_MAX_CHARS = 200  # the longest document id or payload value a filter may name
FILTER_MAX_VALUES = 50
FILTER_MAX_KEYS = 16

# Filter keys are payload field names (a leading "!" negates): anything else is not a valid path
# for Qdrant. Integers must fit Qdrant's 64-bit integers; strings and lists are as bounded as questions.
FilterKey = Annotated[
    str, StringConstraints(pattern=r"^!?[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$", max_length=64)
]
FilterText = Annotated[str, StringConstraints(max_length=FILTER_VALUE_MAX_CHARS)]
FilterValue = (
    FilterText
    | Annotated[int, Field(ge=-(2**63), le=2**63 - 1)]
    | bool
    | Annotated[list[FilterText], Field(max_length=FILTER_MAX_VALUES)]
)
Filters = dict[FilterKey, FilterValue]


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be empty")
    return value.strip()


# A question: trimmed, and refused when it is only whitespace.
QuestionText = Annotated[str, AfterValidator(_not_blank)]


class Question(BaseModel):
    """A question in plain words."""

    model_config = ConfigDict(extra="forbid", strict=True)

    question: QuestionText = Field(
        min_length=1, max_length=QUESTION_MAX_CHARS, description="The question, in plain words."
    )


class SearchScope(BaseModel):
    """Where to look and how widely: the options any caller may set per question.

    Strict: "5" is not a top_k nor "no" a boolean, wherever the options come from."""

    model_config = ConfigDict(strict=True)

    collection: str | None = Field(None, max_length=COLLECTION_MAX_CHARS, description="Search only this collection.")
    filters: Filters = Field(
        default_factory=dict, max_length=FILTER_MAX_KEYS, description='Payload filters, e.g. {"jurisdiction": "EU"}.'
    )
    top_k: int | None = Field(
        None, ge=1, le=50, description="Chunks retrieved per question; unset uses POLICYRAG_TOP_K."
    )
    allow_web: bool = Field(True, description="Whether web search (or its offline fallback) may run.")


class RunContext(SearchScope):
    """Per-run options (the graph's context schema); anything unset falls back to the process settings."""

    correct_threshold: float | None = Field(
        None, ge=0, le=1, description="Best-chunk confidence for the CORRECT route; unset uses the fitted value."
    )
    incorrect_threshold: float | None = Field(
        None,
        ge=0,
        le=1,
        description="Below this best-chunk confidence the route is INCORRECT; unset uses the fitted value.",
    )
    generator: str = Field(
        "auto", description="auto (the configured chat model, else offline), offline, groq, or provider:model."
    )
    llm_grader: bool = Field(False, description="Also ask the configured chat model whether each chunk is relevant.")
    retrieval_mode: RetrievalMode = Field(
        "hybrid", description="Candidate order: dense, sparse, hybrid (RRF) or rerank."
    )
    tenant: str = Field(
        "default", description="Whose web-search cache the run uses (the service sets it from the caller's key)."
    )

    def k(self, settings: Settings) -> int:
        return self.top_k or settings.top_k

    def thresholds(self, settings: Settings) -> tuple[float, float]:
        """(CORRECT from, INCORRECT below)."""
        correct = settings.correct_threshold if self.correct_threshold is None else self.correct_threshold
        incorrect = settings.incorrect_threshold if self.incorrect_threshold is None else self.incorrect_threshold
        return correct, incorrect

    def search_filters(self) -> dict[str, Any]:
        """The filters with the collection as one more filter."""
        return {**self.filters, **({"collection": self.collection} if self.collection else {})}


class TrustGrade(BaseModel):
    grade: Literal["high", "medium", "low"]
    rationale: str


class WebAttempt(BaseModel):
    provider: str
    status: Literal["ok", "empty", "failed", "timeout", "skipped", "cached"]
    detail: str


class Step(BaseModel):
    """One node's run: what it decided, how long it took."""

    node: str
    ms: float
    route: Route | None = None
    status: Status | None = None
    detail: str = Field("", description="The same step in words (the trace line).")


class AnswerRecord(BaseModel):
    """The answer to one question with everything needed to check it."""

    question: str = ""
    answer: str = ""
    status: Status = "refused"
    status_detail: str = ""
    route: Route | None = None
    initial_route: Route | None = None
    confidence: float | None = Field(None, description="The best passage's grade: the route is chosen from it.")
    answer_confidence: float | None = Field(
        None,
        description="How far to trust the answer: half how far the best passage stands out from the next one, half "
        "whether the answer's first citation is that passage (generation/confidence.py). None for a refusal.",
    )
    trust_grade: TrustGrade | None = None
    provenance: dict[str, Any] = Field(default_factory=dict, description="Where the best chunk comes from.")
    citations: list[Citation] = Field(default_factory=list)
    coverage_type: str | None = None
    removed_citations: list[str] = Field(default_factory=list)
    evidence: list[Evidence] = Field(
        default_factory=list,
        description="The blocks the answer was written from, or (evidence_used false) the weak ones found.",
    )
    evidence_used: bool = False
    refine_stats: dict[str, int] = Field(default_factory=dict)
    generator: str | None = None
    web_provider: str | None = None
    web_attempts: list[WebAttempt] = Field(default_factory=list)
    cacheable: bool = False
    cache_hit: bool = False
    cache_similarity: float | None = None
    latency_ms: dict[str, float] = Field(default_factory=dict, description="Per node, and the total.")
    steps: list[Step] = Field(default_factory=list)
    trace: list[str] = Field(default_factory=list, description="The decisions, in words.")

    def nodes(self) -> list[str]:
        """The nodes that ran, in order."""
        return [step.node for step in self.steps]


CoverageVerdict = Literal["same", "different", "only_a", "only_b"]


class ClauseValues(BaseModel):
    """One wording's clause on a compare point, with the values it states."""

    citation: str
    document: str
    chunk_id: str
    page: int | None = None
    section_key: str | None = None
    benefit_name: str | None = None
    coverage_type: str | None = None
    values: list[str] = Field(default_factory=list)
    value: str = ""
    text: str = ""


class ComparePoint(BaseModel):
    point: str
    verdict: CoverageVerdict
    a: ClauseValues | None = None
    b: ClauseValues | None = None
    differing: list[str] = Field(default_factory=list)


class CompareSide(BaseModel):
    """One wording's own answer to the compare question."""

    side: Literal["a", "b"]
    label: str
    filters: dict[str, Any] = Field(default_factory=dict)
    answer: str = ""
    status: Status = "refused"
    status_detail: str = ""
    generator: str | None = None
    coverage_type: str | None = None
    citations: list[Citation] = Field(default_factory=list)
    evidence: list[Evidence] = Field(default_factory=list)
    note: str = Field("", description="How the clauses were searched.")


class CompareRecord(BaseModel):
    """Two wordings on one question: both answers and, per point, same / different / only in one."""

    model_config = ConfigDict(extra="ignore")

    question: str = ""
    sides: list[CompareSide] = Field(default_factory=list)
    points: list[ComparePoint] = Field(default_factory=list)
    summary: str = ""
    latency_ms: dict[str, float] = Field(default_factory=dict)

    def side(self, name: Literal["a", "b"]) -> CompareSide | None:
        return next((s for s in self.sides if s.side == name), None)
