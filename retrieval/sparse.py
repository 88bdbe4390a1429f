"""BM25-style sparse vectors for Qdrant's IDF modifier, with reference and identifier tokens.

Documents get saturated term frequencies (BM25's k1/b part); Qdrant multiplies in the IDF at
query time (`Modifier.Idf`), so the index never needs global statistics beyond the average
chunk length. Reference tokens (`ref_9_2_h`) and identifiers (NHS numbers, patient ids, policy
UINs, amounts) are single tokens so that an exact match is an exact match.
"""

from __future__ import annotations

import re
import threading
import zlib
from collections import Counter
from dataclasses import dataclass

import snowballstemmer

from retrieval.references import NHS_NUMBER_RE, identifier_tokens, question_tokens

K1 = 1.2
B = 0.75
REFERENCE_QUERY_WEIGHT = 2.0

STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being below
    between both but by can could did do does doing down during each few for from further had has have
    having he her here hers herself him himself his how i if in into is it its itself just me more most
    my myself no nor not of off on once only or other our ours ourselves out over own same she should so
    some such than that the their theirs them themselves then there these they this those through to too
    under until up very was we were what when where which while who whom why will with would you your
    yours yourself yourselves shall may must also""".split()
)
# Not stop words here: "not", "no" and "nor" carry the polarity of exclusions ("shall not be liable").
STOPWORDS = STOPWORDS - {"not", "no", "nor"}

_GROUPED_NUMBER_RE = re.compile(r"(?<![\d.,])\d{1,3}(?:[ ,]\d{3})+(?![\d,])")
_IDENTIFIER_RE = re.compile(
    r"\b(?=[A-Za-z0-9-]*\d)(?=[A-Za-z0-9-]*[A-Za-z])[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+\b|\b[A-Z]{3,}\d[A-Z0-9]{4,}\b"
)
_WORD_RE = re.compile(r"[a-z0-9]+(?:\.[0-9]+)?")

_local = threading.local()  # a Snowball stemmer keeps state per call: one per thread (the compare graph's
# parallel branches and the HTTP server's worker threads stem at the same time)


def _stem(word: str) -> str:
    stemmer = getattr(_local, "stemmer", None)
    if stemmer is None:
        stemmer = _local.stemmer = snowballstemmer.stemmer("english")
    return stemmer.stemWord(word)


@dataclass(frozen=True)
class SparseVector:
    """Indices and values as Qdrant wants them."""

    indices: list[int]
    values: list[float]


def token_index(token: str) -> int:
    """A stable 32-bit index for a token (the same in every process and on every machine)."""
    return zlib.crc32(token.encode("utf-8"))


def _special_tokens(text: str) -> tuple[list[str], str]:
    """Identifier tokens, and the text with grouped numbers joined (20 000 000 -> 20000000)."""
    tokens = identifier_tokens(text)
    tokens += [t for t in (f"id_{m.lower()}" for m in _IDENTIFIER_RE.findall(text)) if t not in tokens]
    joined = NHS_NUMBER_RE.sub(r"\1\2\3", text)
    joined = _GROUPED_NUMBER_RE.sub(lambda m: re.sub(r"[ ,]", "", m.group(0)), joined)
    return tokens, joined


def words(text: str) -> list[str]:
    """Content words, lower-cased and stemmed; stop words dropped; numbers kept."""
    out = []
    for word in _WORD_RE.findall(text.lower()):
        if word in STOPWORDS or (len(word) == 1 and not word.isdigit()):
            continue
        out.append(word if word[0].isdigit() else _stem(word))
    return out


def document_terms(text: str, refs: list[str] | None = None) -> list[str]:
    """Every token a chunk contributes: words, identifiers and its own reference tokens."""
    special, joined = _special_tokens(text)
    return words(joined) + special + list(refs or [])


def encode_document(terms: list[str], avg_length: float) -> SparseVector:
    """BM25 term weights (without IDF, which Qdrant applies) for one chunk."""
    counts = Counter(terms)
    length = max(len(terms), 1)
    norm = K1 * (1 - B + B * length / max(avg_length, 1.0))
    weights: dict[int, float] = {}
    for term, tf in counts.items():
        index = token_index(term)
        weights[index] = weights.get(index, 0.0) + tf * (K1 + 1) / (tf + norm)
    indices = sorted(weights)
    return SparseVector(indices, [weights[i] for i in indices])


EXPANSION_WEIGHT = 0.5


def encode_query(question: str, expansion: str = "") -> SparseVector:
    """Query tokens weighted 1, reference tokens higher (naming Art. 9(2)(h) is decisive),
    expansion terms lower (they widen the net without outvoting the user's own words)."""
    special, joined = _special_tokens(question)
    weights: dict[int, float] = {token_index(t): EXPANSION_WEIGHT for t in words(expansion)}
    for term in words(joined) + special:
        weights[token_index(term)] = 1.0
    for term in question_tokens(question):  # references and exact identifiers
        weights[token_index(term)] = REFERENCE_QUERY_WEIGHT
    indices = sorted(weights)
    return SparseVector(indices, [weights[i] for i in indices])
