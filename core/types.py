"""Shared value types: chunks as stored, evidence as retrieved, citations as answered."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_serializer

Origin = Literal["local", "web", "secondary"]
# The hard ceiling on a chunk's text and on an evidence record's (a provision of 400 long words fits;
# a file with no spaces or no sentence ends is cut by characters rather than kept as one chunk).
CHUNK_MAX_CHARS = 5000

# How much a source binds, highest first: the enacting terms of a law or the clauses of a contract;
# recitals (they explain, they do not bind); official guidance and standards; records (facts about a
# person, binding on nothing); commentary; the open web.
Authority = Literal["binding", "recital", "guidance", "record", "commentary", "web"]
AUTHORITY_LABELS: dict[str, str] = {
    "binding": "law or contract clause",
    "recital": "recital",
    "guidance": "official guidance or standard",
    "record": "record",
    "commentary": "commentary",
    "web": "web",
}
_AUTHORITY_BY_TYPE: dict[str, Authority] = {
    "primary_law": "binding",
    "policy_wording": "binding",
    "regulator_guidance": "guidance",
    "technical_standard": "guidance",
    "patient_record": "record",
    "commentary": "commentary",
}


def authority_of(document_type: str, kind: str | None = None, origin: str = "local") -> Authority:
    """A chunk's authority from its loader's kind (recital, annex, article) and its document type."""
    if origin == "web":
        return "web"
    if origin == "secondary":
        return "commentary"
    if kind == "recital":
        return "recital"
    return _AUTHORITY_BY_TYPE.get(document_type, "commentary")


@dataclass(frozen=True)
class SparseVector:
    """Indices and values as Qdrant wants them."""

    indices: list[int]
    values: list[float]


MAX_CONTEXT_TITLE = 120  # longer titles (an act's full title) give way to the instrument's short name


class Chunk(BaseModel):
    """One retrievable unit: a provision (or a piece of a long one) with its provenance."""

    model_config = ConfigDict(frozen=True)

    chunk_id: str
    collection: str
    doc_id: str
    position: int = Field(description="0-based order of the chunk inside its document.")
    text: str = Field(max_length=CHUNK_MAX_CHARS)
    citation: str
    section: str = ""
    page: int | None = None
    refs: list[str] = Field(default_factory=list, description="Reference tokens such as ref_9_2_h.")
    metadata: dict[str, Any] = Field(default_factory=dict, description="The document sidecar and loader extras.")
    match_context: bool = Field(True, description="Whether the context line is part of what is matched.")

    @property
    def context(self) -> str:
        """What the chunk is part of, in one line, most specific heading first: `GDPR | Article 33 - Notification
        of a personal data breach ... | Section 2 - Security of personal data | CHAPTER IV - ...`; a policy's name
        and clause heading; a patient record's kind. Matched (dense and sparse), never shown as evidence."""
        title = str(self.metadata.get("title", ""))
        instrument = str(self.metadata.get("instrument", ""))
        name = title if len(title) <= MAX_CONTEXT_TITLE else instrument or title[:MAX_CONTEXT_TITLE]
        headings = [part.strip() for part in reversed(self.section.split(" / ")) if part.strip()]
        return " | ".join([name, *(h for h in headings if h.lower() not in name.lower())]).strip(" |")

    @property
    def embed_text(self) -> str:
        """What the dense and sparse representations are built from: the context line, then the text."""
        return f"{self.context}\n{self.text}" if self.context and self.match_context else self.text

    def payload(self) -> dict[str, Any]:
        """The Qdrant payload: metadata first, so chunk-level fields win over document-level ones."""
        return {
            **self.metadata,
            "chunk_id": self.chunk_id,
            "collection": self.collection,
            "doc_id": self.doc_id,
            "position": self.position,
            "text": self.text,
            "citation": self.citation,
            "document_citation": self.metadata.get("citation", self.citation),
            "section": self.section,
            "page": self.page,
            "refs": self.refs,
        }


# Payload fields an evidence record shows (insurance clause facts and the kind of unit).
PUBLIC_METADATA = frozenset(
    ("coverage_type", "section_key", "benefit_name", "provider", "product", "variant", "category", "kind")
)
# How each coverage type of a policy clause reads in an answer ("unknown" says nothing).
COVERAGE_LABELS = {
    "covered": "Covered",
    "not_covered": "Not covered",
    "conditional": "Covered with conditions",
    "unknown": "",
}


class Scores(BaseModel):
    """Every score kept apart, so grading can explain itself."""

    dense: float | None = None
    sparse: float | None = None
    fused: float | None = None
    rerank: float | None = None
    reference_match: bool = False


def _public_url(url: str | None) -> str:
    """Where a source is published; a file:// URL (a path on the server, from an older index) is not shown."""
    return "" if not url or url.lower().startswith("file:") else url


def _bounded(text: str) -> str:
    """At most CHUNK_MAX_CHARS: an index built before the ceiling, or a web page, cannot flood an answer."""
    return text[:CHUNK_MAX_CHARS]


# The item a patient record's list holds when the record has no entry of its kind (written at ingest, quoted
# by the answer as "No allergies and intolerances are recorded for ...").
NONE_RECORDED = "none recorded in this record"


class Evidence(BaseModel):
    """A retrieved passage with full provenance, from the local index or the web."""

    chunk_id: str
    text: Annotated[str, AfterValidator(_bounded)]
    citation: str
    document: str = Field(description="The document title.")
    collection: str = ""
    doc_id: str = ""
    page: int | None = None
    section: str = ""
    url: str = Field("", description="Where the source text is published.")
    publisher: str = ""
    jurisdiction: str = ""
    document_type: str = ""
    version: str = ""
    effective_from: str = ""
    hierarchy_rank: int = 4
    authority: Authority = Field("commentary", description="How much the source binds (see core.types.Authority).")
    origin: Origin = "local"
    retrieved_at: str | None = None
    refs: list[str] = Field(default_factory=list, exclude=True, description="Reference tokens (internal).")
    scores: Scores = Field(default_factory=Scores)
    confidence: float | None = Field(None, description="Graded relevance in [0, 1].")
    grade_explanation: str = ""
    highlights: list[str] = Field(default_factory=list, description="The sentences that support the question.")
    metadata: dict[str, Any] = Field(default_factory=dict, description="Extra payload (insurance fields, ...).")

    @classmethod
    def from_payload(cls, payload: dict[str, Any], scores: Scores) -> Evidence:
        known = _PAYLOAD_FIELDS
        fields = {key: payload[key] for key in known if payload.get(key) is not None}
        extra = {
            k: v for k, v in payload.items() if k not in known and k not in {"title", "effective_from", "source_url"}
        }
        return cls(
            **fields,
            document=payload.get("title", ""),
            url=_public_url(payload.get("source_url")),
            authority=payload.get("authority")
            or authority_of(str(payload.get("document_type", "")), payload.get("kind")),
            effective_from=str(payload.get("effective_from", "")),
            scores=scores,
            metadata=extra,
        )

    @field_serializer("metadata")
    def _public_metadata(self, metadata: dict[str, Any]) -> dict[str, Any]:
        """Records show the payload fields users act on, not the whole sidecar."""
        return {k: v for k, v in metadata.items() if k in PUBLIC_METADATA}

    @property
    def strips(self) -> str:
        """What the generator sees: the supporting sentences when refined, otherwise the whole text."""
        return " ".join(self.highlights) if self.highlights else self.text


# The fields an evidence record takes from a payload as they are (the rest are derived or set later): computed
# once, not for each of the hundreds of records a question makes.
_PAYLOAD_FIELDS = frozenset(Evidence.model_fields) - {
    "document",
    "scores",
    "metadata",
    "origin",
    "retrieved_at",
    "effective_from",
    "confidence",
    "grade_explanation",
    "highlights",
    "url",
    "authority",
}


class Citation(BaseModel):
    """A `[Source i]` in an answer, resolved to the clause behind it."""

    source: int
    citation: str
    document: str
    url: str = ""
    page: int | None = None
    chunk_id: str = ""
    origin: Origin = "local"
