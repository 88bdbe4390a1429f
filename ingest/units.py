"""What loaders produce: documents made of provision-sized units with their own citations."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class Unit:
    """One provision (article paragraph, clause, principle, FHIR resource group) before size-splitting."""

    text: str
    citation: str
    section: str = ""
    page: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class LoadedDocument:
    """A parsed source file: its sidecar metadata and its units, ready to chunk."""

    doc_id: str
    source: Path
    content_hash: str
    metadata: dict[str, Any]
    units: list[Unit]

    @property
    def citation(self) -> str:
        return str(self.metadata.get("citation", self.doc_id))


class LoaderError(ValueError):
    """A file that cannot be ingested; the message names the file and the reason."""
