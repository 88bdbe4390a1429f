"""A numbered series asked for whole: which questions ask for one, and which citations are its members."""

from __future__ import annotations

import pytest

from language.analysis import across_patients
from language.series import asked_series, member_of

PRINCIPLES = [f"Caldicott Principle {n}" for n in (8, 6, 4)]
STANDARDS = ["NDG Data Security Standard 2", "NDG Data Security Standard 7"]


def test_a_member_is_a_citation_ending_in_its_number_not_a_provision_s_paragraph():
    assert member_of("Caldicott Principle 8").prefix == "Caldicott Principle"
    assert member_of("NDG Data Security Standard 10").number == 10
    assert member_of("GDPR Art. 33(1)") is None
    # a wording's sub-clause is a member of its clause's series
    clause = member_of("CareShield Rider (Group) cl. 3.9.1")
    assert clause.prefix == "CareShield Rider (Group) cl. 3.9" and clause.number == 1 and clause.sub_clause


@pytest.mark.parametrize(
    ("question", "citations", "prefix"),
    [
        ("What are the Caldicott principles?", PRINCIPLES, "Caldicott Principle"),
        ("Can you list the NDG data security standards?", STANDARDS + PRINCIPLES, "NDG Data Security Standard"),
        ("Summarise the standards", STANDARDS, "NDG Data Security Standard"),
        # the name asked must be in the series' own: no NDG standard is a Caldicott standard
        ("What are the Caldicott standards?", STANDARDS, None),
        # one provision's list, not a series
        ("What are the conditions for consent?", ["Consent Condition 1", "Consent Condition 2"], None),
        ("What are the principles of processing?", PRINCIPLES, None),
        # one member is no series
        ("What are the Caldicott principles?", ["Caldicott Principle 2", "GDPR Art. 5(1)"], None),
    ],
)
def test_a_series_is_asked_for_by_its_members_plural_noun_and_name(question, citations, prefix):
    assert asked_series(question, [(citation, "") for citation in citations]) == prefix


@pytest.mark.parametrize(
    ("question", "roster"),
    [
        ("Who has diabetes?", True),
        ("Who is on warfarin?", True),
        ("Who has to appoint a DPO?", False),
        ("Who is responsible for reporting a breach?", False),
        ("Who is the controller for shared care records?", False),
    ],
)
def test_who_has_a_condition_asks_across_patients_and_who_has_a_duty_does_not(question, roster):
    assert across_patients(question) is roster


EXCLUSIONS = [
    (f"CareShield Rider ({variant}) cl. 5.{n}", f"5. Exclusions / 5.{n} Something (Code - Excl0{n})")
    for variant in ("Individual", "Group")
    for n in (1, 2, 3)
]


@pytest.mark.parametrize(
    ("question", "prefix"),
    [
        ("What are the exclusions?", "CareShield Rider (Individual) cl. 5"),  # the first of equals: the best graded
        ("What are the exclusions under the group rider?", "CareShield Rider (Group) cl. 5"),
        ("What are the exclusions in my policy?", "CareShield Rider (Individual) cl. 5"),
        ("What are the exclusions under the GDPR?", None),  # the scope names no wording found
        ("What are the benefits?", None),  # no section of that name among them
        ("Which exclusions does the group rider have?", "CareShield Rider (Group) cl. 5"),
        ("List the exclusions of the group rider", "CareShield Rider (Group) cl. 5"),
    ],
)
def test_a_wording_s_section_is_a_series_of_its_sub_clauses_named_by_its_heading(question, prefix):
    assert asked_series(question, EXCLUSIONS) == prefix


HEADS = [
    ("CareShield Rider (Individual) cl. 5", "5. Exclusions"),
    ("CareShield Rider (Group) cl. 5", "5. Exclusions"),
    ("CareShield Rider (Group) cl. 4", "4. Waiting Periods"),
]


@pytest.mark.parametrize(
    ("question", "prefix"),
    [
        # a section's own lead-in found is its series found: no sub-clause need rank among the candidates
        ("What are the exclusions under the group rider?", "CareShield Rider (Group) cl. 5"),
        # what a wording does not pay for, asked in the policyholder's words, is its exclusions
        ("What does the individual CareShield rider not pay for?", "CareShield Rider (Individual) cl. 5"),
        ("What isn't covered by the group rider?", "CareShield Rider (Group) cl. 5"),
        ("What won't the group CareShield rider pay for?", "CareShield Rider (Group) cl. 5"),
        ("What's not covered under my individual CareShield policy?", "CareShield Rider (Individual) cl. 5"),
        ("What does my policy exclude?", "CareShield Rider (Individual) cl. 5"),
        ("What is excluded from the group rider?", "CareShield Rider (Group) cl. 5"),
        # one item asked about, or what is covered: no list of exclusions
        ("What does the group rider not cover for dental treatment?", None),
        ("What is covered by the group rider?", None),
        ("What does the GDPR not cover?", None),  # the scope names no wording found
    ],
)
def test_a_section_is_found_by_its_lead_in_and_asked_for_in_plain_words(question, prefix):
    assert asked_series(question, HEADS) == prefix


@pytest.mark.parametrize(
    ("question", "instrument"),
    [
        ("What rights do patients have under the EHDS?", "EHDS"),
        ("What are the data subject rights?", "GDPR"),  # a data subject's rights are the GDPR's
        ("What are my rights under the GDPR?", "GDPR"),
        ("What rights do I have to see my records under the GDPR?", None),  # one right's content
        ("What are my rights?", None),  # no instrument named
    ],
)
def test_the_rights_of_an_instrument_are_asked_for_as_a_whole(question, instrument):
    from language.series import rights_asked

    assert rights_asked(question) == instrument


def test_a_series_asked_for_by_what_there_is_of_it_is_asked_for_whole():
    found = [(f"Caldicott Principle {n}", "") for n in (1, 2, 3)]
    assert asked_series("Which Caldicott principles are there?", found) == "Caldicott Principle"
    assert asked_series("How many Caldicott principles are there?", found) == "Caldicott Principle"
    assert asked_series("Which Caldicott principle is about the duty to share?", found) is None
