"""Rewrite content_hash in every sidecar under the given folders after editing a text.

Usage: python scripts/refresh_hashes.py corpus/health_governance [more folders...]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ingest.sidecar import sha256_bytes

SIDECAR_SUFFIXES = (".meta.json", ".json")


def document_for(sidecar: Path) -> Path | None:
    """The document a sidecar describes, or None when the .json file is itself a document."""
    if sidecar.name.endswith(".meta.json"):
        doc = sidecar.with_name(sidecar.name[: -len(".meta.json")] + ".json")
        return doc if doc.exists() else None
    for suffix in (".txt", ".md", ".pdf", ".html", ".xml"):
        doc = sidecar.with_suffix(suffix)
        if doc.exists():
            return doc
    return None


def main(folders: list[str]) -> int:
    changed = 0
    for folder in folders:
        for sidecar in sorted(Path(folder).rglob("*.json")):
            document = document_for(sidecar)
            if document is None:
                continue
            meta = json.loads(sidecar.read_text(encoding="utf-8"))
            digest = sha256_bytes(document.read_bytes())
            if meta.get("content_hash") != digest:
                meta["content_hash"] = digest
                sidecar.write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
                changed += 1
    print(f"{changed} sidecar(s) updated")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
