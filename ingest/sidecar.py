"""The JSON sidecar that carries a document's provenance (see corpus/README.md)."""

from __future__ import annotations

import hashlib
import json
from datetime import date
from enum import IntEnum
from pathlib import Path
from typing import Any, Literal

from pydantic import AnyUrl, BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

DocumentType = Literal[
    "primary_law",
    "regulator_guidance",
    "technical_standard",
    "commentary",
    "patient_record",
    "policy_wording",
]


class HierarchyRank(IntEnum):
    """Authority of a source: lower is stronger."""

    PRIMARY_LAW = 1
    REGULATOR_GUIDANCE = 2
    TECHNICAL_STANDARD = 3
    COMMENTARY = 4


# Spellings other corpora use for the same document types.
DOCUMENT_TYPE_SYNONYMS = {
    "official_technical_standard": "technical_standard",
    "secondary_commentary": "commentary",
    "guidance": "regulator_guidance",
    "law": "primary_law",
    "legislation": "primary_law",
    "policy": "policy_wording",
}


class SidecarError(ValueError):
    """A sidecar that is missing, unreadable or invalid; the message names the file."""


class Sidecar(BaseModel):
    """Provenance of one document; every chunk of the document carries it."""

    model_config = ConfigDict(extra="allow", frozen=True)

    title: str = Field(min_length=1)
    publisher: str = Field(min_length=1)
    jurisdiction: str = Field(min_length=1)
    document_type: DocumentType
    version: str = Field(min_length=1)
    effective_from: date
    source_url: AnyUrl | None = Field(None, description="Where the text is published; none for a local file.")
    citation: str = Field(min_length=1)
    content_hash: str = Field(pattern=r"^[0-9a-f]{64}$")
    hierarchy_rank: int = Field(ge=1, le=4)
    instrument: str | None = None
    category: str | None = None
    provider: str | None = None
    product: str | None = None
    variant: str | None = None
    uin: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _accept_common_spellings(cls, data: Any) -> Any:
        """Sidecars from other corpora: `article` (or the title) stands in for a missing citation;
        document-type synonyms are mapped to ours."""
        if not isinstance(data, dict):
            return data
        data = dict(data)
        if not data.get("citation"):
            data["citation"] = data.get("article") or data.get("title")
        if isinstance(data.get("document_type"), str):
            data["document_type"] = DOCUMENT_TYPE_SYNONYMS.get(data["document_type"], data["document_type"])
        return data

    @field_validator("title", "publisher", "citation", "version", "jurisdiction")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be blank")
        return value.strip()


def sha256_bytes(data: bytes) -> str:
    """The content hash used in sidecars."""
    return hashlib.sha256(data).hexdigest()


def sidecar_path_for(document: Path) -> Path:
    """Where a document's sidecar lives: NAME.meta.json for JSON documents, NAME.json otherwise."""
    if document.suffix.lower() in {".json", ".jsonl"}:
        return document.with_name(document.name[: -len(document.suffix)] + ".meta.json")
    meta = document.with_suffix(".meta.json")
    return meta if meta.exists() else document.with_suffix(".json")


def read_sidecar(path: Path) -> Sidecar:
    """Parse and validate a sidecar file, with an error message that names it."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise SidecarError(f"{path}: sidecar not found") from exc
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SidecarError(f"{path}: sidecar is not valid JSON ({exc})") from exc
    if not isinstance(raw, dict):
        raise SidecarError(f"{path}: sidecar must be a JSON object")
    try:
        return Sidecar.model_validate(raw)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'sidecar'}: {err['msg']}" for err in exc.errors()
        )
        raise SidecarError(f"{path}: invalid sidecar ({problems})") from exc
