"""Question analysis: the kind of answer, the scope named, the domain, and medical advice by meaning."""

from __future__ import annotations

import pytest

from language.analysis import about_ehds, analyse, question_sentence
from language.question import compared_terms


@pytest.mark.parametrize(
    ("question", "answer_type"),
    [
        ("How long do I have to report a data breach?", "deadline"),
        ("We can't do it in a month. How much extra time can we take?", "deadline"),  # time, not an amount
        ("How far back before admission are pre-hospital bills covered?", "deadline"),
        ("Who counts as the Master Policyholder on the group rider?", "definition"),
        ("Our supplier had a breach. What are they obliged to do and towards whom?", "who"),
        ("What are health data access bodies?", "definition"),
        ("By when must we tell the regulator about a hack?", "deadline"),
        ("At what point do we have to tell the patients themselves about a breach?", "deadline"),  # not a list
        ("How much is paid for cataract surgery on each eye?", "amount"),
        ("What is the maximum fine for breaching Article 32?", "amount"),
        ("Can our hospital process health data for diagnosis?", "yes_no"),
        ("The hospital wants my passport first. Are they allowed to ask for ID?", "yes_no"),
        ("If a participant withdraws, does that make the earlier processing unlawful?", "yes_no"),
        ("What counts as data concerning health?", "definition"),
        ("What does Article 46(2)(c) GDPR provide?", "definition"),
        ("What has to go into a breach notification?", "list"),
        ("What has to be in the contract with our processor?", "list"),
        ("What long-term conditions does pat-0045 have?", "list"),
        ("What's Lucy Roberts on?", "list"),
        ("Who enforces patients' rights under the EHDS?", "who"),
        ("Who is a data controller?", "definition"),  # the term, not a party
        ("Who is the controller for shared care records?", "who"),
        ("How do I get my records sent to a hospital abroad?", "procedure"),
        ("How do the individual and group riders differ on room rent?", "comparison"),
        # in which circumstances a duty arises, not by when it is done
        ("When do we have to carry out a data protection impact assessment?", "condition"),
        ("In what circumstances must a hospital appoint a DPO?", "condition"),
        ("When must we notify the regulator of a breach?", "deadline"),
        ("When do I have to pay the premium?", "deadline"),
        ("I'm still getting physio bills. When do I have to send those in under my rider?", "deadline"),
        ("What lawful grounds are there for processing health data?", "list"),
        ("What other risks does a health data access body have to weigh before granting access?", "list"),
        ("What security measures does the GDPR expect?", "list"),
        ("What tablets is pat-0031 on?", "list"),
        # the answer names a provision; a question naming one is not asking which
        ("Which Caldicott principle is about informing patients?", "provision"),
        ("Which article of the GDPR covers erasure?", "provision"),
        ("What safeguards does Article 89(1) require when I process patient data for research?", "list"),
        # a duty, with its modal
        ("Our processor discovered a breach on their side. What do they have to do?", "obligation"),
        ("What must a controller do before it processes data?", "obligation"),
        ("What does the Data Security and Protection Toolkit do?", "explanation"),
        # the law asked under, before the modal, still asks yes or no; a question word after it does not
        ("A doctor wrote something wrong in my record. Under the EHDS can I just edit it myself?", "yes_no"),
        ("Under the GDPR, can my employer see my health data?", "yes_no"),
        ("Under the group rider how long is the waiting period?", "deadline"),
        # a question asking in words and ending on a list word is not a terse list request
        ("What counts as confidential information for the Caldicott principles?", "definition"),
        ("Caldicott principles", "list"),
        # when something will be covered is how long until cover; of several questions the first decides, unless a
        # later one compares
        ("When will my diabetes be covered?", "deadline"),
        (
            "When will my blood pressure that I had before buying it be covered? Is there any catch after it?",
            "deadline",
        ),
        ("Does he have to pay part of every claim? Would it be any different on my work's group rider?", "comparison"),
        # paperwork is documents
        ("What paperwork do I need to send for a reimbursement claim?", "list"),
        # the factors weighed are a list; a clause setting the scene before the main question does not type it
        ("When the regulator decides whether to fine us and how much, what does it take into account?", "list"),
        ("When a breach happens, how long do we have to report it?", "deadline"),
        ("If I claim, how much will I get?", "amount"),
        # what a law says about something is an explanation; what a document must say, a list
        ("What does the GDPR say about staff using data only as instructed?", "explanation"),
        ("What does a breach notification have to say?", "list"),
        # "at a minimum" means at least: it asks no amount
        ("At a minimum, what does the access body have to publish?", "explanation"),
        ("What is the minimum age for consent?", "amount"),
    ],
)
def test_answer_types(question, answer_type):
    assert analyse(question).answer_type == answer_type


def test_the_asking_sentence_decides_not_the_preamble():
    question = "Our trust wants an algorithm to decide which patients get follow-up. Can patients insist on a human?"
    assert question_sentence(question) == "Can patients insist on a human?"
    assert analyse(question).answer_type == "yes_no"


@pytest.mark.parametrize(
    "question",
    [
        "What dose of metformin should I take for my type 2 diabetes?",
        "Should I take ibuprofen or paracetamol for my migraine?",
        "My GP put me on amlodipine and my ankles are swollen. Should I stop taking it?",
        "Is it safe to drink alcohol with my antibiotics?",
        "I found a lump last week. Is it okay to wait a few weeks?",
        "Which vaccines should my child have?",
        "I'm Connor O'Brien and my back hurts - is it OK for me to take ibuprofen with my kidney disease?",
        "I'm allergic to peanuts. Is it safe for me to eat almonds?",  # eating, as taking, is the act asked about
        # a clinician asking what to do about a patient's medicine before a procedure
        "My patient takes apixaban. How many days before her tooth extraction should she stop it?",
        "Lucy Roberts has been to A&E twice with her AF. Should I double her apixaban?",  # changing a dose
        "He is on amlodipine 5mg and his blood pressure is still high. Should I go up to 10mg?",
        "Should I prescribe amoxicillin for her cough?",
        # the record only sets the scene of a question about a treatment
        "My record says I've got depression now. Would taking St John's wort be a good idea to help with it?",
        "Would taking ibuprofen help my headache?",
    ],
)
def test_personal_medical_advice_is_recognised(question):
    assert analyse(question).medical_advice


@pytest.mark.parametrize(
    "question",
    [
        # an adverb between the asker and the act ("Can I just take ...", "can I safely take")
        "I have some amoxicillin capsules left from June and now a sore throat. Can I just take the leftovers?",
        "How many puffs of salbutamol can I safely take in an asthma attack?",
        # a policy in the scene does not make a question about recovery one about the wording
        "My father had cataract surgery last week, paid for under his CareShield rider. How many days should he wait "
        "before he starts driving again?",
    ],
)
def test_medical_advice_past_an_adverb_or_a_policy_in_the_scene(question):
    assert analyse(question).medical_advice


@pytest.mark.parametrize(
    "question",
    [
        "Can I stop doctors accessing my record through the EHDS?",
        "Can I take a copy of my health record to a new hospital?",
        "We've asked the regulator for prior consultation. How long can they take to give us written advice?",
        "Can I take a private room on the group rider without it cutting my claim?",
        "Can I stop a hospital sharing my data for research?",
        "Can my GP share my vaccination record with my school?",
        "Is it OK for me to take a copy of my records to a new hospital?",
        "Can I lower the premium on my rider?",
        "Can I restart a claim the insurer closed?",
        "I have a copy of my record. Can I take it to my new GP?",
        "Would taking my records to a new GP be a good idea?",
        # time an organisation may take is no dose
        "A patient asked for everything we hold. We can't do it in a month. How much extra time can we take?",
    ],
)
def test_rights_over_records_and_policy_questions_are_not_medical_advice(question):
    assert not analyse(question).medical_advice


def test_scope_named_in_the_question():
    analysis = analyse("What does Article 46(2)(c) GDPR provide?")
    assert analysis.instrument == "gdpr" and analysis.provisions == ["46(2)(c)"]
    record = analyse("Any allergies recorded for NHS no. 999 414 9504 or pat-0045?")
    assert record.nhs_numbers == ["9994149504"] and record.patient_ids == ["pat-0045"] and record.domain == "records"
    assert analyse("Is cataract surgery covered on the group rider?").variant == "group"
    assert analyse("Is cataract surgery covered on the group rider?").domain == "insurance"
    # the cover named by whose it is: a company's rider is the group variant, one's own the individual
    assert analyse("Is a night's stay covered on my company's CareShield rider?").variant == "group"
    assert analyse("Is a night's stay covered on our employer's health plan?").variant == "group"
    assert analyse("Is a night's stay covered on my own CareShield rider?").variant == "individual"
    assert analyse("How long do I have to report a data breach?").domain is None
    # the law's roles and what is held about a person are data protection, asked about an insurer's claims too
    processor = "Our claims are handled by an outside administrator under a processor contract. Must they tell us?"
    assert analyse(processor).domain is None
    holds = "Does my insurer's claims team have to tell me what information about me it holds?"
    assert analyse(holds).domain is None
    # whom a claim is paid to is the settlement of claims, not what the wording covers
    assert not analyse("I paid the bill myself. Will the reimbursement be paid to me or to my daughter?").about_cover
    # a named instrument decides: insurance words in a question about the law do not make it a policy question
    ehds = "Can health data be used under the EHDS to make decisions like raising someone's insurance premium?"
    assert analyse(ehds).domain == "governance"
    assert analyse("Does the GDPR apply to my insurer's claims handling?").domain == "governance"
    # a question about a data standard is not about the records, though it speaks of "a patient with"
    assert analyse("How should a system handle a patient with no known allergies in UK Core?").domain is None
    assert analyse("I just joined my company's group scheme. When can I get my hernia fixed?").domain == "insurance"
    # how an insurer handles personal data is a question for the law, not for the wording
    automated = "A computer program decided my insurance claim with no human involved. Can I ask for a review?"
    assert analyse(automated).domain is None
    assert analyse("Can an insurer decide my claim entirely by algorithm with no human involved?").domain is None
    assert analyse("Does my insurer have to tell me what personal data it holds?").domain is None
    assert analyse("Can we bury the consent to share data with insurers in our terms?").domain is None
    assert analyse("Does my insurance cover a computer-guided knee operation?").domain == "insurance"
    # "is X covered?" with nothing else to place it asks about a policy; covered by a law or a duty does not
    assert analyse("Are cosmetic procedures covered?").domain == "insurance"
    assert analyse("Will they pay for my physiotherapy?").domain == "insurance"
    assert analyse("What does my policy exclude?").domain == "insurance"  # two weak cues: policy, exclude
    assert analyse("Are fitness trackers covered by the data sharing duties?").domain is None
    assert analyse("Is my research project covered by the exemption?").domain is None
    # a wording's own terms place a question without "policy" or "insurance" in it
    assert analyse("What is the survival period for the critical illness benefit?").domain == "insurance"
    assert analyse("How long do I have to submit claim documents after discharge?").domain == "insurance"
    assert analyse("What documents do I need to make a claim?").domain == "insurance"  # a policyholder's claim
    assert analyse("What documents do I need to claim?").domain == "insurance"
    assert analyse("Can I claim compensation for a data breach?").domain is None
    assert analyse("Our company is cancelling the group policy. Do members get anything back?").domain == "insurance"
    assert analyse("Does our privacy policy need a DPO contact?").domain is None
    assert analyse("What happens if I lie about my smoking on the proposal form?").domain == "insurance"
    assert analyse("Can the hospital process my data to defend a legal claim?").domain is None  # the law's
    assert analyse("Which exclusions apply to the right of access?").domain is None
    # what only the EHDS governs, named or not
    assert about_ehds("Can I see which doctors accessed my electronic health record?")
    assert about_ehds("Can I opt out of secondary use of my data?")
    assert not about_ehds("What security measures must we have for patient data?")
    # ... but not in the UK, where the EHDS does not apply, unless the question names it
    assert not about_ehds("How is a type 1 opt-out different from the national data opt-out?")
    assert not about_ehds("Can an NHS patient opt out of secondary use of their records?")
    assert about_ehds("Does the EHDS opt-out apply to NHS trusts?")
    # terse queries, as users type them into a search box
    assert analyse("EHDS priority categories").answer_type == "list"
    assert analyse("claim settlement time").domain == "insurance"
    assert analyse("pre existing disease waiting individual").domain == "insurance"
    assert analyse("pre existing disease waiting individual").answer_type == "deadline"
    # a terse question is read as if typed in full
    assert analyse("whats the free look period").answer_type == analyse("What is the free look period?").answer_type


@pytest.mark.parametrize(
    ("question", "across"),
    [
        ("Who has atrial fibrillation?", True),
        ("Which patients take warfarin?", True),
        ("Who is on metformin?", True),
        ("Any patients with asthma?", True),
        ("Who has been looking at my health record?", False),
        ("Who has access to my records?", False),
        ("What conditions does pat-0045 have?", False),
        ("Is Lucy Roberts on apixaban?", False),
        # a relative clause is not the question asked
        ("Our church keeps a list of members who are seriously ill. Can we give it to the hospice?", False),
        ("Can you tell me who is on warfarin?", True),
        ("We're running a nut-free clinic day. Which of our patients have a peanut allergy on record?", True),
    ],
)
def test_questions_asked_across_every_patients_record(question, across):
    assert analyse(question).across_patients is across


@pytest.mark.parametrize(
    ("question", "about_cover"),
    [
        ("Is laser eye surgery covered on the individual rider?", True),
        ("Does my rider give me a free dental check every year?", True),
        ("Do I get a no-claims bonus on the group rider?", True),
        ("Will the rider pay for IVF?", True),
        ("Can I cancel my rider and get a refund?", False),
        ("When do I get my claim settled?", False),
        ("What does the rider say about the grace period for premiums?", False),
        ("Gender reassignment surgery - does the group rider pay?", True),
        ("I was admitted just for tests. Can I claim?", True),
        ("When will the insurer pay my claim?", False),
        ("The insurer paid my claim two months late. Do I get interest?", False),
    ],
)
def test_questions_about_what_a_policy_covers(question, about_cover):
    assert analyse(question).about_cover is about_cover


def test_a_question_opening_with_an_auxiliary_is_yes_no_whatever_its_subject():
    assert analyse("Is laser eye surgery covered on the individual rider? My prescription is -4.").answer_type == (
        "yes_no"
    )
    assert analyse("Are dentures covered?").answer_type == "yes_no"


def test_grace_and_free_look_periods_are_insurance_words():
    assert analyse("What is the grace period?").domain == "insurance"
    assert analyse("How long is the free look period?").domain == "insurance"


def test_the_frame_of_a_question_is_not_what_it_asks_about():
    from language.question import content_terms

    assert content_terms("What happens to my data if the clinic closes?") == {"data", "clinic", "close"}


def test_an_insurance_frame_word_is_dropped_as_the_word_not_as_its_stem():
    from language.question import content_terms

    terms = content_terms("My plan covers a planned operation: how much notice do I give?")
    assert "plan" in terms  # "planned" says which case applies
    assert content_terms("Is it in my plan?") == set()  # the insurance plan says nothing of which clause answers


def test_a_sentence_in_the_law_s_terms_supports_the_plain_words_they_stand_for():
    from language.support import score_sentences

    question = "I moved house. Can I make my GP update my address?"
    law = "The data subject has the right to obtain the rectification of inaccurate personal data."
    rights = "The data subject has the right to lodge a complaint with a supervisory authority."
    scored = {s.text: s for s in score_sentences(question, [[law, rights]], None)}
    assert {"move", "hous", "updat", "address"} <= scored[law].terms  # said as "rectification of inaccurate ..."
    assert scored[law].score > 2 * scored[rights].score
    # half of "right of access copy of the personal data" is any sentence on data subjects' rights: not enough
    asked = "How long do we have to reply to a request for everything we hold on a patient?"
    breach = "The rights and freedoms of natural persons are protected when personal data are breached."
    assert not {"everyth", "hold"} & score_sentences(asked, [[breach]], None)[0].terms


def test_after_a_story_a_sentence_s_support_for_the_asking_sentence_alone_is_kept_apart():
    """ "... mixed up with someone else's notes. Do they have to fix it if I ask?": rectification answers the
    question asked though it says nothing of the story; its support for that sentence alone is kept beside the
    support for the whole question (which still ranks), and a question with no story has none."""
    from language.support import score_sentences

    law = "The data subject has the right to obtain the rectification of inaccurate personal data."
    story = (
        "My discharge letter lists a penicillin allergy I've never had - I think it got mixed up with someone else's "
        "notes. Do they have to fix it if I ask?"
    )
    scored = score_sentences(story, [[law]], None)[0]
    assert scored.alone > scored.score > 0
    assert score_sentences("Do they have to fix it if I ask?", [[law]], None)[0].alone == 0.0


@pytest.mark.parametrize(
    ("question", "domain"),
    [
        # "pay" twice and "covers": but a wording has clauses, not articles, and health data is the law's
        (
            "We keep staff fit notes so we can pay statutory sick pay. Which Article 9 condition covers us?",
            "governance",
        ),
        ("Our hospital pays for the cover of health data we keep on staff: is that allowed?", None),
        ("Does my policy pay for cataract surgery?", "insurance"),
    ],
)
def test_a_question_naming_an_article_or_health_data_is_not_about_a_policy_wording(question, domain):
    assert analyse(question).domain == domain


@pytest.mark.parametrize(
    ("question", "terms"),
    [
        ("What is the difference between a controller and a processor?", ("controller", "processor")),
        ("Anonymisation vs pseudonymisation?", ("Anonymisation", "pseudonymisation")),
        ("Is there a difference?", None),
    ],
)
def test_the_two_things_a_question_compares(question, terms):
    assert compared_terms(question) == terms


def test_how_much_of_a_record_to_share_is_not_an_amount_question():
    assert analyse("How much of the patient's history should I include in a referral?").answer_type != "amount"
    assert analyse("How much information should we share with the social worker?").answer_type != "amount"
    assert analyse("How much can the hospital charge for a copy?").answer_type == "amount"


def test_a_statement_asked_to_be_confirmed_is_a_yes_no_question():
    assert analyse("Surely we're too small to have to keep a record of processing activities?").answer_type == "yes_no"
    assert analyse("We can refuse a request that is plainly excessive, right?").answer_type == "yes_no"
    assert analyse("The group rider covers day care, doesn't it?").answer_type == "yes_no"
    assert analyse("We're too small for a DPO, so what do we have to do instead?").answer_type != "yes_no"


def test_when_a_duty_arises_is_a_condition_and_by_when_it_is_done_a_deadline():
    assert analyse("When must we appoint a DPO?").answer_type == "condition"
    assert analyse("When should we do a DPIA?").answer_type == "condition"
    assert analyse("When must we report a breach?").answer_type == "deadline"
    assert analyse("By when must we give the patient our privacy information?").answer_type == "deadline"
    assert analyse("data from a third party: when to inform patient").answer_type == "deadline"  # typed tersely
    # a minimum period is a duration, not a sum
    assert analyse("What is the minimum period we have to keep the access logs?").answer_type == "deadline"
    assert analyse("What is the minimum sum insured?").answer_type == "amount"
    assert analyse("What should be in a data processing contract?").answer_type == "list"


@pytest.mark.parametrize(
    ("question", "feature"),
    [
        ("Does the individual rider give a premium discount for non-smokers?", "premium discount"),
        ("I've had the rider for three years. What no-claim bonus have I built up?", "no-claim bonus"),
        ("Does the rider pay for a gym membership to help me stay healthy?", "gym membership"),
        ("Is there a room rent cap on the group rider?", "room rent"),  # the cap only measures the room rent
        ("Is there any extra time to pay my premium?", None),  # "extra" qualifies the time, it names nothing
        ("Do I get covered?", None),
        ("What do we have to give the regulator?", None),
        ("Is dental treatment covered by the individual rider?", "dental"),  # the treatment only says it is care
        ("Does the group rider cover treatment abroad?", "treatment abroad"),
        ("Is ambulance transport covered?", "ambulance"),
        ("Before my cover lapses, how long do I have?", None),  # "cover" the noun, not the verb
        ("I'm leaving my job. What happens to my group cover, and is there a way to keep it going?", None),
        ("Is there any chance the rider pays if I was drunk?", None),  # words that frame the question name nothing
        ("Is there a way to get a loyalty discount on the group rider?", "loyalty discount"),  # ... the thing after
        ("Will my rider pay my lawyer's fees for the case?", "lawyer's fees"),  # paid without "for"
        # a phrasal verb's particle is no part of the thing: the premium is what comes back
        ("If I cancel my rider halfway through the year, do I get any premium back?", "premium"),
    ],
)
def test_the_thing_a_policy_question_asks_for_by_name(question, feature):
    assert analyse(question).feature == feature


def test_a_name_given_with_more_words_inside_it_is_still_that_name():
    from language.question import names_in_order

    text = "registered under the clinical establishments (registration and regulation) act, 2010"
    assert names_in_order("Clinical Establishments Act", text)
    assert not names_in_order("Mental Health Act", "the mental capacity act 2005")
    assert not names_in_order("Clinical Establishments Act", "clinical staff in establishments that act")


def test_a_kind_of_record_naming_a_code_or_field_asks_for_one_value_not_a_list():
    assert analyse("Which Encounter class code should a video consultation get in UK Core?").answer_type != "list"
    assert analyse("Which medications is pat-0001 on?").answer_type == "list"


def test_whose_job_it_is_asks_who():
    assert analyse(
        "Under the EHDS, whose job is it to pseudonymise the data before researchers get it?"
    ).answer_type == ("who")


def test_two_questions_asked_in_one_are_split_each_after_the_scene():
    from language.analysis import part_clauses, question_parts

    scene = "We're a public health institute asking for EHDS data."
    assert question_parts(f"{scene} Is there a faster route, and how quickly must the access body decide?") == [
        f"{scene} Is there a faster route?",
        f"{scene} How quickly must the access body decide?",
    ]
    assert question_parts("Can I return the rider for a refund? Does the group version differ?") == [
        "Can I return the rider for a refund?",
        "Does the group version differ?",
    ]
    assert question_parts("Can I see and correct my records?") == []  # one question about two acts
    # each part on its own, without the scene, too: what tells one part's answer from the other's
    assert part_clauses(f"{scene} Is there a faster route, and how quickly must the access body decide?") == [
        "Is there a faster route?",
        "How quickly must the access body decide?",
    ]
    assert part_clauses("How long do I have to report a breach?") == []
    assert question_parts("How long do I have to report a breach?") == []
    # follow-ups after commas; a scene before a comma is not a question of its own
    assert question_parts(
        "once we've got the last document on a claim, how many days do we have to settle it, what if it needs"
        " investigating, and is there a penalty if we're late?"
    ) == [
        "Once we've got the last document on a claim, how many days do we have to settle it?",
        "What if it needs investigating?",
        "Is there a penalty if we're late?",
    ]
    assert question_parts("If I cancel, what happens to my premium?") == []
    assert question_parts("My hospital, which is public, can it share data?") == []  # a relative clause


def test_a_choice_among_what_the_asker_described_is_neither_a_list_nor_a_sum():
    question = "The insured had scans before admission and physio after discharge. Which of those costs can we pay?"
    assert analyse(question).answer_type == "explanation"
    assert analyse("What costs does the rider cap?").answer_type == "amount"


def test_paperwork_is_a_list_of_documents():
    assert analyse("What paperwork does a claim need under the individual rider?").list_of == "documents"


def test_a_text_about_the_contrary_kind_is_told_apart():
    from language.question import kinds_set_against, says_the_contrary_kind

    kinds = kinds_set_against("is the EHDS primary use opt-out reversible")
    assert says_the_contrary_kind(kinds, "Natural persons have the right to opt out ... for secondary use.")
    assert not says_the_contrary_kind(
        kinds, "... even if the patient has exercised the right to opt out in primary use"
    )
    assert not says_the_contrary_kind(kinds, "Both primary and secondary use are covered.")
    # a question naming both kinds (a comparison) sets neither aside
    assert not says_the_contrary_kind(kinds_set_against("primary versus secondary use?"), "For secondary use ...")
    outpatient = kinds_set_against("Is an out-patient scan covered?")
    assert says_the_contrary_kind(outpatient, "In-patient Hospitalisation expenses ...")


@pytest.mark.parametrize(
    ("question", "term"),
    [
        ("Does that even count as a personal data breach?", "personal data breach"),
        ("Is that profiling in GDPR terms?", "profiling"),
        ("Would he be covered as a Member?", "Member"),
        ("How long do we have?", ""),
    ],
)
def test_the_term_a_yes_no_question_asks_its_situation_to_fall_under(question, term):
    from language.analysis import classified_as

    assert classified_as(question) == term


def test_a_question_about_what_something_offers_is_about_cover_only_when_it_is_of_a_policy():
    marketing = "She objects to our emails. Do we have any room to keep sending her offers?"
    assert not analyse(marketing).about_cover  # its refusal is no "absent from the wording"
    assert analyse("Does the rider offer a gym membership?").about_cover
    assert analyse("Is a hearing aid covered?").about_cover


def test_which_condition_or_exemption_covers_a_case_asks_for_a_provision():
    question = (
        "I need his GP reports. Which GDPR special-category condition covers processing his health data for that?"
    )
    assert analyse(question).answer_type == "provision"
    assert analyse("Which conditions does pat-0001 have?").answer_type == "list"  # a patient's, not the law's
    assert analyse("Which conditions are covered by the rider?").answer_type == "list"


@pytest.mark.parametrize(
    ("question", "feature"),
    [
        ("What's the max room rent per day on the individual rider?", "room rent"),  # the bound is no part of it
        ("What is the maximum cataract limit?", "cataract"),
        ("What are the deadlines for submitting the claim documents?", None),  # a deadline is no benefit
        ("Does the rider give a no-claim bonus?", "no-claim bonus"),
    ],
)
def test_the_benefit_asked_for_is_named_without_its_bound(question, feature):
    from language.analysis import feature_asked

    assert feature_asked(question) == feature


def test_a_clause_before_a_dash_only_sets_the_scene():
    assert question_sentence("Our GP practice is tiny - do we really need a DPO?") == "do we really need a DPO?"
    assert question_sentence("Can I claim - and how much?") == "Can I claim - and how much?"  # no asking clause after
