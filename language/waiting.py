"""How long the asker's cover has run, and whether a wording's waiting period is still running for it.

"I bought my rider two weeks ago and I've been admitted with dengue. Will they pay?" is answered by the 30 days
from the first commencement date, not by the 36 months for a pre-existing disease the asker never mentioned: the
time the question says the cover has run is compared with each waiting period a statement sets.
"""

from __future__ import annotations

import re

_NUMBER = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "eighteen": 18, "twenty": 20, "thirty": 30,
}  # fmt: skip
_DAYS = {"day": 1, "week": 7, "month": 30, "year": 365}
_AMOUNT = rf"(?P<n>\d+|{'|'.join(_NUMBER)})[ -](?P<unit>day|week|month|year)s?"
# "bought it two weeks ago", "8 months after joining", "three months into the policy"
_ELAPSED_RES = (
    re.compile(
        r"\b(bought|buy|joined|join|took out|taken out|started|start|signed up|enrolled|got|purchased|renewed)\b"
        rf"[^.?!]{{0,50}}?\b{_AMOUNT} ago\b",
        re.I,
    ),
    re.compile(
        rf"\b{_AMOUNT} (after|since|from) (joining|buying|inception|taking (it|the \w+) out|(the )?(start|first "
        r"commencement)|(it|the cover|the policy|the rider|cover) (started|began))\b",
        re.I,
    ),
    re.compile(rf"\b{_AMOUNT} into (the|my|his|her|their|our) (policy|cover|rider|scheme)\b", re.I),
)
# "within 30 days from the first commencement date", "36 months of continuous coverage", "a waiting period of 2 years"
_WAITING_RES = (
    re.compile(
        rf"\b{_AMOUNT} (of continuous coverage|(from|of) the (first )?commencement|after the date of inception)\b", re.I
    ),
    re.compile(rf"\bwaiting period of {_AMOUNT}\b", re.I),
)
# what a waiting period is for, when it is not every illness: a statement setting one for these waits only for them
_WAITED_FOR_RE = re.compile(r"\b(pre-existing|critical illness|maternity|listed below|listed in)\b", re.I)


def _days(match: re.Match[str]) -> int:
    number = match.group("n").lower()
    return (int(number) if number.isdigit() else _NUMBER[number]) * _DAYS[match.group("unit").lower()]


def cover_run_days(question: str) -> int | None:
    """How many days the question says the asker's cover has run, or None when it says nothing of it."""
    for pattern in _ELAPSED_RES:
        if match := pattern.search(question):
            return _days(match)
    return None


def still_waiting(asked: str, text: str, run_days: int | None, names_asked: bool) -> bool:
    """The statement sets a waiting period longer than the cover has run, for what the question asks about
    (`asked`: its words and the terms of its plain phrases): every illness, or the kind it names (a pre-existing
    disease, a critical illness, maternity), or a listed disease when the statement names what is asked
    (`names_asked`: "(a) Cataract" under "the diseases listed below")."""
    if run_days is None:
        return False
    period = next((m for pattern in _WAITING_RES if (m := pattern.search(text))), None)
    if period is None or _days(period) <= run_days:
        return False
    lowered = asked.lower()
    return all(
        names_asked if kind.group(0).lower().startswith("listed") else kind.group(0).lower() in lowered
        for kind in _WAITED_FOR_RE.finditer(text)
    )
