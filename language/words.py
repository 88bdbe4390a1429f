"""Content words: lower-cased, stemmed (Snowball English), stop words dropped, numbers kept.

`snowballstemmer` runs PyStemmer's C build of the same algorithm when it is installed (a dependency): the same
stems (tests/test_words.py checks the shipped corpus's vocabulary) about 25 times faster, which matters for
the words a question's new evidence brings (about 2 ms of an offline answer in pure Python).

The same words feed the sparse vectors, grading's coverage and the answerers' sentence choice, so a
question and a chunk are always compared word for word in one vocabulary.
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache

import snowballstemmer

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

_WORD_RE = re.compile(r"[a-z0-9]+(?:\.[0-9]+)?(?:-[a-z]+)*")

_local = threading.local()  # a Snowball stemmer keeps state per call: one per thread (the compare graph's
# parallel branches and the HTTP server's worker threads stem at the same time)


@lru_cache(maxsize=65536)  # a corpus has tens of thousands of distinct words; each is stemmed once
def _stem(word: str) -> str:
    stemmer = getattr(_local, "stemmer", None)
    if stemmer is None:
        stemmer = _local.stemmer = snowballstemmer.stemmer("english")
    return stemmer.stemWord(word)


def words(text: str) -> list[str]:
    """Content words, lower-cased and stemmed; stop words dropped; numbers kept."""
    return list(_words(text))


# Contractions: "doesn't" is "does not" (the "not" carries polarity); "we're", "they've", "I'll" leave nothing
# ("re", "ve", "ll" were content words of every question typed with them)
_IRREGULAR_NOT = {"can't": "can not", "cannot": "can not", "won't": "will not", "shan't": "shall not"}
_IRREGULAR_NOT_RE = re.compile(r"\b(?:can't|cannot|won't|shan't)\b")
_NOT_RE = re.compile(r"n't\b")
_CONTRACTED_RE = re.compile(r"'(?:re|ve|ll)\b")


def _uncontracted(text: str) -> str:
    text = text.lower().replace("\u2019", "'")
    text = _IRREGULAR_NOT_RE.sub(lambda m: _IRREGULAR_NOT[m.group(0)], text)
    return _CONTRACTED_RE.sub("", _NOT_RE.sub(" not", text))


@lru_cache(maxsize=8192)  # the same evidence texts are read by grading, strips and the composer in one run
def _words(text: str) -> tuple[str, ...]:
    out: list[str] = []
    for token in _WORD_RE.findall(_uncontracted(text)):
        out += _token_words(token)
    return tuple(out)


@lru_cache(maxsize=65536)  # a new text is mostly words seen before: each token is split and stemmed once
def _token_words(token: str) -> tuple[str, ...]:
    parts = token.split("-")
    out = [
        word if word[0].isdigit() else _stem(word)
        for word in parts
        if not (word in STOPWORDS or (len(word) == 1 and not word.isdigit()))
    ]
    if len(parts) > 1 and token[0].isalpha():  # "out-patient" is also "outpatient", as users write it
        out.append(_stem("".join(parts)))
    return tuple(out)
