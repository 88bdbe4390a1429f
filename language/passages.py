"""A provision's text as statements an answer can quote whole: sentences, lead-ins with their points.

Legal texts and policy wordings put the answer in lists: "the notification must: (a) ...; (b) ...".
Quoting "(b) give the name ..." alone is a fragment, and quoting the lead-in alone drops the answer.
So a lead-in ending with a colon carries its points, a point knows its lead-in, paragraph numbers
("1.", "(15)") and point markers are kept apart from the words, and headings are marked as labels.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

from language.sentences import is_heading, split_sentences

POINT_RE = re.compile(r"^\s*(\(?(?:[a-z]{1,2}|[ivx]{1,5}|\d{1,2})[.)]|[-•*])\s+(?=\S)", re.I)
_PARAGRAPH_NUMBER_RE = re.compile(r"^\s*(?:\d{1,2}(?:\.\d{1,2})*\.?|\(\d{1,3}\))\s+(?=\S)")
# "provided that: i. X ii. Y" in one line; not a reference to points ("in Article 14(1), points (a), (b) and (c)",
# "referred to in point (a) of the first subparagraph")
_INLINE_POINT_RE = re.compile(
    r"(?<!\bpoint)(?<!\bpoints)(?<!\bparagraph)(?<!,)(?<!\) and)(?<!\) or)"
    r"\s(?=\(?(?:[a-h]|[ivx]{1,4})[.)]\s+(?!(?:of|and|or)\b)\S)"
)
_LEAD_IN_RE = re.compile(r":\s*$")
_ROMAN_RE = re.compile(r"^\(?[ivx]{1,5}[.)]$", re.I)  # the markers of points within a point ("(iii)")
LIST_ITEM_MAX_WORDS = 15  # a heading's first point this short is an item of a list, not a paragraph of rules
_CLAUSE_NUMBER_RE = re.compile(r"^\d{1,2}(?:\.\d{1,2})*\.?\s+")
# A title line: "Caldicott Principle 5 - Everyone with access ...", "Article 9(1) - Processing ...: prohibition" -
# a name, a dash, a subject, and no full stop at the end.
_TITLE_LINE_RE = re.compile(r"^[A-Z][^\n]{0,80}\s[-–—]\s[^\n]{1,120}[^.;:?!]$")
# A title that states a rule ("... - Access to confidential information should be on a strict need-to-know basis",
# "... - The duty to share information ... is as important as ..."): a principle's own wording, quotable.
_RULE_TITLE_RE = re.compile(r"\b(should|must|shall|ought to)\b|^(the|every|everyone|each|all|no)\b.*\b(is|are)\b", re.I)
_LABEL_RE = re.compile(r"^([A-Z][\w-]*(?: [\w-]+){0,2}):\s")  # "Scope: this is ...", "Transfer-degraded codes: where"
# In text from PDFs a point's marker often ends the line before it ("... provided that: i.").
_TRAILING_MARKER_RE = re.compile(r"\s(\(?(?:[ivx]{1,4}|[a-h])[.)])\s*$", re.I)


@dataclass(frozen=True)
class Statement:
    """One quotable statement of a passage."""

    text: str  # without a leading paragraph number or point marker
    marker: str = ""  # the point marker, "(c)" or "ii." or "-", for a point
    lead_in: str = ""  # for a point: the lead-in it completes
    points: tuple[str, ...] = ()  # for a lead-in: its points, each with its marker
    heading: bool = False
    position: int = 0
    label: str = ""  # the label its paragraph opens with ("Scope", "History"), lower-case

    @property
    def whole(self) -> str:
        """The statement as an answer would quote it: a lead-in with every point, a point after its lead-in."""
        if self.points:
            return f"{self.text} {' '.join(self.points)}"
        if self.lead_in:
            return f"{self.lead_in} {self.marker} {self.text}"
        return self.text

    def scored_text(self, whole_lists: bool) -> str:
        """What a question is matched against: a list answer's lead-in with its points, any other answer's
        lead-in alone; a point after its lead-in."""
        return self.whole if whole_lists or not self.points else self.text


def strip_number(text: str) -> str:
    """'1. In the case of ...' -> 'In the case of ...'; '(15) ‘data concerning health’ means' -> '‘data ...'."""
    return _PARAGRAPH_NUMBER_RE.sub("", text, count=1).strip()


def _split_point(text: str) -> tuple[str, str]:
    """(marker, words) of a point: "(c) standard clauses" -> ("(c)", "standard clauses"); ("", text) otherwise."""
    match = POINT_RE.match(text)
    return (match.group(1), text[match.end() :].strip()) if match else ("", text.strip())


class _Builder:
    """Collects statements, attaching each point to the open lead-in."""

    def __init__(self) -> None:
        self.out: list[Statement] = []
        self.lead: int | None = None  # index of the open lead-in
        self.pending = ""  # a marker that ended the previous line: it belongs to the next one
        self.heading: int | None = None  # index of a heading just read: lettered points after it are its list
        self.sub: int | None = None  # index of a point that is itself a lead-in ("(j) publishing, by ...:")

    def sentence(self, text: str, line_start: bool, label: str) -> None:
        if self.lead is not None and not self.out[self.lead].points and text[:1].islower():
            lead_in = self.out[self.lead]  # "shall not apply if:" then "the processing ..." on the next line
            self.out[self.lead] = replace(lead_in, text=f"{lead_in.text} {text}")
            self.lead = None
            return
        title = line_start and _TITLE_LINE_RE.match(text) is not None
        if title and _RULE_TITLE_RE.search(subject := re.split(r"\s[-–—]\s", text, maxsplit=1)[1]):
            self.out.append(Statement(f"{subject}.", position=len(self.out), label="title"))
            return
        heading = is_heading(text) or title
        self.out.append(Statement(text, heading=heading, position=len(self.out), label=label))
        self.lead = len(self.out) - 1 if _LEAD_IN_RE.search(text) else None
        self.heading = len(self.out) - 1 if heading else None

    def point(self, marker: str, text: str) -> None:
        if self.heading is not None and len(text.split()) > LIST_ITEM_MAX_WORDS:
            self.heading = None  # decided by the first point after the heading
        if self.lead is None and self.heading is not None:
            # "3.9.1 List of Critical Illnesses" then "(a) Cancer ...": the heading is the list's lead-in, so a
            # list question gets every point, not one illness or a note below them (lettered paragraphs each
            # stating a rule, "(a) Expenses related to ... shall be excluded until ...", stay paragraphs)
            head = self.out[self.heading]
            name = _CLAUSE_NUMBER_RE.sub("", head.text).rstrip(" :.")
            self.out[self.heading] = Statement(f"{name}:", position=head.position, label=head.label)
            self.lead, self.heading = self.heading, None
        lead_in = self.out[self.lead] if self.lead is not None else None
        if lead_in is not None and self.lead is not None:
            self.out[self.lead] = replace(lead_in, points=(*lead_in.points, f"{marker} {text}"))
        said_under = lead_in.text if lead_in else ""
        if self.sub is not None and _ROMAN_RE.match(marker):
            # "(iii) all refusal decisions ... within 30 working days" reads under "(j) publishing, by electronic ...:"
            sub = self.out[self.sub]
            self.out[self.sub] = replace(sub, points=(*sub.points, f"{marker} {text}"))
            said_under = f"{sub.lead_in} {sub.marker} {sub.text}".strip()
        elif _LEAD_IN_RE.search(text):
            self.sub = len(self.out)
        else:
            self.sub = None
        self.out.append(Statement(text, marker=marker, lead_in=said_under, position=len(self.out)))


def statements(text: str) -> list[Statement]:
    """The statements of a passage, in order; each point attached to the lead-in before it. A numbered line
    ("1.") is a point inside an open lead-in and a paragraph number otherwise."""
    return list(_statements(text))


@lru_cache(maxsize=8192)  # a block's statements are read for every question it answers (Statement is frozen)
def _statements(text: str) -> tuple[Statement, ...]:
    built = _Builder()
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if built.pending:
            line, built.pending = f"{built.pending} {line}", ""
        if trailing := _TRAILING_MARKER_RE.search(line):
            kept = line[: trailing.start()].rstrip()
            if _LEAD_IN_RE.search(kept) or built.lead is not None or POINT_RE.match(kept):
                line, built.pending = kept, trailing.group(1)
        marker, body = _split_point(line)
        numbered = bool(_PARAGRAPH_NUMBER_RE.match(line))
        if marker and (not numbered or built.lead is not None):
            built.point(marker, body)
            continue
        label_match = _LABEL_RE.match(line)
        label = label_match.group(1).lower() if label_match else ""
        for index, sentence in enumerate(strip_number(s) for s in split_sentences(line)):
            for part in _INLINE_POINT_RE.split(sentence) if built.lead is not None or ": " in sentence else [sentence]:
                part_marker, part_body = _split_point(part)
                if part_marker and built.lead is not None:
                    built.point(part_marker, part_body)
                elif part.strip():
                    built.sentence(part.strip(), index == 0 and len(split_sentences(line)) == 1, label)
    return tuple(built.out)


MAX_SCORED_TEXTS = 128


def scored_texts(text: str) -> list[str]:
    """Every text the offline answerer may match a question against in this passage (a statement's
    `scored_text` either way), in order, once each and never none: ingest stores a vector for each, so
    answering embeds only the question."""
    out = dict.fromkeys(
        t for s in statements(text) if not s.heading for t in (s.scored_text(True), s.scored_text(False))
    )
    return list(out)[:MAX_SCORED_TEXTS] or [text.strip()]


# paragraphs that say what a text is (its scope, history, source), the same for every document of a series
ABOUT_THE_TEXT = frozenset({"scope", "history", "source", "background", "status"})


def without_notes_on_the_text(text: str) -> str:
    """The text without its paragraphs about the text itself ("Scope: this is one of the eight Caldicott
    Principles ..."): words every principle shares are no sign that one of them answers."""
    return "\n".join(
        line
        for line in text.splitlines()
        if not ((m := _LABEL_RE.match(line)) and m.group(1).lower() in ABOUT_THE_TEXT)
    )
