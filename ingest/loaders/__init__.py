"""Pick the loader for a file and merge its metadata: inferred < command-line defaults < sidecar."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

from ingest.detection import detect
from ingest.loaders.clauses import clause_units, is_clause_json
from ingest.loaders.eurlex import act_metadata, is_convex, is_formex, load_convex, load_formex
from ingest.loaders.fhir import fhir_units
from ingest.loaders.html import html_lines
from ingest.loaders.pdf import load_pdf
from ingest.loaders.text import load_text, read_text
from ingest.sidecar import Sidecar, SidecarError, read_sidecar, sha256_bytes, sidecar_path_for
from ingest.structure import Line, split_units
from ingest.units import LoadedDocument, LoaderError, Unit

TEXT_SUFFIXES = {".txt", ".md"}
SUPPORTED_SUFFIXES = TEXT_SUFFIXES | {".pdf", ".html", ".htm", ".xhtml", ".xml", ".json", ".jsonl"}
IGNORED_NAMES = {"readme.md", "manifest.md", "license", "license.txt"}
POLICY_WORDING_RANK = 2  # the terms of a contract, as the shipped wordings' sidecars rank them


def is_sidecar(path: Path) -> bool:
    """A `.json` file that describes a sibling document rather than being one."""
    if path.name.endswith(".meta.json"):
        return True
    if path.suffix.lower() != ".json":
        return False
    return any(path.with_suffix(s).exists() for s in (*TEXT_SUFFIXES, ".pdf", ".html", ".htm", ".xhtml", ".xml"))


def is_document(path: Path) -> bool:
    return (
        path.is_file()
        and not path.name.startswith(".")
        and path.name.lower() not in IGNORED_NAMES
        and path.suffix.lower() in SUPPORTED_SUFFIXES
        and not is_sidecar(path)
    )


def _default_metadata(path: Path) -> dict[str, Any]:
    """What a document without a sidecar is described as until told otherwise (no source URL: the only
    one known would be a path on this machine, which no reply may show)."""
    return {
        "title": path.stem.replace("_", " ").replace("-", " ").strip() or path.name,
        "publisher": "unknown",
        "jurisdiction": "unknown",
        "document_type": "commentary",
        "version": "unversioned",
        "effective_from": date(1970, 1, 1).isoformat(),
        "citation": path.stem,
        "hierarchy_rank": 4,
    }


def _read_json(path: Path) -> Any:
    try:
        text = read_text(path)
        if path.suffix.lower() == ".jsonl":
            return [json.loads(line) for line in text.splitlines() if line.strip()]
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise LoaderError(f"{path}: invalid JSON ({exc.msg} at line {exc.lineno})") from exc


def _paragraph_units(rows: list[Any], path: Path, citation: str) -> list[Unit]:
    """Units from JSON/JSONL paragraph rows: each row's `citation` becomes the unit's citation."""
    units = []
    for number, row in enumerate(rows, start=1):
        if not isinstance(row, dict) or not str(row.get("text", "")).strip():
            raise LoaderError(f"{path}: row {number} has no text")
        section = " - ".join(str(row[k]) for k in ("article_title", "chapter_title") if row.get(k))
        extra = {k: row[k] for k in ("kind", "article", "paragraph", "recital", "id") if row.get(k) is not None}
        units.append(Unit(str(row["text"]), str(row.get("citation") or f"{citation} #{number}"), section, extra=extra))
    return units


def _structured(path: Path, data: bytes) -> tuple[dict[str, Any], list[Unit] | None, list[Line] | None]:
    """(inferred metadata, units or lines) for one file, by type."""
    suffix = path.suffix.lower()
    if suffix in TEXT_SUFFIXES:
        return {}, None, load_text(path)
    if suffix == ".pdf":
        metadata, lines = load_pdf(path)
        return metadata, None, lines
    if suffix in (".html", ".htm", ".xhtml"):
        html = read_text(path)
        if is_convex(html):
            metadata, units = load_convex(path)
            return metadata, units, None
        return {}, None, html_lines(html, path)
    if suffix == ".xml":
        if is_formex(read_text(path)[:5000]):
            metadata, units = load_formex(path)
            return metadata, units, None
        raise LoaderError(f"{path}: unknown XML (only EUR-Lex Formex acts are supported)")
    payload = _read_json(path)
    if isinstance(payload, dict) and payload.get("resourceType"):
        return {"document_type": "patient_record"}, fhir_units(payload, ""), None
    if is_clause_json(payload):
        document, units = clause_units(payload, path, "")
        return document, units, None
    rows = payload.get("paragraphs") if isinstance(payload, dict) else payload
    if isinstance(rows, list) and rows:
        first = rows[0] if isinstance(rows[0], dict) else {}
        inferred = (
            act_metadata(first.get("citation", "")) if first.get("citation", "").startswith(("GDPR", "EHDS")) else {}
        )
        if inferred:
            inferred["citation"] = inferred["instrument"] = first["citation"].split()[0]
            inferred["title"] = f"{inferred['instrument']} ({path.name})"
        return inferred, _paragraph_units(rows, path, path.stem), None
    raise LoaderError(f"{path}: unknown JSON document (expected a FHIR resource or a list of paragraphs with text)")


def _detected(lines: list[Line], defaults: dict[str, Any]) -> dict[str, Any]:
    """The detection, recorded; a detected policy wording is read clause by clause unless the user gave a type."""
    detection = detect(lines)
    found = detection.metadata()
    if detection.document_type and "document_type" not in defaults:
        found.update(document_type=detection.document_type, hierarchy_rank=POLICY_WORDING_RANK)
    return found


def load_document(path: Path, root: Path, defaults: dict[str, Any] | None = None) -> LoadedDocument:
    """Load one file into units with validated metadata; raises LoaderError or SidecarError naming it."""
    if path.suffix.lower() not in SUPPORTED_SUFFIXES:
        raise LoaderError(f"{path}: unsupported file type {path.suffix or '(none)'}")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise LoaderError(f"{path}: cannot read ({exc.strerror})") from exc
    if not data.strip():
        raise LoaderError(f"{path}: empty file")
    content_hash = sha256_bytes(data)
    sidecar_file = sidecar_path_for(path)
    sidecar: Sidecar | None = read_sidecar(sidecar_file) if sidecar_file.exists() else None
    if sidecar is not None and sidecar.content_hash != content_hash:
        raise SidecarError(
            f"{sidecar_file}: content_hash does not match {path.name} (the text changed; "
            "update the sidecar, e.g. python scripts/refresh_hashes.py)"
        )
    inferred, units, lines = _structured(path, data)
    if lines is not None and sidecar is None:
        inferred.update(_detected(lines, defaults or {}))
    metadata = {**_default_metadata(path), **inferred, **(defaults or {})}
    if sidecar is not None:
        metadata.update(sidecar.model_dump(mode="json", exclude_none=True))
    metadata["content_hash"] = content_hash
    try:
        validated = Sidecar.model_validate(metadata).model_dump(mode="json", exclude_none=True)
    except Exception as exc:
        raise LoaderError(f"{path}: invalid metadata ({exc})") from exc
    citation = validated["citation"]
    if units is None:
        units = split_units(lines or [], citation, validated["document_type"])
    else:
        for unit in units:
            if not unit.citation or unit.citation.startswith((" - ", " cl. ")):
                unit.citation = f"{citation}{unit.citation}"
    units = [u for u in units if u.text.strip()]
    if not units:
        raise LoaderError(f"{path}: no text to index")
    doc_id = path.relative_to(root).with_suffix("").as_posix() if path.is_relative_to(root) else path.stem
    validated["sidecar"] = sidecar is not None
    validated["source_file"] = path.name
    return LoadedDocument(doc_id, path, content_hash, validated, units)


# Bump when loading or chunking changes what a document becomes: every document is then re-chunked
# on the next ingest (vectors of unchanged text come from the cache, so this costs little).
PIPELINE_VERSION = "26"


def fingerprint(path: Path, defaults: dict[str, Any] | None) -> str:
    """Changes when the document, its sidecar, the ingest defaults or the pipeline version change."""
    parts = [PIPELINE_VERSION.encode(), path.read_bytes()]
    sidecar = sidecar_path_for(path)
    if sidecar.exists():
        parts.append(sidecar.read_bytes())
    parts.append(json.dumps(defaults or {}, sort_keys=True).encode())
    return sha256_bytes(b"\x00".join(parts))
