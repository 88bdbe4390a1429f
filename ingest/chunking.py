"""Turn provision-sized units into chunks of about `chunk_words` words, never over CHUNK_MAX_CHARS characters.

A unit that fits is one chunk. A longer one is split recursively at the largest boundary that
works (blank line, point such as `(a)`, line, sentence, word, and at last plain characters for text
with no spaces), packed greedily, with a small overlap so a sentence cut at a boundary is still
found. A piece that starts at point `(c)` of paragraph `GDPR Art. 13(2)` is cited
`GDPR Art. 13(2)(c)`; its reference tokens name every point it holds. A chunk of a printed document
(a PDF) cites the page it starts on: `Arogya Sanjeevani Policy cl. 4.2, p. 5`.
"""

from __future__ import annotations

import re
import uuid
from typing import NamedTuple

from core.types import CHUNK_MAX_CHARS, Chunk, authority_of
from ingest.units import LoadedDocument, Unit
from language.references import (
    citation_tokens,
    identifier_tokens,
    parse_references,
    pointed_lists,
    provision_tokens,
    qualified_clause,
)

_POINT_LINE_RE = re.compile(r"^\(([a-z]{1,2}|[ivx]{1,5})\)\s", re.M)
_SENTENCE_RE = re.compile(r"(?<=[.;:!?])\s+(?=[A-Z(\"'‘“0-9])")
_NAMESPACE = uuid.UUID("6f1c1f1e-2b7a-4d0e-9a51-3c0b8d5e7a10")

_SEPARATORS: list[re.Pattern[str] | None] = [
    re.compile(r"\n\s*\n"),
    re.compile(r"\n(?=\([a-z]{1,2}\)\s)"),
    re.compile(r"\n"),
    _SENTENCE_RE,
    None,  # words
]


def _word_count(text: str) -> int:
    return len(text.split())


def _fits(text: str, max_words: int) -> bool:
    """Within the word target and the character ceiling (the length is checked first: it costs nothing)."""
    return len(text) <= CHUNK_MAX_CHARS and _word_count(text) <= max_words


def _pieces(text: str, level: int) -> list[str]:
    separator = _SEPARATORS[level]
    if separator is None:
        return text.split()
    return [p.strip() for p in separator.split(text) if p.strip()]


def split_text(text: str, max_words: int, overlap_words: int, level: int = 0) -> list[str]:
    """Pieces of at most about max_words words and at most CHUNK_MAX_CHARS characters, split at the
    largest boundary that works."""
    text = text.strip()
    if _fits(text, max_words):
        return [text]
    if level >= len(_SEPARATORS):  # one "word" over the ceiling: nothing left to split at but characters
        return [text[start : start + CHUNK_MAX_CHARS] for start in range(0, len(text), CHUNK_MAX_CHARS)]
    pieces = _pieces(text, level)
    if len(pieces) <= 1:
        return split_text(text, max_words, overlap_words, level + 1)
    joiner = " " if _SEPARATORS[level] in (None, _SENTENCE_RE) else "\n"
    out: list[str] = []
    current: list[str] = []
    for piece in pieces:
        if not _fits(piece, max_words):
            if current:
                out.append(joiner.join(current))
                current = []
            out.extend(split_text(piece, max_words, overlap_words, level + 1))
            continue
        if current and not _fits(joiner.join([*current, piece]), max_words):
            out.append(joiner.join(current))
            current = _overlap_tail(current, overlap_words)
            while current and not _fits(joiner.join([*current, piece]), max_words):
                current.pop(0)  # an overlap of long pieces gives way to the next piece
        current.append(piece)
    if current:
        out.append(joiner.join(current))
    return out


def _overlap_tail(pieces: list[str], overlap_words: int) -> list[str]:
    """The last pieces of a full chunk, up to overlap_words words, to start the next one."""
    tail: list[str] = []
    for piece in reversed(pieces):
        if _word_count(" ".join([piece, *tail])) > overlap_words:
            break
        tail.insert(0, piece)
    return tail


_ROMAN = {"i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x"}


def _letter_points(piece: str, previous: str | None) -> list[str]:
    """Letter points that start a line, in order; (i) after (h) is a point, otherwise a sub-point."""
    points: list[str] = []
    last = previous
    for label in _POINT_LINE_RE.findall(piece):
        follows = last is not None and len(label) == 1 and len(last) == 1 and ord(label) == ord(last) + 1
        if label in _ROMAN and not follows:
            continue
        if len(label) == 1:
            points.append(label)
            last = label
    return points


def _paragraph_groups(citation: str) -> int:
    """How many (...) groups follow the article number: 1 for Art. 13(2), 2 for Art. 9(2)(h)."""
    match = re.search(r"Art\.\s*\d+[a-z]?((?:\([^)]*\))*)", citation)
    return match.group(1).count("(") if match else 0


def _point_citation(base: str, piece: str, previous: str | None, continues: bool) -> tuple[str, list[str], str | None]:
    """Citation and points of one piece of a split paragraph; continues the previous point if needed."""
    if _paragraph_groups(base) != 1:
        return base, [], previous
    points = _letter_points(piece, previous)
    starts_with_point = bool(points) and bool(_POINT_LINE_RE.match(piece)) and piece.startswith(f"({points[0]})")
    if not points:
        # Only a piece that continues the previous point mid-sentence belongs to that point;
        # text after a finished point (a closing subparagraph, a summary) belongs to the paragraph.
        return (f"{base}({previous})", [previous], previous) if previous and continues else (base, [], None)
    if not starts_with_point:
        return base, ([previous] if previous else []) + points, points[-1]
    label = f"({points[0]})" if len(points) == 1 else f"({points[0]})-({points[-1]})"
    return f"{base}{label}", points, points[-1]


class Piece(NamedTuple):
    """One chunk-sized piece of a unit: its text, citation, reference tokens and the page it starts on."""

    text: str
    citation: str
    refs: list[str]
    page: int | None


def _starts(text: str, pieces: list[str]) -> list[int]:
    """Where each piece starts in the unit's text (pieces overlap and are rejoined, so find their first words)."""
    offsets: list[int] = []
    cursor = 0
    for piece in pieces:
        pattern = r"\s+".join(re.escape(word) for word in piece.split()[:8])
        found = re.compile(pattern).search(text, cursor) if pattern else None
        cursor = found.start() if found else cursor
        offsets.append(cursor)
    return offsets


def chunk_unit(unit: Unit, max_words: int, overlap_words: int) -> list[Piece]:
    """Each piece of a unit with its citation, reference tokens and page."""
    pieces = split_text(unit.text, max_words, overlap_words)
    own_refs = citation_tokens(unit.citation)
    if len(pieces) == 1:
        # a paragraph kept whole still answers for each of its points: Art. 5(1) carries ref_5_1_c
        points = _letter_points(pieces[0], None) if _paragraph_groups(unit.citation) == 1 else []
        for point in points:
            own_refs += [t for t in citation_tokens(f"{unit.citation}({point})") if t not in own_refs]
        return [Piece(pieces[0], unit.citation, own_refs, unit.page)]
    out = []
    previous: str | None = None
    continues = False
    for piece, start in zip(pieces, _starts(unit.text, pieces)):
        citation, points, previous = _point_citation(unit.citation, piece, previous, continues)
        continues = not piece.rstrip().endswith((".", ";", ":"))
        refs = list(own_refs)
        for point in points:
            refs += [t for t in citation_tokens(f"{unit.citation}({point})") if t not in refs]
        out.append(Piece(piece, citation, refs, unit.page_at(start)))
    return out


def with_page(citation: str, page: int | None) -> str:
    """`Arogya Sanjeevani Policy cl. 4.2` on page 5 is cited `Arogya Sanjeevani Policy cl. 4.2, p. 5`."""
    return f"{citation}, p. {page}" if page is not None else citation


def chunk_id(collection: str, doc_id: str, position: int, text: str) -> str:
    """Deterministic point id: the same chunk of the same document always gets the same id."""
    return str(uuid.uuid5(_NAMESPACE, f"{collection}\x00{doc_id}\x00{position}\x00{text}"))


def clause_links(text: str, citation: str, doc_id: str) -> tuple[list[str], list[str]]:
    """A policy clause's own clause token within its wording, and those of the clauses of the same wording that
    hold its list ("a Critical Illness listed in Clause 3.9.1"): retrieval follows such a pointer to the list.
    A clause merely mentioned ("admitted under Clause 3.1") is not followed: it is another rule."""
    own = [qualified_clause(".".join(ref.path), doc_id) for ref in parse_references(citation) if ref.kind == "clause"]
    return own, [token for token in pointed_lists(text, doc_id) if token not in own]


def chunk_document(
    document: LoadedDocument, collection: str, max_words: int, overlap_words: int, match_context: bool = True
) -> list[Chunk]:
    """All chunks of a loaded document, in order, each with the document's metadata (and, unless measuring
    without it, its context line in what is matched)."""
    chunks: list[Chunk] = []
    for unit in document.units:
        metadata = {**document.metadata, **unit.extra, "content_hash": document.content_hash}
        metadata["authority"] = metadata.get("authority") or authority_of(
            str(metadata.get("document_type", "")), metadata.get("kind")
        )
        for text, provision, refs, page in chunk_unit(unit, max_words, overlap_words):
            citation = with_page(provision, page)
            refs = refs + [t for t in identifier_tokens(f"{citation}\n{text}") if t not in refs]
            if metadata.get("document_type") == "policy_wording":
                own, explains = clause_links(text, citation, document.doc_id)
                refs += [t for t in own if t not in refs]
            elif metadata["authority"] == "binding":
                explains = []
            else:
                explains = provision_tokens(text, metadata.get("instrument"))
            position = len(chunks)
            chunks.append(
                Chunk(
                    chunk_id=chunk_id(collection, document.doc_id, position, text),
                    collection=collection,
                    doc_id=document.doc_id,
                    position=position,
                    text=text,
                    citation=citation,
                    section=unit.section,
                    page=page,
                    refs=refs,
                    metadata={**metadata, "explains": explains},
                    match_context=match_context,
                )
            )
    return _definitions_linked(chunks, document.doc_id)


def _definitions_linked(chunks: list[Chunk], doc_id: str) -> list[Chunk]:
    """A wording's definition of a term points, like a list pointer, to the clause of the same wording headed by that
    term ("2.10 Free Look Period" means ... -> "8.2 Free Look Period": not applicable to this Group Policy): what a
    term means is followed by what the wording rules on it."""
    ruling: dict[str, list[str]] = {}
    for c in chunks:
        name, clause = str(c.metadata.get("benefit_name") or "").lower(), c.metadata.get("clause_id")
        if name and clause and c.metadata.get("section_key") != "definitions":
            ruling.setdefault(name, []).append(qualified_clause(str(clause), doc_id))
    linked = []
    for c in chunks:
        name = str(c.metadata.get("benefit_name") or "").lower()
        tokens = ruling.get(name, []) if c.metadata.get("section_key") == "definitions" else []
        explains = list(c.metadata.get("explains") or [])
        added = [t for t in dict.fromkeys(tokens) if t not in explains]
        linked.append(c.model_copy(update={"metadata": {**c.metadata, "explains": explains + added}}) if added else c)
    return linked
