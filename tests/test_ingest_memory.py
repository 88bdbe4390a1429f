"""Ingest holds bounded memory for a large document: a file of one long line (no newlines) is not copied word by
word."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

from ingest.loaders import load_document
from tests.conftest import CORPUS

ARTICLES = ["gdpr_art_05", "gdpr_art_06", "gdpr_art_33"]  # repeated: few distinct texts to embed
FILE_BYTES = 2_000_000
# Loading that file held about 21 times its size (its words listed to find headings and collapse spaces); it
# holds 5 (the bytes read, the text, the unit joined from its lines).
LOAD_PEAK_PER_BYTE = 8


def one_line_prose(path: Path, size: int) -> Path:
    """About `size` bytes of shipped GDPR articles, over and over on one line."""
    texts = [(CORPUS / "health_governance" / f"{name}.txt").read_text(encoding="utf-8") for name in ARTICLES]
    block = " ".join(" ".join(text.split()) for text in texts)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text((block + " ") * (size // (len(block) + 1)), encoding="utf-8")
    return path


def test_a_file_of_one_long_line_is_loaded_without_listing_its_words(tmp_path):
    source = one_line_prose(tmp_path / "prose.txt", FILE_BYTES)
    load_document(CORPUS / "health_governance" / "gdpr_art_33.txt", CORPUS)  # modules imported before measuring
    tracemalloc.start()
    try:
        document = load_document(source, tmp_path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(document.units) == 1
    assert peak < LOAD_PEAK_PER_BYTE * source.stat().st_size, f"peak {peak / source.stat().st_size:.1f} times the file"
