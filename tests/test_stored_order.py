"""retrieval.sentence_vectors.stored_order: a chunk's split, kept by its text, bounded, equal to splitting again."""

from __future__ import annotations

from language.passages import scored_texts
from language.sentences import sentences_for_index
from retrieval.sentence_vectors import SPLIT_TEXTS, stored_order

TEXT = (
    "1. The controller shall notify the breach without undue delay. 2. Where feasible, within 72 hours:\n"
    "(a) the nature of the breach;\n(b) the likely consequences."
)


def test_the_split_is_the_ingest_split_and_is_computed_once_per_text():
    stored_order.cache_clear()
    first = stored_order(TEXT)
    assert first == (tuple(sentences_for_index(TEXT)), tuple(scored_texts(TEXT)))
    assert stored_order(TEXT) is first
    assert stored_order.cache_info().hits == 1


def test_the_kept_splits_stay_bounded():
    stored_order.cache_clear()
    for i in range(SPLIT_TEXTS + 50):
        stored_order(f"Sentence number {i} of the chunk. Another sentence.")
    assert stored_order.cache_info().currsize == SPLIT_TEXTS
    stored_order.cache_clear()
