"""Structured clause JSON for policy wordings (schema in README): one entry per clause, missing fields inferred."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ingest.policy import _DEFINED_TERM_RE, benefit_name, coverage_type, section_key
from ingest.units import LoaderError, Unit

CLAUSE_FIELDS = ("text", "section", "clause_id", "benefit_name", "limits", "waiting_period", "coverage_type")


def is_clause_json(payload: Any) -> bool:
    rows = payload.get("clauses") if isinstance(payload, dict) else payload
    return (
        isinstance(rows, list)
        and bool(rows)
        and isinstance(rows[0], dict)
        and "text" in rows[0]
        and (
            isinstance(payload, dict)
            and "clauses" in payload
            or any(k in rows[0] for k in ("clause_id", "benefit_name", "section"))
        )
    )


def clause_units(payload: Any, path: Path, citation: str) -> tuple[dict[str, Any], list[Unit]]:
    """(document metadata from the file, one unit per clause)."""
    document = dict(payload.get("document") or {}) if isinstance(payload, dict) else {}
    rows = payload.get("clauses") if isinstance(payload, dict) else payload
    citation = document.get("citation", citation)
    units = []
    for number, row in enumerate(rows or [], start=1):
        text = str(row.get("text", "")).strip()
        if not text:
            raise LoaderError(f"{path}: clause {number} has no text")
        unknown = set(row) - set(CLAUSE_FIELDS)
        if unknown:
            raise LoaderError(
                f"{path}: clause {number} has unknown fields {sorted(unknown)}; allowed: {list(CLAUSE_FIELDS)}"
            )
        clause_id = str(row.get("clause_id") or number)
        section = str(row.get("section") or "")
        first = text.split("\n", 1)[0].split(". ", 1)[0]
        heading = len(first.split()) <= 8 or _DEFINED_TERM_RE.match(first)  # a heading, or "Accident means ..."
        name = str(row.get("benefit_name") or benefit_name(first if heading else section))
        key = (
            section_key(name, section)
            if section_key(section) not in ("definitions", "exclusions")
            else section_key(section)
        )
        body = text
        if row.get("limits"):
            body += f"\nLimits: {row['limits']}"
        if row.get("waiting_period"):
            body += f"\nWaiting period: {row['waiting_period']}"
        units.append(
            Unit(
                body,
                f"{citation} cl. {clause_id}",
                section,
                extra={
                    "section_key": key,
                    "benefit_name": name,
                    "coverage_type": row.get("coverage_type") or coverage_type(body, key),
                    "clause_id": clause_id,
                },
            )
        )
    document.setdefault("document_type", "policy_wording")
    document.setdefault("category", "health")
    return document, units
