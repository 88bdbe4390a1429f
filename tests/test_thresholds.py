"""A figure the question states against a minimum or maximum a text sets (language/thresholds.py), and the
answers that turn on it."""

from __future__ import annotations

from language.thresholds import Quantity, falls_short, stated_quantities
from tests.conftest import run_graph

HOSPITALISATION = "Hospitalisation means admission for a minimum period of 24 consecutive in-patient care hours."


def test_figures_are_read_with_their_unit_and_words_between():
    assert stated_quantities("went home the next afternoon - about 18 hours.") == [Quantity("hours", 18)]
    assert stated_quantities("a clinic with three in-patient beds") == [Quantity("beds", 3)]
    assert stated_quantities("We are a 3,000-staff trust.") == [Quantity("people", 3000)]
    # days, months and years measure waiting and notice as well as a stay: language.waiting reads those
    assert stated_quantities("a five-day admission, two weeks after joining") == []


def test_a_figure_is_compared_with_a_bound_in_the_same_kind_of_unit_only():
    assert falls_short([Quantity("hours", 18)], HOSPITALISATION) is True
    assert falls_short([Quantity("hours", 30)], HOSPITALISATION) is False
    assert falls_short([Quantity("beds", 3)], HOSPITALISATION) is None  # no bound on beds
    fewer = "The obligations do not apply to an organisation employing fewer than 250 persons."
    assert falls_short([Quantity("people", 3000)], fewer) is True
    assert falls_short([Quantity("people", 40)], fewer) is False
    assert falls_short([Quantity("hours", 18)], "Claims are settled within 30 days.") is None  # no bound stated


def test_a_stay_shorter_than_the_minimum_is_answered_no_from_the_clause_setting_it(make_services):
    out = run_graph(
        "Individual rider claim: the patient was admitted at 10 pm for IV fluids and observation and went home the"
        " next afternoon - about 18 hours, no procedure done. Is that a valid hospitalisation claim?",
        make_services(),
        collection="insurance",
        allow_web=False,
    )
    lead = out.answer.split("[Source")[0]
    assert lead.startswith("No: ") and "24 consecutive" in lead, out.answer


def test_a_facility_smaller_than_the_definition_requires_is_answered_no_from_the_definition(make_services):
    """The AYUSH benefit pays for treatment "in an AYUSH Hospital"; a definition (never a clause on cover)
    decides the case when the question's figure (three beds) does not meet its minimum (at least 5)."""
    out = run_graph(
        "We have an individual CareShield claim for a five-day homeopathy admission at a clinic with three"
        " in-patient beds and a qualified practitioner on site around the clock. Can we pay it under the AYUSH"
        " benefit?",
        make_services(),
        collection="insurance",
        allow_web=False,
    )
    assert out.citations[0].citation == "CareShield Rider (Individual) cl. 2.3", out.answer
    assert out.answer.startswith("No: AYUSH Hospital means") and "at least 5 in-patient beds" in out.answer
