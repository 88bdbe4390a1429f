"""What the web page shows beside the record: collection titles (GET /collections) and why a question got no
answer (`refusal_reason` on the stream's final event), over the shipped index and by hand-made records."""

from __future__ import annotations

import json

from core.schemas import AnswerRecord
from core.types import Evidence
from server.presentation import collection_title, missing_provisions, refusal_reason


def final_event(client, question: str, **scope) -> dict:
    with client.stream("POST", "/query/stream", json={"question": question, **scope}) as reply:
        assert reply.status_code == 200
        text = "".join(reply.iter_text())
    lines = text.splitlines()
    [data] = [line[5:] for line, prev in zip(lines[1:], lines) if prev == "event: final" and line.startswith("data:")]
    return json.loads(data)


def test_collections_have_human_titles_and_the_counts_of_health(api):
    client = api()
    counts = client.get("/health").json()["index"]["chunks_per_collection"]
    listed = client.get("/collections").json()["collections"]
    assert [c["name"] for c in listed] == sorted(counts)
    assert {c["name"]: c["chunks"] for c in listed} == counts
    titles = {c["name"]: c["title"] for c in listed}
    assert titles["health_governance"] == "GDPR, EHDS, NHS guidance and FHIR UK Core"
    assert titles["insurance"] == "Health-insurance policy wordings"
    assert all("_" not in title for title in titles.values())


def test_an_unknown_collection_reads_as_its_name_in_words():
    assert collection_title("my_board_minutes") == "My board minutes"


def test_the_stream_says_why_each_refusal_happened(api):
    client = api()
    answered = final_event(client, "How long does a controller have to notify a personal data breach?")
    assert answered["status"] == "answered" and answered["refusal_reason"] is None

    advice = final_event(client, "What should I take for my migraine?")
    assert advice["status"] == "refused"
    assert advice["refusal_reason"]["kind"] == "medical_advice" and "NHS 111" in advice["refusal_reason"]["text"]

    missing = final_event(client, "What does GDPR Article 120 say?")
    assert missing["status"] == "refused" and missing["refusal_reason"]["kind"] == "no_such_provision"
    assert "GDPR Article 120" in missing["refusal_reason"]["text"]

    elsewhere = final_event(client, "What is the capital of France?", collection="health_governance")
    assert elsewhere["refusal_reason"] == {
        "kind": "not_in_sources",
        "text": "Nothing in GDPR, EHDS, NHS guidance and FHIR UK Core says this. "
        "Try naming the law, guidance or policy, or asking in other words.",
    }

    absent = final_event(
        client, "Do I get money back on the group rider if I stay healthy all year?", collection="insurance"
    )
    assert absent["status"] == "refused" and absent["refusal_reason"]["kind"] == "absent_from_wording"
    assert absent["refusal_reason"]["text"].startswith("The policy wording does not mention this benefit: no clause of")
    assert "CareShield Rider (Group) cl." in absent["refusal_reason"]["text"]


def evidence(citation: str) -> Evidence:
    return Evidence(chunk_id=citation, text="t", citation=citation, document="d")


def test_a_provision_counts_as_found_when_any_evidence_carries_it():
    record = AnswerRecord(question="What does Article 33(1) GDPR say, and Recital 200?", status="refused")
    assert missing_provisions(record) == ["GDPR Article 33(1)", "GDPR Recital 200"]
    record.evidence = [evidence("GDPR Art. 33(1)")]
    assert missing_provisions(record) == ["GDPR Recital 200"]


def test_an_answer_that_could_not_be_written_says_so_with_the_detail():
    record = AnswerRecord(
        question="When must a breach be notified?", status="evidence_only", status_detail="the chat model timed out"
    )
    reason = refusal_reason(record, None)
    assert reason is not None and reason.kind == "not_written" and "the chat model timed out" in reason.text
    assert refusal_reason(record.model_copy(update={"status": "answered"}), None) is None
