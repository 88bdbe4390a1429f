"""Issue 15's retrieval features, each on and off: authority order, chunk context in what is matched,
citation following and patient scope (real models, real Qdrant Edge, small indexes or the shipped one)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from langgraph.runtime import Runtime

from core.schemas import RunContext
from core.settings import Settings
from core.types import Evidence
from ingest.sidecar import sha256_bytes
from language.expansion import expansion_terms
from language.question import enactments_named, mentions, names_a_regime, salient_names, sets_the_scene
from language.titles import names, passage_title, title_of
from language.words import words
from nodes.grade import grade
from nodes.retrieve import retrieve
from retrieval.grading import (
    FOREIGN_REGIME_CAP,
    UNKNOWN_REFERENCE_CAP,
    ChunkGrade,
    apply_grades,
    grade_all,
    is_context_name,
)
from retrieval.resources import Resources
from retrieval.search import RetrievalOptions
from retrieval.sparse import document_terms, encode_document, encode_query, token_index
from tests.conftest import CORPUS, ingest_into, make_settings, run_graph, seed_vector_cache

GOVERNANCE = CORPUS / "health_governance"
BREACH_LOG = (
    "Commentary - Keeping a breach log\n\n"
    "Our data protection officer keeps an internal register of every security incident, with the facts, its "
    "effects and the remedial action taken. Where the incident must be reported to the regulator, GDPR Art. 33(1) "
    "sets the deadline."
)


def corpus(target: Path, stems: list[str], commentary: str | None = None) -> Path:
    """A folder with some shipped provisions (text and sidecar) and, optionally, one commentary note."""
    target.mkdir(parents=True)
    for stem in stems:
        for suffix in (".txt", ".json"):
            shutil.copy(GOVERNANCE / f"{stem}{suffix}", target)
    if commentary is not None:
        path = target / "note_breach_log.txt"
        path.write_text(commentary, encoding="utf-8")
        meta = {
            "title": "Commentary: keeping a breach log",
            "publisher": "Example DPO network",
            "jurisdiction": "EU",
            "document_type": "commentary",
            "version": "1",
            "effective_from": "2024-01-01",
            "source_url": "https://example.org/breach-log",
            "citation": "Commentary: breach log",
            "content_hash": sha256_bytes(path.read_bytes()),
            "hierarchy_rank": 4,
        }
        path.with_suffix(".json").write_text(json.dumps(meta), encoding="utf-8")
    return target


def indexed(source: Path, settings: Settings, embedder) -> Resources:
    seed_vector_cache(settings)
    resources = Resources(settings, embedder=embedder)
    report = ingest_into(resources, [source])
    assert not report.failed, report.failed
    return resources


def first_rank(evidence: list[Evidence], prefix: str) -> int | None:
    return next((i for i, e in enumerate(evidence, 1) if e.citation.startswith(prefix)), None)


# --- authority order -------------------------------------------------------------------------------------------


BREACH = "How many hours do we have to report a personal data breach to the supervisory authority?"


def test_a_binding_provision_goes_before_commentary_that_supports_the_same_point(shipped):
    found = shipped.retriever.retrieve(BREACH, None, 20)
    article = next(e for e in found if e.citation == "GDPR Art. 33(1)")
    commentary = next(e for e in found if e.authority == "commentary" and "72 hours" in e.text)
    pair = [commentary, article]  # as if retrieval had put the commentary first
    graded = grade_all(BREACH, pair)
    assert all(g.confidence > 0.5 for g in graded)  # both support the point
    assert [e.authority for e in apply_grades(pair, graded)] == ["binding", "commentary"]

    def grades(commentary_confidence: float, article_confidence: float) -> list[ChunkGrade]:
        return [
            ChunkGrade(e.chunk_id, e.citation, confidence, {})
            for e, confidence in zip(pair, (commentary_confidence, article_confidence), strict=True)
        ]

    # equally supported: the provision leads; without the authority order, retrieval's order decides
    assert [e.authority for e in apply_grades(pair, grades(0.8, 0.8))] == ["binding", "commentary"]
    assert [e.authority for e in apply_grades(pair, grades(0.8, 0.8), authority_order=False)] == [
        "commentary",
        "binding",
    ]
    # a commentary that supports the question clearly better still leads
    assert apply_grades(pair, grades(0.9, 0.5))[0].authority == "commentary"


def test_plain_words_are_covered_by_the_provision_that_uses_their_legal_terms(shipped):
    question = "Can I ask my hospital to correct a wrong allergy in my records?"
    found = shipped.retriever.retrieve(question, {"collection": "health_governance"}, 40)
    article = next(e for e in found if e.citation == "GDPR Art. 16")  # "rectification of inaccurate ..."
    assert "correct " not in article.text.lower() and "wrong" not in article.text.lower()
    # "correct" and "wrong" count as covered by "rectification ... inaccurate personal data"
    assert grade_all(question, [article])[0].features["coverage"] >= 0.4
    # a question without those plain words gets no such credit from the same article
    assert grade_all("Can I ask my hospital about an allergy in my records?", [article])[0].features["coverage"] < 0.4


def test_coverage_counts_the_question_s_words_said_together_not_scattered_over_a_long_text():
    """A long commentary names most words of any question somewhere; a provision says them in one place. The
    question's words spread over sentences far apart cover less than the same words in adjacent sentences, and a
    list's lead-in counts with each of its points."""
    question = "Do we need to keep a record of a breach we did not report to the regulator?"
    kept, reported = "We keep a record of each breach.", "We report some of them to the regulator."
    filler = "Staff training is refreshed every year. Audits are scheduled by the board. Rotas are set weekly."

    def coverage(text: str) -> float:
        chunk = Evidence(chunk_id="c", text=text, citation="Commentary: note", document="Commentary")
        return grade_all(question, [chunk])[0].features["coverage"]

    assert coverage(f"{filler} {kept} {reported}") > coverage(f"{filler} {kept} {filler} {reported}")
    # a list's lead-in is read with each of its points, however far down the point is
    points = " ".join(f"({c}) the item {c};" for c in "abcdef")
    assert coverage(f"We keep a record of: {points} (g) each breach we report to the regulator.") == coverage(
        f"We keep a record of: (g) each breach we report to the regulator; {points}"
    )


def test_a_name_inside_a_bridged_phrase_is_not_missing_from_the_provision_in_legal_terms(shipped):
    question = "My GP surgery lost a USB stick with patient letters on it. Do we have to tell the patients?"
    found = shipped.retriever.retrieve(question, {"collection": "health_governance"}, 40)
    article = next(e for e in found if e.citation.startswith("GDPR Art. 34"))  # "personal data breach"
    assert "usb" not in article.text.lower()
    assert grade_all(question, [article])[0].missing_names == []  # USB is inside "lost a USB stick"
    other = "Does the GDPR apply to USB sticks sold in shops?"  # USB named outside any bridged phrase
    assert grade_all(other, [article])[0].missing_names == ["USB"]


def test_a_name_the_jargon_table_knows_is_domain_vocabulary_and_not_a_name_a_chunk_must_mention(shipped):
    question = "A ransomware attack locked everyone out of the EPR. By when must we tell the ICO?"
    found = shipped.retriever.retrieve(question, {"collection": "health_governance"}, 40)
    article = next(e for e in found if e.citation == "GDPR Art. 33(1)")  # the 72 hours, never naming an EPR
    assert "epr" not in article.text.lower()
    assert grade_all(question, [article])[0].missing_names == []
    unknown = "A ransomware attack locked everyone out of the EPR. Does HIPAA apply?"  # a name no row bridges
    assert grade_all(unknown, [article])[0].missing_names == ["HIPAA"]


def test_a_country_data_are_sent_to_is_a_third_country_and_not_another_regime(shipped):
    question = "Can we send patient data to a hospital in the United States?"
    found = shipped.retriever.retrieve(question, {"collection": "health_governance"}, 40)
    article = next(e for e in found if e.citation.startswith("GDPR Art. 46"))  # "transfer ... third country"
    assert "united states" not in article.text.lower()
    transfer = grade_all(question, [article])[0]
    assert transfer.missing_names == [] and transfer.confidence > FOREIGN_REGIME_CAP
    regime = grade_all("What are the health privacy rules in the United States?", [article])[0]
    assert regime.confidence <= FOREIGN_REGIME_CAP and "United States" in regime.missing_names


def test_where_the_asker_is_sets_the_scene_when_the_question_names_the_law_it_asks_about(shipped):
    question = "I run a US telehealth service with patients in Germany. Does the GDPR apply to us?"
    found = shipped.retriever.retrieve(question, {"collection": "health_governance"}, 40)
    article = next(e for e in found if e.citation == "GDPR Art. 3(2)")  # "not established in the Union"
    scope = grade_all(question, [article])[0]
    assert scope.missing_names == [] and scope.confidence > FOREIGN_REGIME_CAP
    # without a law of the corpus named, the same place is the regime asked about
    regime = grade_all("What do US rules say about telehealth consultations?", [article])[0]
    assert regime.confidence <= FOREIGN_REGIME_CAP and "US" in regime.missing_names


def test_member_states_named_together_only_say_where_and_are_no_name_a_chunk_must_mention():
    provision = chunk(
        "A health data applicant seeking access to data held in more than one Member State shall submit a single "
        "health data access application.",
        "EHDS Art. 67(3)",
    )
    asked = "Our study needs hospital data from France, Germany and Italy. Do we apply to three separate bodies?"
    assert grade_all(asked, [provision])[0].missing_names == []
    assert is_context_name("Germany and Italy") and not is_context_name("Freedom of Information")


def test_a_name_is_matched_as_a_word_and_not_inside_another_word():
    text = "the status of the data subject and the use of EPRs"
    assert not mentions("US", text.lower(), set(words(text)))  # not in "status" nor in "use"
    assert mentions("EPR", text.lower(), set(words(text)))  # its plural is the name


def test_a_one_word_name_setting_the_scene_weighs_less_than_a_regime_or_an_act_the_corpus_lacks(shipped):
    question = "Is the result of a lab DNA test 'genetic data' under the GDPR?"
    found = shipped.retriever.retrieve(question, {"collection": "health_governance"}, 40)
    article = next(e for e in found if e.citation == "GDPR Art. 4(13)")  # the definition, never saying "DNA"
    assert "dna" not in article.text.lower()
    scene = grade_all(question, [article])[0]
    asked = grade_all("Which DNA codes does the GDPR list?", [article])[0]  # what is asked for
    assert scene.confidence > asked.confidence and scene.confidence > 0.5
    # an Act no chunk mentions is outside the corpus, as a foreign regime is
    act = grade_all("Under the Access to Health Records Act 1990, is genetic data special?", [article])[0]
    assert act.confidence <= FOREIGN_REGIME_CAP and "Access to Health Records Act" in act.missing_names


def test_names_of_regimes_and_enactments_are_told_from_names_in_the_scene():
    assert names_a_regime("What does NICE guidance say about it?", "NICE")
    assert names_a_regime("Does HIPAA apply to us?", "HIPAA") and names_a_regime("Under PIPL, can we?", "PIPL")
    assert not names_a_regime("Our clinic is registered in Dublin.", "Dublin")
    assert sets_the_scene("Our clinic is registered in Dublin.", "Dublin")
    assert not sets_the_scene("What does Mrs Okafor take?", "Okafor")  # a person
    assert not sets_the_scene("Under PIPL, can we?", "PIPL") and not sets_the_scene(
        "Is it Freedom of Information?", "Freedom of Information"
    )
    assert enactments_named("What does the Data (Use and Access) Act 2025 introduce?") == ["Data (Use and Access) Act"]
    assert enactments_named("Is it allowed under the EU AI Act?") == ["EU AI Act"]
    assert enactments_named("Does the act of sharing count as processing?") == []
    assert enactments_named("What does the General Data Protection Regulation say?") == []  # an indexed law


def test_a_hyphenated_word_matches_its_closed_form_as_users_write_it():
    assert set(words("outpatient")) <= set(words("Out-patient consultations"))
    assert set(words("preexisting")) <= set(words("a pre-existing disease"))
    assert words("a 24-hour stay") == ["24", "hour", "stay"]  # a number and its unit are not one word
    question = "Does the policy pay for outpatient physiotherapy?"
    clause = "Out-patient consultations and diagnostics not followed by a Day Care Treatment are not covered."
    outpatient = token_index(words("outpatient")[0])
    assert outpatient in encode_query(question).indices
    assert outpatient in encode_document(document_terms(clause), 10.0).indices


def test_ok_is_a_word_and_not_a_name_a_chunk_must_mention():
    assert salient_names("Do they need our OK first?") == []
    assert salient_names("Does HIPAA apply?") == ["HIPAA"]


@pytest.mark.parametrize(
    ("question", "legal", "not_legal"),
    [
        ("Can I ask them to freeze my data while I dispute that it is accurate?", "restriction", "erasure"),
        ("What uses of health data are banned under the EHDS?", "prohibited", "breach"),
        ("Does the right to be forgotten apply to medical records?", "erasure", "breach"),
        ("Do patients have to pay to see their own records?", "free of charge", "breach"),
        ("Is there any cover for ayurvedic treatment?", "AYUSH", "breach"),
        ("HDAB fees", "health data access body", "breach"),
        ("My hospital lost my scan results. Do they have to tell me?", "personal data breach", "erasure"),
        ("Can I put my own notes into my electronic health record?", "insert information", "breach"),
        ("Who do I contact at the hospital about my data?", "data protection officer", "breach"),
        ("What can't secondary health data be used for?", "prohibited", "breach"),
        ("Our app provider wants to hire another firm to host the data.", "engage another processor", "breach"),
        ("Can an insurer's software reject my claim without any person checking?", "automated", "breach"),
        ("Can we send patient data to a hospital in the United States?", "third country", "breach"),
        ("Can I ask my hospital to correct a wrong allergy in my records?", "rectification", "personal data breach"),
        ("Our GP surgery lost a laptop with patient records. Who do they tell?", "personal data breach", "erasure"),
        ("We emailed a patient's results to the wrong person. Must we tell them?", "personal data breach", "rectif"),
        ("By when do we have to answer?", "without undue delay", "rectification"),
        ("They sent my letter to my old address and someone else opened it.", "personal data breach", "erasure"),
        ("I want the hospital to stop sending me marketing letters.", "direct marketing", "breach"),
        ("Can I stop my health data being used for research?", "opt out", "restriction"),
        ("What happens if I pay my renewal premium late?", "grace period", "erasure"),
        ("How long is a data permit valid for?", "duration", "without undue delay"),
        ("Do we need to appoint a data protection officer?", "designate", "breach"),
        ("Will the rider make my dad pay part of every claim?", "co-payment", "breach"),
        ("Does the rider cover the costs of tests before I'm admitted?", "pre-hospitalisation", "breach"),
        ("Will the group rider pay if I get injured while drunk?", "alcoholism", "erasure"),
        ("Can we keep old customer files forever just in case?", "storage limitation", "child"),
        ("Our banner has the box already ticked. Is that valid consent?", "clear affirmative act", "breach"),
        ("A customer sends the same request every single week. Can we refuse?", "manifestly unfounded", "breach"),
        ("Is a nose job just for looks covered?", "cosmetic or plastic surgery", "breach"),
        ("I was admitted just for tests and no treatment. Can I claim?", "diagnostics and evaluation", "breach"),
        ("I forgot to mention my thyroid problem on the proposal form.", "non-disclosure", "breach"),
        ("When does my group cover stop if I resign?", "leaves the group", "breach"),
        ("I was admitted two weeks after buying the rider. Will they pay?", "first 30 days", "breach"),
        ("A claimant was injured while committing a robbery. Do we pay?", "breach of law", "erasure"),
        ("Can several ward staff share one login to the lab system?", "attributed to individuals", "breach"),
        ("We plan a new data feed to the local council.", "transfer of confidential information", "breach"),
        ("Can we bury the consent inside our general terms and conditions?", "clearly distinguishable", "breach"),
        ("Do we need to keep a record of minor breaches we did not report?", "document any personal data", "erasure"),
        ("Can we send what we have and fill in the rest later?", "in phases", "erasure"),
        ("Can a 14-year-old sign up to a health app on their own?", "child", "breach"),
        ("Will a 70-year-old pay a co-payment on every claim?", "co-payment", "child"),
        ("We emailed test results to the wrong GP practice. Must we tell the patients?", "personal data breach", "x"),
        ("My hospital sent my scan to someone else by mistake. Do they have to tell me?", "data breach", "rectif"),
        ("My hospital sent my scan to someone else by mistake. Must they tell me?", "communication to the data", "x"),
        ("Who can I complain to if my hospital ignores my access request?", "supervisory authority", "breach"),
        ("Are secure processing environments checked by anyone outside?", "audited by third parties", "breach"),
        ("Will I have to pay to authorise a proxy for my records?", "free of charge", "breach"),
        ("Do I have to pay a co-payment on every claim?", "co-payment", "free of charge"),
        ("A patient posted about their cancer publicly on social media.", "manifestly made public", "breach"),
        ("We're defending a clinical negligence claim. Can we use the records?", "legal claims", "breach"),
        ("Can a patient support charity keep its members' health details?", "not-for-profit body", "breach"),
        ("HR wants to process staff sickness records.", "field of employment", "breach"),
        (
            "Our study needs data from France, Germany and Italy. Do we apply to three separate HDABs?",
            "single",
            "breach",
        ),
        ("The notes are one-sided. Can I get my own account added to the file?", "supplementary statement", "breach"),
        ("Does the processing agreement have to be signed on paper, or is e-signed fine?", "electronic form", "breach"),
        ("After the ransomware attack, how fast must we get the systems back?", "restore the availability", "erasure"),
        ("Do we need six separate DPIAs for the same kit?", "single assessment", "breach"),
        ("We reported it at once. Will that count in our favour when they decide on a fine?", "amount", "breach"),
        (
            "Could my biopsy result be held back until my consultant has explained it?",
            "delaying their access",
            "breach",
        ),
        ("Would CareShield pay for bariatric surgery?", "obesity", "breach"),
        ("A clinic keeps emailing me offers for its treatments.", "direct marketing", "breach"),
        ("The health data access body said my application was incomplete.", "", "supplementary"),
        ("We took over records from another trust. When must we send privacy information?", "not been", "breach"),
        ("How long have we got to reply?", "time limit", "breach"),
        ("Could national law make us get the regulator's sign-off before we start?", "prior authorisation", "breach"),
        ("Could national law limit people's rights over our historical archive?", "archiving purposes", "breach"),
        ("I've opted out. Could a public health agency still get my data anyway?", "exception to the right", "breach"),
        ("How many days in advance must I tell the insurer about a planned admission?", "notify the TPA", "breach"),
        ("How long after discharge can I claim for follow-up physiotherapy?", "post-hospitalisation", "breach"),
        ("How do I complain about a rejected claim?", "grievance", "supervisory authority"),
        ("I asked for my notes two months ago and heard nothing.", "within one month", "judicial remedy"),
        ("I complained to the regulator and heard nothing for months.", "judicial remedy", "rectification"),
        ("My daughter is 15 and wants to use a mental health app.", "information society services", "breach"),
        ("Can I block certain doctors from seeing my mental health notes?", "restrict access", "breach"),
        ("Will the doctor see that part of my record has been hidden?", "restrict access", "erasure"),
        ("Our DPIA shows a high risk we can't reduce. Can we go ahead?", "prior consultation", "breach"),
        ("Will they pay for a knee operation I had planned before joining?", "pre-existing disease", "breach"),
        ("The hospital won't give me my records unless I pay. Is that allowed?", "free of charge", "breach"),
        ("My operation is booked for May. When do I have to let the insurer know?", "notify the TPA", "breach"),
        ("My operation is booked for May. When do I have to let the insurer know?", "planned", "emergency"),
        ("He asks for a copy of his file every fortnight. Must we reply?", "repetitive character", "breach"),
        ("The app's system turned down my claim and no person ever looked at it.", "automated individual", "breach"),
        ("I track my elderly parents' tablets on my home laptop. Does the GDPR apply?", "household activity", "breach"),
        ("What happens if I lie about my smoking on the proposal form?", "misrepresentation", "breach"),
        ("The surgery still has my old address. Can I get it fixed?", "rectification", "breach"),
        ("Our supplier wants to hand some of the work to another company.", "engage another processor", "breach"),
        ("Can they show me what information they hold about me?", "right of access", "breach"),
        ("What lawful reasons are there for processing data?", "lawfulness of processing", "breach"),
        ("How much notice do I have to give before a planned operation?", "notify", "breach"),
        ("What goes in a privacy notice?", "", "notify"),
        ("Do we need special permission to send data to an adequate country?", "", "special categories"),
        ("Is genetic data special?", "special categories", "breach"),
        ("Has she got COPD?", "chronic obstructive", "breach"),
        ("Can my insurer see my EHDS record to price my policy?", "insurance premiums", "breach"),
        ("Does my insurer pay for a knee operation?", "", "insurance premiums"),  # no EHDS: a wording's question
        ("Does he have high blood pressure?", "hypertension", "breach"),
        ("Do we have to be able to prove that a patient consented?", "demonstrate that the data subject", "breach"),
        ("Can EU countries add their own extra rules for health data?", "further conditions", "breach"),
        ("After we delete the data, must we tell the companies we shared it with?", "recipients", "breach"),
        ("Does each EU country have to set up a health data access body?", "designate", "breach"),
        ("I moved house last year. Can I make my GP update my address?", "rectification", "breach"),
        ("My record says I'm allergic to penicillin but I'm not. Can I get it corrected?", "rectification", "breach"),
        ("Our supplier discovered a breach on their side.", "becoming aware", "rectification"),
        ("How much notice do I have to give?", "", "becoming aware"),  # notice given is not a thing noticed
        ("The app won't let me use it unless I agree to share my data.", "conditional on consent", "breach"),
        ("Is ticking a box real consent?", "freely", "breach"),
        ("Can patients insist a human looks at the algorithm's decision?", "human intervention", "breach"),
        ("The bits about my ex-partner have been blacked out of my copy.", "rights and freedoms of others", "breach"),
        ("Our mailing firm is using patient details for its own marketing.", "treated as a controller", "breach"),
        ("Can I object to a university using my records for research?", "right to object", "breach"),
        ("Can we send the regulator what we have now and fill in the rest later?", "in phases", "erasure"),
        ("My dad doesn't use computers. Can he sign a paper form so I see his records?", "on paper", "breach"),
        ("When is my next appointment?", "", "designate"),  # a patient's visit, not a designation
        ("Is there a quicker route to a data permit for public bodies?", "accelerated procedure", "breach"),
        ("A nurse opened her neighbour's record out of curiosity.", "unauthorised access", "rectification"),
        ("Which Encounter class fits our video consultations?", "virtual", "breach"),
        ("I'm leaving my job. Can I keep my group cover?", "migrate", "breach"),
        ("I bumped my sum insured up last month.", "afresh", "breach"),
        ("HR asked us to pay the claim into the company's account.", "Master Policyholder", "breach"),
        ("My Belgian health insurance fund needs my record to reimburse me.", "reimbursement services", "premiums"),
        ("The benefits office wants part of my record for my disability allowance.", "social security", "premiums"),
        # what a privacy notice tells people is the information to give, not a breach's communication
        ("What must a privacy notice tell people?", "information to be provided", "communication to the data"),
        ("Physio bills after my discharge: when must I send them in?", "submit claim documents", "breach"),
        ("Physio bills after my discharge: when must I send them in?", "post-hospitalisation", "breach"),
        ("Can I get in touch with the DPO?", "data protection officer", "claim documents"),
        ("She wants her data sent straight to her new clinic's system.", "transmitted directly", "breach"),
        ("The member was hurt trying to break into a shop. Do we pay?", "criminal intent", "personal data breach"),
        ("Is data from our step-counting app covered by the EHDS?", "wellness applications", "breach"),
        ("Do we have to tell patients about the leak?", "communication to the data subject", "rectification"),
        ("Can I have my readings sent straight across to the new clinic?", "transmitted directly", "breach"),
        ("Can I get it in a form the new surgery can load?", "machine-readable", "breach"),
        ("We got their details from a third party.", "not been obtained from the data subject", "breach"),
        ("The patients never gave them to us.", "not been obtained from the data subject", "breach"),
        ("A neighbouring trust has passed us referral details.", "not been obtained from the data subject", "breach"),
        ("What were they supposed to tell me?", "collected from the data subject", "communication to the data"),
        ("If I change my mind after buying the rider, do I get a refund?", "free look period", "grace period"),
        ("Who tests our plan for coping with a cyber attack?", "continuity plan", "free look"),
        ("My records are in Ireland and I now live in Spain.", "Member State", "third country"),
        ("Once it's up and running, how often should we check the sharing?", "continuing use", "breach"),
        (
            "Will they tell me before they start using it normally again?",
            "restriction of processing is lifted",
            "breach",
        ),
        ("They put a hold on using my record.", "restriction of processing", "breach"),
        ("I must advise whether the driver is fit to go back to driving.", "working capacity", "breach"),
        ("The agency tracks an infectious disease outbreak across borders.", "cross-border threats", "breach"),
        ("Our supplier says the subcontractor's loss is its problem, not theirs.", "fully liable", "breach"),
        ("Will that authorisation also work across the border?", "interoperable among Member States", "breach"),
        ("Everyone on both teams can see every field.", "need-to-know", "breach"),
        ("We decided not to act on her request. What must we tell her?", "reasons for not taking action", "breach"),
        ("A booking system run by a software company. What goes in our contract with them?", "processor", "breach"),
        ("A booking system run by a software company. What goes in our contract with them?", "contract", "breach"),
        ("What does my contract with the insurer say about renewal?", "", "processor"),
        ("EHDS: can I edit my doctor's entries", "directly alter", "breach"),
        ("Could she change what I've written in her record?", "directly alter", "breach"),
        ("They turned down our application. Do they have to tell us why?", "justification", "breach"),
        ("They turned down our application. Do they have to tell us why?", "refusal", "breach"),
        ("I was treated for a heart condition last year - do I have to wait?", "pre-existing disease", "breach"),
        ("We're hoping to have a baby. When do delivery costs get paid?", "maternity", "breach"),
        ("My wife is pregnant. Will the group rider cover the birth?", "maternity", "breach"),
        ("What is her date of birth?", "", "maternity"),
        ("Can we improve the delivery of care with EHDS data?", "", "maternity"),  # the delivery of care is not a birth
        ("do breaches we don't report still need logging", "document any personal data breaches", "rectification"),
        ("I asked the trust for a copy of my records. How long can they take?", "within one month", "breach"),
        ("What do the principles expect for an ongoing flow like that?", "continuing use", "breach"),
        ("Which code does a video consultation get?", "virtual", "breach"),
        ("Is drug rehab covered?", "addictive condition", "breach"),
        ("Kidney stones - is there a wait before the rider pays?", "stones in the gall bladder", "breach"),
        ("My father is 70. Is he too old to join the rider?", "entry age", "breach"),
        ("As the employer on the group policy, can we see the claims?", "Master Policyholder", "breach"),
        ("Does the group policy pay our staff directly?", "Member", "Master Policyholder"),
        ("Claim for an experimental injection with no evidence it works.", "unproven treatments", "breach"),
        ("He can't bathe or feed himself. Can he stay in just to be looked after?", "custodial care", "breach"),
        ("I saw a specialist and had a scan, no admission. Can I claim?", "out-patient consultations", "breach"),
        ("I'm porting to another insurer. Do I keep my waiting-period credit?", "port this cover", "data portability"),
        ("My notes include things my ex-husband told the doctor.", "rights and freedoms of others", "breach"),
        ("Our permit runs out soon. Can we get more time on it?", "extended", "breach"),
        ("How do we keep our radiology image archive secure?", "security of processing", "archiving purposes"),
        ("Can we archive old case notes for historical research?", "archiving purposes", "security of processing"),
        ("Anyone can open any record unless someone changes the settings.", "by default", "breach"),
        ("The company that transcribes our letters uses them for its own product.", "processor", "breach"),
        ("What can we do to check it is really him before we send his file?", "identity", "breach"),
        ("Can the surgery just tell him over the phone what they hold?", "orally", "breach"),
        ("Can our hospital group have one DPO?", "group of undertakings", "breach"),
        ("Our lawyers drafted their own bespoke contract for the transfer.", "contractual clauses", "breach"),
        ("The processing physically happens in the US. Does the GDPR apply?", "establishment", "breach"),
        ("A letter went to the wrong patient. Do we keep any record of it?", "document any personal data", "erasure"),
        ("I'm moving to another clinic. Can they send my file straight to the new one?", "transmitted directly", "x"),
        ("I'm moving to a different private clinic. Can they charge me?", "data portability", "breach"),
        ("Can our five analysts share a single login to the secure environment?", "unique user identities", "breach"),
        ("Volunteers will come across patient information on the wards.", "aware of their responsibilities", "x"),
        ("My blood test results went to another patient by mistake.", "personal data breach", "diagnostic"),
        ("Can I claim the MRI scan on my rider?", "diagnostic procedures", "breach"),
        ("What happens to my cover if I quit my job?", "Member leaves the group", "breach"),
        ("Are hospital bills paid in full?", "in-patient hospitalisation", "breach"),
        ("Are scans before a hospital stay covered?", "pre-hospitalisation", "breach"),
    ],
)
def test_plain_words_are_bridged_to_the_law_s_terms_and_not_to_a_neighbour_s(question, legal, not_legal):
    terms = " ".join(expansion_terms(question))
    assert legal in terms and not_legal not in terms


def test_northern_ireland_is_no_member_state():
    assert "Member State" not in expansion_terms("We are a GP practice in Northern Ireland. Does the GDPR apply?")
    assert "Member State" in expansion_terms("We are a GP practice in Ireland. Does the GDPR apply?")


# --- chunk context ---------------------------------------------------------------------------------------------


TITLE_WORDS = "What does the regulation say about its territorial scope?"
SCOPE_ARTICLES = ["gdpr_art_02", "gdpr_art_03", "gdpr_art_44", "gdpr_art_45", "gdpr_art_46"]


@pytest.fixture(scope="module")
def context_indexes(tmp_path_factory, models_dir, embedder):
    """The same five articles indexed with the context line in what is matched, and without it."""
    source = corpus(tmp_path_factory.mktemp("context") / "src", SCOPE_ARTICLES)
    built = {
        on: indexed(
            source,
            make_settings(tmp_path_factory.mktemp(f"context-{on}") / "data", models_dir, chunk_context=on),
            embedder,
        )
        for on in (True, False)
    }
    yield built
    for resources in built.values():
        resources.close()


def test_the_context_line_is_matched_only_when_switched_on(context_indexes):
    for on, resources in context_indexes.items():
        [chunk] = [c for c in resources.catalog.chunks() if c.payload["citation"] == "GDPR Art. 3(1)"]
        assert chunk.embed_text.startswith("GDPR Article 3 - Territorial scope") is on
        # the evidence text stays the source text either way
        assert chunk.embed_text.endswith(chunk.payload["text"]) and "Territorial" not in chunk.payload["text"]


def test_a_question_in_an_articles_title_words_finds_it_through_the_context(context_indexes):
    ranks = {
        on: first_rank(resources.retriever.retrieve(TITLE_WORDS, None, 10), "GDPR Art. 3")
        for on, resources in context_indexes.items()
    }
    assert ranks[True] == 1
    assert ranks[False] is None or ranks[False] > 1


# --- title feature ---------------------------------------------------------------------------------------------


def test_titles_come_from_the_heading_path_and_are_named_by_whole_terms():
    assert title_of("CHAPTER III - Rights / Section 2 - Information / Article 13 - Information to be provided") == (
        "Information to be provided"
    )
    assert title_of("4. Waiting Periods") == "" and title_of("") == ""
    assert names({"right", "object"}, frozenset({"right", "object"}))  # the terms hold the whole title
    assert names({"administr", "fine"}, frozenset({"general", "condit", "impos", "administr", "fine"}))
    assert not names({"processor"}, frozenset({"oblig", "processor"}))  # one word inside a longer title: no
    # a passage without a heading path is read under its own heading line
    standard = "NDG Data Security Standard 6 - Responding to incidents\n\nAction is taken immediately."
    assert passage_title("", standard) == "Responding to incidents"
    assert (
        passage_title("Section 2 / Article 13 - Information to be provided", standard) == "Information to be provided"
    )
    assert passage_title("", "3. The notification - as a minimum - must describe the breach.") == ""


def test_a_provision_whose_title_the_questions_plain_words_map_to_is_graded_on_it(shipped):
    question = "When the clinic first took my details, what were they supposed to tell me about how they'd use them?"
    article_13 = shipped.retriever.retrieve("GDPR Article 13(1) information to be provided", None, 1)
    graded = grade_all(question, article_13)[0]
    assert article_13[0].citation == "GDPR Art. 13(1)" and graded.features.get("title") == 1.0
    other = shipped.retriever.retrieve("GDPR Article 14(1)", None, 1)
    assert "title" not in grade_all(question, other)[0].features  # Art. 14's title is not what was mapped


# --- citation following ----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def with_commentary(tmp_path_factory, models_dir, embedder):
    source = corpus(
        tmp_path_factory.mktemp("follow") / "src", ["gdpr_art_30", "gdpr_art_33", "gdpr_art_34"], BREACH_LOG
    )
    resources = indexed(source, make_settings(tmp_path_factory.mktemp("follow") / "data", models_dir), embedder)
    yield resources
    resources.close()


def test_a_commentary_naming_art_33_1_brings_art_33_1_into_the_candidates(with_commentary):
    question = "Does our data protection officer have to keep an internal register of security incidents?"
    followed = with_commentary.retriever.retrieve(question, None, 1)
    assert followed[0].authority == "commentary"
    assert "GDPR Art. 33(1)" in [e.citation for e in followed[1:]]
    alone = with_commentary.retriever.retrieve(question, None, 1, RetrievalOptions(follow_citations=False))
    assert [e.citation for e in alone] == [followed[0].citation]


def test_a_policy_clause_brings_the_clause_holding_its_list_graded_as_the_clause_itself(shipped):
    question = "Which illnesses does the group rider pay a lump sum for?"
    filters = {"collection": "insurance", "variant": "group"}
    found = shipped.retriever.retrieve(question, filters, 3)
    citations = [e.citation for e in found]
    benefit = citations.index("CareShield Rider (Group) cl. 3.9")  # "a Critical Illness listed in Clause 3.9.1"
    assert citations[benefit + 1] == "CareShield Rider (Group) cl. 3.9.1"  # placed right after the pointer
    grades = {g.citation: g for g in grade_all(question, found)}
    listed = grades["CareShield Rider (Group) cl. 3.9.1"]
    assert listed.confidence == min(grades["CareShield Rider (Group) cl. 3.9"].confidence, 0.65)
    assert "the list a retrieved clause refers to" in listed.explanation
    alone = shipped.retriever.retrieve(question, filters, 3, RetrievalOptions(follow_citations=False))
    assert "CareShield Rider (Group) cl. 3.9.1" not in [e.citation for e in alone]


def test_the_provision_the_best_commentary_names_is_not_crowded_out_by_those_already_found(shipped):
    """The DPO commentary ranks first and names 37(1), (3), (5), (6), (7); all but 37(1) are candidates already, and
    the candidates carrying a named provision used up the follow limit, so 37(1) (the duty) was never brought."""
    question = "We're a small dental practice with three dentists. Do we have to appoint a DPO?"
    filters = {"!document_type": ["policy_wording", "patient_record"]}
    found = shipped.retriever.retrieve(question, filters, 20)
    assert found[0].citation == "Commentary: data protection officer in NHS bodies"
    alone = shipped.retriever.retrieve(question, filters, 20, RetrievalOptions(follow_citations=False))
    assert "GDPR Art. 37(1)" not in [e.citation for e in alone]
    assert "GDPR Art. 37(1)" in [e.citation for e in found]


def test_a_followed_provision_is_graded_on_the_same_sentence_score_the_engine_gives_the_rest(with_commentary):
    question = "Does our data protection officer have to keep an internal register of security incidents?"
    followed = with_commentary.retriever.retrieve(question, None, 1)
    brought = next(e for e in followed if e.citation == "GDPR Art. 33(1)")
    assert brought.scores.fused is None and brought.scores.rerank is not None  # found by its reference only
    # the same chunk searched as a candidate gets its MaxSim from the engine: the two agree
    engine = with_commentary.retriever.retrieve(question, None, 20, RetrievalOptions(follow_citations=False))
    ranked = next(e for e in engine if e.citation == "GDPR Art. 33(1)")
    assert ranked.scores.fused is not None
    assert brought.scores.rerank == pytest.approx(ranked.scores.rerank, abs=1e-4)


# --- patient scope ---------------------------------------------------------------------------------------------


def graph_evidence(services, question: str, top_k: int = 5) -> tuple[list[Evidence], str]:
    """What the graph's retrieve and grade nodes choose for a question, and the retrieve node's trace."""
    runtime = Runtime(context=RunContext(top_k=top_k, allow_web=False))
    found = retrieve({"question": question}, runtime, services=services)
    graded = grade({"question": question, "candidates": found["candidates"]}, runtime, services=services)
    return graded["candidates"], found["trace"][-1]


def test_a_name_two_patients_share_scopes_to_both_and_says_so(make_services):
    services = make_services()
    question = "What conditions does Liam Da Silva have?"
    runtime = Runtime(context=RunContext(allow_web=False))
    pool = retrieve({"question": question}, runtime, services=services)
    assert {e.metadata.get("patient_id") for e in pool["candidates"]} == {"pat-0042", "pat-0061"}
    assert "two patients named Liam Da Silva" in pool["trace"][-1]
    evidence, _ = graph_evidence(services, question)
    assert evidence and {e.metadata.get("patient_id") for e in evidence} <= {"pat-0042", "pat-0061"}


@pytest.mark.parametrize(
    ("question", "patient"),
    [
        ("Liam Da Silva, the 1931-born patient from York, is being admitted. What medicines is he on?", "pat-0042"),
        ("What allergies does the Liam Da Silva from Nottingham have?", "pat-0061"),
    ],
)
def test_a_shared_name_with_details_only_one_of_its_patients_fits_scopes_to_that_one(make_services, question, patient):
    # the details the record's demographics give (year of birth, town) tell the two apart; the other's record,
    # which grading once preferred for the words it shares with the question, is never searched
    evidence, trace = graph_evidence(make_services(), question)
    assert evidence and {e.metadata.get("patient_id") for e in evidence} == {patient}, trace
    assert "two patients" not in trace


def test_details_no_patient_or_every_patient_fits_leave_a_shared_name_scoped_to_all():
    from retrieval.scope import Patient, told_apart

    york = Patient("pat-0042", "Liam Da Silva", "9995331616", "1931-12-14", "142 Victoria Road, York, YO24 5HH")
    nottingham = Patient("pat-0061", "Liam Da Silva", "9992997818", "1980-12-14", "107 Elm Grove, Nottingham")
    both = [york, nottingham]
    assert told_apart("Is Liam Da Silva born in 1980 on warfarin?", both) == [nottingham]
    assert told_apart("What does Liam Da Silva take?", both) == both  # no detail
    assert told_apart("Liam Da Silva of York or Nottingham", both) == both  # each fits one detail
    assert told_apart("Liam Da Silva's road", both) == both  # a word of every address tells nobody apart


def test_a_first_name_with_a_detail_only_one_record_gives_scopes_to_that_patient(make_services):
    # two patients are called Keith; only Keith Thompson was born in 2004 (a first name alone never scopes)
    evidence, trace = graph_evidence(make_services(), "Keith, the young lad born 2004 - what inhaler has he got?")
    assert evidence and {e.metadata.get("patient_id") for e in evidence} == {"pat-0051"}, trace


def test_a_year_of_birth_none_of_the_named_patients_has_is_asked_back_and_no_record_is_searched(make_services):
    services = make_services()
    question = "Liam Da Silva, born 1955 - what's he on?"
    pool = retrieve({"question": question}, Runtime(context=RunContext(allow_web=False)), services=services)
    assert not any(e.authority == "record" for e in pool["candidates"])
    record = run_graph(question, services, allow_web=False)
    assert "No patient named Liam Da Silva born in 1955" in record.answer and "pat-" not in record.answer


@pytest.mark.parametrize("number", ["999 886 4232", "9998864232", "999-886-4232"])
def test_an_nhs_number_in_any_spacing_scopes_to_that_patient_only(make_services, number):
    evidence, trace = graph_evidence(make_services(), f"Does the patient with NHS number {number} have any allergies?")
    assert evidence and {e.metadata.get("patient_id") for e in evidence} == {"pat-0006"}  # nobody else's record
    assert "Bilal Patel (pat-0006)" in trace


@pytest.mark.parametrize(
    "question",
    [
        "What conditions does Mrs Okafor have?",  # a family name one patient bears, with a title
        "Tell me about Okafor's conditions",  # ... or a possessive
        "joan okafor conditions",  # a full name in lower case
    ],
)
def test_a_family_name_only_one_patient_bears_scopes_to_that_patient(make_services, question):
    evidence, trace = graph_evidence(make_services(), question)
    assert "Joan Okafor (pat-0001)" in trace
    assert evidence and {e.metadata.get("patient_id") for e in evidence} == {"pat-0001"}
    conditions = next(e for e in evidence if e.section == "Conditions")
    assert conditions.scores.reference_match  # named by name counts as named by id


def test_first_and_family_name_without_the_middle_name_scopes_to_that_patient(make_services):
    evidence, trace = graph_evidence(make_services(), "deborah hughes allergies")
    assert "Deborah Paul Hughes (pat-0013)" in trace
    assert {e.metadata.get("patient_id") for e in evidence} == {"pat-0013"}


def test_a_family_name_several_patients_share_is_asked_back_and_no_record_is_searched(make_services):
    services = make_services()
    question = "What allergies does Mr Da Silva have?"
    evidence, trace = graph_evidence(services, question)
    assert "4 patients have the family name Da Silva" in trace  # which of them is meant is not guessed
    assert all(e.document_type != "patient_record" for e in evidence)
    record = run_graph(question, services, allow_web=False)
    assert record.status == "refused" and record.status_detail == (
        "4 patients have the family name Da Silva: name the patient by full name, patient id or NHS number"
    )
    assert all(e.document_type != "patient_record" for e in record.evidence) and "pat-" not in record.answer
    assert record.answer == f"{record.status_detail}."  # the answer itself asks which patient is meant


def chunk(text: str, citation: str, **extra: object) -> Evidence:
    """A retrieved chunk made by hand, for grading alone."""
    return Evidence(chunk_id=citation, doc_id=citation, text=text, citation=citation, document=citation, **extra)


def test_a_number_the_question_names_is_matched_in_what_a_clause_says_not_in_its_clause_number():
    clause = chunk("6.1 Co-payment\nNo Co-payment shall apply to any claim under this Group Policy.", "Rider cl. 6.1")
    question = "My claim was turned down 6 months after I joined. Can they do that?"
    assert grade_all(question, [clause])[0].features["numbers"] == 0.0
    stated = clause.model_copy(update={"text": "6.1 Waiting\nTreatment is covered after 6 months of cover."})
    assert grade_all(question, [stated])[0].features["numbers"] == 1.0


def test_an_ehds_chunk_yields_to_the_general_law_for_a_question_about_patient_data_in_general():
    article = chunk(
        "The health data access body may refuse a request that is manifestly unfounded.",
        "EHDS Art. 68(9)",
        metadata={"instrument": "EHDS"},
    )
    general = grade_all("Can the hospital refuse my request if I keep asking?", [article])[0]
    special = grade_all("Can the health data access body refuse my data permit request?", [article])[0]
    unpenalised = grade_all(
        "Can the hospital refuse my request if I keep asking?", [article.model_copy(update={"metadata": {}})]
    )[0]
    assert general.confidence < unpenalised.confidence
    assert special.confidence > general.confidence


def test_an_article_named_with_its_law_is_not_another_law_s_article_of_the_same_number(shipped, make_services):
    """The shipped corpus has the EHDS's Article 10 and not the GDPR's: "GDPR Article 10" names nothing it holds,
    so no chunk is graded as the provision asked for, and the answer is the refusal."""
    question = "What exactly does GDPR Article 10 require before we can hold criminal convictions data?"
    found = shipped.retriever.retrieve(question, {"collection": "health_governance"}, 40)
    ehds_10 = [e for e in found if e.citation.startswith("EHDS Art. 10")]
    assert ehds_10 and all("ref_10" in e.refs for e in ehds_10)
    grades = grade_all(question, found)
    assert not any(g.features.get("reference") for g in grades)
    assert max(g.confidence for g in grades) <= UNKNOWN_REFERENCE_CAP
    own_law = grade_all("What does EHDS Article 10 say about opting out?", ehds_10)
    assert all(g.features.get("reference") == 1.0 for g in own_law)
    out = run_graph(question, make_services())
    assert out.status == "refused"


def test_a_paragraph_about_the_text_itself_is_no_sign_that_the_text_answers(shipped):
    # every Caldicott principle carries the same "Scope: ... information collected ... patients ..." paragraph,
    # which made all eight cover "What has to be in a privacy notice when we collect data directly from patients?"
    found = shipped.retriever.retrieve("Caldicott principle minimum necessary", {"collection": "health_governance"}, 10)
    principle = next(e for e in found if e.citation == "Caldicott Principle 3")
    assert "Scope: " in principle.text and "collected" in principle.text.split("Scope: ", 1)[1]
    question = "What has to be in a privacy notice when we collect data directly from patients?"
    assert grade_all(question, [principle])[0].features["coverage"] < 1.0


def test_staff_whose_role_needs_little_of_the_record_are_searched_as_need_to_know_access(make_services):
    question = "Should our receptionists be able to open patients' full clinical notes on the system?"
    assert any("need-to-know" in t for t in expansion_terms(question))
    out = run_graph(question, make_services())
    assert any(c.citation == "Caldicott Principle 4" for c in out.evidence), [c.citation for c in out.evidence]
