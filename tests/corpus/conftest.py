"""Shared helpers for the shipped-corpus tests: every document by its citation."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from ingest.sidecar import Sidecar, read_sidecar, sha256_bytes

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
DOCUMENT_SUFFIXES = {".txt", ".md", ".json"}


@dataclass(frozen=True)
class ShippedDocument:
    path: Path
    sidecar: Sidecar
    data: bytes

    @property
    def text(self) -> str:
        return self.data.decode("utf-8")


def load_collection(collection: str) -> dict[str, ShippedDocument]:
    """All documents of a shipped collection, keyed by sidecar citation."""
    documents: dict[str, ShippedDocument] = {}
    for path in sorted((CORPUS / collection).iterdir()):
        if path.suffix not in DOCUMENT_SUFFIXES or path.name.endswith(".meta.json"):
            continue
        if path.suffix == ".json" and path.with_suffix(".txt").exists():
            continue  # a text document's sidecar
        if path.suffix == ".json" and not path.with_name(path.stem + ".meta.json").exists():
            continue
        meta = path.with_name(path.stem + ".meta.json") if path.suffix == ".json" else path.with_suffix(".json")
        sidecar = read_sidecar(meta)
        assert sidecar.citation not in documents, f"duplicate citation {sidecar.citation}: {path}"
        documents[sidecar.citation] = ShippedDocument(path, sidecar, path.read_bytes())
    return documents


def assert_valid_document(document: ShippedDocument) -> None:
    """A shipped document has non-empty text and a sidecar whose hash matches its bytes."""
    assert document.text.strip(), f"{document.path} is empty"
    assert document.sidecar.content_hash == sha256_bytes(document.data), f"{document.path}: content_hash is stale"


@pytest.fixture(scope="session")
def health_governance() -> dict[str, ShippedDocument]:
    return load_collection("health_governance")


@pytest.fixture(scope="session")
def secondary() -> dict[str, ShippedDocument]:
    return load_collection("secondary")
