"""Process settings from the environment and `.env`, typed and documented.

Per-run choices (collection, filters, k, thresholds, web on/off) travel in the graph's run
context instead; nothing below is read inside a node.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, SecretStr
from pydantic_settings import BaseSettings, JsonConfigSettingsSource, PydanticBaseSettingsSource, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parents[1]
# Routing thresholds fitted by `policyrag eval` (evidence in evals/results/calibration.json); the
# environment still wins over this file, and the file over the defaults below.
THRESHOLDS_FILE = REPO_ROOT / "config" / "thresholds.json"
# The answer-confidence model fitted by `python -m evals.confidence_fit --apply` on labelled development answers
# (evidence in evals/results/confidence_fit.json); read like the thresholds.
ANSWER_CONFIDENCE_FILE = REPO_ROOT / "config" / "answer_confidence.json"


class Settings(BaseSettings):
    """Everything a PolicyRAG process needs to know about its environment."""

    model_config = SettingsConfigDict(env_prefix="POLICYRAG_", env_file=".env", extra="ignore", populate_by_name=True)

    data_dir: Path = Field(REPO_ROOT / "data", description="All state: indexes, catalog, caches, SQLite files.")
    corpus_dir: Path = Field(REPO_ROOT / "corpus", description="The shipped corpus, one folder per collection.")
    models_dir_override: Path | None = Field(
        None,
        validation_alias=AliasChoices("POLICYRAG_MODELS_DIR", "models_dir"),
        description="Where prepared model folders live (default: data_dir/models).",
    )

    embedding_model: str = Field(
        "sentence-transformers/all-MiniLM-L6-v2",
        description="fastembed model name; the default is served from installed files, others need internet.",
    )
    embedding_variant: Literal["optimized", "int8"] = Field(
        "optimized",
        description="Local MiniLM file: 'int8' as shipped, or 'optimized' (fused graph, per-channel int8).",
    )
    embedding_model_path: Path | None = Field(
        None, description="A folder with model.onnx and tokenizer files; overrides the built-in set-up."
    )
    embedding_sessions: int = Field(
        0,
        ge=0,
        le=16,
        description="ONNX sessions of one thread each that concurrent questions embed with at once (0: one per core).",
    )
    reranker_model: str | None = Field(
        None, description="fastembed TextCrossEncoder name; unset uses the offline sentence reranker."
    )
    reranker_model_path: Path | None = Field(None, description="Folder with onnx/model.onnx for the cross-encoder.")

    qdrant_url: str | None = Field(
        None,
        validation_alias=AliasChoices("QDRANT_URL", "POLICYRAG_QDRANT_URL"),
        description="Qdrant server URL; unset uses embedded Qdrant Edge under data_dir.",
    )
    qdrant_api_key: SecretStr | None = Field(
        None, validation_alias=AliasChoices("QDRANT_API_KEY", "POLICYRAG_QDRANT_API_KEY")
    )
    index_vector_memory: Literal["cold", "cached"] = Field(
        "cold",
        description="Embedded index: how generations built from now on keep their vectors ('policyrag ingest "
        "--rebuild' builds one at once). 'cold' maps the files and reads the pages queries touch; 'cached' reads every "
        "32 MB chunk file whole into memory when a reader opens it (about 160 MB per open reader, mostly empty space "
        "at this corpus size).",
    )
    index_memo_chunks: int = Field(
        4096,
        ge=0,
        description="Embedded index: chunks whose payload and stored vectors a reader keeps in memory once read (a "
        "published generation never changes; a new one starts empty). About 10 KB a chunk; 0 reads every time.",
    )
    qdrant_collection: str = Field("policyrag", description="Collection (alias) name on a Qdrant server.")

    groq_api_key: SecretStr | None = Field(
        None,
        validation_alias=AliasChoices("GROQ_API_KEY", "POLICYRAG_GROQ_API_KEY"),
        description="Enables the Groq generator.",
    )
    groq_model: str = Field("llama-3.3-70b-versatile", description="Groq chat model.")
    groq_base_url: str | None = Field(None, description="Override Groq's API address (tests, proxies).")
    chat_model: str | None = Field(
        None, description="Any LangChain chat model as 'provider:model' for init_chat_model; wins over Groq."
    )
    llm_timeout_s: float = Field(20.0, gt=0, description="Timeout of one chat-model call.")
    judge_model: str | None = Field(
        None,
        description="Chat model for the optional LLM-as-judge scores in `policyrag eval` ('groq', 'groq:MODEL' or "
        "'provider:model'); unset means no judge, and the offline evaluation does not need one.",
    )
    tavily_api_key: SecretStr | None = Field(
        None, validation_alias=AliasChoices("TAVILY_API_KEY", "POLICYRAG_TAVILY_API_KEY"), description="Enables Tavily."
    )
    tavily_base_url: str | None = Field(None, description="Override Tavily's API address (tests, proxies).")
    web_providers: list[str] = Field(
        ["tavily", "duckduckgo", "secondary"],
        description="Web-search providers in order; 'secondary' is the offline commentary collection.",
    )
    web_timeout_s: float = Field(4.0, gt=0, description="A provider slower than this is skipped.")
    web_cache_ttl_s: float = Field(3600.0, ge=0, description="How long a web result is reused.")
    web_cache_max_entries: int = Field(
        1000, ge=1, description="Web results kept at most (least recently used go first)."
    )
    web_failure_cooldown_s: float = Field(60.0, ge=0, description="How long a failed provider is skipped.")
    correct_threshold: float = Field(0.6, ge=0, le=1, description="Best-chunk confidence for CORRECT.")
    incorrect_threshold: float = Field(0.45, ge=0, le=1, description="Below this best-chunk confidence: INCORRECT.")
    answer_confidence_model: dict[str, float] = Field(
        {"intercept": -1.0, "standout": 2.0},
        description="Logistic weights of the answer's signals (generation/confidence.py) for its answer confidence.",
    )
    high_trust_answer_confidence: float = Field(
        0.5, ge=0, le=1, description="Below this answer confidence, high trust in the evidence is shown as medium."
    )
    top_k: int = Field(
        5, ge=1, le=50, description="Evidence chunks kept per question after grading (a run may ask for another k)."
    )
    candidate_pool: int = Field(
        20, ge=1, le=200, description="Chunks retrieved per question before grading chooses the evidence."
    )
    authority_order: bool = Field(
        True, description="Rank a binding provision before a recital or commentary that supports the same point."
    )
    follow_citations: bool = Field(
        True, description="Bring the provisions that retrieved recitals, guidance and commentary name into the pool."
    )
    fusion: Literal["rrf", "dbsf"] = Field(
        "dbsf", description="How Qdrant fuses the dense and sparse lists: distribution-based (dbsf) or rank (rrf)."
    )
    query_expansion: bool = Field(True, description="Add the law's terms for the plain words a question uses.")
    compare_top_k: int = Field(
        6, ge=1, le=50, description="Clauses retrieved per wording when two wordings are compared."
    )
    policy_collections: list[str] = Field(["insurance"], description="Collections holding policy wordings.")
    policy_evidence_floor: float = Field(
        0.5,
        ge=0,
        le=1,
        description="Policy questions: refuse without calling the model below this mean confidence of the top clauses.",
    )
    policy_max_clauses: int = Field(
        4, ge=1, le=20, description="Policy questions: most clauses given to the generator."
    )

    anonymous_read: bool = Field(True, description="Allow read requests without an API key (local use).")
    cors_origins: list[str] = Field(default_factory=list, description="Origins allowed by CORS (none by default).")
    max_body_bytes: int = Field(65536, ge=1024, description="Largest request body the service accepts.")
    graph_batch_max_inputs: int = Field(
        16, ge=1, le=1000, description="Most questions one LangServe /graph/batch call may carry."
    )
    cache_threshold: float = Field(
        0.95, ge=0.5, le=1.0, description="Cosine at which a question reuses a cached answer."
    )
    cache_max_entries: int = Field(1000, ge=0, description="Semantic cache size (least recently used go first).")
    cache_ttl_s: float = Field(3600.0, ge=0, description="How long a cached answer is reused.")
    telemetry_redaction: Literal["none", "hash", "drop"] = Field(
        "none", description="How question text is kept in telemetry: as is, hashed, or not at all."
    )
    key_credit_capacity: float = Field(60.0, gt=0, description="Token bucket size of an API key, in credits.")
    key_credit_refill_per_s: float = Field(1.0, gt=0, description="Credits a key regains per second.")
    key_rate_per_minute: int = Field(120, ge=1, description="Requests per minute per key.")
    anonymous_credit_capacity: float = Field(30.0, gt=0)
    anonymous_credit_refill_per_s: float = Field(0.5, gt=0)
    anonymous_rate_per_minute: int = Field(60, ge=1)

    crash_at: str = Field("", description="Testing only: the named ingest step at which the process kills itself.")

    max_file_bytes: int = Field(
        32 * 1024 * 1024, ge=1024, description="Largest file ingest reads; a larger one is skipped, named."
    )
    chunk_words: int = Field(400, ge=50, description="Target chunk size in words for long provisions.")
    chunk_overlap_words: int = Field(50, ge=0, description="Overlap between pieces of a split provision.")
    chunk_context: bool = Field(
        True,
        description="Match each chunk with its context line (instrument, headings) in the dense and sparse text; "
        "off only to measure what it adds. Takes effect on documents (re)ingested after the change (--rebuild).",
    )

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        fitted = JsonConfigSettingsSource(settings_cls, json_file=[THRESHOLDS_FILE, ANSWER_CONFIDENCE_FILE])
        return init_settings, env_settings, dotenv_settings, file_secret_settings, fitted

    @property
    def index_dir(self) -> Path:
        return self.data_dir / "index"

    @property
    def models_dir(self) -> Path:
        return self.models_dir_override or self.data_dir / "models"

    @property
    def catalog_path(self) -> Path:
        return self.data_dir / "catalog.sqlite"

    @property
    def keys_path(self) -> Path:
        return self.data_dir / "keys.sqlite"

    @property
    def telemetry_path(self) -> Path:
        return self.data_dir / "telemetry.sqlite"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings, read once."""
    return Settings()
