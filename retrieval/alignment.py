"""Comparing two policy wordings on one question: pull out the values a clause states, pair clauses
by section and benefit, and say per point whether the wordings agree.

Values are what claims turn on: amounts (Rs. 40,000), percentages (25%), periods (24 months, two
years), and the phrases that replace a number ("as per the Table of Benefits", "waived", "not
applicable"). Two paired clauses are "same" when they state the same values and polarity.
"""

from __future__ import annotations

import re

from core.schemas import ClauseValues, ComparePoint, CoverageVerdict
from core.types import Evidence
from language.words import words

_UNITS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}
_TEENS = {
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_NUMBER_WORD_RE = re.compile(
    rf"\b(?:({'|'.join(_TENS)})(?:[\s-]({'|'.join(_UNITS)}))?|({'|'.join([*_TEENS, *_UNITS])}))\b", re.I
)
_AMOUNT_RE = re.compile(r"(?:\brs\.?|\binr|₹)\s*(\d[\d,]*(?:\.\d+)?)\s*(?:/-)?(?:\s*(lakhs?|lacs?|crores?))?", re.I)
_PERCENT_RE = re.compile(r"(\d+(?:\.\d+)?)\s*(?:%|per\s*cent|percent)", re.I)
_PERIOD_RE = re.compile(
    r"(?<![\d.,])(\d+)\s*(days?|months?|years?|hours?)\b", re.I
)  # not "3.3 Day Care", "2,00,000 Day Care"
_MARKERS = {
    "as per the table of benefits": r"as (?:per|shown in|mentioned in|specified in) the table of benefits",
    "no limit": r"\bno (?:sub-?)?limit\b|without any (?:sub-?)?limit|\bnot subject to any limit|as actually charged"
    r"|\bat actuals?\b",
    "waived": r"\bwaived\b",
    "not applicable": r"\bnot applicable\b",
    "not covered": r"\bnot covered\b|shall not be liable|\bexcluded\b",
    "whichever is lower": r"whichever is (?:lower|less)",
}
_MARKER_RES = {name: re.compile(pattern, re.I) for name, pattern in _MARKERS.items()}
_BASES = {"sum insured": "Sum Insured", "si": "Sum Insured", "admissible claim": "admissible claim"}
_BASIS_RE = re.compile(
    r"(?:\s*of\s+(?:the\s+)?(?:basic\s+)?(?P<of>sum\s+insured|si|admissible\s+claim|claim\s+amount|base\s+premium)\b)?"
    r"(?:\s*(?:/-)?\s*per\s+(?P<per>day|eye|event|delivery|claim|hospitali[sz]ation|policy\s+(?:period|year)|year)\b)?",
    re.I,
)
# Whom a clause pays or gives something to is a value too ("Payment is made to the Policyholder" against "... to
# the Member, never to the Master Policyholder"); a party merely named ("the age of the insured person") is not.
# The longer role first, so a master policyholder is not also a policyholder.
_PARTY_RE = re.compile(
    r"\bto (?:the |his |her |their )?(master policyholder|policyholder|proposer|member|insured person|nominee"
    r"|legal heirs?|network provider|hospital|third party administrator|tpa)s?\b",
    re.I,
)
PAIR_MIN_SCORE = 0.25
COVERING = ("covered", "conditional")
Polarities = tuple[str | None, str | None]  # the coverage each side's answer states for its answering clause


_REPEATED_NUMBER_RE = re.compile(r"\b(\d+)\s*\(\s*\1\s*\)")


def _number(match: re.Match[str]) -> str:
    tens, unit, single = (g.lower() if g else g for g in match.groups())
    if single:
        return str({**_UNITS, **_TEENS}[single])
    return str(_TENS[tens] + (_UNITS[unit] if unit else 0))


def digits(text: str) -> str:
    """'two (2) years' -> '2 years', 'thirty six months' -> '36 months', '36 (thirty six) months' -> '36 months'."""
    return _REPEATED_NUMBER_RE.sub(r"\1", _NUMBER_WORD_RE.sub(_number, text))


def indian_grouping(number: int) -> str:
    """300000 -> '3,00,000', 40000 -> '40,000' (the way these wordings write amounts)."""
    digits = str(number)
    if len(digits) <= 3:
        return digits
    head, tail = digits[:-3], digits[-3:]
    groups: list[str] = []
    while len(head) > 2:
        groups.insert(0, head[-2:])
        head = head[:-2]
    return ",".join([head, *groups, tail]) if head else ",".join([*groups, tail])


def basis(text: str, end: int) -> str:
    """What an amount or a percentage is of or per, right after it: " of Sum Insured" (SI too), " per day"; a
    limit without its basis ("1%" of what, per what?) cannot be compared with another."""
    match = _BASIS_RE.match(text, end)
    if match is None:
        return ""
    of = _BASES.get(" ".join(match.group("of").lower().split()), match.group("of")) if match.group("of") else ""
    per = " ".join(match.group("per").lower().replace("isation", "ization").split()) if match.group("per") else ""
    return (f" of {of}" if of else "") + (f" per {per}" if per else "")


def extract_values(text: str) -> list[str]:
    """The values a clause states, normalised, in order of appearance, without repeats."""
    text = digits(text)
    found: list[tuple[int, str]] = []
    for m in _AMOUNT_RE.finditer(text):
        amount = m.group(1).replace(",", "").rstrip(".")
        unit = f" {m.group(2).lower().rstrip('s')}" if m.group(2) else ""
        found.append((m.start(), f"Rs. {indian_grouping(int(float(amount)))}{unit}{basis(text, m.end())}"))
    found += [(m.start(), f"{m.group(1)}%{basis(text, m.end())}") for m in _PERCENT_RE.finditer(text)]
    for m in _PERIOD_RE.finditer(text):
        unit = m.group(2).lower().rstrip("s")
        found.append((m.start(), f"{m.group(1)} {unit}{'s' if m.group(1) != '1' else ''}"))
    found += [(m.start(), name) for name, pattern in _MARKER_RES.items() for m in pattern.finditer(text)]
    found += [(m.start(), m.group(1).lower()) for m in _PARTY_RE.finditer(text)]
    seen: list[str] = []
    for _, value in sorted(found):
        if value not in seen:
            seen.append(value)
    return seen


def _side(e: Evidence, about: set[str] | None = None) -> ClauseValues:
    """A clause's values: from its sentences that support the question (its highlights: a long clause states
    other points' values too, "24 months" for specified diseases beside the 36 months asked about), else from
    the whole clause, or for a table of benefits paired with a clause about one benefit, from the table's lines
    naming it."""
    text = e.text
    if about and _is_table(e):
        lines = [line for line in text.splitlines() if about & set(words(line))]
        text = "\n".join(lines) or text
    values = extract_values("\n".join(e.highlights) or text)
    return ClauseValues(
        citation=e.citation,
        document=e.document,
        chunk_id=e.chunk_id,
        page=e.page,
        section_key=e.metadata.get("section_key"),
        benefit_name=e.metadata.get("benefit_name"),
        coverage_type=e.metadata.get("coverage_type"),
        values=values,
        value="; ".join(values) or text[:160],
        text=text,
    )


# Words that say what kind of provision a clause is, not what it is about: "Limit for Cataract Surgery" and
# "Cataract Treatment" are both about cataract.
_GENERIC_NAME_WORDS = frozenset(
    words(
        "limit limits sub-limit sublimit cover covers coverage benefit benefits treatment treatments surgery "
        "expenses expense charges charge other policy exclusion exclusions condition conditions definition definitions"
    )
)
# Sections whose clauses can state the same thing in different places: what is paid (a room rent limit inside
# a Hospitalisation clause), and what is not paid or not yet paid.
_RELATED_SECTIONS = ({"benefits", "room_rent", "co_payment", "table_of_benefits"}, {"exclusions", "waiting_period"})


def _topic(e: Evidence) -> set[str]:
    return set(words(str(e.metadata.get("benefit_name") or e.section))) - _GENERIC_NAME_WORDS


def _is_table(e: Evidence) -> bool:
    return e.metadata.get("section_key") == "table_of_benefits"


def _related(a: Evidence, b: Evidence) -> bool:
    key_a, key_b = a.metadata.get("section_key"), b.metadata.get("section_key")
    return key_a == key_b or any(key_a in group and key_b in group for group in _RELATED_SECTIONS)


def _defines(e: Evidence) -> bool:
    return e.metadata.get("section_key") == "definitions"


def _pair_score(a: Evidence, b: Evidence) -> float:
    """How likely two clauses speak about the same thing: the subject of their names (or one clause's
    subject named in the other's text: "Room ... Intensive Care Unit" inside a Hospitalisation clause),
    shared words, same section. Without a shared subject, the same section alone does not make a pair, and a
    definition (what a word means) is never the same point as an operative clause (what is paid)."""
    if _defines(a) != _defines(b):
        return 0.0
    topic_a, topic_b = _topic(a), _topic(b)
    names = len(topic_a & topic_b) / len(topic_a | topic_b) if topic_a and topic_b else 0.0
    text_a, text_b = set(words(a.text)), set(words(b.text))
    named_in_text = 0.0
    if _related(a, b) and not (_is_table(a) or _is_table(b)):  # a table names every benefit: no shared subject
        named_in_text = max(
            len(topic_a & text_b) / len(topic_a) if topic_a else 0.0,
            len(topic_b & text_a) / len(topic_b) if topic_b else 0.0,
        )
    subject = max(names, 0.5 * named_in_text)
    overlap = len(text_a & text_b) / max(1, len(text_a | text_b))
    if not subject and overlap < 0.5:
        return 0.0
    same_section = (
        1.0 if a.metadata.get("section_key") and a.metadata.get("section_key") == b.metadata.get("section_key") else 0.0
    )
    return 0.5 * subject + 0.25 * overlap + 0.25 * same_section


def verdict(stated: Polarities, clauses: Polarities, differing: list[str]) -> CoverageVerdict:
    """What one side's answer says is not covered and the other's says is covered is in the other wording
    only; otherwise the same when the two clauses state the same values and polarity, and different when not.
    Only the answers' stated polarity can make a point one-sided: a clause's own (an exclusion paired with a
    benefit by a shared word) says what kind of clause it is, not that its wording lacks the other's cover."""
    if stated[0] == "not_covered" and stated[1] in COVERING:
        return "only_b"
    if stated[1] == "not_covered" and stated[0] in COVERING:
        return "only_a"
    polarity = (stated[0] or clauses[0], stated[1] or clauses[1])
    return "same" if not differing and polarity[0] == polarity[1] else "different"


def _point(x: Evidence, y: Evidence, stated: Polarities = (None, None)) -> ComparePoint:
    """Two paired clauses, with the polarity each side's answer states for it when it states one."""
    side_a, side_b = _side(x, _topic(y)), _side(y, _topic(x))
    differing = sorted(set(side_a.values) ^ set(side_b.values))
    named = [c.benefit_name for c, e in ((side_a, x), (side_b, y)) if c.benefit_name and not _is_table(e)]
    label = next(iter(named), None) or side_a.benefit_name or side_b.benefit_name or side_a.section_key or "clause"
    return ComparePoint(
        point=label,
        verdict=verdict(stated, (side_a.coverage_type, side_b.coverage_type), differing),
        a=side_a,
        b=side_b,
        differing=differing,
    )


def align(a: list[Evidence], b: list[Evidence], stated: Polarities = (None, None)) -> list[ComparePoint]:
    """Pair the clauses of two wordings (greedy, best pairs first) and give each point its verdict.

    Each list is what one side's answer cites, its answering clause first: the two answering clauses answer
    the same question, so they are one point whatever their names ("AYUSH Treatment" against
    "Ayurvedic/Homeopathic/Unani treatment"), unless one defines a term and the other states a rule; the
    other clauses pair by subject. `stated` is the coverage each side's answer states for its answering
    clause ("Expenses of the newborn baby are not covered" within a maternity benefit): that point's verdict
    follows it, so the table never contradicts the answers."""
    pairs = sorted(((_pair_score(x, y), i, j) for i, x in enumerate(a) for j, y in enumerate(b)), reverse=True)
    if a and b and _defines(a[0]) == _defines(b[0]):
        pairs.insert(0, (1.0, 0, 0))
    used_a: set[int] = set()
    used_b: set[int] = set()
    points: list[tuple[int, ComparePoint]] = []
    for score, i, j in pairs:
        if score < PAIR_MIN_SCORE or i in used_a or j in used_b:
            continue
        used_a.add(i)
        used_b.add(j)
        points.append((min(i, j), _point(a[i], b[j], stated if (i, j) == (0, 0) else (None, None))))
    for i, x in enumerate(a):
        if i not in used_a and (point := _leftover(x, b, "only_a")):
            points.append((i, point))
    for j, y in enumerate(b):
        if j not in used_b and (point := _leftover(y, a, "only_b")):
            points.append((j, point))
    return [p for _, p in sorted(points, key=lambda item: item[0])]


def _leftover(clause: Evidence, others: list[Evidence], verdict: str) -> ComparePoint | None:
    """A clause left over after pairing, against the other wording's clauses on the same subject (paired
    already or not): compared again with the closest one rather than shown as missing from a wording whose
    answer covers its subject; not shown when it only defines a term of a point the other clause already
    states (a definition and an operative clause are never the same point); one-sided when nothing on the
    other side shares its subject."""
    same = [(_pair_score(clause, o), k) for k, o in enumerate(others) if _same_subject(clause, o)]
    if not same:
        return _one_sided(clause, verdict)
    _, k = max(same)
    if _defines(clause) != _defines(others[k]):
        return None
    return _point(clause, others[k]) if verdict == "only_a" else _point(others[k], clause)


def _same_subject(clause: Evidence, other: Evidence) -> bool:
    """Their names share a subject word, or one is a table of benefits with a line naming the other's subject."""
    if _topic(clause) & _topic(other):
        return True
    table, named = (clause, other) if _is_table(clause) else (other, clause)
    topic = _topic(named)
    return _is_table(table) and bool(topic) and any(topic <= set(words(line)) for line in table.text.splitlines())


def _one_sided(clause: Evidence, verdict: str) -> ComparePoint:
    side = _side(clause)
    return ComparePoint(point=side.benefit_name or "clause", verdict=verdict, **{verdict[-1]: side})
