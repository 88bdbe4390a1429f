"""Exact references (articles, paragraphs, points, recitals, principles) as matchable tokens.

`GDPR Art. 9(2)(h)` becomes `ref_9`, `ref_9_2`, `ref_9_2_h` for the chunk that carries it (so a
question about Article 9 finds it too), plus instrument-qualified forms (`gdpr_ref_9_2_h`) so
GDPR Article 9 and EHDS Article 9 can be told apart when the question names the instrument.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

INSTRUMENTS = {
    "gdpr": "gdpr",
    "uk gdpr": "gdpr",
    "general data protection regulation": "gdpr",
    "2016/679": "gdpr",
    "ehds": "ehds",
    "european health data space": "ehds",
    "2025/327": "ehds",
    # how people name the EHDS without its name
    "eu health data rules": "ehds",
    "eu health data law": "ehds",
    "eu health data regulation": "ehds",
    "european health data rules": "ehds",
    "caldicott": "caldicott",
    "ndg": "ndg",
    "national data guardian": "ndg",
}
_INSTRUMENT_RE = re.compile(
    r"\b(" + "|".join(re.escape(name) for name in sorted(INSTRUMENTS, key=len, reverse=True)) + r")\b", re.I
)
_PATH = r"(\d{1,3})((?:\s?\(\s?(?:\d{1,2}|[a-z]{1,2}|[ivx]{1,5})\s?\))*)"
_ARTICLE_RE = re.compile(r"\b(?:articles?|arts?\.?)\s*" + _PATH, re.I)
_BARE_PATH_RE = re.compile(r"(?<![\w(])(\d{1,3})((?:\((?:\d{1,2}|[a-z]{1,2}|[ivx]{1,5})\))+)")
_RANGE_RE = re.compile(r"\b(?:articles|arts\.?)\s*(\d{1,3})\s*(?:to|-|–|and)\s*(\d{1,3})\b", re.I)
_PARAGRAPH_OF_RE = re.compile(
    r"\bparagraph\s+(\d{1,2})\s+of\s+(?:the\s+)?(?:gdpr\s+|ehds\s+)?(?:articles?|arts?\.?)\s*(\d{1,3})", re.I
)
_NAMED_RE = re.compile(r"\b(recital|principle|standard)s?\s+(?:no\.?\s*)?(\d{1,3})\b", re.I)
_ORDINALS = ("first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth").split()
# "the eighth Caldicott principle", "the 3rd data security standard": an ordinal names the provision too
_ORDINAL_NAMED_RE = re.compile(
    r"\b(" + "|".join(_ORDINALS) + r"|\d{1,2}(?:st|nd|rd|th))\s+(?:[a-z]+\s+){0,2}?(recital|principle|standard)\b", re.I
)
_PART_RE = re.compile(r"\(\s?([0-9a-z]{1,5})\s?\)", re.I)
# a policy wording's clause: "Clause 3.9.1", "cl. 4.2" (its path is the dotted number: clause_3_9_1)
_CLAUSE = r"(?:clauses?|cl\.)\s*(\d{1,2}(?:\.\d{1,2}){0,3})(?![\d.]*\d)"
_CLAUSE_RE = re.compile(rf"\b{_CLAUSE}", re.I)


@dataclass(frozen=True)
class Reference:
    """One structured reference: the kind, its path and the instrument if known."""

    kind: str  # "ref" for articles, or "recital", "principle", "standard", "clause"
    path: tuple[str, ...]
    instrument: str | None = None

    def tokens(self, ancestors: bool) -> list[str]:
        """Sparse tokens for this reference; ancestors add ref_9 and ref_9_2 for ref_9_2_h."""
        depths = range(1, len(self.path) + 1) if ancestors else [len(self.path)]
        out: list[str] = []
        for depth in depths:
            base = f"{self.kind}_{'_'.join(self.path[:depth])}"
            out.append(base)
            if self.instrument:
                out.append(f"{self.instrument}_{base}")
        return out


def _path(number: str, parts: str) -> tuple[str, ...]:
    return (number, *(p.lower() for p in _PART_RE.findall(parts)))


def instrument_named(text: str) -> str | None:
    """The instrument a text names first ("GDPR", "the European Health Data Space"), normalised: gdpr, ehds, ..."""
    return _instrument_in(text)


def instruments_named(text: str) -> set[str]:
    """Every instrument a text names, normalised ("The UK GDPR has the same rules" -> {"gdpr"})."""
    return {INSTRUMENTS[m.group(1).lower()] for m in _INSTRUMENT_RE.finditer(text)}


def _instrument_in(text: str) -> str | None:
    match = _INSTRUMENT_RE.search(text)
    return INSTRUMENTS[match.group(1).lower()] if match else None


def parse_references(text: str) -> list[Reference]:
    """All references named in free text (a question or a citation), in order, without duplicates."""
    return list(_parse_references(text))


@lru_cache(maxsize=8192)  # analysis, search, grading and the composer read the same texts' references again and again
def _parse_references(text: str) -> tuple[Reference, ...]:
    instrument = _instrument_in(text)
    found: list[Reference] = []
    spans: list[tuple[int, int]] = []
    for match in _PARAGRAPH_OF_RE.finditer(text):
        found.append(Reference("ref", (match.group(2), match.group(1)), instrument))
        spans.append(match.span())
    for match in _RANGE_RE.finditer(text):
        first, last = int(match.group(1)), int(match.group(2))
        if 0 < last - first <= 15:
            found.extend(Reference("ref", (str(n),), instrument) for n in range(first, last + 1))
            spans.append(match.span())
    for match in _ARTICLE_RE.finditer(text):
        if not any(a <= match.start() < b for a, b in spans):
            found.append(Reference("ref", _path(match.group(1), match.group(2)), instrument))
            spans.append(match.span())
    for match in _BARE_PATH_RE.finditer(text):
        if not any(a <= match.start() < b for a, b in spans):
            found.append(Reference("ref", _path(match.group(1), match.group(2)), instrument))
    for match in _NAMED_RE.finditer(text):
        found.append(Reference(match.group(1).lower(), (match.group(2),), instrument))
    for match in _ORDINAL_NAMED_RE.finditer(text):
        ordinal = match.group(1).lower()
        number = str(_ORDINALS.index(ordinal) + 1) if ordinal in _ORDINALS else ordinal[:-2]
        found.append(Reference(match.group(2).lower(), (number,), instrument))
    for match in _CLAUSE_RE.finditer(text):
        found.append(Reference("clause", tuple(match.group(1).split(".")), None))
    unique: list[Reference] = []
    for ref in found:
        if ref not in unique:
            unique.append(ref)
    return tuple(unique)


# "pursuant to Articles 8, 11, 25 to 39 and 42 and 43": a list of articles, with ranges
_ARTICLE_LIST_RE = re.compile(r"\barticles\s+(\d{1,3}(?:\s*(?:,|\band\b|\bor\b|\bto\b|-|–)\s*\d{1,3}\b)+)", re.I)
_LIST_RANGE_RE = re.compile(r"(\d{1,3})\s*(?:\bto\b|-|–)\s*(\d{1,3})")
MAX_RANGE = 60  # "Articles 12 to 22", "Articles 44 to 49"; a longer span is no list of articles


def articles_listed(text: str) -> set[str]:
    """The article numbers a text lists ("Articles 8, 11, 25 to 39 and 42": 8, 11, 25 ... 39, 42)."""
    found: set[str] = set()
    for match in _ARTICLE_LIST_RE.finditer(text):
        listed = match.group(1)
        for first, last in _LIST_RANGE_RE.findall(listed):
            if 0 < int(last) - int(first) <= MAX_RANGE:
                found.update(str(n) for n in range(int(first), int(last) + 1))
        found.update(re.findall(r"\d{1,3}", _LIST_RANGE_RE.sub(" ", listed)))
    return found


# "3. Paragraphs 1 and 2 shall not apply to the extent that processing is necessary: ...": an exception to other
# paragraphs of its own article (the paragraph number, if the text still has it, before)
EXCEPTION_TO_RE = re.compile(
    r"^\W*(?:\d+\.\s*)?paragraphs? (?P<named>\d+(?:(?:,| and| or) \d+)*) (?:do|does|shall|will) not apply\b", re.I
)
# "Exercising the right referred to in paragraph 1 ... That right does not apply to processing necessary for the
# performance of a task carried out in the public interest": a paragraph excepting the right of another paragraph
RIGHT_NOT_APPLYING_RE = re.compile(
    r"\bthe right (?:referred to|provided for|laid down) in paragraph (?P<named>\d+)\b[^.]*\.\s*(?:That|This|The) right"
    r" (?:shall|does|will) not apply\b",
    re.I,
)

# "An enterprise ... employing fewer than 250 persons is not subject to the obligations in paragraphs 1 and 2, unless
# ...": a paragraph exempting a case from the duties of others
NOT_SUBJECT_TO_RE = re.compile(
    r"\b(?:is|are|shall be) (?:not subject to|exempt(?:ed)? from)\b[^.;]{0,60}?\bparagraphs? "
    r"(?P<named>\d+(?:(?:,| and| or) \d+)*)\b",
    re.I,
)
# "2. Only public sector bodies ... may access electronic health data for the purposes referred to in paragraph 1,
# points (a), (b) and (c)": a paragraph limiting to some who another paragraph allows
ONLY_FOR_RE = re.compile(
    r"^\W*(?:\d+\.\s*)?only\b[^.;]{0,200}?\b(?:may|shall|can)\b[^.;]{0,200}?\bparagraphs? "
    r"(?P<named>\d+(?:(?:,| and| or) \d+)*)\b",
    re.I,
)


def exception_to(text: str) -> re.Match[str] | None:
    """A paragraph (or its statement) excepting from or limiting other paragraphs of its article, the paragraphs it
    names in group "named"."""
    return (
        EXCEPTION_TO_RE.match(text)
        or NOT_SUBJECT_TO_RE.search(text)
        or ONLY_FOR_RE.match(text)
        or RIGHT_NOT_APPLYING_RE.search(text)
    )


NHS_NUMBER_RE = re.compile(r"(?<!\d)(\d{3})[ -]?(\d{3})[ -]?(\d{4})(?!\d)")
_RECORD_ID_RE = re.compile(r"\b[A-Za-z]{2,5}-\d{3,}\b")
_UIN_RE = re.compile(r"\b[A-Z]{5,}\d{2,}[A-Z0-9]*V\d{6}\b")


def identifier_tokens(text: str) -> list[str]:
    """Exact identifiers: NHS numbers, record ids such as pat-0007, insurance product UINs."""
    tokens = [f"nhs_{a}{b}{c}" for a, b, c in NHS_NUMBER_RE.findall(text)]
    tokens += [f"id_{m.lower()}" for m in _RECORD_ID_RE.findall(text)]
    tokens += [f"id_{m.lower()}" for m in _UIN_RE.findall(text)]
    return list(dict.fromkeys(tokens))


def qualified_clause(number: str, doc_id: str) -> str:
    """Clause "3.9.1" of one wording as a token: tells it from clause 3.9.1 of another wording."""
    return Reference("clause", tuple(number.split(".")), doc_id.lower()).tokens(ancestors=False)[-1]


# "a Critical Illness listed in Clause 3.9.1": a policy clause whose list is kept in another clause
_LIST_POINTER_RE = re.compile(
    rf"\b(?:listed|set out|specified|enumerated|mentioned)\s+(?:in|under|at)\s+{_CLAUSE}", re.I
)


def pointed_lists(text: str, doc_id: str) -> list[str]:
    """The clauses of the same wording a text says its list is in, as qualified tokens."""
    return list(dict.fromkeys(qualified_clause(n, doc_id) for n in _LIST_POINTER_RE.findall(text)))


# "after the waiting period in Clause 4.5", "subject to the limit in Clause 3.10": a condition kept in another clause
_CONDITION_POINTER_RE = re.compile(
    rf"\b(?:waiting periods?|limits?|sub-limits?|conditions?|co-payments?|survival period|deductibles?)"
    rf"\s+(?:in|of|under|set out in|specified in|stated in)\s+{_CLAUSE}"
    rf"|\bsubject to\s+{_CLAUSE}",
    re.I,
)


def pointed_conditions(text: str, doc_id: str) -> list[str]:
    """The clauses of the same wording a text says hold a condition of its own ("after the waiting period in
    Clause 4.5"), as qualified tokens; a clause merely mentioned ("admitted under Clause 3.1") is not one."""
    numbers = [a or b for a, b in _CONDITION_POINTER_RE.findall(text)]
    return list(dict.fromkeys(qualified_clause(n, doc_id) for n in numbers))


def citation_tokens(citation: str) -> list[str]:
    """Tokens a chunk carries for its own citation, ancestors included."""
    tokens: list[str] = []
    for ref in parse_references(citation):
        tokens.extend(t for t in ref.tokens(ancestors=True) if t not in tokens)
    return tokens


# "Article 16(1) TFEU", "Article 8 of the Charter", "Article 17 of Directive 95/46/EC": provisions of other acts.
_OTHER_ACT_RE = re.compile(
    r"\b(?:articles?|arts?\.?)\s*\d{1,3}(?:\s?\([^)]*\))*\s*(?:TFEU|TEU|of (?:the )?(?:Charter|Treaty|Convention)[^.;]*"
    r"|of (?:Council )?(?:Directive|Regulation|Decision)\s+(?:\(E[CU]\)\s*)?(?:No\.?\s*)?[\d/]+)",
    re.I,
)


def provision_tokens(text: str, default_instrument: str | None = None) -> list[str]:
    """The provisions a text names (a recital or a commentary pointing at the article it explains), each as
    its most specific token, qualified by the instrument the text names or else the one it belongs to.
    Provisions of other acts (the Treaties, the Charter, other directives) are left out."""
    tokens: list[str] = []
    for ref in parse_references(_OTHER_ACT_RE.sub(" ", text)):
        if ref.kind == "recital":  # an explanation points at what binds, not at other explanations
            continue
        instrument = ref.instrument or (default_instrument or "").lower() or None
        token = Reference(ref.kind, ref.path, instrument).tokens(ancestors=False)[-1]
        if token not in tokens:
            tokens.append(token)
    return tokens


def question_tokens(question: str) -> list[str]:
    """Tokens for the references and identifiers a question names: only the most specific form of each."""
    return list(_question_tokens(question))


@lru_cache(maxsize=4096)  # search, the sparse query and grading ask for a question's tokens about 9 times an answer
def _question_tokens(question: str) -> tuple[str, ...]:
    tokens: list[str] = []
    for ref in _parse_references(question):
        tokens.extend(t for t in ref.tokens(ancestors=False) if t not in tokens)
    return (*tokens, *(t for t in identifier_tokens(question) if t not in tokens))
