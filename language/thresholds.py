"""Quantities a question states and the thresholds a text sets on them, compared.

"Admitted at 10 pm, home the next afternoon - about 18 hours. Is that a valid hospitalisation claim?" is decided
by "a minimum period of 24 consecutive in-patient care hours"; "a clinic with three in-patient beds" by "at least
5 in-patient beds"; "a trust with 3,000 staff" by "fewer than 250 persons". The question's figure is compared with
every threshold in the same kind of unit (hours with hours, beds with beds, staff with persons).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_NUMBERS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "fifteen": 15, "eighteen": 18, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
}  # fmt: skip
# each unit's kind and its size in the kind's smallest unit; of periods only hours, the measure of a stay ("24
# consecutive hours"): days, months and years measure waiting, cover and notice too, which language.waiting reads
_UNITS = {
    "hour": ("hours", 1), "bed": ("beds", 1), "person": ("people", 1), "people": ("people", 1),
    "employee": ("people", 1), "staff": ("people", 1), "worker": ("people", 1),
}  # fmt: skip
_NUMBER = rf"(?P<n>\d{{1,3}}(?:,\d{{3}})+|\d+|{'|'.join(_NUMBERS)})"
# "24 consecutive in-patient care hours", "5 in-patient beds", "3,000-staff": up to three words between
_UNIT = (
    r"(?:[ -](?!(?:and|or|of|per|a|the)\b)[a-z-]+){0,3}?"
    r"[ -](?P<unit>hour|bed|person|people|employee|staff|worker)s?\b"
)
_QUANTITY_RE = re.compile(rf"\b{_NUMBER}{_UNIT}", re.I)
# the bound a text sets: at least (a minimum), or fewer than (a maximum)
_AT_LEAST = r"at least|a minimum (?:period )?of|minimum of|not less than|no less than|more than|over|exceeding"
_AT_MOST = r"fewer than|less than|not more than|no more than|up to|a maximum of|maximum of|under"
_THRESHOLD_RE = re.compile(rf"\b(?:(?P<least>{_AT_LEAST})|(?P<most>{_AT_MOST})) {_NUMBER}{_UNIT}", re.I)


@dataclass(frozen=True)
class Quantity:
    """A figure and the kind of thing it counts: 18 hours is ("hours", 18), 3,000 staff ("people", 3000)."""

    kind: str
    value: float


def _quantity(match: re.Match[str]) -> Quantity:
    number = match["n"].lower().replace(",", "")
    kind, size = _UNITS[match["unit"].lower()]
    return Quantity(kind, (int(number) if number.isdigit() else _NUMBERS[number]) * size)


def stated_quantities(question: str) -> list[Quantity]:
    """The figures the question states with their unit ("about 18 hours", "three in-patient beds")."""
    return [_quantity(m) for m in _QUANTITY_RE.finditer(question)]


def falls_short(stated: list[Quantity], text: str) -> bool | None:
    """Whether a stated figure fails a threshold the text sets in the same kind of unit (18 hours against "a
    minimum period of 24 ... hours": True; 30 hours: False); None when the text sets none the question can meet."""
    verdicts = [
        (quantity.value < bound.value) if match["least"] else (quantity.value >= bound.value)
        for match in _THRESHOLD_RE.finditer(text)
        for bound in [_quantity(match)]
        for quantity in stated
        if quantity.kind == bound.kind
    ]
    return any(verdicts) if verdicts else None
