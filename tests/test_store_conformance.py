"""One conformance suite for both store backends: Qdrant Edge in-process and qdrant-client (local mode)."""

from __future__ import annotations

import numpy as np
import pytest
from qdrant_client import QdrantClient

from db.index import EdgeBackend
from db.server_backend import ServerBackend
from db.store import SearchQuery, StoredPoint
from retrieval.sparse import document_terms, encode_document, encode_query

DIM = 8
TEXTS = {
    "a": ("health_governance", "EU", "personal data breach notification within 72 hours", ["ref_33"]),
    "b": ("health_governance", "EU", "explicit consent for processing health data", ["ref_9", "ref_9_2", "ref_9_2_a"]),
    "c": ("health_governance", "UK", "caldicott principle duty to share information", ["principle_7"]),
    "d": ("insurance", "IN", "cataract surgery limit per eye sum insured", []),
    "e": ("insurance", "IN", "room rent limit one percent of sum insured", []),
}


def unit(seed: int) -> list[float]:
    vector = np.random.default_rng(seed).normal(size=DIM)
    return (vector / np.linalg.norm(vector)).tolist()


def points() -> list[StoredPoint]:
    out = []
    for i, (key, (collection, jurisdiction, text, refs)) in enumerate(TEXTS.items()):
        out.append(
            StoredPoint(
                id=f"00000000-0000-0000-0000-00000000000{i}",
                dense=unit(i),
                sparse=encode_document(document_terms(text, refs), 6.0),
                sentences=[unit(100 + i), unit(200 + i)],
                statements=[unit(300 + i)] if key != "e" else [],  # "e": stored before statements were
                payload={
                    "key": key,
                    "collection": collection,
                    "jurisdiction": jurisdiction,
                    "text": text,
                    "refs": refs,
                },
            )
        )
    return out


@pytest.fixture(params=["edge", "qdrant-client"])
def backend(request, tmp_path):
    if request.param == "edge":
        made = EdgeBackend(tmp_path / "index")
    else:
        made = ServerBackend(QdrantClient(path=str(tmp_path / "qdrant")), "policyrag")
    yield made
    made.close()


@pytest.fixture
def store(backend):
    name, writer = backend.create_generation(DIM)
    writer.upsert(points())
    writer.finish()
    writer.close()
    backend.publish(name)
    reader = backend.open(name)
    yield reader
    reader.close()


def query(text: str, seed: int, **kw) -> SearchQuery:
    return SearchQuery(dense=unit(seed), sparse=encode_query(text), limit=kw.pop("limit", 5), **kw)


def keys(hits) -> list[str]:
    return [h.payload["key"] for h in hits]


def test_counts(store):
    assert store.count() == 5
    assert store.counts_by("collection") == {"health_governance": 3, "insurance": 2}
    assert store.count({"collection": "insurance"}) == 2


def test_dense_list_is_the_nearest_vector_first(store):
    lists = store.search(query("anything", 3))
    assert keys(lists.dense)[0] == "d"
    assert lists.dense[0].score == pytest.approx(1.0, abs=1e-4)


def test_sparse_list_matches_terms_and_reference_tokens(store):
    lists = store.search(query("cataract limit per eye", 0))
    assert keys(lists.sparse)[0] == "d"
    assert "a" not in keys(lists.sparse)  # no shared term: not in the sparse list at all


def test_fused_list_combines_both_sides(store):
    lists = store.search(query("cataract limit per eye", 0))
    fused = keys(lists.fused)
    assert {keys(lists.dense)[0], keys(lists.sparse)[0]} <= set(fused[:3])
    assert set(fused) == set(keys(lists.dense)) | set(keys(lists.sparse))
    assert lists.fused[0].dense_vector is not None and len(lists.fused[0].dense_vector) == DIM


def test_rerank_orders_by_best_sentence(store):
    lists = store.search(query("room rent", 204))  # the second sentence vector of "e"
    assert keys(lists.reranked)[0] == "e"
    assert lists.reranked[0].score == pytest.approx(1.0, abs=1e-4)


def test_referenced_list_only_holds_chunks_with_the_reference(store):
    lists = store.search(query("Article 9(2)(a)", 0, reference_tokens=["ref_9_2_a"]))
    assert keys(lists.referenced) == ["b"]
    assert store.search(query("Article 9(2)(a)", 0)).referenced == []


def test_lists_without_payload_keep_their_ids_scores_and_vectors(store):
    full = store.search(query("cataract limit per eye", 0, reference_tokens=["ref_9_2_a"]))
    bare = store.search(query("cataract limit per eye", 0, reference_tokens=["ref_9_2_a"], payloads=("fused",)))
    for name in ("dense", "sparse", "fused", "reranked", "referenced"):
        before, after = getattr(full, name), getattr(bare, name)
        assert [h.id for h in after] == [h.id for h in before]
        assert [h.score for h in after] == pytest.approx([h.score for h in before], abs=1e-6)
        assert all(bool(h.payload) == (name == "fused") for h in after), name
    assert all(np.array_equal(a.dense_vector, b.dense_vector) for a, b in zip(bare.fused, full.fused, strict=True))


def test_a_search_computes_only_the_lists_asked_for(store):
    full = store.search(query("Article 9(2)(a)", 0, reference_tokens=["ref_9_2_a"]))
    only = store.search(query("Article 9(2)(a)", 0, reference_tokens=["ref_9_2_a"], lists=("referenced",)))
    assert only.dense == only.sparse == only.fused == only.reranked == []
    assert [h.id for h in only.referenced] == [h.id for h in full.referenced] and keys(only.referenced) == ["b"]


def test_a_sparse_list_alone_says_whether_any_chunk_holds_a_word(store):
    """Retriever.mentions: a sparse list computed alone (its query vector unused) holds only chunks sharing a term."""

    def holding(text: str) -> list[str]:
        request = SearchQuery(dense=[0.0] * DIM, sparse=encode_query(text), limit=1, payloads=(), lists=("sparse",))
        ids = [h.id for h in store.search(request).sparse]
        return [store.stored_chunks(ids)[i].payload["key"] for i in ids]

    assert holding("cataract") == ["d"]
    assert holding("bonus") == []


def test_stored_chunks_give_payload_and_dense_vector(store):
    ids = [p.id for p in points()]
    stored = store.stored_chunks([*ids[:2], "00000000-0000-0000-0000-000000000099", "not-an-id"])
    assert set(stored) == set(ids[:2])  # ids not in the index are left out
    for point in points()[:2]:
        assert stored[point.id].payload["key"] == point.payload["key"]
        np.testing.assert_allclose(stored[point.id].dense, point.dense, atol=1e-6)


def test_statement_vectors_come_back_with_sentence_vectors(store):
    ids = [p.id for p in points()]
    stored = store.stored_sentences(ids)
    for point in points():
        assert stored[point.id].text == point.payload["text"]  # the one payload field a sentence read asks for
        np.testing.assert_allclose(stored[point.id].vectors, point.sentences, atol=1e-6)
        if point.statements:
            np.testing.assert_allclose(stored[point.id].statements, point.statements, atol=1e-6)
    assert len(stored[ids[4]].statements) == 0  # none stored: the answerer embeds what it scores


def test_filters_equal_any_and_not(store):
    assert set(keys(store.search(query("limit", 0, filters={"collection": "insurance"})).dense)) == {"d", "e"}
    assert set(keys(store.search(query("x", 0, filters={"jurisdiction": ["UK", "IN"]})).dense)) == {"c", "d", "e"}
    assert set(keys(store.search(query("x", 0, filters={"!collection": "insurance"})).dense)) == {"a", "b", "c"}
    assert {p["key"] for p in store.payloads({"collection": "insurance"})} == {"d", "e"}


def test_generations_publish_and_collect_garbage(backend):
    names = []
    for _ in range(4):
        name, writer = backend.create_generation(DIM)
        writer.upsert(points()[:2])
        writer.finish()
        writer.close()
        backend.publish(name)
        names.append(name)
        assert backend.current() == name
    removed = backend.collect_garbage()
    assert set(removed) == set(names[:2])
    reader = backend.open(backend.current())
    assert reader.count() == 2
    reader.close()


def test_a_discarded_generation_is_never_published(backend, store):
    current = backend.current()
    name, writer = backend.create_generation(DIM)
    writer.close()
    backend.discard(name)
    assert backend.current() == current
    assert store.count() == 5


def test_generations_left_unpublished_by_a_killed_writer_are_discarded(backend, store):
    current = backend.current()
    names = []
    for _ in range(2):  # two writers killed before publishing
        name, writer = backend.create_generation(DIM)
        writer.upsert(points()[:2])
        writer.close()
        names.append(name)
    assert backend.discard_unpublished() == names
    assert backend.current() == current and store.count() == 5
    assert backend.discard_unpublished() == []
