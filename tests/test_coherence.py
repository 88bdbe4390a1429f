"""Coherence rules: fragments an answer should not contain, and legal prose that must pass."""

from __future__ import annotations

import pytest

from language.coherence import Fragment, fragments, reads_as_label, sentences

CLEAN_LEAD = "The controller must notify the supervisory authority within 72 hours [Source 1]."

# (answer, rule of the one fragment in it): the offending sentence is the last one unless the rule is about the first.
FLAGGED = [
    # a sentence beginning with a bare list marker
    (
        f"{CLEAN_LEAD} (e) the health data applicant demonstrates sufficient measures to prevent misuse. [Source 2]",
        "list_marker",
    ),
    (
        f"{CLEAN_LEAD} (b) where applicable, the contact details of the data protection officer; [Source 4]",
        "list_marker",
    ),
    (f"{CLEAN_LEAD} ii. has qualified nursing staff under its employment round the clock. [Source 1]", "list_marker"),
    (f"{CLEAN_LEAD} a) the insured person is admitted for at least 24 hours. [Source 2]", "list_marker"),
    (f"{CLEAN_LEAD} (iv) a copy of the discharge summary. [Source 2]", "list_marker"),
    (
        "(15) 'data concerning health' means personal data related to the physical or mental health of a natural "
        "person. [Source 2]",
        "list_marker",
    ),
    (
        f"{CLEAN_LEAD} - UK Core suppliers SHALL populate MustSupport data elements where they have the information. "
        "[Source 1]",
        "list_marker",
    ),
    (f"{CLEAN_LEAD} • Cataract surgery is payable up to Rs. 40,000 per eye. [Source 3]", "list_marker"),
    (f"{CLEAN_LEAD} (A) Room Rent is payable at actuals. [Source 3]", "list_marker"),
    # a sentence beginning with a clause or paragraph number
    (
        f"{CLEAN_LEAD} 7 links the meaning of confidential information to the duty of confidence. [Source 2]",
        "clause_number",
    ),
    (
        f"{CLEAN_LEAD} 3.1.2 Cataract Surgery Expenses for cataract surgery are payable up to 25% of Sum Insured. "
        "[Source 2]",
        "clause_number",
    ),
    (
        "1. In the case of a personal data breach, the controller must notify it without undue delay. [Source 1]",
        "clause_number",
    ),
    (
        f"{CLEAN_LEAD} 3 Part 2 allows health data to be withheld where the serious harm test is met. [Source 1]",
        "clause_number",
    ),
    (
        f"{CLEAN_LEAD} 6.1 Co-payment A Co-payment of 20% of every admissible claim shall apply. [Source 2]",
        "clause_number",
    ),
    (f"{CLEAN_LEAD} 2) The processor must notify the controller without undue delay. [Source 1]", "clause_number"),
    # a first sentence beginning with a pronoun or demonstrative whose antecedent is not in the answer
    (
        "It also does not apply to processing by a natural person in a purely household activity. [Source 1]",
        "orphan_pronoun",
    ),
    ("This exclusion does not apply to hospitalisation arising from an Accident. [Source 2]", "orphan_pronoun"),
    (
        "They must notify the controller without undue delay after becoming aware of a breach. [Source 1]",
        "orphan_pronoun",
    ),
    ("These include patient summaries and electronic prescriptions. [Source 1]", "orphan_pronoun"),
    ("Such reasons include protecting against serious cross-border threats to health. [Source 3]", "orphan_pronoun"),
    ("It covers confidentiality incidents such as a letter sent to the wrong patient. [Source 1]", "orphan_pronoun"),
    (  # the pointer after a fronted phrase: which duration?
        "At the request of the health data user, that duration may be extended once. [Source 1]",
        "orphan_pronoun",
    ),
    # a heading or label as a sentence
    (f"Details: [Source 1] {CLEAN_LEAD}", "heading"),
    (
        f"Limits. The right to obtain a copy must not adversely affect the rights of others. [Source 3] {CLEAN_LEAD}",
        "heading",
    ),
    (f"The regulator. [Source 7] {CLEAN_LEAD}", "heading"),
    (
        f"Caldicott Principle 5 - Everyone with access to confidential information should be aware of their "
        f"responsibilities [Source 3] {CLEAN_LEAD}",
        "heading",
    ),
    (
        f"Article 9(1) - Processing of special categories of personal data: prohibition [Source 1] {CLEAN_LEAD}",
        "heading",
    ),
    (f"Room Rent and ICU Charges [Source 2] {CLEAN_LEAD}", "heading"),
    (f"{CLEAN_LEAD} Road Ambulance Cover (Clause 3.6): Rs. 3,000 per hospitalisation [Source 2]", "heading"),
    (
        f"Commentary - Lawful basis for processing health data for direct care in the UK [Source 1] {CLEAN_LEAD}",
        "heading",
    ),
    # a repeated sentence
    (f"{CLEAN_LEAD} The controller must notify the supervisory authority within 72 hours. [Source 2]", "repeated"),
    (
        f"{CLEAN_LEAD} Other text follows. [Source 2] The  controller MUST notify the supervisory authority within "
        "72 hours [Source 3]",
        "repeated",
    ),
    # an unterminated trailing piece
    (
        f"{CLEAN_LEAD} Conditions of Patient pat-0031, Wei Chen, NHS number 999 474 4801 (9994744801): - Chronic "
        "obstructive lung disease (SNOMED CT 13645005), onset 2020-04-25, Active [Source 1]",
        "unterminated",
    ),
    (f"{CLEAN_LEAD} Health data access bodies shall carry out the following tasks: [Source 2]", "unterminated"),
    (
        f"{CLEAN_LEAD} The notification must describe the nature of the breach, including, where possible, the "
        "categories and approximate number of",
        "unterminated",
    ),
    # a lead-in quoted without what it introduces, even with a full stop after its marker
    (
        f"{CLEAN_LEAD} Annex I (summary) - main characteristics of the priority categories of personal electronic "
        "health data for primary use: [Source 5]. Other text follows. [Source 2]",
        "dangling_lead_in",
    ),
]

# Answers that read as prose: each must give no fragment.
CLEAN = [
    # a condition fronted before "such" says which data: nothing before it is needed
    "Where processing has been restricted, such personal data shall only be processed with consent. [Source 1]",
    "Where the processing is based on consent, the controller must be able to demonstrate that the data subject "
    "has consented to processing of his or her personal data. [Source 1]",
    "In the case of a personal data breach, the controller must notify it to the supervisory authority without "
    "undue delay and, where feasible, no later than 72 hours after becoming aware of it. [Source 1]",
    CLEAN_LEAD,
    "Where a controller has a representative, that controller must still notify the authority [Source 1].",
    "Within 72 hours of becoming aware of the breach [Source 1].",
    "72 hours is the deadline under GDPR Art. 33(1) [Source 1].",
    "10 000 000 EUR or 2 % of the total worldwide annual turnover is the upper limit [Source 2].",
    "25% of the Sum Insured, up to Rs. 40,000 per eye, in each Policy Year [Source 1].",
    "30 June is the publication date for the annual DSPT assessment [Source 1].",
    "18 items of information make up a patient summary under Annex I [Source 1].",
    "Yes. Under GDPR Art. 9(2)(j) health data may be processed for scientific research purposes in accordance "
    "with Article 89(1) [Source 1].",
    "No. The Company shall not be liable for correction of eyesight below 7.5 dioptres [Source 1].",
    "Not covered: assisted reproduction, including in vitro fertilisation, is excluded (Excl17) [Source 1].",
    "Eight weeks. The supervisory authority may extend the period by six weeks [Source 1].",
    "As a minimum, the notification referred to in paragraph 1 must: (a) describe the nature of the personal data "
    "breach; (b) give the name and contact details of the data protection officer; (c) describe the likely "
    "consequences of the breach. [Source 4]",
    "After becoming aware of a personal data breach, the processor must notify the controller without undue delay. "
    "[Source 1] It must also document the breach. [Source 2]",
    "The right to erasure does not apply where processing is necessary for reasons of public interest in the area "
    "of public health (GDPR Art. 17(3)(c)). [Source 1] This exception covers Art. 9(2)(h) and (i). [Source 1]",
    "Under Sch. 3 Part 2 of the DPA 2018, health data may be withheld where the serious harm test is met. [Source 1]",
    "Cataract surgery is payable up to Rs. 40,000 per eye under cl. 3.1.2 of the individual rider. [Source 1]",
    "Health and social care professionals should have the confidence to share confidential information in the "
    "best interests of patients and service users. [Source 7]",
    "Scope: this is one of the eight Caldicott Principles as revised and published by the National Data Guardian "
    "in December 2020. [Source 1]",
    "If, during the Policy Period, an Insured Person suffers an Illness or Injury, the Company will pay the "
    "benefits set out in Section 3. [Source 2] Coverage: covered with conditions under CareShield Rider "
    "(Individual) cl. 3.1.2 [Source 2].",
    "Patient pat-0013, Deborah Paul Hughes, NHS number 999 690 5985 (9996905985). [Source 1]",
    "Natural persons have the right to download free of charge an electronic copy of their data (EHDS Art. 3(2)). "
    "[Source 1] The sources do not mention Germany.",
    "The Company will settle or reject a claim within 15 days of the last necessary document [Source 1], or within "
    "45 days where an investigation is needed [Source 2].",
    "A Caldicott Guardian is a senior person responsible for protecting the confidentiality of people's health and "
    "care information, e.g. when information is shared with the police. [Source 1]",
    "Regulation (EU) 2025/327 on the European Health Data Space was published on 5 March 2025. [Source 3]",
    "Access shall be given immediately after the data have been registered in an EHR system [Sources 1, 2].",
    "Under Art. 33(3) the notification must describe the likely consequences of the breach. [Source 1]",
    "1.5 times the annual premium is refunded in that case. [Source 1]",
    "I cannot answer this from the available sources.",
    "",
]


@pytest.mark.parametrize(("answer", "rule"), FLAGGED)
def test_fragments_are_flagged_with_their_rule(answer: str, rule: str):
    found = fragments(answer)
    assert [f.rule for f in found] == [rule], found


@pytest.mark.parametrize("answer", CLEAN)
def test_prose_is_not_flagged(answer: str):
    assert fragments(answer) == []


def test_enough_examples_both_ways():
    assert len(FLAGGED) >= 25 and len(CLEAN) >= 25
    assert {rule for _, rule in FLAGGED} == {
        "list_marker",
        "clause_number",
        "orphan_pronoun",
        "heading",
        "repeated",
        "unterminated",
        "dangling_lead_in",
    }


def test_the_fragment_is_the_offending_sentence_without_its_marker():
    answer = f"{CLEAN_LEAD} (e) the health data applicant demonstrates sufficient measures. [Source 3]"
    assert fragments(answer) == [
        Fragment("list_marker", "(e) the health data applicant demonstrates sufficient measures.")
    ]


def test_sentences_end_at_stops_and_at_markers_before_a_new_sentence():
    answer = (
        "Within 72 hours [Source 1]. The regulator. [Source 7] Conditions of Patient pat-0031: - Asthma, Active "
        "[Source 2] Rs. 40,000 per eye under Art. 9 and cl. 3.1.2 [Source 3] and the rest [Sources 1, 2]."
    )
    assert sentences(answer) == [
        "Within 72 hours.",
        "The regulator.",
        "Conditions of Patient pat-0031: - Asthma, Active",
        "Rs. 40,000 per eye under Art. 9 and cl. 3.1.2 and the rest.",
    ]


def test_a_pronoun_is_an_orphan_only_in_the_first_sentence():
    assert [f.rule for f in fragments("This Rider is renewable annually. [Source 1]")] == ["orphan_pronoun"]
    assert fragments("The Rider is renewable annually. [Source 1] This Rider may be cancelled. [Source 1]") == []


def test_one_fragment_per_sentence_and_every_bad_sentence_counted():
    answer = (
        "It builds on the GDPR. [Source 1] Secondary use. [Source 2] (a) public or occupational health; [Source 3] "
        "It builds on the GDPR. [Source 1] Article 53(1) - Purposes for which health data may be processed"
    )
    assert [f.rule for f in fragments(answer)] == ["orphan_pronoun", "heading", "list_marker", "repeated", "heading"]


@pytest.mark.parametrize("text", ["—", "• –", "...", "Timeline.", "Details:"])
def test_a_statement_without_words_or_with_only_a_label_reads_as_a_label(text: str):
    assert reads_as_label(text)  # never quoted as an answer; a bare dash once crashed the composer


def test_a_statement_reads_as_a_label_only_when_it_states_nothing():
    assert not reads_as_label("Claims are paid in 30 days.") and not reads_as_label("Yes.")


def test_pointing_back_and_needing_the_sentence_before():
    from language.coherence import needs_antecedent, points_back

    assert points_back("In such cases, each claim is subject to the same percentage.")
    assert points_back("For this purpose, the controller shall keep a record.")
    assert needs_antecedent("In such cases, each claim is subject to the same percentage.")
    assert needs_antecedent("This exclusion does not apply to accidents.")
    # a document naming itself can be quoted alone; the checker still asks an answer to name it
    assert points_back("This Regulation does not apply to household activity.")
    assert not needs_antecedent("This Regulation does not apply to household activity.")
    assert not points_back("In the case of a personal data breach, the controller shall notify.")
    assert [f.rule for f in fragments("In such cases, the limit is 20%. [Source 1]")] == ["orphan_pronoun"]
    # a dummy "it" points at nothing: "It shall be as easy to withdraw as to give consent" stands alone
    assert not needs_antecedent("It shall be as easy to withdraw as to give consent.")
    assert not needs_antecedent("It is not necessary to notify the data subject.")
    assert needs_antecedent("It shall be notified to the supervisory authority.")
    assert needs_antecedent("It shall be as set out in paragraph 2.")
    # a preposition before the pointer ("Under that accelerated procedure"), not before a document's own name
    assert needs_antecedent("Under that accelerated procedure, the body shall issue or refuse a data permit.")
    # a condition on what the sentence before named ("If that other processor fails ..."), not on a thing it names
    assert needs_antecedent("If that other processor fails to fulfil its obligations, the processor remains liable.")
    assert not needs_antecedent("If the processor fails to fulfil its obligations, it remains liable.")
    assert needs_antecedent("Within that period, the health data access body shall decide.")
    assert not points_back("Under this Regulation, the controller is responsible.")
    assert not points_back("Misuse, such as opening a relative's record out of curiosity, is unauthorised access.")
