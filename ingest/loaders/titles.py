"""A human short title for a PDF, for its citations: `Arogya Sanjeevani Policy cl. 4.2, p. 5`, never the file stem.

Candidates are tried in order: the PDF's own title (when it is a title, not a leftover file name such as
`CARE SUPREME KYPB - A5 (2).cdr`), the running header or footer (where wordings print the product name on
every page), then the first page's lines. Each is cleaned of what is not the name (UINs, page numbers,
`Product Name:` labels, a trailing `(ASP-N)`, a ` - National` variant, `Wordings`), and the first that
reads as a title wins: two to eight words, mostly letters, not an insurer's legal name or an address.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_CODE_RE = re.compile(
    r"\b(?:UIN|CIN|IRDAI\s+Reg(?:n|istration)?\.?\s+No\.?)\s*[:\-–.]?\s*[A-Z0-9]{2,}\b|\b[A-Z]{5,}\d{2,}[A-Z0-9]*V\d{6}\b",
    re.I,
)
_PAGE_RE = re.compile(r"\bpage\s*\d+(?:\s*(?:of|/)\s*\d+)?\b", re.I)
_LABEL_RE = re.compile(r"^\s*(?:product|plan|policy)\s+name\s*[:\-–]\s*", re.I)
_PARTS_RE = re.compile(r"\s+[-–—|]\s+|\s*[/|]\s*|\s*[-–—]\s*$|,\s*")
_PARENTHESIS_RE = re.compile(r"\s*\([^)]*\)\s*")
_WORDING_RE = re.compile(r"\s+wordings?$", re.I)
_FILE_NAME_RE = re.compile(r"\.[a-z0-9]{2,4}$|_|^microsoft\s|^untitled\b", re.I)
_NOT_A_NAME_RE = re.compile(
    r"\b(?:limited|ltd|company|co\.|office|road|floor|street|plot|premises|regd|registered|house|"
    r"table of contents|contents|know your|page)\b|\d{5,}|:\s*$",
    re.I,
)
MIN_WORDS, MAX_WORDS = 2, 8


def _cleaned(candidate: str) -> str:
    """The name inside one candidate line: labels, codes and page numbers removed, first part kept."""
    text = _LABEL_RE.sub("", " ".join(candidate.split()))
    text = _PAGE_RE.sub(" ", _CODE_RE.sub(" ", text))
    parts = [p.strip(" .:;-–—") for p in _PARTS_RE.split(text)]
    first = next((p for p in parts if p), "")
    name = " ".join(_WORDING_RE.sub("", _PARENTHESIS_RE.sub(" ", first)).strip(" .:;-–—").split())
    return name.title() if name.isupper() else name


def _is_title(name: str) -> bool:
    words = name.split()
    letters = sum(c.isalpha() for c in name)
    return (
        MIN_WORDS <= len(words) <= MAX_WORDS
        and letters >= 0.7 * len(name.replace(" ", ""))
        and not _NOT_A_NAME_RE.search(name)
        and not name.endswith(".")
    )


def short_title(metadata_title: str | None, running: Iterable[str], first_page: Iterable[str]) -> str | None:
    """The first candidate that reads as a title, cleaned; None when nothing does (the caller keeps the stem)."""
    if metadata_title and not _FILE_NAME_RE.search(metadata_title.strip()):
        name = _cleaned(metadata_title)
        if _is_title(name):
            return name
    for line in [*running, *first_page]:
        name = _cleaned(line)
        if _is_title(name):
            return name
    return None
