"""PDF documents through pypdf, keeping the page number of every line.

Two clean-ups make PDF text behave like the text it was typeset from: running headers and footers
(lines repeated on most pages, page numbers) are dropped, and lines wrapped by the layout are
joined back into their sentence, so a clause heading stays a heading and a sentence stays whole.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from pathlib import Path

from pypdf import PdfReader
from pypdf.errors import PyPdfError

from ingest.structure import Line
from ingest.units import LoaderError

_PAGE_NUMBER_RE = re.compile(r"^\s*(page\s*)?\d{1,4}(\s*(of|/)\s*\d{1,4})?\s*$", re.I)
_ITEM_START_RE = re.compile(
    r"^\s*(\d{1,2}(\.\d{1,2}){0,4}\.?\s|\([a-z0-9ivx]{1,4}\)\s|[a-z0-9ivx]{1,4}\)\s|[•●▪◦\-–*]\s)", re.I
)
_END_RE = re.compile(r"[.:;!?]\s*$")


_PAGE_LABEL_RE = re.compile(r"\bpage\W*#(?:\s*(?:of|/)\s*#)?")


def _signature(line: str) -> str:
    """Digits ignored, and "Page 3 of 25" written the same as "Page | 25" (one header, two layouts)."""
    return _PAGE_LABEL_RE.sub("page #", re.sub(r"\d+", "#", " ".join(line.split())).lower())


def _running_lines(pages: list[list[str]]) -> set[str]:
    """Lines (digits ignored) that appear on at least half of the pages: headers and footers."""
    if len(pages) < 3:
        return set()
    counts = Counter(sig for lines in pages for sig in {_signature(line) for line in lines if line.strip()})
    return {sig for sig, n in counts.items() if n >= max(3, len(pages) // 2)}


def _looks_like_heading(line: str) -> bool:
    words = line.split()
    return len(words) <= 10 and (line.isupper() or bool(re.match(r"^\d{1,2}(\.\d{1,2}){0,4}\.?\s+\S", line)))


def unwrap(lines: list[str]) -> list[str]:
    """Join layout-wrapped lines back into sentences; keep headings and list items on their own lines."""
    out: list[str] = []
    for raw in lines:
        line = " ".join(raw.split())
        if not line:
            continue
        if out and not _END_RE.search(out[-1]) and not _ITEM_START_RE.match(line) and not _looks_like_heading(out[-1]):
            joined = out[-1][:-1] + line if out[-1].endswith("-") and line[:1].islower() else f"{out[-1]} {line}"
            out[-1] = joined
        else:
            out.append(line)
    return out


def load_pdf(path: Path) -> list[Line]:
    logging.getLogger("pypdf").setLevel(logging.ERROR)  # font warnings on real insurer PDFs are noise
    try:
        reader = PdfReader(path)
        if reader.is_encrypted:
            raise LoaderError(f"{path}: the PDF is encrypted")
        pages = [(page.extract_text() or "").splitlines() for page in reader.pages]
    except LoaderError:
        raise
    except (PyPdfError, OSError, ValueError, KeyError, TypeError) as exc:
        raise LoaderError(f"{path}: unreadable PDF ({exc})") from exc
    if not any(line.strip() for lines in pages for line in lines):
        raise LoaderError(f"{path}: the PDF has no extractable text (a scan needs OCR first)")
    running = _running_lines(pages)
    out: list[Line] = []
    for number, lines in enumerate(pages, start=1):
        kept = [
            line
            for line in lines
            if line.strip() and _signature(line) not in running and not _PAGE_NUMBER_RE.match(line)
        ]
        out += [(line, number) for line in unwrap(kept)]
    return out
