"""Each node on its own: a hand-made state and run context, real services over the shipped index."""

from __future__ import annotations

import pytest
from langgraph.runtime import Runtime

from core.schemas import RunContext, Step
from core.types import Evidence, Scores
from generation.prompts import REFUSAL
from nodes.align import align
from nodes.answer_side import answer_side
from nodes.answerability import answerability
from nodes.generate import generate
from nodes.grade import grade
from nodes.refine import refine
from nodes.requery import requery
from nodes.retrieve import retrieve
from nodes.web_search import web_search

BREACH = "How many hours does a controller have to notify a personal data breach to the supervisory authority?"
HIPAA = "What is the HIPAA breach notification deadline?"


def runtime(**options) -> Runtime:
    return Runtime(context=RunContext(**options))


def evidence(chunk_id: str, text: str, confidence: float, citation: str = "GDPR Art. 33(1)", **extra) -> Evidence:
    return Evidence(
        chunk_id=chunk_id,
        text=text,
        citation=citation,
        document="GDPR Article 33",
        hierarchy_rank=1,
        confidence=confidence,
        scores=Scores(dense=0.6),
        **extra,
    )


@pytest.fixture
def services(make_services):
    return make_services()


def step_of(update: dict) -> Step:
    [step] = update["steps"]
    return step


def test_retrieve_takes_a_deep_pool_from_the_run_contexts_collection_and_grade_cuts_it_to_k(services):
    update = retrieve({"question": f"  {BREACH} "}, runtime(collection="health_governance", top_k=3), services=services)
    assert update["query"] == BREACH  # trimmed
    pool = update["candidates"]
    assert 3 < len(pool) <= services.settings.candidate_pool and {e.collection for e in pool} == {"health_governance"}
    assert step_of(update).node == "retrieve" and update["latency_ms"]["retrieve"] > 0
    graded = grade({"question": BREACH, "candidates": pool}, runtime(top_k=3), services=services)["candidates"]
    assert len(graded) == 3 and graded[0].citation.startswith("GDPR Art. 33")


def test_retrieve_judges_intent_narrowed_policy_candidates_by_the_run_s_own_threshold(services):
    question = {"question": "Is cosmetic surgery excluded?"}
    kept = retrieve(question, runtime(collection="insurance", correct_threshold=0.0), services=services)
    assert "narrowed to" in step_of(kept).detail and "unfiltered" not in step_of(kept).detail  # good enough at 0
    compared = retrieve(question, runtime(collection="insurance", correct_threshold=1.0), services=services)
    assert "unfiltered was no better" in step_of(compared).detail  # none is at 1: the unnarrowed search is tried


def test_retrieve_refuses_an_empty_question(services):
    with pytest.raises(ValueError, match="empty"):
        retrieve({"question": "   "}, runtime(), services=services)


def test_retrieve_narrows_policy_questions_by_intent(services):
    update = retrieve({"question": "Is cosmetic surgery excluded?"}, runtime(collection="insurance"), services=services)
    assert "intent exclusion" in step_of(update).detail
    assert {e.metadata["section_key"] for e in update["candidates"]} <= {"exclusions", "waiting_period"}


def test_grade_orders_candidates_picks_the_route_and_keeps_the_first_route(services):
    found = services.resources.retriever.retrieve(BREACH, {"collection": "health_governance"}, 5)
    [stray] = services.resources.retriever.retrieve("Caldicott principles", {"collection": "health_governance"}, 1)
    update = grade({"question": BREACH, "candidates": [stray, *found]}, runtime(), services=services)
    confidences = [e.confidence for e in update["candidates"]]
    assert update["route"] == update["initial_route"] == "CORRECT" and step_of(update).route == "CORRECT"
    assert update["candidates"][0].citation == "GDPR Art. 33(1)" and max(confidences) == update["confidence"]
    assert len(update["candidates"]) == services.settings.top_k == len(found)
    assert stray.chunk_id not in {e.chunk_id for e in update["candidates"]}  # retrieved first, graded out
    assert update["trust_grade"].grade == "high" and update["provenance"]["hierarchy_rank"] == 1
    again = grade({"question": BREACH, "candidates": found, "initial_route": "INCORRECT"}, runtime(), services=services)
    assert "initial_route" not in again  # the first route is kept through the requery loop


def test_grade_thresholds_come_from_the_run_context(services):
    found = services.resources.retriever.retrieve(BREACH, {"collection": "health_governance"}, 5)
    question = HIPAA  # capped at 0.3: it names a regime no chunk mentions
    best = grade({"question": question, "candidates": found}, runtime(), services=services)["confidence"]
    assert 0 < best < 1
    high, low = runtime(correct_threshold=1.0, incorrect_threshold=0.0), runtime(incorrect_threshold=1.0)
    assert grade({"question": question, "candidates": found}, high, services=services)["route"] == "AMBIGUOUS"
    assert grade({"question": question, "candidates": found}, low, services=services)["route"] == "INCORRECT"


def test_refine_keeps_supporting_sentences_of_relevant_chunks_only(services):
    relevant = evidence(
        "a",
        "The controller shall notify the breach not later than 72 hours after becoming aware of it. "
        "Member States shall provide for an appeal.",
        0.9,
    )
    weak = evidence("b", "Recitals explain the purpose of the regulation.", 0.1, citation="GDPR Recital 1")
    update = refine({"question": BREACH, "candidates": [relevant, weak]}, runtime(), services=services)
    [kept] = update["refined"]
    assert kept.chunk_id == "a" and any("72 hours" in s for s in kept.highlights)
    assert update["refine_stats"]["chunks_in"] == 2 and update["refine_stats"]["chunks_kept"] == 1


def test_refine_keeps_the_best_sentence_of_a_relevant_chunk_whose_words_differ_from_the_question(services):
    """The grader judged the chunk relevant; plain words that match none of its sentences must not drop it."""
    clause = evidence(
        "a", "Treatment of Injury arising from professional participation in motor racing. Code Excl09.", 0.6
    )
    question = "A member who races cars for a living crashed. Do we pay?"
    [kept] = refine({"question": question, "candidates": [clause]}, runtime(), services=services)["refined"]
    assert kept.highlights and all(h in clause.text for h in kept.highlights)


def test_requery_keeps_the_policy_variant_the_question_names(services):
    question = "Will the group rider reimburse my spectacles every year?"
    state = {"question": question, "candidates": [], "web_ran": True, "evidence_used": False}
    update = requery(state, runtime(collection="insurance", allow_web=False), services=services)
    assert update["candidates"], "the expanded search should find clauses"
    assert {e.metadata.get("variant") for e in update["candidates"]} == {"group"}


def test_web_search_is_skipped_when_the_run_forbids_it(services):
    update = web_search({"question": HIPAA}, runtime(allow_web=False), services=services)
    assert update["web_evidence"] == [] and update["web_attempts"][0]["status"] == "skipped" and update["web_ran"]


def test_web_search_grades_and_keeps_relevant_results(services):
    update = web_search({"question": "What is a data protection impact assessment?"}, runtime(), services=services)
    assert update["web_provider"] == "secondary" and update["web_evidence"]
    assert all(e.origin == "secondary" and e.confidence is not None for e in update["web_evidence"])


def test_generate_answers_from_refined_blocks_and_reports_what_it_used(services):
    block = evidence(
        "a", "The controller shall notify the breach not later than 72 hours after becoming aware of it.", 0.9
    ).model_copy(update={"highlights": ["The controller shall notify the breach not later than 72 hours."]})
    state = {"question": BREACH, "route": "CORRECT", "refined": [block], "candidates": [block]}
    update = generate(state, runtime(generator="offline"), services=services)
    assert update["status"] == "answered" and "72 hours" in update["answer"] and update["evidence_used"]
    assert [c.chunk_id for c in update["citations"]] == ["a"] and step_of(update).status == "answered"


def test_generate_refuses_without_calling_a_model_when_no_block_clears_the_floor(services):
    weak = evidence("a", "Something unrelated.", 0.05)
    state = {"question": HIPAA, "route": "INCORRECT", "refined": [], "web_evidence": [weak], "candidates": [weak]}
    update = generate(state, runtime(), services=services)
    assert update["answer"] == REFUSAL and update["generator"] == "none"
    assert update["evidence"] == [weak] and not update["evidence_used"]  # the weak evidence is shown, marked unused


@pytest.mark.parametrize(
    ("state", "route", "detail"),
    [
        ({"status": "answered"}, None, "answerability: answered"),
        ({"status": "refused"}, None, "answerability: refused; requerying once"),
        (
            {"status": "answered", "requeried": True},
            "AMBIGUOUS",
            "answerability: after requery answered; route AMBIGUOUS",
        ),
        (
            {"status": "refused", "requeried": True},
            "INCORRECT",
            "answerability: after requery refused; route INCORRECT",
        ),
    ],
)
def test_answerability_settles_the_route_only_after_a_requery(state, route, detail):
    update = answerability(state, runtime())
    assert update.get("route") == route and step_of(update).detail == detail


def test_requery_reports_new_evidence_and_runs_web_search_once(services):
    state = {"question": "Who must appoint a data protection officer?", "candidates": [], "web_ran": False}
    update = requery(state, runtime(), services=services)
    assert update["requeried"] and update["new_evidence"] and update["route"] == "AMBIGUOUS"
    assert update["web_ran"] and update["web_provider"] == "secondary"
    assert update["query"].startswith("Who must appoint a data protection officer?")


def test_requery_with_nothing_new_keeps_the_refusal_and_its_weak_candidates(services):
    found = services.resources.retriever.retrieve(HIPAA, {}, 10)
    state = {"question": HIPAA, "candidates": found, "web_ran": True, "evidence_used": False}
    update = requery(state, runtime(top_k=5), services=services)
    assert not update["new_evidence"] and update["route"] == "INCORRECT"
    assert update["evidence"] == update["candidates"]


def test_answer_side_answers_for_one_wording_only(services):
    task = {
        "question": "What is the cataract surgery limit?",
        "side": "a",
        "filters": {"doc_id": "careshield_rider_individual"},
    }
    update = answer_side(task, runtime(generator="offline"), services=services)
    [side] = update["sides"]
    assert side.side == "a" and side.status == "answered"
    assert {e.doc_id for e in side.evidence} == {"careshield_rider_individual"}
    assert update["clauses"]["a"] and all(c.doc_id == "careshield_rider_individual" for c in update["clauses"]["a"])


def test_align_turns_both_sides_clauses_into_points(services):
    sides = {}
    for name, doc in (("a", "careshield_rider_individual"), ("b", "careshield_rider_group")):
        task = {"question": "What is the cataract surgery limit?", "side": name, "filters": {"doc_id": doc}}
        sides[name] = answer_side(task, runtime(generator="offline"), services=services)
    state = {
        "sides": [*sides["a"]["sides"], *sides["b"]["sides"]],
        "clauses": {**sides["a"]["clauses"], **sides["b"]["clauses"]},
    }
    update = align(state, runtime())
    assert update["points"] and any(p.verdict == "different" and p.a and p.b for p in update["points"])
    assert update["summary"].startswith(f"{sum(p.verdict == 'different' for p in update['points'])} point(s) differ")


def test_web_results_fill_the_places_local_evidence_leaves_and_never_push_a_graded_provision_out():
    from generation.blocks import context_blocks

    provision = evidence("law", "Paragraph 1 shall not apply if processing is necessary for legal claims.", 0.46)
    commentary = [evidence(f"c{i}", f"Point {i}.", 0.5 + i / 100, citation="Commentary: x") for i in range(3)]
    web = [evidence(f"w{i}", f"Web result {i}.", 0.55 + i / 100, citation=f"https://example.org/{i}") for i in range(6)]
    blocks = context_blocks("AMBIGUOUS", [provision, *commentary], web, floor=0.3, cap=6)
    assert len(blocks) == 6 and "law" in {b.chunk_id for b in blocks}  # four local, then the two best web results
    assert {b.chunk_id for b in blocks} - {"law", "c0", "c1", "c2"} == {"w5", "w4"}
    assert [b.confidence for b in blocks] == sorted((b.confidence for b in blocks), reverse=True)
    assert [b.chunk_id for b in context_blocks("INCORRECT", [provision], web[:2], 0.3)] == ["w1", "w0"]
    assert [b.chunk_id for b in context_blocks("CORRECT", [provision], web, 0.5)] == []  # weak blocks never go in
    # the fallback over the commentary collection finding again a chunk retrieval already holds adds it once
    again = evidence("c0", "Point 0.", 0.9, citation="Commentary: x")
    assert [b.chunk_id for b in context_blocks("AMBIGUOUS", commentary, [again], 0.3)].count("c0") == 1


def test_asked_about_cover_a_clause_naming_what_is_asked_is_kept_though_graded_below_k(services):
    question = "If I'm injured in a war or an armed uprising, will my individual CareShield rider pay for my treatment?"
    pool = retrieve({"question": question}, runtime(collection="insurance"), services=services)["candidates"]
    update = grade({"question": question, "candidates": pool}, runtime(top_k=5), services=services)
    kept = [e.citation for e in update["candidates"]]
    assert len(kept) == 5 and "CareShield Rider (Individual) cl. 5.16" in kept  # the war exclusion
    state = {"question": question, "route": update["route"], "refined": update["candidates"]}
    answer = generate(state, runtime(), services=services)
    assert answer["answer"].startswith("No: ") and "war" in answer["answer"]
    assert answer["citations"][0].citation == "CareShield Rider (Individual) cl. 5.16"


def test_a_clause_past_the_cap_naming_an_asked_word_none_kept_names_replaces_the_weakest_redundant_one():
    from generation.blocks import naming_every_asked_word

    injury = [evidence(f"i{n}", f"Treatment of an injury from an accident, case {n}.", 0.8 - n / 100) for n in range(4)]
    war = evidence("war", "Treatment caused by war, invasion or rebellion.", 0.6)
    kept = naming_every_asked_word([*injury, war], 3, {"injury", "war"})
    assert [e.chunk_id for e in kept] == ["i0", "i1", "war"]  # i2 named nothing the others did not
    assert [e.chunk_id for e in naming_every_asked_word([*injury, war], 3, set())] == ["i0", "i1", "i2"]


def test_the_provision_the_kept_explanations_explain_most_often_joins_the_kept_evidence():
    from generation.blocks import with_explained_provision

    def provision(chunk_id: str, text: str, confidence: float, ref: str) -> Evidence:
        return evidence(chunk_id, text, confidence, citation=chunk_id, authority="binding", refs=[ref])

    commentary = evidence(
        "c", "Patients may ask for a copy.", 0.7, citation="Commentary: access", metadata={"explains": ["gdpr_15_3"]}
    )
    other = provision("o", "The controller shall facilitate the exercise of rights.", 0.6, "gdpr_12_2")
    weak = provision("w", "Processing shall be lawful.", 0.5, "gdpr_6_1")
    copy = provision("p", "The controller shall provide a copy of the personal data.", 0.4, "gdpr_15_3")
    pool = [commentary, other, weak, copy]
    assert [e.chunk_id for e in with_explained_provision(pool[:3], pool)] == ["c", "o", "w", "p"]
    assert [e.chunk_id for e in with_explained_provision([other, weak], pool)] == ["o", "w"]  # nothing explains
    assert [e.chunk_id for e in with_explained_provision([commentary, copy], pool)] == ["c", "p"]  # kept already
    # a chunk of commentary naming nothing explains nothing; of two provisions explained, the one more explanations
    # explain joins, though graded lower
    silent = evidence("s", "Consent is demanding.", 0.8, citation="Commentary: consent", metadata={"explains": []})
    second = evidence("d", "It is Art. 6(1).", 0.7, citation="Commentary: basis", metadata={"explains": ["gdpr_6_1"]})
    third = evidence(
        "t", "Or 6(1) or 15(3).", 0.7, citation="Commentary: b", metadata={"explains": ["gdpr_6_1", "gdpr_15_3"]}
    )
    kept = [silent, second, third]
    assert [e.chunk_id for e in with_explained_provision(kept, [*kept, copy, weak])][-1] == "w"
    # explained as often, a provision the best graded explanation names joins before a better graded one it does not
    dpia = evidence(
        "dp", "A DPIA comes first.", 0.9, citation="Commentary: DPIA", metadata={"explains": ["gdpr_35_1", "gdpr_35_4"]}
    )
    dpo = evidence("do", "Ask the DPO.", 0.8, citation="Commentary: DPO", metadata={"explains": ["gdpr_36"]})
    lists = provision("l4", "Each authority lists the operations.", 0.5, "gdpr_35_4")
    consult = provision("c36", "The controller shall consult the authority.", 0.5, "gdpr_36")
    prior = provision("p1", "The controller shall, prior to the processing, carry out an assessment.", 0.4, "gdpr_35_1")
    pool = [dpia, dpo, consult, prior, lists]
    assert [e.chunk_id for e in with_explained_provision([dpia, dpo], pool)][-1] == "p1"


def test_an_exception_to_a_paragraph_is_graded_at_least_as_the_paragraph_it_names():
    from retrieval.grading import REFERENCE_MATCH_FLOOR, grade_all

    rule = evidence("r", "1. The data subject has the right to obtain erasure of personal data.", 0.5)
    rule.citation, rule.authority = "GDPR Art. 17(1)", "binding"
    exception = evidence("x", "3. Paragraphs 1 and 2 do not apply to the extent that processing is necessary.", 0.5)
    exception.citation, exception.authority = "GDPR Art. 17(3)", "binding"
    other = evidence("o", "3. Paragraphs 1 and 2 do not apply to archives.", 0.5)
    other.citation, other.authority = "GDPR Art. 18(3)", "binding"
    grades = grade_all("Can I make the hospital erase my data?", [rule, exception, other])
    assert grades[1].confidence >= min(grades[0].confidence, REFERENCE_MATCH_FLOOR)
    assert "exception to a retrieved paragraph" in grades[1].explanation
    assert "exception" not in grades[2].explanation  # another article's paragraphs 1 and 2 were not retrieved


def test_the_best_graded_block_joins_evidence_that_authority_order_left_it_out_of():
    from generation.blocks import with_best_graded

    provisions = [evidence(f"p{i}", f"Provision {i}.", 0.8 - i / 100, authority="binding") for i in range(3)]
    commentary = evidence("c", "The tasks are: to inform; to monitor; to advise.", 0.9, citation="Commentary: DPO")
    pool = [*provisions, commentary]
    assert [e.chunk_id for e in with_best_graded(provisions[:2], pool)] == ["p0", "p1", "c"]
    assert [e.chunk_id for e in with_best_graded([commentary, provisions[0]], pool)] == ["c", "p0"]
