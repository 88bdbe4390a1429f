"""Recitals linked at ingest to the articles they explain, and retrieval following the links.

A small act written for the test (paraphrases of four GDPR articles and four recitals, one of which names
its article) is ingested with the real model; the GDPR recital -> article pairs in ../shared are evaluation
data and are never read here.
"""

from __future__ import annotations

import json

import pytest

from core.types import Evidence
from ingest.links import MAX_LINKS
from retrieval.resources import Resources
from retrieval.search import beside_pointers
from tests.conftest import ingest_into

ROWS = [
    {
        "citation": "GDPR Recital 65",
        "kind": "recital",
        "text": "A data subject should have the right to have personal data concerning him or her erased and no "
        "longer processed where the data are no longer necessary for the purposes for which they were collected, "
        "or where consent has been withdrawn.",
    },
    {
        "citation": "GDPR Recital 68",
        "kind": "recital",
        "text": "To strengthen control over his or her own data, the data subject should be able to receive the "
        "personal data which he or she has provided in a structured, commonly used and machine-readable format "
        "and to transmit them to another controller.",
    },
    {
        "citation": "GDPR Recital 85",
        "kind": "recital",
        "text": "A personal data breach may, if not addressed in a timely manner, result in harm to natural persons. "
        "As soon as the controller becomes aware of a breach, it should notify the supervisory authority without "
        "undue delay and, where feasible, not later than 72 hours after having become aware of it.",
    },
    {
        "citation": "GDPR Recital 97",
        "kind": "recital",
        "text": "Where processing is carried out by a public authority, a person with expert knowledge should assist "
        "the controller, as laid down in Article 37, to monitor internal compliance with this Regulation.",
    },
    {
        "citation": "GDPR Art. 17(1)",
        "text": "The data subject shall have the right to obtain from the controller the erasure of personal data "
        "concerning him or her without undue delay where the personal data are no longer necessary in relation "
        "to the purposes for which they were collected or the data subject withdraws consent.",
    },
    {
        "citation": "GDPR Art. 20(1)",
        "text": "The data subject shall have the right to receive the personal data concerning him or her, which he "
        "or she has provided to a controller, in a structured, commonly used and machine-readable format and "
        "have the right to transmit those data to another controller.",
    },
    {
        "citation": "GDPR Art. 33(1)",
        "text": "In the case of a personal data breach, the controller shall without undue delay and, where feasible, "
        "not later than 72 hours after having become aware of it, notify the personal data breach to the "
        "supervisory authority.",
    },
    {
        "citation": "GDPR Art. 37(1)",
        "text": "The controller and the processor shall designate a data protection officer in any case where the "
        "processing is carried out by a public authority or body.",
    },
]


@pytest.fixture
def act(tmp_path, settings, embedder):
    """The small act ingested into a collection of its own; yields the resources and payloads by citation."""
    folder = tmp_path / "laws"
    folder.mkdir()
    (folder / "act.json").write_text(json.dumps(ROWS), encoding="utf-8")
    resources = Resources(settings, embedder=embedder)
    report = ingest_into(resources, [folder], collection="laws")
    assert not report.failed and report.added == ["laws/act"], report.summary()
    yield resources, {p["citation"]: p for p in resources.reader.store().payloads()}
    resources.close()


@pytest.mark.parametrize(
    ("recital", "article"),
    [("GDPR Recital 65", "gdpr_ref_17"), ("GDPR Recital 68", "gdpr_ref_20"), ("GDPR Recital 85", "gdpr_ref_33")],
)
def test_a_recital_naming_no_article_is_linked_to_the_article_it_paraphrases(act, recital, article):
    _, payloads = act
    explains = payloads[recital]["explains"]
    assert explains[0] == article
    assert len(explains) <= MAX_LINKS
    assert len(payloads[recital]["explains_similarity"]) == len(explains)


def test_a_recital_naming_its_article_keeps_that_reference_only(act):
    _, payloads = act
    assert payloads["GDPR Recital 97"]["explains"] == ["gdpr_ref_37"]
    assert "explains_similarity" not in payloads["GDPR Recital 97"]
    assert not [c for c, p in payloads.items() if "Art." in c and p["explains"]]  # articles link nowhere


def test_a_question_worded_like_a_recital_brings_its_article_right_after_it(act):
    resources, _ = act
    found = resources.retriever.retrieve(
        "What if a breach is not addressed in a timely manner and harms natural persons?", {"collection": "laws"}, 1
    )
    assert [e.citation for e in found[:2]] == ["GDPR Recital 85", "GDPR Art. 33(1)"]


def _evidence(citation: str, authority: str = "binding", **metadata) -> Evidence:
    refs = [f"gdpr_ref_{citation.split()[-1].split('(')[0]}"] if authority == "binding" else []
    return Evidence(
        chunk_id=citation,
        text=citation,
        citation=citation,
        document="d",
        authority=authority,
        refs=refs,
        metadata=metadata,
    )


def test_a_named_provision_is_placed_beside_its_recital_a_similarity_link_after_the_candidates():
    named = _evidence("GDPR Recital 97", "recital", explains=["gdpr_ref_37"])
    guessed = _evidence("GDPR Recital 85", "recital", explains=["gdpr_ref_33"], explains_similarity=[0.8])
    candidates = [named, guessed, _evidence("GDPR Art. 17(1)")]
    order = beside_pointers(candidates, [_evidence("GDPR Art. 37(1)"), _evidence("GDPR Art. 33(1)")])
    assert [e.citation for e in order] == [
        "GDPR Recital 97",
        "GDPR Art. 37(1)",  # named in the recital: beside it
        "GDPR Recital 85",
        "GDPR Art. 17(1)",
        "GDPR Art. 33(1)",  # linked by similarity: after every candidate, graded on its own merits
    ]
