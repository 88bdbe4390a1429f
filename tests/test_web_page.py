"""The web page as a person uses it: the real server as its own process, headless Chromium driven by Playwright,
at a desktop size (1366x900) and a phone size (390x844).

Skipped cleanly where Debian's Chromium (/usr/bin/chromium) or the `playwright` package is missing. Playwright
never downloads a browser here: it drives the system Chromium through `executable_path`. The accessibility scan
runs axe-core (the copy `axe-playwright-python` ships) inside the page.
"""

from __future__ import annotations

import os
import re
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from evals.service_process import free_port, start, stop

pytestmark = [pytest.mark.browser, pytest.mark.subprocess]

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
axe_playwright = pytest.importorskip("axe_playwright_python.sync_playwright", reason="axe-playwright-python is missing")
expect = sync_api.expect

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-quic",
    "--disable-sync",
]
SIZES = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}
START_TIMEOUT_S = 180  # the server loads the index before it listens
ANSWER_TIMEOUT_MS = 240_000  # the first question also loads the models in the server
UI_TIMEOUT_MS = 15_000
BREACH = "How long does a controller have to notify a personal data breach?"
CHAT_KEY = "gsk_page_standin_key_0123456789"
CHAT_ANSWER = (
    "The controller must notify the supervisory authority within 72 hours of becoming aware of the breach [Source 1]."
)
# Network failures the page is made to meet on purpose: Chromium logs them to the console.
EXPECTED_CONSOLE = re.compile(r"Failed to load resource|net::ERR_FAILED")


def serve(shipped, extra_env: dict[str, str] | None = None, args: tuple[str, ...] = ()):
    """`policyrag serve` on a free loopback port over the shipped index (no semantic cache, so every question runs
    the graph, and a quota no test run can spend); returns (process, base URL)."""
    port = free_port()
    env = {
        **os.environ,
        "POLICYRAG_DATA_DIR": str(shipped.settings.data_dir),
        "POLICYRAG_MODELS_DIR": str(shipped.settings.models_dir),
        "POLICYRAG_WEB_PROVIDERS": '["secondary"]',
        "POLICYRAG_CACHE_MAX_ENTRIES": "0",
        "POLICYRAG_ANONYMOUS_CREDIT_CAPACITY": "100000",
        "POLICYRAG_ANONYMOUS_RATE_PER_MINUTE": "100000",
        "HF_HUB_OFFLINE": "1",
        **(extra_env or {}),
    }
    process, log = start(["serve", "--host", "127.0.0.1", "--port", str(port), *args], env, START_TIMEOUT_S)
    assert process.poll() is None, "the server did not start:\n" + "".join(log[-40:])
    return process, f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def server(shipped):
    process, base = serve(shipped)
    try:
        health = httpx.get(f"{base}/health", timeout=30)
        assert health.status_code == 200 and health.json()["status"] == "ok", health.text
        yield base
    finally:
        stop(process)


@pytest.fixture(scope="module")
def chat_server(shipped, tmp_path_factory):
    """The server with Groq's chat model pointed at the local stand-in, which answers CHAT_ANSWER."""
    from tests.standins.fixture import start_standin

    standin = start_standin(tmp_path_factory.mktemp("standin"))
    standin.set_script(chat=[{"text": CHAT_ANSWER}])
    process = None
    try:
        process, base = serve(
            shipped,
            {
                "POLICYRAG_GROQ_API_KEY": CHAT_KEY,
                "POLICYRAG_GROQ_BASE_URL": standin.url,
                "POLICYRAG_LLM_TIMEOUT_S": "30",
            },
        )
        assert httpx.get(f"{base}/health", timeout=30).json()["generator"].startswith("groq")
        yield base, standin
    finally:
        if process is not None:
            stop(process)
        standin.stop()


@pytest.fixture(scope="module")
def key_server(shipped):
    """The server with anonymous reads off, and a read key made for it."""
    from db.keys import KeyStore

    keys = KeyStore(shipped.settings.keys_path)
    plain, key = keys.create("web-page-test", ["read"])
    process, base = serve(shipped, args=("--no-anonymous",))
    try:
        yield base, plain
    finally:
        stop(process)
        keys.revoke(key.key_id)
        keys.close()


@pytest.fixture(scope="module")
def driver():
    with sync_api.sync_playwright() as driver:
        yield driver


class Watched:
    """A page with its console errors, page errors and every request URL recorded."""

    def __init__(self, context, base: str, size: str):
        self.base = base
        self.size = size
        self.errors: list[str] = []
        self.requests: list[str] = []
        context.on("request", lambda request: self.requests.append(request.url))
        self.page = context.new_page()
        self.page.set_default_timeout(UI_TIMEOUT_MS)
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))

    def _console(self, message) -> None:
        if message.type == "error":
            self.errors.append(f"console: {message.text} ({message.location.get('url', '')})")

    def outside(self) -> list[str]:
        return [
            url for url in self.requests if not (url.startswith(self.base + "/") or url.startswith(("data:", "about:")))
        ]

    def asked(self) -> int:
        return sum(url.endswith("/query/stream") for url in self.requests)

    def forgive_network_errors(self) -> None:
        """The failures a test caused on purpose are not the page's errors."""
        self.errors[:] = [e for e in self.errors if not EXPECTED_CONSOLE.search(e)]


@contextmanager
def opened(driver, base: str, folder: Path, size: str):
    """A fresh headless Chromium (its own profile) on the page at one size; checks console and network after."""
    context = driver.chromium.launch_persistent_context(
        str(folder / f"chromium-{size}"),
        executable_path=str(CHROMIUM),
        headless=True,
        args=CHROMIUM_ARGS,
        viewport=SIZES[size],
    )
    try:
        watched = Watched(context, base, size)
        watched.page.goto(base + "/")
        watched.page.wait_for_function("() => document.querySelectorAll('#collection option').length > 1")
        yield watched
        assert not watched.errors, watched.errors
        assert not watched.outside(), f"requests left {base}: {watched.outside()}"
    finally:
        context.close()


@pytest.fixture(params=list(SIZES))
def browser_page(request, driver, server, tmp_path):
    with opened(driver, server, tmp_path, request.param) as watched:
        yield watched


# --- helpers ----------------------------------------------------------------------------------------------------

WATCH_WAITING = """() => {
  // What the page showed while it waited: each progress sentence, the placeholder, a partly written answer.
  window.seen = { progress: [], placeholder: false, partial: false };
  // Progress sentences and partial answers are read from the mutation records (the nodes each change added), not
  // from the page when the observer runs: steps that arrive in one network read and are replaced before the
  // observer's turn are still recorded, so what is seen does not depend on timing.
  const progress = new Set(["progress", "compare-progress"]);
  const note = (records) => {
    for (const r of records) {
      if (r.type !== "childList") continue;
      for (const added of r.addedNodes) {
        const text = added.textContent;
        if (progress.has(r.target.id) && text && !window.seen.progress.includes(text)) window.seen.progress.push(text);
        const partial = added.classList && added.classList.contains("partial");
        if (r.target.id === "answer" && partial) window.seen.partial = true;
      }
    }
    // The placeholder is shown in the same task as the click that asks, before any reply can arrive.
    const visible = (id) => { const e = document.getElementById(id); return !e.hidden && e.offsetParent !== null; };
    if (visible("placeholder") || visible("compare-placeholder")) window.seen.placeholder = true;
  };
  new MutationObserver(note).observe(document.body, { subtree: true, childList: true, attributes: true });
}"""

READY = (
    "() => document.getElementById('announcer').textContent !== '' && !document.getElementById('ask-button').disabled"
)


def ask(page, question: str, expect_answer: bool = True) -> None:
    """Type a question, press Enter, and wait (bounded) until the page announces the result."""
    page.fill("#question", question)
    page.press("#question", "Enter")
    page.wait_for_function(READY, timeout=ANSWER_TIMEOUT_MS)
    if expect_answer:
        assert page.inner_text("#error-banner") == ""


def box(page, selector: str) -> dict:
    found = page.locator(selector).bounding_box()
    assert found is not None, f"{selector} is not visible"
    return found


def overlaps(a: dict, b: dict) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and (b["y"] < a["y"] + a["height"])
    )


def prose(page, selector: str) -> str:
    """The text of an element without its citation numbers."""
    return page.locator(selector).evaluate(
        "e => { const c = e.cloneNode(true); c.querySelectorAll('sup').forEach(s => s.remove());"
        " return c.textContent; }"
    )


def active(page, expression: str = "e => e.id"):
    return page.evaluate(f"() => ({expression})(document.activeElement)")


def no_horizontal_scroll(page) -> None:
    width = page.evaluate("() => window.innerWidth")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    widest = page.evaluate(
        "() => Math.max(...[...document.querySelectorAll('body *')].filter(e => e.offsetParent !== null)"
        ".map(e => e.getBoundingClientRect().right))"
    )
    assert widest <= width + 0.5, f"something reaches {widest} px in a {width} px window"


def compare_ready(page) -> None:
    page.click("#tab-compare")
    page.wait_for_function("() => document.querySelectorAll('#doc-a option').length > 1")


def run_compare(page, question: str = "What is the cataract limit?") -> None:
    page.fill("#compare-question", question)
    page.click("#compare-button")
    page.wait_for_selector("#compare-result:not([hidden])", timeout=ANSWER_TIMEOUT_MS)
    assert page.inner_text("#error-banner") == ""


# --- asking -----------------------------------------------------------------------------------------------------


def test_answer_comes_first_with_numbered_sources_in_plain_words(browser_page, server):
    watched = browser_page
    page = watched.page
    titles = [c["title"] for c in httpx.get(f"{server}/collections", timeout=30).json()["collections"]]
    assert page.locator("#collection option").all_inner_texts() == ["All the documents", *titles]
    assert "GDPR, EHDS, NHS guidance and FHIR UK Core" in titles
    assert "GDPR" in page.inner_text(".scope") and "not legal or medical advice" in page.inner_text(".scope")
    page.click("#settings summary")
    expect(page.locator("#allow-web")).to_be_visible()
    expect(page.locator("#api-key")).to_be_hidden()  # this server needs no key

    examples = page.locator(".example")
    assert 4 <= examples.count() <= 6
    examples.first.click()
    assert page.input_value("#question") == examples.first.inner_text() and active(page) == "question"
    assert watched.asked() == 0  # an example fills the box; it does not ask

    page.evaluate(WATCH_WAITING)
    page.press("#question", "Enter")
    page.wait_for_function(READY, timeout=ANSWER_TIMEOUT_MS)
    seen = page.evaluate("() => window.seen")
    assert seen["progress"][:3] == ["Searching all the documents…", "Checking the evidence…", "Writing the answer…"]
    assert seen["placeholder"] and seen["partial"], seen

    lead = page.inner_text("#answer p.lead")
    assert "72 hours" in lead and "[Source" not in page.inner_text("#answer")
    cites = page.locator("#answer sup button.cite")
    assert cites.count() >= 1 and cites.first.inner_text() == "1"
    assert cites.first.get_attribute("aria-label").startswith("Source 1: GDPR Art. 33")
    first_source = page.locator("#sources li").first
    assert first_source.locator(".source-link").inner_text().startswith("GDPR Art. 33")
    assert first_source.locator(".tag").inner_text() == "Law"
    assert page.inner_text("#announcer").startswith("Answer ready. In the case of a personal data breach")

    answer_box, sources_box = box(page, ".answer-col"), box(page, "#sources-col")
    if watched.size == "desktop":  # beside the answer
        assert sources_box["x"] >= answer_box["x"] + answer_box["width"] and sources_box["y"] < answer_box["y"] + 50
    else:  # below it
        assert sources_box["y"] >= answer_box["y"] + answer_box["height"]

    shown = page.inner_text("#result")
    for developer_word in ("CORRECT", "offline-extractive", "route", "confidence", "chunks"):
        assert developer_word not in shown, developer_word
    # confidence once, in words: the grade the service gives the same question (high only when the answer
    # confidence passes the fitted gate)
    question = page.input_value("#question")
    grade = httpx.post(f"{server}/query", json={"question": question}, timeout=60).json()["trust_grade"]["grade"]
    words = {"high": "Strong support", "medium": "Some support", "low": "Weak support"}[grade]
    assert shown.count("support") == 1 and words in shown, (grade, shown)
    page.click("#how summary")
    made = page.inner_text("#how")
    assert "route CORRECT" in made and "offline-extractive" in made and "retrieve:" in made
    assert re.search(r"Answer score\s*[01]\.\d\d of 1", made)  # how far to trust the answer, beside the grade
    no_horizontal_scroll(page)


def test_a_list_in_the_answer_is_shown_as_a_list(browser_page):
    page = browser_page.page
    ask(page, "What must a personal data breach notification contain?")
    items = page.locator("#answer ul li").all_inner_texts()
    assert len(items) >= 4 and items[0].startswith("(a) describe the nature") and items[1].startswith("(b)")
    assert page.inner_text("#answer p.lead").endswith("must:")


def test_citation_preview_and_the_clause_drawer(browser_page):
    watched = browser_page
    page = watched.page
    ask(page, BREACH)
    cite = page.locator("#answer .cite").first

    cite.hover()
    expect(page.locator("#preview")).to_be_visible()
    assert page.inner_text("#preview").startswith("GDPR Art. 33(1) · Law")
    assert "72 hours" in page.inner_text("#preview") and cite.get_attribute("aria-describedby") == "preview"
    page.hover("#answer-heading")
    expect(page.locator("#preview")).to_be_hidden()
    cite.focus()
    expect(page.locator("#preview")).to_be_visible()
    page.keyboard.press("Escape")  # dismisses the preview, opens nothing
    expect(page.locator("#preview")).to_be_hidden()
    expect(page.locator("#clause")).to_be_hidden()

    page.keyboard.press("Enter")
    expect(page.locator("#clause")).to_be_visible()
    assert page.evaluate("() => document.getElementById('clause').contains(document.activeElement)")
    assert page.inner_text("#clause-title") == "GDPR Art. 33(1)"
    quoted = page.locator("#clause-text mark.quoted").all_inner_texts()
    answer = page.inner_text("#answer")
    assert quoted and all(q.strip().removeprefix("1. ")[:-1] in answer for q in quoted)
    assert page.inner_text("#clause-provenance").count("EUR-Lex") == 1
    assert page.is_visible("#legend-quoted")  # the legend names only the kinds of mark shown
    assert page.is_visible("#legend-related") == (page.locator("#clause-text mark.related").count() > 0)
    if watched.size == "desktop":  # beside the answer, not over it
        assert not overlaps(box(page, "#clause"), box(page, ".answer-col"))

    page.keyboard.press("Escape")
    expect(page.locator("#clause")).to_be_hidden()
    assert active(page, "e => e.classList.contains('cite')") and page.locator("#preview").is_hidden()

    cite.click()
    expect(page.locator("#clause")).to_be_visible()
    page.click("#close-clause")
    expect(page.locator("#clause")).to_be_hidden()
    assert active(page, "e => e.classList.contains('cite')")

    page.locator("#sources .source-link").first.click()
    expect(page.locator("#clause")).to_be_visible()
    page.fill("#question", "What is a personal data breach?")
    page.press("#question", "Enter")
    expect(page.locator("#clause")).to_be_hidden()  # a new question closes the old answer's clause
    page.wait_for_function(READY, timeout=ANSWER_TIMEOUT_MS)


def test_the_quoted_sentence_stands_apart_from_the_merely_related(browser_page):
    page = browser_page.page
    ask(page, "What does Caldicott Principle 7 say?")  # most of the principle supports the question
    page.locator("#answer .cite").first.click()
    assert page.inner_text("#clause-title") == "Caldicott Principle 7"
    quoted, related = page.locator("#clause-text mark.quoted"), page.locator("#clause-text mark.related")
    assert quoted.count() >= 1 and related.count() >= 1
    answer = prose(page, "#answer")
    assert all(text.strip().rstrip(".") in answer for text in quoted.all_inner_texts())
    assert not any(text.strip().rstrip(".") in answer for text in related.all_inner_texts())
    styles = "e => [getComputedStyle(e).backgroundColor, getComputedStyle(e).fontWeight]"
    assert quoted.first.evaluate(styles) != related.first.evaluate(styles)
    assert page.is_visible("#legend-quoted") and page.is_visible("#legend-related")


def test_refusals_say_why_and_keep_weak_evidence_folded(browser_page):
    page = browser_page.page
    ask(page, "What should I take for my migraine?")
    assert "NHS 111" in page.inner_text("#reason") and page.is_visible("#reason")
    assert page.inner_text("#announcer").startswith("No answer. This asks for personal medical advice")
    assert page.is_hidden("#sources-col")  # no passages offered for medical advice
    assert "NHS number" not in page.inner_text("#result") and "Patient" not in page.inner_text("#result")

    ask(page, "What does GDPR Article 120 say?")
    assert "None of the documents has GDPR Article 120" in page.inner_text("#reason")

    ask(page, "What is the capital of France?")
    assert page.inner_text("#reason").startswith("Nothing in the documents searched says this.")
    folded = page.locator("#more-sources")
    assert folded.is_visible() and folded.get_attribute("open") is None
    assert page.inner_text("#more-summary").startswith("Closest passages found, too weak to answer from")
    listed = page.locator("#more-list li").all_inner_texts()
    assert 1 <= len(listed) <= 5 and not any("Patient" in item or "NHS number" in item for item in listed)
    assert page.locator("#answer .cite").count() == 0 and page.is_hidden("#support")


def test_enter_asks_shift_enter_breaks_the_line_and_a_blank_question_says_so(browser_page):
    watched = browser_page
    page = watched.page
    page.fill("#question", "   ")
    page.press("#question", "Enter")
    expect(page.locator("#question-error")).to_be_visible()
    assert page.inner_text("#question-error") == "Type a question first, or choose an example below."
    assert page.get_attribute("#question", "aria-invalid") == "true" and watched.asked() == 0

    page.fill("#question", "")
    page.keyboard.type("How long does a controller have")
    page.keyboard.press("Shift+Enter")
    page.keyboard.type("to notify a personal data breach?")
    assert page.input_value("#question") == "How long does a controller have\nto notify a personal data breach?"
    assert watched.asked() == 0
    page.keyboard.press("Enter")
    page.wait_for_function(READY, timeout=ANSWER_TIMEOUT_MS)
    assert watched.asked() == 1 and "72 hours" in page.inner_text("#answer")
    assert page.is_hidden("#question-error") and page.get_attribute("#question", "aria-invalid") is None


def test_a_failure_shows_a_banner_whose_retry_works(browser_page):
    watched = browser_page
    page = watched.page
    page.route("**/query/stream", lambda route: route.abort())
    page.fill("#question", BREACH)
    page.click("#ask-button")
    banner = page.locator("#error-banner")
    expect(banner).to_contain_text("Could not reach the PolicyRAG service")
    assert banner.get_attribute("role") == "alert" and page.is_hidden("#result")
    page.unroute("**/query/stream")

    page.route(
        "**/query/stream",
        lambda route: route.fulfill(status=503, json={"detail": "the index is unavailable: gone"}),
    )
    page.click("#retry")
    expect(banner).to_contain_text("The document index is not available right now")
    page.unroute("**/query/stream")

    retry = page.locator("#retry")
    assert retry.bounding_box()["height"] >= 24
    retry.click()
    page.wait_for_function(READY, timeout=ANSWER_TIMEOUT_MS)
    assert "72 hours" in page.inner_text("#answer") and banner.inner_text() == ""
    watched.forgive_network_errors()


# --- compare ----------------------------------------------------------------------------------------------------


def test_compare_two_wordings(browser_page):
    watched = browser_page
    page = watched.page
    compare_ready(page)
    labels = page.locator("#doc-a option").all_inner_texts()
    assert labels == [
        "Group: CareShield Hospital Care & Critical Illness Rider",
        "Individual: CareShield Hospital Care & Critical Illness Rider",
    ]
    chosen = "() => [...document.querySelectorAll('#doc-b option')].filter(o => o.disabled).map(o => o.value)"
    assert page.evaluate(chosen) == [page.input_value("#doc-a")]  # the same wording cannot be picked twice
    assert (page.input_value("#doc-a"), page.input_value("#doc-b")) == (
        "careshield_rider_group",
        "careshield_rider_individual",
    )

    page.click("#compare-button")
    assert page.inner_text("#compare-error") == "Type a question about the two policies first."
    page.evaluate(WATCH_WAITING)
    run_compare(page)
    seen = page.evaluate("() => window.seen")
    assert seen["progress"] == ["Reading the Group and Individual wordings and comparing them point by point…"]
    assert seen["placeholder"]

    # the group answers from its Table of Benefits line (the amount) and its cataract clause: both are compared
    # with the individual's cataract clause, one point named after the benefit (not the table), named once
    assert page.inner_text("#compare-summary") == "Cataract Surgery differs."
    assert page.inner_text("#side-a h3") == "Group" and page.inner_text("#side-b h3") == "Individual"
    points = page.inner_text("#points")
    assert "up to 25% of Sum Insured up to Rs. 40,000 per eye, in each Policy Year." in points
    assert "Rs. 60,000 per eye" in points and "Only in Group" not in points and "Differs" in points
    assert "[Source" not in page.inner_text("#compare-result")
    assert page.is_visible("#conditional-note") and "only within the limits" in page.inner_text("#conditional-note")
    assert "Covered with conditions" in page.inner_text("#side-a .coverage")
    assert page.inner_text("#announcer").startswith("Comparison ready. Cataract Surgery differs")

    for side, wording in (("#side-a", "(Group)"), ("#side-b", "(Individual)")):
        cite = page.locator(f"{side} .cite").first
        cite.click()
        expect(page.locator("#clause")).to_be_visible()
        assert wording in page.inner_text("#clause-title")
        page.keyboard.press("Escape")
        expect(page.locator("#clause")).to_be_hidden()
        assert active(page, "e => e.classList.contains('cite')")

    page.locator("#points .source-link").first.click()
    assert page.inner_text("#clause-title") == "CareShield Rider (Group) cl. 3.10"  # the amount leads
    assert "Rs. 60,000 per eye" in page.inner_text("#clause-text mark.quoted")
    page.keyboard.press("Escape")

    a, b = box(page, "#side-a"), box(page, "#side-b")
    if watched.size == "phone":  # one column
        assert b["y"] >= a["y"] + a["height"] and a["width"] > 300
    else:
        assert b["x"] >= a["x"] + a["width"]
    no_horizontal_scroll(page)


# --- keyboard and accessibility ---------------------------------------------------------------------------------


def tab_to(page, test: str, limit: int = 60, back: bool = False) -> None:
    """Press Tab (or Shift+Tab) until the focused element passes `test`; fails after `limit` presses."""
    for _ in range(limit):
        page.keyboard.press("Shift+Tab" if back else "Tab")
        if active(page, test):
            ring = active(page, "e => [getComputedStyle(e).outlineStyle, parseFloat(getComputedStyle(e).outlineWidth)]")
            assert ring[0] != "none" and ring[1] >= 2, f"no visible focus on {active(page, 'e => e.outerHTML')}"
            return
    raise AssertionError(f"Tab never reached an element where {test}")


def test_keyboard_only(browser_page):
    page = browser_page.page
    page.keyboard.press("Tab")
    assert active(page, "e => e.className") == "skip"
    page.keyboard.press("Enter")
    tab_to(page, "e => e.id === 'question'")
    page.keyboard.type(BREACH)
    page.keyboard.press("Enter")
    page.wait_for_function(READY, timeout=ANSWER_TIMEOUT_MS)

    tab_to(page, "e => e.classList.contains('cite')")
    page.keyboard.press("Enter")
    assert active(page) == "clause"
    tab_to(page, "e => e.id === 'close-clause'", limit=3)
    page.keyboard.press("Enter")
    expect(page.locator("#clause")).to_be_hidden()
    assert active(page, "e => e.classList.contains('cite')")

    tab_to(page, "e => e.tagName === 'SUMMARY' && e.parentElement.id === 'how'")
    page.keyboard.press("Enter")
    assert page.get_attribute("#how", "open") is not None

    tab_to(page, "e => e.id === 'tab-ask'", back=True)
    page.keyboard.press("ArrowRight")
    assert active(page) == "tab-compare" and page.is_visible("#compare-panel") and page.is_hidden("#ask-panel")
    page.wait_for_function("() => document.querySelectorAll('#doc-a option').length > 1")
    tab_to(page, "e => e.id === 'compare-question'")
    page.keyboard.type("What is the cataract limit?")
    page.keyboard.press("Enter")
    page.wait_for_selector("#compare-result:not([hidden])", timeout=ANSWER_TIMEOUT_MS)
    tab_to(page, "e => e.classList.contains('cite') && e.closest('#side-b') !== null")
    page.keyboard.press("Enter")
    expect(page.locator("#clause")).to_be_visible()
    page.keyboard.press("Escape")
    assert active(page, "e => e.closest('#side-b') !== null")


SCAN = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]},
    "resultTypes": ["violations"],
}
CONTRAST = """e => {
  // Contrast of an input's border against the background it sits on (WCAG 1.4.11 wants 3:1).
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const linear = (v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
  const lum = (c) => { const [r, g, b] = rgb(c).map(linear); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  let back = e.parentElement;
  while (back && getComputedStyle(back).backgroundColor === "rgba(0, 0, 0, 0)") back = back.parentElement;
  const a = lum(getComputedStyle(e).borderTopColor);
  const b = lum(getComputedStyle(back || document.body).backgroundColor);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""
TARGETS = "button, select, textarea, input, summary, [role=tab]"


def accessible(page, state: str) -> None:
    """axe-core finds nothing serious or critical; every visible target is at least 24x24 px; input borders 3:1."""
    found = axe_playwright.Axe().run(page, options=SCAN).response["violations"]
    bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in found]
    assert not [b for b in bad if b[1] in ("serious", "critical")], f"{state}: {bad}"
    for target in page.locator(TARGETS).all():
        if target.is_visible():
            size = target.bounding_box()
            assert size["width"] >= 24 and size["height"] >= 24, f"{state}: {target.evaluate('e => e.outerHTML')}"
    for field in page.locator("textarea, select, input:not([type=checkbox])").all():
        if field.is_visible():
            assert field.evaluate(CONTRAST) >= 3, f"{state}: {field.evaluate('e => e.outerHTML')}"


def test_accessibility_scan(browser_page):
    page = browser_page.page
    assert page.get_attribute("#announcer", "aria-live") == "polite"
    assert page.get_attribute("#progress", "aria-live") is None  # steps are not announced, the answer is
    page.click("#settings summary")
    accessible(page, "start")
    ask(page, BREACH)
    page.click("#how summary")
    page.click("#more-sources summary")
    accessible(page, "answer")
    page.locator("#answer .cite").first.click()
    accessible(page, "clause")
    page.keyboard.press("Escape")
    ask(page, "What is the capital of France?")
    accessible(page, "refusal")
    compare_ready(page)
    page.click("#compare-button")
    accessible(page, "compare, blank question")
    run_compare(page)
    accessible(page, "compared")


# --- the chat-model path and a server that needs a key --------------------------------------------------------


@pytest.mark.parametrize("size", list(SIZES))
def test_the_page_works_with_a_chat_model(driver, chat_server, tmp_path, size):
    base, standin = chat_server
    with opened(driver, base, tmp_path, size) as watched:
        page = watched.page
        page.evaluate(WATCH_WAITING)
        ask(page, BREACH)
        assert prose(page, "#answer p.lead") == CHAT_ANSWER.replace(" [Source 1]", "")
        assert page.evaluate("() => window.seen.partial")
        page.click("#how summary")
        assert "chat model (groq" in page.inner_text("#how")
        page.locator("#answer .cite").first.click()
        assert page.inner_text("#clause-title") == "GDPR Art. 33(1)"
        assert "no later than 72 hours" in page.inner_text("#clause-text mark.quoted")  # found by meaning
        page.keyboard.press("Escape")

        compare_ready(page)
        run_compare(page)
        for side in ("#side-a", "#side-b"):
            assert page.locator(f"{side} .cite").count() >= 1
        page.locator("#side-b .cite").first.click()
        assert "CareShield Rider (Individual)" in page.inner_text("#clause-title")
    assert standin.requests("chat")


def test_the_key_box_shows_only_when_the_server_asks_for_one(driver, key_server, tmp_path):
    base, key = key_server
    with opened(driver, base, tmp_path, "desktop") as watched:
        page = watched.page
        expect(page.locator("#api-key")).to_be_visible()  # settings open on the key the server asks for
        page.fill("#question", BREACH)
        page.press("#question", "Enter")
        expect(page.locator("#error-banner")).to_contain_text("This server needs an API key")
        page.fill("#api-key", key)
        page.click("#retry")
        page.wait_for_function(READY, timeout=ANSWER_TIMEOUT_MS)
        assert "72 hours" in page.inner_text("#answer")
        watched.forgive_network_errors()


# --- the page's own functions -----------------------------------------------------------------------------------

# One Python string: the two literals join inside one JavaScript line, which is too long for one source line.
SPLIT_STREAM = (
    """async () => {
  // The stream as sse-starlette sends it ("\\r\\n" line ends, a ping comment), delivered one byte per read so that
  // every "\\r\\n" and the multi-byte dash are cut between two reads.
  const text = 'event: progress\\r\\ndata: {"node": "retrieve"}\\r\\n\\r\\n: ping\\r\\n\\r\\n'
    + 'event: token\\r\\ndata: {"text": "72 hours \\u2014 ok"}\\r\\n\\r\\n"""
    """event: final\\r\\ndata: {"status": "answered"}\\r\\n\\r\\n';
  const bytes = new TextEncoder().encode(text);
  const original = window.fetch;
  window.fetch = async () => new Response(new ReadableStream({
    start(controller) { for (const b of bytes) controller.enqueue(new Uint8Array([b])); controller.close(); },
  }), { status: 200, headers: { "Content-Type": "text/event-stream" } });
  const seen = [];
  try { await streamQuery({}, (event, data) => seen.push([event, data])); } finally { window.fetch = original; }
  return seen;
}"""
)


def test_page_parses_split_events_and_shows_text_only_as_text(browser_page):
    page = browser_page.page
    assert page.evaluate(SPLIT_STREAM) == [
        ["progress", {"node": "retrieve"}],
        ["token", {"text": "72 hours \u2014 ok"}],
        ["final", {"status": "answered"}],
    ]

    def clause(url: str, text: str = "plain") -> None:
        evidence = {
            "chunk_id": "c1",
            "citation": "<b>C</b>",
            "document": "D",
            "text": text,
            "highlights": [],
            "url": url,
        }
        page.evaluate("evidence => openClause(evidence, [evidence.text], null)", evidence)

    clause("javascript:alert(1)", text="<img src=x onerror=alert(1)>")
    assert page.locator("#clause-provenance a").count() == 0
    assert "javascript:alert(1)" in page.inner_text("#clause-provenance")
    assert page.inner_text("#clause-title") == "<b>C</b>"
    assert page.locator("#clause-text img").count() == 0
    assert page.inner_text("#clause-text mark.quoted") == "<img src=x onerror=alert(1)>"
    clause("https://eur-lex.europa.eu/eli/reg/2016/679/oj")
    assert page.get_attribute("#clause-provenance a", "href") == "https://eur-lex.europa.eu/eli/reg/2016/679/oj"


def test_page_reads_answers_into_blocks_and_finds_the_quoted_piece(browser_page):
    page = browser_page.page
    split = page.evaluate(
        "() => blocks('The notice must: (a) name it; (b) date it; and (c) sign it [Source 1]. Then file it.')"
    )
    assert split == [
        {"type": "p", "text": "The notice must:"},
        {"type": "list", "items": ["(a) name it", "(b) date it", "(c) sign it [Source 1]."], "points": True},
        {"type": "p", "text": "Then file it."},
    ]
    assert page.evaluate("() => blocks('Three things.\\n- one\\n- two')") == [
        {"type": "p", "text": "Three things."},
        {"type": "list", "items": ["one", "two"]},
    ]
    assert page.evaluate("() => citationOrder('a [Source 3]. b [Source 1, 3]. c [Sources 2 and 1].')") == [3, 1, 2]
    text = "1. Rent is paid monthly. The landlord repairs the roof. Tenants keep the garden tidy."
    quoted = page.evaluate(
        "text => quotedPieces(text, citingSentences('The landlord repairs the roof [Source 2]. Rent [Source 1].', 2))",
        text,
    )
    assert quoted == ["The landlord repairs the roof."]
    ranges = page.evaluate(
        "text => markRanges(text, ['The landlord repairs the roof.'], ['The landlord repairs', 'Tenants keep'])", text
    )
    assert [r["kind"] for r in ranges] == ["quoted", "related"]
    assert page.evaluate("() => shorten('one two three four', 12)") == "one two …"
