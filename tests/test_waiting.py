"""How long the asker's cover has run, and which waiting periods are still running for what is asked."""

from __future__ import annotations

import pytest

from language.waiting import cover_run_days, still_waiting

ANY_ILLNESS = "Expenses related to the treatment of any Illness within 30 days from the first commencement date"
PRE_EXISTING = "A Pre-existing Disease shall be excluded until the expiry of 36 months of continuous coverage"
MATERNITY = "Maternity Expenses are covered only after a maternity waiting period of 2 years of continuous coverage"


@pytest.mark.parametrize(
    ("question", "days"),
    [
        ("I bought my own rider two weeks ago and I've been admitted with dengue.", 14),
        ("A member wants cataract surgery 8 months after joining.", 240),
        ("She needs a knee replacement, 26 months after inception.", 780),
        ("We're three months into the policy.", 90),
        ("I bought the rider last month.", None),  # no measure said: nothing is compared
        ("I was admitted two weeks ago.", None),  # a stay, not the cover, began then
    ],
)
def test_the_time_the_cover_has_run_is_read_from_the_question(question, days):
    assert cover_run_days(question) == days


def test_a_waiting_period_runs_only_when_longer_than_the_cover_and_for_the_kind_asked():
    assert still_waiting("dengue fever", ANY_ILLNESS, 14, names_asked=False)
    assert not still_waiting("dengue fever", ANY_ILLNESS, 60, names_asked=False)  # 30 days are over
    assert not still_waiting("dengue fever", PRE_EXISTING, 14, names_asked=False)  # no pre-existing disease asked
    assert still_waiting("my pre-existing diabetes", PRE_EXISTING, 400, names_asked=False)
    assert not still_waiting("a knee operation", MATERNITY, 100, names_asked=False)
    listed = "the diseases listed below shall be excluded until the expiry of 12 months of continuous coverage"
    assert still_waiting("cataract", listed, 240, names_asked=True)
    assert not still_waiting("a broken arm", listed, 240, names_asked=False)
    assert not still_waiting("dengue fever", ANY_ILLNESS, None, names_asked=False)
