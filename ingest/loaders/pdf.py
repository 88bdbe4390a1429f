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

from pypdf import PasswordType, PdfReader
from pypdf.errors import DependencyError, PyPdfError

from ingest.loaders.titles import short_title
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


def _open(path: Path) -> PdfReader:
    """The reader, decrypted when the PDF has only an owner password (it opens in any viewer without one)."""
    reader = PdfReader(path)
    if reader.is_encrypted and reader.decrypt("") == PasswordType.NOT_DECRYPTED:
        raise LoaderError(
            f"{path}: the PDF needs a password to open; ingest a copy saved without one "
            "(e.g. qpdf --decrypt --password=... in.pdf out.pdf)"
        )
    return reader


def _metadata_title(reader: PdfReader) -> str | None:
    try:
        return reader.metadata.title if reader.metadata else None
    except (PyPdfError, ValueError, KeyError, TypeError):  # a damaged info dictionary is no reason to refuse
        return None


def load_pdf(path: Path) -> tuple[dict[str, str], list[Line]]:
    """(inferred title and citation, lines with their page numbers); raises LoaderError naming the file."""
    logging.getLogger("pypdf").setLevel(logging.ERROR)  # font warnings on real insurer PDFs are noise
    try:
        reader = _open(path)
        pages = [(page.extract_text() or "").splitlines() for page in reader.pages]
        title = _metadata_title(reader)
    except LoaderError:
        raise
    except (PyPdfError, OSError, ValueError, KeyError, TypeError, DependencyError) as exc:
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
    headers = dict.fromkeys(line for lines in pages for line in lines if _signature(line) in running)
    name = short_title(title, headers, next((lines for lines in pages if any(x.strip() for x in lines)), []))
    return ({"title": name, "citation": name} if name else {}), out
