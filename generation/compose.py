"""The offline answer, composed answer-first from the evidence's own words.

1. The question is analysed (language/analysis.py): what kind of answer it wants and which provision,
   instrument or patient it names.
2. Every block is read as statements (language/passages.py): sentences, and lead-ins with their points,
   so a list is quoted whole and a point never stands alone.
3. The lead statement is the one that answers: support for the question (coverage and similarity),
   the fact the answer type asks for (a period for "how long", an amount for "how much", "means" for a
   definition, a lead-in with its points for a list), the provision the question names, and authority:
   a binding provision leads when it supports the answer about as well as a recital or commentary.
4. At most two more statements follow, and only from the lead's own provision: the conditions and
   exceptions next to it. Nothing from provisions that do not bear on the question.
5. A yes/no question opens with "Yes:" or "No:" only when the lead states the very act the question
   asks about, with or without "not"; otherwise the answer states what the provision says.
Every statement keeps the source's wording (numbers, periods and conditions are the source's own) and
ends with its [Source N].
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from core.types import Evidence
from generation.blocks import EXCLUSION_CODE_RE, ONLY_SOME, STATING_MARGIN
from generation.opener import (
    ASKS_COST_RE,
    EXCEPTED,
    FREE_OF_CHARGE_RE,
    PERSON_WORDS,
    act_asked,
    duty_asked,
    puts_the_duty_on_the_asker,
    the_asker_acts,
    yes_no_opener,
)
from generation.prompts import REFUSAL
from generation.records import compose_records
from generation.series import compose_series
from language.analysis import (
    QuestionAnalysis,
    about_ehds,
    analyse,
    classified_as,
    ehds_asked_in_the_uk,
    part_clauses,
    question_parts,
    question_sentence,
    variants_named,
)
from language.coherence import needs_antecedent, reads_as_label, refers_to_what_precedes
from language.expansion import INSTRUMENT_NAMES, bridged_words, bridges, expansion_terms
from language.passages import POINT_RE, Statement, statements
from language.question import (
    ANSWER_TYPE_WORDS,
    compared_terms,
    content_terms,
    defined_term,
    kinds_set_against,
    says_the_contrary_kind,
)
from language.references import (
    EXCEPTION_TO_RE,
    RIGHT_NOT_APPLYING_RE,
    articles_listed,
    citation_tokens,
    exception_to,
    instruments_named,
    parse_references,
    pointed_lists,
)
from language.sentences import ends_with_abbreviation
from language.support import Embed, score_sentences
from language.thresholds import falls_short, stated_quantities
from language.titles import passage_title, titled
from language.waiting import cover_run_days, still_waiting
from language.words import words

MIN_SUPPORT = 0.3  # below this no statement answers: the refusal ...
STRONG_BLOCK = 0.6  # ... unless its block was graded this relevant: then a statement needs only
STRONG_BLOCK_SUPPORT = 0.15
MIN_LEAD_SCORE = 0.65  # the best statement, weighed with its block's grade, answers this little: quoting it as
# the answer is a wrong answer more often than not (measured on the fresh dev questions), and a refusal is honest;
# ungraded evidence (plain RAG, the evaluation's baseline) has no grade to weigh and keeps the support floor alone
FOLLOW_SUPPORT = 0.35  # a following statement must support the question at least this much
MAX_FOLLOWING = 2
MAX_WORDS = 100  # the lead and what follows it, lists apart (150 read 82 words at the held-out median: over 80)
NEW_POINT_WORDS = 40  # ... but the first following statement saying what the question asks that the lead does not
NEW_POINT_MIN_WORDS = 1  # (at least this many of its words, not counting words that relate, not name: "within")
PART_NEW_WORDS = 2  # a part's answer is quoted when it says this many of the part's words nothing quoted says
PART_BLOCK_MARGIN = 0.2  # ... from a passage graded at most this much below the lead's
MAX_TITLE_WORDS = 12  # a provision named first is named with its title when the title is this short
MAX_STEPS = 4  # a procedure answered clause by clause ...
STEPS_MAX_WORDS = 180  # ... in at most this many words
CUE_BONUS = 0.15
ACT_BONUS = 0.45  # the statement says the act the question asks will be done to the thing ("refusal ... published")
LIST_CUE_BONUS = 0.5  # a list question is answered by a lead-in with its points, rarely by one sentence
SHORT_BONUS = 0.3  # a waiting period longer than the cover has run, a minimum the case does not reach
REFERENCE_BONUS = 0.3  # the block carries the provision the question names
BINDING_BONUS = 0.08
QUOTED_BONUS = 0.2  # the statement says, word for word, what the question quotes ("says 'substantial public interest'")
# a phrase the question puts in quotes (not the apostrophes of "don't" or "patient's")
_QUOTED_RE = re.compile(r"(?:(?<=\s)|^)['‘\"“](\w[^'’\"”]{2,60}\w)['’\"”](?=[\s,.;:?!)]|$)")
# The EHDS governs electronic health records, their exchange and secondary use; the GDPR governs all processing.
# Asked about patient data in general, a GDPR provision answers before an EHDS one that shares the words.
SPECIAL_LAW_PENALTY = 0.1
OTHER_LAW_PENALTY = 0.15  # a statement about another law than the one the question names
CONTRARY_KIND_PENALTY = 0.15  # a statement about secondary use, asked about primary use
TITLE_BONUS = 0.1  # the provision's title is what the law calls the thing asked about ("privacy by design")
BINDING_MARGIN = 0.15  # a binding statement this close to the best one leads instead of an explanation ...
EXPLAINED_SUPPORT_MARGIN = 0.2  # ... and the provision an explanation is a commentary on, this close
BINDING_SUPPORT_MARGIN = 0.05  # ... when it supports the question about as well (the same point, not another)
NEAR = 3  # a following statement stands within this many statements of the lead
CUE_FOLLOW_SUPPORT = 0.2  # a nearby statement carrying the asked-for fact (an extension period) needs only this
POSITION_PRIOR = 0.01  # per statement: a provision says its main rule first
META_PENALTY = 0.3  # "Scope: ...", "History: ...": about the document, not what it provides
META_LABELS = frozenset({"scope", "source", "history", "background", "note", "status", "summary", "profile identity"})
# ... unless the question asks about the text itself: its history, scope, source or status
_META_QUESTION_RE = re.compile(
    # (a patient's, medical or family history is what a record holds)
    r"\b((?<!patient's )(?<!patients' )(?<!medical )(?<!clinical )(?<!health )(?<!family )histor\w*|originally"
    r"|first (introduced|published|set out)|earlier (version|wording)|(19|20)\d\d|revis\w*|out of date|outdated"
    r"|(added|introduced|new) (most )?(recently|lately|last)|(was|were) (added|introduced)|latest (one|addition)"
    r"|scope|appl(y|ies) (to|from)|(start|begin)s? (to apply|applying)|source|background|status|in(to)? force"
    r"|take effect|replaced|which (\w+ )?profiles?|when (do|does|will)\b[^?]{0,60}\bappl(y|ies|ying))\b",
    re.I,
)
BOILERPLATE_PENALTY = 0.3  # a statement repeated in several documents says nothing about any one of them
CONFIDENCE_WEIGHT = 0.5  # the grader's view of the whole chunk
DEFINITION_PENALTY = 0.15  # what a word means does not answer how long, how much or how to
DEFINES_ASKED_BONUS = 0.3  # "'pseudonymisation' means ..." answers "what is pseudonymisation?" before any use of it
# what a word means answers none of these ("pseudonymisation definition" is "explanation")
NOT_DEFINITIONS = frozenset({"deadline", "amount", "procedure", "obligation"})

_MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december"
_TENS = r"(twenty|thirty|forty|fifty|sixty)[ -](one|two|three|four|five|six|seven|eight|nine)"
# "72 hours", "seventy-two hours", "36 (thirty six) months", "thirty six (36) months", "three additional months"
_PERIOD = (
    rf"\b(\d+|{_TENS}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|thirty|sixty|ninety"
    r"|seventy-two|twenty-four|forty-five)(\s*\([^)]{1,20}\))?[- ]((additional|further|consecutive|continuous"
    r"|calendar|working|full|clear) )?(hours?|days?|weeks?|months?|years?)\b"
)
_CUES: dict[str, re.Pattern[str]] = {
    "deadline": re.compile(
        rf"{_PERIOD}|without (undue )?delay|\bimmediately\b|\b(no|not) later than\b"
        r"|\bno longer than (is )?necessary\b"  # how long data may be kept: storage limitation
        # "how often?": "annually", "at least once a year", "twice a month"
        r"|\b(annually|yearly|monthly|weekly|daily|every (year|month|week|day)"
        r"|(once|twice|\w+ times) (a|an|per|each|every) (year|month|week|day|quarter))\b"
        rf"|\b\d{{1,2}} ({_MONTHS}) \d{{4}}\b",
        re.I,
    ),
    "amount": re.compile(
        r"(EUR|€|Rs\.?|INR|£|\$)\s?\d|\d[\d,. ]*\s?(%|(per cent|percent|EUR|euros?)\b)|free of charge|reasonable fee"
        # a limit states an amount by its figure or by where the figure is ("up to the limit as shown in the Table
        # of Benefits"); a mention of sub-limits or of the Sum Insured states none
        r"|\bup to (the |a |an )?(\w+ ){0,3}\d|\bup to the (limit|sum insured|amount)\b"
        r"|\bmaximum (of |amount )?\w*\s?\d"
        r"|\bas (shown|per|specified|mentioned|stated) in the (table|schedule)\b|\b\d+ items\b",
        re.I,
    ),
    "definition": re.compile(
        r"\bmeans\b|\bis defined as\b|\brefers to\b|\bis (a|an|the) ([\w-]+ ){1,3}(who|that|which)\b", re.I
    ),
    # "Where a type of processing ... is likely to result in a high risk ..., the controller must ...", "must designate
    # a data protection officer where: (a) ...": the circumstances in which a duty arises ("Where necessary" and
    # "When carrying out ..." set none)
    "condition": re.compile(
        r"^\W*(where|if|whenever|in (the )?cases? (of|where))\b"
        r"(?! (necessary|appropriate|applicable|possible|relevant)\b)"
        r"|^\W*when\b(?! \w+ing\b)|\b(must|shall)\b[^.;]{0,160}\bwhere\s*:|\brequired in particular\b"
        # "... the right to obtain ... erasure ... where one of the following grounds applies:"
        r"|\b(where|if|when) (one|any) of the following\b"
        r"|\bin (any of )?the following (cases|circumstances|situations)\b"
        r"|\b(only|unless) (if|where|when)\b",
        re.I,
    ),
    "who": re.compile(
        r"\b(shall|must|is responsible|are responsible|is accountable|shall be responsible)\b"
        r"|\b(is|are|be) (made|paid|payable|given|sent|addressed|issued) to\b",  # "Payment is made to the Member"
        re.I,
    ),
}
# what someone must do is a statement of a duty, as who must do it is (against descriptions and definitions); no cue
# for yes/no or procedure questions: "shall", "must" and "may" are in nearly every provision
_CUES["obligation"] = _CUES["who"]
# "When do the rights start applying?" wants a date; "what is the longest ...?" wants a maximum.
# a statement that opens by defining a term: "'genetic data' means ...", "Hospital means ...", "X is defined as"
# "may extend the period ... by three additional months": what follows the period it extends
_EXTENDS_RE = re.compile(r"\b(extend\w*|prolong\w*)\b.{0,80}\b(additional|further)\b", re.I)
_COUNT = r"\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
_HOW_MANY_RE = re.compile(r"\bhow many (\w+)", re.I)
_TIME_UNIT_RE = re.compile(r"(hours?|days?|weeks?|months?|years?)", re.I)
_PERIOD_RE = re.compile(_PERIOD, re.I)
_DATE_QUESTION_RE = re.compile(
    r"\bwhen (do|does|will|did)\b.{0,60}\b(appl|start|begin|enter|tak)|\b(what|which|by what) date\b"
    r"|^\W*when (did|was|were)\b",  # "When did the DSPT replace the IG Toolkit?"
    re.I,
)
_AND_WHEN_RE = re.compile(r"\b(and|or),? (by )?when\s*\?\s*$", re.I)  # "Will the EU set them, and by when?"
_APPLIES_RE = re.compile(
    r"\b(appl(y|ies|ied|ication)|in force|takes? effect|enter(s|ed)? into force|start(s|ed)?|begins?|began)\b", re.I
)
_DATE_RE = re.compile(
    rf"\b\d{{1,2}} ({_MONTHS}) \d{{4}}\b|\b(from|by|until|before|in|since) (\d{{1,2}} )?(({_MONTHS}) )?\d{{4}}\b", re.I
)
_DAY_RE = re.compile(rf"\b\d{{1,2}} ({_MONTHS})\b|\b({_MONTHS}) \d{{1,2}}\b", re.I)
_BY_DATE_RE = re.compile(r"\bby (what|which) date\b|\b(what|which) date\b.{0,60}\b(by|due|deadline)\b", re.I)
_WHO_MAY_RE = re.compile(
    r"\bwho (is|are) (allowed|permitted|entitled|able)\b|\bwho (can|may|could)\b|\bwho should (be able to|have|get)\b",
    re.I,
)
# a permission, or a restriction of it to some ("Only those who need access ... should have it")
_MAY_RE = re.compile(
    r"\b(may|can|is entitled|are entitled|(has|have) the right)\b|\bonly (those|people|persons|staff|individuals)\b",
    re.I,
)
_WHO_MUST_RE = re.compile(
    r"\bwho (has|have|needs?) to\b|\bwho (must|shall|needs)\b|\bwho (is|are) (required|obliged|obligated|bound)\b",
    re.I,
)
# a duty someone bears ("The controller and the processor must in any case designate a data protection officer
# where ..."), not how a thing must be done ("The data protection officer must be designated on the basis of ...")
_MUST_RE = re.compile(r"\b(must|shall|(is|are) (required|obliged) to|(has|have) to)\b(?! (\w+ )?be\b)", re.I)
# "the most they can fine", "at most" (not "most patient details": the greater part of them)
_MAXIMUM_QUESTION_RE = re.compile(
    r"\b(longest|maximum|at most|upper limit|cap)\b|\bthe most\b(?! (common|important|likely|recent|usual))", re.I
)
# ... or that there is none ("No limit shall apply to Room Rent")
_NO_LIMIT = r"no (sub-?)?limit|unlimited"
_MAXIMUM_RE = re.compile(
    rf"\b(not exceeding|maximum|at most|up to|no longer than|no more than|not more than|{_NO_LIMIT})\b", re.I
)
# an exclusion clause that only lists what it excludes ("Contraception, sterilisation, ...") says so here
_EXCLUDES_RE = re.compile(r"\bexclu\w*|\bnot (be )?(liable|covered|payable|admissible)\b", re.I)


# Words every question about a policy's cover shares: they never show that a clause is about the thing asked.
_COVER_QUESTION_WORDS = frozenset(
    words(
        "individual group family floater member person insured year month day week time free each every per health "
        "hospital hospitalisation treatment expenses cost costs charge charges fee fees bill pay paid payment claim "
        "money get give offer "
        "include provide benefit need want stay company employer scheme plan join fix done surgery operation "
        # when the asker joined or that they are treated ("in my first year", "get treated for"), not what is
        # asked about
        "buy bought last ago soon just recently new already start started first treat treated "
        "no not nor don doesn didn isn aren won ve ll re ever "  # "If I don't claim, do I get a no-claims bonus?"
        # admitted to hospital, some days ago: the asker's situation, not what is asked about
        "admit admitted admission one two three four five six seven eight nine ten eleven twelve"
    )
)


@dataclass
class Option:
    """A statement a block offers, scored for this question."""

    block: int
    statement: Statement
    support: float
    score: float
    cue: bool = False
    # the case the question describes falls short of what the statement requires: a waiting period still running
    # for every illness or the kind asked, a minimum stay or size it does not reach ("about 18 hours" / "24 hours")
    short: bool = False
    boilerplate: bool = False  # said alike in several documents ("Assessment: the DSPT is ..." of every standard)
    alone: float = 0.0  # its support for the asking sentence read alone, after a story


# points of another article a provision takes in: "... referred to in points (b), (c) and (d) of Article 33(3)"
_POINTS_TAKEN_IN_RE = re.compile(
    r"\bpoints? (?P<letters>\([a-z]\)(?:(?:,| and| or) \([a-z]\))*) of Article (?P<article>\d+(?:\(\d+\))?)", re.I
)
_EXCEPTED_RE = re.compile(rf"{EXCEPTED}[^;:.()]*", re.I)
# a list written in one sentence: "The minimum tasks are ...: to inform and advise ...; to monitor ...; to advise ..."
_INLINE_LIST_RE = re.compile(r":[^:;]+;[^:;]+;[^:;]+;")


def _named(text: str) -> set[str]:
    """The words a text names, without what it names only as an exception ("other than AYUSH treatment")."""
    return set(words(_EXCEPTED_RE.sub(" ", text)))


def _cue_text(statement: Statement, block: Evidence) -> str:
    """A statement with what gives it its sense: a point after its lead-in, or after the sentence announcing it."""
    return statement.whole if statement.lead_in or not statement.marker else f"{_announcing(block)} {statement.whole}"


def _cue(
    question: str, analysis: QuestionAnalysis, statement: Statement, block: Evidence, benefit_named: int = 0
) -> bool:
    """The statement carries the kind of fact the question asks for; asked whether something is covered,
    an exclusion naming it answers (it overrides any benefit or waiting period that also names it), unless a
    benefit's own name says more of what is asked (`benefit_named` words: "Hospital Daily Cash" for a daily
    allowance, against custodial care "for help with daily activities"). A point carries what the sentence
    announcing its list says ("... listed below ... 24 months: (a) Cataract")."""
    text = _cue_text(statement, block)
    if analysis.about_cover and block.metadata.get("coverage_type") == "not_covered":
        asked = asked_about(question, analysis)  # named as excluded, not as the exception to an exclusion
        return not asked or len(asked & _named(text)) >= max(1, benefit_named)
    if analysis.answer_type == "list":
        listed = set(words(analysis.list_of or ""))  # named by the list or by its clause ("7.4 Claim Documents")
        named = set(words(statement.text)) | set(words(_heading(block)))
        # its points, or another provision's taken in ("... contain at least the information referred to in points
        # (b), (c) and (d) of Article 33(3)")
        taken_in = _POINTS_TAKEN_IN_RE.search(statement.text)
        listing = (
            bool(statement.points)
            or bool(taken_in and taken_in.group("letters").count("(") > 1)
            or bool(_INLINE_LIST_RE.search(statement.text))
        )
        return listing and (not listed or bool(listed & named))
    if analysis.answer_type == "yes_no":  # it says whether the party asked about may do the act asked about
        # ... or, asked "and by when?" after it, the date it happens by
        # ... or, asked whether it was done in time ("Weren't they supposed to answer me by now?"), the period
        return (
            bool(yes_no_opener(question, text))
            or bool(_AND_WHEN_RE.search(question) and _DATE_RE.search(text))
            or bool(_TIMELINESS_RE.search(question_sentence(question)) and _PERIOD_RE.search(text))
        )
    if _DATE_QUESTION_RE.search(question):
        # "When does the EHDS start applying?": the date it applies from, not the date it was published
        return states_kind_asked(question, analysis, text)
    if counted := _HOW_MANY_RE.search(question):  # "how many digits?": a number of digits ("10 digits", "10-digit")
        if _TIME_UNIT_RE.fullmatch(counted.group(1)):  # "how many days in advance?": "at least 48 hours before"
            return bool(_PERIOD_RE.search(text))
        noun = re.escape(counted.group(1).lower().rstrip("s"))
        return bool(re.search(rf"\b({_COUNT})[- ](\w+[- ])?{noun}", text, re.I))
    if _MAXIMUM_QUESTION_RE.search(question) and analysis.answer_type in ("deadline", "amount"):
        return bool(_MAXIMUM_RE.search(text))
    if analysis.answer_type == "who" and _WHO_MAY_RE.search(question):  # "who is allowed to apply?": who may
        return bool(_MAY_RE.search(text))
    if analysis.answer_type == "who" and _WHO_MUST_RE.search(question):  # "who has to appoint a DPO?": who must
        return bool(_MUST_RE.search(text))
    cue = _CUES.get(analysis.answer_type)
    return bool(cue and cue.search(text))


def states_kind_asked(question: str, analysis: QuestionAnalysis, text: str) -> bool:
    """Asked when, how long or how much, the text states a date, period or amount of the kind asked for (the
    date something applies from, when asked when it applies)."""
    if date_asked := _DATE_QUESTION_RE.search(question):
        applying = bool(date_asked.group(2)) and not date_asked.group(2).lower().startswith("tak")
        # a date something must be done by is a day ("by 30 June"), not a year something happened in ("in 2018")
        dated = _DAY_RE if _BY_DATE_RE.search(question) else _DATE_RE
        return bool(dated.search(text)) and (not applying or bool(_APPLIES_RE.search(text)))
    cue = _CUES.get(analysis.answer_type) if analysis.answer_type in ("deadline", "amount") else None
    return bool(cue and cue.search(text))


# a duty to set something up, then what it sets up: "shall designate one or more health data access bodies" (not
# "may appoint one", a choice about it)
_ESTABLISHES_RE = re.compile(
    r"\b(shall|must)\b (?:[\w-]+ ){0,3}?(designate|establish|set up|create|appoint)\b"
    r" (?P<what>(?:[\w-]+ ){0,3}[\w-]+(?: [\w-]+){0,4})",
    re.I,
)


def _establishes_asked(question: str, text: str) -> bool:
    """The statement sets up what the question asks about ("Member States shall designate one or more health data
    access bodies responsible for ...": what a health data access body is, where no provision defines it), not
    one that mentions its appointment ("guidance on the appointment of Caldicott Guardians")."""
    asked = content_terms(question) - ANSWER_TYPE_WORDS
    return bool(asked) and any(asked <= set(words(m.group("what"))) for m in _ESTABLISHES_RE.finditer(text))


def _definitions_of(terms: tuple[str, str] | None, candidates: list[Option]) -> list[Option]:
    """Asked how two things differ, the definition of each, best first for each, when the evidence defines both."""
    if not terms:
        return []
    defined = [
        max(
            (o for o in candidates if defines_asked(f"What is {term}?", o.statement.text)),
            key=lambda o: o.score,
            default=None,
        )
        for term in terms
    ]
    first, second = defined
    return [first, second] if first and second and first is not second else []


def defines_asked(question: str, text: str) -> bool:
    """The statement opens by defining a term the question asks about ("What is meant by pseudonymisation?":
    "'pseudonymisation' means ..."), not a term that merely shares a sentence with it."""
    term = defined_term(text)
    return bool(term) and bool(set(words(term)) & content_terms(question))


def _says_of_the_kind(term: str, statement: Statement) -> bool:
    """The statement says what is, or is not, of the kind asked ("pseudonymised data are still personal data for
    anyone who can re-identify them" for "Is the dataset still personal data?")."""
    kind = r"\s+".join(re.escape(w) for w in term.split())
    return bool(
        re.search(
            rf"\b(?:is|are|remains?|stays?)\s+(?:still\s+|not\s+|no longer\s+)?(?:an?\s+|the\s+)?{kind}\b",
            statement.text,
            re.I,
        )
    )


# "Is a patient's postcode personal data?", not "Is it lawful to ...", "Are we allowed to ...", "Can I refuse ...?"
_IS_IT_A_RE = re.compile(
    r"^\s*(?:is|are|was|were)\s+(?!(?:it|there|we|you|they|i|he|she)\b)"
    r"(?!.*\b(?:allowed|permitted|legal|lawful|ok|okay|able|required|obliged|entitled|necessary|possible|needed)\b)",
    re.I,
)


def _ends_with_defined_term(question: str, text: str) -> bool:
    """The statement defines the term a question asking what something is ends with: "Is a patient's postcode on
    its own personal data?" asks whether the postcode is what "'personal data' means ..." says."""
    if not _IS_IT_A_RE.match(question):
        return False
    term = words(defined_term(text))
    return bool(term) and words(question)[-len(term) :] == term


def _names_provision(analysis: QuestionAnalysis, block: Evidence, statement: Statement) -> bool:
    """The question names this point ("46(2)(c)") or this block's provision ("Principle 2")."""
    if not block.scores.reference_match:
        return False
    named_points = {p.rsplit("(", 1)[-1].rstrip(")") for p in analysis.provisions if "(" in p}
    if statement.marker and named_points:
        return statement.marker.strip("().").lower() in named_points
    return not named_points or not statement.marker


def _lists_named_article(analysis: QuestionAnalysis, option: Option, blocks: list[Evidence]) -> bool:
    """The statement (after its lead-in) lists an article the question names, of the same law ("infringements of
    ... Articles 8, 11, 25 to 39 ... are subject to fines up to ...", asked about Article 32)."""
    block = blocks[option.block]
    named = {p.split("(")[0] for p in analysis.provisions if p[:1].isdigit()}
    same_law = not analysis.instrument or block.citation.lower().startswith(analysis.instrument)
    return same_law and bool(named & articles_listed(_cue_text(option.statement, block)))


def _defines_what_is_asked(question: str, analysis: QuestionAnalysis, option: Option) -> bool:
    return analysis.answer_type == "definition" and defines_asked(question, option.statement.text)


def _quotable(statement: Statement, whole_lists: bool) -> bool:
    """Headings are labels; a list answer quotes lead-ins with all their points, any other answer the lead-in
    alone or one point after its lead-in."""
    if statement.heading or (not statement.points and reads_as_label(statement.text)):
        return False
    if whole_lists:
        return not statement.marker or not statement.lead_in
    return True


# "the Caldicott principle about informing patients how their information is used": a provision named by its subject
_NAMED_BY_SUBJECT_RE = re.compile(
    r"\b(?:principle|standard|article|clause|section|rule)s? (?:about|on|covering|dealing with|concerning|that covers)"
    r" (?P<subject>[^?.;:]+)",
    re.I,
)
SUBJECT_TITLE_SHARE = 0.5  # of the subject's words the provision's title must say


def _titled_as_asked(question: str, titles: list[str]) -> set[int]:
    """The blocks of the provision a question names by its subject: the one title saying most of the subject's
    words (at least half of them), when one does; none otherwise."""
    named = _NAMED_BY_SUBJECT_RE.search(question)
    subject = set(words(named["subject"])) if named else set()
    if not subject:
        return set()
    shares = [len(subject & set(words(title))) / len(subject) for title in titles]
    best = max(shares, default=0.0)
    fitting = {i for i, share in enumerate(shares) if share == best}
    return fitting if best >= SUBJECT_TITLE_SHARE and len({titles[i] for i in fitting}) == 1 else set()


JURISDICTION_BONUS = 0.5  # a statement that the law asked about does not apply where the question is set
_NOT_IN_THE_UK_RE = re.compile(
    r"\b(?:EHDS|European Health Data Space)\b[^.]*\bdoes not apply in the (?:UK|United Kingdom)\b", re.I
)
SET_ASIDE_PENALTY = 0.3  # a statement about what the question asks besides
_BESIDES_RE = re.compile(
    r"\b(?:apart from|aside from|besides|other than|except for)\s+(?P<what>[^,.?;]{3,40})"
    # "40 days on a general ward, no ICU:": a thing the scene says was not there, set off on its own
    r"|[,;:(]\s*(?:no\s+|not in (?:the |an? )?|without (?:an? |the )?)(?P<absent>[\w-]+)\s*(?=[,;:).])",
    re.I,
)


def _set_aside(question: str) -> set[str]:
    """The content words of what the question asks about besides ("Apart from a copy of my records, what else
    ...": copy), or nothing when it sets nothing aside."""
    match = _BESIDES_RE.search(question)
    if match is None:
        return set()
    return (set(words(match["what"] or match["absent"])) & content_terms(question)) - set(
        words("record data information")
    )


def options(question: str, analysis: QuestionAnalysis, blocks: list[Evidence], embed: Embed | None) -> list[Option]:
    """Every quotable statement of every block, scored."""
    # a list, or a definition made of points ("Hospital means ... which has: (a) ... (b) ..."), is quoted whole;
    # a question naming one point ("46(2)(c)") is answered from that point
    named_point = any("(" in p for p in analysis.provisions)
    whole_lists = analysis.answer_type == "list" or (analysis.answer_type == "definition" and not named_point)
    per_block = [
        [s for s in every if _quotable(s, whole_lists) and not _announces_nothing(s, every)]
        for every in (statements(b.text) for b in blocks)
    ]
    # a statement repeated in several documents under different headings is boilerplate ("Scope: ..." of every
    # principle); the same clause of two variants of a wording (7.1 of the individual and the group rider) is not
    seen_in: dict[str, set[tuple[str, str]]] = {}
    for block, quotable in zip(blocks, per_block, strict=True):
        for statement in quotable:
            seen_in.setdefault(statement.text, set()).add((block.doc_id, _heading(block)))
    titles = [passage_title(b.section, b.text) for b in blocks]
    referenced = {i for i, b in enumerate(blocks) if b.scores.reference_match} | _titled_as_asked(question, titles)
    texts = [[s.scored_text(whole_lists) for s in ss] for ss in per_block]
    naming = {w for i in referenced for w in words(blocks[i].citation)}
    scored = score_sentences(question, texts, embed, referenced, skip_headings=False, naming=naming, titles=titles)
    asks_date = bool(_DATE_QUESTION_RE.search(question))  # "when does it apply?" is answered only by a date
    special_law = not about_ehds(question)
    about_text = bool(_META_QUESTION_RE.search(question))  # its history, scope or dates: what notes say
    classified = classified_as(question)
    kind_asked = classified_as(question, said_how=True)  # "still personal data", not "Is that allowed?"
    happened = [done for found in _HAS_HAPPENED_RE.findall(question) for done in found if done]
    event = _event_words(question)
    claim_deadline = bool(_OWN_CLAIM_DEADLINE_RE.search(question))
    contrary_kinds = kinds_set_against(question)
    recipient = _recipient(question)
    denied = _denied(question)
    necessity = duty_asked(question)
    duty = necessity if analysis.answer_type == "yes_no" else None
    # (asked whether one must do it, the provision putting that duty answers, not any statement saying the act)
    done_to = _done_to_it(question) if necessity is None else None
    # a yes/no question whether one may or must do an act, not whether something is of a kind
    whether_to_act = (
        analysis.answer_type == "yes_no"
        and not classified
        and bool(act_asked(question) or _ELLIPTICAL_RE.match(question_sentence(question)))
    )
    asked = asked_about(question, analysis)
    benefit_named = max(  # the most asked words a benefit's own name says (its heading and benefit name)
        (
            len(asked & _named(_heading(b)))
            for b in blocks
            if b.document_type == "policy_wording" and b.metadata.get("coverage_type") != "not_covered"
        ),
        default=0,
    )
    described = {w[:CASE_STEM] for w in [*words(question), *words(" ".join(expansion_terms(question)))]}
    set_aside = _set_aside(question)
    uk_ehds = ehds_asked_in_the_uk(question)
    # how long the asker's cover has run, if the question says, when it asks whether or when (not how much)
    run_days = cover_run_days(question) if analysis.answer_type in ("yes_no", "deadline", "explanation") else None
    waited_for = f"{question} {' '.join(expansion_terms(question))}"
    stated = stated_quantities(question)
    terms = content_terms(question)
    quoted = [q.lower() for q in _QUOTED_RE.findall(question)]
    out: list[Option] = []
    flat = [(i, s) for i, ss in enumerate(per_block) for s in ss]
    for (index, statement), support in zip(flat, scored, strict=True):
        if statement.text.rstrip().endswith(":") and not statement.points:
            continue  # a lead-in whose lines carry no markers introduces nothing quotable with it
        block = blocks[index]
        score = (
            support.score - POSITION_PRIOR * min(statement.position, 10) + CONFIDENCE_WEIGHT * (block.confidence or 0)
        )
        cue = _cue(question, analysis, statement, block, benefit_named)
        score += (LIST_CUE_BONUS if analysis.answer_type == "list" or asks_date else CUE_BONUS) if cue else 0.0
        defining = analysis.answer_type == "definition" and defines_asked(question, statement.text)
        # a note saying what the text is, repeated in every principle, answers nothing, unless it defines the term asked
        score -= META_PENALTY if statement.label in META_LABELS and not (about_text or defining) else 0.0
        boilerplate = _boilerplate(seen_in[statement.text]) and not defining
        score -= BOILERPLATE_PENALTY if boilerplate else 0.0
        score += REFERENCE_BONUS if _names_provision(analysis, block, statement) else 0.0
        # ... unless the case falls short of what it requires ("a clinic with three beds": "at least 5 beds")
        asks_to_act = whether_to_act and not (stated and falls_short(stated, statement.text))
        if (analysis.answer_type in NOT_DEFINITIONS | {"who"} or asks_date or asks_to_act) and _CUES[
            "definition"
        ].search(statement.text):  # what a thing is answers neither how long, how much, how to, who, when nor
            score -= DEFINITION_PENALTY  # whether one may do something ("Can we pay the claim to the employer?")
        says_kind = bool(kind_asked) and _says_of_the_kind(kind_asked, statement)
        if analysis.answer_type == "definition" and defines_asked(question, statement.text):
            score += DEFINES_ASKED_BONUS
        elif analysis.answer_type == "definition" and _establishes_asked(question, statement.text):
            score += DEFINES_ASKED_BONUS / 2  # what no provision defines, the one setting it up says what it is
        elif analysis.answer_type == "yes_no" and (
            (classified and defines_asked(classified, statement.text))
            or says_kind
            or _ends_with_defined_term(question, statement.text)
        ):
            score += DEFINES_ASKED_BONUS  # "Is that profiling?": what profiling is decides it
            # ... and a statement that such a thing is (or is not) of the kind says the answer itself
            cue, score = (True, score + CUE_BONUS) if says_kind else (cue, score)
        score += CUE_BONUS if _after_what_happened(happened, statement.text) else 0.0
        # "Will that refusal be published?": a statement saying that act (under its lead-in: "publishing ...: (iii) all
        # refusal decisions ...") answers before one on the refusal alone
        score += ACT_BONUS if done_to and done_to.said_in(statement.whole) else 0.0
        score += CUE_BONUS if event & {w[:CASE_STEM] for w in words(statement.text)} else 0.0
        # asked by when a claim must be made, a claims clause answers before a waiting period of the same benefit
        score += CUE_BONUS if claim_deadline and block.metadata.get("section_key") == "claims" else 0.0
        score += RECIPIENT_BONUS if recipient and recipient <= set(words(statement.text)) else 0.0
        # "Do we have to appoint a DPO?": the provision putting that duty ("must ... designate"), before what one may do
        score += CUE_BONUS if duty and block.authority == "binding" and duty.imposed_by(statement.text) else 0.0
        # a provision's case, not a wording's preconditions ("If a claim is admitted under Clause 3.1, ... will pay")
        if block.document_type != "policy_wording" and _for_another_case(statement.text, described):
            score -= ANOTHER_CASE_PENALTY
        if _case_denied(denied, statement.text):  # "there's been no investigation": not "Where ... an investigation"
            score -= DENIED_CASE_PENALTY
        elif denied & set(words(statement.text)):
            score -= DENIED_MENTION_PENALTY  # ... nor one naming it ("not payable for days in an Intensive Care Unit")
        if block.document_type == "policy_wording" and (
            (analysis.answer_type == "deadline" and puts_the_duty_on_the_asker(question, statement.text))
            or the_asker_acts(question, statement.text)
        ):  # "How long do I have to claim?": the insured person's duty, not the insurer's ("we" is every controller)
            score += OWN_DUTY_BONUS
        short = block.document_type == "policy_wording" and (
            # "I bought it two weeks ago ...": the waiting period still running answers, cover or no cover
            (
                run_days is not None
                and still_waiting(
                    waited_for, _cue_text(statement, block), run_days, bool(terms & _named(statement.text))
                )
            )
            # "about 18 hours": the minimum stay a hospitalisation needs, which the case does not reach
            or bool(stated and falls_short(stated, _cue_text(statement, block)))
        )
        cue, score = (True, score + SHORT_BONUS) if short else (cue, score)
        if uk_ehds and _NOT_IN_THE_UK_RE.search(statement.text):  # the EHDS asked about for an NHS trust: not here
            cue, score = True, score + JURISDICTION_BONUS
        # "Apart from a copy of my records, what else ...?": what the question sets aside is not its answer
        score -= (
            SET_ASIDE_PENALTY if set_aside and set_aside <= set(words(f"{statement.text} {_heading(block)}")) else 0.0
        )
        score += BINDING_BONUS if block.authority == "binding" else 0.0
        score += QUOTED_BONUS if any(q in statement.text.lower() for q in quoted) else 0.0
        score += TITLE_BONUS if titled(question, block.section) else 0.0
        score -= _law_penalty(analysis.instrument, special_law, statement, block)
        score -= CONTRARY_KIND_PENALTY if says_the_contrary_kind(contrary_kinds, statement.whole) else 0.0
        out.append(Option(index, statement, support.score, score, cue, short, boilerplate, support.alone))
    return out


# "Where a personal data breach is likely to result in a high risk ..., the controller must ...": a rule for a case
# the question does not describe (asked when to tell patients whose data came from hospitals, not about a breach)
_RULE_CASE_RE = re.compile(r"^\W*(?:where|if|in (?:the )?cases? (?:of|where))\s+(?P<case>[^,;:]{8,200}?),", re.I)
# words of nearly every case the law sets: they tell no case from another
_EVERY_CASE_WORDS = frozenset(
    # ... the parties every rule names, and its references to itself ("If the supervisory authority considers that the
    # processing referred to in paragraph 1 would infringe this Regulation": a case of infringing, not of a regulator)
    words(
        "personal data processing processed controller controllers processor natural person persons subject health"
        " supervisory authority authorities regulation article paragraph referred"
    )
)
CASE_STEM = 5  # a case word and a question word sharing their first five letters are one ("hospitalised", "hospital")
ANOTHER_CASE_PENALTY = 0.1
DENIED_CASE_PENALTY = 1.0  # a case the question says did not happen answers only when nothing else does
DENIED_MENTION_PENALTY = 0.1  # a statement naming it in passing answers after one that does not


# "there's been no investigation", "without an investigation": a case the question rules out
_DENIED_RE = re.compile(
    r"\b(?:there(?: has|'s| have) been no|there(?: is|'s| was| were) no|without (?:an? |any )?"
    # "five days on the ward, not in intensive care": the ICU's own benefit is not the answer
    r"|(?:,|was|were|is|i'm|he's|she's) not in (?:an? |the )?)\s*(?P<thing>[a-z]+(?: (?!and\b|or\b|but\b)[a-z]+)?)",
    re.I,
)


def _denied(question: str) -> set[str]:
    """The stems of what the question says did not happen ("there's been no investigation": investig; "not in
    intensive care": intens)."""
    return {w for m in _DENIED_RE.finditer(question) for w in words(m["thing"])}


def _case_denied(denied: set[str], text: str) -> bool:
    """The statement's opening case is one the question rules out (`_denied`): "Where the circumstances of a claim
    warrant an investigation, ..." after "there's been no investigation"."""
    case = _RULE_CASE_RE.match(text) if denied else None
    return bool(case and denied & set(words(case["case"])))


def _article(block: Evidence) -> str:
    """A provision's article without its paragraph and point: "GDPR Art. 14" for "GDPR Art. 14(3)(a)"."""
    return block.citation.split("(")[0].strip()


def _for_another_case(text: str, described: set[str]) -> bool:
    """The statement is a rule for a case none of whose words the question (or the law's terms for its plain
    phrases) uses; `described`: those words, cut to CASE_STEM letters."""
    found = _RULE_CASE_RE.match(text)
    case = {w[:CASE_STEM] for w in words(found["case"]) if w not in _EVERY_CASE_WORDS} if found else set()
    return bool(case) and not case & described


# who a report or a notice must reach: "How fast must a breach reach senior management?", "report it to the board"
_RECIPIENT_RE = re.compile(
    r"\b(?:reach|reaches|report(?:ed|s)? (?:\w+ ){0,2}?to|notif(?:y|ied)|tell|told|inform(?:ed)?|escalated? to"
    # ... or be shared with, disclosed or passed to: "Can a hospital share my records with the police?"
    r"|(?:share|shared|sharing|disclose|disclosed|pass|passed|hand|handed|give|given) (?:\w+ ){0,3}?(?:with|to))"
    r" (?:the |a |an |our |their |its )?(?P<who>(?:[a-z-]+ ){0,2}?[a-z-]+?)"
    r"(?= in | of | at | within | by | about |\?|,|$)",
    re.I,
)
RECIPIENT_BONUS = 0.15
OWN_DUTY_BONUS = 0.1  # asked how long the asker has, a clause putting the duty on the asker's kind of party
# a person told is the data subject, whom the law names otherwise: only an organisation or a role is matched by name
_ALL_PARTY_WORDS = frozenset(
    words("me us them him her you it anyone everyone patient patients person people individual individuals")
)


_PERSONS_RE = re.compile(r"\b(patients?|people|persons?|individuals?)\b", re.I)  # not "personal data"


def _recipient(question: str) -> set[str]:
    """The words naming whom the question says something must reach ("senior management"), or none: a statement
    saying who else is told (the supervisory authority) answers another duty."""
    match = _RECIPIENT_RE.search(question_sentence(question))
    who = set(words(match.group("who"))) if match else set()
    if match and _PERSONS_RE.search(match.group("who")):  # "tell the patients affected": the law's data subject
        return set(words("data subject"))
    return who - _ALL_PARTY_WORDS


def _boilerplate(seen: set[tuple[str, str]]) -> bool:
    """Seen (document, heading) pairs: in more than one document, under more than one heading."""
    return len({doc for doc, _ in seen}) > 1 and len({heading for _, heading in seen}) > 1


# "Our data permit has just been issued": what has happened to the asker; "Once the data permit has been issued,
# ...": a statement of what follows it
_HAS_HAPPENED_RE = re.compile(
    r"\b(?:has|have) (?:just |already |now |recently )?been (\w+(?:ed|en|wn|t))\b"
    r"|\b(?:was|were) (?:just |already |now |recently |finally )?(\w+(?:ed|en|wn))\b"  # "Our permit was granted"
    # "We've marked the record as restricted": the state it has been put in
    r"|\b(?:marked|flagged|set|listed|recorded)\b[^.?!,;]{0,40}?\bas (\w+ed)\b",
    re.I,
)


# "What happens to the data once my permit runs out?": what follows an event, said by the statement naming it
_WHAT_HAPPENS_RE = re.compile(
    r"\bwhat (?:happens|will happen|would happen)\b[^?]*?\b(?P<on>once|when|after|if|as soon as)\s+(?P<event>[^?,;]+)",
    re.I,
)


# "will that refusal be published", "can my record be shared": what the question asks will be done to a thing
_DONE_TO_RE = re.compile(
    r"\b(?:will|would|is|are|can|could|must|should|may|has|have)\s+(?P<thing>(?:[\w'-]+\s+){0,4}?)"
    r"(?:be|been|being|get|gets)\s+(?:\w+ly\s+|ever\s+|also\s+)?(?P<act>\w{3,}(?:ed|en))\b",
    re.I,
)
# ... or in the active: "have to publish the data permits", "must it publish that refusal"
_DOES_TO_RE = re.compile(
    r"\b(?:must|shall|should|will|would|can|could|may|ha(?:ve|s) to|needs? to)\s+(?:(?:it|they|we|you|he|she|i)\s+)?"
    r"(?!(?:be|been|have|get|also|still|ever|really|not|just|first)\b)(?P<act>[a-z]{4,})\s+"
    r"(?P<thing>(?:(?:the|its|their|our|that|those|these|any|all|every)\s+)?[a-z]+(?:\s+[a-z]+)?)",
    re.I,
)


@dataclass(frozen=True)
class DoneTo:
    """An act a question asks will be done to a thing, as stems: the act, the thing's words, and the words of the law's
    terms for the thing ("the ICO": supervisory authority)."""

    act: frozenset[str]
    thing: frozenset[str]
    termed: tuple[frozenset[str], ...]

    def said_in(self, text: str) -> bool:
        """The text says that act and names that thing, in all the question's words for it or half of the law's."""
        said = set(words(text))
        return self.act <= said and (self.thing <= said or any(2 * len(t & said) >= len(t) for t in self.termed))


def _done_to_it(question: str) -> DoneTo | None:
    """The act the question asks will be done to a thing it names, in the passive or the active ("will that refusal
    be published?", "does it have to publish the data permits?"), or None."""
    for match in (_DONE_TO_RE.search(question_sentence(question)), _DOES_TO_RE.search(question)):
        if match is None:
            continue
        act, thing = set(words(match["act"])), content_terms(match["thing"])
        # "Will it be paid?" names no thing: any statement paying anything would do; "give those patients our privacy
        # information" names whom it is done for, not what is done
        if act and thing and not thing & PERSON_WORDS:
            termed = tuple(frozenset(words(t)) for t in expansion_terms(match["thing"]) if t not in INSTRUMENT_NAMES)
            return DoneTo(frozenset(act), frozenset(thing), termed)
    return None


def _event_words(question: str) -> set[str]:
    """The stems of the event a "what happens once ..." question names, in its words ("expires") and the law's terms
    for them ("runs out": expires)."""
    match = _WHAT_HAPPENS_RE.search(question)
    if not match:
        return set()
    termed = [t for t in expansion_terms(f"{match['on']} {match['event']}") if t not in INSTRUMENT_NAMES]
    return {w[:CASE_STEM] for w in [*content_terms(match["event"]), *words(" ".join(termed))]}


# the texts' word for what a question says happened: a permit "granted" is "issued"
_SAME_EVENT = {"granted": "issued", "given": "issued", "approved": "issued"}


def _after_what_happened(happened: list[str], text: str) -> bool:
    """The statement says what follows an event the question says has happened (`happened`: "issued" for "has
    just been issued" / "Once the data permit has been issued, ..."), not how that event comes about."""
    return any(
        re.match(
            rf"^\W*(?:once|after|where|when|if)\b[^,.;]{{0,80}}\b(?:has|have) been (?:{re.escape(done)}|{said})\b",
            text,
            re.I,
        )
        for done in happened
        for said in [re.escape(_SAME_EVENT.get(done.lower(), done))]
    )


def _law_penalty(asked: str | None, special_law: bool, statement: Statement, block: Evidence) -> float:
    """A statement of the special law (the EHDS: its articles, a commentary's statements on it alone) when the
    question is about patient data in general; a statement of another law than the one the question names ("The
    UK GDPR has the same rules" in a commentary, asked about the EHDS; an EHDS article citing the GDPR is still
    the EHDS)."""
    stated, own = instruments_named(statement.text), instruments_named(str(block.metadata.get("instrument", "")))
    penalty = SPECIAL_LAW_PENALTY if special_law and (own or stated) == {"ehds"} else 0.0
    named = stated | own
    return penalty + (OTHER_LAW_PENALTY if asked and named and asked not in named else 0.0)


def asked_about(question: str, analysis: QuestionAnalysis) -> set[str]:
    """For a question about a policy's cover, the words that name what is asked about ("screening",
    "IVF" with its bridge "in vitro fertilisation"); empty for other questions."""
    if not analysis.about_cover:
        return set()
    bridged = {w for phrase in expansion_terms(question) for w in words(phrase)}
    # what the case is asked to be ("covered as a Member") is asked about, though the word is common in cover questions
    return ((content_terms(question) | bridged) - _COVER_QUESTION_WORDS) | set(
        words(classified_as(question, said_how=True))
    )


def _defines(option: Option, blocks: list[Evidence]) -> bool:
    """A definitions clause, or a statement saying what a word means."""
    block = blocks[option.block]
    return block.metadata.get("section_key") == "definitions" or bool(_CUES["definition"].search(option.statement.text))


def _sibling_asked(block: Evidence, home: Evidence, asked: set[str]) -> bool:
    """Two clauses of one wording whose headings differ by what the question (its words `asked`) names of each
    ("Hospital Daily Cash Benefit" and "ICU Daily Cash Benefit" for "how much daily cash in hospital and in ICU?"):
    both are asked."""
    if block is home or block.document_type != "policy_wording" or block.doc_id != home.doc_id:
        return False
    own, lead = set(words(_heading(block))), set(words(_heading(home)))
    return len(own & lead) >= SIBLING_SHARED_WORDS and bool((own - lead) & asked) and bool((lead - own) & asked)


SIBLING_SHARED_WORDS = 2


def _heading(block: Evidence) -> str:
    """A clause's first line and benefit name: what the clause is about."""
    first_line = block.text.partition("\n")[0]
    return f"{first_line} {block.metadata.get('benefit_name') or ''}"


@dataclass(frozen=True)
class Subject:
    """What a policy question is about, in its own words and in the wording's words its plain phrases stand
    for ("knee replacement": also "joint replacement")."""

    forms: tuple[frozenset[str], ...] = ()
    # the wording's terms for a plain phrase of it ("vasectomy": "contraception sterilisation")
    legal: tuple[frozenset[str], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.forms)

    def said_in_its_terms(self, text: str) -> bool:
        """The text says all the wording's terms for a plain phrase of it: a clause that answers, however long the
        scene around the phrase ("My husband wants a vasectomy ... Would either of them pay for it?")."""
        named = set(words(text))
        return any(terms <= named for terms in self.legal)

    def named_by(self, text: str) -> bool:
        """The text names all of it, in one of its forms."""
        named = set(words(text))
        return any(form <= named for form in self.forms)

    def touched_by(self, text: str) -> bool:
        """The text names something of it."""
        named = set(words(text))
        return any(form & named for form in self.forms)


# "How long do I have to claim after discharge?": how long the insured person has to claim or notify, a question on
# the claims procedure ("after discharge" is when the period starts, not the benefit asked about)
_OWN_CLAIM_DEADLINE_RE = re.compile(
    r"\b(how long|how many days|by when|how soon|how quickly|within what time)\b[^?]{0,30}\b(i|we) (have|need|must|"
    r"got|should)\b[^?]{0,15}\b(claim|submit|file|lodge|notify|inform|tell|send)\b"
    # "What's the deadline for notifying a critical illness claim?"
    r"|\b(deadline|time limit)\b[^?]{0,15}\b(for|to) (claiming|notifying|submitting|filing|lodging|making)\b",
    re.I,
)


_CLAIMS_HEADING_WORDS = frozenset(words("claims claim procedure notification documents settlement facility"))


def _claims_clause_named(block: Evidence, asked: frozenset[str]) -> frozenset[str]:
    """The benefit a claims clause is for, when the question names it ("Critical Illness Claims"); else empty."""
    if block.metadata.get("section_key") != "claims":
        return frozenset()
    benefit = frozenset(w for w in words(block.text.partition("\n")[0]) if not w[0].isdigit()) - _CLAIMS_HEADING_WORDS
    return benefit if benefit and benefit <= asked else frozenset()


def policy_subject(question: str, analysis: QuestionAnalysis, blocks: list[Evidence]) -> Subject:
    """For a question about an insurance wording (by its words, or by the clauses it is answered from), what
    it is about without the words of the kind of answer ("pre-existing disease" in "What is the waiting
    period for pre-existing diseases?"): a clause about another subject's waiting period does not answer it."""
    if analysis.domain != "insurance" and not any(b.document_type == "policy_wording" for b in blocks):
        return Subject()
    # the product's and insurer's names are not what it is about ("I bought CareShield 10 days ago and broke my
    # wrist": the wrist, not a pre-existing-disease clause naming "the first CareShield Rider"); the title's other
    # words ("Hospital Care & Critical Illness") may well be
    names = {w for b in blocks for key in ("product", "provider") for w in words(str(b.metadata.get(key) or ""))}
    own = frozenset(content_terms(question) - _COVER_QUESTION_WORDS - ANSWER_TYPE_WORDS - names)
    if _OWN_CLAIM_DEADLINE_RE.search(question):
        # when the claim must be made: no benefit is what it is about, unless the wording has a claims clause
        # of its own for a benefit the question names ("Critical Illness Claims" for a stroke on that cover)
        return Subject(tuple(form for b in blocks if (form := _claims_clause_named(b, own))))
    if not own:
        return Subject()
    bridged: list[frozenset[str] | set[str]] = []
    legal: list[frozenset[str]] = []
    headings = {w for b in blocks if b.document_type == "policy_wording" for w in words(_heading(b))}
    for phrase, terms in bridges(question):
        replaced = own & set(words(phrase))
        if replaced:
            bridged.append((own - replaced) | (set(words(terms)) - ANSWER_TYPE_WORDS))
            legal.append(frozenset(words(terms)) - ANSWER_TYPE_WORDS)
        elif (named := set(words(terms)) - ANSWER_TYPE_WORDS - _COVER_QUESTION_WORDS) & headings:
            # a phrase of words every policy question shares ("after the admission"): its terms name it when they
            # name a clause by its heading ("Pre-hospitalisation and Post-hospitalisation Medical Expenses")
            bridged.append(named)
    return Subject((own, *(frozenset(form) for form in bridged if form)), tuple(terms for terms in legal if terms))


def _headed_in_its_terms(subject: Subject, eligible: list[Option], blocks: list[Evidence]) -> list[Option]:
    """The clauses headed by the wording's term for a plain phrase of the question ("pay part of the bill myself":
    "6.1 Co-payment"), and those headed by another thing the question names that their headings do not ("daily cash
    in hospital and in the ICU": "3.5 ICU Daily Cash Benefit" beside "3.4 Hospital Daily Cash Benefit")."""
    termed = [o for o in eligible if subject.said_in_its_terms(_heading(blocks[o.block]))]
    if not termed:
        return []
    said = {w for o in termed for w in words(_heading(blocks[o.block]))}
    own = subject.forms[0]
    return [o for o in eligible if o in termed or (set(words(_heading(blocks[o.block]))) & own) - said]


def _names_asked(asked: set[str], option: Option, block: Evidence) -> bool:
    """The statement, or its clause's heading, names what the question asks about (not only as what an
    exclusion leaves out: "alternative treatments (other than AYUSH treatment)" is not about AYUSH)."""
    heading = block.text.split("\n", 1)[0]
    return not asked or bool(asked & _named(f"{option.statement.whole} {heading}"))


# a period or requirement set aside: "The waiting period for Pre-existing Diseases is waived for all Insured Persons"
_SET_ASIDE_RE = re.compile(
    rf"\b(waived|no waiting period|(does|shall|will) not apply|from the first day|{_NO_LIMIT})\b", re.I
)


def _states_fact(fact_kind: re.Pattern[str], option: Option, block: Evidence, subject: Subject) -> bool:
    """The statement states the period or amount asked for, or, in the clause headed by the subject, that there
    is none ("... is waived"): asked how long the wait for pre-existing diseases is, "waived" answers."""
    text = _cue_text(option.statement, block)
    return bool(fact_kind.search(text)) or (subject.named_by(_heading(block)) and bool(_SET_ASIDE_RE.search(text)))


def lead_option(
    candidates: list[Option],
    blocks: list[Evidence],
    asked: set[str] | None = None,
    subject: Subject | None = None,
    fact_wanted: bool = False,
    fact_kind: re.Pattern[str] | None = None,
    cue_needed: bool = False,
) -> Option | None:
    """The statement that answers; a binding one when it answers nearly as well as an explanation. Asked
    whether a policy covers something, only a statement naming that thing answers (a clause about
    something else must not turn into a benefit or an exclusion). Asked for a fact (`fact_wanted`: a
    period, an amount, a procedure), a policy's definition of the subject does not lead when a statement
    of its rules does; asked how long or how much (`fact_kind`: the pattern of a period or an amount), a
    policy clause stating none does not lead when one states it."""

    def answers(option: Option) -> bool:
        strong = (blocks[option.block].confidence or 0.0) >= STRONG_BLOCK or bool(
            subject and subject.said_in_its_terms(option.statement.whole)
        )
        # a story before the question does not hide a statement answering the question it asks
        supported = max(option.support, option.alone) >= (STRONG_BLOCK_SUPPORT if strong else MIN_SUPPORT)
        return supported and (option.short or _names_asked(asked or set(), option, blocks[option.block]))

    ranked = sorted((o for o in candidates if answers(o)), key=lambda o: (-o.score, o.block, o.statement.position))
    answering = ranked  # every statement that answers, before the subject and the fact asked narrow them
    if subject:  # a clause whose heading names the subject answers before one that mentions it in passing,
        cued = any(o.cue for o in ranked)  # when it states the kind of fact asked (a period, an amount)
        stating = [o for o in ranked if fact_kind and _states_fact(fact_kind, o, blocks[o.block], subject)]
        ranked = stating or ranked  # asked how long or how much, a clause stating no period or amount does not answer
        eligible = [o for o in ranked if not _defines(o, blocks) and (o.cue or not cued or o in stating)]
        termed = _headed_in_its_terms(subject, eligible, blocks)
        headed = [o for o in eligible if o in termed or subject.named_by(_heading(blocks[o.block]))]
        if headed:
            ranked = headed
        elif ranked and (
            not subject.touched_by(f"{ranked[0].statement.whole} {_heading(blocks[ranked[0].block])}")
            or (fact_wanted and _defines(ranked[0], blocks))
        ):
            # a statement naming nothing of the subject does not lead when one naming it, or part of it ("hernia"
            # for "hernia surgery", "joint replacement" for "knee replacement"), is there
            named = [o for o in eligible if subject.named_by(o.statement.whole)]
            ranked = named or [o for o in eligible if subject.touched_by(o.statement.whole)] or ranked
    if cue_needed and not subject and ranked:
        # asked how long, how much or who may or must, a statement stating no period, amount, permission or duty
        # does not lead when one of the evidence that answers states it: its block, or one graded at least as
        # well (a deadline in a passage on something else is no answer), or a more binding one graded nearly as
        # well (a provision and the commentary on it are not another passage); when none is, one graded nearly as
        # well (every EHDS article grades alike for "When does the EHDS apply?", one states the date)
        top = blocks[ranked[0].block]
        floor = top.confidence or 0.0

        def graded_as_well(block: Evidence, margin: float = 0.0) -> bool:
            margin = max(margin, BINDING_MARGIN if _outranks(block, top) else 0.0)
            # another paragraph of the same provision is not another passage (14(3)'s "one month" after 14(1))
            same_provision = block.authority == top.authority == "binding" and _article(block) == _article(top)
            return block is top or same_provision or (block.confidence or 0.0) >= floor - margin

        ranked = (
            [o for o in ranked if o.cue and graded_as_well(blocks[o.block])]
            or [o for o in ranked if o.cue and graded_as_well(blocks[o.block], STATING_MARGIN)]
            or ranked
        )
    if not ranked:
        return None
    best = lead = ranked[0]
    if best.cue and (_EXTENDS_RE.search(best.statement.text) or _period_in_condition(best.statement.text)):
        # an extension of a period follows the period itself; so does what happens when it is missed ("If the
        # notification is not made within 72 hours, ...") the rule setting it
        base = [o for o in ranked if o.block == best.block and o.cue and o.statement.position < best.statement.position]
        period = _PERIOD_RE.search(best.statement.text)
        if not base and period and _period_in_condition(best.statement.text):
            # set by another clause of the same document ("has not received a reply within 14 days" after 9.1's
            # "resolve it within 14 days"): the statement setting that very period
            base = [
                o
                for o in ranked
                if o.cue
                and o.block != best.block
                and blocks[o.block].doc_id == blocks[best.block].doc_id
                and period.group(0).lower() in o.statement.text.lower()
                and not _period_in_condition(o.statement.text)
            ]
            best = max(base, key=lambda o: o.score, default=best)
        else:
            best = min(base, key=lambda o: o.statement.position, default=best)
    if blocks[best.block].authority != "binding":
        home = blocks[best.block]
        # a commentary restating a provision the evidence holds ("GDPR Art. 35(1) requires ...") yields to it
        # (whatever its grade: the commentary vouches for it; stating the kind of fact asked when the commentary does)
        named = [
            o
            for o in answering
            if _outranks(blocks[o.block], home) and _names(best, blocks[o.block]) and (o.cue or not best.cue)
        ]
        # ... and so does one saying what a provision says in its words ("That period may be extended by two further
        # months ..." of a commentary on access, after 12(3) says it)
        restated = [o for o in answering if _outranks(blocks[o.block], home) and _says_the_same(o, lead)]
        if restated:  # ... after the period it extends, when the provision states that period first
            own, at = restated[0].block, restated[0].statement.position
            base = [o for o in answering if o.block == own and o.statement.position < at]
            extends = base and (lead is not best or _EXTENDS_RE.search(restated[0].statement.text))
            return min(base, key=lambda o: o.statement.position) if extends else restated[0]
        # (a provision stating none of the kind of answer the explanation states does not answer nearly as well)
        above = [
            o
            for o in ranked
            if _outranks(blocks[o.block], home) and _states_a_rule(o.statement) and (o.cue or not best.cue)
        ]
        # ... unless another provision answers the question clearly better (the commentary names 37(6) for one
        # clause and restates 37(5) in the next)
        if named and (not above or named[0].support >= above[0].support - BINDING_SUPPORT_MARGIN):
            return named[0]
        # one of several provisions it cites ("... can be withdrawn at any time (GDPR Art. 7(3))") answers nearly
        # as well: the provision leads
        cited = [o for o in ranked if _outranks(blocks[o.block], home) and _cites(best, blocks[o.block])]
        if cited and cited[0].score >= best.score - BINDING_MARGIN:
            # ... unless another provision answers better on both counts (32(4) on staff acting on instructions,
            # against the 15(1) a commentary on access cites)
            better = [o for o in above if o.score > cited[0].score and o.support > cited[0].support]
            return better[0] if better else cited[0]
        # the provision the explanation's text is a commentary on ("explains", linked at ingest) leads when one of its
        # statements answers nearly as well as the explanation's (the explanation follows it)
        explains = set(home.metadata.get("explains") or ())
        explained = [
            o
            for o in answering
            if blocks[o.block].authority == "binding"
            and explains & set(blocks[o.block].refs)
            and o.support >= best.support - EXPLAINED_SUPPORT_MARGIN
            and (o.cue or not best.cue)
            and (not _defines(o, blocks) or _defines(best, blocks))  # (what one term means is not how two differ)
        ]
        if explained:
            return explained[0]
        if _restates_one(best):  # it states what a provision the evidence lacks says: another provision is
            return best  # another point ("Under GDPR Art. 33(1) ... 72 hours" is not EHDS Art. 9(2)'s "without delay")
        # one point of a provision's list ("(e) a description of whether ... pseudonymised or anonymised") states
        # no rule on its own: it does not displace an explanation; a principle or standard goes before a
        # commentary on it as a provision does
        if above and above[0].score >= best.score - BINDING_MARGIN:
            if above[0].support >= best.support - BINDING_SUPPORT_MARGIN:
                return above[0]
    return best


# a lead-in putting a duty on someone, its points being what they must do: "... shall implement appropriate technical
# and organisational measures ...", "Those measures include ...: (c) the ability to restore ..."
_DUTY_LEAD_IN_RE = re.compile(
    r"\b(shall|must) (implement|take|ensure|put in place|adopt|apply)\b"
    r"|\b(measures|safeguards|steps) (shall |must |may )?include\b",
    re.I,
)


_MAIN_MODAL_RE = re.compile(r"\b(shall|may|must|will|can|should)\b", re.I)


def _period_in_condition(text: str) -> bool:
    """The statement's period is in its opening condition ("If the notification is not made within 72 hours, it
    must be accompanied by reasons"): it says what follows from a period set elsewhere, not the period."""
    if not _RULE_CASE_RE.match(text):
        return False
    # the condition runs to the last comma before the main clause's modal ("If ... not satisfied with the
    # resolution, or has not received a reply within 14 days, he or she may write ...")
    modal = _MAIN_MODAL_RE.search(text)
    end = text.rfind(",", 0, modal.start()) if modal else -1
    if end < 0:
        return False
    return bool(_PERIOD_RE.search(text[:end]) and not _PERIOD_RE.search(text[end:]))


def _states_a_rule(statement: Statement) -> bool:
    """A statement states a rule on its own, or is a point of a lead-in that puts a duty to act (not one item of
    what an application or a notice must contain)."""
    return not statement.marker or bool(_DUTY_LEAD_IN_RE.search(statement.lead_in))


# How much a source binds, most first (a provision; a recital or annex; official guidance or a standard; commentary;
# the web): a statement of a more binding source answers before one that explains it.
AUTHORITY_ORDER = {"binding": 0, "recital": 1, "guidance": 2, "record": 2, "commentary": 3, "web": 4}


def _outranks(block: Evidence, other: Evidence) -> bool:
    return AUTHORITY_ORDER[block.authority] < AUTHORITY_ORDER[other.authority]


def _about(subject: Subject, text: str, block: Evidence) -> bool:
    """A statement of another clause is about the question's subject: it names all of it, or names part of it
    under a heading that does too ("Room charges ..." under a room heading, not "7 days' written notice" of a
    cancellation clause for a question about notice of a planned admission)."""
    return subject.named_by(text) or (subject.touched_by(text) and subject.touched_by(_heading(block)))


def _restates_one(option: Option) -> bool:
    """The statement names one provision as its source ("Under GDPR Art. 33(1) the controller must ...")."""
    return len({ref.path[0] for ref in parse_references(option.statement.text)}) == 1


RESTATED_SHARE = 0.8  # an explanation holding this share of a provision's statement's words restates it
RESTATED_MIN_WORDS = 6


# "... has asked us to pay the claim to them. Can we?": the act is the scene's
_ELLIPTICAL_RE = re.compile(
    r"^\W*(?:can|may|could|must|should|do|are) (?:we|i|they|he|she|you)(?: (?:do|allowed to|have to) (?:that|it|this)"
    r"| allowed to| have to)?\W*$",
    re.I,
)


def _says_the_same(provision: Option, explanation: Option) -> bool:
    """The explanation holds nearly every word of the provision's statement (its own words around them)."""
    said = set(content_terms(provision.statement.text))
    return len(said) >= RESTATED_MIN_WORDS and len(said & content_terms(explanation.statement.text)) >= (
        RESTATED_SHARE * len(said)
    )


def _cites(option: Option, block: Evidence) -> bool:
    """The statement cites the block's provision or a point of it, among others or alone ("(GDPR Art. 7(3))"
    cites Art. 7(3); "the safeguards of Art. 89" cites no one paragraph of Art. 89)."""
    own = parse_references(block.citation)
    if not own:
        return False
    path = own[0].path
    return any(ref.path[: len(path)] == path for ref in parse_references(option.statement.text))


def _names(option: Option, block: Evidence) -> bool:
    """The statement restates the block's provision: it names that one provision and no other ("GDPR Art.
    35(1) requires ..." names GDPR Art. 35(1); "a lawful basis under Art. 6, a condition under Art. 9 and the
    safeguards of Art. 89" restates none of them). Matched by reference tokens, as retrieval matches them."""
    if not _restates_one(option):
        return False
    named = parse_references(option.statement.text)
    return bool(set(named[0].tokens(ancestors=False)) & {*block.refs, *citation_tokens(block.citation)})


_CLAUSE_CITED_RE = re.compile(r"\bcl\. (\d+(?:\.\d+)*)$")
# "under paragraph 1", "referred to in paragraphs 1 and 2" (not "paragraph 1 of Article 9": another article's)
_TABLE_NAMED_RE = re.compile(r"\b(?:as per|in|under|shown in|specified in|set out in) the Table of Benefits\b", re.I)
_PARAGRAPHS_NAMED_RE = re.compile(r"\bparagraphs? \d+(?:(?:,| and| or) \d+)*(?![\d(]| of Article \d)", re.I)


def _referred(lead: Option, blocks: list[Evidence]) -> set[int]:
    """The other blocks whose clause the lead names by number ("after the waiting period in Clause 4.5"), whose
    paragraph of the lead's own article it names ("the right to data portability under paragraph 1"), or its wording's
    table of benefits, which it names ("payable as per the Table of Benefits")."""
    found = set()
    home = blocks[lead.block]
    article = _article(home)
    table_named = bool(_TABLE_NAMED_RE.search(lead.statement.text))  # "payable as per the Table of Benefits"
    paragraphs = {n for m in _PARAGRAPHS_NAMED_RE.finditer(lead.statement.whole) for n in re.findall(r"\d+", m[0])}
    for i, block in enumerate(blocks):
        cited = _CLAUSE_CITED_RE.search(block.citation)
        clause = bool(cited and re.search(rf"\bClause {re.escape(cited[1])}(?![.\d])", lead.statement.text, re.I))
        paragraph = re.fullmatch(rf"{re.escape(article)}\((\d+)\)", block.citation)
        own_paragraph = bool(paragraph and block.authority == "binding" and paragraph[1] in paragraphs)
        table = table_named and block.doc_id == home.doc_id and block.metadata.get("section_key") == "table_of_benefits"
        if i != lead.block and (clause or own_paragraph or table):
            found.add(i)
    return found


def _changes_the_lead(option: Option, lead: Option, blocks: list[Evidence]) -> bool:
    """A statement that changes what the lead allows: in its block, one naming the lead point by its letter ("Point
    (f) of the first subparagraph does not apply to processing carried out by public authorities" after point (f));
    in its article, an exception to the lead's paragraph ("Paragraphs 1 and 2 do not apply to the extent that
    processing is necessary: ..." after 17(1))."""
    marker = lead.statement.marker
    if option.block == lead.block:
        return (
            bool(marker)
            and not option.statement.marker
            and bool(
                re.search(rf"\bpoints? (?:\([a-z]\)(?:,| and| or) )*{re.escape(marker)}", option.statement.text, re.I)
            )
        )
    block, home = blocks[option.block], blocks[lead.block]
    # "Paragraphs 1 and 2 do not apply ...", or a paragraph saying the right of paragraph 1 does not apply (20(3):
    # "Exercising the right referred to in paragraph 1 ... That right does not apply to ..."), both its sentences
    exception = exception_to(option.statement.text) or RIGHT_NOT_APPLYING_RE.search(block.text)
    paragraph = re.fullmatch(r"[^(]+\((\d+)\)", home.citation)
    # the lead's paragraph, and the paragraphs of its article it names ("under paragraph 1")
    own = {paragraph.group(1)} if paragraph else set()
    own |= {n for m in _PARAGRAPHS_NAMED_RE.finditer(lead.statement.whole) for n in re.findall(r"\d+", m[0])}
    # "... for the purposes referred to in paragraph 1, points (a), (b) and (c)" limits those points, not point (d)
    points = _POINTS_NAMED_RE.search(option.statement.text[exception.end() :]) if exception else None
    other_point = bool(points and marker and marker not in points[0])
    return bool(
        exception
        and own
        and not other_point
        and block.authority == home.authority == "binding"
        and _article(block) == _article(home)
        and own & set(re.findall(r"\d+", exception["named"]))
    )


_POINTS_NAMED_RE = re.compile(r"^,? points? \([a-z]\)(?:(?:,| and| or) \([a-z]\))*")


_NOT_APPLY_RE = re.compile(r"\b(?:do|does|shall|will) not apply\b", re.I)


def _asked_words_said(question: str, text: str) -> set[str]:
    """The question's own words a statement says, directly or in the law's terms for its plain phrases."""
    said = set(words(text))
    return (content_terms(question) - ANSWER_TYPE_WORDS) & said | bridged_words(question, said)


# words that relate what is asked to something ("within", "after"), naming nothing a statement could newly say
_RELATING_WORDS = frozenset(words("within after before during until since without between"))


def _allowance(question: str, option: Option, answered: set[str], overdrawn: bool) -> int:
    """Words a following statement may go over the budget by: once, for one saying what the question asks that
    nothing quoted says yet (two of its words at least)."""
    new = _asked_words_said(question, option.statement.whole) - answered - _RELATING_WORDS
    return NEW_POINT_WORDS if not overdrawn and len(new) >= NEW_POINT_MIN_WORDS else 0


_DEMONSTRATIVE_RE = re.compile(r"\b(?:that|this|those|these|such) ([a-z]+)\b", re.I)


_PERIOD_NAMED_RE = re.compile(r"\b(?:that|this|those|these|such) (?:time limits?|periods?|deadlines?)\b", re.I)
_CASE_OF_THE_LEAD_RE = re.compile(r"^\W*(?:under|where|if|when|in the case of|for)\b((?:\s+[^\s,;:]+){1,8}),", re.I)
CASE_TERMS_SHARED = 2


def _continues_the_lead(option: Option, lead: Option) -> bool:
    """The statement right after the lead names a thing of it by a demonstrative: it says more of the lead
    ("Exercise of that right shall be reversible." after "... have the right to opt out"; "Under that accelerated
    procedure, ... within two months" after the accelerated procedure)."""
    if option.block != lead.block:
        return False
    if (
        0 < option.statement.position - lead.statement.position <= NEAR
        and _PERIOD_NAMED_RE.search(option.statement.text)
        and _PERIOD_RE.search(lead.statement.text)
    ):  # "If payment is delayed beyond these periods, ... interest" after "within 15 days": what missing it brings
        return True
    if option.statement.position != lead.statement.position + 1:
        return False
    said = set(words(lead.statement.text))
    if any(set(words(m.group(1))) & said for m in _DEMONSTRATIVE_RE.finditer(option.statement.text)):
        return True
    # ... or opens with a case the lead names ("Under a general written authorisation, the processor must inform
    # ..." after "unless the controller has given prior specific or general written authorisation")
    case = _CASE_OF_THE_LEAD_RE.match(option.statement.text)
    return case is not None and len(content_terms(case[1]) & content_terms(lead.statement.text)) >= CASE_TERMS_SHARED


def following(
    lead: Option,
    candidates: list[Option],
    blocks: list[Evidence],
    subject: Subject | None = None,
    question: str = "",
) -> list[Option]:
    """Up to two statements of the lead's own provision that support the question, within the answer's word
    budget: first those next to it in the same paragraph (the conditions, exceptions and extensions that
    change the answer), then the provision's other paragraphs. A lead-in quoted with its points is complete
    on its own, but for a paragraph excepting from it ("That right does not apply to processing ... in the public
    interest" after 20(1)'s right and its cases). For a policy question, a statement of another clause (or another
    line of a table of benefits, one benefit per line) follows only when it names something of the question's
    subject."""
    whole_list = bool(lead.statement.points)  # complete on its own, but for an exception to it
    home = blocks[lead.block]
    chosen: list[Option] = []
    covered = set(words(lead.statement.whole))
    budget = MAX_WORDS - len(lead.statement.whole.split())
    answered = _asked_words_said(question, lead.statement.whole)
    overdrawn = False

    # a question of several parts, or a comparison, may need another paragraph for what the lead does not answer
    # (and a definition that leads is followed by the rule on what it defines)
    one_asked = bool(question) and not part_clauses(question) and analyse(question).answer_type != "comparison"
    lead_defines = _defines(lead, blocks)
    referred = _referred(lead, blocks)
    own_clause = _CLAUSE_CITED_RE.search(home.citation)  # "Cataract Surgery (Clause 3.1.2): Rs. 60,000 per eye"
    asked_terms = content_terms(question)
    denied = _denied(question)
    event = _event_words(question)

    def order(o: Option) -> tuple[bool, bool, bool, bool, int, float]:  # an extension of the lead's period first
        extends = bool(_EXTENDS_RE.search(o.statement.text))
        return (
            o.block != lead.block and o.block not in referred,
            o.block != lead.block,
            not o.cue,
            not extends,
            abs(o.statement.position - lead.statement.position),
            -o.score,
        )

    for option in sorted(candidates, key=order):
        block = blocks[option.block]
        same_block = option.block == lead.block
        same_provision = same_block or (block.doc_id == home.doc_id and block.authority == home.authority)
        near = not same_block or abs(option.statement.position - lead.statement.position) <= NEAR
        next_one = same_block and option.statement.position == lead.statement.position + 1  # the rule's own caveat
        needed = CUE_FOLLOW_SUPPORT if (same_block and option.cue) or next_one else FOLLOW_SUPPORT
        # the lead points there, or it names the lead point ("Point (f) ... does not apply to"): part of its answer
        excepts = _changes_the_lead(option, lead, blocks)
        if whole_list and not excepts:
            continue
        part_of_answer = option.block in referred or excepts
        # the next statement pointing back at the lead says more of it ("Exercise of that right shall be reversible.")
        part_of_answer = part_of_answer or _continues_the_lead(option, lead)
        # "daily cash in hospital and in ICU": the sibling clause the question names beside the lead's
        part_of_answer = part_of_answer or (option.cue and _sibling_asked(blocks[option.block], home, asked_terms))
        # "... and what happens to the data when it ends?": what the lead's provision says follows that event
        part_of_answer = part_of_answer or (
            same_block and bool(event & {w[:CASE_STEM] for w in words(option.statement.text)})
        )
        needed = 0.0 if part_of_answer else needed
        if len(chosen) >= MAX_FOLLOWING and not part_of_answer:
            continue  # two at most, and what is part of the answer
        if option is lead or option.statement.heading or not same_provision or not near or option.support < needed:
            continue
        if option.statement.label in META_LABELS or (option.statement.marker and option.statement.lead_in):
            continue
        if option.boilerplate:  # what every document of its kind says tells nothing of this one
            continue
        if _case_denied(denied, option.statement.text) and not part_of_answer:
            continue  # the case the question rules out
        table = block.metadata.get("section_key") == "table_of_benefits"
        if table and option.block in referred:  # of the table of benefits the lead names, only its own clause's line
            if not own_clause or not re.search(rf"\bClause {re.escape(own_clause[1])}\b", option.statement.text):
                continue
        elif (
            subject
            and (table or not same_block)
            and not part_of_answer
            and not _about(subject, option.statement.whole, block)
        ):
            continue  # another clause, or another line of a table, is about another benefit
        if lead.statement.text in (option.statement.lead_in, option.statement.text) or (
            option.statement.text == lead.statement.lead_in
        ):
            continue  # already quoted with its lead-in, or the lead-in the lead point is quoted after
        if lead.statement.marker and not lead.statement.lead_in and same_block and _announces(option.statement):
            continue  # already quoted before the point it announces
        if (needs_antecedent(option.statement.text) or refers_to_what_precedes(option.statement.text)) and not any(
            o.block == option.block and o.statement.position == option.statement.position - 1 for o in [lead, *chosen]
        ):
            continue  # "In such cases, ...", "To reduce such costs, ..." follow only the statement they point at
        new_words = _asked_words_said(question, option.statement.whole) - answered
        rule_on_defined = lead_defines and not _defines(option, blocks)  # not another definition
        if one_asked and not same_block and not part_of_answer and not new_words and not rule_on_defined:
            continue  # another paragraph says nothing the question asks that the answer does not say yet
        own = set(words(option.statement.whole))
        adds = own - covered
        if len(adds) < min(3, (len(own) + 1) // 2):  # it repeats the answer (a short one may add a party)
            continue
        # a later, shorter one may still fit; the clause the lead refers to for its condition ("after the waiting
        # period in Clause 4.5") is part of the answer, whatever its length
        # ... and so is a statement of the provision saying what the question asks that nothing quoted says yet
        # ("Can patients insist a human looks at it?": 22(3)'s "human intervention" after 22(1))
        length = len(option.statement.whole.split())
        if length > budget + _allowance(question, option, answered, overdrawn) and not part_of_answer:
            continue
        overdrawn = overdrawn or length > budget
        chosen.append(option)
        answered |= _asked_words_said(question, option.statement.whole)
        covered |= adds
        budget -= len(option.statement.whole.split())
    return sorted(chosen, key=lambda o: (o.block != lead.block, o.block, o.statement.position))


def pointed_list(lead: Option, candidates: list[Option], blocks: list[Evidence]) -> Option | None:
    """The list the lead says is kept in another clause of its wording ("a Critical Illness listed in Clause
    3.9.1"), quoted whole after it: the lead alone names none of the items."""
    if blocks[lead.block].document_type != "policy_wording":
        return None
    tokens = set(pointed_lists(lead.statement.text, blocks[lead.block].doc_id))
    return next((o for o in candidates if o.statement.points and tokens & set(blocks[o.block].refs)), None)


def points_taken_in(lead: Option, candidates: list[Option], blocks: list[Evidence]) -> Option | None:
    """The points of another provision the lead takes in ("must contain at least the information and measures
    referred to in points (b), (c) and (d) of Article 33(3)"), as one statement under that provision, when the
    evidence holds them: the lead alone names none of them."""
    match = _POINTS_TAKEN_IN_RE.search(lead.statement.text)
    if not match:
        return None
    instrument = blocks[lead.block].citation.split(" Art.")[0]
    citation = f"{instrument} Art. {match.group('article')}"
    letters = re.findall(r"\([a-z]\)", match.group("letters"))
    for option in candidates:  # the provision's lead-in, with all its points
        if blocks[option.block].citation != citation or not option.statement.points:
            continue
        by_marker = {point.split(" ", 1)[0]: point for point in option.statement.points}
        if all(letter in by_marker for letter in letters):
            points = tuple(by_marker[letter] for letter in letters)
            statement = Statement(f"Under {citation}:", points=points, position=option.statement.position)
            return Option(option.block, statement, option.support, option.score, option.cue)
    return None


def procedure_steps(lead: Option, candidates: list[Option], blocks: list[Evidence]) -> list[Option]:
    """Asked how to do something, when the lead's numbered clause is one of several clauses under the same
    number in the evidence (9.1 helpline, 9.2 Grievance Redressal Officer, 9.3 Ombudsman), the answer is those
    clauses in the wording's order, each by its first statement (the lead's own clause by the lead): the
    steps, the first one first. Empty when the lead's clause stands alone or is not a numbered sub-clause."""
    home = blocks[lead.block]
    parent = _parent_clause(home)
    if parent is None:
        return []
    siblings = sorted(
        (i for i, b in enumerate(blocks) if b.doc_id == home.doc_id and _parent_clause(b) == parent),
        key=lambda i: (blocks[i].metadata.get("position") or 0, i),
    )
    steps: list[Option] = []
    for index in siblings[:MAX_STEPS]:
        own = [o for o in candidates if o.block == index and not o.statement.heading]
        first = lead if index == lead.block else min(own, key=lambda o: o.statement.position, default=None)
        if first is not None and first.statement.text not in {s.statement.text for s in steps}:
            steps.append(first)
    return steps if len(steps) > 1 else []


# A lead-in whose points together make one whole ("It shall include at least: (a) ...; (b) ...; (c) ...", or
# "...; and (c) ...") is quoted with all of them: one point alone is the list cut short. Points that are
# alternatives ("one of the following applies: ...; or") are answered by the point that fits.
_ALL_POINTS_RE = re.compile(r"\b(at least|includes?|contains?|comprises?|consists? of)\b[^.;]*:\s*$", re.I)
_LAST_BUT_ONE_RE = re.compile(r"\b(and|or)\W*$", re.I)
WHOLE_LIST_MAX_WORDS = 80  # longer lists keep the point that answers
LIST_MAX_WORDS = 160  # ... unless no point answers: then the lead-in answers, with its points
CASES_MAX_WORDS = 250  # the cases asked for, whole (the six grounds for erasure of GDPR Art. 17(1) run to 187 words)
_ANY_OF_RE = re.compile(r"\b(one|any) of the following\b", re.I)


def _lead_in_of(lead: Option, candidates: list[Option]) -> Option | None:
    """The lead-in a point completes, quoted with every point, if the block offers it."""
    point = lead.statement
    return next(
        (o for o in candidates if o.block == lead.block and o.statement.points and o.statement.text == point.lead_in),
        None,
    )


def _whole_list(lead: Option, candidates: list[Option], analysis: QuestionAnalysis) -> Option:
    """The lead-in with every point instead of one of its points, when the points make one whole."""
    point = lead.statement
    if not point.marker or not point.lead_in or any("(" in p for p in analysis.provisions):
        return lead
    whole = _lead_in_of(lead, candidates)
    if whole is None:
        return lead
    joins = {m.group(1).lower() for p in whole.statement.points[:-1] if (m := _LAST_BUT_ONE_RE.search(p))}
    contents = bool(_ALL_POINTS_RE.search(point.lead_in))
    # points that must all hold ("which has: (a) at least 10 beds ...; and (d) daily records") answer whether a
    # thing qualifies only together: one of them alone reads as if it were enough
    conditions = "and" in joins and not contents and analysis.answer_type in ("yes_no", "condition")
    # asked in which cases, cases of which any one is enough ("where one of the following grounds applies: (a) ...
    # (f) ...") are the answer, every one of them: one alone would be a silent subset
    if analysis.answer_type == "condition" and _ANY_OF_RE.search(point.lead_in):
        return whole if len(whole.statement.whole.split()) <= CASES_MAX_WORDS else lead
    if len(whole.statement.whole.split()) > (LIST_MAX_WORDS if conditions else WHOLE_LIST_MAX_WORDS):
        return lead
    return whole if "or" not in joins and ("and" in joins or contents) else lead


# A lead opening with "It" or "They" gets its subject named from the sentence before it, when that sentence opens
# with a plain subject ("The Data Security and Protection Toolkit (DSPT) is ..."): the answer names what it is about
# instead of quoting the sentence that introduces it.
_PRONOUN_RE = re.compile(r"^(It|They)(?=\s)")
_SUBJECT_RE = re.compile(
    r"^(?P<subject>(?:The|A|An) [^,;:.]{2,90}?|[A-Z][\w@-]*(?: [A-Z(][\w@()-]*){0,5})\s+"
    r"(?:is|are|was|were|has|have|must|shall|may|can|will)\b"
)
SUBJECT_MAX_WORDS = 12


def _subject_of(sentence: str) -> str:
    """The subject a sentence opens with, or '' when it opens otherwise (a condition, a pronoun, a long clause)."""
    match = _SUBJECT_RE.match(sentence)
    subject = match.group("subject") if match else ""
    if not subject or len(subject.split()) > SUBJECT_MAX_WORDS or _PRONOUN_RE.match(subject):
        return ""
    return subject


def _antecedent(lead: Option, candidates: list[Option]) -> Option | None:
    """The statement just before a lead that points back at it ("The Insured may opt for Optional
    Co-payment ..." before "In such cases, each admissible claim ..."), when it is quotable."""
    before = [o for o in candidates if o.block == lead.block and o.statement.position < lead.statement.position]
    nearest = max(before, key=lambda o: o.statement.position, default=None)
    if nearest is None or nearest.statement.position != lead.statement.position - 1 or nearest.statement.heading:
        return None
    return nearest


def _in_the_paragraph_before(lead: Option, candidates: list[Option], blocks: list[Evidence]) -> Option | None:
    """For a lead that opens its paragraph by pointing back ("In such cases the controller shall make reasonable
    efforts to verify that consent is given or authorised by the holder of parental responsibility", GDPR 8(2)),
    the statement of the article's previous paragraph it takes up: the one sharing most of its words ("... only if
    consent is given or authorised by the holder of parental responsibility"), when the evidence holds it and it
    points back at nothing itself."""
    article, _, paragraph = blocks[lead.block].citation.partition("(")  # "GDPR Art. 8" and "2)"
    opens = not any(o.block == lead.block and o.statement.position < lead.statement.position for o in candidates)
    if not (opens and paragraph[:-1].isdigit() and paragraph.endswith(")")):
        return None
    previous = f"{article}({int(paragraph[:-1]) - 1})"
    before = [
        o
        for o in candidates
        if blocks[o.block].citation == previous and not o.statement.heading and not needs_antecedent(o.statement.text)
    ]
    said = set(words(lead.statement.text))
    return max(before, key=lambda o: (len(said & set(words(o.statement.text))), o.score), default=None)


def _context_before(lead: Option, candidates: list[Option]) -> list[Option]:
    """The statement before a lead that refers to it ("... of any such extension"), preceded by its own antecedent
    when it points back too ("That period may be extended by six weeks" after the period itself)."""
    context = [nearest] if (nearest := _antecedent(lead, candidates)) else []
    if context and needs_antecedent(context[0].statement.text) and (earlier := _antecedent(context[0], candidates)):
        context.insert(0, earlier)
    return context


def _parent_clause(block: Evidence) -> str | None:
    """'9' for a policy clause 9.3; None for a top-level clause or a block that is not a numbered clause."""
    parent, dot, _ = str(block.metadata.get("clause_id") or "").rpartition(".")
    return parent if dot and parent else None


def _finish(text: str) -> str:
    """A statement ends like a sentence: a list's trailing ';', 'and' or 'or' becomes a full stop."""
    text = re.sub(r"\s*(;|,)?\s*(\band\b|\bor\b)?\s*$", "", text.strip())
    return text if text.endswith((".", "?", "!")) else f"{text}."


# "the diseases and procedures listed below shall be excluded until ... 24 months": a sentence announcing the list
_ANNOUNCES_RE = re.compile(r"\b(listed|set out|specified|mentioned|described) below\b|\bthe following\b", re.I)


def _announces(statement: Statement) -> bool:
    return not statement.marker and bool(_ANNOUNCES_RE.search(statement.text))


_ENDS_ANNOUNCING_RE = re.compile(rf"(?:{_ANNOUNCES_RE.pattern}|\bas follows\b)\W*$", re.I)


def _announces_nothing(statement: Statement, every: list[Statement]) -> bool:
    """ "... in respect of the following." with no point after it in the passage: the list is in other clauses,
    and the sentence alone answers nothing."""
    return bool(_ENDS_ANNOUNCING_RE.search(statement.text)) and not any(
        s.marker for s in every if s.position > statement.position
    )


def _as_said(option: Option, blocks: list[Evidence]) -> str:
    """What a statement says, a point with the sentence announcing its list ("... 24 months ...: (f) Stones ...")."""
    said = option.statement.whole
    return f"{_announcing(blocks[option.block])} {said}" if option.statement.marker else said


def _announcing(block: Evidence) -> str:
    """The sentence of the block that announces its list, as a lead-in for one of the points, when the points
    do not follow a lead-in of their own ('' when none does)."""
    sentence = next((s.text for s in statements(block.text) if _announces(s)), "")
    return f"{sentence.rstrip('.;: ')}:" if sentence else ""


def render(statement: Statement, block: Evidence, lead: bool = True) -> str:
    """A statement as an answer sentence: a lead-in with every point, a point after its lead-in (or, leading
    the answer, after the sentence announcing its list; or else after its provision); bullet points joined by
    semicolons; an exclusion clause's bare list says what it excludes."""
    if statement.points:
        text = f"{statement.text} {_join_points(statement.points)}"
    elif statement.marker:
        lead_in = statement.lead_in
        if not lead_in or POINT_RE.match(lead_in):  # a point within a point whose list's lead-in the chunk lacks
            lead_in = f"{(_announcing(block) if lead else '') or f'Under {block.citation}:'} {lead_in}".strip()
        marker = "" if statement.marker in "-•*" else f"{statement.marker} "
        text = f"{lead_in} {marker}{statement.text}"
    else:
        text = _without_label(statement.text)
        if statement.label in META_LABELS and text.lower().startswith(f"{statement.label}: "):  # "Note: dates are ..."
            rest = text[len(statement.label) + 2 :]
            text = f"{rest[:1].upper()}{rest[1:]}"
    return _finish(_as_exclusion(_named_document(text, block) if lead else text, block))


_OWN_DOCUMENT_RE = re.compile(r"^(This|The present) (Regulation|Directive|Rider|Policy)\b")


def _named_document(text: str, block: Evidence) -> str:
    """ "This Regulation applies ..." opening an answer reads as "The GDPR applies ...": the reader has not
    seen which regulation (later sentences follow one that named it)."""
    match = _OWN_DOCUMENT_RE.match(text)
    if not match:
        return text
    instrument = str(block.metadata.get("instrument") or "")
    document = str(block.metadata.get("document_citation") or "")
    name = instrument if match.group(2) in ("Regulation", "Directive") else document
    return f"The {name}{text[match.end() :]}" if name else text


def _without_label(text: str) -> str:
    """'Timeline. Under EHDS Art. 105 ...' -> 'Under EHDS Art. 105 ...': a label the source set before its
    first sentence is not part of the answer."""
    label, _, rest = text.partition(". ")
    if not rest[:1].isupper() or ends_with_abbreviation(f"{label}."):  # "The Art. 9 condition ..." is one sentence
        return text
    return rest if reads_as_label(f"{label}.") else text


_DETERMINERS = frozenset("the this that these those a an each every any such no neither either all".split())


def _sentence_case(text: str) -> str:
    """The text's first letter lower-cased after an opener, unless its first word is a name ("CareShield",
    "EHDS", "GDPR") or begins one ("Member States", "Caldicott Guardians")."""
    first, _, rest = text.partition(" ")
    if any(c.isupper() for c in first[1:]) or (rest[:1].isupper() and first.lower() not in _DETERMINERS):
        return text
    return f"{text[0].lower()}{text[1:]}"


# An exclusion's exceptions ("unless for reconstruction following burns") and the scope it is limited to
# ("professional participation in hazardous sports"); a threshold ("refractive error of less than 7.5 dioptres")
# still excludes what people ask about.
_EXCEPTION_WORD_RE = re.compile(r"\b(unless|except|other than|provided that|only (if|where|when))\b", re.I)
_SCOPE_WORD_RE = re.compile(r"\b(professional|commercial|for reward|remuneration|competitive|as a career)\b", re.I)


def _excludes_only_some(question: str, text: str) -> bool:
    """The exclusion leaves the asked case covered: the question names what its exception saves ("cosmetic
    surgery after burns"), or does not say it is in the scope the exclusion is limited to (a holiday dive, not a
    professional one)."""
    asked = content_terms(question) - _COVER_QUESTION_WORDS
    if (exception := _EXCEPTION_WORD_RE.search(text)) and asked & set(words(text[exception.end() :])):
        return True
    scope = _SCOPE_WORD_RE.search(text)
    return scope is not None and scope.group(0).lower() not in question.lower()


def _excluding(block: Evidence) -> bool:
    return block.metadata.get("coverage_type") == "not_covered"


def _as_exclusion(text: str, block: Evidence) -> str:
    """'Contraception, sterilisation, ...' from an exclusion clause becomes 'CareShield Rider (Individual)
    excludes Sterility and Infertility (Excl17): contraception, ...': the clause's polarity is in its
    heading, which the quoted text does not carry."""
    benefit = block.metadata.get("benefit_name")
    if not _excluding(block) or not benefit or _EXCLUDES_RE.search(text):
        return text
    code = EXCLUSION_CODE_RE.search(block.text.split("\n", 1)[0])
    named = f"{benefit} ({code.group(0).replace(' ', '')})" if code else str(benefit)
    wording = block.metadata.get("document_citation") or block.document
    return f"{wording} excludes {named}: {_sentence_case(text)}"


# a question asking for a sum of money: "how much compensation", "the maximum fine", "what fee", "the premium";
# what states one: an amount or share, or that there is none to pay ("free of charge")
_MONEY_QUESTION_RE = re.compile(r"\b(how much|compensation|fines?|fees?|costs?|price|premiums?|charges?)\b", re.I)
_SUM_RE = re.compile(
    r"(EUR|€|Rs\.?|INR|£|\$)\s?\d|\d[\d,. ]*\s?(%|per cent|percent|EUR|euros?|pounds?|rupees?)"
    r"|free of charge|without charge|\b(reasonable|no) fee\b|\bsum insured\b",
    re.I,
)


_PENALTY_OR_AWARD_RE = re.compile(r"\b(fin(e|es|ed|ing)|penalt(y|ies)|compensation|damages|award\w*)\b", re.I)


def _states_sum_asked(question: str, text: str) -> bool:
    """The text gives a sum of money, of what was asked ("the premium" needs a premium stated, not the sums
    insured), or says there is none to pay."""
    stated = _SUM_RE.search(text)
    if stated is None:
        return False
    asked = {w for m in _NAMED_SUM_RE.finditer(question) for w in words(m[0])}
    # "free of charge" answers what something costs, never how large a fine or compensation is
    nothing_to_pay = stated[0].lower() in _NOTHING_TO_PAY and not _PENALTY_OR_AWARD_RE.search(question)
    return not asked or bool(asked & set(words(text))) or nothing_to_pay


_NOTHING_TO_PAY = frozenset({"free of charge", "without charge", "no fee"})
# sums of a kind of their own, which another sum does not state (a cost or a charge is what is paid for something)
_NAMED_SUM_RE = re.compile(r"\b(compensation|fin(?:e|es|ed)|fees?|premiums?)\b", re.I)


# "This principle was added in ...": a statement naming its own provision by a demonstrative
_ITSELF_RE = re.compile(r"^\W*(?:this|the present) (?:principle|standard|article|clause|provision|profile)\b", re.I)


def _opening_name(analysis: QuestionAnalysis, block: Evidence, lead_text: str) -> str:
    """The provision's name and title the answer opens with, or '': asked which provision says something, or asked
    what a named provision says when it has a short title ("What is the first Caldicott principle about?": its title
    is the principle; the citation alone would repeat the source mark), or when the lead calls its provision "this
    principle" (the answer would not say which)."""
    name = _provision_name(block)
    if analysis.answer_type == "provision" or _ITSELF_RE.match(lead_text):
        return name
    asks_what_it_says = analysis.answer_type in ("definition", "list", "explanation")
    named = asks_what_it_says and bool(analysis.provisions) and block.scores.reference_match
    return name if named and name != block.citation else ""


def _provision_name(block: Evidence) -> str:
    """A provision as an answer naming it: "Caldicott Principle 6 (Comply with the law)"; a long title
    ("Safeguards and derogations relating to processing for archiving purposes ...") would crowd out the answer."""
    title = passage_title(block.section, block.text)
    short = title and len(title.split()) <= MAX_TITLE_WORDS and title.lower() not in block.citation.lower()
    return f"{block.citation} ({title})" if short else block.citation


def _ruling_beside(lead: Option, candidates: list[Option], blocks: list[Evidence], question: str) -> Option:
    """Asked yes or no, a statement next to the lead in its paragraph that rules on the very act asked about
    ("No specific authorisation is required for such a transfer.") leads, the lead following it: it is
    short and shares few words with the question, yet it is the answer the lead explains."""
    beside = [
        o
        for o in candidates
        if o.cue
        and o.block == lead.block
        and 0 < abs(o.statement.position - lead.statement.position) <= NEAR
        and not o.statement.heading
        and o.statement.label not in META_LABELS
    ]
    if beside:
        return min(beside, key=lambda o: abs(o.statement.position - lead.statement.position))
    # ... or a binding statement anywhere that rules on it and scores all but the same ("Member States shall
    # designate one or more health data access bodies" for "Does every EU country have to set up a body ...?")
    # ... unless the lead says more of what the question asks (35(3)'s "on a large scale" for "across the whole
    # region", against 35(1)'s general rule); never a commentary over the provision it restates (15(3)'s "commonly
    # used electronic form" is not displaced by "Under GDPR Art. 15(3) ... is provided in ...")
    # (for a lead-in with points, what the asking sentence asks: points describing the scene say much of the
    # question, none of it the answer: "... while they check whether it's accurate. Will they let me know ...?")
    asking = question_sentence(question) if lead.statement.points else question
    said = len(_asked_words_said(asking, lead.statement.whole))
    ruling = [
        o
        for o in candidates
        if o.cue
        and not _outranks(blocks[lead.block], blocks[o.block])
        and o.score >= lead.score - RULING_MARGIN
        and not o.statement.heading
        and len(_asked_words_said(asking, o.statement.whole)) >= said
        and not _excepted_by(lead, o, blocks)  # "The communication ... under paragraph 1 is not required if ..."
    ]
    return max(ruling, key=lambda o: o.score, default=lead)


def _excepted_by(lead: Option, option: Option, blocks: list[Evidence]) -> bool:
    """The lead denies what the option's paragraph of its article requires ("The communication to the data subject
    under paragraph 1 is not required if ..."): the rule the case is an exception to does not displace it."""
    lead_block, block = blocks[lead.block], blocks[option.block]
    paragraph = re.fullmatch(r"[^(]+\((\d+)\)", block.citation)
    named = {n for m in _PARAGRAPHS_NAMED_RE.finditer(lead.statement.text) for n in re.findall(r"\d+", m[0])}
    return bool(
        paragraph
        and paragraph[1] in named
        and _article(block) == _article(lead_block)
        and _DENIES_RE.search(lead.statement.text)
    )


_DENIES_RE = re.compile(r"\b(?:not|no longer)\b", re.I)
RULING_MARGIN = 0.02  # how much less a statement ruling on the asked act may score and lead a yes/no answer
_CASE_RE = re.compile(r"(in the (event|case) of|in case of|where|if|when|during|for)\b", re.I)


def _point_for_the_case(lead: Option, candidates: list[Option], question: str) -> Option:
    """A point of a list that names cases ("(a) in the event of emergency Hospitalisation, ... (b) in the event of
    planned Hospitalisation, ...", "(b) If the Sum Insured is enhanced, ...") answers for the case the question
    names: when the words that set the lead apart from its sibling points are not the question's and a case's are
    ("a planned operation", "I bumped my sum insured up"), that case leads. Lettered paragraphs with no lead-in
    are siblings too."""
    if not lead.statement.marker or lead.statement.points:
        return lead
    siblings = [
        o
        for o in candidates
        if o.block == lead.block and o.statement.lead_in == lead.statement.lead_in and o.statement.marker
    ]
    # ... and still states the kind of fact asked when the lead does (by when: "at the latest within one month",
    # not "(c) where a disclosure to another recipient is envisaged" for data received "from another trust")
    cases = [o for o in siblings if _CASE_RE.match(o.statement.text) and (o.cue or not lead.cue)]
    if len(siblings) < 2 or not cases:
        return lead
    asked = content_terms(question)
    # the case a point is for is set by its opening phrase, up to its first comma ("in the event of planned
    # Hospitalisation"); what follows is the rule for that case
    said = {id(o): set(words(o.statement.text.split(",", 1)[0])) for o in siblings}

    def case_words(option: Option) -> set[str]:  # the words of its case no sibling's says, that the question says
        others = set().union(*(said[id(o)] for o in siblings if o is not option))
        return (said[id(option)] - others) & asked

    if case_words(lead):
        return lead
    best = max(cases, key=lambda o: (len(case_words(o)), o.score))
    return best if case_words(best) else lead


EXCEPTION_CASE_WORDS = 3  # words of the question a fee's exception says and the free rule does not: its case
CASE_MARGIN = 0.15  # how much less a statement naming the question's case may score and still lead
_APPLYING_RE = re.compile(r"\bappl(y|ies)\b", re.I)
# words that name the law, the parties or the asking, not the case a scope rule is for
_NOT_CASE_WORDS = frozenset(words("gdpr ehds regulation law apply applies eu union patients people data personal"))


def _scope_for_the_case(lead: Option, candidates: list[Option], blocks: list[Evidence], question: str) -> Option:
    """Asked whether a law applies, the scope rule for the question's own case answers: "an app company outside the
    EU that tracks the behaviour of EU patients" is 3(2)(b)'s "monitoring of their behaviour", not 3(3)'s controller
    "established in a place where Member State law applies by virtue of public international law", which scored a
    little higher and names nothing the question says."""

    def applying(option: Option) -> bool:  # a point, with the sentence announcing its list
        return bool(_APPLYING_RE.search(_cue_text(option.statement, blocks[option.block])))

    if not lead.cue or not applying(lead) or not _APPLYING_RE.search(question):  # asked whether it applies
        return lead
    asked = content_terms(question) - _NOT_CASE_WORDS

    def named(option: Option) -> int:
        return len(asked & set(words(option.statement.text)))

    rivals = [o for o in candidates if o.cue and o.score >= lead.score - CASE_MARGIN and applying(o)]
    best = max(rivals, key=lambda o: (named(o), o.score), default=lead)
    return best if named(best) > named(lead) else lead


# ... or to some of what a rule of the same clause covers: "The Co-payment does not apply to the fixed benefits ..."
_NOT_APPLYING_RE = re.compile(
    r"^\W*(?:the|a|an|this|such)? ?(?P<thing>[\w -]{2,40}?) (?:does|do|shall|will) not apply (?:to|in) (?P<to>[^.;]+)",
    re.I,
)
# a benefit's cases left out ("The benefit is not payable for Day Care Treatment ..."), and the clause paying it
_NOT_PAYABLE_RE = re.compile(
    r"^\W*(?:the|this|such) [\w -]{2,40}? (?:is|are) not payable (?:for|in|if|where|when) (?P<to>[^.;]+)", re.I
)
_PAYS_RE = re.compile(r"\b(?:will|shall) pay\b|\bis payable\b", re.I)


_FEE_RE = re.compile(r"\b(fees?|charges?|charged|charging)\b", re.I)


def _rule_before_its_exception(
    lead: Option, candidates: list[Option], blocks: list[Evidence], question: str, analysis: QuestionAnalysis
) -> Option:
    """The rule answers before the exception to it. Asked what something is: "What is the right to be forgotten?"
    is Art. 17(1)'s right to erasure, not 17(3)'s "Paragraphs 1 and 2 do not apply ...", when the evidence holds the
    paragraph the exception names first (asked whether one may, the exception can be the answer). Asked whether
    there is something or what it is, the clause's statement that it applies ("A Co-payment of 20% ... shall
    apply where ...") answers before the one saying where it does not, unless the question names that case. Asked
    whether something costs, a statement that it is free of charge answers before one allowing a fee."""
    if analysis.answer_type == "definition" and (match := EXCEPTION_TO_RE.match(lead.statement.text)):
        first = re.search(r"\d+", match.group("named"))
        article = blocks[lead.block].citation.split("(")[0]
        rule = f"{article}({first.group(0)})" if first else ""
        stating = [o for o in candidates if blocks[o.block].citation == rule and not o.statement.marker]
        return max(stating, key=lambda o: (o.support, -o.statement.position), default=lead)
    if (
        analysis.answer_type == "yes_no"
        and ASKS_COST_RE.search(question)
        and _FEE_RE.search(lead.statement.text)
        and not FREE_OF_CHARGE_RE.search(lead.statement.text)
    ):  # "Can the hospital charge me for a copy?": free of charge is the rule, a fee for further copies its exception
        law = _laws_of(lead, blocks)  # the free rule of the same law: EHDS access is free, asked about a GDPR fee
        free = [o for o in candidates if FREE_OF_CHARGE_RE.search(o.statement.text) and _laws_of(o, blocks) & law]
        free_rule = max(free, key=lambda o: (blocks[o.block].authority == "binding", o.support), default=lead)
        # ... unless the question is the exception's case ("the same request every single week": repetitive)
        said = _asked_words_said(question, lead.statement.whole) - _asked_words_said(
            question, free_rule.statement.whole
        )
        return lead if len(said) >= EXCEPTION_CASE_WORDS else free_rule
    if analysis.answer_type == "yes_no" and (unpaid := _NOT_PAYABLE_RE.match(lead.statement.text)):
        # "The benefit is not payable for ... days spent in an Intensive Care Unit": the clause's "will pay" answers
        # first, unless the question names the case it leaves out (beyond what the paying statement says too)
        paying = [
            o
            for o in candidates
            if o.block == lead.block
            and _PAYS_RE.search(o.statement.text)
            and not _NOT_PAYABLE_RE.match(o.statement.text)
        ]
        pays = max(paying, key=lambda o: (o.support, -o.statement.position), default=lead)
        case = set(words(unpaid.group("to"))) & (content_terms(question) - _denied(question))
        return pays if len(case - set(words(pays.statement.text))) < EXCEPTION_CASE_WORDS else lead
    not_applying = _NOT_APPLYING_RE.match(lead.statement.text)
    if analysis.answer_type not in ("definition", "yes_no") or not not_applying:
        return lead
    if set(words(not_applying.group("to"))) & content_terms(question):  # "Does it apply to the fixed benefits?"
        return lead
    thing = set(words(not_applying.group("thing")))
    applying = [
        o
        for o in candidates
        if o.block == lead.block
        and o is not lead
        and thing <= set(words(o.statement.text))
        and re.search(r"\b(shall|will|does|do)? ?apply\b|\bapplies\b", o.statement.text, re.I)
        and not re.search(r"\bnot apply\b|\bno\b", o.statement.text, re.I)
    ]
    return max(applying, key=lambda o: (o.support, -o.statement.position), default=lead)


def _with_counterparts(
    chosen: list[Option], lead: Option, candidates: list[Option], blocks: list[Evidence], question: str, kind: str
) -> tuple[list[Option], list[Option]]:
    """The statements of another wording to state beside the chosen ones, inserted after them, and those added.
    Asked how the wordings it names differ, each chosen statement of one wording's clause is followed by the
    statement in the same place of the same clause of the other named wording (the group rider's maternity limit,
    then the individual rider's). Asked with no wording named, the lead is followed by the other wording's
    statement when that says something else ("Is there a co-payment for older people?": none under the group
    rider, 20% from 61 under the individual one); asked about two it names, the other's even when it says the
    same. Both sides are stated, whatever the word budget."""
    named = variants_named(question)
    if kind == "comparison" and len(named) > 1:
        paired_with, wanted, differing = chosen, named, False
    elif not named and blocks[lead.block].metadata.get("variant"):
        wanted = {str(b.metadata["variant"]) for b in blocks if b.metadata.get("variant")}
        paired_with, differing = [lead], True
    elif len(named) > 1:  # "How much for the ambulance on his own rider? Would it be more on the group one?"
        paired_with, wanted, differing = [lead], named, False  # asked of each, each is answered, alike or not
    else:
        return chosen, []
    out: list[Option] = []
    added: list[Option] = []
    for option in chosen:
        out.append(option)
        block = blocks[option.block]
        clause, variant = block.metadata.get("clause_id"), block.metadata.get("variant")
        if not clause or variant not in wanted or not any(option is p for p in paired_with):
            continue
        same_clause = [
            o
            for o in candidates
            if (other := blocks[o.block]).metadata.get("clause_id") == clause
            and other.metadata.get("variant") in wanted - {variant}
            and not any(o is x for x in [*chosen, *out])
        ]
        # a point of a list: the other wording's point on the same thing, whatever its letter
        if option.statement.marker:
            said = set(words(option.statement.text))
            counterpart = max(
                same_clause, key=lambda o: (len(said & set(words(o.statement.text))), o.score), default=None
            )
        else:
            placed = [o for o in same_clause if o.statement.position == option.statement.position] or same_clause
            counterpart = max(placed, key=lambda o: o.score, default=None)
        if counterpart and not (differing and _as_said(counterpart, blocks) == _as_said(option, blocks)):
            out.append(counterpart)
            added.append(counterpart)
    return out, added


# "The application shall be forwarded ...": a subject the sentence before introduced (a common noun, not a defined
# term such as "the Company")
_DEFINITE_SUBJECT_RE = re.compile(
    r"^\W*(?:[Tt]he|[Ss]uch|[Tt]hat|[Tt]hose|[Tt]hese) (?:[a-z-]+ ){0,2}?(?P<noun>[a-z-]+) "
    r"(?:shall|must|may|is|are|will|can|has|have)\b"
)
INTRODUCED_MARGIN = 0.05  # how much less the introducing sentence may score and still lead


def _introducing_statement(lead: Option, candidates: list[Option]) -> Option:
    """The statement right before the lead, when it introduces the lead's subject and scores nearly as well: "A
    health data applicant seeking access ... in more than one Member State ... shall submit a single health data
    access application ..." states the rule; "The application shall be forwarded ..." what follows from it."""
    match = _DEFINITE_SUBJECT_RE.match(lead.statement.text)
    if not match or lead.statement.marker or lead.statement.points:  # a lead-in quoted with its points says it all
        return lead
    noun = set(words(match.group("noun")))
    before = _antecedent(lead, candidates)
    if (
        before
        and not before.statement.marker
        and noun
        and noun <= set(words(before.statement.text))
        and before.score >= lead.score - INTRODUCED_MARGIN
    ):
        return before
    return lead


def _laws_of(option: Option, blocks: list[Evidence]) -> set[str]:
    """The instruments a statement belongs to or names ("GDPR Art. 12(5)" in a commentary)."""
    block = blocks[option.block]
    return instruments_named(option.statement.text) | instruments_named(str(block.metadata.get("instrument", "")))


def _list_for_its_lead_in(lead: Option, candidates: list[Option], question: str, analysis: QuestionAnalysis) -> Option:
    """A point that says nothing the question asks about leads only for its lead-in ("... are subject to
    administrative fines up to 20 000 000 EUR ...: (b) the data subjects' rights"): the lead-in is quoted with
    every point, so the answer does not read as if that one point were the whole rule. A point the question
    names ("46(2)(c)") is quoted alone."""
    point = lead.statement
    named_point = any("(" in p for p in analysis.provisions)
    if not point.marker or not point.lead_in or named_point or set(words(point.text)) & content_terms(question):
        return lead
    whole = _lead_in_of(lead, candidates)
    if whole is None:
        return lead
    # the cases a right or duty holds in ("where one of the following grounds applies: ...") are quoted whole as
    # the cases asked for are: one ground alone reads as the only one
    limit = CASES_MAX_WORDS if _ANY_OF_RE.search(whole.statement.text) else LIST_MAX_WORDS
    return whole if len(whole.statement.whole.split()) <= limit else lead


def _join_points(points: tuple[str, ...]) -> str:
    bullets = [p[2:].strip() for p in points if p[:1] in "-•*"]
    if len(bullets) == len(points):
        return "; ".join(b.rstrip(";.") for b in bullets)
    return " ".join(points)


# whether something was done in time: "by now", "this long", "too late", "still not", "yet"
_TIMELINESS_RE = re.compile(
    r"\b(by now|yet|(this|that|so) long|too (late|long)|in time|overdue|late|still (not|no|waiting|hasn't|haven't))\b",
    re.I,
)


def _wanted(question: str, analysis: QuestionAnalysis) -> tuple[bool, re.Pattern[str] | None, bool]:
    """What a lead must state: a fact rather than a definition; the pattern of the period or amount asked; a
    cue (a period, an amount, who may or must) when one of the evidence states it."""
    fact_kind = _CUES.get(analysis.answer_type) if analysis.answer_type in ("deadline", "amount") else None
    if analysis.answer_type == "yes_no" and _TIMELINESS_RE.search(question_sentence(question)):
        fact_kind = _CUES["deadline"]  # "Weren't they supposed to answer me by now?": the period decides it
    cue_needed = (
        bool(fact_kind)
        or (analysis.answer_type == "who" and bool(_WHO_MAY_RE.search(question) or _WHO_MUST_RE.search(question)))
        or analysis.answer_type == "list"  # "What has to go into our submission?": a statement with its points
    )
    return analysis.answer_type in NOT_DEFINITIONS, fact_kind, cue_needed


def _answer_to(part: str, blocks: list[Evidence], embed: Embed | None) -> Option | None:
    """The statement answering one part of a question, scored for that part, as the lead of that part alone would be."""
    analysis = analyse(part)
    fact_wanted, fact_kind, cue_needed = _wanted(part, analysis)
    scored = options(part, analysis, blocks, embed)
    found = lead_option(
        scored,
        blocks,
        asked_about(part, analysis),
        policy_subject(part, analysis, blocks),
        fact_wanted,
        fact_kind,
        cue_needed,
    )
    return found if found is not None and found.score >= MIN_LEAD_SCORE else None


def _first_part_first(
    question: str, lead: Option | None, candidates: list[Option], blocks: list[Evidence], embed: Embed | None
) -> Option | None:
    """Asked two things at once, the answer to the first leads: when the statement answering the whole question is
    the answer to a later part ("how long to settle a claim, and what if it needs investigating?": the 45 days of an
    investigation), the first part's answer takes its place, and the later part's follows it. The first part's answer
    must state what its part asks (a period, a yes or no): a part's answer alone may be a worse one than the lead,
    which answered both ("What is an NHS number and how many digits does it have?": "a 10-digit number")."""
    parts = question_parts(question)
    if lead is None or not parts:
        return lead
    answers = [_answer_to(part, blocks, embed) for part in parts]
    first = answers[0]
    later = [(a.statement, a.block) for a in answers[1:] if a is not None]
    if first is None or (first.statement, first.block) == (lead.statement, lead.block):
        return lead
    if (lead.statement, lead.block) not in later or not first.cue:
        return lead
    return next((o for o in candidates if (o.statement, o.block) == (first.statement, first.block)), lead)


def _part_leads(
    question: str, chosen: list[Option], candidates: list[Option], blocks: list[Evidence], embed: Embed | None
) -> list[Option]:
    """Asked two things at once ("Is there a faster route, and how quickly must the access body decide?"), the
    statement that answers each part, when the answer does not quote it yet: the lead answers the question as a
    whole, and quoted alone it left the other part unanswered. `chosen`: what the answer quotes, its lead first."""
    out: list[Option] = []
    for part, clause in zip(question_parts(question), part_clauses(question), strict=True):
        analysis = analyse(part)
        fact_wanted, fact_kind, cue_needed = _wanted(part, analysis)
        # the scene both parts share scores every part's statements alike: what the part itself asks tells them apart
        own_score = {(o.block, o.statement.position): o.score for o in options(clause, analyse(clause), blocks, embed)}
        scored = [
            replace(o, score=(o.score + own_score.get((o.block, o.statement.position), 0.0)) / 2)
            for o in options(part, analysis, blocks, embed)
        ]
        subject = policy_subject(part, analysis, blocks)
        # asked how long or how much, the lead's own provision stating it answers first ("Under that accelerated
        # procedure, ... within two months" after the accelerated procedure, not another procedure's three months)
        own = [
            o
            for o in scored
            if fact_kind
            and o.cue
            and o.block == chosen[0].block
            and not any((o.block, o.statement.position) == (c.block, c.statement.position) for c in chosen)
        ]
        found = max(own, key=lambda o: o.score, default=None) or lead_option(
            scored, blocks, asked_about(part, analysis), subject, fact_wanted, fact_kind, cue_needed
        )
        if found is None or found.score < MIN_LEAD_SCORE:
            continue
        # a part's answer from a passage graded far below the lead's is off the question ("what should it cover?"
        # about a breach record answered with what a DPIA must contain)
        if (blocks[found.block].confidence or 0.0) < (blocks[chosen[0].block].confidence or 0.0) - PART_BLOCK_MARGIN:
            continue
        said = {w for o in [*chosen, *out] for w in _asked_words_said(part, o.statement.whole)}
        # asked how much, a statement of the sum answers when nothing quoted states one, whatever words it shares
        stated = bool(fact_kind and any(fact_kind.search(o.statement.whole) for o in [*chosen, *out]))
        new_fact = bool(fact_kind and found.cue and not stated)
        # asked whether one must do an act ("does our DPO have to be involved?"), the duty to do it answers the part
        new_fact = new_fact or bool((duty := duty_asked(part)) and duty.imposed_by(found.statement.text))
        if not own and not new_fact and len(_asked_words_said(part, found.statement.whole) - said) < PART_NEW_WORDS:
            continue  # the answer already says what this part asks (or the part's best says little of it)
        place = (found.block, found.statement.position)
        same = next((o for o in candidates if (o.block, o.statement.position) == place), None)
        # the sentence announcing a point's list is quoted before the point ("... Accident: (a) Cataract")
        quoted = [_cue_text(o.statement, blocks[o.block]) for o in [*chosen, *out]]
        if same is not None and not any(same.statement.text.rstrip(".:") in text for text in quoted):
            out.append(same)
    return out


def compose(question: str, blocks: list[Evidence], embed: Embed | None) -> str:
    """The answer text with [Source N] after each statement, or the refusal sentence."""
    analysis = analyse(question)
    if (from_records := compose_records(question, analysis, blocks)) is not None:
        return " ".join(from_records) or REFUSAL
    if (series := compose_series(question, blocks)) is not None:
        return series
    candidates = options(question, analysis, blocks, embed)
    asked = asked_about(question, analysis)
    subject = policy_subject(question, analysis, blocks)
    if not _META_QUESTION_RE.search(question):  # "History: ...", "Scope: ..." say what a text is, not what it says
        # ... unless a note defines what is asked ("Scope: ... Confidential information here means ...")
        candidates = [
            o
            for o in candidates
            if o.statement.label not in META_LABELS or _defines_what_is_asked(question, analysis, o)
        ] or candidates
    if analysis.answer_type == "comparison" and (defined := _definitions_of(compared_terms(question), candidates)):
        return " ".join(f"{render(o.statement, blocks[o.block])[:-1]} [Source {o.block + 1}]." for o in defined)
    fact_wanted, fact_kind, cue_needed = _wanted(question, analysis)
    # a question naming a provision the evidence holds is answered from that provision
    leads = [o for o in candidates if _names_provision(analysis, blocks[o.block], o.statement)]
    if fact_kind and leads and not any(o.cue for o in leads):
        # "the maximum fine for breaching Article 32": Art. 32 states no amount, the provision listing it does
        leads = [o for o in candidates if o.cue and _lists_named_article(analysis, o, blocks)] or leads
    first = lead_option(leads, blocks, asked, subject, fact_wanted, fact_kind, cue_needed)
    if first is None:
        leads = candidates
        first = lead_option(leads, blocks, asked, subject, fact_wanted, fact_kind, cue_needed)
    first = _first_part_first(question, first, candidates, blocks, embed)
    # (weighed by the better of its support for the whole question and for the question a story leads up to)
    strength = first.score + max(0.0, first.alone - first.support) if first else 0.0
    if first is None or (blocks[first.block].confidence is not None and strength < MIN_LEAD_SCORE):
        return REFUSAL
    lead: Option | None = first
    antecedent = None
    remaining = leads
    while lead is not None and needs_antecedent(lead.statement.text):
        antecedent = _antecedent(lead, candidates) or _in_the_paragraph_before(lead, candidates, blocks)
        if antecedent is not None:
            break
        remaining = [o for o in remaining if o is not lead]  # "In such cases, ..." with nothing before it
        lead = lead_option(remaining, blocks, asked, subject, fact_wanted, fact_kind, cue_needed)
    lead = _whole_list(lead or first, candidates, analysis)  # nothing else answers: as the source has it
    lead = _point_for_the_case(lead, candidates, question)
    if analysis.answer_type == "yes_no":
        lead = _scope_for_the_case(lead, candidates, blocks, question)
    lead = _list_for_its_lead_in(lead, candidates, question, analysis)
    lead = _rule_before_its_exception(lead, candidates, blocks, question, analysis)
    lead = _introducing_statement(lead, candidates)
    if analysis.answer_type == "yes_no" and not lead.cue:
        lead = _ruling_beside(lead, candidates, blocks, question)
    if antecedent is None and needs_antecedent(lead.statement.text):  # "It shall include at least: ..."
        antecedent = _antecedent(lead, candidates)
    # "It is run by NHS England ..." reads "The Data Security and Protection Toolkit (DSPT) is run ...": the subject
    # is named in the lead, and the sentence introducing it is quoted neither before nor after
    introduced = antecedent if antecedent and _PRONOUN_RE.match(lead.statement.text) else None
    named_subject = _subject_of(introduced.statement.text) if introduced else ""
    if named_subject:
        antecedent = None
    steps = procedure_steps(lead, candidates, blocks) if analysis.answer_type == "procedure" else []
    listed = pointed_list(lead, candidates, blocks) or points_taken_in(lead, candidates, blocks)
    # "... of any such extension within one month": the statements saying what extension follow the lead
    refers_back = not antecedent and refers_to_what_precedes(lead.statement.text)
    context = _context_before(lead, candidates) if refers_back else []
    left_out = (antecedent, listed, *context, introduced if named_subject else None)
    rest = [o for o in following(lead, candidates, blocks, subject, question) if all(o is not x for x in left_out)]
    quoted = [x for x in (lead, antecedent, listed, *context, *rest) if x is not None]  # the lead first
    parts = [] if steps else _part_leads(question, quoted, candidates, blocks, embed)
    referred = _referred(lead, blocks)
    chosen = steps or [
        *([antecedent] if antecedent else []),
        lead,
        *([listed] if listed else []),
        *context,
        *parts,
        *rest,
    ]
    chosen, paired = _with_counterparts(chosen, lead, candidates, blocks, question, analysis.answer_type)
    sentences: list[str] = []
    excepted = any(
        o is not lead and _changes_the_lead(o, lead, blocks) and _NOT_APPLY_RE.search(o.statement.text) for o in chosen
    )
    budget = STEPS_MAX_WORDS if steps else MAX_WORDS
    answered, overdrawn = _asked_words_said(question, lead.statement.whole), False
    opener = ""
    for number, option in enumerate(chosen):
        text = render(option.statement, blocks[option.block], lead=number == 0 or any(option is p for p in paired))
        if option is lead and named_subject:
            text = _PRONOUN_RE.sub(named_subject, text, count=1)
        allowance = _allowance(question, option, answered, overdrawn) if option in rest else 0
        kept = option is listed or option is lead or any(option is o for o in [*context, *paired, *parts])
        kept = kept or _changes_the_lead(option, lead, blocks)  # the lead point's caveat, its paragraph's exception
        kept = kept or _continues_the_lead(option, lead)
        over = number and not kept and len(text.split()) > budget + allowance
        if over and option.block not in referred:  # the clause the lead refers to for its condition is never cut
            continue  # what follows the lead is cut, never the lead after a long antecedent
        overdrawn = overdrawn or bool(number and len(text.split()) > budget)
        answered |= _asked_words_said(question, option.statement.whole)
        if number == 0 and analysis.answer_type == "yes_no":
            lead_text = _PRONOUN_RE.sub(named_subject, render(lead.statement, blocks[lead.block]), count=1)
            # a clause about another benefit's payment ("will pay ... Critical Illness") says nothing of yes or no
            about = not subject or subject.named_by(f"{lead_text} {_heading(blocks[lead.block])}")
            opener = yes_no_opener(question, lead_text) if about else ""
            if opener == "Yes: " and excepted:  # "That right does not apply to ...": yes, not in every case
                opener = "Yes, subject to conditions: "
            if not opener and _NOT_IN_THE_UK_RE.search(lead.statement.text) and ehds_asked_in_the_uk(question):
                opener = "No: "  # "Do we need to get ready for the EHDS?" at an NHS trust
            if not opener and (lead.short or (analysis.about_cover and lead.cue and _excluding(blocks[lead.block]))):
                # an exclusion naming what was asked, or a case short of what the clause requires: no; only in some
                # cases when it has exceptions or a narrower scope ("professional participation in hazardous sports"
                # does not exclude a holiday dive; a waiting period's exception is read in the law's terms for the
                # plain words too: "broke my arm in a car crash" is an Accident)
                described = f"{question} {' '.join(expansion_terms(question))}" if lead.short else question
                opener = ONLY_SOME if _excludes_only_some(described, lead_text) else "No: "
            text = f"{opener}{_sentence_case(text)}" if opener else text
        if option is not listed and not any(option is p for p in [*paired, *parts]):  # lists apart (MAX_WORDS), the
            budget -= len(text.split())  # other side of a comparison, another part's answer; the name below takes none
        if paired and (side := blocks[option.block].citation) and blocks[option.block].metadata.get("clause_id"):
            # each side of a comparison says which wording it is, after the answer's Yes or No
            opened = number == 0 and opener and text.startswith(opener)
            text = f"{opener}{side}: {text[len(opener) :]}" if opened else f"{side}: {text}"
        elif number == 0 and (
            name := _opening_name(analysis, blocks[lead.block], render(lead.statement, blocks[lead.block]))
        ):
            text = f"{name}: {text}"
        sentences.append(f"{text[:-1]} [Source {option.block + 1}].")
    answer = " ".join(sentences)
    if analysis.answer_type == "amount" and _MONEY_QUESTION_RE.search(question):
        # asked how much, an answer stating no sum of what was asked is no answer ("how much compensation can I
        # get?" answered with a three-month period, a fine with "free of charge"): the sources do not say
        if not any(_states_sum_asked(question, s) for s in sentences):
            return REFUSAL
    return answer
