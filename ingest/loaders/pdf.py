"""PDF documents through pypdf, keeping the page number of every line."""

from __future__ import annotations

import logging
from pathlib import Path

from pypdf import PdfReader
from pypdf.errors import PyPdfError

from ingest.structure import Line
from ingest.units import LoaderError


def load_pdf(path: Path) -> list[Line]:
    logging.getLogger("pypdf").setLevel(logging.ERROR)  # font warnings on real insurer PDFs are noise
    try:
        reader = PdfReader(path)
        if reader.is_encrypted:
            raise LoaderError(f"{path}: the PDF is encrypted")
        pages = [page.extract_text() or "" for page in reader.pages]
    except LoaderError:
        raise
    except (PyPdfError, OSError, ValueError, KeyError, TypeError) as exc:
        raise LoaderError(f"{path}: unreadable PDF ({exc})") from exc
    if not any(page.strip() for page in pages):
        raise LoaderError(f"{path}: the PDF has no extractable text (a scan needs OCR first)")
    return [(line, number) for number, page in enumerate(pages, start=1) for line in page.splitlines()]
