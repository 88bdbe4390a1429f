"""The offline answer, composed answer-first: each rule on hand-made evidence (no model: coverage scores only)."""

from __future__ import annotations

import re

import pytest

from core.types import Evidence, Scores
from generation.compose import _CUES, compose
from generation.offline import OfflineAnswerer
from generation.opener import yes_no_opener
from generation.prompts import REFUSAL
from language.coherence import fragments
from tests.conftest import run_graph

ART_33_1 = (
    "1. In the case of a personal data breach, the controller must notify it to the supervisory authority "
    "without undue delay and, where feasible, no later than 72 hours after becoming aware of it. "
    "If the notification is not made within 72 hours, it must be accompanied by the reasons for the delay."
)
ART_33_3 = (
    "3. As a minimum, the notification referred to in paragraph 1 must:\n"
    "(a) describe the nature of the personal data breach;\n"
    "(b) give the name and contact details of the data protection officer;\n"
    "(c) describe the likely consequences of the personal data breach;\n"
    "(d) describe the measures taken or proposed to address the personal data breach."
)
ART_46_2 = (
    "2. The appropriate safeguards referred to in paragraph 1 may be provided for, without requiring any specific "
    "authorisation from a supervisory authority, by:\n(a) a legally binding instrument between public authorities;\n"
    "(b) binding corporate rules in accordance with Article 47;\n"
    "(c) standard data protection clauses adopted by the Commission;\n"
    "(d) standard data protection clauses adopted by a supervisory authority and approved by the Commission."
)
COMMENTARY = "Breaches must be reported to the regulator within 72 hours, and a log of every breach must be kept."
WEATHER = "Brussels has a temperate maritime climate with mild summers."


def block(text: str, citation: str, authority: str = "binding", doc: str | None = None, **extra) -> Evidence:
    return Evidence(
        chunk_id=citation,
        doc_id=doc or citation.split("(")[0],
        text=text,
        citation=citation,
        document=f"Doc {citation}",
        authority=authority,
        confidence=0.8,
        **extra,
    )


def clause(text: str, citation: str, **metadata: str) -> Evidence:
    """A clause of a policy wording, with its loader's metadata (section_key, coverage_type, benefit_name)."""
    return block(text, citation, document_type="policy_wording", metadata=metadata)


def test_a_deadline_question_leads_with_the_period_in_the_source_s_words():
    answer = compose(
        "How long do we have to report a personal data breach?", [block(ART_33_1, "GDPR Art. 33(1)")], None
    )
    first = answer.split(" [Source 1]")[0]
    assert "no later than 72 hours after becoming aware of it" in first and not first.startswith("1.")
    assert fragments(answer) == []


def test_a_list_question_gets_every_point_of_the_lead_in():
    answer = compose(
        "What must a breach notification to the supervisory authority contain?",
        [block(ART_33_3, "GDPR Art. 33(3)"), block(WEATHER, "Other", authority="commentary")],
        None,
    )
    assert answer.startswith("As a minimum, the notification")
    for point in (
        "(a) describe the nature",
        "(b) give the name",
        "(c) describe the likely",
        "(d) describe the measures",
    ):
        assert point in answer
    assert WEATHER not in answer and answer.count("[Source 1]") == 1 and fragments(answer) == []


def test_a_named_point_is_quoted_from_that_point_after_its_lead_in():
    evidence = block(ART_46_2, "GDPR Art. 46(2)", scores=Scores(reference_match=True))
    answer = compose("What does Article 46(2)(c) GDPR provide?", [evidence], None)
    assert "(c) standard data protection clauses adopted by the Commission" in answer
    assert "(d)" not in answer and answer.startswith("The appropriate safeguards")


def test_the_binding_provision_leads_when_commentary_says_the_same():
    blocks = [block(COMMENTARY, "Commentary: breaches", authority="commentary"), block(ART_33_1, "GDPR Art. 33(1)")]
    answer = compose("How quickly must a personal data breach be reported to the supervisory authority?", blocks, None)
    assert answer.startswith("In the case of a personal data breach") and "[Source 2]" in answer.split(". ")[0] + "."
    assert "log of every breach" not in answer  # nothing from a provision that does not bear on the question


def test_statements_never_start_with_a_marker_a_number_or_a_heading():
    heading = "Article 33 - Notification of a personal data breach\n\n" + ART_33_1
    answer = compose("When must a controller notify a personal data breach?", [block(heading, "GDPR Art. 33")], None)
    assert not answer.startswith(("Article 33", "1.")) and fragments(answer) == []


def test_yes_no_opens_with_yes_or_no_only_for_the_act_asked_about():
    exempt = (
        "This Regulation does not apply to the processing of personal data by a natural person in a household activity."
    )
    assert yes_no_opener("Does the GDPR apply to my family spreadsheet?", exempt) == "No: "
    assert yes_no_opener("Can the insurer refuse the claim?", "The insurer may refuse a claim filed late.") == "Yes: "
    conditional = "The controller may charge a reasonable fee unless the request is the first one."
    assert yes_no_opener("Can the hospital charge a fee?", conditional) == "Yes, subject to conditions: "
    assert yes_no_opener("Can I see who looked at my record?", "Access logs shall be kept for three years.") == ""
    # a right to obtain something is what one may ask for
    erasure = "The data subject has the right to obtain from the controller the erasure of personal data."
    assert yes_no_opener("Can a patient ask us to delete their records?", erasure) == "Yes: "
    # a topic typed before the question ("EHDS: can I ...") is not its party
    alter = (
        "Neither natural persons nor their representatives shall be able to directly alter what professionals inserted."
    )
    assert yes_no_opener("EHDS: can I edit my doctor's entries", alter) == "No: "
    # "they" of the asking sentence is the party the scene opened with; "tell us why" is asking for a justification
    refusal = "A health data access body that refuses to issue a data permit shall give the applicant a justification."
    asked = "The health data access body has turned down our application. Do they have to tell us why?"
    assert yes_no_opener(asked, refusal) == "Yes: "
    # "let me know" is telling: the law's "inform" rules on it
    informed = "The controller shall inform the data subject before the restriction of processing is lifted."
    assert yes_no_opener("Will they let me know before they use it again?", informed).startswith("Yes")
    # a phrase set off by commas between the modal and its verb, unless it negates
    apart = "The controller must, without undue delay, communicate it."
    assert yes_no_opener("Do they have to tell me?", apart) == "Yes: "
    assert yes_no_opener("Do they have to tell me?", "The controller must, if not known, communicate it.") == ""
    # "the right to have the data transmitted" is what a person can insist on; a right to obtain something else is not
    transmitted = "The data subject has the right to have the personal data transmitted directly to another controller."
    assert yes_no_opener("Can a patient insist on that?", transmitted) == "Yes: "
    confirmed = "The data subject has the right to obtain from the controller confirmation of the processing."
    assert yes_no_opener("Can patients insist a human looks at it?", confirmed) == ""
    # asked whether the asker is told, a duty to tell an authority or the controller says neither yes nor no
    to_authority = "The controller must notify it to the supervisory authority without undue delay."
    assert yes_no_opener("Should the clinic notify me?", to_authority) == ""
    assert yes_no_opener("Should the clinic notify me?", "The processor must notify the controller.") == ""
    assert yes_no_opener("Do we have to notify the regulator?", to_authority) == "Yes: "
    # asked whether something costs the asker: a statement that it is free says no, unless it says when a fee applies
    free = "Authorisations through the proxy services shall be provided free of charge."
    assert yes_no_opener("Will I have to pay to authorise my daughter as a proxy?", free) == "No: "
    assert yes_no_opener("Is there a fee?", "Copies are free of charge unless requests are excessive.") == ""
    assert yes_no_opener("Is there a fee?", "Copies are not free of charge.") == ""
    # the verb of a statement's opening condition is not the act it rules on
    research = "Where personal data are processed for research, the data subject has the right to object."
    assert yes_no_opener("Does that lift the ban on processing health data?", research) == ""
    assert yes_no_opener("Can I object to research on my data?", research) == "Yes, subject to conditions: "
    answer = compose("Does the GDPR apply to a household activity?", [block(exempt, "GDPR Art. 2(2)")], None)
    assert answer.startswith("No: this Regulation does not apply")


def test_refuses_when_nothing_supports_the_question():
    assert (
        compose("What is the boiling point of mercury in kelvin?", [block(ART_33_1, "GDPR Art. 33(1)")], None)
        == REFUSAL
    )
    assert compose("Anything at all?", [], None) == REFUSAL


def test_every_statement_is_the_source_s_words_with_its_citation():
    blocks = [block(ART_33_1, "GDPR Art. 33(1)"), block(ART_33_3, "GDPR Art. 33(3)")]
    answer = compose("What must the controller do after a personal data breach, and how fast?", blocks, None)
    for sentence, number in re.findall(r"(?:^|\] )(.+?) \[Source (\d+)\]", answer):
        words = re.sub(r"^(Yes|No)[^:]*: ", "", sentence).rstrip(".").split()[:6]
        assert " ".join(words).lower() in blocks[int(number) - 1].text.lower()


def test_the_stream_joins_back_to_the_composed_answer():
    blocks = [block(ART_33_1, "GDPR Art. 33(1)")]
    question = "How long do we have to report a breach?"
    assert "".join(OfflineAnswerer().stream(question, blocks)) == compose(question, blocks, None)


def test_a_label_the_source_set_before_its_first_sentence_is_not_quoted():
    text = "Timeline. Under EHDS Art. 105 the European Health Data Space Regulation applies from 26 March 2027."
    answer = compose(
        "When does the European Health Data Space start applying?",
        [block(text, "Commentary: EHDS", authority="commentary")],
        None,
    )
    assert answer.startswith("Under EHDS Art. 105 the European Health Data Space Regulation applies"), answer
    assert fragments(answer) == []


def test_an_abbreviation_is_not_taken_for_a_label():
    text = "The Art. 9 condition written for research is point (j), with the safeguards of Art. 89(1)."
    answer = compose(
        "Which Art. 9 condition covers research?", [block(text, "Commentary: research", authority="commentary")], None
    )
    assert answer.startswith("The Art. 9 condition written for research is point (j)"), answer


def test_a_yes_no_question_is_answered_by_what_supports_it_not_by_any_shall():
    """'shall' and 'must' are in nearly every provision: they never make an unrelated provision the answer."""
    guidance = "Access to patient data is removed as soon as a member of staff leaves or changes role."
    unrelated = "Health data access bodies shall cooperate with the representatives of relevant stakeholders."
    answer = compose(
        "When staff leave or change role, is their access to patient data removed?",
        [block(unrelated, "EHDS Art. 57(1)"), block(guidance, "NDG Data Security Standard 4", authority="guidance")],
        None,
    )
    assert answer.split(" [Source")[0].endswith("as soon as a member of staff leaves or changes role"), answer
    assert "[Source 2]" in answer and "[Source 1]" not in answer


GRIEVANCE = {
    "9.1": "In case of a grievance, the Insured Person may contact the Company through the helpline 1800-000-0000.",
    "9.2": "If not satisfied within 14 days, he or she may write to the Grievance Redressal Officer of the Company.",
    "9.3": "If the grievance remains unresolved within 30 days, he or she may complain to the Insurance Ombudsman.",
}


def grievance_clause(number: str, doc: str = "rider") -> Evidence:
    return block(
        GRIEVANCE[number],
        f"Rider cl. {number}",
        doc=doc,
        metadata={"clause_id": number, "position": int(number.split(".")[1])},
    )


def test_a_procedure_spread_over_sub_clauses_is_answered_step_by_step_in_the_wording_s_order():
    # retrieval put the last step first; the answer starts where the procedure starts
    blocks = [grievance_clause("9.3"), grievance_clause("9.2"), grievance_clause("9.1")]
    answer = compose("How do I complain about my claim?", blocks, None)
    assert [answer.index(s) for s in ("helpline", "Grievance Redressal Officer", "Ombudsman")] == sorted(
        answer.index(s) for s in ("helpline", "Grievance Redressal Officer", "Ombudsman")
    )
    assert answer.startswith("In case of a grievance") and "[Source 3]" in answer.split(".")[0] + "."
    # another kind of question about the same clauses is answered by the one that answers it
    ombudsman = compose("When can I go to the Insurance Ombudsman?", blocks, None)
    assert ombudsman.startswith("If the grievance remains unresolved") and "helpline" not in ombudsman
    # clauses of another wording, or a clause standing alone, are not steps
    alone = compose(
        "How do I complain about my claim?", [grievance_clause("9.3"), grievance_clause("9.1", doc="other")], None
    )
    assert "helpline" not in alone or "Ombudsman" not in alone


OPTIONAL_COPAY = (
    "5.5.8 Optional Co-payment\n"
    "The Insured may opt for Optional Co-payment of 20%, with discount in premium. In such cases, each admissible "
    "claim under the Policy shall be subject to the same Co-payment percentage. Any change in Optional Co-payment "
    "may be done only during Renewal."
)


def test_a_statement_that_points_back_is_quoted_after_what_it_points_at():
    answer = compose(
        "Is every claim subject to the same co-payment percentage once I opt for it?",
        [clause(OPTIONAL_COPAY, "Parivar cl. 5.5.8")],
        None,
    )
    first, _, rest = answer.partition(" [Source 1]. ")
    assert first.lower().endswith("the insured may opt for optional co-payment of 20%, with discount in premium"), (
        answer
    )
    assert rest.startswith("In such cases, each admissible claim"), answer
    assert fragments(answer) == []


def test_a_statement_pointing_back_with_nothing_before_it_does_not_lead_when_another_answers():
    orphan = block("In such cases, each admissible claim shall be subject to a co-payment of 20%.", "P cl. 2")
    plain = block("A co-payment of 20% applies to each admissible claim made by an Insured Person.", "P cl. 3")
    answer = compose("Does a co-payment apply to each admissible claim?", [orphan, plain], None)
    assert (
        answer.split(" [Source ")[0].endswith(
            "co-payment of 20% applies to each admissible claim made by an Insured Person"
        )
        and "[Source 2]" in answer
    ), answer
    assert "In such cases" not in answer


def test_for_a_policy_question_the_clause_headed_by_its_subject_leads():
    specified = clause(
        "4.2 Specified Disease Waiting Period\nIf any listed disease is also a Pre-existing Disease, the longer of "
        "the two waiting periods applies. Expenses for the listed diseases are excluded for 24 months.",
        "Rider cl. 4.2",
    )
    ped = clause(
        "4.1 Pre-existing Diseases\nExpenses related to the treatment of a Pre-existing Disease and its direct "
        "complications shall be excluded until the expiry of 36 months of continuous coverage.",
        "Rider cl. 4.1",
    )
    answer = compose("What is the waiting period for pre-existing diseases under the rider?", [specified, ped], None)
    assert "36 months" in answer.split("[Source")[0] and answer.split("[Source ")[1].startswith("2]"), answer


def test_a_policy_answer_does_not_follow_with_another_benefit_s_line_or_clause():
    table = clause(
        "3.10 Table of Benefits\nCataract Surgery (Clause 3.1.2): Rs. 60,000 per eye.\n"
        "Room Rent and ICU Charges (Clause 3.1.1): no sub-limit, as charged by the Hospital.\n"
        "Hospital Daily Cash Benefit (Clause 3.4): Rs. 1,500 per day, maximum 45 days.",
        "Rider cl. 3.10",
        section_key="table_of_benefits",
    )
    cash = clause(
        "3.4 Hospital Daily Cash\nThe Company will pay Rs. 1,500 per day of Hospitalisation, for at most 45 days.",
        "Rider cl. 3.4",
        section_key="benefits",
    )
    answer = compose("What is the limit for cataract surgery on the rider?", [table, cash], None)
    assert answer.startswith("Cataract Surgery (Clause 3.1.2): Rs. 60,000 per eye [Source 1]."), answer
    assert "Room Rent" not in answer and "1,500" not in answer


PRINCIPLE = (
    "Principle 4 - Access on a strict need-to-know basis\n\n"
    "Only those who need access should have it, and then only to the items that they need to see.\n\n"
    'History: the 1997 Caldicott Report read "Access to confidential information should be on a strict need-to-know '
    'basis".'
)


def test_a_history_or_scope_note_does_not_lead_unless_the_question_asks_about_it():
    blocks = [block(PRINCIPLE, "Caldicott Principle 4", authority="guidance")]
    answer = compose(
        "Who should have access to confidential information under the need-to-know principle?", blocks, None
    )
    assert answer.startswith("Only those who need access should have it"), answer
    history = compose("What did the 1997 Caldicott Report say about need-to-know access?", blocks, None)
    assert "1997 Caldicott Report" in history.split(" [Source 1]")[0], history


def test_a_right_to_the_asked_act_answers_yes():
    withdraw = "The data subject shall have the right to withdraw his or her consent at any time."
    assert yes_no_opener("Can I withdraw my consent later?", withdraw) == "Yes: "
    assert yes_no_opener("Can I object to direct marketing?", "The data subject has the right to object.") == "Yes: "
    assert yes_no_opener("Can I object to direct marketing?", "The data subject has the right to erasure.") == ""
    answer = compose("Can I withdraw my consent later?", [block(withdraw, "GDPR Art. 7(3)")], None)
    assert answer.startswith("Yes: the data subject shall have the right to withdraw"), answer


def test_yes_or_no_only_for_the_party_asked_about_and_never_from_an_adverb():
    authority = (
        "Before the lists are adopted, the competent supervisory authority must apply the consistency mechanism."
    )
    assert yes_no_opener("Does the GDPR apply to us?", authority) == ""  # another party's act
    anonymous = "Pseudonymised data are still personal data, while truly anonymous data are outside the GDPR."
    assert yes_no_opener("Does the GDPR still apply if I anonymise the data?", anonymous) == ""  # 'still' is no verb
    prejudice = "A decision under paragraph 5 is without prejudice to transfers of personal data to the third country."
    asked = "Are we allowed to send data to a country without an adequacy decision?"
    assert yes_no_opener(asked, prejudice) == ""  # 'without' is no verb
    # the party asked about is the question's subject (the GDPR), not the patients its records belong to
    communication = "The communication to the data subject under paragraph 1 is not required if the data are encrypted."
    assert yes_no_opener("Does the GDPR require us to encrypt patient records?", communication) == ""
    # the question's main act (refusing) decides, not a later word of it (renewing)
    renewal = (
        "This Rider is renewable annually, and the Company shall not refuse renewal on the ground that an Insured "
        "Person has made a claim."
    )
    assert yes_no_opener("Can my insurer refuse to renew my group rider because I made a claim?", renewal) == "No: "
    # the act is what the party is asked to do (look up), not another word of the question (system access)
    access = "Natural persons have the right to access their personal electronic health data."
    nurse = "I'm a nurse. Can I look up my neighbour's hospital record out of curiosity if I have system access?"
    assert yes_no_opener(nurse, access) == ""
    assert yes_no_opener("Can I access my own health record?", access) == "Yes: "
    # "I" who tells patients acts for the controller: the controller's duty answers ("Do I need to tell patients?")
    communicate = (
        "Where a personal data breach is likely to result in a high risk to the rights and freedoms of natural "
        "persons, the controller must communicate the personal data breach to the data subject without undue delay."
    )
    assert yes_no_opener("Do I need to tell patients about a data breach?", communicate).startswith("Yes")
    assert yes_no_opener("Can I see my record?", communicate) == ""
    # a duty whose object is the thing needed rules on needing it, only in the cases it lists
    designate = (
        "The controller and the processor must in any case designate a data protection officer where: (a) a public "
        "authority or body carries out the processing."
    )
    assert yes_no_opener("Do we need a DPO?", designate) == "Yes, subject to conditions: "
    assert yes_no_opener("Do we need a separate DPO for each site?", designate) == ""
    # a grant limited by a fronted scope is a conditional yes: the first copy is free
    further = "For any further copies requested by the data subject, the controller may charge a reasonable fee."
    charge = "Can the hospital charge me for a copy of my notes?"
    assert yes_no_opener(charge, further) == "Yes, subject to conditions: "
    partly = "Health data users can download from the secure processing environment only non-personal data."
    assert yes_no_opener("Can I download the individual-level records?", partly) == ""  # a part is not a yes
    fee = "The controller may charge a reasonable fee."
    assert yes_no_opener("Can our hospital charge a fee?", fee) == "Yes: "  # the hospital is the controller
    # the asking clause follows a condition, and the law's verb stands for the plain act
    withdraw = "The data subject shall have the right to withdraw his or her consent at any time."
    changed = "If a patient agreed to something, can they later change their mind?"
    assert yes_no_opener(changed, withdraw) == "Yes: "
    assert yes_no_opener("If a patient agreed to something, can they later sell it?", withdraw) == ""
    # a wording pays by reimbursing or indemnifying; "the individual rider" is the policy, not a person
    ambulance = "The Company will reimburse the reasonable cost of a road ambulance."
    assert yes_no_opener("Does the individual rider pay for an ambulance?", ambulance) == "Yes: "
    assert yes_no_opener("Does the individual rider send an ambulance?", ambulance) == ""
    # a regulator is a party of its own: asked whether it can make the asker act, its power answers, not the
    # asker's duty towards it
    power = "The supervisory authority may require the controller to communicate the breach to the data subject."
    duty = "The controller must notify the breach to the supervisory authority without undue delay."
    made = "The regulator has questioned our decision. Can the authority make us tell the patients?"
    assert yes_no_opener(made, power) == "Yes: "
    assert yes_no_opener(made, duty) == ""
    # each verb of a series is governed ("maintain, acquire or process"); "not obliged to" answers whether one
    # must, never whether one may
    obliged = "The health data holder shall not be obliged to maintain, acquire or process additional information."
    assert yes_no_opener("Do we need to start collecting identifiers?", obliged) == "No: "
    assert yes_no_opener("Can we collect identifiers?", obliged) == ""
    # "is obliged to erase" rules on erasing, as "must erase" does
    erase = "The controller is obliged to erase personal data without undue delay where consent is withdrawn."
    assert yes_no_opener("Do they have to erase my data now?", erase) == "Yes: "
    # "health data" in the question does not make the health data access body the clinic asked about
    fees = "The health data access body may charge fees that reflect the costs of storing the data for longer."
    clinic = "My clinic would charge me an admin fee to send my records over. Under the EU health data rules, can they?"
    assert yes_no_opener(clinic, fees) == ""
    # with no act in the asking sentence, the scene's plain phrase gives the act only when the asking sentence
    # points back at it
    access = "Patients have the right to access their data through electronic health data access services."
    scene = "Under the EHDS he'll be able to see who has opened his record."
    assert yes_no_opener(f"{scene} Is there any way my details could be kept out of what he's shown?", access) == ""
    # asked whether a case counts as a kind, a rule for the kind says nothing of the case
    rule = "A data protection impact assessment is required in the case of processing on a large scale."
    counts = "Does my solo practice count as large scale processing, so that I need a DPIA?"
    assert yes_no_opener(counts, rule) == ""
    assert yes_no_opener("Do I need a DPIA for processing on a large scale?", rule) == "Yes: "
    # asked to confirm a claim, a yes would confirm the claim: the clause is stated without one
    applies = "This Regulation applies to processing in the context of an establishment in the Union."
    claim = "Someone says the GDPR doesn't apply because the servers are in the US. Is that right?"
    assert yes_no_opener(claim, applies) == ""
    assert yes_no_opener("Does the GDPR apply to processing by our establishment in the Union?", applies) == "Yes: "


def test_a_yes_no_question_is_led_by_the_statement_that_grants_the_act_to_the_party_asked_about():
    transmit = block(
        "Natural persons who have downloaded an electronic copy of their health data shall be able to transmit "
        "those data to healthcare providers of their choice.",
        "EHDS Art. 7(4)",
    )
    download = block(
        "Natural persons, or their representatives, have the right to download free of charge an electronic copy "
        "of their health data.",
        "EHDS Art. 3(2)",
    )
    answer = compose("Can I download a copy of my health data?", [transmit, download], None)
    assert answer.startswith("Yes: natural persons, or their representatives, have the right to download"), answer


def test_what_an_exclusion_leaves_out_is_not_what_it_excludes():
    massages = clause(
        "4.23 Massages, Steam Bath, Alternative Treatment (Other than AYUSH treatment)\nMassages, steam bath, "
        "expenses for alternative treatments (other than AYUSH treatment), acupuncture and similar treatment.",
        "Policy cl. 4.23",
        section_key="exclusions",
        coverage_type="not_covered",
        benefit_name="Massages",
    )
    ayush = clause(
        "3.1.6 AYUSH Treatment\nThe Company shall indemnify Medical Expenses incurred for Inpatient Care treatment "
        "under Ayurveda, Yoga, Unani, Siddha and Homeopathy in any AYUSH Hospital.",
        "Policy cl. 3.1.6",
        section_key="benefits",
        coverage_type="covered",
        benefit_name="AYUSH Treatment",
    )
    answer = compose("Is AYUSH treatment covered?", [massages, ayush], None)
    assert answer.startswith("The Company shall indemnify Medical Expenses"), answer
    outpatient = "Out-patient consultations not followed by a Day Care Treatment are not covered."
    assert yes_no_opener("Is day care treatment covered?", outpatient) == ""  # another thing than day care


def test_a_policy_clause_about_another_benefit_gets_no_yes():
    critical = clause(
        "3.9 Critical Illness\nIf an Insured Person is first diagnosed with a Critical Illness, the Company will pay "
        "100% of the Critical Illness Sum Insured as a lump sum.",
        "Rider cl. 3.9",
        section_key="benefits",
    )
    answer = compose("Will the insurer pay the Sum Insured for my knee replacement?", [critical], None)
    assert answer.startswith("If an Insured Person is first diagnosed with a Critical Illness"), answer
    assert yes_no_opener("Will the rider pay for it?", critical.text) == "Yes: "  # the clause alone would say yes


def test_a_definition_question_is_led_by_the_statement_defining_the_asked_term_not_one_using_it():
    uses = block(
        "1. The controller must implement appropriate technical and organisational measures, such as "
        "pseudonymisation, designed to implement data-protection principles, such as data minimisation.",
        "GDPR Art. 25(1)",
    )
    defines = block(
        "(5) 'pseudonymisation' means the processing of personal data in such a manner that the personal data can "
        "no longer be attributed to a specific data subject without the use of additional information.",
        "GDPR Art. 4(5)",
    )
    answer = compose("What is meant by pseudonymisation in the GDPR?", [uses, defines], None)
    assert answer.startswith("'pseudonymisation' means") and "[Source 2]" in answer.split(".")[0]


def test_a_list_question_is_answered_by_the_points_of_the_clause_its_heading_names():
    submit = clause(
        "7.3 Reimbursement Claims\nThe Insured Person shall send the claim to the TPA within 30 days of discharge "
        "from the Hospital.",
        "Rider cl. 7.3",
        section_key="claims",
    )
    documents = clause(
        "7.4 Claim Documents\nThe claim shall be supported by:\n(a) the completed claim form;\n"
        "(b) photo identity proof of the patient;\n(c) original bills and receipts;\n(d) the discharge summary.",
        "Rider cl. 7.4",
        section_key="claims",
    )
    answer = compose("What documents do I need to submit for a claim?", [submit, documents], None)
    assert answer.startswith("The claim shall be supported by") and "(d) the discharge summary" in answer


def test_a_when_does_it_apply_question_is_led_by_the_dated_statement_even_in_a_note():
    tasks = block(
        "2. When exercising their tasks, health data access bodies shall cooperate with the supervisory authorities "
        "and with the EHDS Board.",
        "EHDS Art. 57(2)",
    )
    note = block(
        "1. Natural persons have the right to access their data.\nNote: the obligations start in stages: the "
        "Regulation applies from 26 March 2027.",
        "EHDS Art. 3(1)",
    )
    answer = compose("When do the EHDS rules start to apply?", [tasks, note], None)
    assert "26 March 2027" in answer.split("[Source")[0]


WAITING = (
    "4.2 Specified Disease or Procedure Waiting Period\nExpenses related to the treatment of the diseases and "
    "procedures listed below shall be excluded until the expiry of 24 months of continuous coverage. The waiting "
    "period applies even if the disease is contracted after the inception of the Rider.\n(a) Cataract;\n"
    "(b) Hernia of all types, hydrocele and varicocele;\n(c) Joint replacement surgery, unless necessitated by an "
    "Accident;"
)


def test_a_policy_question_is_led_by_the_point_naming_its_subject_after_the_sentence_announcing_the_list():
    waiting = clause(WAITING, "Rider cl. 4.2", section_key="waiting_period")
    # "knee replacement" is named by the wording as "joint replacement"; "hernia surgery" by "Hernia of all types"
    for question, point in (
        ("I need a knee replacement. Is there a waiting period on the rider?", "(c) Joint replacement"),
        ("Is there a waiting period for hernia surgery on the rider?", "(b) Hernia of all types"),
    ):
        first = compose(question, [waiting], None).split(" [Source 1]")[0]
        assert first.startswith("Expenses related to the treatment of the diseases and procedures listed below")
        assert "24 months" in first and point in first, first
        assert fragments(compose(question, [waiting], None)) == []


def test_a_benefit_the_clauses_never_name_is_not_answered_by_a_clause_that_shares_a_negation_with_the_question():
    copay = clause("6.1 Co-payment\nNo Co-payment shall apply to any claim under this Rider.", "Rider cl. 6.1")
    question = "If I don't claim this year on the group rider, do I get a no-claims bonus?"
    assert compose(question, [copay], None) == REFUSAL  # "no" and "don't" are not what is asked about


HACK_QUESTION = "How long does a clinic have to tell the regulator about a hack or leak?"


def restating_art_33_1() -> Evidence:
    """A commentary saying in plain words what GDPR Art. 33(1) says."""
    return block(
        "GDPR Art. 33(1) says that a clinic must tell the regulator (the supervisory authority) about a hack or leak "
        "(a personal data breach) within 72 hours.",
        "Commentary: breach notification timeline",
        authority="commentary",
    )


def test_a_commentary_restating_a_provision_the_evidence_holds_yields_to_the_provision():
    restating, question = restating_art_33_1(), HACK_QUESTION
    article = block(ART_33_1, "GDPR Art. 33(1)")
    assert compose(question, [restating, article], None).split("]")[0].endswith("[Source 2")  # the article


def test_a_commentary_restating_a_provision_the_evidence_lacks_is_not_displaced_by_another_provision():
    restating, question = restating_art_33_1(), HACK_QUESTION
    other = block(  # another provision on another period, as well supported but graded lower: it would lead
        "2. A clinic must tell the regulator (the supervisory authority) about a hack or leak (a personal data breach) "
        "in the cases of paragraph 1, and keep the record for at least three years.",
        "EHDS Art. 9(2)",
    )
    other.confidence = 0.4
    answer = compose(question, [restating, other], None)
    assert answer.startswith("GDPR Art. 33(1) says") and "72 hours" in answer.split("]")[0], answer
    assert "three years" not in answer


def test_a_question_naming_a_law_is_not_answered_by_a_statement_about_another_law():
    uk_note = block(
        "UK note. The UK GDPR allows health data to be hidden from a patient where showing it would cause "
        "serious harm.",
        "Commentary: subject access requests",
        authority="commentary",
    )
    article = block(
        "Natural persons have the right to restrict the access of health professionals to their electronic records, "
        "and providers shall not see that access was restricted.",
        "EHDS Art. 8",
        metadata={"instrument": "EHDS"},
    )
    question = "Under the EHDS, can health data be hidden from a patient?"
    assert "[Source 2]" in compose(question, [uk_note, article], None).split(".")[0] + "."


def test_a_question_naming_a_provision_is_answered_from_it_when_the_evidence_holds_it():
    other = block(  # another article's list of conditions, a closer match to "condition ... health data processed"
        "4. A Member State may make health data processed for care available provided that all of the following "
        "conditions are fulfilled: (a) the extra condition of a public interest; (b) the data are processed securely.",
        "EHDS Art. 71(4)",
    )
    named = block(
        "3. The personal data referred to in paragraph 1 may be processed for the purposes referred to in point (h) "
        "of paragraph 2 where those data are processed by a professional subject to professional secrecy.",
        "GDPR Art. 9(3)",
        scores=Scores(reference_match=True),
    )
    named.confidence = 0.5
    answer = compose(
        "What extra condition does Article 9(3) add for health data processed under point (h)?", [other, named], None
    )
    assert answer.startswith("The personal data referred to in paragraph 1") and "[Source 2]" in answer, answer


def test_an_amount_question_about_a_policy_is_not_led_by_the_definition_of_its_subject():
    definition = clause(
        "2.49 Room Rent\nRoom Rent means the amount charged by a Hospital towards Room and boarding expenses.",
        "Wording cl. 2.49",
        section_key="definitions",
    )
    limit = clause(
        "3.1.1.1 Room charges\nRoom charges per day shall be payable up to 1% of the Sum Insured.",
        "Wording cl. 3.1.1.1",
        section_key="benefits",
    )
    answer = compose("What is the room rent limit?", [definition, limit], None)
    assert answer.startswith("Room charges per day shall be payable up to 1% of the Sum Insured [Source 2]")


def test_an_answer_opening_with_this_regulation_names_the_regulation():
    scope = (
        "3. This Regulation applies to the processing of personal data of data subjects who are in the Union by a "
        "controller not established in the Union, where the processing relates to the offering of goods or services."
    )
    gdpr = block(scope, "GDPR Art. 3(2)", metadata={"instrument": "GDPR"})
    answer = compose("Does the GDPR apply to a company outside the Union offering services here?", [gdpr], None)
    assert "the gdpr applies to the processing" in answer.lower() and "This Regulation" not in answer
    assert not fragments(answer)
    unnamed = block(scope, "Art. 3(2)")  # no instrument recorded: quoted as the source has it
    assert "This Regulation applies" in compose("Does it apply to a company outside the Union?", [unnamed], None)


def test_a_point_completes_the_modal_of_its_lead_in_for_a_yes_no_opener():
    text = (
        "Where requests from a data subject are manifestly unfounded or excessive, the controller may either: "
        "(b) refuse to act on the request."
    )
    assert yes_no_opener("Can we refuse a subject access request that is excessive?", text) == (
        "Yes, subject to conditions: "
    )
    assert yes_no_opener("Can we charge for a subject access request?", text) == ""  # not the act asked about


def test_a_sentence_announcing_a_list_kept_elsewhere_is_not_quoted_alone():
    exclusions = clause(
        "5. Exclusions\nThe Company shall not be liable to make any payment under this Rider in respect of any "
        "expenses incurred by an Insured Person in connection with the following.\nThe Company may seek "
        "confirmation from the treating doctor that an expense is not excluded under this Section.",
        "Rider cl. 5",
        section_key="exclusions",
        coverage_type="not_covered",
    )
    answer = compose("What is not covered by the rider?", [exclusions], None)
    assert "the following" not in answer


def test_a_sentence_is_read_under_its_passage_s_title():
    from language.support import score_sentences

    question = "How should staff report security incidents?"
    sentence = "A report is made to senior management within 12 hours of detection."
    plain = score_sentences(question, [[sentence]], None)[0]
    titled = score_sentences(question, [[sentence]], None, titles=["Responding to incidents"])[0]
    assert "incid" in titled.terms and "incid" not in plain.terms and titled.score > plain.score


def test_the_coverage_line_follows_the_standard_exclusion_code_of_the_quoted_clause():
    from core.types import Citation
    from generation.blocks import coverage_line

    waiting = clause(
        "1. Waiting Periods\no. Maternity: Code - Excl18 i. Medical treatment expenses traceable to childbirth.",
        "Optima cl. 1",
        section_key="waiting_period",
        coverage_type="conditional",
    )
    cited = [Citation(source=1, citation="Optima cl. 1", document="Optima")]
    maternity = "Maternity: Code - Excl18 i. Medical treatment expenses traceable to childbirth [Source 1]."
    assert coverage_line(maternity, cited, [waiting])[1] == "not_covered"  # an exclusion under a waiting heading
    pre_existing = "Pre-Existing Diseases: Code- Excl01 excluded until the expiry of 36 months [Source 1]."
    assert coverage_line(pre_existing, cited, [waiting])[1] == "conditional"  # Excl01-03 are waiting periods
    assert coverage_line("Maternity expenses are paid after 2 years [Source 1].", cited, [waiting])[1] == "conditional"


def test_a_clause_of_a_conditional_benefit_saying_what_it_does_not_cover_is_not_labelled_covered():
    from core.types import Citation
    from generation.blocks import coverage_line

    maternity = clause(
        "3.7 Maternity Benefit\nAfter the maternity waiting period, the Company will indemnify Maternity Expenses up "
        "to Rs. 30,000 per delivery. Expenses of the newborn baby are not covered under this Rider.",
        "Rider cl. 3.7",
        section_key="benefits",
        coverage_type="conditional",
    )
    cited = [Citation(source=1, citation="Rider cl. 3.7", document="Rider")]
    newborn = "Expenses of the newborn baby are not covered under this Rider [Source 1]."
    assert coverage_line(newborn, cited, [maternity])[1] == "not_covered"
    waiting = "Pre-existing diseases are not covered until 36 months of cover [Source 1]."  # a wait, not an exclusion
    assert coverage_line(waiting, cited, [maternity])[1] == "conditional"
    assert (
        coverage_line("Maternity Expenses are paid after the wait [Source 1].", cited, [maternity])[1] == "conditional"
    )


EHDS_9_2 = (
    "2. The information referred to in paragraph 1 shall be given through electronic health data access services, "
    "free of charge and without delay. It shall include at least:\n"
    "(a) information on the healthcare provider or other individuals who accessed the personal electronic "
    "health data;\n"
    "(b) the date and time of access;\n"
    "(c) which personal electronic health data were accessed."
)
GDPR_9_2 = (
    "2. Paragraph 1 shall not apply if one of the following applies:\n"
    "(a) the data subject has given explicit consent to the processing;\n"
    "(b) processing is necessary to protect the vital interests of the data subject; or\n"
    "(c) processing is necessary for the purposes of preventive or occupational medicine."
)


def test_points_that_make_one_whole_are_quoted_together_and_alternatives_one_by_one():
    asked = "Can I find out which doctors looked at my record? Would it tell me the time?"
    answer = compose(asked, [block(EHDS_9_2, "EHDS Art. 9(2)")], None)
    # the point that matched best came with the two others its lead-in includes, and with what "It" stands for
    assert all(item in answer for item in ("healthcare provider", "the date and time of access", "which personal"))
    assert answer.startswith("The information referred to") and fragments(answer) == []
    # alternatives ("one of the following applies ...; or"): the point that fits answers alone
    alternative = compose("Can a hospital rely on explicit consent?", [block(GDPR_9_2, "GDPR Art. 9(2)")], None)
    assert "explicit consent" in alternative and "vital interests" not in alternative


def test_a_principle_leads_when_a_commentary_on_it_says_nearly_the_same():
    principle = (
        "The duty to share information for individual care is as important as the duty to protect patient "
        "confidentiality. Clinicians who share information for someone's care should be supported by the "
        "policies of their employers and regulators."
    )
    commentary = "Clinicians who share information for someone's care are backed up by their employers' policies."
    blocks = [
        block(commentary, "Commentary: sharing for care", authority="commentary"),
        block(principle, "Caldicott Principle 7", authority="guidance"),
    ]
    question = "Whose policies are supposed to back clinicians up when they share information for someone's care?"
    answer = compose(question, blocks, None)
    assert "[Source 2]" in answer.split("].")[0] + "]"  # the principle's statement comes first
    # against a recital the same principle does not lead: a recital outranks guidance
    recital = block(commentary, "GDPR Recital 1", authority="recital")
    assert "[Source 1]" in compose(question, [recital, blocks[1]], None).split("].")[0] + "]"


def test_asked_how_long_a_policy_clause_stating_a_period_leads_over_one_stating_none():
    blocks = [
        clause(
            "Pre-hospitalisation expenses before admission are covered far back within this sub-limit.",
            "Rider cl. 3.1.2",
        ),
        clause(
            "The Company will indemnify Medically Necessary Treatment expenses incurred in the 30 days immediately "
            "before the date of admission and in the 60 days after discharge.",
            "Rider cl. 3.2",
        ),
    ]
    answer = compose("How far back before admission are pre-hospitalisation expenses covered?", blocks, None)
    assert answer.startswith("The Company will indemnify") and "30 days" in answer.split("[Source 2]")[0]


TOOLKIT = (
    "The Data Security and Protection Toolkit (DSPT) is an online self-assessment that organisations use to show "
    "that they practise good data security. It is run by NHS England and replaced the Information Governance "
    "Toolkit in April 2018. Each Data Security and Protection Toolkit assessment must be published by 30 June and "
    "signed off by the Senior Information Risk Owner."
)


def test_a_lead_opening_with_it_names_its_subject_instead_of_quoting_the_sentence_introducing_it():
    answer = compose(
        "When did the Data Security and Protection Toolkit replace the IG Toolkit?",
        [block(TOOLKIT, "Commentary: DSPT", authority="commentary")],
        None,
    )
    assert answer.startswith("The Data Security and Protection Toolkit (DSPT) is run by NHS England")
    assert "April 2018" in answer.split("[Source 1]")[0] and "online self-assessment" not in answer
    assert fragments(answer) == []


def test_what_a_thing_is_does_not_answer_who_does_something_with_it():
    answer = compose(
        "Who should sign off our Data Security and Protection Toolkit?",
        [block(TOOLKIT, "Commentary: DSPT", authority="commentary")],
        None,
    )
    assert "Senior Information Risk Owner" in answer.split("[Source 1]")[0]


def test_a_period_of_continuous_months_is_a_period():
    # asked how long about a policy, only clauses stating a period may lead: "60 continuous months" states one
    assert _CUES["deadline"].search("After completion of 60 continuous months of coverage under this Rider")
    assert not _CUES["deadline"].search("After completion of the coverage under this Rider")


def test_asked_who_may_do_something_the_statement_granting_it_leads_over_duties():
    blocks = [
        block(
            "Health data access bodies shall refuse every health data access application that does not fulfil "
            "the requirements.",
            "EHDS Art. 68(3)",
        ),
        block(
            "Any natural or legal person may submit a health data access application to a health data access body.",
            "EHDS Art. 67(1)",
        ),
    ]
    answer = compose("Who is allowed to apply to a health data access body for data?", blocks, None)
    assert answer.startswith("Any natural or legal person may submit")


def test_a_statement_of_what_follows_the_event_the_asker_is_past_answers_before_one_on_the_event_itself():
    issuing = block(
        "The health data access body shall issue or refuse a data permit within three months of receiving a complete "
        "health data access application.",
        "EHDS Art. 68(4)",
    )
    after = block(
        "Once the data permit has been issued, the health data access body shall make the electronic health data "
        "available to the health data user within two months.",
        "EHDS Art. 68(7)",
    )
    asked = "Our data permit has just been issued. How long until we actually get the data?"
    assert compose(asked, [issuing, after], None).startswith("Once the data permit has been issued")
    # before the event, the statement on the event answers
    assert compose("How long does it take to get a data permit?", [issuing, after], None).startswith("The health")


def test_asked_whether_a_situation_is_what_the_law_defines_the_definition_answers():
    definition = block(
        "‘profiling’ means any form of automated processing of personal data consisting of the use of personal data "
        "to evaluate certain personal aspects relating to a natural person, in particular to predict their behaviour.",
        "GDPR Art. 4(4)",
    )
    right = block(
        "The data subject has the right not to be subject to a decision based solely on automated processing, "
        "including profiling, which produces legal effects concerning him or her.",
        "GDPR Art. 22(1)",
    )
    asked = "We use patients' records to predict who is likely to miss appointments. Is that profiling?"
    assert compose(asked, [right, definition], None).startswith("‘profiling’ means")
    assert compose("Can I refuse a decision made only by profiling?", [right, definition], None).startswith("The data")


ART_32_1 = (
    "1. The controller and the processor must implement appropriate technical and organisational measures to ensure a "
    "level of security appropriate to the risk, taking into account the state of the art, the costs of implementation, "
    "the nature, scope, context and purposes of processing and the risk of varying likelihood and severity for the "
    "rights and freedoms of natural persons. Those measures include, among others and as appropriate:\n"
    "(a) pseudonymisation and encryption of personal data;\n"
    "(b) the ability to restore, in a timely manner, the availability of and access to personal data after a "
    "physical or technical incident."
)


def test_a_point_of_a_list_of_measures_leads_over_a_commentary_and_is_never_cut_after_its_antecedent():
    commentary = block(
        "A personal data breach covers availability incidents such as ransomware that locks clinicians out of records.",
        "Commentary: breaches",
        authority="commentary",
    )
    asked = "After the ransomware incident, what does the law say about restoring access to records in a timely manner?"
    answer = compose(asked, [commentary, block(ART_32_1, "GDPR Art. 32(1)")], None)
    assert answer.startswith("The controller and the processor must implement")  # the measures' antecedent ...
    assert "the ability to restore, in a timely manner" in answer  # ... and the measure itself, past the budget


def test_asked_how_many_days_a_period_in_hours_answers():
    notice = block(
        "The Insured Person shall notify the Company at least 48 hours before a planned admission.", "R cl. 7.1"
    )
    window = block("Expenses in the 30 days before admission are covered if the claim is admitted.", "R cl. 3.2")
    asked = "How many days in advance must I tell the insurer about a planned admission?"
    assert compose(asked, [window, notice], None).startswith("The Insured Person shall notify")


def test_asked_when_a_law_starts_applying_the_date_it_applies_from_answers_not_its_publication_date():
    published = block(
        "The European Health Data Space Regulation (EHDS), after applying the ordinary legislative procedure, was "
        "published on 5 March 2025.",
        "Commentary: EHDS",
    )
    applies = block("The European Health Data Space Regulation (EHDS) applies from 26 March 2027.", "EHDS Art. 105")
    answer = compose("When does the EHDS start applying?", [published, applies], None)
    assert answer.startswith("The European Health Data Space Regulation (EHDS) applies from 26 March 2027")


def test_asked_for_a_sum_of_money_no_evidence_states_the_answer_is_the_refusal_not_a_statement_without_one():
    period = block(
        "The health data access body shall issue or refuse a data permit within three months of receiving a complete "
        "application, and may extend that period by up to three additional months.",
        "EHDS Art. 68(4)",
    )
    fines = block(
        "Infringements of the obligations of the controller shall be subject to administrative fines up to "
        "10 000 000 EUR, or up to 2 % of the total worldwide annual turnover.",
        "GDPR Art. 83(4)",
    )
    asked = "What's the maximum fine a health data access body can impose on a researcher breaking a data permit?"
    assert compose(asked, [period], None) == REFUSAL  # a period is no sum, however "up to" it reads
    assert compose("How long does the health data access body have to decide on a data permit?", [period], None) != (
        REFUSAL
    )
    answered = compose("What is the maximum fine for breaking the controller's obligations?", [period, fines], None)
    assert answered.startswith("Infringements") and "10 000 000 EUR" in answered
    # a premium asked, sums insured stated: no premium is stated; a cost asked, an amount stated: that is its cost
    options = clause("The Sum Insured may be chosen from Rs. 3,00,000 and Rs. 5,00,000 per Insured Person.", "cl. 1.3")
    assert compose("What would the premium be for a 40-year-old with a 5 lakh sum insured?", [options], None) == REFUSAL
    cataract = clause("Cataract Surgery: Rs. 60,000 per eye.", "cl. 3.1.2")
    assert compose("What does a cataract operation cost me under the rider?", [cataract], None) != REFUSAL


def test_a_yes_no_question_ending_with_a_defined_term_is_answered_by_its_definition():
    definition = block(
        "(1) ‘personal data’ means any information relating to an identified or identifiable natural person.",
        "GDPR Art. 4(1)",
    )
    commentary = block(
        "Processing of personal data from patients by an individual physician should not be considered large scale, "
        "so a patient's records at one surgery do not need a DPIA on that ground.",
        "Commentary: DPIA",
        authority="commentary",
    )
    answer = compose("Is a patient's postcode on its own personal data?", [commentary, definition], None)
    assert "‘personal data’ means" in answer.split(" [Source")[0]
    sharing = block("Clinics may share personal data with another provider for direct care.", "Commentary: sharing")
    asked_if_allowed = compose("Are clinics allowed to share personal data?", [definition, sharing], None)
    assert asked_if_allowed.startswith("Yes: clinics may share")  # asks about sharing, not what a term means


def test_a_statement_that_barely_answers_from_a_weakly_graded_block_is_not_given_as_the_answer(embedder):
    """It shares the question's words ("consent", "object") but says nothing of stopping marketing: quoting it
    as the answer is worse than saying the sources do not say."""
    question = "A clinic keeps emailing me offers for cosmetic treatments. If I object, do they have to stop?"
    unrelated = "Consent to examination or treatment is a clinical and legal requirement in its own right."
    on_point = "Clinics must stop sending marketing emails to a patient who objects to receiving them."

    def graded(text: str, confidence: float) -> Evidence:
        return block(text, "Commentary: consent", authority="commentary").model_copy(update={"confidence": confidence})

    embed = embedder.embed_documents
    assert compose(question, [graded(unrelated, 0.45)], embed) == REFUSAL
    assert compose(question, [graded(on_point, 0.45)], embed).startswith("Yes")
    assert compose(question, [graded(unrelated, 0.9)], embed) != REFUSAL  # graded a strong match: its grade stands
    # ungraded evidence (plain RAG) has no grade to weigh: the support floor alone decides
    assert compose(question, [graded(unrelated, 0.45).model_copy(update={"confidence": None})], embed) != REFUSAL


def test_the_law_s_verb_for_the_plain_act_and_a_negating_subject_answer_yes_or_no():
    # "need" asked of a thing is answered by "is required"; "change" by "alter"; "Neither ... nor ... shall" is no
    adequacy = "No specific authorisation is required for such a transfer."
    assert yes_no_opener("Do we need special permission to send data to an adequate country?", adequacy) == "No: "
    assert yes_no_opener("Do we need to keep a log?", adequacy) == ""  # "need to": the act is keeping
    alter = (
        "Neither natural persons nor their representatives shall be able to directly alter the electronic health "
        "data that health professionals have inserted."
    )
    assert yes_no_opener("Can I change what my doctor wrote in my record?", alter) == "No: "
    assert yes_no_opener("Can I read what my doctor wrote in my record?", alter) == ""
    # the act of a question whose asking sentence names none is its plain phrase's ("hand work to another company")
    engage = "A processor must not engage another processor unless the controller has given written authorisation."
    question = "Our IT supplier wants to hand some of the work to another company. Are they allowed to?"
    assert yes_no_opener(question, engage) == "Only in some cases: "


def test_asked_yes_or_no_the_statement_beside_the_lead_that_rules_on_the_act_leads():
    art_45_1 = (
        "1. Personal data may be transferred to a third country where the Commission has decided that the third "
        "country ensures an adequate level of protection. No specific authorisation is required for such a transfer."
    )
    answer = compose(
        "Do we need special permission to transfer personal data to a third country the Commission found adequate?",
        [block(art_45_1, "GDPR Art. 45(1)")],
        None,
    )
    assert answer.startswith("No: no specific authorisation is required for such a transfer [Source 1].")
    assert "Personal data may be transferred to a third country" in answer  # the rule it rests on follows


def test_asked_when_a_duty_arises_the_statement_of_its_circumstances_leads_over_one_on_doing_it():
    review = (
        "11. Where necessary, the controller must carry out a review to assess whether processing is performed in "
        "accordance with the data protection impact assessment."
    )
    advice = (
        "2. When carrying out a data protection impact assessment, the controller must seek the advice of the data "
        "protection officer."
    )
    trigger = (
        "1. Where a type of processing is likely to result in a high risk to the rights and freedoms of natural "
        "persons, the controller must, before the processing, carry out a data protection impact assessment."
    )
    question = "When do we have to carry out a data protection impact assessment?"
    evidence = [block(review, "GDPR Art. 35(11)"), block(advice, "GDPR Art. 35(2)"), block(trigger, "GDPR Art. 35(1)")]
    assert compose(question, evidence, None).startswith("Where a type of processing is likely to result in a high risk")
    assert not _CUES["condition"].search(review) and not _CUES["condition"].search(advice)


def test_the_same_clause_of_two_variants_of_a_wording_is_not_boilerplate():
    notify = (
        "7.1 Notification of Claim\nThe Insured Person shall notify the Company: (a) in the event of emergency "
        "Hospitalisation, within 48 hours of admission; (b) in the event of planned Hospitalisation, at least 48 "
        "hours before admission."
    )
    other = (
        "7.5 Critical Illness Claims\nA claim under Clause 3.9 shall be notified within 30 days of diagnosis and "
        "supported by the specialist's reports."
    )
    evidence = [
        block(notify, "Rider (Individual) cl. 7.1", doc="individual", document_type="policy_wording"),
        block(notify, "Rider (Group) cl. 7.1", doc="group", document_type="policy_wording"),
        block(other, "Rider (Individual) cl. 7.5", doc="individual", document_type="policy_wording"),
    ]
    answer = compose("Within how many hours must I notify the insurer?", evidence, None)
    assert answer.startswith("The Insured Person shall notify the Company")


def test_asked_whether_treatment_is_covered_in_the_first_year_the_clause_naming_the_illness_leads():
    first_30_days = (
        "4.3 First 30 Days Waiting Period\nExpenses related to the treatment of any Illness within 30 days from the "
        "first commencement date of this Rider shall be excluded, except claims arising due to an Accident."
    )
    specified = (
        "4.2 Specified Disease or Procedure Waiting Period\nExpenses related to the treatment of the diseases and "
        "procedures listed below shall be excluded until the expiry of 24 months of continuous coverage:\n"
        "(a) Cataract and other diseases of the eye;\n(b) Hernia of all types, hydrocele and varicocele;\n"
        "(c) Varicose veins and varicose ulcers."
    )
    evidence = [clause(first_30_days, "Rider cl. 4.3"), clause(specified, "Rider cl. 4.2")]
    answer = compose("Can I get treated for a hernia in my first year on the rider?", evidence, None)
    assert "24 months" in answer and "Hernia of all types" in answer and "30 days" not in answer


def test_asked_which_provision_says_something_the_answer_names_it_first():
    principle_8 = (
        "Caldicott Principle 8 - Inform patients and service users about how their confidential information is used\n\n"
        "A range of steps should be taken so that there are no surprises for patients and service users."
    )
    principle_6 = "Caldicott Principle 6 - Comply with the law\n\nEvery use of confidential information must be lawful."
    evidence = [block(principle_8, "Caldicott Principle 8"), block(principle_6, "Caldicott Principle 6")]
    answer = compose(
        "Which Caldicott principle is about telling patients how their information is used?", evidence, None
    )
    assert answer.startswith(
        "Caldicott Principle 8 (Inform patients and service users about how their confidential information is used): "
        "A range of steps should be taken"
    )
    assert not fragments(answer)


def test_asked_what_someone_has_to_do_a_statement_of_their_duty_leads_over_a_description():
    described = block(
        "A processor is a body that processes personal data on behalf of the controller, including in the case of a "
        "personal data breach.",
        "Commentary",
    )
    duty = block(
        "2. The processor must notify the controller without undue delay after becoming aware of a personal data "
        "breach.",
        "GDPR Art. 33(2)",
    )
    answer = compose("Our processor found a personal data breach. What do they have to do?", [described, duty], None)
    assert answer.startswith("The processor must notify the controller without undue delay"), answer


def test_asked_what_a_named_principle_says_the_answer_opens_with_its_title_which_is_the_principle():
    principle_1 = (
        "Caldicott Principle 1 - Justify the purpose(s) for using confidential information\n\n"
        "Each proposed use or transfer of confidential information should be clearly defined, scrutinised and "
        "documented."
    )
    named = block(principle_1, "Caldicott Principle 1", scores=Scores(reference_match=True))
    answer = compose("What is the first Caldicott principle about?", [named], None)
    assert answer.startswith(
        "Caldicott Principle 1 (Justify the purpose(s) for using confidential information): Each proposed use"
    )


def test_with_no_act_in_the_asking_sentence_no_verb_of_the_preamble_gives_a_yes_or_no():
    opt_out = (
        "The national data opt-out is a service that lets patients choose that their confidential patient data is "
        "not used for research and planning."
    )
    question = "The app won't let me use it unless I agree to share my data for advertising. Is that real consent?"
    assert yes_no_opener(question, opt_out) == ""
    children = "Dependent children may be covered from 91 days to 25 years of Age."
    assert yes_no_opener("Can my children be covered under the individual rider?", children) == "Yes: "


def test_a_country_asked_about_is_the_member_state_a_provision_binds_and_keeps_its_capital_after_the_opener():
    designate = "Member States shall designate one or more health data access bodies."
    answer = compose("Does each EU country have to set up a health data access body?", [block(designate, "EHDS")], None)
    assert answer.startswith("Yes: Member States shall designate")
    assert compose(
        "Does the GDPR apply to a household activity?",
        [block("This Regulation does not apply to a household activity.", "GDPR Art. 2(2)")],
        None,
    ).startswith("No: this Regulation does not apply")  # a determiner is lower-cased, a name is not


def test_a_mention_of_sub_limits_states_no_amount_while_a_figure_or_the_table_it_is_in_does():
    amount = _CUES["amount"]
    assert not amount.search("The Company will pay the benefits, subject to the Sum Insured and the sub-limits.")
    assert amount.search("The Sum Insured may be chosen from Rs. 3,00,000 and Rs. 5,00,000.")
    assert amount.search("The liability shall be up to the limit as shown in the Table of Benefits.")
    assert amount.search("Payable up to 25% of Sum Insured.") and amount.search("a maximum of 30 days")
    # a percentage followed by a space is an amount ("%" ends no word)
    assert amount.search("the Company will pay 100% of the Critical Illness Sum Insured as a lump sum")
    assert amount.search("interest at a rate 2% above the bank rate")
    operative = clause(
        "1.2 Operative Clause\nThe Company will pay the benefits in Section 3, subject to the Sum Insured, the "
        "limits and sub-limits in this Rider.",
        "Rider cl. 1.2",
    )
    eligibility = clause(
        "1.3 Eligibility\nThe Sum Insured may be chosen from Rs. 3,00,000, Rs. 5,00,000 and Rs. 10,00,000.",
        "Rider cl. 1.3",
    )
    answer = compose("What sum insured options are there on the rider?", [operative, eligibility], None)
    assert answer.startswith("The Sum Insured may be chosen from Rs. 3,00,000"), answer


def test_the_name_of_the_provision_an_answer_opens_with_takes_none_of_its_word_budget():
    first = "Natural persons have the right to access " + " ".join(["their electronic health data"] * 16) + "."
    second = "Access shall be given immediately, free of charge and in an easily readable, consolidated form."
    text = (
        f"Article 3 - Right of natural persons to access their personal electronic health data\n\n1. {first} {second}"
    )
    named = block(text, "EHDS Art. 3(1)", scores=Scores(reference_match=True))
    answer = compose("What does EHDS Article 3(1) give patients?", [named], None)
    assert answer.startswith(
        "EHDS Art. 3(1) (Right of natural persons to access their personal electronic health data): "
    )
    assert "free of charge" in answer, answer


def test_a_use_the_law_prohibits_is_a_no_and_a_law_question_about_insurers_keeps_their_words():
    prohibited = "Processing health data obtained through a data permit is prohibited for setting insurance premiums."
    question = "Can my insurer use my EHDS health data to set my premium?"
    assert yes_no_opener(question, prohibited).startswith("No")
    banned = "Health data users are prohibited from using the data for setting insurance premiums."
    assert yes_no_opener("Are insurers prohibited from using EHDS data for premiums?", banned).startswith("Yes")
    from language.question import content_terms

    assert {"insur", "polici"} <= content_terms("Can my insurer see my EHDS record to price my policy?")
    assert not {"insur", "polici"} & content_terms("Does my policy cover a knee operation?")  # a wording's frame


def test_a_point_for_the_case_the_question_names_leads_over_the_first_point_of_the_list():
    notify = (
        "7.1 Notification of Claim\nThe Insured Person shall notify the Company: (a) in the event of emergency "
        "Hospitalisation, within 48 hours of admission or before discharge from the Hospital; (b) in the event of "
        "planned Hospitalisation, at least 48 hours before admission."
    )
    evidence = [clause(notify, "Rider cl. 7.1")]
    planned = compose("I have a planned operation. How much notice do I give the insurer?", evidence, None)
    assert "(b) in the event of planned Hospitalisation, at least 48 hours before admission" in planned
    assert "emergency" not in planned
    emergency = compose("I was taken to hospital in an emergency. When must I tell the insurer?", evidence, None)
    assert "(a) in the event of emergency Hospitalisation" in emergency and "planned" not in emergency


def test_asked_who_should_be_able_to_do_something_a_statement_saying_who_may_leads_over_one_on_sharing():
    principle_4 = (
        "Caldicott Principle 4 - Access to confidential information should be on a strict need-to-know basis\n\n"
        "Only those who need access to confidential information should have it, and then only to the items that "
        "they need to see."
    )
    principle_7 = (
        "Caldicott Principle 7 - The duty to share information can be as important as the duty to protect patient "
        "confidentiality\n\nHealth and social care professionals should have the confidence to share confidential "
        "information in the best interests of patients and service users."
    )
    evidence = [block(principle_7, "Caldicott Principle 7"), block(principle_4, "Caldicott Principle 4")]
    answer = compose("Who should be able to access confidential patient information?", evidence, None)
    assert answer.startswith("Only those who need access to confidential information should have it"), answer


def test_asked_how_long_a_statement_of_the_right_does_not_lead_over_the_one_stating_its_deadline(embedder):
    commentary = (
        "Commentary - Subject access requests\nUnder GDPR Art. 15(1) a patient has the right of access to a copy of "
        "everything the hospital holds about them. Timing. GDPR Art. 12(3) requires the controller to respond "
        "without undue delay and in any event within one month of receipt of the request."
    )
    evidence = [block(commentary, "Commentary: subject access requests", authority="commentary")]
    question = "How long has a hospital got to respond when a patient asks for everything it holds about them?"
    answer = compose(question, evidence, embedder.embed_documents)
    assert "within one month" in answer.split("[Source")[0], answer


def test_a_point_that_says_nothing_asked_about_leads_only_with_its_lead_in_and_every_point():
    fines = (
        "5. Infringements of the following provisions are subject to administrative fines up to 20 000 000 EUR or, "
        "in the case of an undertaking, up to 4 % of the total worldwide annual turnover, whichever is higher:\n"
        "(a) the basic principles for processing under Articles 5, 6, 7 and 9;\n"
        "(b) the data subjects' rights under Articles 12 to 22;\n"
        "(c) transfers of personal data to a recipient in a third country under Articles 44 to 49."
    )
    answer = compose("What is the maximum fine under the GDPR?", [block(fines, "GDPR Art. 83(5)")], None)
    assert "20 000 000 EUR" in answer and all(point in answer for point in ("(a) the basic", "(b) the data", "(c) tr"))


def test_a_question_between_alternatives_gets_no_yes_or_no():
    statement = "Misuse, such as opening a relative's record out of curiosity, is unauthorised access and an offence."
    assert yes_no_opener("Is that only a disciplinary matter or is it more serious than that?", statement) == ""
    withdraw = "The data subject shall have the right to withdraw his or her consent at any time."
    assert yes_no_opener("Can I withdraw my consent?", withdraw) == "Yes: "  # a plain yes/no question still gets one


def test_the_clause_a_lead_refers_to_for_its_condition_follows_it_whatever_the_word_budget():
    benefit = (
        "3.9 Critical Illness Lump Sum Benefit\nIf an Insured Person is first diagnosed during the Policy Period with "
        "a Critical Illness, after the waiting period in Clause 4.5, the Company will pay 100% of the Critical "
        "Illness Sum Insured as a lump sum, provided the Insured Person survives for a survival period of 30 days "
        "after the date of diagnosis and the diagnosis is confirmed by a specialist and by the investigations "
        "the Company requires."
    )
    waiting = (
        "4.5 Critical Illness Waiting Period\nNo benefit is payable under Clause 3.9 for a Critical Illness whose "
        "signs or symptoms first occur, or which is first diagnosed, within 90 days of the first commencement date "
        "of the cover under Clause 3.9 for that Insured Person, whatever the Sum Insured and whoever the insurer."
    )
    wording = {"document_type": "policy_wording", "doc": "rider"}  # two clauses of one wording
    evidence = [block(benefit, "Rider cl. 3.9", **wording), block(waiting, "Rider cl. 4.5", **wording)]
    question = "I was diagnosed with cancer two months after joining. Will they pay the lump sum?"
    answer = compose(question, evidence, None)
    assert "lump sum" in answer.split("[Source 1]")[0] and "within 90 days" in answer and "[Source 2]" in answer


def test_asked_whether_something_costs_the_free_rule_of_the_same_law_leads_before_the_fee_it_allows():
    copies = block(
        "3. The controller shall provide a copy of the personal data undergoing processing. For any further copies "
        "requested by the data subject, the controller may charge a reasonable fee based on administrative costs.",
        "GDPR Art. 15(3)",
        metadata={"instrument": "GDPR"},
    )
    free = block(
        "5. Any communication and any actions taken under Articles 15 to 22 shall be provided free of charge.",
        "GDPR Art. 12(5)",
        metadata={"instrument": "GDPR"},
    )
    ehds = block(
        "Natural persons have the right to download free of charge an electronic copy of their health data.",
        "EHDS Art. 3(2)",
        metadata={"instrument": "EHDS"},
    )
    question = "Can the hospital charge me for a copy of my notes?"
    answer = compose(question, [copies, ehds, free], None)
    assert answer.startswith("No: ") and answer.split(" [Source 3]")[0].endswith("free of charge"), answer
    # another law's free access is not the rule the fee is an exception to
    assert not compose(question, [copies, ehds], None).startswith("No: natural persons")


def test_the_asker_s_own_duty_is_told_apart_from_the_other_party_s():
    from generation.opener import puts_the_duty_on_the_asker

    question = "How long do I have to claim after discharge?"
    insured = (
        "Where the Cashless Facility is not used, the Insured Person shall submit the claim documents within 30 days."
    )
    assert puts_the_duty_on_the_asker(question, insured)
    assert not puts_the_duty_on_the_asker(question, "The Company shall settle or reject a claim within 15 days.")
    assert not puts_the_duty_on_the_asker("How long does the insurer have to pay?", insured)  # not the asker's duty


def test_a_statement_on_where_a_law_applies_answers_yes_or_no_only_for_the_case_it_names():
    scope = (
        "This Regulation does not apply to the processing of personal data: (a) in the course of an activity which "
        "falls outside the scope of Union law; (b) by a natural person in the course of a purely personal activity."
    )
    assert yes_no_opener("Does the GDPR apply to dead people?", scope) == ""  # none of its cases
    assert yes_no_opener("Does the GDPR apply to a purely personal activity?", scope) == "No: "
    anonymous = "The data protection principles do not apply to anonymous information."
    assert yes_no_opener("Does the GDPR still apply if I anonymise the data?", anonymous) == "No: "  # its own case


def test_charging_the_person_asked_about_is_a_cost_question():
    free = "Any communication and any actions taken under Articles 15 to 22 shall be provided free of charge."
    assert yes_no_opener("A former patient wants her records. Are we allowed to charge her for it?", free) == "No: "
    assert yes_no_opener("Can we charge patients for copies?", free) == "No: "


ART_36_2 = (
    "2. If the supervisory authority considers that the intended processing referred to in paragraph 1 would "
    "infringe this Regulation, it must give written advice to the controller within a period of up to eight weeks "
    "of receiving the request for consultation. That period may be extended by six weeks, taking into account the "
    "complexity of the intended processing. The supervisory authority must inform the controller of any such "
    "extension, together with the reasons for the delay, within one month of receiving the request for consultation."
)


def test_a_lead_naming_such_a_thing_is_followed_by_the_statements_saying_what_it_is():
    """'... of any such extension within one month' alone does not say what extension: the six weeks, and the
    eight weeks they extend, follow it in the source's order."""
    answer = compose(
        "If the regulator needs longer than the usual period, by when must it tell us about the extension?",
        [block(ART_36_2, "GDPR Art. 36(2)")],
        None,
    )
    assert answer.startswith("The supervisory authority must inform the controller of any such extension")
    assert answer.index("eight weeks") < answer.index("six weeks")
    assert fragments(answer) == []


def test_such_naming_what_its_own_sentence_said_needs_nothing_before_it():
    from language.coherence import refers_to_what_precedes

    assert refers_to_what_precedes("The authority must inform the controller of any such extension within a month.")
    assert not refers_to_what_precedes("Where processing has been restricted, such processing may continue.")
    assert not refers_to_what_precedes("The controller shall take such measures as are necessary.")
    assert not refers_to_what_precedes("Data rendered anonymous in such a manner that no one is identifiable.")


def test_a_paragraph_opening_in_such_cases_follows_the_statement_of_the_paragraph_before_it_takes_up():
    """8(2)'s "In such cases ..." is the answer, and the case is 8(1)'s second sentence (the one it repeats), not
    its first."""
    first = block(
        "1. Processing of the personal data of a child is lawful where the child is at least 16 years old. Where the "
        "child is below the age of 16 years, such processing is lawful only if consent is given or authorised by the "
        "holder of parental responsibility over the child.",
        "GDPR Art. 8(1)",
    )
    second = block(
        "2. In such cases the controller shall make reasonable efforts to verify that consent is given or authorised "
        "by the holder of parental responsibility over the child.",
        "GDPR Art. 8(2)",
    )
    answer = compose("Must we make reasonable efforts to verify a parent's consent?", [second, first], None)
    opening, _, rest = answer.partition(" [Source 2]. ")  # 8(1), then 8(2)'s own words
    assert opening.endswith(
        "such processing is lawful only if consent is given or authorised by the holder of "
        "parental responsibility over the child"
    ), answer
    assert rest.startswith("In such cases the controller shall make reasonable efforts") and "[Source 1]" in rest


def test_a_provision_named_by_its_subject_is_quoted_before_a_neighbour_that_shares_the_question_s_words():
    """The Caldicott principle "about informing patients ..." names Principle 8 by its title's words."""
    sharing = block(
        "Caldicott Principle 7 - The duty to share information for individual care is as important as the duty "
        "to protect patient confidentiality\n\nProfessionals should have the confidence to share information about "
        "patients on a website when it is in their best interests.",
        "Caldicott Principle 7",
        authority="guidance",
    )
    informing = block(
        "Caldicott Principle 8 - Inform patients and service users about how their confidential information is "
        "used\n\nA range of steps should be taken so that there are no surprises for patients.",
        "Caldicott Principle 8",
        authority="guidance",
    )
    answer = compose(
        "Is a privacy notice on our website enough for the Caldicott principle about informing patients how their "
        "information is used?",
        [sharing, informing],
        None,
    )
    assert answer.startswith("A range of steps should be taken"), answer


def test_how_often_is_answered_by_a_frequency_in_words(make_services):
    """ "tested at least once a year" states how often as "annually" does: the continuity-plan standard leads, not
    another standard reviewed "at least annually"."""
    out = run_graph(
        "Under the NDG standards, how often does our plan for dealing with a ransomware attack have to be tested?",
        make_services(),
    )
    assert out.citations[0].citation == "NDG Data Security Standard 7", out.answer
    assert "at least once a year" in out.answer.split("[Source")[0]


def test_a_rule_for_a_case_the_question_does_not_describe_does_not_lead(make_services):
    """Data received from hospitals, not from the patients: Art. 14(3) says when to tell them. Neither Art. 34(1)'s
    rule "Where a personal data breach is likely to result in a high risk ..." nor a commentary's deadline for
    answering a request leads; 14(3)'s period, another paragraph of the article graded best, does."""
    out = run_graph(
        "Hospitals send us patient details; the patients never gave them to us. When must we tell them we have "
        "their data?",
        make_services(),
    )
    assert out.status == "answered" and out.citations[0].citation.startswith("GDPR Art. 14(3)"), out.answer
    assert "one month" in out.answer.split("[Source")[0]


def test_each_part_of_a_two_part_question_is_answered(make_services):
    """ "How long ..., and do we need to tell the patients too?": the 72 hours of Art. 33(1) lead, and Art. 34(1)'s
    duty to tell the people affected follows, which the lead alone left unanswered."""
    out = run_graph("How long do we have to report a breach, and do we need to tell the patients too?", make_services())
    cited = [c.citation for c in out.citations]
    assert cited[0].startswith("GDPR Art. 33(1)") and "72 hours" in out.answer.split("[Source")[0], out.answer
    assert any(c.startswith("GDPR Art. 34(1)") for c in cited) and "communicate the" in out.answer


def test_a_part_is_answered_by_what_it_asks_not_by_the_scene_both_parts_share(make_services):
    """The scene (a breach found 60 hours ago) scores Art. 33(1) high for every part; the second part asks whether
    the report may go before all the facts are known, which Art. 33(4) (information in phases) answers."""
    out = run_graph(
        "We found a breach 60 hours ago and still don't know how many patients are affected. What does our report"
        " to the regulator have to include, and can we send it before we have all the facts?",
        make_services(),
    )
    cited = [c.citation for c in out.citations]
    assert cited[0].startswith("GDPR Art. 33(3)"), out.answer
    assert any(c.startswith("GDPR Art. 33(4)") for c in cited) and "in phases" in out.answer, out.answer


def test_a_note_on_a_provision_s_history_answers_what_was_added_and_names_the_provision(make_services):
    """ "Which one was added most recently?" asks for a principle's history (a note penalised for other questions);
    the note says "This principle was added ...", so the answer names the principle it is about."""
    out = run_graph(
        "Our induction slides still list seven Caldicott principles. Is that out of date? How many are there now,"
        " and which one was added most recently?",
        make_services(),
    )
    assert out.citations[0].citation == "Caldicott Principle 8", out.answer
    assert out.answer.startswith("Caldicott Principle 8 (Inform patients and service users")
    assert "added in the December 2020 revision" in out.answer.split("[Source")[0]


def test_asked_whether_a_case_counts_as_a_kind_a_rule_for_the_kind_gives_no_yes(make_services):
    """ "Does a solo practice count as 'large scale' processing, so that I need a DPIA?" was answered "Yes: a DPIA is
    required in the case of processing on a large scale": the rule for large-scale processing, read as saying the
    case is large scale. Only a statement saying what is of the kind may open Yes or No."""
    out = run_graph(
        "I'm a dermatologist in solo private practice and keep all my patients' notes electronically. Does that count"
        " as 'large scale' processing of health data, so that I need a DPIA on that ground?",
        make_services(),
    )
    lead = out.answer.split("[Source")[0]
    assert not lead.startswith("Yes") or re.search(r"considered|classed|regarded|means", lead), out.answer


@pytest.mark.parametrize(
    ("question", "collection", "cited", "said"),
    [
        (  # a list question: 36(3)'s lead-in with its points, not 36(1)'s duty to consult, which shares the scene
            "We can't get the residual risk in our genomic risk-scoring pilot's impact assessment down, so we're going"
            " to the regulator before launch. What has to go into our submission?",
            None,
            "GDPR Art. 36(3)",
            "purposes and means of the intended processing",
        ),
        (  # "marked as restricted": 18(2) says what may still be done, not 18(1)'s list of when to restrict
            "We've marked a patient's record as restricted while we check her complaint that it's inaccurate. In the"
            " meantime can we still keep it on our servers, and could our solicitors use it if she takes us to court?",
            None,
            "GDPR Art. 18(2)",
            "with the exception of storage",
        ),
        (  # results that "went to another patient" are a breach, and telling "her" is 34(1), not the regulator's 33(1)
            "My mum's blood test results went to another patient by mistake. Does the surgery have to tell her?",
            None,
            "GDPR Art. 34(1)",
            "communicate the breach to the data subject",
        ),
        (  # "tell the insurer" asks for the claims procedure, and critical illness has its own claims clause (7.5's
            # 30 days of diagnosis, not 7.1's 48 hours of a hospitalisation)
            "My husband was diagnosed with a stroke last week and he has critical illness cover on his individual"
            " CareShield rider. By when do we have to tell the insurer, and what will we need to send?",
            "insurance",
            "CareShield Rider (Individual) cl. 7.5",
            "within 30 days of diagnosis",
        ),
    ],
)
def test_the_case_the_question_describes_picks_its_provision_to_lead(make_services, question, collection, cited, said):
    out = run_graph(question, make_services(), collection=collection)
    assert out.citations[0].citation.startswith(cited), out.answer
    assert said in out.answer.split("[Source")[0]


def test_what_the_scene_says_was_not_there_is_set_aside():
    from generation.compose import _set_aside

    assert _set_aside("40 full days on a general ward, no ICU: how much hospital daily cash is due?") == {"icu"}
    assert _set_aside("Apart from a copy of my records, what else can I get?") == {"copi"}
    assert _set_aside("It was about 18 hours, no procedure done. Is that a valid claim?") == set()  # no aside


def test_a_part_is_not_answered_from_a_passage_graded_far_below_the_lead_s(make_services):
    """ "Do we still need to keep any record of it, and what should it cover?" about a breach: Art. 33(5) answers
    both (the facts, effects and remedial action); what a DPIA "must contain" (35(7)), a passage graded far below,
    was quoted as the second part's answer."""
    out = run_graph(
        "A clinic letter went to the wrong patient last week. We assessed it as unlikely to cause any risk, so we"
        " didn't report it to the regulator. Do we still need to keep any record of it, and what should it cover?",
        make_services(),
    )
    assert out.citations[0].citation.startswith("GDPR Art. 33(5)"), out.answer
    assert "remedial action" in out.answer and "assessment must contain" not in out.answer, out.answer


def test_a_code_asked_for_is_quoted_from_the_codes_not_the_profile_s_other_bindings(make_services):
    """A video consultation is a virtual encounter: the Encounter class codes are quoted (VR), not the profile's
    list of other terminology bindings that a list question used to pick."""
    out = run_graph("Which Encounter class code should a telephone consultation get in FHIR UK Core?", make_services())
    assert out.citations[0].citation == "FHIR UK Core UKCore-Encounter", out.answer
    assert "VR (virtual)" in out.answer.split("[Source")[0]


def test_a_part_asking_how_long_is_answered_from_the_lead_s_own_provision(make_services):
    """ "Is there a quicker route, and how long does the decision take?": the accelerated procedure leads, and the
    period of that procedure (two months, the next sentence of EHDS Art. 68(6)) follows, not only the three months
    of the ordinary one."""
    out = run_graph(
        "Our ministry's public health unit wants EHDS data to track an outbreak. Is there a quicker route, and how "
        "long does the decision take?",
        make_services(),
    )
    assert out.citations[0].citation.startswith("EHDS Art. 68(6)"), out.answer
    assert "within two months" in out.answer and "accelerated" in out.answer.split("[Source")[0]


def test_a_point_for_another_case_does_not_replace_a_lead_stating_the_period_asked(make_services):
    """Data received "from another hospital": 14(3)(a)'s "at the latest within one month" answers by when; point
    (c) ("where a disclosure to another recipient is envisaged") shares only "another" with the question and states
    no period."""
    out = run_graph(
        "Another hospital sent us a patient's details, not the patient. By when must we give the patient our "
        "privacy information?",
        make_services(),
    )
    lead = out.answer.split("[Source")[0]
    assert out.citations[0].citation.startswith("GDPR Art. 14(3)") and "one month" in lead, out.answer


def test_asked_in_which_cases_every_case_of_a_one_of_the_following_list_is_quoted(make_services):
    """ "where one of the following grounds applies:" announces the cases asked for: quoting (a) alone would be a
    silent subset of the six grounds for erasure."""
    out = run_graph("In what circumstances can a patient make a hospital erase their data?", make_services())
    assert out.citations[0].citation.startswith("GDPR Art. 17(1)"), out.answer
    lead = out.answer.split("[Source")[0]
    assert all(f"({letter})" in lead for letter in "abcdef") and "withdraws the consent" in lead


def test_a_policy_question_s_subject_keeps_the_words_of_the_title_but_not_the_product_s_name():
    from generation.compose import policy_subject
    from language.analysis import analyse

    clause = Evidence(
        chunk_id="c",
        doc_id="d",
        text="Text.",
        citation="CareShield Rider (Individual) cl. 3.9",
        document="CareShield Hospital Care & Critical Illness Rider - Individual - Policy Wording",
        document_type="policy_wording",
        metadata={"product": "careshield", "provider": "asterisk"},
    )
    question = "Does CareShield pay for critical illness?"
    assert policy_subject(question, analyse(question), [clause]).named_by("critical illness")
    broke = "I bought CareShield a week ago and broke my wrist. Will they pay?"
    assert not policy_subject(broke, analyse(broke), [clause]).touched_by("the first CareShield Rider")


def test_a_statement_naming_the_lead_point_follows_it_whatever_the_word_budget(make_services):
    """Asked whether an NHS hospital may rely on legitimate interests, Art. 6(1)(f) alone reads as a yes: the
    next sentence, "Point (f) ... does not apply to processing carried out by public authorities", is the answer's
    own caveat and is quoted though the lead is long."""
    out = run_graph(
        "Can an NHS hospital use legitimate interests as its legal reason for processing patient data?", make_services()
    )
    assert out.citations[0].citation.startswith("GDPR Art. 6(1)"), out.answer
    assert "public authorities in the performance of their tasks" in out.answer


def test_a_paragraph_the_lead_names_is_quoted_with_it(make_services):
    """ "When exercising ... under paragraph 1" (Art. 20(2), graded first): paragraph 1 of the same article says
    what the right is and when it applies (machine-readable, automated means); it is part of the answer."""
    out = run_graph("right to data portability conditions", make_services())
    assert out.citations[0].citation.startswith("GDPR Art. 20("), out.answer
    assert any(c.citation == "GDPR Art. 20(1)" for c in out.citations) and "automated means" in out.answer


def test_a_law_s_scope_in_the_present_tense_answers_whether_it_applies():
    """ "This Regulation applies to ..." has no modal verb, yet it says whether the law applies: yes, for the case
    its point names (monitoring behaviour), not for a point naming another case."""
    lead_in = (
        "Where a controller is not established in the Union, this Regulation applies to its processing of personal "
        "data of data subjects who are in the Union, where the processing activities are related to: "
    )
    question = "Does the GDPR apply to a company abroad that tracks the behaviour of EU patients?"
    assert yes_no_opener(question, lead_in + "(b) the monitoring of their behaviour.").startswith("Yes")
    assert yes_no_opener(question, lead_in + "(a) the offering of goods to such data subjects.") == ""


def test_a_patient_named_in_a_who_question_is_answered_from_her_own_demographics(make_services):
    """ "Who is Joan Okafor's GP practice, and what's her date of birth?" names one patient: her registered practice
    and date of birth, not the "which patients" search over her encounters."""
    out = run_graph("Who is Joan Okafor's GP practice, and what's her date of birth?", make_services())
    assert out.citations[0].citation.endswith("Demographics"), out.answer
    assert (
        "Parkview Family Practice" in out.answer
        and "1987-02-28" in out.answer
        and "patient in the records" not in out.answer
    )


def test_a_no_from_a_provision_barring_the_act_under_the_law_named_first(make_services):
    """ "Under the EHDS can I just edit it myself?": the law named before the modal is not the party; EHDS Art. 5
    says persons shall not be able to directly alter what health professionals inserted."""
    out = run_graph(
        "A doctor wrote something wrong in my electronic health record. Under the EHDS can I just edit it myself?",
        make_services(),
    )
    assert out.answer.startswith("No") and out.citations[0].citation.startswith("EHDS Art. 5"), out.answer
    assert "directly alter" in out.answer


def test_what_follows_from_missing_a_period_comes_after_the_rule_setting_it(make_services):
    """ "If the notification ... is not made within 72 hours, it must be accompanied by reasons" states what follows
    from the period; the rule setting it ("without undue delay and, where feasible, no later than 72 hours") leads."""
    out = run_graph(
        "someone nicked a work laptop with patient lists on it this morning. how long have we got to report it to the "
        "regulator?",
        make_services(),
    )
    assert out.answer.startswith("In the case of a personal data breach"), out.answer


def test_pulling_out_after_saying_yes_is_withdrawing_consent(make_services):
    out = run_graph(
        "I said yes to a health research app using my data and now I've changed my mind. can I pull out?",
        make_services(),
    )
    assert any(c.citation.startswith("GDPR Art. 7(3)") for c in out.citations[:1]), out.answer
    assert "withdraw his or her consent at any time" in out.answer


def test_a_fine_for_breaching_a_named_article_comes_from_the_provision_listing_it(make_services):
    """ "What is the maximum fine for breaching Article 32?": Art. 32 states no amount; Art. 83(4) lists "Articles 8,
    11, 25 to 39" and states 10 000 000 EUR / 2 %, Art. 83(5) lists Article 9 and states 20 000 000 EUR / 4 %."""
    services = make_services()
    out = run_graph("What is the maximum fine for breaching Article 32?", services)
    assert out.citations[0].citation == "GDPR Art. 83(4)" and "10 000 000 EUR" in out.answer, out.answer
    out = run_graph("What's the fine for breaking GDPR Article 9?", services)
    assert out.citations[0].citation == "GDPR Art. 83(5)" and "20 000 000 EUR" in out.answer, out.answer


def test_a_list_of_articles_with_ranges_names_each_article():
    from language.references import articles_listed

    listed = articles_listed("the obligations of the controller under Articles 8, 11, 25 to 39 and 42 and 43")
    assert {"8", "11", "25", "32", "39", "42", "43"} <= listed and "40" not in listed and "24" not in listed


def test_an_exception_to_the_lead_s_paragraph_is_quoted_with_it(make_services):
    """ "Can I make the hospital delete my whole medical history?": 17(1) grants erasure; 17(3)'s "Paragraphs 1 and 2
    do not apply to the extent that processing is necessary: ... public health ..." shares few words with the
    question (graded up to the paragraph it names) and changes the answer: it is quoted whole after the rule."""
    out = run_graph("Can I make the hospital delete my whole medical history?", make_services())
    cited = [c.citation for c in out.citations]
    assert cited[0] == "GDPR Art. 17(1)" and "GDPR Art. 17(3)" in cited, out.answer
    assert (
        "Paragraphs 1 and 2 do not apply" in out.answer and "public interest in the area of public health" in out.answer
    )


def test_a_list_written_in_one_sentence_answers_a_list_question():
    """ "to inform and advise ...; to monitor compliance ...; to advise on ...; to cooperate ..." is a list, though not
    set out as points: asked what the tasks are, it leads over a provision on who the officer may be."""
    staff = block(
        "6. The data protection officer may be a member of the staff of the controller, or fulfil the tasks under a "
        "service contract.",
        "GDPR Art. 37(6)",
    )
    tasks = block(
        "The minimum tasks of the data protection officer are: to inform and advise the organisation; to monitor "
        "compliance; to advise on impact assessments; to cooperate with the regulator.",
        "Commentary: DPO",
        authority="commentary",
    )
    answer = compose("What are the minimum tasks our data protection officer has to carry out?", [staff, tasks], None)
    assert answer.startswith("The minimum tasks") and "to cooperate with the regulator" in answer, answer


def test_a_scope_note_defining_the_term_asked_answers_what_it_means(make_services):
    """ "Scope: ... Confidential information here means information ... where patients ... can be identified and would
    expect it to be kept private": a note on what the text is, repeated in every principle, yet the only definition
    of the term asked."""
    out = run_graph("What counts as confidential information for the Caldicott principles?", make_services())
    lead = out.answer.split("[Source")[0]
    assert "can be identified" in lead and "kept private" in lead, out.answer


def test_a_use_the_law_prohibits_says_no_to_getting_the_data_for_it():
    """ "Could my insurance company get hold of EU health data to bump up my premiums?": EHDS Art. 54 says seeking
    access to the data "is prohibited for the following uses: ... (b) ... insurance premiums": the act asked about
    (getting the data) is what the prohibition's subject names, and the point names the premiums."""
    question = "could my insurance company get hold of EU health data to bump up my premiums?"
    lead_in = (
        "In particular, seeking access to and processing electronic health data obtained through a data permit is "
        "prohibited for the following uses: "
    )
    assert yes_no_opener(question, lead_in + "(b) modifying their contributions and insurance premiums") == "No: "
    assert yes_no_opener(question, lead_in + "(c) carrying out advertising or marketing activities") == ""


def test_a_field_and_a_kind_of_record_asked_together_are_both_answered_in_the_order_asked(make_services):
    out = run_graph(
        "which GP practice is pat-0008 registered with, and what heart problems does she have?", make_services()
    )
    first, _, rest = out.answer.partition("[Source")
    assert "registered GP practice" in first and "Harbour Medical Practice" in first, out.answer
    assert "Heart failure" in rest


def test_whom_data_would_be_shared_with_is_a_recipient_the_answer_must_name(make_services):
    """ "Can a hospital share my records with the police?": of the weak evidence, the statement naming the police
    (the Caldicott Guardian advises on such requests) answers, not a DPIA commentary on large-scale records."""
    from generation.compose import _recipient

    assert _recipient("Can a hospital share my records with the police?") == {"polic"}
    out = run_graph("Can a hospital share my records with the police?", make_services())
    assert "police" in out.answer.split("[Source")[0], out.answer


def test_an_encrypted_record_gone_missing_needs_no_letter_to_each_patient(make_services):
    """ "went missing" is a breach, and encryption is what makes the data unintelligible: 34(3)(a) answers whether every
    patient must be written to, not the security measures of Art. 32."""
    out = run_graph(
        "A backup tape with patient records went missing, but it was fully encrypted. Do we still have to write to "
        "every patient on it?",
        make_services(),
    )
    assert out.citations[0].citation.startswith("GDPR Art. 34(3)"), out.answer
    assert "unintelligible to any person" in out.answer


def test_whether_one_must_is_answered_by_the_duty_not_by_what_one_may_do(make_services):
    """ "Do we have to appoint a DPO?": 37(1)'s "must in any case designate ... where:" with its three cases, not
    37(2)'s "may appoint" (a permission says nothing of a duty, so no "Yes:" from it)."""
    from generation.opener import duty_asked

    question = "We're a small dental practice with three dentists. Do we have to appoint a DPO?"
    duty = duty_asked(question)
    assert duty and {"appoint", "design"} <= duty.verbs
    assert duty.imposed_by("The controller must in any case designate a data protection officer where:")
    assert not duty.imposed_by("A group of undertakings may appoint one data protection officer")
    assert duty_asked("Can we appoint a DPO?") is None
    told = duty_asked("Does the surgery have to tell her?")  # a person told: not a duty to tell the authority
    assert told and not told.imposed_by("the controller must notify it to the supervisory authority")
    assert told.imposed_by("the controller shall communicate the personal data breach to the data subject")
    assert told.imposed_by("the controller must, without undue delay, communicate the breach to the data subject")
    assert duty_asked("It was recovered unopened. Do we still have to tell the patients?") is None  # the exception
    may = "A group of undertakings may appoint one data protection officer, on condition that it is accessible."
    assert yes_no_opener(question, may) == ""
    assert yes_no_opener("Can we appoint one DPO for our group of undertakings?", may).startswith("Yes")
    out = run_graph(question, make_services())
    assert out.citations[0].citation == "GDPR Art. 37(1)", out.answer
    assert "large scale" in out.answer and not out.answer.startswith("Yes")


def test_a_commentary_saying_what_a_provision_says_in_its_words_yields_to_the_provision():
    """A commentary repeating 12(3)'s extension nearly word for word, and graded higher, is not what is cited: the
    provision saying it is (the commentary names no article in that sentence), its period before the extension."""
    commentary = (
        "Subject access requests are common in the NHS. That period may be extended by two further months where "
        "necessary, taking into account the complexity and number of the requests, but the patient must be told."
    )
    art_12_3 = (
        "3. The controller shall provide the data subject with information on action taken on a request under "
        "Articles 15 to 22 without undue delay and in any event within one month of receipt of the request. Where "
        "necessary, that period may be extended by two further months, taking into account the complexity and "
        "number of the requests."
    )
    answer = compose(
        "We can't answer a patient's access request in a month. How much extra time can we take?",
        [
            block(commentary, "Commentary: access requests", authority="commentary").model_copy(
                update={"confidence": 0.95}
            ),
            block(art_12_3, "GDPR Art. 12(3)").model_copy(update={"confidence": 0.6}),
        ],
        None,
    )
    first, _, rest = answer.partition("[Source")
    assert "within one month" in first and "two further months" in rest, answer  # the period, then its extension
    assert "[Source 2]" in answer and "[Source 1]" not in answer, answer


def test_a_deadline_for_an_act_is_the_deadline_of_whoever_does_it(make_services):
    """ "the deadline for submitting the claim papers": the insured person's 30 days to submit (cl. 7.3), not the
    insurer's 15 days to settle (cl. 7.6), though no "I" or "we" says whose act it is."""
    from generation.opener import the_asker_acts

    question = "What's the deadline for submitting the claim papers on the group rider?"
    assert the_asker_acts(question, "the Insured Person shall submit the claim documents to the TPA within 30 days")
    assert not the_asker_acts(question, "The Company shall settle or reject a claim within 15 days")
    out = run_graph(question, make_services())
    first = out.answer.split("[Source")[0]
    assert "30 days" in first and "submit" in first, out.answer


def test_a_bound_said_before_the_benefit_asked_for_does_not_hide_it(make_services):
    """ "the max room rent" asks for the room rent (a wording never says "max"): answered, not refused as absent."""
    out = run_graph("On the individual rider, what's the max room rent per day?", make_services())
    assert out.status == "answered" and "1% of the Sum Insured" in out.answer.split("[Source")[0], out.answer


def test_entries_of_the_year_asked_are_counted_and_the_others_said(make_services):
    """ "How many times was he seen in 2025?": the 2025 encounters, and how many the record holds from other years
    (never all three as if they were that year's, nor a silent subset)."""
    out = run_graph("How many times was pat-0027 seen in 2025, and on which dates?", make_services())
    first = out.answer.split("[Source")[0]
    assert "2 encounters in 2025" in first and "2025-03-07" in first and "2025-07-23" in first, out.answer
    assert "2023-06-13" not in first and "1 other on record from other years" in first
    none = run_graph("What encounters did pat-0027 have in 2019?", make_services())
    assert "no encounters in 2019 (3 others on record from other years)" in none.answer, none.answer


def test_encounters_of_the_class_asked_are_counted_and_the_others_said(make_services):
    """ "How many times has she been to A&E?": the emergency encounters, counted (FHIR's encounter classes, as the
    record's lines name them), and how many others the record holds; asked whether there was a video appointment,
    a record of none says no (the word "encounter" of the other classes is no match)."""
    from generation.records import encounter_class_asked

    assert encounter_class_asked("Has she been to A&E this year?") == "emergency"
    assert encounter_class_asked("How many times was he admitted?") == "inpatient encounter"
    assert encounter_class_asked("How many times was he seen?") is None
    admitted = run_graph("How many times has pat-0027 been admitted to hospital?", make_services())
    first = admitted.answer.split("[Source")[0]
    assert "has one inpatient encounter: inpatient encounter 2023-06-13" in first, admitted.answer
    assert "2025-03-07" not in first and "(2 other encounters on record)" in first
    video = run_graph("Has pat-0027 had any video appointments?", make_services())
    assert video.answer.startswith("No: ") and "no virtual encounters (3 other encounters on record)" in video.answer


def test_a_sentence_opening_with_a_case_the_lead_names_follows_it(make_services):
    """ "Under a general written authorisation, the processor must inform the controller ..." says what the lead's
    "general written authorisation" entails (the right to object): it follows the lead, as a demonstrative would."""
    from generation.compose import _CASE_OF_THE_LEAD_RE

    assert _CASE_OF_THE_LEAD_RE.match("Under a general written authorisation, the processor must inform the controller")
    out = run_graph(
        "Our EPR hosting supplier wants to bring in a subcontractor for backups. Do they need our permission first?",
        make_services(),
    )
    assert out.citations[0].citation == "GDPR Art. 28(2)", out.answer
    assert "general written authorisation" in out.answer and "opportunity to object" in out.answer, out.answer


def test_what_a_term_means_does_not_answer_whether_one_may_act(make_services):
    """ "Can I use the 30-day free look period ...?" asks whether one may: the clause saying it is not applicable to
    the group policy answers, not the definition of the free look period (though that defines words asked)."""
    out = run_graph(
        "My employer has just put us on the group CareShield rider. Can I use the 30-day free look period to hand it "
        "back if I don't like the terms?",
        make_services(),
    )
    assert "not applicable" in out.answer.split("[Source")[0], out.answer


def test_whether_a_thing_is_still_of_a_kind_is_answered_by_the_statement_saying_so(make_services):
    """ "Is the dataset still personal data for us?" (pseudonymised, key kept apart): the statement that pseudonymised
    data are still personal data leads, not the commentary's example matching the scene; "Is that allowed?" asks no
    kind, so "are allowed only if" is no such statement."""
    from language.analysis import classified_as

    assert classified_as("Is pseudonymised data still personal data?", said_how=True) == "personal data"
    assert classified_as("Is that allowed?", said_how=True) == ""
    assert classified_as("Will it be paid?", said_how=True) == ""  # what is done to it, not what it is
    assert classified_as("Would that be a breach?", said_how=True) == "breach"
    out = run_graph(
        "We replaced the NHS numbers with study codes and keep the look-up table on another server. Is the dataset "
        "still personal data for us?",
        make_services(),
    )
    assert "still personal data" in out.answer.split("[Source")[0], out.answer


def test_a_provision_stating_nothing_of_the_kind_asked_does_not_displace_the_statement_that_does(make_services):
    """ "Is encrypted health data still personal data?": Art. 32(1)(a) ("pseudonymisation and encryption of personal
    data") is binding and shares the word, but says nothing of whether such data stay personal data; the
    explanation saying so leads."""
    out = run_graph("Is encrypted health data still personal data?", make_services())
    lead = out.answer.split("[Source")[0]
    assert "still personal data" in lead and "encryption" not in lead, out.answer


def test_a_provision_restating_the_lead_s_extension_is_quoted_after_the_period_it_extends(make_services):
    """The commentary on access restates 12(3)'s extension, so 12(3) leads; its extension ("that period may be
    extended") needs the period it extends before it, or the answer opens on a dangling "that period"."""
    out = run_graph(
        "I asked my GP surgery for a copy of my records five weeks ago and I've heard nothing back. Are they allowed "
        "to take this long?",
        make_services(),
    )
    assert out.status == "answered" and out.citations[0].citation == "GDPR Art. 12(3)", out.answer
    first, _, rest = out.answer.partition("[Source")
    assert "within one month of receipt" in first and "two further months" in rest, out.answer


def test_what_happens_once_an_event_is_said_by_the_statement_naming_it_and_no_such_follows_alone(make_services):
    """ "what happens to the data ... when it ends?": 68(12)'s deletion "within six months of the expiry", not only
    its duration and extension; and "To reduce such costs and fees, ..." never follows without the sentence on
    fees it points at."""
    from language.coherence import refers_to_what_precedes

    assert refers_to_what_precedes("To reduce such costs and fees, the body may propose reduced storage.")
    out = run_graph(
        "Our EHDS data permit runs out next year and the study is not finished. Can we extend it, and what happens "
        "to the data in the secure environment when it ends?",
        make_services(),
    )
    assert "extended once" in out.answer and "deleted within six months of the expiry" in out.answer, out.answer
    assert "such costs" not in out.answer
    expiry = run_graph(
        "what happens to the data in the secure processing environment once our EHDS data permit expires?",
        make_services(),
    )
    assert "deleted within six months" in expiry.answer.split("[Source")[0], expiry.answer


def test_the_gdpr_principles_by_the_name_users_give_them_are_article_5(make_services):
    out = run_graph("what are the data protection principles in the GDPR?", make_services())
    assert out.citations[0].citation == "GDPR Art. 5(1)", out.answer
    assert "storage limitation" in out.answer and "integrity and confidentiality" in out.answer


def test_a_lead_in_quoted_with_its_points_is_not_replaced_by_the_sentence_before_it(make_services):
    """ "What gets written into a data permit?": 68(10)'s "The data permit shall contain: (a) ... (h)", not only the
    sentence before it that sets out "the general conditions"."""
    out = run_graph("what actually gets written into an EHDS data permit?", make_services())
    first = out.answer.split("[Source")[0]
    assert "shall contain" in first and "principal investigator" in first and "the fees" in first, out.answer


def test_a_yes_no_question_is_answered_by_the_ruling_on_its_asking_sentence_not_by_its_scene(make_services):
    """The scene ("restrict use of my record while they check whether it's accurate") is 18(1)(a); the question
    ("Will they let me know before they start using it normally again?") is 18(3); and 19's duty to tell each
    recipient is no duty to tell the data subject."""
    from generation.opener import yes_no_opener

    art_19 = (
        "The controller shall communicate any rectification or erasure of personal data or restriction of processing "
        "carried out in accordance with Article 16, Article 17(1) and Article 18 to each recipient to whom the "
        "personal data have been disclosed."
    )
    assert yes_no_opener("Will they tell me before they lift it?", art_19) == ""
    out = run_graph(
        "I asked the clinic to restrict use of my record while they check whether it's accurate. Will they let me "
        "know before they start using it normally again?",
        make_services(),
    )
    assert out.citations[0].citation == "GDPR Art. 18(3)", out.answer
    assert "before the restriction of processing is lifted" in out.answer.split("[Source")[0]


def test_an_adverb_before_need_still_asks_whether_the_thing_is_needed(make_services):
    """ "Do we really need a DPO?": needing is the act (it was read as "data"), so 37(1)'s duty rules on it."""
    from generation.opener import act_asked

    assert act_asked("Do we really need a data protection officer?") == "need"
    out = run_graph("Do we really need a data protection officer?", make_services())
    assert out.citations[0].citation == "GDPR Art. 37(1)", out.answer
    assert out.answer.startswith("Yes, subject to conditions")


def test_what_missing_the_lead_s_period_brings_follows_it(make_services):
    """ "If payment is delayed beyond these periods, the Company shall pay interest ...": what follows when the period
    the lead states is missed is part of the answer, a statement or two after it (the 45 days of an investigation the
    question rules out between them)."""
    out = run_graph(
        "I'm on the individual CareShield rider. I sent the last document they asked for three weeks ago, there's been "
        "no investigation, and still no payment. What do they owe me?",
        make_services(),
    )
    assert "15 days" in out.answer.split("[Source")[0], out.answer
    assert "2% above the bank rate" in out.answer and "45 days" not in out.answer, out.answer


def test_a_story_before_the_question_hides_neither_the_provision_nor_its_answer(make_services):
    """A long story of allergies and mixed-up notes before "Do they have to fix it if I ask?": the asking sentence is
    searched alone too (Art. 16 was graded on the story's words and never found), and the statement answering it is
    not refused for saying nothing of the story."""
    out = run_graph(
        "My discharge letter lists a penicillin allergy I've never had - I think it got mixed up with someone else's "
        "notes. Do they have to fix it if I ask?",
        make_services(),
    )
    assert out.status == "answered" and "rectification" in out.answer.split("[Source")[0], out.answer
    assert "the asking sentence searched alone" in out.trace[0]


def test_a_statement_saying_the_act_asked_done_to_the_thing_asked_answers(make_services):
    """ "will that refusal be published, and how quickly?": EHDS Art. 57(1)(j)(iii), read under "(j) publishing, by
    electronic means:", answers (30 working days), not 68(4)'s three months to refuse; the chunk holding (j) lacks
    the article's lead-in, so the point is quoted under its provision."""
    from generation.compose import _done_to_it

    refusal = _done_to_it("Will that refusal be published?")
    assert refusal and refusal.said_in("publishing: (iii) all refusal decisions") and not refusal.said_in("refuse it")
    assert _done_to_it("Is pseudonymised data still personal data?") is None and _done_to_it("Will it be paid?") is None
    ico = _done_to_it("Must we notify the ICO?")  # the law's name for the thing
    assert ico and ico.said_in("the controller shall notify the supervisory authority")
    out = run_graph(
        "If the health data access body turns down our application, will that refusal be published, and how quickly?",
        make_services(),
    )
    first = out.answer.split("[Source")[0]
    assert "30 working days" in first and "publishing" in first, out.answer
    assert first.startswith("Under EHDS Art. 57(1)"), out.answer


def test_asked_whether_it_was_done_in_time_the_period_answers_from_the_provision(make_services):
    """ "Weren't they supposed to answer me by now?": a negated yes/no question about timeliness is answered by the
    period (12(3)'s one month), not by what access gives (15(1)); the commentary restating 12(3) yields to it though
    12(3) is graded lower (the commentary vouches for it)."""
    from language.analysis import analyse

    assert analyse("Weren't they supposed to answer me by now?").answer_type == "yes_no"
    assert analyse("Can't I see my own record?").answer_type == "yes_no"
    out = run_graph(
        "I emailed my GP surgery five weeks ago asking for a copy of everything they hold about me and I've heard "
        "nothing back. Weren't they supposed to answer me by now?",
        make_services(),
    )
    assert "one month" in out.answer.split("[Source")[0], out.answer
    assert out.citations[0].citation == "GDPR Art. 12(3)", out.answer


def test_an_act_asked_in_the_active_is_read_like_one_in_the_passive(make_services):
    """ "Does the health data access body have to publish the data permits it issues and its refusals?": the statement
    saying that act of those permits answers (57(1)(j)(iii)), not the one on issuing them; whom an act is done for is
    no thing it is done to ("give those patients our privacy information")."""
    from generation.compose import _done_to_it

    assert _done_to_it("How soon do we have to give those patients our privacy information?") is None
    published = _done_to_it("Must it publish the data permits?")
    assert published and not published.said_in("publishing: (ii) every health data access application")
    out = run_graph(
        "Does the health data access body have to publish the data permits it issues and its refusals? How quickly?",
        make_services(),
    )
    assert "30 working days" in out.answer.split("[Source")[0], out.answer


def test_a_thing_needed_is_what_a_duty_names_as_its_object_and_one_is_the_thing_the_story_named(make_services):
    """ "We have never appointed a data protection officer. Do we need one?": "one" is the officer the story names;
    the duty whose object it is (37(1)'s "designate a data protection officer") answers; a statement on another thing
    ("do not require a DPIA") or a duty that only mentions it ("seek the advice of the data protection officer") gives
    no Yes or No."""
    from generation.opener import duty_asked

    question = (
        "We run eleven private physiotherapy clinics and keep treatment notes for about twenty thousand patients. "
        "We have never appointed a data protection officer. Do we need one?"
    )
    duty = duty_asked(question)
    assert duty and duty.imposed_by("The controller shall designate a data protection officer in any case where:")
    assert not duty.imposed_by("The controller shall seek the advice of the data protection officer, where designated.")
    dpia = duty_asked("Do we need a DPIA for the new portal?")
    assert dpia and dpia.imposed_by(
        "The controller shall, prior to the processing, carry out an assessment of the impact of the envisaged "
        "processing operations on the protection of personal data."
    )
    assert not dpia.imposed_by("The controller and the processor shall designate a data protection officer where:")
    other_thing = "A single clinician's own records do not require a DPIA on that ground alone."
    assert yes_no_opener(question, other_thing) == ""
    out = run_graph(question, make_services())
    assert out.citations[0].citation == "GDPR Art. 37(1)", out.answer
    assert out.answer.startswith("Yes, subject to conditions"), out.answer


def test_her_delivery_is_maternity_in_the_wording_s_terms(make_services):
    """ "When will her delivery be covered?": the maternity waiting period (cl. 4.4, 2 years) leads, not the
    pre-existing-disease wait that states a period too."""
    out = run_graph(
        "My partner and I are planning to start a family; she joined my individual CareShield rider eight months ago. "
        "When will her delivery be covered?",
        make_services(),
    )
    assert "2 years" in out.answer.split("[Source")[0], out.answer
    assert out.citations[0].citation == "CareShield Rider (Individual) cl. 4.4", out.answer


def test_the_asking_sentence_searched_alone_keeps_the_wording_the_story_names(make_services):
    """ "... the individual CareShield rider ... Does the critical illness lump sum get paid straight away?": the
    asking sentence searched alone names no variant, yet the group rider's clause (a 15-day survival period, not the
    individual rider's 30) must not be among the evidence."""
    out = run_graph(
        "My husband had a heart attack last week, ten months after we took out the individual CareShield rider with "
        "critical illness cover. Does the critical illness lump sum get paid straight away?",
        make_services(),
        collection="insurance",
    )
    assert "the asking sentence searched alone" in out.trace[0]
    assert out.evidence and all("(Individual)" in e.citation for e in out.evidence), [e.citation for e in out.evidence]
    assert "30 days" in out.answer and "15 days" not in out.answer, out.answer


def test_contacting_the_people_a_breach_hit_is_the_communication_to_the_data_subject(make_services):
    """ "Do we now have to contact every patient as well?" after a breach: Art. 34(1)'s communication to the data
    subject answers, not the EHDS's national "contact point"."""
    out = run_graph(
        "Ransomware encrypted our GP practice's server and the attackers say they copied the records of 4,000 "
        "patients. The ICO has been told. Do we now have to contact every patient as well?",
        make_services(),
    )
    assert out.citations[0].citation == "GDPR Art. 34(1)", out.answer
    assert "contact point" not in out.answer, out.answer


def test_the_provision_a_commentary_explains_leads_when_it_answers_nearly_as_well(make_services):
    """Repeated requests for the same records: 12(5) (manifestly unfounded or excessive, repetitive, refuse to act),
    which the commentary on access explains, leads before that commentary's sentence on response times."""
    out = run_graph(
        "A former patient has sent us a fresh request for his full records every two weeks since January, and "
        "nothing has changed in between. Do we have to keep answering every one?",
        make_services(),
    )
    assert out.citations[0].citation == "GDPR Art. 12(5)", out.answer
    assert "repetitive character" in out.answer.split("[Source")[0], out.answer


def test_a_clause_headed_by_the_wording_s_term_for_the_plain_phrase_leads(make_services):
    """ "Will she have to pay some of the bill herself?" at 67: the clause headed "Co-payment" (6.1, 20% from age 61)
    leads, not the operative clause that mentions the co-payment among everything it is subject to (1.2)."""
    from generation.compose import Subject

    copay = Subject((frozenset({"bill", "part"}),), (frozenset({"co", "payment", "copay"}),))
    assert copay.said_in_its_terms("6.1 Co-payment") and not copay.said_in_its_terms("1.2 Operative Clause")
    out = run_graph(
        "I turned 64 before this policy year began and I'm on the individual CareShield rider. If I'm admitted to "
        "hospital, will I have to pay some of the bill myself? Does that also reduce the daily hospital cash?",
        make_services(),
        collection="insurance",
    )
    assert out.citations[0].citation == "CareShield Rider (Individual) cl. 6.1", out.answer
    assert "20%" in out.answer.split("[Source")[0], out.answer


def test_a_sum_paid_per_day_is_the_daily_cash_and_a_case_ruled_out_does_not_lead(make_services):
    """ "pays me anything per day" is the Hospital Daily Cash (3.4: Rs. 1,000 per day); "not in intensive care" rules
    out the ICU's own daily benefit (3.5) as the lead."""
    from generation.compose import _denied

    assert _denied("Five days on the ward, not in intensive care.") == {"intens", "care"}
    out = run_graph(
        "My son spent five nights on a general ward with a broken leg, not in intensive care. Apart from the bill, "
        "does our individual CareShield rider pay us anything per day, and how much?",
        make_services(),
        collection="insurance",
    )
    assert "Rs. 1,000 per day" in out.answer and "Rs. 2,000" not in out.answer, out.answer
    assert out.citations[0].citation == "CareShield Rider (Individual) cl. 3.4", out.answer
