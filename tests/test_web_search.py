"""Web search: Tavily through its real client against the local stand-in, DuckDuckGo replaced at its
client, the offline `secondary` fallback, provider order, timeouts, the failure cool-down, the TTL
cache, and the graph's web path. Nothing here touches the network, sleeps, or depends on timing
(a timeout is a reply that never comes; time itself is a fake clock).
"""

from __future__ import annotations

from datetime import datetime

import pytest

from core.types import Evidence
from generation.prompts import REFUSAL
from retrieval.web_search import (
    DuckDuckGoProvider,
    SecondaryProvider,
    TavilyProvider,
    WebSearch,
    make_web_search,
    normalise_query,
)
from tests.conftest import make_settings, run_graph, used_blocks

try:
    from ddgs.exceptions import DDGSException, RatelimitException, TimeoutException
except ImportError:  # ddgs not installed: its failures are plain exceptions to the chain

    class DDGSException(Exception):
        pass

    class RatelimitException(DDGSException):
        pass

    class TimeoutException(DDGSException):
        pass


TAVILY_KEY = "tvly-standin-key"

DPIA_RESULTS = [
    {
        "title": "When is a data protection impact assessment required?",
        "url": "https://example.org/guidance/dpia",
        "content": "A data protection impact assessment (DPIA) must be carried out before processing that is likely "
        "to result in a high risk to the rights and freedoms of natural persons, in particular large-scale "
        "processing of health data.",
        "score": 0.91,
    },
    {
        "title": "DPIA checklist",
        "url": "https://example.org/guidance/dpia-checklist",
        "content": "The controller shall carry out a data protection impact assessment prior to the processing and "
        "seek the advice of the data protection officer.",
        "score": 0.77,
    },
    {"title": "An empty page", "url": "https://example.org/empty", "content": "", "score": 0.5},
]

HIPAA_RESULTS = [
    {
        "title": "HIPAA Breach Notification Rule",
        "url": "https://example.org/hipaa/breach-notification",
        "content": "Under the HIPAA Breach Notification Rule, covered entities must notify affected individuals of a "
        "breach of unsecured protected health information without unreasonable delay and no later than "
        "60 calendar days after discovery of the breach.",
        "score": 0.88,
    },
    {
        "title": "HIPAA breach notification deadline explained",
        "url": "https://example.org/hipaa/deadline",
        "content": "The HIPAA breach notification deadline is 60 days from the discovery of a breach; breaches "
        "affecting 500 or more individuals must also be notified to the HHS Secretary within 60 days.",
        "score": 0.81,
    },
]

RESTRICTION_RESULTS = [
    {
        "title": "The right to restriction of processing",
        "url": "https://example.org/guidance/restriction",
        "content": "A patient can ask you to restrict processing of their personal data while they contest its "
        "accuracy; you must restrict processing for the period that enables you to verify the accuracy "
        "of the data.",
        "score": 0.9,
    },
]

COOKING_RESULTS = [
    {
        "title": "How to bake sourdough bread",
        "url": "https://example.org/recipes/sourdough",
        "content": "Mix flour, water and salt with an active starter, fold the dough every half hour, then bake "
        "in a hot oven until the crust is deep golden brown.",
        "score": 0.42,
    },
    {
        "title": "Perfect roast potatoes",
        "url": "https://example.org/recipes/potatoes",
        "content": "Parboil the potatoes for ten minutes, shake them to rough the edges, and roast in hot fat "
        "until crisp, turning once.",
        "score": 0.40,
    },
]

DDG_ROWS = [
    {
        "title": "DPIA guidance",
        "href": "https://example.net/dpia",
        "body": "A data protection impact assessment is required where processing is likely to result in a high risk.",
    },
    {"title": "No body", "href": "https://example.net/nothing", "body": ""},
    {
        "title": "",
        "href": "https://example.net/untitled",
        "body": "Health data processed on a large scale needs a data protection impact assessment.",
    },
]


class FakeClock:
    """A monotonic clock the test moves by hand."""

    def __init__(self, start: float = 1_000.0):
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class FakeDDGS:
    """Stands in for ddgs.DDGS at the provider's client boundary: scripted rows or a raised error."""

    def __init__(self, rows: list[dict] | None = None, error: Exception | None = None):
        self.rows = rows if rows is not None else []
        self.error = error
        self.timeouts: list[float] = []
        self.calls: list[tuple[str, int]] = []

    def factory(self, timeout: float) -> FakeDDGS:
        self.timeouts.append(timeout)
        return self

    def text(self, query: str, max_results: int | None = None) -> list[dict]:
        self.calls.append((query, max_results))
        if self.error is not None:
            raise self.error
        return self.rows


def ddg(rows: list[dict] | None = None, error: Exception | None = None) -> tuple[DuckDuckGoProvider, FakeDDGS]:
    fake = FakeDDGS(rows, error)
    return DuckDuckGoProvider(client_factory=fake.factory), fake


def statuses(result) -> list[tuple[str, str]]:
    return [(a["provider"], a["status"]) for a in result.attempts]


@pytest.fixture
def make_web():
    """WebSearch chains built for a test and closed afterwards."""
    made: list[WebSearch] = []

    def build(providers, timeout_s=10.0, cache_ttl_s=3600.0, cooldown_s=60.0, clock=None, cache_max_entries=1000):
        options = {"clock": clock} if clock else {}
        web = WebSearch(providers, timeout_s, cache_ttl_s, cooldown_s, cache_max_entries=cache_max_entries, **options)
        made.append(web)
        return web

    yield build
    for web in made:
        web.close()


@pytest.fixture
def tavily(standin) -> TavilyProvider:
    """Tavily's real client, pointed at the local stand-in."""
    return TavilyProvider(TAVILY_KEY, base_url=standin.url)


def secondary_provider(shipped) -> SecondaryProvider:
    return SecondaryProvider(lambda query, k: shipped.retriever.retrieve(query, {"collection": "secondary"}, k))


# --- providers -------------------------------------------------------------------------------------


def test_tavily_results_become_web_evidence_and_the_request_carries_the_expanded_query(standin, tavily, make_web):
    standin.set_script(search=[{"results": DPIA_RESULTS}])
    web = make_web([tavily])
    result = web.search("When do we need a DPIA?", max_results=3)

    assert result.provider == "tavily"
    assert result.attempts == [{"provider": "tavily", "status": "ok", "detail": "2 results"}]
    assert len(result.evidence) == 2  # the result without content is dropped
    first = result.evidence[0]
    assert first.origin == "web"
    assert first.url == "https://example.org/guidance/dpia"
    assert first.citation == first.document == "When is a data protection impact assessment required?"
    assert first.text.startswith("A data protection impact assessment (DPIA) must be carried out")
    assert first.hierarchy_rank == 4
    assert first.metadata["provider"] == "tavily" and first.publisher == "tavily"
    assert first.scores.fused == pytest.approx(0.91)
    retrieved = datetime.fromisoformat(first.retrieved_at)
    assert retrieved.tzinfo is not None
    assert first.chunk_id.startswith("web-") and first.chunk_id != result.evidence[1].chunk_id

    sent = standin.requests("search")
    assert len(sent) == 1
    request = sent[0]["request"]
    assert sent[0]["path"] == "/search" and sent[0]["authorization"]
    assert request["query"] == result.query
    assert request["query"].startswith("When do we need a DPIA?")  # the user's words stay first
    assert "data protection impact assessment" in request["query"]  # jargon expanded
    assert request["max_results"] == 3


def test_duckduckgo_rows_become_web_evidence(make_web):
    provider, fake = ddg(DDG_ROWS)
    web = make_web([provider], timeout_s=3.0)
    result = web.search("Is a DPIA needed for our new EPR?", max_results=4)

    assert result.provider == "duckduckgo"
    assert statuses(result) == [("duckduckgo", "ok")]
    assert [e.url for e in result.evidence] == ["https://example.net/dpia", "https://example.net/untitled"]
    assert all(
        e.origin == "web" and e.hierarchy_rank == 4 and e.metadata["provider"] == "duckduckgo" for e in result.evidence
    )
    assert all(datetime.fromisoformat(e.retrieved_at) for e in result.evidence)
    assert result.evidence[1].citation == "https://example.net/untitled"  # no title: the URL names it
    ((query, max_results),) = fake.calls
    assert query == result.query
    assert "data protection impact assessment" in query and "electronic health record" in query
    assert max_results == 4
    assert fake.timeouts == [3.0]


@pytest.mark.parametrize("error", [RatelimitException("202 Ratelimit"), DDGSException("no results backend")])
def test_a_duckduckgo_error_is_recorded_and_the_next_provider_answers(error, make_web, shipped):
    provider, _ = ddg(error=error)
    web = make_web([provider, secondary_provider(shipped)])
    result = web.search("What should a DPIA for health data cover?")

    assert statuses(result) == [("duckduckgo", "failed"), ("secondary", "ok")]
    assert result.attempts[0]["detail"] == type(error).__name__
    assert result.provider == "secondary"


# --- order and fallback ----------------------------------------------------------------------------


def test_tavily_http_500_falls_back_to_duckduckgo(standin, tavily, make_web):
    standin.set_script(search=[{"status": 500}])
    provider, fake = ddg(DDG_ROWS)
    web = make_web([tavily, provider])
    result = web.search("When do we need a DPIA?")

    assert statuses(result) == [("tavily", "failed"), ("duckduckgo", "ok")]
    assert "HTTP 500" in result.attempts[0]["detail"]
    assert result.provider == "duckduckgo"
    assert {e.metadata["provider"] for e in result.evidence} == {"duckduckgo"}
    assert len(standin.requests("search")) == 1 and len(fake.calls) == 1


def test_a_tavily_reply_that_never_comes_is_a_timeout_and_the_next_provider_answers(standin, tavily, make_web):
    standin.set_script(search=[{"hang": True}])
    provider, _ = ddg(DDG_ROWS)
    web = make_web([tavily, provider], timeout_s=0.5)
    result = web.search("When do we need a DPIA?")

    assert statuses(result) == [("tavily", "timeout"), ("duckduckgo", "ok")]
    assert "0.5s" in result.attempts[0]["detail"]
    assert result.provider == "duckduckgo" and result.evidence


def test_a_timeout_raised_by_the_client_itself_is_recorded_as_a_timeout(make_web, shipped):
    provider, _ = ddg(error=TimeoutException("DDGS read timed out"))
    web = make_web([provider, secondary_provider(shipped)], timeout_s=2.0)
    result = web.search("What should a DPIA for health data cover?")

    assert statuses(result) == [("duckduckgo", "timeout"), ("secondary", "ok")]


def test_all_remote_providers_failing_falls_back_to_the_offline_secondary_collection(
    standin, tavily, make_web, shipped
):
    standin.set_script(search=[{"status": 500}])
    provider, _ = ddg(error=RatelimitException("202 Ratelimit"))
    web = make_web([tavily, provider, secondary_provider(shipped)])
    result = web.search("When is a DPIA needed for processing health data?")

    assert statuses(result) == [("tavily", "failed"), ("duckduckgo", "failed"), ("secondary", "ok")]
    assert result.provider == "secondary"
    assert result.evidence
    assert all(e.origin == "secondary" and e.collection == "secondary" for e in result.evidence)
    assert all(e.hierarchy_rank == 4 and datetime.fromisoformat(e.retrieved_at) for e in result.evidence)
    assert any("impact assessment" in e.text.lower() for e in result.evidence)


def test_empty_results_move_on_to_the_next_provider_without_resting_the_empty_one(standin, tavily, make_web):
    standin.set_script(search=[{"results": []}])
    provider, _ = ddg(DDG_ROWS)
    clock = FakeClock()
    web = make_web([tavily, provider], clock=clock)

    first = web.search("When do we need a DPIA?")
    assert statuses(first) == [("tavily", "empty"), ("duckduckgo", "ok")]
    second = web.search("Who must appoint a DPO?")
    assert statuses(second) == [("tavily", "empty"), ("duckduckgo", "ok")]  # asked again: empty is no failure
    assert len(standin.requests("search")) == 2


def test_nothing_found_anywhere_gives_no_provider_and_every_attempt(make_web):
    empty, _ = ddg([])
    web = make_web([empty])
    result = web.search("When do we need a DPIA?")
    assert result.evidence == [] and result.provider is None
    assert statuses(result) == [("duckduckgo", "empty")]


# --- cool-down and cache ---------------------------------------------------------------------------


def test_a_failed_provider_rests_for_the_cool_down_then_is_tried_again(standin, tavily, make_web):
    standin.set_script(search=[{"status": 500}, {"results": DPIA_RESULTS}])
    provider, fake = ddg(DDG_ROWS)
    clock = FakeClock()
    web = make_web([tavily, provider], cooldown_s=60.0, clock=clock)

    assert statuses(web.search("When do we need a DPIA?")) == [("tavily", "failed"), ("duckduckgo", "ok")]

    clock.advance(59)
    resting = web.search("Who must appoint a DPO?")
    assert statuses(resting) == [("tavily", "skipped"), ("duckduckgo", "ok")]
    assert "resting" in resting.attempts[0]["detail"]
    assert len(standin.requests("search")) == 1  # Tavily was not asked

    clock.advance(2)  # the cool-down is over
    again = web.search("What goes into a record of processing activities?")
    assert statuses(again) == [("tavily", "ok")]
    assert again.provider == "tavily"
    assert len(standin.requests("search")) == 2
    assert len(fake.calls) == 2


def test_a_timed_out_provider_also_rests(standin, tavily, make_web):
    standin.set_script(search=[{"hang": True}])
    provider, _ = ddg(DDG_ROWS)
    clock = FakeClock()
    web = make_web([tavily, provider], timeout_s=0.5, cooldown_s=60.0, clock=clock)

    assert statuses(web.search("When do we need a DPIA?"))[0] == ("tavily", "timeout")
    clock.advance(10)
    assert statuses(web.search("Who must appoint a DPO?")) == [("tavily", "skipped"), ("duckduckgo", "ok")]
    assert len(standin.requests("search")) == 1


def test_the_same_question_is_served_from_the_cache_until_the_ttl_passes(standin, tavily, make_web):
    standin.set_script(search=[{"results": DPIA_RESULTS}])
    clock = FakeClock()
    web = make_web([tavily], cache_ttl_s=600.0, clock=clock)

    first = web.search("When do we need a DPIA?")
    assert statuses(first) == [("tavily", "ok")]

    clock.advance(599)
    for variant in ("When do we need a DPIA?", "  when DO we need a   dpia  ", "WHEN do we need a DPIA"):
        cached = web.search(variant)
        assert statuses(cached) == [("tavily", "cached")], variant
        assert cached.provider == "tavily"
        assert [e.chunk_id for e in cached.evidence] == [e.chunk_id for e in first.evidence]
    assert len(standin.requests("search")) == 1  # the stand-in never saw a second request

    clock.advance(2)  # past the TTL
    fresh = web.search("When do we need a DPIA?")
    assert statuses(fresh) == [("tavily", "ok")]
    assert len(standin.requests("search")) == 2


def test_the_cache_is_kept_per_tenant(standin, tavily, make_web):
    standin.set_script(search=[{"results": DPIA_RESULTS}])
    web = make_web([tavily])
    assert statuses(web.search("When do we need a DPIA?", tenant="acme")) == [("tavily", "ok")]
    assert statuses(web.search("When do we need a DPIA?", tenant="globex")) == [("tavily", "ok")]  # not "cached"
    assert statuses(web.search("When do we need a DPIA?", tenant="acme")) == [("tavily", "cached")]
    assert len(standin.requests("search")) == 2


def test_the_offline_fallback_follows_the_published_index_and_is_never_cached(make_web):
    texts = iter(["The fence is painted blue.", "The fence is painted green."])

    def search(query: str, k: int) -> list[Evidence]:
        return [Evidence(chunk_id="c1", text=next(texts), citation="Notice 1", document="Notice")]

    web = make_web([SecondaryProvider(search)])
    assert web.search("What colour is the fence?").evidence[0].text.endswith("blue.")
    again = web.search("What colour is the fence?")  # the collection was re-ingested meanwhile
    assert statuses(again) == [("secondary", "ok")] and again.evidence[0].text.endswith("green.")


def test_the_cache_is_bounded_and_drops_the_least_recently_used_query(make_web):
    provider, fake = ddg(rows=DDG_ROWS)
    web = make_web([provider], cache_max_entries=2)
    questions = ["When do we need a DPIA?", "Who must appoint a DPO?", "What is pseudonymisation?"]
    for question in questions[:2]:
        web.search(question)
    assert statuses(web.search(questions[0]))[0][1] == "cached"  # the first is now the most recently used
    web.search(questions[2])  # a third query: the second (least recently used) goes
    assert statuses(web.search(questions[0]))[0][1] == "cached"
    assert statuses(web.search(questions[1]))[0][1] == "ok"  # searched again
    assert len(fake.calls) == 4


def test_failed_searches_are_not_cached(make_web):
    provider, fake = ddg(error=RatelimitException("202 Ratelimit"))
    clock = FakeClock()
    web = make_web([provider], cooldown_s=0.0, clock=clock)
    assert statuses(web.search("When do we need a DPIA?")) == [("duckduckgo", "failed")]
    fake.error, fake.rows = None, DDG_ROWS
    assert statuses(web.search("When do we need a DPIA?")) == [("duckduckgo", "ok")]


def test_cache_keys_ignore_case_spacing_and_punctuation():
    assert normalise_query("  When do we need a DPIA? ") == normalise_query("when do WE need a dpia")
    assert normalise_query("Art. 35 (1)") == "art 35 (1)"


# --- through the graph -----------------------------------------------------------------------------


def visited(output) -> list[str]:
    return output.nodes()


@pytest.fixture
def tavily_services(standin, tavily, make_services, make_web):
    """Services whose web chain is Tavily (through the stand-in) alone."""
    return make_services(web=make_web([tavily], timeout_s=10.0))


def test_incorrect_route_answers_from_relevant_web_evidence_only(standin, tavily_services):
    standin.set_script(search=[{"results": HIPAA_RESULTS}])
    out = run_graph("What is the HIPAA breach notification deadline?", tavily_services, generator="offline")

    assert out.initial_route == "INCORRECT"
    assert "refine" not in visited(out)
    assert out.web_provider == "tavily"
    assert [a.model_dump() for a in out.web_attempts] == [{"provider": "tavily", "status": "ok", "detail": "2 results"}]
    assert used_blocks(out) and all(block.origin == "web" for block in used_blocks(out))  # local evidence discarded
    assert {block.url for block in used_blocks(out)} <= {r["url"] for r in HIPAA_RESULTS}
    assert out.status == "answered" and "60" in out.answer
    assert out.citations and all(
        c.origin == "web" and c.url.startswith("https://example.org/hipaa/") for c in out.citations
    )
    assert len(standin.requests("search")) == 1
    assert standin.requests("chat") == []


def test_ambiguous_route_passes_refined_local_and_web_evidence(standin, tavily_services):
    standin.set_script(search=[{"results": RESTRICTION_RESULTS}])
    out = run_graph(
        "Can a patient ask us to restrict processing while they dispute accuracy?",
        tavily_services,
        correct_threshold=0.95,
        incorrect_threshold=0.3,
        generator="offline",
    )

    assert out.initial_route == "AMBIGUOUS", out.trace
    assert visited(out)[:5] == ["retrieve", "grade", "refine", "web_search", "generate"]
    assert out.web_provider == "tavily"
    origins = {block.origin for block in used_blocks(out)}
    assert origins == {"local", "web"}
    assert all(block.highlights for block in used_blocks(out) if block.origin == "local")  # refined local evidence
    assert out.status == "answered"


def test_irrelevant_web_results_are_graded_out_and_the_answer_is_the_refusal_without_a_model(standin, tavily_services):
    standin.set_script(search=[{"results": COOKING_RESULTS}])
    out = run_graph("What is the HIPAA breach notification deadline?", tavily_services)

    assert out.initial_route == "INCORRECT"
    assert out.web_attempts[0].model_dump() == {"provider": "tavily", "status": "ok", "detail": "2 results"}
    assert "web_search: tavily ok; 0 relevant results kept" in out.trace
    assert used_blocks(out) == []
    assert out.status == "refused" and out.answer == REFUSAL
    assert out.generator == "none"  # no model was called
    assert standin.requests("chat") == []
    assert len(standin.requests("search")) == 1  # the requery does not search the web a second time


def test_web_search_disabled_per_run_is_skipped_and_says_why(standin, tavily_services):
    standin.set_script(search=[{"results": HIPAA_RESULTS}])
    out = run_graph("What is the HIPAA breach notification deadline?", tavily_services, allow_web=False)

    assert [a.model_dump() for a in out.web_attempts] == [
        {"provider": "none", "status": "skipped", "detail": "web search disabled for this run"}
    ]
    assert "web_search: disabled for this run" in out.trace
    assert out.web_provider is None
    assert all(block.origin != "web" for block in used_blocks(out))
    assert out.status == "refused"
    assert standin.requests("search") == []


# --- construction from settings --------------------------------------------------------------------


def _secondary(query: str, k: int) -> list[Evidence]:
    return [
        Evidence(
            chunk_id="c1",
            text="Commentary on DPIAs.",
            citation="Commentary",
            document="Commentary",
            collection="secondary",
            hierarchy_rank=3,
        )
    ][:k]


def test_make_web_search_builds_tavily_only_with_a_key_and_in_the_configured_order(tmp_path, models_dir):
    settings = make_settings(
        tmp_path / "data",
        models_dir,
        tavily_api_key=TAVILY_KEY,
        tavily_base_url="http://127.0.0.1:9",
        web_providers=["duckduckgo", "tavily", "secondary"],
        web_timeout_s=1.5,
        web_cache_ttl_s=120.0,
        web_failure_cooldown_s=30.0,
    )
    web = make_web_search(settings, _secondary)
    try:
        assert [p.name for p in web.providers] == ["duckduckgo", "tavily", "secondary"]
        assert isinstance(web.providers[0], DuckDuckGoProvider)
        tavily = web.providers[1]
        assert isinstance(tavily, TavilyProvider)
        assert tavily.client.base_url == "http://127.0.0.1:9" and tavily.client.api_key == TAVILY_KEY
        assert (web.timeout_s, web.cache_ttl_s, web.cooldown_s) == (1.5, 120.0, 30.0)
        found = web.providers[2].search("DPIA", 1, 1.0)  # the secondary provider searches what it was given
        assert [(e.chunk_id, e.origin, e.hierarchy_rank) for e in found] == [("c1", "secondary", 4)]
        assert found[0].retrieved_at
    finally:
        web.close()

    keyless = make_settings(
        tmp_path / "data", models_dir, tavily_api_key=None, web_providers=["tavily", "duckduckgo", "secondary"]
    )
    web = make_web_search(keyless, _secondary)
    try:
        assert [p.name for p in web.providers] == ["duckduckgo", "secondary"]
    finally:
        web.close()

    tavily_first = make_settings(
        tmp_path / "data", models_dir, tavily_api_key=TAVILY_KEY, web_providers=["tavily", "secondary"]
    )
    web = make_web_search(tavily_first, _secondary)
    try:
        assert [p.name for p in web.providers] == ["tavily", "secondary"]
        assert web.providers[0].client.base_url == "https://api.tavily.com"  # no override: Tavily's own address
    finally:
        web.close()


def test_services_build_the_web_chain_from_settings(make_services):
    services = make_services(web_providers=["secondary"], tavily_api_key=None)
    assert [p.name for p in services.web.providers] == ["secondary"]
