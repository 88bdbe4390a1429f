"""Stored sentence vectors stand in for query-time embedding: the same scores, without running the model.

Real model, real Qdrant Edge index of the shipped corpus; the embedder's own count of texts it embedded
shows what went through the model."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from generation.compose import compose
from language.passages import scored_texts, statements
from language.sentences import sentences_for_index, split_sentences
from language.support import score_sentences
from retrieval.sentence_vectors import SentenceVectors
from retrieval.strips import strip

QUESTION = "How quickly must a personal data breach be reported to the supervisory authority?"
FILTERS = {"collection": "health_governance"}


def test_a_text_embeds_the_same_alone_or_beside_others(embedder):
    """The model quantises activations per run; each text is run alone, so its neighbours change nothing."""
    text = "The controller shall notify the personal data breach without undue delay."
    long = " ".join(["The data subject shall have the right to erasure of personal data without undue delay."] * 6)
    alone = embedder.embed_documents([text])[0]
    beside = embedder.embed_documents([long, text, "Processing of health data is prohibited."])[1]
    assert np.array_equal(alone, beside)
    assert np.array_equal(alone, embedder.embed_query(text))


def test_concurrent_questions_embed_on_separate_sessions_with_the_same_vectors(embedder, models_dir, tmp_path):
    """Two sessions: while one is held, another thread still embeds (with one session it would wait)."""
    from retrieval.embedder import Embedder
    from tests.conftest import make_settings

    pooled = Embedder(make_settings(tmp_path / "data", models_dir, embedding_sessions=2))
    text = "The controller shall notify the personal data breach without undue delay."
    done: dict[str, np.ndarray] = {}
    with pooled._session():  # one session busy, as if another question were embedding
        worker = threading.Thread(target=lambda: done.setdefault("vector", pooled.embed_query(text)))
        worker.start()
        worker.join(timeout=60)
        assert not worker.is_alive() and "vector" in done
    assert np.array_equal(done["vector"], embedder.embed_query(text))  # any session, the same vector
    assert pooled.calls == 1


def test_a_query_searched_twice_is_embedded_once_and_the_memo_is_bounded(models_dir, tmp_path, monkeypatch):
    from retrieval.embedder import Embedder
    from tests.conftest import make_settings

    monkeypatch.setattr("retrieval.embedder.RECENT_QUERIES", 2)
    embedder = Embedder(make_settings(tmp_path / "data", models_dir, embedding_sessions=1))
    question = "Who must be told about a breach of patient records, and how fast?"
    before = embedder.calls
    first = embedder.embed_query(question)
    assert np.array_equal(embedder.embed_query(question), first) and embedder.calls - before == 1
    with pytest.raises(ValueError):
        first[0] = 0.0  # shared by every caller: read-only
    for other in ("first other question", "second other question"):
        embedder.embed_query(other)
    before = embedder.calls
    assert np.array_equal(embedder.embed_query(question), first) and embedder.calls - before == 1  # evicted


def test_the_index_returns_each_sentence_vector_ingest_computed(shipped, embedder):
    chunks = shipped.retriever.retrieve(QUESTION, FILTERS, 5)
    stored = shipped.reader.store().stored_sentences([c.chunk_id for c in chunks])
    assert set(stored) == {c.chunk_id for c in chunks}
    for chunk in chunks:
        sentences = sentences_for_index(chunk.text)
        assert stored[chunk.chunk_id].text == chunk.text
        np.testing.assert_allclose(
            np.asarray(stored[chunk.chunk_id].vectors), embedder.embed_documents(sentences), rtol=0, atol=1e-6
        )
    assert shipped.reader.store().stored_sentences(["00000000-0000-0000-0000-000000000000", "web-1"]) == {}


def test_scoring_stored_sentences_embeds_only_the_question(shipped, embedder):
    chunks = shipped.retriever.retrieve(QUESTION, FILTERS, 5)
    passages = [split_sentences(c.text) for c in chunks]
    assert sum(map(len, passages)) > 5
    expected = score_sentences(QUESTION, passages, embedder.embed_documents)  # everything embedded now

    vectors = SentenceVectors(embedder, shipped.reader)
    before = embedder.calls
    scored = score_sentences(QUESTION, passages, vectors.for_chunks(chunks))
    assert embedder.calls - before == 1  # the question; every sentence came from the index
    assert [(s.block, s.text, s.score) for s in scored] == [(s.block, s.text, s.score) for s in expected]

    before = embedder.calls
    score_sentences(QUESTION, passages, vectors.for_chunks(chunks))
    assert embedder.calls == before  # the question too is embedded once


def test_a_question_searched_as_it_is_is_not_embedded_again_for_scoring(shipped, embedder):
    """Retrieval embeds a question without expansion terms as the very text refine and the composer score
    sentences against: its query vector is reused (bit-identical, see the first test)."""
    question = "May a clinic keep a patient's records after she moves to another practice?"
    vectors = SentenceVectors(embedder, shipped.reader)
    searched = embedder.embed_query(question)
    before = embedder.calls
    assert np.array_equal(vectors.embed([question])[0], searched)
    assert embedder.calls == before


def test_strips_and_the_offline_answer_are_unchanged(shipped, embedder):
    """Refine and the composer give what embedding everything at query time gives; the composer's statements
    (a lead-in with its points, a paragraph number dropped) come from the index too: only the question is
    embedded."""
    chunks = [c.model_copy(update={"confidence": 0.7}) for c in shipped.retriever.retrieve(QUESTION, FILTERS, 5)]
    vectors = SentenceVectors(embedder, shipped.reader)
    refined = strip(QUESTION, chunks, vectors.for_chunks, 0.45, 0.8)
    assert refined and refined == strip(QUESTION, chunks, lambda _: embedder.embed_documents, 0.45, 0.8)
    before = embedder.calls
    answer = compose(QUESTION, chunks, vectors.for_chunks(chunks))
    reused = embedder.calls - before
    assert answer == compose(QUESTION, chunks, embedder.embed_documents)
    assert "[Source 1]" in answer
    assert reused <= 1  # the question, unless refine embedded it already


def test_the_index_returns_a_vector_for_each_statement_the_answerer_scores(shipped, embedder):
    chunks = shipped.retriever.retrieve("What must a breach notification describe?", FILTERS, 5)
    stored = shipped.reader.store().stored_sentences([c.chunk_id for c in chunks])
    listed = [c for c in chunks if any(s.points for s in statements(c.text))]
    assert listed, "a lead-in with points among the chunks"
    for chunk in chunks:
        texts = scored_texts(chunk.text)
        np.testing.assert_allclose(
            np.asarray(stored[chunk.chunk_id].statements), embedder.embed_documents(texts), rtol=0, atol=1e-6
        )


def test_the_memo_is_bounded(shipped, embedder):
    vectors = SentenceVectors(embedder, shipped.reader, max_texts=3)
    texts = [f"Sentence number {n} about data protection." for n in range(5)]
    first = vectors.embed(texts)
    assert len(vectors._vectors) == 3
    np.testing.assert_array_equal(vectors.embed(texts[:1]), first[:1])  # evicted, embedded again, the same


def test_a_text_embedded_ahead_is_the_same_vector_and_is_not_embedded_again(embedder, models_dir, tmp_path):
    from retrieval.embedder import AHEAD, Embedder
    from tests.conftest import make_settings

    pooled = Embedder(make_settings(tmp_path / "data", models_dir, embedding_sessions=2))
    question = "Can a hospital keep treating someone's data after they object?"
    pooled.embed_ahead(question)
    pooled.embed_ahead(question)  # already under way: not started twice
    assert len(pooled._ahead) <= AHEAD
    assert np.array_equal(pooled.recent_query(question), embedder.embed_query(question))
    assert np.array_equal(pooled.embed_query(question), embedder.embed_query(question))
    assert pooled.calls == 1 and not pooled._ahead


def test_nothing_is_embedded_ahead_without_a_second_free_session(models_dir, tmp_path):
    from retrieval.embedder import Embedder
    from tests.conftest import make_settings

    single = Embedder(make_settings(tmp_path / "data", models_dir, embedding_sessions=1))
    single.embed_ahead("Who is a data controller?")
    assert single.recent_query("Who is a data controller?") is None and single.calls == 0
