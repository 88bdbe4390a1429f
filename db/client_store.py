"""A Qdrant server or cluster through qdrant-client: the path for users who outgrow one machine.

Each index generation is a server collection; readers query an alias that the writer moves
atomically when a generation is published. qdrant-client's local mode speaks the same API, so
the conformance tests run this code path without a server.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from functools import cached_property
from typing import Any

from qdrant_client import QdrantClient, models

from db.store import (
    DENSE,
    INDEXED_FIELDS,
    RRF_K,
    SENTENCES,
    SPARSE,
    STATEMENTS,
    Filters,
    Hit,
    SearchLists,
    SearchQuery,
    StoredChunk,
    StoredPoint,
    StoredSentences,
    VectorStore,
    batches,
    float32_rows,
    point_ids,
    split_filters,
)


def _condition(key: str, value: Any) -> models.FieldCondition:
    match = models.MatchAny(any=value) if isinstance(value, list) else models.MatchValue(value=value)
    return models.FieldCondition(key=key, match=match)


def client_filter(filters: Filters | None, extra: list[Any] | None = None) -> models.Filter | None:
    """Translate the store's filter dict into a qdrant-client filter."""
    wanted, excluded = split_filters(filters)
    must = [_condition(k, v) for k, v in wanted] + (extra or [])
    must_not = [_condition(k, v) for k, v in excluded]
    if not must and not must_not:
        return None
    return models.Filter(must=must or None, must_not=must_not or None)


class ClientStore(VectorStore):
    """One collection (or the alias of the published one) on a Qdrant server."""

    def __init__(self, client: QdrantClient, name: str):
        self._client = client
        self.name = name

    @cached_property
    def _sentence_vectors(self) -> list[str]:
        """The sentence multivectors this collection has (one built before statements were stored: sentences)."""
        stored = self._client.get_collection(self.name).config.params.vectors
        return [n for n in (SENTENCES, STATEMENTS) if isinstance(stored, dict) and n in stored]

    @classmethod
    def create(cls, client: QdrantClient, name: str, dimension: int) -> ClientStore:
        client.create_collection(
            name,
            vectors_config={
                DENSE: models.VectorParams(size=dimension, distance=models.Distance.COSINE),
                **{
                    name: models.VectorParams(
                        size=dimension,
                        distance=models.Distance.COSINE,
                        multivector_config=models.MultiVectorConfig(comparator=models.MultiVectorComparator.MAX_SIM),
                    )
                    for name in (SENTENCES, STATEMENTS)
                },
            },
            sparse_vectors_config={SPARSE: models.SparseVectorParams(modifier=models.Modifier.IDF)},
        )
        with warnings.catch_warnings():  # local mode warns that it ignores payload indexes
            warnings.simplefilter("ignore", UserWarning)
            for field_name in INDEXED_FIELDS:
                client.create_payload_index(name, field_name, models.PayloadSchemaType.KEYWORD)
        return cls(client, name)

    def upsert(self, points: Sequence[StoredPoint]) -> None:
        for chunk in batches(points):
            batch = [
                models.PointStruct(
                    id=p.id,
                    vector={
                        DENSE: p.dense,
                        SPARSE: models.SparseVector(indices=p.sparse.indices, values=p.sparse.values),
                        SENTENCES: p.sentences,
                        **({STATEMENTS: p.statements} if p.statements else {}),
                    },
                    payload=p.payload,
                )
                for p in chunk
            ]
            self._client.upsert(self.name, batch, wait=True)

    def search(self, query: SearchQuery) -> SearchLists:
        flt = client_filter(query.filters)
        sparse = models.SparseVector(indices=query.sparse.indices, values=query.sparse.values)
        prefetches = [
            models.Prefetch(query=query.dense, using=DENSE, limit=query.limit, filter=flt),
            models.Prefetch(query=sparse, using=SPARSE, limit=query.limit, filter=flt),
        ]
        fusion = (
            models.FusionQuery(fusion=models.Fusion.DBSF)
            if query.fusion == "dbsf"
            else models.RrfQuery(rrf=models.Rrf(k=RRF_K))
        )
        fused = models.Prefetch(prefetch=prefetches, query=fusion, limit=query.limit)
        requests = {
            "dense": models.QueryRequest(
                query=query.dense, using=DENSE, filter=flt, limit=query.limit, **query.returned("dense")
            ),
            "sparse": models.QueryRequest(
                query=sparse, using=SPARSE, filter=flt, limit=query.limit, **query.returned("sparse")
            ),
            "fused": models.QueryRequest(
                prefetch=prefetches, query=fusion, limit=query.limit, **query.returned("fused")
            ),
            "reranked": models.QueryRequest(
                prefetch=[fused], query=[query.dense], using=SENTENCES, limit=query.limit, **query.returned("reranked")
            ),
        }
        if query.reference_tokens:
            ref_filter = client_filter(
                query.filters, [models.FieldCondition(key="refs", match=models.MatchAny(any=query.reference_tokens))]
            )
            requests["referenced"] = models.QueryRequest(
                query=query.dense, using=DENSE, filter=ref_filter, limit=query.limit, **query.returned("referenced")
            )
        names = [name for name in query.lists if name in requests]
        results = self._client.query_batch_points(self.name, [requests[name] for name in names])
        return SearchLists.named({name: [self._hit(p) for p in r.points] for name, r in zip(names, results)})

    @staticmethod
    def _hit(point: models.ScoredPoint) -> Hit:
        dense = point.vector.get(DENSE) if isinstance(point.vector, dict) else None
        vector = float32_rows(dense) if isinstance(dense, list) and dense and not isinstance(dense[0], list) else None
        return Hit(str(point.id), float(point.score), point.payload, vector)

    def stored_chunks(self, ids: Sequence[str]) -> dict[str, StoredChunk]:
        valid = point_ids(ids)
        if not valid:
            return {}
        records = self._client.retrieve(self.name, valid, with_payload=True, with_vectors=[DENSE])
        out = {}
        for r in records:
            dense = r.vector.get(DENSE) if isinstance(r.vector, dict) else None
            out[str(r.id)] = StoredChunk(r.payload or {}, None if dense is None else float32_rows(dense))  # type: ignore[arg-type]
        return out

    def stored_sentences(self, ids: Sequence[str]) -> dict[str, StoredSentences]:
        valid = point_ids(ids)
        if not valid:
            return {}
        records = self._client.retrieve(self.name, valid, with_payload=["text"], with_vectors=self._sentence_vectors)
        out = {}
        for r in records:
            vectors = r.vector if isinstance(r.vector, dict) else {}
            out[str(r.id)] = StoredSentences(
                str((r.payload or {}).get("text", "")),
                float32_rows(vectors.get(SENTENCES) or []),  # type: ignore[arg-type]
                float32_rows(vectors.get(STATEMENTS) or []),  # type: ignore[arg-type]
            )
        return out

    def counts_by(self, key: str) -> dict[str, int]:
        response = self._client.facet(self.name, key=key, limit=10_000, exact=True)
        return {str(hit.value): int(hit.count) for hit in response.hits}

    def count(self, filters: Filters | None = None) -> int:
        return int(self._client.count(self.name, count_filter=client_filter(filters), exact=True).count)

    def _scroll(self, filters: Filters | None, offset: Any, limit: int) -> tuple[list[dict[str, Any]], Any]:
        records, offset = self._client.scroll(
            self.name, scroll_filter=client_filter(filters), limit=limit, offset=offset, with_payload=True
        )
        return [r.payload or {} for r in records], offset

    def finish(self) -> None:
        """The server makes writes durable itself (upserts wait for acknowledgement)."""

    def close(self) -> None:
        """The client is shared by the backend, which closes it."""
