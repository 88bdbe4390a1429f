"""The embedded default: one Qdrant Edge shard per index generation, in-process.

Published generations are never written again, so they are created without a write-ahead log
and any number of processes (service, Studio server, CLI) can open the same one at once. The
engine writes into any shard it loads, so readers load a private view of the generation
(db/reader_view.py) and the published files stay as the writer left them.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal, cast

import qdrant_edge as qe
from cachetools import LRUCache

from db.read_memo import ReadMemo
from db.reader_view import ReaderView
from db.store import (
    DENSE,
    INDEXED_FIELDS,
    RRF_K,
    SENTENCES,
    SPARSE,
    STATEMENTS,
    WITH_DENSE_VECTOR,
    Filters,
    Hit,
    SearchLists,
    SearchQuery,
    StoredChunk,
    StoredPoint,
    StoredSentences,
    StoreError,
    VectorStore,
    batches,
    float32_rows,
    point_ids,
    split_filters,
)

SEARCHES_KEPT = 64  # per opened generation: the lists (ids, scores, shared payloads) of its latest searches
# Sentences only rescore the fused candidates and statements are only read back: neither is searched through an
# HNSW graph, so none is built (m=0). Building them was most of a large generation's optimize (70 s of a 20 MB text).
RESCORED_ONLY = qe.HnswIndexConfig(m=0, ef_construct=100, full_scan_threshold=10_000)
SENTENCE_PAYLOAD = ["text"]  # all a sentence read needs of the payload (the whole one is a few dozen fields)


def _condition(key: str, value: Any) -> Any:
    if isinstance(value, list):
        return qe.FieldCondition(key, match=qe.MatchAny(value))
    return qe.FieldCondition(key, match=qe.MatchValue(value))


def edge_filter(filters: Filters | None, extra: list[Any] | None = None) -> qe.Filter | None:
    """Translate the store's filter dict into a Qdrant Edge filter."""
    wanted, excluded = split_filters(filters)
    must = [_condition(k, v) for k, v in wanted] + (extra or [])
    must_not = [_condition(k, v) for k, v in excluded]
    if not must and not must_not:
        return None
    return qe.Filter(must=must or None, must_not=must_not or None)


class EdgeStore(VectorStore):
    """A Qdrant Edge shard in a folder."""

    def __init__(self, shard: qe.EdgeShard, path: Path, view: ReaderView | None = None, memo_chunks: int = 0):
        self._shard = shard
        self.path = path
        self._view = view
        self._sentence_vectors = [SENTENCES, STATEMENTS]  # a generation built before statements: [SENTENCES]
        # a published generation never changes: what was read of a chunk is kept (none for one being written)
        self._chunks: ReadMemo[StoredChunk] = ReadMemo(memo_chunks)
        self._sentences: ReadMemo[StoredSentences] = ReadMemo(memo_chunks)
        # and so are its searches: a requery whose expansion adds nothing repeats the first search word for word
        self._searches: LRUCache[tuple[Any, ...], SearchLists] | None = LRUCache(SEARCHES_KEPT) if memo_chunks else None
        self._searches_lock = threading.Lock()

    @classmethod
    def create(cls, path: Path, dimension: int, vector_memory: Literal["cold", "cached"] = "cold") -> EdgeStore:
        """A new shard. Its vectors are stored in 32 MB chunk files: 'cached' reads every chunk whole into memory
        when a reader loads the shard (about 160 MB per open reader for the three vector kinds, however few points
        they hold), 'cold' maps them and reads only the pages a query touches."""
        memory = qe.Memory.Cold if vector_memory == "cold" else qe.Memory.Cached
        config = qe.EdgeConfig(
            vectors={
                DENSE: qe.EdgeVectorParams(size=dimension, distance=qe.Distance.Cosine, memory=memory),
                **{
                    name: qe.EdgeVectorParams(
                        size=dimension,
                        distance=qe.Distance.Cosine,
                        multivector_config=qe.MultiVectorConfig(qe.MultiVectorComparator.MaxSim),
                        hnsw_config=RESCORED_ONLY,
                        memory=memory,
                    )
                    for name in (SENTENCES, STATEMENTS)
                },
            },
            sparse_vectors={SPARSE: qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf)},
            wal_enabled=False,
        )
        shard = qe.EdgeShard.create(str(path), config)
        for name in INDEXED_FIELDS:
            shard.update(qe.UpdateOperation.create_field_index(name, qe.PayloadSchemaType.Keyword))
        return cls(shard, path)

    @classmethod
    def open(cls, path: Path, views_dir: Path, memo_chunks: int = 0) -> EdgeStore:
        """A reader of the published generation at `path`, loaded through a private view made in `views_dir`,
        keeping what it read of up to `memo_chunks` chunks."""
        try:
            view = ReaderView.create(path, views_dir)
        except OSError as exc:
            raise StoreError(f"cannot open the index at {path}: {exc}") from exc
        try:
            return cls(qe.EdgeShard.load(str(view.path)), path, view, memo_chunks)
        except Exception as exc:  # the engine raises a bare Exception with its own message
            view.remove()
            raise StoreError(f"cannot open the index at {path}: {exc}") from exc

    def upsert(self, points: Sequence[StoredPoint]) -> None:
        for chunk in batches(points):
            batch = [
                qe.Point(
                    p.id,
                    {
                        DENSE: p.dense,
                        SPARSE: qe.SparseVector(p.sparse.indices, p.sparse.values),
                        SENTENCES: p.sentences,
                        **({STATEMENTS: p.statements} if p.statements else {}),
                    },
                    p.payload,
                )
                for p in chunk
            ]
            self._shard.update(qe.UpdateOperation.upsert_points(batch))

    def search(self, query: SearchQuery) -> SearchLists:
        if self._searches is None:
            return self._search(query)
        key = query.key()
        with self._searches_lock:
            found = self._searches.get(key)
        if found is None:
            found = self._search(query)
            with self._searches_lock:
                self._searches[key] = found
        return found

    def _search(self, query: SearchQuery) -> SearchLists:
        flt = edge_filter(query.filters)
        dense = qe.Query.Nearest(query.dense, using=DENSE)
        sparse = qe.Query.Nearest(qe.SparseVector(query.sparse.indices, query.sparse.values), using=SPARSE)
        prefetches = [
            qe.Prefetch(limit=query.limit, query=dense, filter=flt),
            qe.Prefetch(limit=query.limit, query=sparse, filter=flt),
        ]
        # the engine accepts both; its type stubs do not list them as queries
        fusion = qe.Fusion.Dbsf() if query.fusion == "dbsf" else qe.Fusion.Rrf(k=RRF_K)
        fused = qe.Prefetch(limit=query.limit, prefetches=prefetches, query=fusion)  # type: ignore[arg-type]
        # ids and scores only: the payloads and dense vectors come from the memo (read once per chunk)
        requests = {
            "dense": qe.QueryRequest(limit=query.limit, query=dense, filter=flt),
            "sparse": qe.QueryRequest(limit=query.limit, query=sparse, filter=flt),
            "fused": qe.QueryRequest(limit=query.limit, prefetches=prefetches, query=fusion),  # type: ignore[arg-type]
            "reranked": qe.QueryRequest(
                limit=query.limit, prefetches=[fused], query=qe.Query.Nearest([query.dense], using=SENTENCES)
            ),
        }
        if query.reference_tokens:
            ref_filter = edge_filter(
                query.filters, [qe.FieldCondition("refs", match=qe.MatchAny(query.reference_tokens))]
            )
            requests["referenced"] = qe.QueryRequest(limit=query.limit, query=dense, filter=ref_filter)
        names = [name for name in query.lists if name in requests]
        results = self._shard.query_batch(qe.QueryBatchRequest([requests[name] for name in names]))
        found = {name: [(str(p.id), float(p.score)) for p in hits] for name, hits in zip(names, results)}
        carried = [i for name in names if name in query.payloads for i, _ in found[name]]
        chunks = self._chunks.read(carried, self._stored_chunks)
        return SearchLists.named({name: self._hits(found[name], name, query, chunks) for name in names})

    @staticmethod
    def _hits(
        found: list[tuple[str, float]], name: str, query: SearchQuery, chunks: dict[str, StoredChunk]
    ) -> list[Hit]:
        """One list's hits, carrying what `query.returned(name)` names."""
        if name not in query.payloads:
            return [Hit(i, score) for i, score in found]
        with_dense = name in WITH_DENSE_VECTOR
        return [
            Hit(i, score, chunk.payload, chunk.dense if with_dense else None)
            if (chunk := chunks.get(i)) is not None
            else Hit(i, score)
            for i, score in found
        ]

    def stored_chunks(self, ids: Sequence[str]) -> dict[str, StoredChunk]:
        return self._chunks.read(point_ids(ids), self._stored_chunks)

    def _stored_chunks(self, ids: list[str]) -> dict[str, StoredChunk]:
        records = self._shard.retrieve([*ids], True, [DENSE])
        out = {}
        for r in records:
            # `r.vector` read once: the engine builds its Python lists anew on every access
            vector = vectors.get(DENSE) if isinstance(vectors := r.vector, dict) else None
            out[str(r.id)] = StoredChunk(r.payload or {}, None if vector is None else float32_rows(cast(list, vector)))
        return out

    def stored_sentences(self, ids: Sequence[str]) -> dict[str, StoredSentences]:
        return self._sentences.read(point_ids(ids), self._read_sentences)

    def _read_sentences(self, valid: list[str]) -> dict[str, StoredSentences]:
        try:
            records = self._shard.retrieve([*valid], SENTENCE_PAYLOAD, self._sentence_vectors)
        except Exception as exc:  # a generation built before statements were stored (PIPELINE_VERSION 11)
            if STATEMENTS not in str(exc) or STATEMENTS not in self._sentence_vectors:
                raise
            self._sentence_vectors = [SENTENCES]  # known from now on: no second failed call per question
            records = self._shard.retrieve([*valid], SENTENCE_PAYLOAD, self._sentence_vectors)
        out = {}
        for r in records:
            # `r.vector` read once: the engine builds its Python lists anew on every access
            vectors = found if isinstance(found := r.vector, dict) else {}
            out[str(r.id)] = StoredSentences(
                str((r.payload or {}).get("text", "")),
                float32_rows(cast(list, vectors.get(SENTENCES) or [])),
                float32_rows(cast(list, vectors.get(STATEMENTS) or [])),
            )
        return out

    def counts_by(self, key: str) -> dict[str, int]:
        response = self._shard.facet(qe.FacetRequest(key=key, limit=10_000, exact=True))
        return {str(hit.value): int(hit.count) for hit in response}

    def count(self, filters: Filters | None = None) -> int:
        return int(self._shard.count(qe.CountRequest(filter=edge_filter(filters), exact=True)))

    def _scroll(self, filters: Filters | None, offset: Any, limit: int) -> tuple[list[dict[str, Any]], Any]:
        records, offset = self._shard.scroll(
            qe.ScrollRequest(offset=offset, limit=limit, filter=edge_filter(filters), with_payload=True)
        )
        return [r.payload or {} for r in records], offset

    def finish(self) -> None:
        """Optimize and flush a generation being written. The shard is loaded afresh first: the pages written so
        far stay in this process until it is closed, and optimizing reads them again beside the segment it writes
        (about 300 MB more for a 20 MB text)."""
        self._shard.flush()
        self._shard.close()
        self._shard = qe.EdgeShard.load(str(self.path))
        self._shard.optimize()
        self._shard.flush()

    def close(self) -> None:
        try:
            self._shard.close()
        finally:
            if self._view is not None:
                self._view.remove()
