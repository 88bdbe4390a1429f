"""Provision text read as statements: lead-ins keep their points, points know their lead-in, labels apart."""

from __future__ import annotations

from language.passages import statements, strip_number

ART_33_3 = (
    "3. As a minimum, the notification referred to in paragraph 1 must:\n"
    "(a) describe the nature of the personal data breach;\n"
    "(b) give the name and contact details of the data protection officer;\n"
    "(c) describe the likely consequences of the personal data breach;\n"
    "(d) describe the measures taken or proposed."
)
DONOR = (
    "The Company shall pay for an organ donor, provided that: i.\n"
    "The donation conforms to the Transplantation of Human Organs Act 1994 ii.\n"
    "The organ is used for an Insured Person iii.\nThe donor is an in-patient in a Hospital.\n"
    "Claims must be filed within 30 days."
)
PRINCIPLE = (
    "Caldicott Principle 2 - Use confidential information only when it is necessary\n\n"
    "Confidential information should be included only where it is necessary. Alternatives should be used.\n\n"
    "Scope: this is one of the eight Caldicott Principles. The principles apply to health and adult social care."
)


def test_a_lead_in_carries_every_point_and_each_point_its_lead_in():
    lead, *points = statements(ART_33_3)
    assert lead.text == "As a minimum, the notification referred to in paragraph 1 must:" and len(lead.points) == 4
    assert [p.marker for p in points] == ["(a)", "(b)", "(c)", "(d)"]
    assert all(p.lead_in == lead.text for p in points)
    assert points[1].whole.startswith("As a minimum") and "(b) give the name" in points[1].whole


def test_a_point_within_a_point_reads_under_both_lead_ins():
    """EHDS Art. 57(1)(j)(iii): "(iii) all refusal decisions ..." is published: it reads under "(j) publishing, by
    electronic means:", which lists its own points; "(i)" after "(h)" is a letter, not a point of (h)."""
    text = (
        "1. Health data access bodies shall carry out the following tasks:\n"
        "(h) advising the Commission;\n"
        "(i) facilitating cross-border access;\n"
        "(j) publishing, by electronic means:\n"
        "(i) a national dataset catalogue;\n"
        "(ii) all refusal decisions, within 30 working days;\n"
        "(k) fulfilling the obligations towards natural persons."
    )
    lead, h, i, j, catalogue, refusals, k = statements(text)
    assert i.lead_in == lead.text and j.points == (
        "(i) a national dataset catalogue;",
        "(ii) all refusal decisions, within 30 working days;",
    )
    assert refusals.lead_in == f"{lead.text} (j) publishing, by electronic means:"
    assert "publishing" in refusals.whole and "30 working days" in refusals.whole
    assert k.lead_in == lead.text and len(lead.points) == 6


def test_pdf_points_whose_marker_ends_the_line_before():
    lead, *rest = statements(DONOR)
    assert lead.text.endswith("provided that:") and [p.split()[0] for p in lead.points] == ["i.", "ii.", "iii."]
    assert rest[-1].text == "Claims must be filed within 30 days." and not rest[-1].lead_in


def test_a_lead_in_continued_on_the_next_line_without_a_marker_is_one_statement():
    [heading, rule] = statements(
        "Article 9(2)(e) - Special categories: data made public\n\n"
        "Paragraph 1 shall not apply if:\nthe processing relates to personal data manifestly made public."
    )
    assert heading.heading and rule.text.endswith("if: the processing relates to personal data manifestly made public.")


def test_titles_are_headings_and_paragraph_labels_are_kept():
    parsed = statements(PRINCIPLE)
    assert parsed[0].heading and not parsed[1].heading
    assert [s.label for s in parsed[1:]] == ["", "", "scope", "scope"]


def test_a_title_that_states_a_rule_is_quotable_without_its_name():
    duty = (
        "Caldicott Principle 7 - The duty to share information is as important as the duty to protect confidentiality"
    )
    access = "Caldicott Principle 4 - Access to confidential information should be on a strict need-to-know basis"
    for title in (duty, access):
        [rule] = statements(title)
        assert not rule.heading and rule.label == "title" and rule.text == f"{title.split(' - ', 1)[1]}."
    [label] = statements("Article 53 - Purposes for which electronic health data can be processed for secondary use")
    assert label.heading  # a noun phrase names the article; it states nothing


def test_paragraph_numbers_are_stripped_but_numbered_points_inside_a_list_are_points():
    assert strip_number("1. In the case of a breach") == "In the case of a breach"
    assert strip_number("(15) ‘data concerning health’ means") == "‘data concerning health’ means"
    lead, first, second = statements("Cover applies if:\n1. the insured is admitted;\n2. a doctor advises it.")
    assert first.marker == "1." and second.lead_in == lead.text


def test_bullets_of_a_record_are_points_of_its_header():
    header, *items = statements(
        "Conditions of Patient pat-0045, Mateusz Da Silva:\n- Hypothyroidism, Active\n- Osteoarthritis, Active"
    )
    assert len(header.points) == 2 and [i.text for i in items] == ["Hypothyroidism, Active", "Osteoarthritis, Active"]


def test_a_section_or_clause_abbreviation_does_not_end_a_sentence():
    text = (
        "UK GDPR Art. 37(1)(a) requires a public authority to designate a DPO. DPA 2018 s. 7 links the meaning of "
        "public authority to the Freedom of Information Act 2000. The limit in cl. 3.1 applies per day."
    )
    assert [s.text for s in statements(text)] == [
        "UK GDPR Art. 37(1)(a) requires a public authority to designate a DPO.",
        "DPA 2018 s. 7 links the meaning of public authority to the Freedom of Information Act 2000.",
        "The limit in cl. 3.1 applies per day.",
    ]


def test_points_straight_after_a_heading_are_that_heading_s_list():
    text = (
        "3.9.1 List of Critical Illnesses\n(a) Cancer of specified severity;\n(b) Stroke.\nEach illness is diagnosed."
    )
    found = statements(text)
    assert found[0].text == "List of Critical Illnesses:" and not found[0].heading
    assert found[0].points == ("(a) Cancer of specified severity;", "(b) Stroke.")
    assert found[1].lead_in == "List of Critical Illnesses:"
    numbered = statements("2. Definitions\n2.1 Accident means a sudden event.\n2.2 Hospital means a place.")
    assert not any(s.points for s in numbered)  # numbered clauses under a heading stay clauses
    rules = statements(
        "Specified disease/procedure waiting period (Excl 02)\n(a) Expenses related to the treatment of the listed "
        "conditions shall be excluded until the expiry of the waiting period of continuous coverage after inception.\n"
        "(b) This exclusion shall not apply to claims arising due to an accident."
    )
    assert rules[0].heading and not rules[0].points  # lettered paragraphs that each state a rule stay paragraphs
    assert rules[1].marker == "(a)" and not rules[1].lead_in


def test_a_reference_to_points_is_not_split_into_points():
    text = (
        "1. Member States shall lay down rules on the authorisations referred to in point (a) of the first "
        "subparagraph and on the actions of guardians.\n"
        "Note: this Article applies from 26 March 2029 to the categories in Article 14(1), points (a), (b) and (c), "
        "and from 26 March 2031 to those in points (d), (e) and (f)."
    )
    said = [s.text for s in statements(text)]
    assert said[0].endswith("point (a) of the first subparagraph and on the actions of guardians.")
    assert len(said) == 2 and said[1].endswith("points (d), (e) and (f).")


def test_an_inline_list_is_still_split_into_its_points():
    text = (
        "The Insured Person shall notify the Company in writing: (a) in the event of emergency Hospitalisation, "
        "within 48 hours of admission; (b) in the event of planned Hospitalisation, at least 48 hours before "
        "admission. The hospital must have: (c) an operation theatre of its own; and (d) daily patient records."
    )
    points = [s for s in statements(text) if s.marker]
    assert [p.marker for p in points] == ["(a)", "(b)", "(c)", "(d)"]
    assert points[0].text.startswith("in the event of emergency")


def test_paragraphs_about_the_text_are_set_apart_from_what_it_says():
    from language.passages import without_notes_on_the_text

    text = "Use the minimum necessary.\nScope: this is one of eight principles.\nHistory: from 1997.\nNote: see Art. 5."
    assert without_notes_on_the_text(text) == "Use the minimum necessary.\nNote: see Art. 5."


def test_a_code_after_a_semicolon_stays_in_its_list_while_a_numbered_point_starts_a_statement():
    codes = (
        "Systems SHOULD use the degrade code: 196461000000101 Transfer-degraded drug allergy; "
        "196471000000108 Transfer-degraded non-drug allergy; 196421000000109 Transfer-degraded medication entry."
    )
    assert [s.text for s in statements(codes)] == [codes]
    points = "The form asks for: 1. the name of the patient; 2. the date of the referral to the clinic."
    assert len(statements(points)) == 2
