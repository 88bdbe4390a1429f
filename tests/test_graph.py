"""The corrective RAG graph on the shipped corpus: every route and edge, the single requery, refusals."""

from __future__ import annotations

import json
import re

import pytest

from core.schemas import AnswerRecord
from core.settings import REPO_ROOT
from generation.prompts import REFUSAL
from graph import build_graph
from tests.conftest import run_graph, used_blocks

PATIENTS = REPO_ROOT / "corpus" / "patients"


def test_graph_is_importable_and_wired_as_designed(make_services):
    from graph import graph

    compiled = build_graph(make_services())
    edges = {(e.source, e.target) for e in compiled.get_graph().edges}
    assert {
        ("__start__", "retrieve"),
        ("retrieve", "grade"),
        ("grade", "refine"),
        ("grade", "web_search"),
        ("refine", "generate"),
        ("refine", "web_search"),
        ("web_search", "generate"),
        ("generate", "answerability"),
        ("answerability", "requery"),
        ("answerability", "__end__"),
        ("requery", "generate"),
        ("requery", "__end__"),
    } <= edges
    assert graph.name == "policyrag"


def test_correct_route_answers_from_refined_local_evidence(make_services):
    services = make_services()
    out = run_graph(
        "How many hours does a controller have to notify a personal data breach to the supervisory authority?", services
    )
    assert out.route == out.initial_route == "CORRECT"
    assert out.nodes() == ["retrieve", "grade", "refine", "generate", "answerability"]
    assert out.status == "answered" and "72 hours" in out.answer
    assert out.citations and out.citations[0].citation.startswith("GDPR Art. 33")
    assert all(block.origin == "local" and block.highlights for block in used_blocks(out))
    # strong evidence in a binding source; shown as high trust only when the answer is likely right (answer confidence)
    assert "Strong match in an authoritative source" in out.trust_grade.rationale
    assert out.answer_confidence is not None
    gate = services.settings.high_trust_answer_confidence
    assert out.trust_grade.grade == ("high" if out.answer_confidence >= gate else "medium")
    assert out.provenance["publisher"] == "EUR-Lex" and out.provenance["hierarchy_rank"] == 1
    assert set(out.latency_ms) == {"retrieve", "grade", "refine", "generate", "answerability", "total"}
    assert out.refine_stats["words_kept"] <= out.refine_stats["words_in"]


def test_every_citation_maps_to_a_block_given(make_services):
    out = run_graph("What must a controller's record of processing activities contain?", make_services())
    assert out.status == "answered"
    given = {block.chunk_id for block in used_blocks(out)}
    for citation in out.citations:
        assert citation.chunk_id in given
        assert f"[Source {citation.source}]" in out.answer


def test_ambiguous_route_passes_refined_local_and_web_evidence(make_services):
    out = run_graph(
        "Can a patient ask us to restrict processing while they dispute accuracy?",
        make_services(),
        correct_threshold=0.95,
        incorrect_threshold=0.3,
    )
    assert out.initial_route == "AMBIGUOUS"
    assert out.nodes()[:5] == ["retrieve", "grade", "refine", "web_search", "generate"]
    origins = {block.origin for block in used_blocks(out)}
    assert origins == {"local", "secondary"}
    assert out.web_provider == "secondary"
    assert out.trust_grade.grade == "medium"


def test_incorrect_route_discards_local_evidence_and_refuses_without_a_model(make_services):
    services = make_services()
    out = run_graph("What is the HIPAA breach notification deadline?", services)
    assert out.initial_route == "INCORRECT" and out.route == "INCORRECT"
    assert "refine" not in out.nodes()
    assert out.status == "refused" and out.answer == REFUSAL
    assert out.generator == "none"  # the model was not called
    assert used_blocks(out) == []
    assert not out.cacheable
    record = out
    assert record.evidence and not record.evidence_used  # the weak evidence is returned for inspection


def test_refusal_requeries_exactly_once(make_services):
    out = run_graph("Explain Caldicott Principle 9.", make_services())
    steps = out.nodes()
    assert steps.count("requery") == 1
    assert steps.count("generate") <= 2
    assert out.status == "refused" and out.route == "INCORRECT"


def test_nonexistent_article_is_refused(make_services):
    out = run_graph("What does GDPR Article 112 say?", make_services())
    assert out.status == "refused" and out.confidence <= 0.3
    assert "no source carries the reference" in " ".join(out.trace)


def test_asked_how_large_a_fine_is_an_answer_stating_no_fine_is_refused(make_services):
    # the EHDS penalties are not in the corpus: a commentary sentence saying access is "free of charge" was the answer
    question = "If a researcher breaks the conditions of an EHDS data permit, how much can they be fined?"
    out = run_graph(question, make_services(), generator="offline", allow_web=False)
    assert out.status == "refused", out.answer
    # ... while a fine the sources state is answered
    out = run_graph("What is the maximum GDPR fine for breaching patients' rights?", make_services(), allow_web=False)
    assert out.status == "answered" and "20 000 000 EUR" in out.answer, out.answer


def test_asked_which_insurance_product_to_choose_it_refuses_as_advice_no_wording_gives(make_services):
    question = (
        "My parents are 62 and 65 and have no health cover. Would they get better value from a competitor's senior "
        "citizens' plan or from a CareShield rider?"
    )
    out = run_graph(question, make_services(), generator="offline", allow_web=False)
    assert out.status == "refused", out.answer
    assert "advice on which product to choose" in " ".join(out.trace) or out.confidence <= 0.3
    # ... while what a rider covers for people of that age is answered
    out = run_graph("What is the entry age on the individual CareShield rider?", make_services(), allow_web=False)
    assert out.status == "answered" and "65 years" in out.answer, out.answer


def test_web_search_can_be_disabled_per_run(make_services):
    out = run_graph("What is the HIPAA breach notification deadline?", make_services(), allow_web=False)
    assert [a.model_dump() for a in out.web_attempts] == [
        {"provider": "none", "status": "skipped", "detail": "web search disabled for this run"}
    ]
    assert out.status == "refused"


def test_collection_and_top_k_come_from_the_run_context(make_services):
    services = make_services()
    out = run_graph("breach notification timeline", services, collection="secondary", top_k=3)
    assert {e.collection for e in out.evidence} == {"secondary"} and len(out.evidence) <= 3
    [graded] = [step.detail for step in out.steps if step.node == "grade"][:1]
    assert "; kept 3 of " in graded


def test_top_k_unset_uses_the_setting(make_services):
    out = run_graph("breach notification timeline", make_services(top_k=4))
    [graded] = [step.detail for step in out.steps if step.node == "grade"][:1]
    assert "; kept 4 of " in graded


def test_every_node_reports_a_structured_step(make_services):
    out = run_graph(
        "How many hours does a controller have to notify a personal data breach to the supervisory authority?",
        make_services(),
    )
    assert out.nodes() == ["retrieve", "grade", "refine", "generate", "answerability"]
    grade_step = out.steps[1]
    assert grade_step.route == "CORRECT" and grade_step.ms > 0 and grade_step.detail.startswith("grade: CORRECT")
    assert out.steps[3].status == "answered"
    again = AnswerRecord.model_validate_json(out.model_dump_json())  # the record is its own JSON contract
    assert (again.answer, again.citations, again.steps) == (out.answer, out.citations, out.steps)
    assert [e.chunk_id for e in again.evidence] == [e.chunk_id for e in out.evidence]


def test_record_style_question_answers_from_the_patient_record(make_services):
    out = run_graph("Does the patient with NHS number 999 886 4232 have any allergies?", make_services())
    assert out.status == "answered"
    assert out.citations[0].citation.startswith("Patient pat-0006")


def test_medical_advice_is_refused(make_services):
    out = run_graph("What dose of metformin should I take for my type 2 diabetes?", make_services())
    assert out.status == "refused"
    assert "medical advice" in " ".join(out.trace)


def test_empty_question_is_a_clear_error(make_services):
    import pytest

    with pytest.raises(ValueError, match="empty"):
        run_graph("   ", make_services())


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        (
            "Does pat-0013 have any allergies?",
            "No allergies and intolerances are recorded for Deborah Paul Hughes (pat-0013) [Source 1].",
        ),
        ("What medicines is Joan Okafor on?", "No medications are recorded for Joan Okafor (pat-0001) [Source 1]."),
    ],
)
def test_a_record_with_no_entry_of_the_kind_asked_says_so_and_quotes_nothing_else(make_services, question, answer):
    record = run_graph(question, make_services(), generator="offline", allow_web=False)
    assert record.status == "answered" and record.answer == answer
    [cited] = record.citations
    assert cited.citation.endswith(("Allergies and intolerances", "Medications"))
    assert "none recorded in this record" in record.evidence[cited.source - 1].text


def test_a_question_about_nhs_numbers_in_general_is_not_answered_from_a_patient_s_record(make_services):
    record = run_graph("What is an NHS number and how many digits does it have?", make_services(), allow_web=False)
    assert record.status == "answered"
    assert record.citations and all(not c.citation.startswith("Patient ") for c in record.citations), record.answer
    assert "pat-" not in record.answer


@pytest.mark.parametrize("question", ["What is Joan Okafor being treated for?", "What's wrong with pat-0001?"])
def test_what_a_patient_is_treated_for_lists_every_recorded_condition(make_services, question):
    record = run_graph(question, make_services(), allow_web=False)
    assert record.answer.startswith("Joan Okafor (pat-0001) has 3 recorded conditions: Asthma"), record.answer
    assert "Hyperlipidemia" in record.answer and "Hypothyroidism" in record.answer
    assert "Date of birth" not in record.answer


def test_a_commentary_naming_one_provision_yields_to_another_that_answers_clearly_better(make_services):
    # the DPO commentary names Art. 37(6) (staff or service contract) in the sentence that also states 37(5)
    record = run_graph("What qualifications does our DPO need to have?", make_services(), allow_web=False)
    assert record.citations[0].citation == "GDPR Art. 37(5)", record.answer
    assert "professional qualities" in record.answer.split("[Source")[0]


def test_asked_about_one_thing_in_a_patient_s_records_the_items_naming_it_answer(make_services):
    record = run_graph("When did Joan Okafor's asthma start?", make_services(), allow_web=False)
    assert re.match(r"Joan Okafor \(pat-0001\), conditions: Asthma [^[]*onset \d{4}-\d\d-\d\d", record.answer)
    assert "Hyperlipidemia" not in record.answer and "Date of birth" not in record.answer


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        (
            "Which GP practice is pat-0045 registered with?",
            "The registered GP practice of Mateusz Da Silva (pat-0045) is Kingsway Medical Centre",
        ),
        (
            "When was the patient with NHS number 999 244 8458 born?",
            "The date of birth of Beatriz Michael Evans (pat-0007) is 1968-03-03",
        ),
        (  # the NHS number asked for; the date of birth given only to say which of two namesakes is meant
            "I need to contact the GP of Liam Da Silva, date of birth 14 December 1931. Which practice is he"
            " registered with, and what's his NHS number?",
            "The registered GP practice of Liam Da Silva (pat-0042) is Westbrook Medical Practice [Source 1]. The NHS"
            " number of Liam Da Silva (pat-0042) is 9995331616",
        ),
    ],
)
def test_asked_for_a_field_of_a_patient_s_demographics_the_record_s_line_answers(make_services, question, answer):
    record = run_graph(question, make_services(), allow_web=False)
    assert record.answer == f"{answer} [Source 1].", record.answer


def test_asked_for_a_field_and_about_an_entry_of_a_patient_s_record_both_are_answered_in_the_order_asked(
    make_services,
):
    # the practice and birth date were answered and the osteoarthritis onset left out; "see the practice about
    # it" answered only the registered practice, not when the asthma started
    services = make_services()
    question = (
        "I'm writing to Chloe Chen's GP about her knee. Which practice is she with, what's her date of birth, and "
        "since when has osteoarthritis been on her record?"
    )
    answer = run_graph(question, services, allow_web=False).answer
    assert answer.index("Oakwood Medical Centre") < answer.index("1964-05-15") < answer.index("onset 2008-11-01")
    question = (
        "I'm Chiamaka Patel. When does my record say my asthma started, and when did I last see the practice about it?"
    )
    answer = run_graph(question, services, allow_web=False).answer
    assert answer.startswith("Chiamaka Patel (pat-0014), conditions: Asthma") and "onset 2024-12-15" in answer
    assert "2025-10-15" in answer, answer


def test_asked_whether_a_patient_has_a_condition_by_its_lay_name_the_record_says_yes_or_that_it_is_not_recorded(
    make_services,
):
    services = make_services()
    has = run_graph("Has Deborah Hughes got COPD?", services, allow_web=False)
    assert has.answer.startswith("Yes: Deborah Paul Hughes (pat-0013), conditions: Chronic obstructive lung disease"), (
        has.answer
    )
    lacks = run_graph("Does pat-0013 have asthma?", services, allow_web=False)
    assert lacks.answer.startswith(
        "The conditions recorded for Deborah Paul Hughes (pat-0013) do not mention asthma: "
    ), lacks.answer
    assert all(c in lacks.answer for c in ("Type 2 diabetes", "Essential hypertension", "Hyperlipidemia"))
    assert "pat-00" not in lacks.answer.replace("pat-0013", "")  # no other patient


def test_asked_whether_a_record_of_a_kind_names_something_the_entry_says_yes_and_the_scene_s_record_follows(
    make_services,
):
    """ "Is he allergic to aspirin?" listed every allergy without saying yes; the scene ("is on aspirin") is his
    medication record, which follows. Never another patient's."""
    record = run_graph(
        "Mohammed Costa is on aspirin - does his record show an allergy to it?", make_services(), allow_web=False
    )
    assert record.answer.startswith(
        "Yes: the record of Mohammed Costa (pat-0010) shows an allergy or intolerance: Aspirin"
    ), record.answer
    assert (
        "Amoxicillin" not in record.answer.split("[Source")[0] and "Aspirin 75mg dispersible tablets" in record.answer
    )
    assert "pat-00" not in record.answer.replace("pat-0010", "")


@pytest.mark.parametrize(
    ("question", "stated"),
    [
        # the section asked for answers though it never names the condition: no medicine is recorded for diabetes
        ("Is Harriet O'Brien on anything for her type 2 diabetes?", "Salbutamol"),
        ("Dylan Wood's coming in for a minor procedure tomorrow. Anything on file he reacts badly to?", "Latex"),
        (  # an encounter says where it took place
            "This is Keith Jackson, NHS number 999 259 1382. When was I last admitted to hospital, and which "
            "hospital was it?",
            "2024-10-14T09:30:00+00:00 to 2024-10-19T22:44:00+00:00, reason: Anxiety disorder (SNOMED CT 197480006), at"
            " Kingsmead Hospital",
        ),
    ],
)
def test_a_patient_s_record_answers_by_the_section_asked_for_in_plain_words(make_services, question, stated):
    record = run_graph(question, make_services(), generator="offline", allow_web=False)
    assert record.status == "answered" and stated in record.answer.split("[Source")[0], record.answer


@pytest.mark.parametrize("question", ["Which patients have hypertension?", "Which patients have high blood pressure?"])
def test_which_patients_have_a_condition_names_every_patient_whose_record_lists_it_by_any_name(make_services, question):
    bundles = [json.loads(p.read_text()) for p in PATIENTS.glob("patient_*.json") if not p.name.endswith(".meta.json")]
    expected = {
        next(e["resource"]["id"] for e in b["entry"] if e["resource"]["resourceType"] == "Patient")
        for b in bundles
        if any(
            e["resource"]["resourceType"] == "Condition" and "hypertension" in json.dumps(e["resource"]["code"]).lower()
            for e in b["entry"]
        )
    }
    record = run_graph(question, make_services(), allow_web=False)
    named = set(re.findall(r"\((pat-\d+)\): [^;]*hypertension", record.answer))
    assert named == expected and record.answer.startswith(f"{len(expected)} patients in the records: ")


def test_which_patients_have_something_names_each_patient_whose_record_lists_it(make_services):
    record = run_graph("Which patients have atrial fibrillation?", make_services(), allow_web=False)
    named = re.findall(r"\((pat-\d+)\): Atrial fibrillation", record.answer)
    assert record.answer.startswith(f"{len(named)} patients in the records: ") and len(named) >= 2
    assert len(set(named)) == len(named)  # one item per patient


@pytest.mark.parametrize("question", ["Which patients take warfarin?", "Which patients are allergic to shellfish?"])
def test_which_patients_have_something_no_record_lists_is_refused_without_quoting_any_record(make_services, question):
    record = run_graph(question, make_services(), allow_web=False)  # no record lists it ("Take one tablet" is no match)
    assert record.status == "refused" and "pat-" not in record.answer, record.answer


def _patients_whose(section: str, word: str) -> set[str]:
    bundles = [json.loads(p.read_text()) for p in PATIENTS.glob("patient_*.json") if not p.name.endswith(".meta.json")]
    return {
        next(e["resource"]["id"] for e in b["entry"] if e["resource"]["resourceType"] == "Patient")
        for b in bundles
        if any(
            e["resource"]["resourceType"] == section and word in json.dumps(e["resource"]).lower() for e in b["entry"]
        )
    }


def test_which_of_our_patients_names_only_the_patients_whose_record_holds_it(make_services):
    """Asked "which of our patients ... on record", every patient with a peanut allergy is named, and no other
    patient the search brought (before: "No allergies ... are recorded for Arjun Singh (pat-0046)")."""
    record = run_graph(
        "We're running a nut-free clinic day. Which of our patients have a peanut allergy on record?",
        make_services(),
        allow_web=False,
        collection="patients",
    )
    assert set(re.findall(r"pat-\d+", record.answer)) == _patients_whose("AllergyIntolerance", "peanut")


def test_which_patients_have_a_condition_of_several_words_names_only_those_whose_item_names_it_all(make_services):
    # "Chronic obstructive lung disease" shares "chronic ... disease" with the question: no kidney, not named
    record = run_graph("Do we have anybody with chronic kidney disease?", make_services(), collection="patients")
    assert set(re.findall(r"pat-\d+", record.answer)) == _patients_whose("Condition", "chronic kidney disease")


@pytest.mark.parametrize(
    ("question", "stated"),
    [
        # the search is scoped by a title or a first name and a town: those records answer, not a refusal
        ("When was Mrs Robinson last seen?", "Anjali Robinson (pat-0063) has one recorded entry under encounters"),
        ("Harriet from Sheffield, what conditions has she got on file?", "Harriet O'Brien (pat-0075) has 2 recorded"),
        # a year of birth that says who is meant is not the date of birth asked for
        ("Keith, the young lad born 2004 with asthma - what inhaler has he got?", "Salbutamol"),
        ("Can you confirm the date of birth for NHS number 999 299 7818?", "is 1980-12-14"),
    ],
)
def test_a_patient_named_in_other_words_is_answered_from_the_record_asked_for(make_services, question, stated):
    record = run_graph(question, make_services(), allow_web=False, collection="patients")
    assert record.status == "answered" and stated in record.answer, record.answer


def test_two_patients_named_in_one_question_are_each_answered_from_their_own_record(make_services):
    # "Freya Morgan and Niamh Williams" was one name that no record mentions: graded down and refused
    record = run_graph(
        "Do Freya Morgan and Niamh Williams both have atrial fibrillation?", make_services(), collection="patients"
    )
    assert record.status == "answered", record.answer
    assert set(re.findall(r"pat-\d+", record.answer)) == {"pat-0008", "pat-0028"}
    assert record.answer.count("Atrial fibrillation") >= 2


def test_records_of_several_patients_none_of_them_named_are_never_listed_patient_by_patient(make_services):
    record = run_graph("What allergies are recorded?", make_services(), allow_web=False, collection="patients")
    assert "pat-" not in record.answer and "recorded for" not in record.answer, record.answer


def test_the_problem_list_is_the_record_s_conditions(make_services):
    record = run_graph("What is on the problem list for pat-0001?", make_services(), allow_web=False)
    assert record.status == "answered" and record.citations[0].citation.endswith("- Conditions"), record.answer


def test_a_question_asking_two_kinds_of_record_gets_both(make_services):
    record = run_graph("What allergies does Mrs Okafor have, and what is she taking?", make_services(), allow_web=False)
    assert record.answer == (
        "No allergies and intolerances are recorded for Joan Okafor (pat-0001) [Source 1]. "
        "No medications are recorded for Joan Okafor (pat-0001) [Source 2]."
    )


@pytest.mark.parametrize(
    ("question", "cited", "stated"),
    [
        # a named instrument decides the domain: "insurance premium" does not send it to the policy wordings
        (
            "Can health data be used under the EHDS to make decisions that harm someone, like raising their "
            "insurance premium?",
            "EHDS Art. 54",
            "prohibited",
        ),
        ("What is meant by pseudonymisation in the GDPR?", "GDPR Art. 4(5)", "means"),  # the definition, not a use
        # the provision a commentary cites among others leads ("... withdrawn at any time (GDPR Art. 7(3))")
        ("How do I withdraw my consent to a research study?", "GDPR Art. 7(3)", "withdraw"),
        (  # a commentary's statement on the EHDS alone (a data access body's request) does not answer a general one;
            # the provision the subject access commentary names first among its own (12(3)) is followed and leads
            "How long has a hospital got to respond when a patient asks for everything it holds about them?",
            "GDPR Art. 12(3)",
            "one month",
        ),
        ("What documents do I need to make a claim?", "CareShield Rider", "completed claim form"),  # a policyholder's
        ("What is the eighth Caldicott principle about?", "Caldicott Principle 8", "no surprises"),  # an ordinal
        ("When do the EHDS rules start to apply?", "EHDS Art.", "26 March 2027"),  # a date question wants a date
        (
            "What documents do I need to submit for a reimbursement claim on the group rider?",
            "CareShield Rider (Group) cl. 7.4",  # the clause headed "Claim Documents", with its points
            "completed claim form",
        ),
        ("What happens if I pay my renewal premium late on the group rider?", "CareShield Rider (Group)", "Grace"),
        ("What is an NHS number and how many digits does it have?", "FHIR UK Core NHS Number", "10-digit"),  # a count
        (  # a terse query; the point is quoted after the sentence announcing its list, which holds the period
            "waiting period cataract group rider",
            "CareShield Rider (Group) cl. 4.2",
            "12 months of continuous coverage",
        ),
        (  # the period leads, its extension follows
            "How long will it take to get a decision on my research data application?",
            "EHDS Art. 68(4)",
            "within three months",
        ),
        (  # plain words for restriction: "freeze it" while the accuracy is disputed
            "Our hospital wants to stop processing my data while I dispute that it is accurate. Can I ask them to "
            "freeze it?",
            "GDPR Art. 18(1)",
            "contests the accuracy",
        ),
        (  # the article whose title the plain words map to ("data protection by design") leads
            "Does a hospital need to build privacy into its new system from the start?",
            "GDPR Art. 25",
            "technical and organisational measures",
        ),
        (  # a destination country is a third country, not a regime outside the corpus
            "Can we send patient data to a hospital in the United States?",
            "GDPR Art. 4",
            "third country",
        ),
        (  # when a new member asks when treatment is paid for, the waiting period naming it answers, not the
            # clauses that share the situation's words ("company", "joined")
            "I recently joined my employer's group scheme. When can I have my hernia operated on?",
            "CareShield Rider (Group) cl. 4.2",
            "12 months",
        ),
        (
            "I bought the individual rider last month. How soon can I claim for my knee replacement?",
            "CareShield Rider (Individual) cl. 4.2",
            "24 months",
        ),
        (  # one point of an application's contents does not displace the explanation of the difference
            "What is the difference between pseudonymised and anonymised data?",
            "Commentary: pseudonymisation versus anonymisation",
            "still personal data",
        ),
        (  # the clause says its list is in another clause: the list follows it, every item
            "Which illnesses does the group rider pay a lump sum for?",
            "CareShield Rider (Group) cl. 3.9",
            "lump sum",
        ),
        (  # a heading followed by its points is that list's lead-in
            "What are the critical illnesses covered by the individual rider?",
            "CareShield Rider (Individual) cl. 3.9.1",
            "(a) Cancer",
        ),
        (  # the general law answers a question about patient data in general, before the EHDS's secure
            # processing environments that share its words
            "What security measures must we have for patient data?",
            "GDPR Art. 32",
            "appropriate technical and organisational measures",
        ),
        (  # "who" is answered by the party a payment is made to, not by a co-payment clause's "shall"
            "Who receives the claim payment under the group rider?",
            "CareShield Rider (Group) cl. 7.6",
            "Payment is made to the Member",
        ),
        (  # "which profile" is answered by the profile's identity
            "Which FHIR profile should I use to record a patient's allergy in UK Core?",
            "FHIR UK Core UKCore-AllergyIntolerance",
            "UKCore-AllergyIntolerance",
        ),
        (  # the right in the law's words ("rectification of inaccurate personal data") supports the plain ones
            "I moved house last year. Can I make my GP update my address?",
            "GDPR Art. 16",
            "rectification of inaccurate personal data",
        ),
        (  # a personal data breach is no person to be told: the controller notifies the supervisory authority
            "How long does a controller have to notify a personal data breach?",
            "GDPR Art. 33(1)",
            "72 hours",
        ),
        (  # the patients told are the data subjects of 34(1), not the supervisory authority of 33(1)'s 72 hours
            "How long do I have after a data breach before I must tell the patients affected?",
            "GDPR Art. 34(1)",
            "without undue delay, communicate the breach to the data subject",
        ),
        (  # what follows the permit "granted" (the law: "Once the data permit has been issued"), not how it is issued
            "Our data permit was granted last week. Once the access body has received the data from the hospitals, how"
            " long will it be before we can actually work with it?",
            "EHDS Art. 68(7)",
            "Once the data permit has been issued",
        ),
        (  # what follows the event asked about ("runs out": the permit's expiry), not the permit's general rule
            "What happens to the data sitting in the secure processing environment once my EHDS data permit runs out?",
            "EHDS Art. 68(12)",
            "deleted within six months of the expiry of the data permit",
        ),
        (  # the time to answer a request for a copy of one's records is 12(3)'s, not EHDS 9(2)'s three years of logs
            "I asked the hospital trust for a copy of my records. How long are they legally allowed to take?",
            "GDPR Art. 12(3)",
            "within one month",
        ),
        (  # a record saying what is not so is inaccurate data: it was refused, the penicillin allergy drawing the
            # patient's records and the FHIR allergy profile
            "My GP record says I'm allergic to penicillin but I'm not. Can I get that corrected, and how quickly?",
            "GDPR Art. 16",
            "rectification of inaccurate personal data",
        ),
        (  # a processor's duty dates from when it becomes aware ("discovered"); "obliged" only frames the question
            "Our EPR supplier discovered a breach on their side. What are they obliged to do and towards whom?",
            "GDPR Art. 33(2)",
            "the processor must notify the controller",
        ),
        (  # consent bundled with a service: whether it is freely given, not a research commentary
            "The app won't let me use it unless I agree to share my data for advertising. Is that real consent?",
            "GDPR Art. 7(4)",
            "conditional on consent",
        ),
        (  # "how often": a period of the evidence that answers, not a deadline from a passage on something else
            "Staff here keep using workarounds like emailing patient lists to their personal accounts because the "
            "system is clunky. How often are we supposed to review our processes for this kind of thing?",
            "NDG Data Security Standard 5",
            "at least annually",
        ),
        (  # sending a record to a health insurance fund for reimbursement is a patient's right, not a prohibited use
            "I live in Belgium. When the EHDS applies, can I get the hospital to send the relevant part of my record "
            "straight to my health insurance fund so I get reimbursed?",
            "EHDS Art. 7(3)",
            "social security or reimbursement services",
        ),
        (  # a copy with another person's details removed: the copy must not affect others' rights (no "No:")
            "I got a copy of my hospital notes but the bits about my ex-partner have been blacked out. Are they "
            "allowed to do that?",
            "GDPR Art. 15(4)",
            "rights and freedoms of others",
        ),
        (  # objecting to research use: the right to object on grounds of one's particular situation
            "A university is using data from my hospital records for a research study and I'm not comfortable with "
            "it. Can I object, or does that not work for research?",
            "GDPR Art. 21(6)",
            "particular situation",
        ),
        (  # a member's claim paid to the employer: never without the member's written authority
            "HR at an employer on a group CareShield policy has asked us to pay an employee's reimbursement claim "
            "into the company's account. Can we do that?",
            "CareShield Rider (Group) cl. 7.6",
            "never to the Master Policyholder",
        ),
        (  # a faster route: the accelerated procedure, introduced before its period is quoted
            "I'm an analyst at our national public health institute. Is there a quicker route for us to get an EHDS "
            "data permit than the usual three months?",
            "EHDS Art. 68(6)",
            "accelerated health data access application procedure",
        ),
        (  # "Misuse, such as ...": "such as" points at nothing; no Yes/No for a question between alternatives
            "One of my nurses opened her neighbour's record just out of curiosity. Is that only a disciplinary "
            "matter or is it more serious than that?",
            "Commentary: break-glass emergency access",
            "Misuse, such as opening a relative's record out of curiosity, is unauthorised access",
        ),
        (  # the point for the case named ("planned"), not the first point of the list of cases
            "I have a planned hip operation next month. How much notice do I have to give the insurer before I "
            "go into hospital?",
            "CareShield Rider (Individual) cl. 7.1",
            "at least 48 hours before admission",
        ),
        (  # data obtained elsewhere: informing each person may be a disproportionate effort (Art. 14(5)(b))
            "We analyse hospital records of 150,000 people we never had any contact with. Do we have to write to "
            "each of them with privacy information?",
            "GDPR Art. 14(5)",
            "disproportionate effort",
        ),
        (  # teaching students is a secondary-use purpose of its own
            "Can a medical school get EHDS health data through a data permit for teaching its students?",
            "EHDS Art. 53(1)",
            "education or teaching activities",
        ),
        (  # a right mentioned only in the small print: brought to attention clearly and separately
            "Our privacy notice only mentions the right to object in the small print at the bottom. Is that enough?",
            "GDPR Art. 21(4)",
            "clearly and separately",
        ),
        (  # asking patients what they think of it: seeking the views of data subjects
            "For our DPIA on a new booking app, should we ask patients what they think of it?",
            "GDPR Art. 35(9)",
            "for their views",
        ),
        (  # extra protections of a country's own: stricter measures and additional safeguards
            "Can a Member State add extra protections for genomic data that is made available for secondary use "
            "under the EHDS?",
            "EHDS Art. 51(4)",
            "stricter measures and additional safeguards",
        ),
        (  # every GP practice: all healthcare providers
            "Do all GP practices have to connect to the national contact point for digital health?",
            "EHDS Art. 23(5)",
            "all healthcare providers are connected",
        ),
        (  # a date something must be done by is a day of the year, not the year something happened in
            "By what date each year must our DSPT assessment be published?",
            "Commentary: Data Security and Protection Toolkit",
            "by 30 June",
        ),
        (  # how long data may be kept: no period, "no longer than is necessary" (storage limitation)
            "How long should hospitals keep medical records?",
            "GDPR Art. 5(1)",
            "no longer than is necessary",
        ),
        (  # sharing with the clinician who treats the patient: the care team, implied consent
            "Can a GP send my records to the hospital consultant treating me without asking me?",
            "Commentary: lawful basis for direct care in the UK",
            "implied consent",
        ),
        (  # no provision defines it: the one setting it up says what it is
            "What is a health data access body?",
            "EHDS Art. 55(1)",
            "designate one or more health data access bodies",
        ),
        (  # the duty to designate one says what it is; "a group of undertakings may appoint one" is a choice
            "What is a data protection officer?",
            "GDPR Art. 37(1)",
            "must in any case designate a data protection officer",
        ),
        (  # "A Caldicott Guardian is a senior person ...": a definition without "means"
            "What is a Caldicott Guardian?",
            "Commentary: Caldicott Guardians",
            "is a senior person",
        ),
        (  # breaking the law is an infringement, and infringements are fined
            "What happens if a company breaks the GDPR?",
            "GDPR Art. 83(",
            "administrative fines",
        ),
        (  # a clause on running the policy that says when there is no cover answers a cover question
            "I pay my individual CareShield premium monthly and paid ten days late; I was in hospital for two nights "
            "during those ten days. Is that stay covered?",
            "CareShield Rider (Individual) cl. 8.1",
            "no cover is available for the period from the due date",
        ),
        (  # "admitted", "ten days", "I've ever" set the scene: the subject is typhoid, which no clause names, so the
            # first-30-days exclusion answers, not the daily cash clause that says "if a claim is admitted"
            "I joined my employer's group CareShield rider ten days ago, my first ever health cover, and I've just "
            "been admitted with typhoid. Will the claim be paid?",
            "CareShield Rider (Group) cl. 4.3",
            "within 30 days",
        ),
        (  # "waived" states no period, yet answers; the 12-month clause states one, for other diseases
            "What is the waiting period for pre-existing diseases under the group rider?",
            "CareShield Rider (Group) cl. 4.1",
            "is waived",
        ),
        (  # the subject is the ambulance: a clause listing "Intensive Care Unit charges" is not about it
            "Does the policy cover ambulance charges?",
            "CareShield Rider (Individual) cl. 3.6",
            "reasonable cost of a road ambulance",
        ),
        (  # answering a request is "information on action taken on a request", not an EHDS data permit
            "How long does a hospital have to respond to a subject access request?",
            "GDPR Art. 12(3)",
            "within one month",
        ),
        (  # ... asked by what the request brings: not how long EHDS access information stays available
            "How quickly must the GP give me my medical records?",
            "GDPR Art. 12(3)",
            "within one month",
        ),
        (  # who must be reached is named: not the 72 hours to the supervisory authority
            "How fast must a data breach reach senior management in the NHS?",
            "NDG Data Security Standard 6",
            "within 12 hours",
        ),
        (  # ... and a plain "don't want my data used" is the right to object
            "I don't want my data used for research. What can I do?",
            "GDPR Art. 21(6)",
            "right",
        ),
        (  # the rule ("shall submit a single ... application") before what follows it ("The application shall be
            # forwarded ..."), which scored a little higher
            "Our study needs hospital data from France, Spain and Italy. Do we have to send a separate EHDS "
            "application to each country?",
            "EHDS Art. 67(3)",
            "shall submit a single health data access application",
        ),
        (  # how long the insured person has to claim: the claims procedure, not the post-hospitalisation benefit
            # that "after discharge" names; and the insured person's duty, not the insurer's
            "How long do I have to claim after discharge?",
            "CareShield Rider (",
            "shall submit the claim documents to the TPA within 30 days of discharge",
        ),
        (  # seeing one's own records is the right of access (was: a commentary on DPIAs)
            "Can patients see their own records?",
            "EHDS Art. 3(1)",
            "right to access",
        ),
        (  # when a DPO must be appointed: the cases of 37(1), not the qualities of 37(5)
            "When must we appoint a DPO?",
            "GDPR Art. 37(1)",
            "must in any case designate a data protection officer where",
        ),
        (  # a data processing contract is the contract with a processor (28(3)), not a contract as a lawful basis
            "What should be in a data processing contract?",
            "GDPR Art. 28(3)",
            "(a) processes the personal data only on documented instructions",
        ),
        (  # money back on cancelling is the refund of premium
            "Can I cancel my policy and get money back?",
            "CareShield Rider (",
            "refund the premium",
        ),
        (  # asked whether it costs: the free rule leads, not the fee for further copies
            "Can the hospital charge me for a copy of my notes?",
            "Commentary: subject access requests in practice",
            "free of charge",
        ),
        (  # a copy of "my GP record" is the copy the right of access gives (was refused: nothing graded enough)
            "Can I get a copy of my GP record for free?",
            "GDPR Art. 15(3)",
            "reasonable fee",
        ),
        (  # a record opened out of curiosity is a breach, and "must we report it to the ICO" its notification (was:
            # the right of access, from "lodge a complaint with a supervisory authority")
            "A nurse looked up her ex-boyfriend's record out of curiosity. Do we have to report that to the ICO?",
            "GDPR Art. 33(1)",
            "72 hours",
        ),
        (  # "charge us more" takes a fee as given: not the patients' free access information (EHDS 9(2))
            "Our EHDS data permit has been extended for a second term. Will the access body charge us more for "
            "keeping the data all that time?",
            "EHDS Art. 68(12)",
            "fees that increase",
        ),
        (  # asking for one's records by what one does ("get my GP records") is the right of access (was refused)
            "Do I have to pay to get my GP records?",
            "",
            "free of charge",
        ),
        (  # "objected" is the right to object, and "a public task" the basis 21(1) names, point (e) of 6(1) (was:
            # 9(2)(i) on public health, from the programme's name)
            "A patient has objected to being included in our risk-stratification programme, which we run as a "
            "public task. Do we have to take her out?",
            "GDPR Art. 21(1)",
            "right to object",
        ),
        (  # a DPO without the background: the qualities the designation rests on (was: 37(2), a group's shared DPO)
            "Can our trust make a senior ward sister our DPO even though she has no data protection background?",
            "GDPR Art. 37(5)",
            "expert knowledge of data protection law",
        ),
        (  # a copy wanted by email: the provision's form leads, not the commentary restating it (was: the
            # commentary's "Under GDPR Art. 15(3) ...", preferred for ruling on the act with a Yes)
            "I asked my GP surgery by email for a copy of my records. Can I insist on getting them electronically?",
            "GDPR Art. 15(3)",
            "commonly used electronic form",
        ),
        (  # an objection still being weighed: restriction pending that verification (was: 21(1) itself)
            "I've objected to my hospital using my records in a service analysis, and they say they need time to "
            "decide whether their reasons outweigh mine. Can I make them stop using my data while they decide?",
            "GDPR Art. 18(1)",
            "pending verification",
        ),
        (  # data gone out of date at the organisation: its own accuracy duty (was: a commentary on anonymisation)
            "Our patient administration system holds thousands of out-of-date addresses and phone numbers. Are we "
            "only obliged to correct these when a patient complains?",
            "GDPR Art. 5(1)",
            "kept up to date",
        ),
        (  # the protections of data sent abroad, asked by the person: their right to be told of the safeguards
            "My hospital says my scans are reported by a radiology company in India. Can I ask them what "
            "protections cover sending my data over there?",
            "GDPR Art. 15(2)",
            "appropriate safeguards",
        ),
        (  # records wanted kept for one's own court case: restriction instead of erasure (was refused)
            "My old clinic is about to destroy my records because its retention period is up, but I need them for a "
            "negligence claim against another hospital. Can I make them keep them?",
            "GDPR Art. 18(1)",
            "legal claims",
        ),
        (  # staff using data only as told: 32(4); "What does the GDPR say about ..." asks no list and no definition,
            # and a provision answering better goes before the one a commentary on access cites (was: 15(1) whole)
            "Agency nurses on my ward can open our electronic patient record. What does the GDPR say about making "
            "sure they only use patient data the way we've told them to?",
            "GDPR Art. 32(4)",
            "only on instructions from the controller",
        ),
        (  # a DPIA for each site: one assessment may cover similar operations (was: when a DPIA is needed)
            "Do we need a separate DPIA for each hospital site?",
            "GDPR Art. 35(1)",
            "One assessment may cover a set of similar processing operations",
        ),
        (  # "Is that profiling in GDPR terms?": the law it is asked under is no part of the term; the definition
            # decides (was: 22(1) on decisions based on profiling)
            "Our outpatient system gives every patient a score for how likely they are to miss their next "
            "appointment, based on their attendance history. Is that profiling in GDPR terms?",
            "GDPR Art. 4(4)",
            "any form of automated processing",
        ),
        (  # how information must be worded: clear and plain language, for a child in particular (12(1))
            "How should a privacy notice for children be worded?",
            "GDPR Art. 12(1)",
            "clear and plain language",
        ),
        (  # patient photos over a personal messaging app: how confidential data must be handled and sent
            "Can doctors share patient photos on WhatsApp?",
            "NDG Data Security Standard 1",
            "transmitted securely",
        ),
        (  # "..., and by when?" after a yes/no: the statement giving the date answers both (was: a task of the
            # access bodies with no date)
            "Is the EU going to lay down technical and security requirements for secure processing environments, "
            "and by when?",
            "EHDS Art. 73(5)",
            "By 26 March 2027",
        ),
        (  # a phrase the question quotes is found word for word: 9(2)(g), not 9(2)(i)'s public health
            "Our ministry says 'substantial public interest' covers a new national register. What does the GDPR "
            "require before that exception can be used?",
            "GDPR Art. 9(2)(g)",
            "proportionate to the aim pursued",
        ),
        (  # how long a hospital may keep records: storage limitation (was: an EHDS commentary on three months)
            "How long can a hospital keep my records?",
            "GDPR Art. 5(1)",
            "no longer than is necessary",
        ),
        (  # software its maker no longer updates is an unsupported system (was refused)
            "Some ward PCs still run an old web browser that no longer gets updates. Is that acceptable?",
            "NDG Data Security Standard 8",
            "No unsupported operating systems, software or internet browsers",
        ),
        (  # asking how long one's own data will be kept: the right of access says the envisaged period
            "Can I ask my hospital how long they're planning to keep my records?",
            "GDPR Art. 15(1)",
            "the envisaged period for which the personal data will be stored",
        ),
        (  # reuse for research against the original purpose: not incompatible (purpose limitation)
            "Is reusing hospital patient data for research treated as going against the purpose it was collected for?",
            "GDPR Art. 5(1)",
            "is not to be regarded as incompatible",
        ),
        (  # organ donation after death: the profile's post-mortem donor status extension
            "Where do we record that a patient agreed to organ donation after death in UK Core Patient?",
            "FHIR UK Core UKCore-Patient",
            "cadavericDonor",
        ),
        (  # insurance claims for research under the EHDS: administrative data on reimbursement claims
            "Could my health insurance claims be used for research under the EU health data rules?",
            "EHDS Art. 51(1)",
            "reimbursement claims",
        ),
        (  # a device got back unopened: the cases where telling the patients is not required (was: 34(1))
            "A stolen work laptop was recovered before anyone could open it. Do we still have to tell the patients?",
            "GDPR Art. 34(3)",
            "not required",
        ),
        (  # a person's request refused: the grounds on which a controller may refuse (was refused by us)
            "Can my GP practice refuse to give me a copy of my notes because I owe them money?",
            "GDPR Art. 12(5)",
            "manifestly unfounded or excessive",
        ),
        (  # "my company's ... rider" is the group rider, and a night on the ward is asked against the 24 hours of
            # Hospitalisation (was: the individual rider's pre-existing-disease wait)
            "Is a one-night stay for observation after a fall covered on my company's CareShield rider?",
            "CareShield Rider (Group) cl. 3.1",
            "at least 24 consecutive hours",
        ),
    ],
)
def test_a_plain_question_is_led_by_the_provision_that_answers_it(make_services, question, cited, stated):
    record = run_graph(question, make_services(), generator="offline", allow_web=False)
    first = record.answer.split("[Source")[0]
    assert record.status == "answered" and stated in first, record.answer
    assert record.citations[0].citation.startswith(cited), record.citations[0].citation


def test_the_sentence_right_after_the_rule_follows_it_as_its_caveat(make_services):
    record = run_graph(
        "Can I put my own notes into my electronic health record?",
        make_services(),
        generator="offline",
        allow_web=False,
    )
    assert record.citations[0].citation == "EHDS Art. 5"
    assert "right to insert information" in record.answer and "clearly identifiable" in record.answer


def test_a_statement_every_document_of_its_kind_says_does_not_follow_the_answer(make_services):
    # "Assessment: the DSPT is the annual online self-assessment ..." opens the assessment note of all ten standards:
    # it followed the standard and pushed out the note's own evidence items
    question = "Does the NDG data security framework expect us to keep a list of our IT suppliers?"
    record = run_graph(question, make_services(), generator="offline", allow_web=False)
    assert record.citations[0].citation == "NDG Data Security Standard 10", record.answer
    assert "knows which suppliers provide its IT systems" in record.answer
    assert "annual online self-assessment" not in record.answer


def test_a_sentence_spelling_out_the_law_s_name_says_nothing_the_question_asks(make_services):
    # "EHDS" expanded to "European Health Data Space" made the commentary's "Regulation (EU) 2025/327 on the European
    # Health Data Space (EHDS) was published on 5 March 2025" lead a question on a data permit
    question = "We need one more variable that isn't covered by our EHDS data permit. What do we do?"
    record = run_graph(question, make_services(), generator="offline", allow_web=False)
    assert record.status == "answered" and "published on 5 March 2025" not in record.answer, record.answer
    assert record.citations[0].citation.startswith("EHDS Art. 68"), record.answer


def test_another_paragraph_follows_a_one_part_answer_only_when_it_says_something_the_question_asks(make_services):
    # 7(1)'s point (p) answers; 33(1)'s "Member States may provide ... additional categories" was quoted after it
    services = make_services()
    question = "Do cohort studies have to make their questionnaire data available under the EHDS?"
    record = run_graph(question, services, generator="offline", allow_web=False)
    assert "after the first publication of the related results" in record.answer
    assert "additional categories" not in record.answer and len(record.citations) == 1, record.answer
    # ... while a question of two parts keeps the paragraph that answers its second (33(1) after 33(2))
    two = (
        "Our IT supplier had a breach that hit our patient data. How fast were they supposed to tell us, and how "
        "long do we now have to report it to the regulator?"
    )
    record = run_graph(two, services, generator="offline", allow_web=False)
    assert "without undue delay" in record.answer and "72 hours" in record.answer, record.answer


def test_a_list_kept_in_another_clause_is_quoted_whole_after_the_clause_referring_to_it(make_services):
    question = "Which illnesses does the group rider pay a lump sum for?"
    record = run_graph(question, make_services(), generator="offline", allow_web=False)
    assert "(a) Cancer" in record.answer and "(h) Permanent paralysis of limbs" in record.answer
    assert [c.citation for c in record.citations][:2] == [
        "CareShield Rider (Group) cl. 3.9",
        "CareShield Rider (Group) cl. 3.9.1",
    ]


@pytest.mark.parametrize(
    ("question", "prefix", "count"),
    [
        ("What are the Caldicott principles?", "Caldicott Principle", "eight"),
        ("List the NDG data security standards", "NDG Data Security Standard", "ten"),
    ],
)
def test_a_numbered_series_asked_for_whole_is_listed_with_every_member_cited(make_services, question, prefix, count):
    # each member is its own document: the pool of 20 and the cut to k would otherwise keep only some of them
    record = run_graph(question, make_services(), generator="offline", allow_web=False)
    assert record.answer.startswith(f"There are {count} {prefix}s:"), record.answer
    members = {c.citation for c in record.citations if c.citation.startswith(prefix)}
    total = {"eight": 8, "ten": 10}[count]
    assert members == {f"{prefix} {n}" for n in range(1, total + 1)}
    assert "(1) " in record.answer and f"({total}) " in record.answer


@pytest.mark.parametrize("question", ["Who has to appoint a DPO?", "Who needs a data protection officer?"])
def test_asked_who_must_do_something_the_provision_putting_the_duty_on_someone_leads(make_services, question):
    # not a patient roster question ("who has diabetes?"), and not how the DPO must be chosen (37(5), passive)
    record = run_graph(question, make_services(), generator="offline", allow_web=False)
    assert record.citations[0].citation == "GDPR Art. 37(1)", record.answer
    assert record.answer.startswith("The controller and the processor must in any case designate")
    assert "public authority" in record.answer and "large scale" in record.answer


def test_asked_what_a_right_is_the_rule_granting_it_leads_not_the_exception_to_it(make_services):
    # Art. 17(3) "Paragraphs 1 and 2 do not apply ..." is graded above 17(1): it shares the article's title
    record = run_graph("What is the right to be forgotten?", make_services(), generator="offline", allow_web=False)
    assert record.citations[0].citation == "GDPR Art. 17(1)", record.answer
    assert record.answer.startswith("The data subject has the right to obtain from the controller the erasure")


def test_asked_when_a_law_applies_the_statement_of_its_date_answers_though_every_article_grades_alike(make_services):
    # every EHDS chunk grades alike for this question (its only word is the law's name): the note stating the
    # date of application is brought into the evidence and leads, without its "Note:" label
    record = run_graph("When does the EHDS apply?", make_services(), generator="offline", allow_web=False)
    first = record.answer.split("[Source")[0]
    assert "applies from 26 March 2027" in first and not first.startswith("Note"), record.answer
    assert record.citations[0].citation.startswith("EHDS Art.")


def test_asked_about_a_patient_s_medicines_for_a_condition_the_answer_also_quotes_that_condition(make_services):
    # the record does not say which medicine is for which condition: both are quoted, the medicines first
    question = "Is Harriet O'Brien on anything for her type 2 diabetes?"
    record = run_graph(question, make_services(), generator="offline", allow_web=False)
    medications, conditions = record.answer.split("[Source")[0], record.answer.split("].")[1]
    assert "medications: Salbutamol" in medications and "Type 2 diabetes" in conditions, record.answer
    assert [c.citation.rsplit(" - ", 1)[1] for c in record.citations] == ["Medications", "Conditions"]


def test_a_following_statement_saying_what_the_question_asks_and_the_lead_does_not_may_go_over_the_budget(
    make_services,
):
    # 22(1) leads; 22(3) (59 words) is over the budget left after it, but only it says "human intervention"
    question = (
        "Our trust wants an algorithm to decide automatically which patients get a follow-up. Can patients insist "
        "a human looks at it?"
    )
    record = run_graph(question, make_services(), generator="offline", allow_web=False)
    assert "solely on automated processing" in record.answer and "human intervention" in record.answer, record.answer
    assert {c.citation for c in record.citations} >= {"GDPR Art. 22(1)", "GDPR Art. 22(3)"}


def test_a_paragraph_limiting_the_points_of_another_is_found_and_follows_only_those_points(make_services):
    """53(2) limits 53(1)'s purposes (a) to (c) to public sector bodies; it shares no word with "private firm" and
    ranked out of the pool: a best paragraph's exceptions are fetched from its article and graded on their merits."""
    services = make_services()
    statistics = run_graph("private firm wants EHDS data for official statistics", services, allow_web=False)
    assert [c.citation for c in statistics.citations] == ["EHDS Art. 53(1)", "EHDS Art. 53(2)"], statistics.answer
    assert "Only public sector bodies" in statistics.answer
    teaching = run_graph(
        "I lecture on a nursing degree and would like real hospital data for teaching. Is teaching an allowed purpose"
        " for EHDS secondary use?",
        services,
        allow_web=False,
    )
    assert "education or teaching" in teaching.answer and "Only public sector bodies" not in teaching.answer


def test_a_right_held_in_any_of_several_cases_is_quoted_with_every_case(make_services):
    """17(1)'s six grounds run to 187 words: one ground, quoted alone because it scored a hair above the others,
    read as the only case in which a patient may have records erased."""
    record = run_graph("Can a patient ask us to delete their records?", make_services(), allow_web=False)
    first = record.answer.split("[Source")[0]
    assert first.startswith("Yes, subject to conditions: the data subject has the right to obtain"), record.answer
    assert all(f"({letter})" in first for letter in "abcdef")


def test_a_statement_about_the_contrary_kind_does_not_lead(make_services):
    """The commentary's "opt out of secondary use at any time" scored highest for the primary use opt-out."""
    record = run_graph(
        "is the EHDS primary use opt-out reversible", make_services(), generator="offline", allow_web=False
    )
    assert record.citations[0].citation == "EHDS Art. 10(1)", record.answer
    assert "reversible" in record.answer and "secondary use" not in record.answer.split("[Source")[0]


@pytest.mark.parametrize(
    ("question", "exception"),
    [
        (  # 30(5) exempts small organisations from 30(1)'s record, unless they process special categories
            "We're a private physiotherapy clinic with about 30 staff. Surely we're too small to have to keep a record"
            " of processing activities?",
            "not subject to the obligations in paragraphs 1 and 2",
        ),
        (  # 20(1)'s right is quoted with its cases, whole; 20(3) takes processing in the public interest out of it
            "A patient has sent our NHS trust a data portability request, wanting his whole hospital record in a"
            " machine-readable file so he can move it elsewhere. Does that right apply to our processing?",
            "That right does not apply to processing necessary for the performance of a task carried out in the public"
            " interest",
        ),
    ],
)
def test_a_paragraph_exempting_a_case_from_the_lead_s_duty_or_right_follows_it(make_services, question, exception):
    record = run_graph(question, make_services(), generator="offline", allow_web=False)
    assert record.status == "answered" and exception in record.answer, record.answer


def test_asked_whether_there_is_something_the_rule_that_it_applies_leads_over_where_it_does_not(make_services):
    record = run_graph(
        "Is there a co-payment under the individual rider?", make_services(), generator="offline", allow_web=False
    )
    first = record.answer.split("[Source")[0]
    assert first.startswith("A Co-payment of 20% of every admissible claim"), record.answer
    assert "does not apply to the fixed benefits" in record.answer  # the exception follows


def test_what_a_document_sets_out_is_answered_with_its_whole_list(make_services):
    record = run_graph(
        "What does an EHDS data permit actually set out?", make_services(), generator="offline", allow_web=False
    )
    assert record.citations[0].citation == "EHDS Art. 68(10)", record.answer
    assert "(a) the categories" in record.answer and "(h) any specific conditions" in record.answer


def test_points_of_another_article_a_provision_takes_in_are_quoted_after_it(make_services):
    # Art. 34(2): "... must contain at least the information and measures referred to in points (b), (c) and (d)
    # of Article 33(3)": the letter to patients, not the notification to the regulator
    question = "What has to go in the letter to patients when we tell them about a data breach?"
    record = run_graph(question, make_services(), generator="offline", allow_web=False)
    assert [c.citation for c in record.citations][:2] == ["GDPR Art. 34(2)", "GDPR Art. 33(3)"], record.answer
    assert "clear and plain language" in record.answer and "Under GDPR Art. 33(3): (b) give the name" in record.answer
    assert "(a) describe the nature" not in record.answer  # only the points taken in


def test_a_list_quoted_after_the_lead_takes_no_word_budget_from_what_follows(make_services):
    # the list of critical illnesses (cl. 3.9.1) used to crowd out "payable once in the lifetime"
    question = (
        "I was paid the critical illness lump sum on my individual rider for cancer. Can I claim it again for a stroke?"
    )
    record = run_graph(question, make_services(), generator="offline", allow_web=False)
    assert "(h) Permanent paralysis of limbs" in record.answer, record.answer
    assert "once in the lifetime" in record.answer


@pytest.mark.parametrize(
    ("question", "opening", "members"),
    [
        (
            "What are the exclusions under the group rider?",
            "There are 16 exclusions under CareShield Rider (Group) cl. 5:",
            16,
        ),
        (  # asked in the policyholder's words; found by the section's lead-in
            "What does the individual CareShield rider not pay for?",
            "There are 16 exclusions under CareShield Rider (Individual) cl. 5:",
            16,
        ),
        (
            "Which waiting periods does the individual rider have?",
            "There are five waiting periods under CareShield Rider (Individual) cl. 4:",
            5,
        ),
    ],
)
def test_a_wording_s_section_asked_for_whole_lists_every_sub_clause_by_its_heading(
    make_services, question, opening, members
):
    # sub-clauses graded under the relevance floor (AYUSH, obesity) are still listed: a list is wrong without one
    record = run_graph(question, make_services(), generator="offline", allow_web=False)
    assert record.answer.startswith(opening), record.answer
    prefix = opening.split(" under ", 1)[1].rstrip(":")
    assert {c.citation for c in record.citations} == {f"{prefix}.{n}" for n in range(1, members + 1)}
    assert "Coverage:" not in record.answer  # a list of clauses has no one polarity


def test_asked_how_two_things_differ_the_answer_gives_each_one_s_definition(make_services):
    # a search for the pair ranks the processor's chunks; each term is also searched for its definition
    record = run_graph(
        "What is the difference between a controller and a processor?",
        make_services(),
        generator="offline",
        allow_web=False,
    )
    assert [c.citation for c in record.citations] == ["GDPR Art. 4(7)", "GDPR Art. 4(8)"], record.answer
    assert record.answer.startswith("‘controller’ means") and "‘processor’ means" in record.answer


def test_a_section_listed_for_one_wording_says_another_wording_has_its_own(make_services):
    # no rider named: one rider's exclusions are listed whole, and the other rider is named, not silently left out
    record = run_graph(
        "What are the exclusions?", make_services(), generator="offline", allow_web=False, collection="insurance"
    )
    listed = record.answer.split(":", 1)[0]
    assert re.match(r"There are 16 exclusions under CareShield Rider \((Group|Individual)\) cl\. 5", listed), (
        record.answer
    )
    other = "Individual" if "(Group)" in listed else "Group"
    assert f"CareShield Rider ({other}) cl. 5 has exclusions of its own [Source" in record.answer


def test_asked_how_two_named_wordings_differ_each_clause_is_followed_by_the_other_wording_s(make_services):
    # the group rider's maternity clauses alone were quoted: the individual rider's limit and wait were missing
    record = run_graph(
        "How is maternity cover different between the group and individual riders?",
        make_services(),
        generator="offline",
        allow_web=False,
    )
    for side, limit, wait in (("Group", "Rs. 50,000", "9 months"), ("Individual", "Rs. 30,000", "2 years")):
        assert re.search(rf"CareShield Rider \({side}\) cl\. 3\.7: [^\[]*{limit}", record.answer), record.answer
        assert re.search(rf"CareShield Rider \({side}\) cl\. 4\.4: [^\[]*{wait}", record.answer), record.answer
    assert "Coverage:" not in record.answer  # one side's polarity is not the comparison's


@pytest.mark.parametrize(
    ("question", "instrument", "articles"),
    [
        ("What rights do patients have under the EHDS?", "EHDS", [3, 5, 6, 7, 8, 9, 10, 71]),
        ("What are the data subject rights?", "GDPR", [15, 16, 17, 18, 20, 21]),
    ],
)
def test_asked_for_an_instrument_s_rights_every_article_granting_one_is_listed(
    make_services, question, instrument, articles
):
    # one paragraph of one right (Art. 3(3), Art. 20(1)) was the answer: each article is its own document
    record = run_graph(question, make_services(), generator="offline", allow_web=False)
    assert record.answer.startswith(f"The sources hold these {instrument} articles granting rights:"), record.answer
    assert [int(n) for n in re.findall(r"\(Art\. (\d+)\)", record.answer)] == articles
    cited = {c.citation.split("(")[0] for c in record.citations}
    assert cited == {f"{instrument} Art. {n}" for n in articles}


def test_with_no_wording_named_the_other_wording_s_clause_follows_when_it_says_something_else(make_services):
    # the group rider has no co-payment; the individual one has 20% from 61: a "no" alone misleads half the askers
    record = run_graph("Is there a co-payment for older people?", make_services(), generator="offline", allow_web=False)
    assert {c.citation for c in record.citations} >= {
        "CareShield Rider (Group) cl. 6.1",
        "CareShield Rider (Individual) cl. 6.1",
    }, record.answer
    assert "20%" in record.answer and "No Co-payment" in record.answer
    assert "Coverage:" not in record.answer  # two sides of one clause have no one polarity
    # the same words in both wordings are said once
    same = run_graph(
        "How long do I have to claim after discharge?", make_services(), generator="offline", allow_web=False
    )
    assert len({c.citation.split(" cl. ")[1] for c in same.citations}) == len(same.citations), same.answer


def ask_offline(make_services, question: str):
    """The full graph on the shipped index with the offline answerer and no web search."""
    return run_graph(question, make_services(), generator="offline", allow_web=False)


def test_asked_whether_a_thing_the_scene_names_stops_an_act_its_statement_that_it_does_not_answers_no(make_services):
    # "Does that stop my GP sharing ...?": the opt-out is the party and stopping the act, not the GP's sharing
    record = ask_offline(
        make_services,
        "I've registered a national data opt-out. Does that stop my GP sharing my details with the hospital"
        " that's treating me?",
    )
    assert record.answer.startswith("No: the opt-out does not apply to individual care"), record.answer


def test_a_tool_processing_every_patient_s_health_data_is_large_scale_and_the_dpo_is_asked_for_advice(make_services):
    # "for every patient we see" is processing on a large scale (35(3)(b)); "does our DPO have to be involved?" is
    # answered by 35(2), which the second part's own search brings
    record = ask_offline(
        make_services,
        "We want to roll out an AI triage tool that processes health data for every patient we see. Do we need a"
        " DPIA before go-live, and does our DPO have to be involved?",
    )
    assert "processing, on a large scale" in record.answer, record.answer
    assert "seek the advice of the data protection officer" in record.answer
    assert any(c.citation == "GDPR Art. 35(2)" for c in record.citations)


def test_member_states_are_no_member_and_informing_each_other_does_not_tell_the_asker(make_services):
    # "Member States shall provide ..." read as a member's act, and "shall inform each other" as telling "us", both
    # opened "Yes:"; the refusal's justification (68(9)) answers "Do they have to tell us why?", and only it says yes
    # ("they": the access body the scene opens with; "tell us why": give a justification)
    record = ask_offline(
        make_services,
        "The health data access body turned down our application. Do they have to tell us why, and could they have"
        " offered us something short of a full permit instead?",
    )
    assert record.citations[0].citation == "EHDS Art. 68(9)", record.answer
    assert record.answer.startswith("Yes: a health data access body that refuses to issue a data permit shall give")


@pytest.mark.parametrize(
    ("question", "point"),
    [
        ("Does the GDPR apply to an app company based outside the EU that tracks the behaviour of EU patients?", "(b)"),
        (
            "We're a US telemedicine company with no office in Europe, but we offer paid video consultations to"
            " patients living in Germany. Does the GDPR apply to us?",
            "(a)",
        ),
    ],
)
def test_asked_whether_a_law_applies_the_scope_rule_naming_the_question_s_case_leads(make_services, question, point):
    # 3(3) (a place where Member State law applies by virtue of public international law) scored higher and names
    # nothing of the case; 3(2)'s point on offering services or monitoring behaviour is the asker's case
    record = ask_offline(make_services, question)
    assert record.citations[0].citation == "GDPR Art. 3(2)", record.answer
    assert f": {point} " in record.answer.split("[Source")[0]


@pytest.mark.parametrize(
    ("question", "citation", "opening"),
    [
        (
            "Does every EU country have to set up a body that handles requests to reuse health data?",
            "EHDS Art. 55(1)",
            "Yes: Member States shall designate one or more health data access bodies",
        ),
        (
            "could my insurance company get hold of EU health data to bump up my premiums?",
            "EHDS Art. 54",
            "No: ",
        ),
    ],
)
def test_a_statement_ruling_on_the_asked_act_leads_a_yes_no_answer_when_it_scores_all_but_the_same(
    make_services, question, citation, opening
):
    record = ask_offline(make_services, question)
    assert record.citations[0].citation.startswith(citation), record.answer
    assert record.answer.startswith(opening)


def test_how_many_patients_a_breach_affects_is_no_search_of_the_records(make_services):
    # "how many patients are affected" in a breach report is not "which patients have X": the records were searched
    # (kept 80 of 160, all graded low) and the answer came from commentary; 33(3)'s list of what the notification
    # must describe answers
    record = ask_offline(
        make_services,
        "We found a breach 60 hours ago and still don't know how many patients are affected. What does our report"
        " to the regulator have to include, and can we send it before we have all the facts?",
    )
    assert record.citations[0].citation == "GDPR Art. 33(3)", record.answer
    assert "approximate number of data subjects" in record.answer
    assert not any(c.citation.startswith("Patient ") for c in record.citations)


@pytest.mark.parametrize(
    ("question", "tier"),
    [
        (
            "If the regulator found we had never carried out a DPIA or appointed a DPO, what is the maximum fine for"
            " that type of failure?",
            "10 000 000 EUR",
        ),
        ("What is the maximum fine for breaching the GDPR principles?", "20 000 000 EUR"),
    ],
)
def test_a_fine_for_a_controller_s_own_duty_is_the_lower_tier(make_services, question, tier):
    # DPIAs and DPOs are among 83(4)'s "Articles 8, 11, 25 to 39": 10 000 000 EUR or 2 %, not 83(5)'s 20 000 000
    record = ask_offline(make_services, question)
    assert tier in record.answer.split("[Source")[0], record.answer


def test_asked_whether_a_fee_may_be_charged_in_the_exception_s_own_case_the_exception_answers(make_services):
    # free of charge is the rule, but "the same request ... every single week" is the repetitive request the
    # exception is for: the controller may charge a reasonable fee or refuse, and bears the burden of showing it
    record = ask_offline(
        make_services,
        "One patient sends us the same request for a full copy of his records every single week. Are we allowed to"
        " refuse him or charge him for it?",
    )
    first = record.answer.split("[Source")[0]
    assert "manifestly unfounded or excessive" in first and not first.startswith("No"), record.answer
    assert "burden of demonstrating" in record.answer


def test_results_held_until_a_doctor_has_talked_are_the_delayed_access_and_no_subordinate_verb_opens_yes(
    make_services,
):
    # "before any doctor has talked to me" names EHDS 3(3)'s delayed access; "until a health professional is able to
    # communicate" is the condition of the restriction, not an act the answer says yes to, and the doctor of the
    # subordinate clause is not who the question asks about
    record = ask_offline(
        make_services,
        "If my biopsy comes back showing cancer, will the result just pop up in my online EU health record before"
        " any doctor has talked to me about it?",
    )
    assert record.citations[0].citation == "EHDS Art. 3(3)", record.answer
    assert "delaying their access" in record.answer and not record.answer.startswith("Yes")


def test_the_paragraph_saying_a_right_does_not_apply_joins_the_right_and_qualifies_its_yes(make_services):
    # 20(3) "... the right referred to in paragraph 1 ... That right does not apply to processing necessary for the
    # performance of a task carried out in the public interest" was graded below the kept five; it joins the
    # evidence after the paragraphs it limits, is quoted whole, and the yes is subject to conditions
    record = ask_offline(
        make_services,
        "I want to move my records from the NHS hospital to a private clinic using my GDPR right to data"
        " portability. Can I insist on that?",
    )
    assert record.answer.startswith("Yes, subject to conditions:"), record.answer
    assert "That right does not apply to processing necessary for the performance of a task" in record.answer
    assert any(c.citation == "GDPR Art. 20(3)" for c in record.citations)


def test_data_from_referral_letters_not_the_patients_themselves_are_answered_by_article_14_s_deadlines(make_services):
    # "most patient details" is no question about a maximum (it left 14(3)'s "at the latest within one month"
    # without its cue); data not obtained from the data subject are Art. 14's, not Art. 13's
    record = ask_offline(
        make_services,
        "We get most patient details from GP referral letters rather than from the patients themselves. By when do"
        " we have to give those patients our privacy information?",
    )
    assert record.citations[0].citation == "GDPR Art. 14(3)", record.answer
    assert "at the latest within one month" in record.answer.split("[Source")[0]


@pytest.mark.parametrize(
    "question",
    [
        "I'm the DPO at an NHS trust in Leeds. Do we need to get ready to handle EHDS secondary-use opt-outs and data"
        " permit requests the way EU hospitals will?",
        "Does the European Health Data Space apply to NHS hospitals in England?",
    ],
)
def test_the_ehds_asked_about_in_a_uk_setting_is_answered_that_it_does_not_apply_there(make_services, question):
    # the web fallback here is the shipped commentary collection ("secondary"), as on an offline machine
    record = run_graph(question, make_services(), generator="offline")
    assert record.answer.startswith("No: the EHDS, Regulation (EU) 2025/327, is EU law and does not apply in the UK")


@pytest.mark.parametrize(
    ("question", "citation", "said"),
    [
        (  # "stop them from using" while "they're checking": the right to restriction of processing
            "I'm sure a diagnosis written in my hospital record is wrong. While they're checking it, can I stop them"
            " from using that information?",
            "GDPR Art. 18(1)",
            ["contests the accuracy"],
        ),
        (  # 71(4) "As an exception to the right to opt out provided for in paragraph 1" graded best; 71(1), the right
            # itself, is graded at least as well and leads, followed by "Exercise of that right shall be reversible."
            "Can a patient stop their health data being reused for research under the new EU health data rules?",
            "EHDS Art. 71(1)",
            ["Exercise of that right shall be reversible"],
        ),
        (  # "Apart from a copy of my records, what else ...?" led with 15(3)'s copy; who the data were shared with
            # and how they are used is 15(1)'s list, quoted whole
            "Apart from a copy of my records, what else can I make my hospital tell me about how they use my data -"
            " for example who they've shared it with?",
            "GDPR Art. 15(1)",
            ["(a) the purposes of the processing", "recipients or categories of recipient"],
        ),
        (  # several rules broken in one processing: the gravest infringement sets the cap (was 83(5)'s tier)
            "After one incident the regulator found we had broken several GDPR rules in the same processing. Do the"
            " fines for each breach get added together?",
            "GDPR Art. 83(3)",
            ["amount specified for the gravest infringement"],
        ),
    ],
)
def test_a_plain_question_is_led_by_the_provision_for_its_case_and_says_what_it_asks(
    make_services, question, citation, said
):
    record = ask_offline(make_services, question)
    assert record.citations[0].citation == citation, record.answer
    assert all(phrase in record.answer for phrase in said), record.answer
