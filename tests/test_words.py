"""Stemming: the C build of Snowball English (PyStemmer) that snowballstemmer runs gives the pure-Python stems.

The index's sparse vectors and every word comparison depend on the stems, so an index built with either
build must be read the same with the other."""

from __future__ import annotations

import snowballstemmer
from snowballstemmer.english_stemmer import EnglishStemmer

from core.settings import REPO_ROOT
from language.words import _WORD_RE


def corpus_vocabulary() -> list[str]:
    """Every word of the shipped corpus's texts and sidecars, and each hyphenated word joined up."""
    text = " ".join(p.read_text(encoding="utf-8").lower() for p in sorted((REPO_ROOT / "corpus").rglob("*.*")))
    tokens = set(_WORD_RE.findall(text))
    return sorted({part for token in tokens for part in token.split("-")} | {t.replace("-", "") for t in tokens})


def test_the_c_build_is_the_stemmer_in_use():
    import Stemmer

    assert snowballstemmer.stemmer is Stemmer.Stemmer


def test_the_c_build_gives_the_pure_python_stems_on_the_corpus_vocabulary():
    words = corpus_vocabulary()
    assert len(words) > 3000
    fast, reference = snowballstemmer.stemmer("english"), EnglishStemmer()
    assert [fast.stemWord(w) for w in words] == [reference.stemWord(w) for w in words]


def test_contractions_leave_their_not_and_nothing_else():
    from language.words import words

    assert words("We're sure they've said it doesn't, and I'll check: you can't, won't, cannot") == words(
        "We sure they said it does not, and I check: you can not, will not, can not"
    )
    assert "re" not in words("we're") and "not" in words("isn’t")  # a curly apostrophe too


def test_the_regulator_is_asked_about_while_the_regulation_names_the_instrument():
    from language.question import content_terms

    assert "regul" in content_terms("Can the data protection regulator fine a public hospital?")
    assert "regul" not in content_terms("What does the regulation say about fines?")
