"""Reference and identifier tokens: what makes an exact reference an exact match."""

import pytest

from ingest.chunking import clause_links
from language.references import citation_tokens, identifier_tokens, instruments_named, pointed_lists, question_tokens
from retrieval.search import boost_tokens
from retrieval.sparse import document_terms, encode_query, token_index


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What does Art. 9(2)(h) allow?", ["ref_9_2_h"]),
        ("Is Article 9 (2) (a) explicit consent?", ["ref_9_2_a"]),
        ("article 33", ["ref_33"]),
        ("Art. 32", ["ref_32"]),
        ("paragraph 3 of Article 12", ["ref_12_3"]),
        ("what is 9(2)(j) about", ["ref_9_2_j"]),
        ("Articles 44 to 46", ["ref_44", "ref_45", "ref_46"]),
        ("Caldicott principle 7", ["principle_7", "caldicott_principle_7"]),
        ("GDPR Art. 4(15)", ["ref_4_15", "gdpr_ref_4_15"]),
        ("What is the eighth Caldicott principle about?", ["principle_8", "caldicott_principle_8"]),
        ("the 3rd data security standard", ["standard_3"]),
        ("the first time I asked, on first principles", []),
        ("We have 72 hours (roughly)", []),
    ],
)
def test_question_reference_tokens(question, expected):
    assert question_tokens(question) == expected


def test_a_chunk_carries_its_reference_and_its_ancestors():
    tokens = citation_tokens("GDPR Art. 9(2)(h)")
    assert tokens == ["ref_9", "gdpr_ref_9", "ref_9_2", "gdpr_ref_9_2", "ref_9_2_h", "gdpr_ref_9_2_h"]
    assert "ref_9_2_a" not in tokens


def test_naming_the_instrument_narrows_the_boost_to_it():
    assert boost_tokens("GDPR Article 9") == ["gdpr_ref_9"]
    assert boost_tokens("Article 9") == ["ref_9"]
    assert boost_tokens("EHDS Art. 71 opt-out") == ["ehds_ref_71"]


def test_identifiers_are_exact_tokens():
    assert identifier_tokens("NHS number 943 476 5919 and pat-0007, UIN NICHLIP25039V032425") == [
        "nhs_9434765919",
        "id_pat-0007",
        "id_nichlip25039v032425",
    ]
    assert "nhs_9434765919" in question_tokens("What is NHS number 9434765919 allergic to?")


def test_sparse_terms_join_grouped_numbers_and_keep_negation():
    terms = document_terms("The fine is up to 20 000 000 EUR; 40,000 per eye. The insurer shall not be liable.")
    assert "20000000" in terms and "40000" in terms
    assert "not" in terms
    assert "the" not in terms


def test_reference_tokens_weigh_more_in_the_query():
    vector = encode_query("What does Art. 9(2)(h) say?")
    weights = dict(zip(vector.indices, vector.values))
    assert weights[token_index("ref_9_2_h")] > weights[token_index("say")]


def test_a_policy_clause_is_a_reference_and_its_pointers_stay_in_its_wording():
    assert question_tokens("What does clause 4.2 of the group rider say?") == ["clause_4_2"]
    assert boost_tokens("What does cl. 4.2 say?") == ["clause_4_2"]
    assert citation_tokens("Arogya Sanjeevani Policy cl. 4.1.1, p. 5") == ["clause_4", "clause_4_1", "clause_4_1_1"]
    assert question_tokens("Are standard data protection clauses enough?") == []  # no number: not a clause
    text = "A Critical Illness listed in Clause 3.9.1, after the waiting period in Clause 4.5, is paid as a lump sum."
    own, named = clause_links(text, "CareShield Rider (Group) cl. 3.9", "careshield_rider_group")
    assert own == ["careshield_rider_group_clause_3_9"]
    # only "listed in" says where the clause's list is; "the waiting period in Clause 4.5" is another rule
    assert named == pointed_lists(text, "careshield_rider_group") == ["careshield_rider_group_clause_3_9_1"]


def test_every_instrument_a_text_names_is_found_normalised():
    assert instruments_named("The UK GDPR has the same rules as the European Health Data Space.") == {"gdpr", "ehds"}
    assert instruments_named("Member States shall designate a body.") == set()
    # the EHDS named as people name it
    assert instruments_named("Can a patient stop reuse under the new EU health data rules?") == {"ehds"}


def test_a_condition_kept_in_another_clause_is_pointed_to_and_a_mere_mention_is_not():
    from language.references import pointed_conditions

    text = "If diagnosed with a Critical Illness listed in Clause 3.9.1, after the waiting period in Clause 4.5, ..."
    assert pointed_conditions(text, "rider") == ["rider_clause_4_5"]
    assert pointed_conditions("If a claim is admitted under Clause 3.1, the Company will pay ...", "rider") == []
