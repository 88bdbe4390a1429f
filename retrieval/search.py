"""retrieve(query, filters, k) -> evidence, with every score kept apart.

One round trip to Qdrant returns the dense, sparse, score-fused (DBSF) and sentence-reranked lists (and
the chunks carrying a reference the question names). The order depends on the mode:
dense / sparse / hybrid (Qdrant fusion) / rerank (sentence MaxSim over the fused candidates).
With the reference boost, chunks that carry an article reference the question names come first.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import numpy as np

from core.types import Evidence, Scores, SparseVector
from db.index import IndexReader
from db.store import (
    LISTS,
    WITH_DENSE_VECTOR,
    Filters,
    Fusion,
    Hit,
    SearchLists,
    SearchQuery,
    StoredChunk,
    StoredSentences,
)
from generation.blocks import onward_pointers
from language.expansion import expansion_terms
from language.question import compared_terms
from language.references import citation_tokens, exception_to, question_tokens
from language.series import MAX_MEMBERS, asked_series, member_citations, right_granted, rights_asked
from language.words import words
from retrieval.embedder import Embedder
from retrieval.scope import PatientDirectory
from retrieval.sparse import encode_query, token_index

Mode = Literal["dense", "sparse", "hybrid", "rerank"]
MIN_CANDIDATES = 50


FOLLOW_FROM = 10  # citations are followed from this many of the best candidates
FOLLOW_LIMIT = 12  # provisions brought in by following, at most
FOLLOW_POOL = 48  # the named provisions read to choose them from
COMPARED_K = 3  # candidates searched for each of two things a question compares
MAX_ARTICLES = 500  # an instrument's articles read for the ones granting a right
EXCEPTIONS_FROM = 5  # the paragraphs excepting from this many of the best binding candidates are brought in
MAX_ARTICLE_CHUNKS = 40  # an article's chunks read for its exceptions
_PARAGRAPH_RE = re.compile(r"([^(]+)\((\d+)\)")  # "EHDS Art. 53(1)": a paragraph of an article


@dataclass(frozen=True)
class RetrievalOptions:
    mode: Mode = "hybrid"
    reference_boost: bool = True
    expansion: bool = True
    follow_citations: bool = True
    fusion: Fusion = "dbsf"


def boost_tokens(question: str) -> list[str]:
    """Reference tokens to filter on: instrument-qualified ones when the question names the instrument."""
    tokens = question_tokens(question)
    references = [t for t in tokens if not t.startswith(("nhs_", "id_"))]
    identifiers = [t for t in tokens if t.startswith(("nhs_", "id_"))]
    qualified = [t for t in references if not t.startswith(("ref_", "recital_", "principle_", "standard_", "clause_"))]
    return (qualified or references) + identifiers


class Retriever:
    """Hybrid retrieval over the published index."""

    def __init__(self, reader: IndexReader, embedder: Embedder):
        self.reader = reader
        self.embedder = embedder
        self.patients = PatientDirectory()

    def search_lists(
        self,
        query: str,
        filters: Filters | None,
        limit: int,
        expansion: bool = True,
        fusion: Fusion = "dbsf",
        identifiers: tuple[str, ...] = (),
        payloads: tuple[str, ...] = LISTS,
    ) -> tuple[np.ndarray, SearchLists]:
        """`identifiers`: ids the question names in other words (a patient by name), matched like ids it gives;
        `payloads`: the lists whose hits come with their payload (a payload costs more than the search)."""
        extra = " ".join(expansion_terms(query)) if expansion else ""
        dense = self.embedder.embed_query(f"{query} {extra}".strip())
        tokens = boost_tokens(query)
        tokens += [t for t in question_tokens(" ".join(identifiers)) if t not in tokens]
        request = SearchQuery(
            dense=dense.tolist(),
            sparse=encode_query(query, extra),
            filters=dict(filters or {}),
            limit=limit,
            reference_tokens=tokens,
            fusion=fusion,
            payloads=payloads,
        )
        return dense, self.reader.store().search(request)

    def retrieve(
        self,
        query: str,
        filters: Filters | None,
        k: int,
        options: RetrievalOptions = RetrievalOptions(),
        identifiers: tuple[str, ...] = (),
    ) -> list[Evidence]:
        """The k best chunks for a question, best first, with provenance and all scores; then (when
        following citations) the provisions the best non-binding ones point at, to be graded on their merits."""
        query_vector, lists = self.search_lists(
            query,
            filters,
            max(MIN_CANDIDATES, 4 * k),
            options.expansion,
            options.fusion,
            identifiers,
            payloads=("referenced",),  # ordered by their cosine; `rank` reads the chunks it chooses from the rest
        )
        found = rank(query_vector, lists, k, options, self.reader.store().stored_chunks)
        if options.follow_citations:
            searched = found  # the exceptions are to the best the search itself found, not to what it points at
            found = beside_pointers(found, self.followed(query, query_vector, found, filters))
            found += self.exceptions(query, query_vector, searched, found, filters)
        for term in compared_terms(query) or ():  # "the difference between a controller and a processor": each one's
            seen = {e.chunk_id for e in found}  # definition, which a search for the pair may rank out of the pool
            found += [
                e for e in self.retrieve(f"What is {term}?", filters, COMPARED_K, options) if e.chunk_id not in seen
            ]
        if prefix := asked_series(query, [(e.citation, e.section) for e in found]):  # "What are the exclusions?"
            tokens = [citation_tokens(c)[-1] for c in member_citations(prefix) if citation_tokens(c)]
            # a sub-clause's token names no wording ("clause_5_3"): the series' own citations are the filter, so no
            # other wording's clauses of those numbers take the places of its members
            series = {**(filters or {}), "citation": member_citations(prefix)}
            found += self.referenced(query, query_vector, tokens, series, found, MAX_MEMBERS)
        if instrument := rights_asked(query):  # "What rights do patients have under the EHDS?": each article
            found += self.rights_granted(query, query_vector, instrument, filters, found)  # granting one
        return self.with_sentence_scores(found, query_vector)

    def rights_granted(
        self,
        query: str,
        query_vector: np.ndarray,
        instrument: str,
        filters: Filters | None,
        candidates: list[Evidence],
    ) -> list[Evidence]:
        """The first chunk of each article of the instrument whose title grants a right ("Right to erasure"), not
        among the candidates yet: a search for "rights" ranks a few of them, and a list of rights is wrong
        without one."""
        firsts = self.reader.store().payloads(
            {**(filters or {}), "instrument": instrument, "position": 0, "authority": "binding"}, limit=MAX_ARTICLES
        )
        citations = [str(p["citation"]) for p in firsts if p.get("citation") and right_granted(str(p.get("section")))]
        tokens = [token for citation in citations for token in citation_tokens(citation)]
        only = {**(filters or {}), "citation": citations}
        return self.referenced(query, query_vector, tokens, only, candidates, len(citations)) if citations else []

    def mentions(self, term: str, doc_ids: list[str]) -> bool:
        """Whether any chunk of these documents holds one of the term's words: a sparse search returns only chunks
        sharing a token, so one hit settles it (a wording that never names a no-claim bonus has none)."""
        indices = sorted({token_index(word) for word in words(term)})
        if not indices:
            return False
        request = SearchQuery(
            dense=[0.0] * self.embedder.dimension,  # only the sparse list is computed: no query vector is embedded
            sparse=SparseVector(indices, [1.0] * len(indices)),
            filters={"doc_id": doc_ids},
            limit=1,
            payloads=(),
            lists=("sparse",),
        )
        return bool(self.reader.store().search(request).sparse)

    def with_sentence_scores(self, found: list[Evidence], query_vector: np.ndarray) -> list[Evidence]:
        """The sentence MaxSim the engine gives the reranked list, for the chunks found outside it (a provision
        the question or a recital names), from the sentence vectors ingest stored: graded without it, such a
        chunk would be judged on fewer features than the rest, and often above them."""
        missing = [e.chunk_id for e in found if e.scores.rerank is None]
        stored = self.reader.store().stored_sentences(missing) if missing else {}
        return [
            e.model_copy(update={"scores": e.scores.model_copy(update={"rerank": _max_sim(vectors, query_vector)})})
            if (vectors := stored.get(e.chunk_id)) and len(vectors.vectors)
            else e
            for e in found
        ]

    def exceptions(
        self,
        query: str,
        query_vector: np.ndarray,
        searched: list[Evidence],
        candidates: list[Evidence],
        filters: Filters | None,
    ) -> list[Evidence]:
        """The paragraphs of a best binding candidate's article that except from or limit it ("Only public sector
        bodies ... may access ... for the purposes referred to in paragraph 1, points (a), (b) and (c)" for 53(1)'s
        purposes): they change the answer that paragraph gives, yet share few words with the question, so a search
        ranks them out of the pool. Graded on their merits; grading keeps one beside the paragraph it excepts."""
        excepted: dict[str, set[str]] = {}  # article ("EHDS Art. 53") -> its paragraphs among the best
        for e in [c for c in searched if c.authority == "binding"][:EXCEPTIONS_FROM]:
            if paragraph := _PARAGRAPH_RE.fullmatch(e.citation):
                excepted.setdefault(paragraph[1], set()).add(paragraph[2])
        if not excepted:
            return []
        # every binding chunk of those articles, by the article's own reference token (an official text is one
        # document of hundreds of chunks: its articles, not the document, are read)
        articles = [token for article in excepted for token in citation_tokens(article)[-1:]]
        binding = {**(filters or {}), "refs": articles, "authority": "binding"}
        tokens: list[str] = []
        for chunk in self.reader.store().payloads(binding, MAX_ARTICLE_CHUNKS * len(articles)):
            citation = str(chunk.get("citation", ""))
            paragraph = _PARAGRAPH_RE.fullmatch(citation)
            named = exception_to(str(chunk.get("text", "")))
            if paragraph and named and excepted.get(paragraph[1], set()) & set(re.findall(r"\d+", named["named"])):
                tokens += citation_tokens(citation)[-1:]
        return self.referenced(query, query_vector, tokens, filters, candidates, len(tokens))

    def followed(
        self, query: str, query_vector: np.ndarray, candidates: list[Evidence], filters: Filters | None
    ) -> list[Evidence]:
        """Binding provisions named by (or linked from) the recitals, guidance and commentary among the best
        candidates: a question worded like a recital reaches the article the recital explains. Each pointing
        candidate brings its provisions in turn, best candidate first (its provisions by the question's vector): one
        naming many provisions takes no place from the one another names."""
        order: dict[str, int] = {}  # pointer token -> rank of the first candidate naming it
        for i, e in enumerate(candidates[:FOLLOW_FROM]):
            if points_onwards(e):
                for token in onward_pointers(e):
                    order.setdefault(token, i)
        binding = {**(filters or {}), "authority": "binding"}
        named: dict[int, list[Evidence]] = {}  # candidate rank -> the provisions it is the first to name
        for e in self.referenced(query, query_vector, list(order), binding, candidates, FOLLOW_POOL):
            named.setdefault(min(order[t] for t in e.refs if t in order), []).append(e)
        in_turn = [e for turn in itertools.zip_longest(*(named[i] for i in sorted(named))) for e in turn if e]
        return in_turn[:FOLLOW_LIMIT]

    def referenced(
        self,
        query: str,
        query_vector: np.ndarray,
        tokens: list[str],
        filters: Filters | None,
        candidates: list[Evidence],
        limit: int,
    ) -> list[Evidence]:
        """Up to `limit` chunks carrying any of these reference tokens that are not among the candidates yet (the
        candidates that carry one do not use up the limit)."""
        if not tokens:
            return []
        seen = {e.chunk_id for e in candidates}
        request = SearchQuery(
            dense=query_vector.tolist(),
            sparse=encode_query(query),
            filters=dict(filters or {}),
            limit=limit + len(seen),
            reference_tokens=tokens,
            payloads=("referenced",),
            lists=("referenced",),
        )
        referenced = self.reader.store().search(request).referenced
        return [
            Evidence.from_payload(h.payload or {}, Scores(dense=_dense_score(h.id, {}, query_vector, h.dense_vector)))
            for h in referenced
            if h.id not in seen
        ][:limit]


def points_onwards(e: Evidence) -> bool:
    """An explanation (recital, guidance, commentary) points at the provision it explains; a policy clause at
    the clause of its wording that holds what it refers to ("a Critical Illness listed in Clause 3.9.1")."""
    return e.authority != "binding" or e.document_type == "policy_wording"


def beside_pointers(candidates: list[Evidence], followed: list[Evidence]) -> list[Evidence]:
    """Each provision the candidates name, right after the first candidate that names it (its best chunk; the
    other chunks after all candidates), so a recital among the best brings its article among the best.

    A link made at ingest by similarity (ingest/links.py: `explains_similarity`) is a guess, right for about
    four recitals in five with two links: the provisions it brings come after all candidates, to be graded on
    their own merits. Measured on the dev questions (evals/official_eval.py): placed beside their recital,
    such links cost plain questions on the official texts Hit@5 (GDPR 0.515 -> 0.455, EHDS 0.571 -> 0.5)."""
    beside: dict[int, list[Evidence]] = {}
    rest: list[Evidence] = []
    placed: set[str] = set()
    for provision in followed:
        refs = set(provision.refs)
        pointer = next(
            (
                (i, token)
                for i, e in enumerate(candidates[:FOLLOW_FROM])
                if points_onwards(e) and not e.metadata.get("explains_similarity")
                for token in onward_pointers(e)
                if token in refs and token not in placed
            ),
            None,
        )
        if pointer is None:
            rest.append(provision)
            continue
        placed.add(pointer[1])
        beside.setdefault(pointer[0], []).append(provision)
    return [e for i, candidate in enumerate(candidates) for e in (candidate, *beside.get(i, []))] + rest


ORDERED_BY = {"dense": "dense", "sparse": "sparse", "hybrid": "fused", "rerank": "reranked"}  # Mode -> list


def _by_id(hits: list[Hit]) -> dict[str, Hit]:
    return {h.id: h for h in hits}


def rank(
    query_vector: np.ndarray,
    lists: SearchLists,
    k: int,
    options: RetrievalOptions,
    read: Callable[[list[str]], dict[str, StoredChunk]],
) -> list[Evidence]:
    """Order candidates by the chosen mode and attach every score.

    `read` gives the payload and dense vector of the k chunks chosen (the store's `stored_chunks`): a search
    returns ids and scores for four times as many candidates, and reading every candidate's payload was most of
    a search's cost at 50,000 chunks (`python -m evals.bench_e2e`)."""
    dense, sparse, fused, reranked = (_by_id(x) for x in (lists.dense, lists.sparse, lists.fused, lists.reranked))
    referenced = _by_id(lists.referenced) if options.reference_boost else {}
    # ties (equal RRF scores are common) are broken by id, so the same question always ranks the same
    ordered = [h.id for h in sorted(getattr(lists, ORDERED_BY[options.mode]), key=lambda h: (-h.score, h.id))]
    if referenced:
        head = sorted(referenced, key=lambda i: (-_dense_score(i, dense, query_vector, referenced[i].dense_vector), i))
        ordered = head + [i for i in ordered if i not in referenced]
    chosen = ordered[:k]
    carried = {h.id: StoredChunk(h.payload, h.dense_vector) for h in lists.referenced if h.payload is not None}
    stored = {**carried, **read([i for i in chosen if i not in carried])}
    # evidence is made from the mode's list and the referenced one: a chunk's cosine comes from its stored vector
    # when the list that found it is one of those and carries vectors (else 0.0 outside the dense list)
    from_vector = {ORDERED_BY[options.mode], "referenced"} & set(WITH_DENSE_VECTOR)
    evidence = []
    for chunk_id in chosen:
        found_in = next(
            name
            for name, found in (("fused", fused), ("referenced", referenced), ("sparse", sparse), ("dense", dense))
            if chunk_id in found
        )
        chunk = stored.get(chunk_id)
        vector = chunk.dense if chunk is not None and found_in in from_vector else None
        scores = Scores(
            dense=_dense_score(chunk_id, dense, query_vector, vector),
            sparse=sparse[chunk_id].score if chunk_id in sparse else None,
            fused=fused[chunk_id].score if chunk_id in fused else None,
            rerank=reranked[chunk_id].score if chunk_id in reranked else None,
            reference_match=chunk_id in referenced or chunk_id in _by_id(lists.referenced),
        )
        evidence.append(Evidence.from_payload(chunk.payload if chunk is not None else {}, scores))
    return evidence


def _dense_score(chunk_id: str, dense: dict[str, Hit], query_vector: np.ndarray, vector: np.ndarray | None) -> float:
    """Cosine similarity even for a chunk found only by the sparse side (from its stored vector)."""
    if chunk_id in dense:
        return dense[chunk_id].score
    if vector is not None:
        return float(vector @ query_vector / max(np.linalg.norm(vector), 1e-12))
    return 0.0


def _max_sim(stored: StoredSentences, query_vector: np.ndarray) -> float:
    """Cosine of the question with the chunk's closest sentence (the engine's MaxSim for one query vector):
    the embedder stores and returns unit vectors, so a dot product is the cosine."""
    return float((stored.vectors @ query_vector).max())
