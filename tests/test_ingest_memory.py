"""Ingest holds bounded memory for a large document: a file of one long line (no newlines) is not copied word by
word, and the generation is written from the catalog in small batches, not from every chunk held at once."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

from ingest.loaders import load_document
from retrieval.resources import Resources
from tests.conftest import CORPUS, ingest_into

ARTICLES = ["gdpr_art_05", "gdpr_art_06", "gdpr_art_33"]  # repeated: few distinct texts to embed
FILE_BYTES = 2_000_000
# Python memory the ingest of that file may hold at its peak. It held about 250 MB: the vectors of 512 chunks as
# lists of Python floats, and the line split into a list of its words (twice). It holds about 35 MB: the chunks
# (about 10 MB), one batch of embeddings being computed and one small batch of the generation being written.
PEAK_BYTES = 80_000_000
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


@pytest.mark.slow
def test_a_large_file_of_one_line_is_ingested_in_bounded_memory(settings, embedder, tmp_path):
    resources = Resources(settings, embedder=embedder)
    try:
        # what is loaded once per process (modules, the model) is loaded before measuring
        small = ingest_into(resources, [one_line_prose(tmp_path / "small" / "prose.txt", 20_000)])
        source = one_line_prose(tmp_path / "large" / "prose.txt", FILE_BYTES)
        tracemalloc.start()
        try:
            report = ingest_into(resources, [source])
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert not report.failed and report.chunks_written > 512  # more than one batch of the build it replaced
        assert resources.reader.store().count() == small.chunks_written + report.chunks_written
        assert peak < PEAK_BYTES, f"peak {peak / 1e6:.0f} MB"
    finally:
        resources.close()
