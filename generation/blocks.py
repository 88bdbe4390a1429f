"""Which evidence blocks the answerer is given, and the coverage line a policy answer ends with."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

from core.types import COVERAGE_LABELS, Citation, Evidence
from language.analysis import QuestionAnalysis, classified_as, variants_named
from language.expansion import bridges
from language.passages import statements
from language.question import compared_terms, defined_term
from language.references import pointed_conditions
from language.series import asked_series, member_of, right_granted, rights_asked
from language.thresholds import falls_short, stated_quantities
from language.words import words

MAX_BLOCKS = 8
POLICY_MEAN_OVER = 2  # policy questions: the mean confidence of this many top clauses decides


def context_blocks(
    route: str,
    refined: list[Evidence],
    web: list[Evidence],
    floor: float,
    cap: int = MAX_BLOCKS,
    whole: list[Evidence] | None = None,
) -> list[Evidence]:
    """CORRECT: refined local; AMBIGUOUS: refined local and web; INCORRECT: web only. Weak blocks never go in.

    Local evidence the grader kept goes in before any web result takes a place: a web page or commentary scored a
    little higher must not push out the binding provision grading put first (GDPR Art. 9(2)(f) for "can we use
    the claimant's records to defend a claim?" lost its place to a third chunk of the same commentary)."""
    # `whole`: the members of a series asked for whole, each in whatever its grade (a list is wrong without one)
    kept = {id(b) for b in whole or []}
    local = (
        [b for b in refined if (b.confidence or 0.0) >= floor or id(b) in kept]
        if route in ("CORRECT", "AMBIGUOUS")
        else []
    )
    # the fallback searching the commentary collection finds again a chunk local retrieval already holds: once
    held = {b.chunk_id for b in local}
    web = (
        [b for b in web if (b.confidence or 0.0) >= floor and b.chunk_id not in held]
        if route in ("AMBIGUOUS", "INCORRECT")
        else []
    )
    by_confidence = sorted(web, key=lambda b: -(b.confidence or 0.0))
    blocks = [*local[:cap], *by_confidence[: max(0, cap - len(local))]]
    return sorted(blocks, key=lambda b: -(b.confidence or 0.0))


def adaptive_policy_blocks(
    blocks: list[Evidence],
    floor: float,
    cap: int,
    asked: frozenset[str] | set[str] = frozenset(),
    whole: list[Evidence] | None = None,
) -> tuple[list[Evidence], str]:
    """Policy wordings among the blocks: cap them; refuse (no model call) when the top ones are weak on average.
    `asked`: the words naming what a question about cover asks about (see `naming_every_asked_word`); `whole`:
    the members of a series asked for whole, kept past the cap whatever their grade (a list is wrong without one)."""
    clauses = sorted((b for b in blocks if b.document_type == "policy_wording"), key=lambda b: -(b.confidence or 0.0))
    if not clauses:
        return blocks, ""
    top = [c.confidence or 0.0 for c in clauses[:POLICY_MEAN_OVER]]
    mean = sum(top) / len(top)
    if mean < floor:
        return [], f"the best clauses average confidence {mean:.2f}, under the policy floor {floor}"
    # ... and the clauses the best one points to for its list or its condition ("after the waiting period in
    # Clause 4.5")
    pointed = [p for lead in leading(clauses) for p in pointed_clauses(lead, clauses)]
    members = {id(b) for b in [*(whole or []), *pointed]}
    kept = {id(b) for b in naming_every_asked_word([b for b in blocks if id(b) not in members], cap, asked)}
    return [b for b in blocks if id(b) in kept | members], ""


def naming_every_asked_word(blocks: list[Evidence], cap: int, asked: frozenset[str] | set[str]) -> list[Evidence]:
    """The `cap` best blocks, except that a block past the cap naming an asked word none of them names takes the
    place of the weakest one whose asked words the others name: asked whether a war injury is covered, the war
    exclusion (the only clause saying "war", with a weaker grade than five clauses on injuries) is among the
    clauses the answer is chosen from. The policy's own name is not what is asked about."""
    kept = blocks[:cap]
    if not asked:  # not a question about cover: nothing to read
        return kept
    names = {w for b in blocks for w in words(f"{b.document} {b.metadata.get('document_citation') or ''}")}
    named = {b.chunk_id: (set(asked) - names) & set(words(b.text)) for b in blocks}
    for extra in blocks[cap:]:
        if not named[extra.chunk_id] - {w for b in kept for w in named[b.chunk_id]}:
            continue
        for i in reversed(range(len(kept))):
            others = {w for j, b in enumerate(kept) if j != i for w in named[b.chunk_id]} | named[extra.chunk_id]
            if named[kept[i].chunk_id] <= others:
                kept = [*kept[:i], *kept[i + 1 :], extra]
                break
    return kept


STATING_MARGIN = 0.1  # how much weaker than the weakest kept block a block stating the fact asked may be graded


def with_block_stating(kept: list[Evidence], pool: list[Evidence], states: Callable[[str], bool]) -> list[Evidence]:
    """The kept evidence, or, when none of it states the kind of fact asked (a date, a period, an amount), with the
    best block of the pool that does, graded nearly as well as the weakest kept, in place of the weakest: "When
    does the EHDS apply?" is answered by the date in Article 105's note, which five EHDS articles graded alike,
    all stating no date, had pushed out."""
    if not kept or any(states(b.text) for b in kept):
        return kept
    floor = min(b.confidence or 0.0 for b in kept) - STATING_MARGIN
    ids = {b.chunk_id for b in kept}
    stating = next(
        (b for b in pool if b.chunk_id not in ids and (b.confidence or 0.0) >= floor and states(b.text)), None
    )
    return kept if stating is None else [*kept[:-1], stating]


def series_members(question: str, blocks: list[Evidence]) -> list[Evidence]:
    """The first block of each member of the numbered series the question asks for whole, by number ("What are
    the Caldicott principles?": Caldicott Principle 1 to 8); none when it asks for no series."""
    if instrument := rights_asked(question):  # "What rights do patients have under the EHDS?": each article's
        articles: dict[str, Evidence] = {}  # first block, in the order of the articles
        for block in blocks:
            if (
                block.authority == "binding"
                and block.metadata.get("instrument") == instrument
                and right_granted(block.section)
            ):
                kept = articles.get(block.section)  # its first paragraph, where the right is granted
                if kept is None or _position(block) < _position(kept):
                    articles[block.section] = block
        return sorted(articles.values(), key=lambda b: _article_number(b.section))
    prefix = asked_series(question, [(b.citation, b.section) for b in blocks])
    members: dict[int, Evidence] = {}
    for block in blocks:
        member = member_of(block.citation)
        if prefix and member and member.prefix == prefix:
            members.setdefault(member.number, block)
    return [members[number] for number in sorted(members)]


def _position(block: Evidence) -> int:
    return int(block.metadata.get("position") or 0)


def _article_number(section: str) -> int:
    match = re.search(r"\bArticle (\d+)", section)
    return int(match.group(1)) if match else 0


def with_definitions(kept: list[Evidence], pool: list[Evidence], question: str) -> list[Evidence]:
    """Asked how two things differ, the kept evidence with the best pool block defining each that no kept block
    defines: "controller" (Art. 4(7)) graded out of the five by the chunks on processors."""
    added: list[Evidence] = []
    for term in compared_terms(question) or ():
        if not any(_defines(b, term) for b in [*kept, *added]):
            added += [b for b in pool if _defines(b, term)][:1]
    return [*kept, *added]


def _defines(block: Evidence, term: str) -> bool:
    """One of the block's statements opens by defining the term ("'controller' means ...")."""
    wanted = set(words(term))
    return any(wanted <= set(words(defined_term(s.text))) for s in statements(block.text))


def with_series(kept: list[Evidence], pool: list[Evidence], question: str) -> list[Evidence]:
    """The kept evidence with every member of the series asked for that the pool holds: the answer lists them
    all, so none may be cut with the weaker candidates."""
    ids = {e.chunk_id for e in kept}
    return [*kept, *(e for e in series_members(question, pool) if e.chunk_id not in ids)]


# Sections (ingest.policy.SECTION_KEYS) about how the policy is run, not what it pays for: a coverage line
# there would mislead.
PROCEDURAL_SECTIONS = frozenset(
    {
        "claims",
        "grievance",
        "definitions",
        "renewal",
        "cancellation",
        "free_look",
        "grace_period",
        "premium",
        "preamble",
        "eligibility",  # who may be insured, at what age: not a benefit
    }
)


ABSENT_FROM_WORDING = "absent from the wording: "  # how a refusal of a benefit no clause names begins

# ... and, with the general terms (disclosure, moratorium), clauses that never say whether a benefit exists
NOT_ABOUT_COVER = PROCEDURAL_SECTIONS | {"conditions"}


def with_best_graded(kept: list[Evidence], pool: list[Evidence]) -> list[Evidence]:
    """The kept evidence with the best-graded block of the pool after it when authority order left it out: a
    binding provision goes first, but five provisions on who the DPO is must not shut out the commentary that alone
    lists what the DPO does."""
    best = max(pool, key=lambda e: e.confidence or 0.0, default=None)
    if best is None or any(e.chunk_id == best.chunk_id for e in kept):
        return kept
    return [*kept, best]


def with_explained_provision(kept: list[Evidence], pool: list[Evidence]) -> list[Evidence]:
    """The kept evidence with the binding provision of the pool that the kept explanations (commentary, recitals,
    guidance) explain most often, the best graded among equals, after them when it is not kept already: the answer
    can then quote the provision rather than the commentary restating it (the binding provision first). A chunk of
    commentary naming no provision explains nothing; the next one may."""
    explainers = [e for e in kept if e.authority != "binding" and e.metadata.get("explains")]
    explained = Counter(t for e in explainers for t in set(e.metadata["explains"]))
    # among provisions explained as often, one the best graded explanation explains, the best graded of those (a DPIA
    # commentary's 35(1), not the 36 a commentary on DPOs names in passing)
    vouched: dict[str, float] = {}
    for e in explainers:
        for t in e.metadata["explains"]:
            vouched[t] = max(vouched.get(t, 0.0), e.confidence or 0.0)
    ids = {e.chunk_id for e in kept}
    provisions = [
        (max(explained[t] for t in e.refs if t in explained), max(vouched.get(t, 0.0) for t in e.refs), -rank, e)
        for rank, e in enumerate(pool)
        if e.authority == "binding" and e.chunk_id not in ids and explained.keys() & set(e.refs)
    ]
    if not provisions:
        return kept
    return [*kept, max(provisions, key=lambda p: p[:3])[3]]


def onward_pointers(e: Evidence) -> list[str]:
    """The reference tokens a candidate points onwards to: what it explains (linked at ingest) and, for a policy
    clause, the clauses holding its conditions ("after the waiting period in Clause 4.5")."""
    explains = list(e.metadata.get("explains") or [])
    if e.document_type != "policy_wording":
        return explains
    return [*explains, *(t for t in pointed_conditions(e.text, e.doc_id) if t not in explains)]


def pointed_clauses(lead: Evidence, candidates: list[Evidence]) -> list[Evidence]:
    """The clauses of its wording a policy clause points to for its list ("listed in Clause 3.9.1") or its
    condition ("after the waiting period in Clause 4.5"), among the candidates: its answer is incomplete without."""
    if lead.document_type != "policy_wording":
        return []
    pointers = set(onward_pointers(lead))
    return [e for e in candidates if e is not lead and e.doc_id == lead.doc_id and pointers & set(e.refs)]


LEAD_TIE = 0.01  # clauses graded this close to the best one lead alike (the same clause of two riders)


def leading(kept: list[Evidence]) -> list[Evidence]:
    """The best of the kept evidence and those graded alike with it: asked about "CareShield" with no rider named,
    the critical-illness clause of each rider."""
    best = max((e.confidence or 0.0 for e in kept), default=0.0)
    return [e for e in kept if (e.confidence or 0.0) >= best - LEAD_TIE]


def with_pointed_clauses(kept: list[Evidence], pool: list[Evidence]) -> list[Evidence]:
    """The kept evidence, then the clauses the leading kept clauses point to (see pointed_clauses) not kept yet."""
    ids = {e.chunk_id for e in kept}
    pointed = [e for lead in leading(kept) for e in pointed_clauses(lead, pool) if e.chunk_id not in ids]
    return [*kept, *{e.chunk_id: e for e in pointed}.values()]


def counterpart_clauses(question: str, leads: list[Evidence], pool: list[Evidence]) -> list[Evidence]:
    """Asked about two variants of a wording ("his own rider ... his employer's group plan"), the same clause of
    the other named variant for each lead clause, from the pool: the answer states both."""
    named = variants_named(question)
    if len(named) < 2:
        return []
    sides = {(e.metadata.get("clause_id"), e.metadata.get("variant")) for e in leads}
    wanted = {
        (lead.metadata.get("clause_id"), variant)
        for lead in leads
        if lead.metadata.get("clause_id") and lead.metadata.get("variant") in named
        for variant in named - {lead.metadata.get("variant")}
    } - sides
    found = [e for e in pool if (e.metadata.get("clause_id"), e.metadata.get("variant")) in wanted]
    return list({e.chunk_id: e for e in found}.values())


def with_counterpart_clauses(kept: list[Evidence], pool: list[Evidence], question: str) -> list[Evidence]:
    """The kept evidence, then the counterparts of its leading clauses (see counterpart_clauses) not kept yet."""
    ids = {e.chunk_id for e in kept}
    return [*kept, *(e for e in counterpart_clauses(question, leading(kept), pool) if e.chunk_id not in ids)]


# what a clause on running the policy says of cover: "no cover is available for the period from the due date to
# the date of receipt of the premium", "cover shall cease"
_STATES_COVER_RE = re.compile(
    r"\b(no cover|cover (is|shall be|will be) (not )?(available|treated|continuous|suspended)|cover (shall|will) "
    r"(cease|end|lapse|terminate)|(is|are|shall be|will be) not covered)\b",
    re.I,
)


def _states_cover(clause: Evidence) -> bool:
    """A clause on running the policy (grace period, renewal, cancellation) that says when there is cover; never
    a definition."""
    return clause.metadata.get("section_key") != "definitions" and bool(_STATES_COVER_RE.search(clause.text))


_HEADING_TERM_RE = re.compile(r"^\s*\d+(?:\.\d+)*\s+(?P<term>[^\n(]{2,60}?)\s*(?:\(|\n|$)")


def _defines_what_the_case_is_asked_to_be(question: str, clause: Evidence) -> bool:
    """A definition of the term the question asks whether its case is ("Is he covered as a Member?": "Member means
    an employee on its rolls ... named in the list of Insured Persons"): it decides the cover."""
    heading = _HEADING_TERM_RE.match(clause.text)
    if clause.metadata.get("section_key") != "definitions" or heading is None:
        return False
    asked = set(words(classified_as(question, said_how=True)))
    return bool(asked) and asked == set(words(heading["term"]))


def cover_clauses(question: str, analysis: QuestionAnalysis, blocks: list[Evidence]) -> tuple[list[Evidence], str]:
    """A question about what a policy pays for is answered only from a wording's clauses on cover,
    exclusions, waiting periods or limits (a web page or a premium clause cannot say what a wording
    covers), from a definition whose minimum the case does not meet ("a clinic with three in-patient beds"
    is no AYUSH Hospital of "at least 5 in-patient beds") and from the definition of what the case is asked to be
    ("covered as a Member"); when none answers, the benefit is absent from the
    wording and the reason says what was found."""
    clauses = [b for b in blocks if b.document_type == "policy_wording"]
    if not blocks or not analysis.about_cover or not (clauses or analysis.domain == "insurance"):
        return blocks, ""
    stated = stated_quantities(question)
    kept = [
        b
        for b in clauses
        if b.metadata.get("section_key") not in NOT_ABOUT_COVER
        or _states_cover(b)
        or falls_short(stated, b.text)
        or _defines_what_the_case_is_asked_to_be(question, b)
    ]
    if kept:
        return kept, ""
    if not clauses:
        return (
            [],
            f"{ABSENT_FROM_WORDING}only other sources (a web page) were relevant, and they cannot say what it covers",
        )
    return [], absent_from_wording(clauses, "are about running the policy")


def unnamed_feature(
    question: str, analysis: QuestionAnalysis, blocks: list[Evidence], mentioned: Callable[[str, list[str]], bool]
) -> str | None:
    """The benefit a policy question asks for by name when its wording never names it: "a premium discount for
    non-smokers" is not answered by the premium clause, nor "a no-claim bonus" by the refund paid when no claim
    was made, nor "an air ambulance" by the road ambulance. Each of its words is looked for in the clauses found
    and then in the whole of their wordings (`mentioned(word, doc_ids)`); a plain word that stands for the wording's
    terms ("cap" for a limit) is the wording's."""
    feature = analysis.feature
    clauses = [b for b in blocks if b.document_type == "policy_wording"]
    if not feature or not clauses or blocks[0].document_type != "policy_wording" or analysis.domain == "records":
        return None
    # every word of it: an "air ambulance" is not the road ambulance the wording names
    for word in feature.split():
        said = set(words(word))
        if not said or any(said & set(words(phrase)) for phrase, _ in bridges(question)):
            continue
        if any(said & set(words(f"{b.section} {b.text}")) for b in clauses):
            continue
        if not mentioned(word, sorted({b.doc_id for b in clauses})):
            return feature
    return None


def absent_from_wording(clauses: list[Evidence], found: str) -> str:
    """Why a question about cover was refused: what the wording's closest clauses were about instead."""
    wordings = sorted({str(b.metadata.get("document_citation") or b.document) for b in clauses})
    closest = "; ".join(
        f"{b.citation} ({str(b.metadata.get('section_key') or 'general terms').replace('_', ' ')})" for b in clauses[:3]
    )
    return (
        f"{ABSENT_FROM_WORDING}no clause of {' or '.join(wordings)} on what it covers, excludes or limits "
        f"answers this; the closest clauses found {found}: {closest}"
    )


# a benefit clause's own exception, quoted as the answer: what was asked is the part the clause leaves out
_EXCEPTION_RE = re.compile(
    r"\bnot (be )?(covered|payable|admissible|reimbursed)\b|\b(is|are|shall be) excluded\b", re.I
)

# "not covered until ...", "... unless ...": an exclusion with a condition, which leaves the cover conditional
_QUALIFIED_RE = re.compile(r"\b(until|unless|except|after|before|within|only|subject to|provided)\b", re.I)

# the IRDAI standard exclusion codes a wording quotes: Excl01-Excl03 are waiting periods (pre-existing diseases,
# specified diseases, the first 30 days), from Excl04 on the exclusions proper (Excl18: maternity)
EXCLUSION_CODE_RE = re.compile(r"\bexcl\s*0*(\d{1,2})\b", re.I)
WAITING_PERIOD_CODES = 3


def _polarity_of_code(lead: str) -> str | None:
    """The polarity the quoted clause's standard exclusion code gives it, if it quotes one."""
    code = EXCLUSION_CODE_RE.search(lead)
    if code is None:
        return None
    return "conditional" if int(code.group(1)) <= WAITING_PERIOD_CODES else "not_covered"


# The opener a composed answer gives a clause that excludes or refuses only in some cases: its coverage line
# says "covered with conditions", not "not covered".
ONLY_SOME = "Only in some cases: "


def coverage_line(answer: str, citations: list[Citation], blocks: list[Evidence]) -> tuple[str, str | None]:
    """Policy answers state the coverage polarity of the clause that answers (the first one cited) and name
    it; procedural clauses (claims, grievances, renewal, definitions) get no coverage line."""
    for citation in citations[:1]:
        block = blocks[citation.source - 1]
        if block.metadata.get("section_key") in PROCEDURAL_SECTIONS:
            return answer, None
        polarity = str(block.metadata.get("coverage_type") or "")
        lead = answer.split("[Source", 1)[0]
        if polarity == "covered" and _EXCEPTION_RE.search(lead):
            polarity = "not_covered"  # "Out-patient consultations ... are not covered", within a benefit clause
        elif polarity == "conditional" and _EXCEPTION_RE.search(lead) and not _QUALIFIED_RE.search(lead):
            polarity = "not_covered"  # "Expenses of the newborn baby are not covered", within the maternity benefit
        # "o. Maternity: Code - Excl18" quoted from a clause headed "Waiting Periods" is an exclusion
        polarity = _polarity_of_code(lead) or polarity
        if polarity == "not_covered" and answer.startswith(ONLY_SOME):
            polarity = "conditional"  # covered outside the exclusion's exceptions or scope
        if block.document_type == "policy_wording" and COVERAGE_LABELS.get(polarity):
            label = COVERAGE_LABELS[polarity].lower()
            return f"{answer} Coverage: {label} under {block.citation} [Source {citation.source}].", polarity
    return answer, None
