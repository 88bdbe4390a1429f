"""How policy-wording detection (ingest/detection.py) separates wordings from laws and guidance.

    python -m evals.policy_detection      # the real wordings need ../shared/corpora/insurance

Positives: the real insurer PDFs and their Markdown conversions in ../shared, and the shipped riders.
Negatives: every other shipped text (laws, principles, standards, commentary), the NHS GP guidelines and the
FHIR UK Core guide pages in ../shared, and the HealRAG peer corpus. Prints each document's confidence and
the margin around DETECTION_THRESHOLD: the lowest positive and the highest negative.
"""

from __future__ import annotations

import sys
from pathlib import Path

from core.settings import REPO_ROOT
from evals.datasets import SHARED
from ingest.detection import DETECTION_THRESHOLD, detect
from ingest.loaders.pdf import load_pdf
from ingest.loaders.text import load_text
from ingest.structure import Line

INSURANCE = SHARED / "corpora" / "insurance"


def _lines(path: Path) -> list[Line]:
    return load_pdf(path)[1] if path.suffix == ".pdf" else load_text(path)


def labelled() -> list[tuple[Path, bool]]:
    """(document, is a policy wording) for every document found."""
    corpus = REPO_ROOT / "corpus"
    positives = [
        *sorted((INSURANCE / "pdf").glob("*.pdf")),
        *sorted((INSURANCE / "markdown").glob("*.md")),
        *sorted((corpus / "insurance").glob("*.txt")),
    ]
    negatives = [
        *sorted(p for folder in ("health_governance", "secondary") for p in (corpus / folder).glob("*.txt")),
        *sorted((SHARED / "corpora" / "nhs").rglob("ch-*.md")),
        *sorted((SHARED / "corpora" / "fhir_uk_core" / "ig_pages").rglob("*.md")),
        *sorted((SHARED / "peers" / "healrag" / "corpus").glob("*.txt")),
    ]
    return [(p, True) for p in positives] + [(p, False) for p in negatives]


def main() -> int:
    rows = [(detect(_lines(path)), path, positive) for path, positive in labelled()]
    for found, path, positive in sorted(rows, key=lambda r: -r[0].confidence):
        label = "wording" if positive else "other"
        counts = f"clauses {found.clauses:3} sections {found.sections:2} terms {found.terms:2}"
        print(f"{found.confidence:.3f} {label:8} {counts}  {path.relative_to(path.parents[1])}")
    positives = [f.confidence for f, _, positive in rows if positive]
    negatives = [f.confidence for f, _, positive in rows if not positive]
    wrong = sum(1 for f, _, positive in rows if (f.confidence >= DETECTION_THRESHOLD) != positive)
    print(
        f"\n{len(positives)} wordings (lowest {min(positives, default=0):.3f}), {len(negatives)} others "
        f"(highest {max(negatives, default=0):.3f}); threshold {DETECTION_THRESHOLD}: {wrong} misclassified"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
