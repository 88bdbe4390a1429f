"""Whether a statement answers a yes/no question Yes, No, "Yes, subject to conditions" or "Only in some cases":
it must rule on the very act the question asks about ("Can I withdraw ...?" / "shall have the right to withdraw"),
for the party it asks about (the data subject for "I", the controller for "the hospital"), and, asked whether the
asker is told, say that the asker (not an authority) is told. The composer opens a yes/no answer with it and takes a
statement it opens as one carrying the asked fact."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from generation.blocks import ONLY_SOME
from language.analysis import question_sentence
from language.expansion import bridges
from language.question import content_terms
from language.sentences import split_sentences
from language.words import words

# "must, without undue delay, communicate": a phrase set off by commas (not a negation) may stand between the
# modal and its verb
_ASIDE = r"(?:,(?:(?!\bnot\b)[^,.;:]){1,40},)?"
_MODAL_VERB_RE = re.compile(
    rf"\b(shall|must|may|can|will|does|do|is|are)(\s+not|n't)?{_ASIDE}"
    r"(\s+be(?:\s+(?:able|obliged|required)\s+to)?|\s+(?:able|obliged|required)\s+to|\s+have\s+to|\s+either)?:?"
    # "shall be able to directly alter": the verb past its adverb
    r"(?:\s+(?!(?:only|apply|supply|rely|comply|reply|imply)\b)[a-z]+ly\b)?\s+([a-z]+)",
    re.I,
)
# "Is that allowed?", "Can they do so?", "Are they allowed to?": the act is the scene's
_POINTS_BACK_RE = re.compile(r"\b(?:that|this|it|so)\b|\bto\W*$", re.I)
_OBLIGED_RE = re.compile(r"\b(obliged|required)\b", re.I)
_PERMITTING = ("may", "can")  # modals of a permission, with no duty in them
_ASKS_NECESSITY_RE = re.compile(r"\b(need|needs|have to|has to|must|required|obliged|obligated|necessary)\b", re.I)
# "the controller may either: (b) refuse to act": a point completes its lead-in's modal
_POINT_AFTER_LEAD_IN_RE = re.compile(r":\s*\(?(?:[a-z]{1,2}|[ivx]{1,5}|\d{1,2})[.)]\s+", re.I)
# "shall have the right to withdraw", "has the right to obtain": a right is a permission of its verb (the groups
# line up with _MODAL_VERB_RE's: modal, negation, filler, verb)
_RIGHT_TO_RE = re.compile(
    r"\b(shall|has|have|will|is|are)(\s+not|n't)?(\s+(?:have\s+)?(?:the\s+)?right\s+to|\s+entitled\s+to)\s+([a-z]+)",
    re.I,
)
# "This Regulation applies to ...": a law's scope in the present tense, with no modal (groups as above, empty)
_APPLIES_RE = re.compile(r"\b()()()(applies)\s+(?=to\b|only\b|in\b)", re.I)
_NEGATIVE_RE = re.compile(r"\bnot\b|n't\b|\bcannot\b", re.I)
_PROHIBITING = frozenset(words("prohibited forbidden banned barred"))  # a permission denied by its verb
# "Neither natural persons nor their representatives shall be able to ...", "No processor shall ...": a subject that
# negates the modal after it
_NEGATING_SUBJECT_RE = re.compile(r"^\W*(neither|no|none of|nobody|no one)\b", re.I)
# The law's verbs for a plain one, said where the question's act is: "Do we need a permit?" / "shall not require",
# "Can I change what the doctor wrote?" / "shall be able to alter" (only verbs that keep their object: "look up a
# record" is not "access one's own")
_LAW_VERBS = {
    plain: frozenset(words(law))
    for plains, law in (
        ("need", "require"),
        ("get obtain", "obtain access seek"),
        ("ask request", "obtain request"),  # "Can a patient ask us to delete ...?" / "has the right to obtain erasure"
        ("use", "applicable available"),  # "Can I use the free look period?" / "is not applicable to this Group Policy"
        ("change edit amend correct fix", "alter amend modify rectify"),
        ("delete remove wipe", "erase"),
        ("send", "transmit transfer"),
        ("tell warn", "inform notify communicate"),
        ("justify", "give state provide"),  # "tell us why" / "shall give the applicant a justification"
        ("demand", "insist"),
        ("make force oblige compel", "require order"),  # "Can the authority make us tell them?" / "may require"
        ("collect gather", "acquire obtain"),
    )
    for plain in words(plains)
}
_CONDITION_RE = re.compile(
    r"\b(unless|except|provided that|only (if|where|when)|subject to|to the extent|on condition)\b"
    r"|^\W*(where|if|for (any )?(further|additional|subsequent))\b",  # "For any further copies ..., the controller may"
    re.I,
)


_MEMBER_STATE_RE = re.compile(r"\bmember states?\b", re.I)
_IRREGULAR_PLURALS = {"children": "child", "women": "woman", "men": "man"}


@lru_cache(maxsize=4096)  # every statement's subject and every question, once per text
def _party_words_in_order(text: str) -> tuple[str, ...]:
    """Lower-case words in order, a plural as its singular ("representatives": "representative", "children":
    "child")."""
    text = _MEMBER_STATE_RE.sub("state", text)  # a Member State is a country, not a member of a scheme
    return tuple(
        _IRREGULAR_PLURALS.get(w) or (w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w)
        for w in re.findall(r"[a-z]+", text.lower())
    )


def _party_words(text: str) -> frozenset[str]:
    return frozenset(_party_words_in_order(text))


# Who a question or a statement is about, by kind: a person asking about themselves is the data subject, the
# natural person or the insured person a provision speaks of; "we", a hospital or a trust is the controller,
# processor or provider; a question about the GDPR or a rider is answered by what "this Regulation" or "the
# Company" does.
_PARTY_KINDS = tuple(
    _party_words(kind)
    for kind in (
        "i me myself patient mum dad mother father child family person people individual subject natural "
        "member policyholder user representative you they",  # "they": a person or an organisation
        "we us hospital trust clinic practice surgery gp organisation controller processor provider holder "
        "company insurer professional doctor they",
        "gdpr ehds regulation law rule rider policy wording scheme company insurer",
        "country nation state government",  # "each EU country": the Member States
        # "Can the authority make us tell them?": the regulator or access body acts, not the asker
        "authority regulator ico commissioner body bodies",
    )
)
# the words of a person, stemmed as a question's content words are
PERSON_WORDS = frozenset(words(" ".join(_PARTY_KINDS[0])))
# words a modal is followed by that are not the act: adverbs ("are still") and prepositions ("is without prejudice")
_NOT_VERBS = frozenset(
    "still often also only always never already usually generally then thus however not without with within in on "
    "to of for by from under".split()
)
_ONLY_RE = re.compile(r"^(?:\W*\w+){0,8}?\W+only\b", re.I)
# "alternative treatments (other than AYUSH treatment)": what an exclusion leaves out of it
EXCEPTED = r"\b(other than|except(?: for)?|excluding|apart from)\b"
_NEGATED_SUBJECT_RE = re.compile(rf"\b(not|without)\b|{EXCEPTED}", re.I)
_CLAUSE_BREAK_RE = re.compile(r"[,;:]|\b(?:so that|where|when|if|unless|which|who)\b", re.I)


def _subject(before_modal: str) -> str:
    """The words before a modal, within its clause: its subject ("Natural persons, or their representatives
    ..., have the right": the representatives)."""
    clauses = [c for c in _CLAUSE_BREAK_RE.split(before_modal) if c and c.strip()]
    return clauses[-1] if clauses else ""


# a rule for the cases its points list ("must in any case designate a DPO where: (a) ...", "is required in
# particular in the case of: (a) ..."): yes only in those cases
_CASES_LISTED_RE = re.compile(
    r"\b(where|when|if|in the case of|in (the following|these|any of the following) cases)\s*:\s*\(", re.I
)
_NEED_A_RE = re.compile(
    r"\bneeds? (?:an?|any|some|the|our own|its own|their own|to have an?) ([\w' -]{2,60}?)"
    r"(?:\?|$| for| to| before| if| when| in| under| at)",
    re.I,
)
_NEED_ONE_RE = re.compile(r"\bneeds? (?:one|it)\b", re.I)
# a thing a story names: "never had a data protection officer", "no DPIA" (up to the end of its noun phrase)
_A_THING_RE = re.compile(
    r"\b(?:an?|no) ((?:[\w-]+ ){0,3}?[\w-]+)(?=[.,;:!?]| for\b| to\b| who\b| which\b| that\b|$)", re.I
)
_QUALIFIED_THING_RE = re.compile(r"\b(separate|each|every|another|second|extra|additional|further|new|own)\b", re.I)
OBJECT_WORDS = 14  # a duty's object runs this far at most ("carry out an assessment of the impact of ...")
_OBJECT_END_RE = re.compile(r"\b(?:of|to|with|from|for|by|on|in|under|where|when|if|unless)\b", re.I)


def _thing_forms(question: str) -> tuple[frozenset[str], ...]:
    """What a "Do we need a ...?" question needs, in its words and in each of the law's terms for them ("DPO": data
    protection officer); "Do we need one?" needs the last thing the story names ("We've never had a data
    protection officer.")."""
    asking = question_sentence(question)
    found = _NEED_A_RE.search(asking)
    if found:
        thing = found.group(1)
    elif _NEED_ONE_RE.search(asking) and (named := _A_THING_RE.findall(question[: question.rfind(asking)])):
        thing = named[-1]
    else:
        return ()
    if _QUALIFIED_THING_RE.search(thing):  # "a separate DPIA for each site" asks about the separate one
        return ()
    legal = [terms for phrase, terms in bridges(question) if set(words(phrase)) & set(words(thing))]
    return tuple(form for form in (frozenset(words(t)) for t in [thing, *legal]) if form)


def _thing_needed(question: str) -> frozenset[str]:
    """The words of what a "Do we need a ...?" question needs, its own and the law's."""
    return frozenset().union(*_thing_forms(question))


def _duty_on_the_thing(needed: frozenset[str], match: re.Match[str], text: str) -> bool:
    """A duty ("must", "shall") whose next words name the thing needed: "must in any case designate a data
    protection officer where ..." for "Do we need a DPO?"."""
    if not needed or match.group(1).lower() not in ("must", "shall") or match.group(2):
        return False
    return len(needed & _object_of(needed, text[match.end() :])) >= min(2, len(needed))


def _object_of(thing: frozenset[str], after_verb: str) -> set[str]:
    """The words of a verb's object, up to any preposition unless what comes before names the thing ("an assessment
    of the impact" goes on past its "of"; "the advice of the data protection officer" stops at it)."""
    obj: set[str] = set()
    for piece in _OBJECT_END_RE.split(" ".join(after_verb.split()[:OBJECT_WORDS])):
        obj |= set(words(piece))
        if not obj & thing:
            break
    return obj


def _object_is(forms: tuple[frozenset[str], ...], after_verb: str) -> bool:
    """The object of a verb is the thing, in most words of one of its forms: "carry out an assessment of the impact
    ... on the protection of personal data" is a DPIA; "designate a data protection officer" is none."""
    return any(2 * len(form & _object_of(form, after_verb)) > len(form) for form in forms)


def _needed_thing(act: str, match: re.Match[str]) -> bool:
    """Asked whether something is needed, a statement that it "is (not) required" rules on the thing itself,
    whoever the question's party is ("Do we need a permit?" / "No specific authorisation is required")."""
    return act == "need" and match.group(1).lower() in ("is", "are") and match.group(4).lower() == "required"


_EVERY_SUBJECT_WORDS = frozenset(words("health data personal electronic information"))


def _same_party(question: str, text: str, match: re.Match[str]) -> bool:
    """The statement's subject (its words before the modal, within the clause) is who the question asks
    about: the same words, or the same kind of party ("the data subject" for "I", "the controller" for
    "the hospital", "this Regulation" for "the GDPR")."""
    before = _subject(text[: match.start()])
    if _NEGATED_SUBJECT_RE.search(before):  # "Out-patient consultations not followed by a Day Care Treatment"
        return False  # is not the day care treatment asked about
    asked = content_terms(question)
    shared = set(words(before)) & (asked | {w for t in asked for w in _LAW_VERBS.get(t, ())})
    # "Such a transfer shall not require ...", asked about sending data; but an authority named with words every
    # subject has ("the health data access body") is not the clinic a question saying "health data" asks about
    if shared - _EVERY_SUBJECT_WORDS or (shared and not _party_words(before) & _PARTY_KINDS[-1]):
        return True
    subject, party = _party_words(before), _asked_party(question)
    if party in _THING_PRONOUNS:  # the thing the scene named: the statement's own pronoun for it
        return bool(subject & _THING_PRONOUNS)
    if party in _FIRST_PERSON and _tells_the_asker(question) and subject & _PARTY_KINDS[1]:
        return True  # "Do I need to tell patients ...?": one who tells patients acts for the controller
    return any(subject & kind and party in kind for kind in _PARTY_KINDS)


_ALL_PARTIES = frozenset().union(*_PARTY_KINDS)
_FIRST_PERSON = frozenset(("i", "me", "myself"))
_PAYING = frozenset(words("pay reimburse indemnify cover"))
# "If a patient agreed to something, can they ...?": the asking clause follows the condition
_CONDITION_FIRST_RE = re.compile(
    r"^\s*(?:if|when|where|once|after|before)\b[^,?]*,\s*"
    # "Under the EHDS can I ...?": the law it asks under is not the party
    r"|^\s*(?:under|according to|in line with)\s+(?:the\s+)?(?:[\w@-]+(?:\s+|,\s*)){1,5}?"
    r"(?=(?:can|could|may|must|do|does|is|are|should|will|would|shall)\b)"
    # "EHDS: can I edit my doctor's entries": the topic typed before the question
    r"|^\s*[\w@' -]{1,40}:\s*(?=(?:can|could|may|must|do|does|is|are|should|will|would|shall)\b)",
    re.I,
)


# "Does that stop my GP sharing ...?", "Will it cover a holiday dive?": the thing the scene named is the party, and
# its verb the act (not the GP's sharing)
_THING_ACTS = frozenset(words("stop prevent block cover apply affect include exclude allow permit"))
_THING_PRONOUNS = frozenset(("it", "that", "this"))


# a verb whose clause opens with a subordinator, after the main clause: "... by delaying access until a health
# professional is able to communicate ..." rules on restricting, not on communicating
_IN_A_SUBORDINATE_RE = re.compile(r"\b(?:until|unless|before|after|once)\b[^,;:]*$", re.I)
_SUBORDINATORS = frozenset("before after until unless because while once whereas although".split())


# "Will they let me know ...?" is "Will they tell me ...?"; "Do they have to tell us why?" asks for a justification
_LET_KNOW_RE = re.compile(r"\blet (me|us|him|her|them|you) know\b", re.I)
_TELL_WHY_RE = re.compile(r"\b(?:tell|explain to) (me|us|him|her|them|you) why\b", re.I)


def _party_at(question: str) -> tuple[tuple[str, ...], int | None]:
    """The asking sentence's words and where its first party word is (None when it names none)."""
    sentence = question_sentence(question)
    asking = _TELL_WHY_RE.sub(r"justify to \1", _LET_KNOW_RE.sub(r"tell \1", sentence))
    tokens = _party_words_in_order(_CONDITION_FIRST_RE.sub("", asking))
    # the asking clause, not a clause it subordinates ("will the result pop up before any doctor has talked to me?":
    # the result, not the doctor)
    tokens = tokens[: next((i for i, w in enumerate(tokens) if i > 1 and w in _SUBORDINATORS), len(tokens))]
    if len(tokens) > 2 and tokens[1] in _THING_PRONOUNS and words(tokens[2])[:1] and words(tokens[2])[0] in _THING_ACTS:
        return tokens, 1
    # "the individual rider", "the group scheme": a word naming the policy's kind is not a party
    parties = (i for i, w in enumerate(tokens) if w in _ALL_PARTIES and tokens[i + 1 : i + 2] != ("rider",))
    at = next(parties, None)
    if at is not None and tokens[at] == "they" and (named := _scene_party(question, sentence)):
        tokens = (*tokens[:at], named, *tokens[at + 1 :])  # "The access body turned us down. Do they ...?": the body
    return tokens, at


def _scene_party(question: str, asking: str) -> str:
    """The party the sentence before the asking one opens with, when it is not the asker ("The health data access
    body has turned down our application."), or ''."""
    scene = split_sentences(question[: question.rfind(asking)]) if asking in question else []
    if not scene:
        return ""
    tokens = _party_words_in_order(scene[-1])
    first = next((w for w in tokens if w in _ALL_PARTIES), "")
    return "" if first in _FIRST_PERSON or first in ("we", "us", "they", "you") else first


def _asked_party(question: str) -> str:
    """The party a yes/no question asks about: the first party word of its asking sentence ("Does the GDPR
    require us to encrypt patient records?": the GDPR, not the patients), or '' when it names none."""
    tokens, at = _party_at(question)
    return tokens[at] if at is not None else ""


# between the party and its act: "Are we (still) allowed to send ...", "Do I have to give ...", "Can I really ..."
_ADVERBS = frozenset("still also really actually just ever even legally lawfully always then later now".split())
_BEFORE_ACT = _ADVERBS | frozenset(
    "afterwards simply be able allowed permitted required obliged entitled to have has need needs start begin".split()
)


_HAS_TO_BE_DONE_RE = re.compile(r"\b(?:have|has|need|needs) to be (\w+ed)\b", re.I)


def act_asked(question: str) -> str:
    """The act a yes/no question asks about, stemmed: the first word after its party, past the modal's helpers
    ("Can I look up my neighbour's record if I have system access?": look, not access); '' when the asking
    sentence names no party."""
    tokens, at = _party_at(question)
    if at is None:  # "Does our DPO have to be involved?": the act done to whoever it names
        passive = _HAS_TO_BE_DONE_RE.search(question_sentence(question))
        return words(passive.group(1))[0] if passive and words(passive.group(1)) else ""
    rest = tokens[at + 1 :]
    while rest[:1] and rest[0] in _ADVERBS:  # "Do we really need a DPO?"
        rest = rest[1:]
    if rest[:1] in (("need",), ("needs",)) and rest[1:2] != ("to",):  # "Do we need a permit?": needing is the act
        return "need"
    act = next((t for t in rest if t not in _BEFORE_ACT and t not in _ALL_PARTIES), "")
    stem = words(act)
    return stem[0] if stem else ""


# "must in any case designate", "shall, without undue delay, communicate": the verb after a modal and its aside
_DUTY_OF_RE = re.compile(rf"\b(?:shall|must){_ASIDE}\s+(?:(?:in any case|also|[a-z]+ly)\s+)?(?P<verb>[a-z]+)", re.I)


@dataclass(frozen=True)
class DutyAsked:
    """The act a question asks whether one must do, stemmed, in its words and the law's ("Do we have to appoint a
    DPO?": appoint, designate), and whether it is done to a person ("Does the surgery have to tell her?")."""

    verbs: frozenset[str]
    to_person: bool = False
    thing: tuple[frozenset[str], ...] = ()  # asked whether a thing is needed ("Do we need a DPO?"): its forms

    def imposed_by(self, text: str) -> bool:
        """The statement puts a duty to do that act ("shall designate a data protection officer in any case where"),
        to the person when one is told (not "notify it to the supervisory authority"), or a duty whose object is the
        thing needed: the rule answering whether one must, before what one may do ("may appoint")."""
        for match in _DUTY_OF_RE.finditer(text):
            verb = words(match.group("verb"))
            if self.thing and _object_is(self.thing, text[match.end() :]):
                return True
            if verb and verb[0] in self.verbs and not (self.to_person and _TO_AUTHORITY_RE.match(text[match.end() :])):
                return True
        return False


_STILL_BOUND_RE = re.compile(
    r"\bstill (?:have|has|need|needs|got) to\b|\b(?:must|should) (?:we|i|they|he|she|it) still\b", re.I
)


def duty_asked(question: str) -> DutyAsked | None:
    """The duty a question asks about; None when it asks no necessity or names no act, or asks whether the case it
    describes lifts the duty ("It was recovered unopened. Do we still have to tell the patients?": the exception
    answers)."""
    asking = question_sentence(question)
    if not _ASKS_NECESSITY_RE.search(asking) or _STILL_BOUND_RE.search(asking):
        return None
    act = act_asked(question)
    if act == "need" and (thing := _thing_forms(question)):
        return DutyAsked(frozenset(), thing=thing)
    if not act or act == "need":
        return None
    in_law = {w for phrase, terms in bridges(question) if act in words(phrase) for w in words(terms)}
    return DutyAsked(frozenset({act, *in_law, *_LAW_VERBS.get(act, ())}), _tells_the_asker(question))


def _tells_the_asker(question: str) -> bool:
    """The act asked about is done to a person ("Should the clinic notify me?", "Must we tell the patients?")."""
    tokens, at = _party_at(question)
    if at is None:
        return False
    rest = [t for t in tokens[at + 1 :] if t not in _BEFORE_ACT and t not in _ARTICLES]
    if len(rest) > 1 and rest[0] not in _ALL_PARTIES and rest[1] in _PARTY_KINDS[0]:
        return True
    # "Does the surgery have to tell her?": a pronoun ending the question is the person told, not a possessive
    acted = [t for t in tokens[at + 1 :] if t not in _BEFORE_ACT]
    return len(acted) == 2 and acted[0] not in _ALL_PARTIES and acted[1] in ("her", "him", "them")


_ARTICLES = frozenset("the a an my our their his her its".split())
# a statement's opening condition, up to its first comma: "Where personal data are processed for research, ..."
_LEADING_CONDITION_RE = re.compile(r"^\W*(?:where|if|when|once|after|in the case of)\b[^,;:]*,", re.I)
# a question whether something costs the asker, and a statement that it is free ("charge us more" takes a charge
# as given: it asks whether it rises)
ASKS_COST_RE = re.compile(
    r"\b(have|has|need|needs|got) to pay\b|\b(is|are) there (a |any )?(fee|charge|cost)s?\b"
    r"|\b(does|will) (it|that|this) cost\b"
    r"|\bcharge (me|us|them|him|her|patients?|people|a fee|anything|for)\b(?! (more|extra|again|twice|higher)\b)"
    r"|\bcost (me|us|them|him|her) anything\b",
    re.I,
)
FREE_OF_CHARGE_RE = re.compile(r"(?<!not )\bfree of charge\b", re.I)
# "notify it to the supervisory authority", "notify the controller": an act done to an authority or an
# organisation, not to the person a question asks about
_TO_AUTHORITY_RE = re.compile(
    r"^(\s+it)?(\s+to)?\s+(the|a|an|its|that)\s+([\w-]+\s+){0,3}?"
    r"(authorit(y|ies)|commission|board|bod(y|ies)|regulator|controllers?|processors?)\b"
    r"|^[^,;:.]{0,40}?\bto (the|a|an|its|that) ([\w-]+ ){0,3}(authorit(y|ies)|commission|board|bod(y|ies)|regulator)\b"
    # "shall communicate any rectification ... to each recipient to whom the personal data have been disclosed"
    r"|^[^;:.]{0,160}?\bto (each|every|any|the) recipients?\b",
    re.I,
)


_TO_THE_ASKER_RE = re.compile(r"\b(tell|inform|notify|warn|update|contact|explain to) (us|me)\b", re.I)
_EACH_OTHER_RE = re.compile(r"^\s+(each other|one another)\b", re.I)

# a question between alternatives ("... or is it ...?", "... or does it ...?"), which yes or no does not answer
_ALTERNATIVE_RE = re.compile(r"\bor (is|are|was|does|do|did|can|could|should|must|will|would|has|have)\b", re.I)
# "Someone says the GDPR doesn't apply. Is that right?": a yes would confirm the claim, not what a clause allows
_CONFIRMS_A_CLAIM_RE = re.compile(
    r"^\W*(?:so |and |but )?(?:is|isn'?t|was) (?:that|this|it|he|she|they|(?:the|my|our) \w+) (?:really )?(?:right"
    r"|true|correct|so|accurate)\b|^\W*(?:are|is) (?:they|he|she|we|you) right\b",
    re.I,
)


_APPLYING = frozenset(words("apply applies"))  # "Does the GDPR apply to dead people?": a case of its scope
_INSTRUMENT_WORDS = frozenset(
    words("gdpr ehds regulation law rules uk eu european general data protection health space")
)


def _alike(asked: set[str], said: set[str]) -> bool:
    """A word of each shares its first five letters, or all of the shorter one ("anonymise" / "anonymous")."""
    return any(a[:5] == b[:5] and len(min(a, b, key=len)) >= 4 for a in asked for b in said)


def _says_what_is_asked(question: str, text: str, act: str) -> bool:
    """The statement names something the question asks about besides the act, the law and who does it, in the
    question's words, the law's verbs for them or the legal terms of its plain phrases: "This Regulation does not
    apply to processing carried out: (a) ... (d) ..." lists cases, none of them "dead people", so it is no "No"."""
    said = set(words(text))
    asked = content_terms(question) - {act} - _INSTRUMENT_WORDS - _ALL_PARTIES - _BEFORE_ACT
    if not asked or _alike(asked, said) or {w for a in asked for w in _LAW_VERBS.get(a, ())} & said:
        return True
    return any(set(words(phrase)) & asked and set(words(terms)) & said for phrase, terms in bridges(question))


# "Does that count as 'large scale' processing, so that I need a DPIA?": whether the case is of a kind; and a
# statement that says what is of that kind (not one that only sets a rule for the kind)
_ASKS_CLASSIFICATION_RE = re.compile(
    r"\b(?:counts?|counted) as\b|\bqualif(?:y|ies) as\b|\bamounts? to\b"
    r"|\b(?:be|is|are) (?:considered|classed|classified|regarded|treated) as\b",
    re.I,
)
_CLASSIFIES_RE = re.compile(
    r"\b(?:considered|classed|classified|regarded|deemed|counts? as|amounts? to|constitutes?|means)\b", re.I
)


_COORDINATED_RE = re.compile(r"^((?:,\s*[a-z]+)*),?\s+(?:or|and)\s+([a-z]+)\b", re.I)


def _coordinated(rest: str) -> list[str]:
    """The verbs joined to a governed verb, stemmed: ", acquire or process" after "obliged to maintain"."""
    found = _COORDINATED_RE.match(rest)
    return words(f"{found.group(1)} {found.group(2)}") if found else []


def _governed_verb(match: re.Match[str]) -> list[str]:
    """The verb a modal or a right governs, stemmed: "the right to have the data transmitted" is what a person can
    insist on ("Can she insist on that?"), not any right to obtain something."""
    verb = words(match.group(4))
    if not verb and match.re is _RIGHT_TO_RE and match.group(4).lower() == "have":
        return words("insist")
    return verb


def yes_no_opener(question: str, text: str) -> str:
    """'Yes: ' or 'No: ' when the statement says whether the very act the question asks about may or must
    happen, for the party it asks about ("Does the GDPR apply ...?" / "This Regulation does not apply ...",
    "Can I withdraw ...?" / "The data subject shall have the right to withdraw ..."); '' otherwise, and when
    the statement allows only part of the act ("can download ... only non-personal data")."""
    if _ALTERNATIVE_RE.search(question_sentence(question)):  # "Is that only X or is it more serious?": neither
        return ""
    if _CONFIRMS_A_CLAIM_RE.search(question_sentence(question)):
        return ""
    if _ASKS_CLASSIFICATION_RE.search(question_sentence(question)) and not _CLASSIFIES_RE.search(text):
        return ""  # a rule for the kind (a DPIA for large-scale processing) says not whether the case is of it
    if ASKS_COST_RE.search(question) and FREE_OF_CHARGE_RE.search(text):  # "Will I have to pay ...?" / "... free
        return "" if _CONDITION_RE.search(text) else "No: "  # of charge": no, unless it says when a fee applies
    asked, act = words(question), act_asked(question)
    # the law's verb for the plain act ("change their mind": "withdraw consent"), said where the act is; a
    # wording's verb for paying ("Does the rider pay for ...?": "The Company will reimburse ...")
    # ("Our supplier wants to hand work to another company. Are they allowed to?": the act is the plain phrase's)
    # with no act named, a plain phrase of the scene says it only when the asking sentence points back at the scene
    # ("... to adjust premiums. Is that allowed?"), not otherwise ("he'll be able to see who has opened his record.
    # Is there any way my details could be kept out?")
    asking = question_sentence(question).lower()
    scene_act = bool(_POINTS_BACK_RE.search(asking))
    in_law = {
        w
        for phrase, terms in bridges(question)
        if (act in words(phrase) if act else scene_act or phrase.lower() in asking)
        for w in words(terms)
    }
    in_law |= _PAYING if act in _PAYING else set()
    in_law |= _LAW_VERBS.get(act, frozenset())
    listed = bool(_POINT_AFTER_LEAD_IN_RE.search(text))  # the cases it rules on are listed: one must be the asked
    # the case is the point's own words, not its lead-in's (every point of "applies where ... related to:" shares it)
    case = _POINT_AFTER_LEAD_IN_RE.split(text)[-1] if listed else text
    original, text = text, _POINT_AFTER_LEAD_IN_RE.sub(": ", text)
    to_person = _tells_the_asker(question)
    condition = _LEADING_CONDITION_RE.match(text)
    main_from = condition.end() if condition else 0  # "Where personal data are processed ..., the data subject has"
    acts = []  # (where the question says the act, the statement's modal and act)
    needed = _thing_needed(question) if act == "need" else frozenset()
    thing_duty = False  # a duty naming the thing needed rules on it whatever cases its points list
    for match in [*_MODAL_VERB_RE.finditer(text), *_RIGHT_TO_RE.finditer(text), *_APPLIES_RE.finditer(text)]:
        # "shall not be obliged to maintain, acquire or process": each verb of the series is governed
        series = [*_governed_verb(match), *_coordinated(text[match.end() :])]
        verb = [v for v in series if v == act or v in in_law][:1] or series[:1]
        # "Do we need a DPO?": a duty whose object is the thing needed ("must in any case designate a data
        # protection officer where") rules on needing it
        duty_on_thing = act == "need" and _duty_on_the_thing(needed, match, text)
        verb = [act] if duty_on_thing else verb
        if (
            verb
            and match.start() >= main_from  # the condition's verb is not the act the statement rules on
            and not _IN_A_SUBORDINATE_RE.search(text[: match.start()])  # "... until a professional is able to ..."
            and (match.group(4).lower() not in _NOT_VERBS or duty_on_thing)  # "must in any case designate"
            and (verb[0] in asked or verb[0] in in_law)
            # the act asked about, not another word of it; with no act in the asking sentence ("Is that real
            # consent?"), only the law's verb of one of its plain phrases, never any verb of its preamble
            and (verb[0] == act or verb[0] in in_law if act else verb[0] in in_law)
            and (_same_party(question, text, match) or _needed_thing(act, match))
            and not (to_person and _TO_AUTHORITY_RE.match(text[match.end() :]))
            # "shall inform each other" is done among its subjects, not to the asker ("Do they have to tell us?")
            and not (_TO_THE_ASKER_RE.search(question) and _EACH_OTHER_RE.match(text[match.end() :]))
            # "shall not be obliged to acquire" answers whether one must, not whether one may
            and not (_OBLIGED_RE.search(match.group(0)) and not _ASKS_NECESSITY_RE.search(question_sentence(question)))
            # and "may designate" answers whether one may, not whether one must ("Do we have to appoint a DPO?")
            and not (match.group(1).lower() in _PERMITTING and not match.group(2) and _ASKS_NECESSITY_RE.search(asking))
        ):
            said = verb[0] if verb[0] in asked else act
            acts.append((asked.index(said) if said in asked else len(asked), match))
            thing_duty = thing_duty or duty_on_thing
        elif verb and verb[0] in _PROHIBITING and act and {act, *in_law} & set(words(text[: match.start()])):
            # "seeking access to and processing electronic health data ... is prohibited for the following uses":
            # the act asked about ("get hold of") is the subject the prohibition denies, whoever does it
            acts.append((asked.index(act) if act in asked else len(asked), match))
    # asked whether a thing is needed, a statement naming nothing of it rules on something else ("Do we need a DPO?" /
    # "... do not require a DPIA")
    if act == "need" and needed and len(needed & set(words(original))) < min(2, len(needed)):
        return ""
    # a statement listing the cases it rules on, or on where a law applies, must name the case asked about
    if not acts or ((listed or act in _APPLYING) and not thing_duty and not _says_what_is_asked(question, case, act)):
        return ""
    # the question's main act comes first: "Can my insurer refuse to renew ...?" asks about refusing, which
    # "shall not refuse renewal" answers and "is renewable" does not
    match = min(acts, key=lambda act: act[0])[1]
    governed = next(iter(_governed_verb(match)), "")  # "must in any case designate": no verb right after it
    if _ONLY_RE.match(text[match.end() :]):
        return ""
    negative = (
        bool(match.group(2))
        # "is prohibited for the following uses" denies another act; asked whether it is prohibited, it affirms
        or (governed in _PROHIBITING and governed != act)
        or bool(_NEGATIVE_RE.search(match.group(0)))
        or bool(_NEGATING_SUBJECT_RE.match(_subject(text[: match.start()])))
    )
    if _CONDITION_RE.search(text) or _CASES_LISTED_RE.search(original):
        return ONLY_SOME if negative else "Yes, subject to conditions: "
    return "No: " if negative else "Yes: "


# "How long do I have to claim?", "By when must I notify?": the asker's own duty
_OWN_DUTY_RE = re.compile(
    r"\b(?:do|does|must|shall|should) (i|we) (?:still )?(?:have to|need to|got to)?\b|\b(i|we) (?:have|need|must)\b",
    re.I,
)
_DUTY_RE = re.compile(r"\b(shall|must|is required to|are required to|has to|have to)\b(?!\s+not\b)", re.I)


# a modal and the verb of the act it governs: "may cancel", "may at any time cancel"
_MODAL_ACT_RE = re.compile(
    r"\b(?:shall|must|may|can|will)\b(?:\s+(?:not|also|only|at any time))?\s+(?P<act>[a-z]+)", re.I
)
_ASKER_ACTS_RE = re.compile(
    r"\b(?:i|we)\s+(?:\w+\s+){0,2}?(?P<act>[a-z]+)\b"
    # "What are the deadlines for submitting the claim documents?": the act of whoever must meet the deadline
    r"|\b(?:deadlines?|time ?limits?|cut-?offs?)\s+(?:for|to|of)\s+(?P<due>[a-z]+)",
    re.I,
)


def the_asker_acts(question: str, text: str) -> bool:
    """Asked what the asker does ("If I cancel my rider, how much notice do I give?"), the statement whose subject
    is the asker's kind of party doing that act ("The Policyholder may cancel ... by giving 7 days' written notice")
    answers before the insurer doing it ("The Company may cancel this Rider only on grounds of fraud")."""
    acts = {(m.group("act") or m.group("due")).lower()[:5] for m in _ASKER_ACTS_RE.finditer(question)}
    for match in _MODAL_ACT_RE.finditer(text):
        subject = _party_words(_subject(text[: match.start()]))
        own_kind = subject & _PARTY_KINDS[0] and not subject & _PARTY_KINDS[1]
        if own_kind and match.group("act").lower()[:5] in acts:
            return True
    return False


def puts_the_duty_on_the_asker(question: str, text: str) -> bool:
    """The question asks about the asker's own duty ("How long do I have to claim?") and the statement puts a duty
    on the same kind of party ("the Insured Person shall submit ...", not "The Company will indemnify ...")."""
    if not _OWN_DUTY_RE.search(question_sentence(question)):
        return False
    party = _asked_party(question)
    for match in _DUTY_RE.finditer(text):
        subject = _party_words(_subject(text[: match.start()]))
        if any(subject & kind and party in kind for kind in _PARTY_KINDS[:2]):
            return True
    return False
