"""A reader keeps what it read of a published generation's chunks, and never answers from an older generation."""

from __future__ import annotations

import numpy as np

from db.index import EdgeBackend, IndexReader
from db.read_memo import ReadMemo
from db.store import SearchQuery, StoredPoint
from retrieval.sparse import document_terms, encode_document, encode_query

DIM = 8
IDS = [f"00000000-0000-0000-0000-00000000000{i}" for i in range(3)]


def unit(seed: int) -> list[float]:
    vector = np.random.default_rng(seed).normal(size=DIM)
    return (vector / np.linalg.norm(vector)).tolist()


def publish(backend: EdgeBackend, version: int) -> str:
    """A generation of three chunks; each version has other texts and vectors under the same ids."""
    name, writer = backend.create_generation(DIM)
    writer.upsert(
        [
            StoredPoint(
                id=id_,
                dense=unit(10 * version + i),
                sparse=encode_document(document_terms(f"breach notification version {version}"), 4.0),
                sentences=[unit(100 * version + i)],
                payload={"text": f"breach notification version {version}", "version": version},
            )
            for i, id_ in enumerate(IDS)
        ]
    )
    writer.finish()
    writer.close()
    backend.publish(name)
    return name


def search(reader: IndexReader):
    query = SearchQuery(dense=unit(0), sparse=encode_query("breach notification"), limit=3, payloads=("fused",))
    return reader.store().search(query)


def test_memo_fetches_only_what_it_does_not_keep():
    memo: ReadMemo[str] = ReadMemo(max_chunks=2)
    asked: list[list[str]] = []

    def fetch(ids: list[str]) -> dict[str, str]:
        asked.append(ids)
        return {i: i.upper() for i in ids if i != "gone"}

    assert memo.read(["a", "b", "a", "gone"], fetch) == {"a": "A", "b": "B"}
    assert memo.read(["b", "c"], fetch) == {"b": "B", "c": "C"}
    assert asked == [["a", "b", "gone"], ["c"]]  # "b" kept; nothing stored under "gone" is asked again too
    memo.read(["a"], fetch)  # "a", the least recently used, made room for "c"
    assert asked[-1] == ["a"]


def test_memo_of_size_zero_keeps_nothing():
    memo: ReadMemo[int] = ReadMemo(max_chunks=0)
    calls = []
    for _ in range(2):
        assert memo.read(["x"], lambda ids: calls.append(ids) or {"x": 1}) == {"x": 1}
    assert calls == [["x"], ["x"]]
    assert memo.read([], lambda ids: calls.append(ids) or {}) == {}
    assert len(calls) == 2


def test_a_search_through_the_memo_returns_what_the_engine_stores(tmp_path):
    plain, memoised = EdgeBackend(tmp_path / "index"), EdgeBackend(tmp_path / "index", memo_chunks=100)
    publish(plain, 1)
    readers = [IndexReader(plain), IndexReader(memoised)]
    try:
        first, cached = search(readers[0]).fused, search(readers[1]).fused
        again = search(readers[1]).fused
        for hits in (cached, again):
            assert [(h.id, h.score, h.payload) for h in hits] == [(h.id, h.score, h.payload) for h in first]
            assert all(np.array_equal(a.dense_vector, b.dense_vector) for a, b in zip(hits, first, strict=True))
        assert all(a.payload is b.payload for a, b in zip(again, cached, strict=True))  # read once
        stored = readers[1].store().stored_sentences(IDS)
        assert stored == readers[1].store().stored_sentences(IDS)
        np.testing.assert_allclose(stored[IDS[0]].vectors, [unit(100)], atol=1e-6)
    finally:
        for reader in readers:
            reader.close()
        plain.close()
        memoised.close()


def test_a_newly_published_generation_is_never_answered_from_the_old_memo(tmp_path):
    backend = EdgeBackend(tmp_path / "index", memo_chunks=100)
    publish(backend, 1)
    reader = IndexReader(backend)
    try:
        assert {h.payload["version"] for h in search(reader).fused} == {1}
        old = reader.store().stored_sentences(IDS)
        np.testing.assert_allclose(old[IDS[0]].vectors, [unit(100)], atol=1e-6)
        publish(backend, 2)  # the same chunk ids, other payloads and vectors
        hits = search(reader).fused
        assert {h.payload["version"] for h in hits} == {2}
        by_id = {h.id: h for h in hits}
        np.testing.assert_allclose(by_id[IDS[1]].dense_vector, unit(21), atol=1e-6)
        np.testing.assert_allclose(reader.store().stored_sentences(IDS)[IDS[0]].vectors, [unit(200)], atol=1e-6)
    finally:
        reader.close()
        backend.close()


def test_a_search_repeated_word_for_word_is_answered_from_the_memo(tmp_path, monkeypatch):
    backend = EdgeBackend(tmp_path / "index", memo_chunks=100)
    publish(backend, 1)
    reader = IndexReader(backend)
    try:
        store = reader.store()
        engine = store._search  # type: ignore[attr-defined]
        asked: list[SearchQuery] = []

        def counted(query: SearchQuery):
            asked.append(query)
            return engine(query)

        monkeypatch.setattr(store, "_search", counted)
        first = search(reader)
        assert search(reader) is first and len(asked) == 1
        other = SearchQuery(dense=unit(0), sparse=encode_query("breach notification"), limit=2, payloads=("fused",))
        assert len(store.search(other).fused) == 2 and len(asked) == 2  # another limit is another search
    finally:
        reader.close()
        backend.close()
