"""How people say a patient's name: shared by the search scope (which records a question is asked of) and the
records answerer (which of the records given the question names)."""

from __future__ import annotations

import re
from functools import lru_cache


def spoken_names(full_name: str) -> list[str]:
    """How a full name is said, lower-case: whole, or the first given name with the family name, which may
    be more than one word ("Deborah Paul Hughes": "deborah paul hughes", "deborah hughes"; "Liam Da Silva":
    "liam da silva", "liam silva")."""
    tokens = full_name.lower().split()
    if len(tokens) < 2:
        return tokens
    return [" ".join(tokens), *(" ".join([tokens[0], *tokens[start:]]) for start in range(2, len(tokens)))]


@lru_cache(maxsize=16384)  # every question is matched against every patient: each pattern is built once
def naming(patient_id: str, full_name: str) -> re.Pattern[str]:
    """The patient's id or any way of saying the name, as whole words, lower-case: one search per patient."""
    said = [patient_id.lower(), *spoken_names(full_name)]
    return re.compile(r"\b(?:" + "|".join(re.escape(s) for s in said if s) + r")\b")
