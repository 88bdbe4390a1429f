"""Find provisions in plain text so that a chunk lines up with one provision.

Three profiles, chosen by the document type:
- legal (laws): Chapter / Section / Article headings, numbered paragraphs `1.` or `(1)`;
  the paragraph number joins the citation (`GDPR Art. 33` + `1.` -> `GDPR Art. 33(1)`);
- clause (policy wordings): numbered clause headings `3.1.2 ...` and named headings such as
  Definitions, Exclusions, Waiting Period;
- generic (guidance, commentary): Markdown and upper-case headings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ingest.units import Unit

Line = tuple[str, int | None]  # text, page number

_CHAPTER_RE = re.compile(r"^(chapter|section|part|title)\s+([IVXLC]+|\d+)\s*(?:[-–—:.]\s*.*)?$", re.I)
_ARTICLE_RE = re.compile(r"^(?:article|art\.)\s+(\d{1,3}[a-z]?)\b\s*(?:[-–—:.]\s*(.*))?$", re.I)
_ANNEX_RE = re.compile(r"^annex\s+([IVXLC]+)\b", re.I)
_NOTE_RE = re.compile(r"^(?:editorial\s+)?note:\s", re.I)
_PARAGRAPH_RE = re.compile(r"^(?:(\d{1,2})\.|\((\d{1,2})\))\s+\S")
_CLAUSE_RE = re.compile(r"^(\d{1,2}(?:\.\d{1,2}){0,3})\.?\s+([A-Z(].{1,120})$")
_NAMED_HEADINGS = (
    "definitions",
    "exclusions",
    "general exclusions",
    "specific exclusions",
    "permanent exclusions",
    "waiting period",
    "waiting periods",
    "benefits",
    "coverage",
    "scope of cover",
    "claims procedure",
    "claim procedure",
    "general terms and conditions",
    "terms and conditions",
    "grace period",
    "free look period",
    "schedule of benefits",
    "table of benefits",
)
_MARKDOWN_RE = re.compile(r"^#{1,6}\s+(.+)$")
_ARTICLE_IN_CITATION_RE = re.compile(r"\bArt\.\s*\d+", re.I)


def profile_for(document_type: str) -> str:
    """The structure profile that fits a document type."""
    if document_type == "primary_law":
        return "legal"
    if document_type == "policy_wording":
        return "clause"
    return "generic"


@dataclass
class _Open:
    """A unit being read: its lines, each with the page it is printed on."""

    citation: str
    section: str
    page: int | None
    lines: list[Line] = field(default_factory=list)

    def add(self, text: str, page: int | None) -> None:
        self.lines.append((text, page))
        if self.page is None:
            self.page = page

    def unit(self) -> Unit | None:
        while self.lines and not self.lines[0][0].strip():
            self.lines.pop(0)
        text = "\n".join(line for line, _ in self.lines).rstrip()
        if not text:
            return None
        breaks: list[tuple[int, int]] = []
        offset, page = 0, self.page
        for line, number in self.lines:
            if number is not None and number != page and line.strip():
                breaks.append((offset, number))
                page = number
            offset += len(line) + 1
        return Unit(text, self.citation, self.section, self.page, page_breaks=breaks)


def _instrument_prefix(citation: str) -> str:
    """`GDPR Art. 33` -> `GDPR`; a citation without an article keeps its whole text."""
    match = _ARTICLE_IN_CITATION_RE.search(citation)
    return citation[: match.start()].strip() if match else citation.strip()


def _article_number(citation: str) -> str | None:
    match = re.search(r"\bArt\.\s*(\d+[a-z]?)", citation, re.I)
    return match.group(1) if match else None


def _article_level(citation: str) -> str:
    """`GDPR Art. 9(2)(h)` -> `GDPR Art. 9`."""
    match = re.search(r"\bArt\.\s*\d+[a-z]?", citation, re.I)
    return citation[: match.end()] if match else citation


def _has_paragraph(citation: str) -> bool:
    """True when the citation already names a paragraph, e.g. `GDPR Art. 9(2)(h)`."""
    match = _ARTICLE_IN_CITATION_RE.search(citation)
    return match is not None and "(" in citation[match.end() :]


def has_few_words(text: str, limit: int) -> bool:
    """At most `limit` words, found without splitting all of a long line (one line may be a whole file)."""
    return len(text.split(maxsplit=limit)) <= limit


def _is_named_heading(line: str) -> bool:
    cleaned = re.sub(r"^[\d.\s]+", "", line).strip(" :").lower()
    return cleaned in _NAMED_HEADINGS


def _is_upper_heading(line: str) -> bool:
    letters = [c for c in line if c.isalpha()]
    return 3 <= len(letters) and len(line.split()) <= 10 and all(c.isupper() for c in letters)


def _legal_units(lines: list[Line], citation: str) -> list[Unit]:
    prefix = _instrument_prefix(citation)
    base = citation
    chapter = section = ""
    units: list[Unit] = []
    current: _Open | None = None
    article_title = ""

    def close() -> None:
        nonlocal current
        if current and (unit := current.unit()):
            units.append(unit)
        current = None

    for text, page in lines:
        stripped = text.strip()
        if not stripped:
            if current:
                current.add("", None)
            continue
        if heading := _CHAPTER_RE.match(stripped):
            close()
            is_subsection = heading.group(1).lower() == "section"
            chapter = chapter if is_subsection else stripped
            section = _join(chapter, stripped) if is_subsection else stripped
            continue
        if article := _ARTICLE_RE.match(stripped):
            close()
            number = article.group(1)
            base = citation if _article_number(citation) == number else f"{prefix} Art. {number}".strip()
            article_title = stripped
            continue
        if annex := _ANNEX_RE.match(stripped):
            citation_ = f"{prefix} Annex {annex.group(1).upper()}".strip()
            if current is None or current.citation != citation_:
                close()
                current = _Open(citation_, _join(section, f"Annex {annex.group(1).upper()}"), page)
            current.add(stripped, page)
            continue
        if _NOTE_RE.match(stripped):
            close()  # an editorial note belongs to the article, not to its last paragraph
            current = _Open(_article_level(base), _join(section, article_title), page, [(stripped, page)])
            continue
        paragraph = _PARAGRAPH_RE.match(stripped)
        if paragraph and not _has_paragraph(base):
            close()
            number = paragraph.group(1) or paragraph.group(2)
            current = _Open(f"{base}({number})", _join(section, article_title), page, [(stripped, page)])
            continue
        if current is None:
            current = _Open(base, _join(section, article_title), page)
        current.add(stripped, page)
    close()
    return _fold_lead_ins(units)


def _fold_lead_ins(units: list[Unit]) -> list[Unit]:
    """A short lead-in ("For the purposes of this Regulation:") joins the paragraph after it."""
    out: list[Unit] = []
    pending, pending_page = "", None
    for unit in units:
        if has_few_words(unit.text, 11) and "(" not in unit.citation.split("Art.")[-1]:
            pending_page = unit.page if not pending else pending_page
            pending = f"{pending}\n{unit.text}".strip()
            continue
        if pending:
            unit = unit.after(pending, pending_page)
            pending = ""
        out.append(unit)
    if pending:
        out.append(Unit(pending, units[-1].citation, units[-1].section, pending_page))
    return out


def _join(*parts: str) -> str:
    return " / ".join(p for p in parts if p)


_TOP_CLAUSE_RE = re.compile(r"^(\d{1,2})\.?\s+([A-Z][^.,;:]{1,70}):?$")  # "8. Moratorium Period:" too
_LIST_ITEM_RE = re.compile(r"^(\d{1,2})\.?\s+\S")
_SUB_CLAUSE_RE = re.compile(r"^(\d{1,2})((?:\.\d{1,2}){1,4})\.?\s+([A-Z(].*)$")


def _is_top_heading(text: str, number: int, last_top: int) -> bool:
    """`7. EXCLUSIONS` after section 6, not item 7 of a numbered list inside section 6. One heading may be
    skipped (`13. Disclosure to information norm:` is not title-cased): `14. Domiciliary Hospitalization` after
    12 still starts a clause, or every clause after a missed heading would be swallowed by the one before it."""
    words = text.split()
    skipped_one = last_top > 0 and number == last_top + 2
    if (number != last_top + 1 and not skipped_one) or len(words) > 8:
        return False
    capitalised = sum(1 for w in words if w[:1].isupper() or not w[:1].isalpha())
    return text.isupper() or capitalised >= max(1, len(words) - 2)


def _clause_units(lines: list[Line], citation: str) -> list[Unit]:
    """Policy wordings: a unit per numbered clause (3.1.2) or named section, with insurance fields.

    Top-level section numbers must follow in sequence and sub-clauses must sit under their own
    section, so numbered lists inside a clause (exclusion lists, conditions 1-6) stay in it.
    """
    from ingest.policy import benefit_name, coverage_type, section_key

    units: list[Unit] = []
    current: _Open | None = None
    top_number, top_heading = 0, ""
    heading = ""
    list_run = 0  # a bare numbered list 1, 2, ... n seen since the last heading: n+1 continues it (annexure lists)

    def close() -> None:
        nonlocal current
        if current and (unit := current.unit()):
            top_key = section_key(top_heading)
            own_key = section_key(heading, top_heading)
            # inside Definitions or Exclusions the section decides (a defined "Co-payment" is a definition),
            # except that waiting periods listed among exclusions are waiting periods (a defined "Waiting
            # Period" or "Grace Period ... waiting periods" stays a definition)
            exception = top_key == "exclusions" and own_key == "waiting_period"
            key = top_key if top_key in ("definitions", "exclusions") and not exception else own_key
            unit.extra.update(
                {
                    "section_key": key,
                    "benefit_name": benefit_name(heading) if heading else "",
                    "coverage_type": coverage_type(unit.text, key),
                    "clause_id": unit.citation.rsplit(" cl. ", 1)[1] if " cl. " in unit.citation else "",
                }
            )
            units.append(unit)
        current = None

    for text, page in lines:
        stripped = text.strip()
        if not stripped:
            continue
        top = _TOP_CLAUSE_RE.match(stripped)
        sub = _SUB_CLAUSE_RE.match(stripped)
        named = _is_named_heading(stripped) and len(stripped.split()) <= 6
        item = _LIST_ITEM_RE.match(stripped)
        continues_list = item is not None and list_run >= 2 and int(item.group(1)) == list_run + 1
        if top and not continues_list and _is_top_heading(top.group(2).strip(), int(top.group(1)), top_number):
            close()
            list_run = 0
            top_number, top_heading, heading = int(top.group(1)), stripped, stripped
            current = _Open(f"{citation} cl. {top_number}", stripped, page, [(stripped, page)])
            continue
        if sub and (top_number == 0 or int(sub.group(1)) == top_number):
            close()
            list_run = 0
            number = sub.group(1) + sub.group(2)
            top_number = top_number or int(sub.group(1))
            heading = stripped
            current = _Open(f"{citation} cl. {number}", _join(top_heading, stripped[:80]), page, [(stripped, page)])
            continue
        if named:
            close()
            list_run = 0
            top_heading = heading = stripped
            current = _Open(
                f"{citation} - {stripped.title() if stripped.isupper() else stripped}",
                stripped,
                page,
                [(stripped, page)],
            )
            continue
        if item:
            number = int(item.group(1))
            list_run = 1 if number == 1 else number if number == list_run + 1 else list_run
        if current is None:
            heading = ""
            current = _Open(citation, top_heading, page)
        current.add(stripped, page)
    close()
    return units


def _generic_units(lines: list[Line], citation: str) -> list[Unit]:
    units: list[Unit] = []
    current = _Open(citation, "", None)
    for text, page in lines:
        stripped = text.strip()
        markdown = _MARKDOWN_RE.match(stripped)
        # the length first: one line may be a whole file, too long to list its letters and words
        if markdown or (len(stripped) < 80 and _is_upper_heading(stripped) and current.lines):
            if unit := current.unit():
                units.append(unit)
            heading = markdown.group(1) if markdown else stripped
            current = _Open(citation, heading, page, [] if markdown else [(stripped, page)])
            continue
        current.add(stripped, page)
    if unit := current.unit():
        units.append(unit)
    return units


def split_units(lines: list[Line], citation: str, document_type: str) -> list[Unit]:
    """Provision-sized units of a document, each with its citation, section and first page."""
    profile = profile_for(document_type)
    if profile == "legal":
        return _legal_units(lines, citation)
    if profile == "clause":
        return _clause_units(lines, citation)
    return _generic_units(lines, citation)


def text_lines(text: str, page: int | None = None) -> list[Line]:
    """Lines of a plain text, all on one page (or none)."""
    return [(line, page) for line in text.splitlines()]
