"""Official EU legal texts as EUR-Lex publishes them: Formex 4 XML and the CONVEX XHTML.

Both are rendered into the corpus text convention (`Article 9 - Title`, `1.` paragraphs, `(a)`
points) and cut by the legal structure splitter, so `Article 9 / paragraph 2 / point (h)` becomes
the citation `GDPR Art. 9(2)(h)`. Recitals and annexes become their own units.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from ingest.structure import split_units
from ingest.units import LoaderError, Unit

KNOWN_ACTS = {
    "2016/679": ("GDPR", "2016/679", "2018-05-25", "https://eur-lex.europa.eu/eli/reg/2016/679/oj"),
    "2025/327": ("EHDS", "2025/327", "2025-03-25", "https://eur-lex.europa.eu/eli/reg/2025/327/oj"),
}
_ACT_NUMBER_RE = re.compile(r"\b(\d{4}/\d{1,4})\b")


def act_metadata(title: str) -> dict[str, Any]:
    """Sidecar-like metadata inferred from the act's title (a sidecar, if present, wins)."""
    number_match = _ACT_NUMBER_RE.search(title)
    number = number_match.group(1) if number_match else "unknown"
    instrument, version, effective, url = KNOWN_ACTS.get(
        number, (f"Regulation (EU) {number}", number, "1970-01-01", "https://eur-lex.europa.eu/")
    )
    return {
        "title": " ".join(title.split()),
        "publisher": "EUR-Lex",
        "jurisdiction": "EU",
        "document_type": "primary_law",
        "version": version,
        "effective_from": effective,
        "source_url": url,
        "citation": instrument,
        "instrument": instrument,
        "hierarchy_rank": 1,
    }


def _units(
    recitals: list[tuple[str, str]], article_lines: list[str], annexes: list[tuple[str, str]], instrument: str
) -> list[Unit]:
    units = [Unit(text, f"{instrument} Recital {n}", "Recitals", extra={"kind": "recital"}) for n, text in recitals]
    for unit in split_units([(line, None) for line in article_lines], instrument, "primary_law"):
        unit.extra["kind"] = "article_paragraph"
        units.append(unit)
    units += [Unit(text, f"{instrument} Annex {n}", f"Annex {n}", extra={"kind": "annex"}) for n, text in annexes]
    return units


# Formex 4 XML


def _formex_text(element: ET.Element) -> str:
    """Text of an element with quotes restored and list items on their own lines."""
    parts: list[str] = []

    def walk(el: ET.Element) -> None:
        if el.tag == "QUOT.START":
            parts.append("‘")
        elif el.tag == "QUOT.END":
            parts.append("’")
        elif el.tag == "NOTE":
            parts.append(el.tail or "")
            return
        elif el.tag in ("ITEM", "P", "ALINEA") and parts:
            parts.append("\n")
        elif el.tag == "NO.P":
            parts.append((el.text or "").strip() + " ")
            parts.append((el.tail or "").replace("\n", " "))
            return
        if el.text and el.tag != "NO.P":
            parts.append(el.text)
        for child in el:
            walk(child)
        if el.tail:
            parts.append(el.tail)

    walk(element)
    text = "".join(parts)
    return "\n".join(" ".join(line.split()) for line in text.splitlines() if line.strip())


def load_formex(path: Path) -> tuple[dict[str, Any], list[Unit]]:
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as exc:
        raise LoaderError(f"{path}: not well-formed XML ({exc})") from exc
    terms = root.find(".//ENACTING.TERMS")
    if terms is None:
        raise LoaderError(f"{path}: XML is not a Formex legal act (no ENACTING.TERMS)")
    title_el = root.find(".//TITLE/TI")
    title = _formex_text(title_el) if title_el is not None else path.stem
    metadata = act_metadata(title)
    recitals = []
    for consid in root.iterfind(".//CONSID"):
        number = (consid.findtext(".//NO.P") or "").strip("() ")
        txt = consid.find(".//TXT")
        if number and txt is not None:
            recitals.append((number, _formex_text(txt)))
    lines: list[str] = []
    for element in terms.iter():
        if element.tag == "DIVISION":
            ti = element.find("TITLE/TI")
            sti = element.find("TITLE/STI")
            heading = " - ".join(_formex_text(e) for e in (ti, sti) if e is not None)
            if heading:
                lines.append(heading.replace("\n", " "))
        elif element.tag == "ARTICLE":
            subtitle = element.find("STI.ART")
            title = (
                f"{element.findtext('TI.ART', '').strip()} - {_formex_text(subtitle) if subtitle is not None else ''}"
            )
            lines.append(title.rstrip(" -"))
            for child in element:
                if child.tag == "PARAG":
                    number = (child.findtext("NO.PARAG") or "").strip()
                    body = "\n".join(_formex_text(a) for a in child.findall("ALINEA"))
                    lines.extend(f"{number} {body}".strip().splitlines())
                elif child.tag == "ALINEA":
                    lines.extend(_formex_text(child).splitlines())
    annexes: list[tuple[str, str]] = []
    for annex in root.iterfind(".//ANNEX"):
        number = (annex.findtext("TITLE/TI/P") or "").replace("ANNEX", "").strip() or str(len(annexes) + 1)
        annexes.append((number, _formex_text(annex)))
    return metadata, _units(recitals, lines, annexes, metadata["instrument"])


# CONVEX XHTML


class _ConvexParser(HTMLParser):
    """Collects the lines of each top-level subdivision (rct_N, art_N, anx_N) and chapter headings."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.title_parts: list[str] = []
        self.blocks: list[tuple[str, list[str]]] = []  # (id, lines) in document order
        self._stack: list[tuple[str, str | None]] = []  # (tag, subdivision id opened here)
        self._current: str | None = None
        self._line: list[str] = []
        self._rows: list[list[str]] = []  # open table rows, innermost last
        self._class = ""
        self._skip_depth: int | None = None  # inside a footnote or a footnote marker

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        ident = attributes.get("id") or ""
        cls = attributes.get("class") or ""
        opened = None
        if tag == "div" and re.fullmatch(r"(rct|art|anx)_[0-9IVX]+|cpt_[IVX]+(\.sct_\d+)?", ident):
            opened = ident
            self._current = ident
            self.blocks.append((ident, []))
        if self._skip_depth is None and (cls == "oj-note" or (tag == "span" and cls == "oj-super")):
            self._skip_depth = len(self._stack)
        self._stack.append((tag, opened))
        if tag == "tr":
            self._rows.append([])
        if tag == "p":
            self._line = []
            self._class = cls

    def handle_endtag(self, tag: str) -> None:
        while self._stack:
            open_tag, opened = self._stack.pop()
            if opened:
                self._current = next((o for _, o in reversed(self._stack) if o), None)
            if open_tag == tag:
                break
        skipping = self._skip_depth is not None
        if self._skip_depth is not None and len(self._stack) <= self._skip_depth:
            self._skip_depth = None
        if tag == "p" and not skipping:
            text = " ".join("".join(self._line).split())
            if not text:
                return
            if self._class == "oj-doc-ti" and self._current is None:
                self.title_parts.append(text)
            elif self._rows:
                self._rows[-1].append(text)
            else:
                self._add_line(text)
        if tag == "tr" and self._rows:
            row = " ".join(self._rows.pop())
            if row and self._rows:
                self._rows[-1].append(row)
            elif row:
                self._add_line(row)

    def _add_line(self, text: str) -> None:
        if self._current and self.blocks and self.blocks[-1][0] == self._current:
            self.blocks[-1][1].append(text)

    def handle_data(self, data: str) -> None:
        if self._skip_depth is None:
            self._line.append(data)


def load_convex(path: Path) -> tuple[dict[str, Any], list[Unit]]:
    parser = _ConvexParser()
    try:
        parser.feed(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise LoaderError(f"{path}: not UTF-8 ({exc})") from exc
    metadata = act_metadata(" ".join(parser.title_parts) or path.stem)
    recitals, lines, annexes = [], [], []
    for ident, block in parser.blocks:
        if not block:
            continue
        if ident.startswith("rct_"):
            recitals.append((ident[4:], re.sub(r"^\(\d+\)\s*", "", " ".join(block))))
        elif ident.startswith("cpt_"):
            lines.append(" - ".join(block[:2]))
        elif ident.startswith("art_"):
            heading = block[0] if len(block) == 1 else f"{block[0]} - {block[1]}"
            lines.append(heading)
            lines.extend(block[2:])
        elif ident.startswith("anx_"):
            annexes.append((ident[4:], "\n".join(block)))
    if not lines:
        raise LoaderError(f"{path}: no articles found in the EUR-Lex XHTML")
    return metadata, _units(recitals, lines, annexes, metadata["instrument"])


def is_convex(text: str) -> bool:
    return 'class="eli-subdivision"' in text and 'class="oj-ti-art"' in text


def is_formex(head: str) -> bool:
    return "<CONS.ACT" in head or "<ACT" in head or "ENACTING.TERMS" in head
