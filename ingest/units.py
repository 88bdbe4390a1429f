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
    page_breaks: list[tuple[int, int]] = field(default_factory=list)  # (offset in text, page that starts there)

    def page_at(self, offset: int) -> int | None:
        """The page the text at this offset is printed on (a long clause or section crosses pages)."""
        page = self.page
        for start, number in self.page_breaks:
            if start > offset:
                break
            page = number
        return page

    def after(self, lead_in: str, page: int | None) -> Unit:
        """This unit with a lead-in (on the given page) put in front of its text."""
        shift = len(lead_in) + 1
        breaks = [(shift, self.page)] if self.page is not None and page != self.page else []
        breaks += [(start + shift, number) for start, number in self.page_breaks]
        return Unit(f"{lead_in}\n{self.text}", self.citation, self.section, page, self.extra, breaks)


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
