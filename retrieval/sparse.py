"""BM25-style sparse vectors for Qdrant's IDF modifier, with reference and identifier tokens.

Documents get saturated term frequencies (BM25's k1/b part); Qdrant multiplies in the IDF at
query time (`Modifier.Idf`), so the index never needs global statistics beyond the average
chunk length. Reference tokens (`ref_9_2_h`) and identifiers (NHS numbers, patient ids, policy
UINs, amounts) are single tokens so that an exact match is an exact match.
"""

from __future__ import annotations

import re
import zlib
from collections import Counter

from core.types import SparseVector
from language.references import NHS_NUMBER_RE, identifier_tokens, question_tokens
from language.words import words

K1 = 1.2
B = 0.75
REFERENCE_QUERY_WEIGHT = 2.0

_GROUPED_NUMBER_RE = re.compile(r"(?<![\d.,])\d{1,3}(?:[ ,]\d{3})+(?![\d,])")
_IDENTIFIER_RE = re.compile(
    r"\b(?=[A-Za-z0-9-]*\d)(?=[A-Za-z0-9-]*[A-Za-z])[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+\b|\b[A-Z]{3,}\d[A-Z0-9]{4,}\b"
)


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
