"""The web page as a person uses it: the real server as its own process, headless Chromium driven by Playwright.

Skipped cleanly where Debian's Chromium (/usr/bin/chromium) or the `playwright` package is missing. Playwright
never downloads a browser here: it drives the system Chromium through `executable_path`.
"""

from __future__ import annotations

import os
from pathlib import Path

import httpx
import pytest

from tests.conftest import free_port
from tests.service_process import start, stop

pytestmark = [pytest.mark.browser, pytest.mark.subprocess]

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")

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
START_TIMEOUT_S = 180  # the server loads the index before it listens
ANSWER_TIMEOUT_MS = 240_000  # the first question also loads the models in the server
UI_TIMEOUT_MS = 15_000
BREACH = "How long does a controller have to notify a personal data breach to the supervisory authority?"


@pytest.fixture(scope="module")
def server(shipped):
    """`policyrag serve` on a free loopback port over the shipped index; yields its base URL, stopped by PID."""
    port = free_port()
    env = {
        **os.environ,
        "POLICYRAG_DATA_DIR": str(shipped.settings.data_dir),
        "POLICYRAG_MODELS_DIR": str(shipped.settings.models_dir),
        "POLICYRAG_WEB_PROVIDERS": '["secondary"]',
        "HF_HUB_OFFLINE": "1",
    }
    process, log = start(["serve", "--host", "127.0.0.1", "--port", str(port)], env, START_TIMEOUT_S)
    base = f"http://127.0.0.1:{port}"
    try:
        assert process.poll() is None, "the server did not start:\n" + "".join(log[-40:])
        health = httpx.get(f"{base}/health", timeout=30)
        assert health.status_code == 200 and health.json()["status"] == "ok", health.text
        yield base
    finally:
        stop(process)


@pytest.fixture(scope="module")
def driver():
    with sync_api.sync_playwright() as driver:
        yield driver


class Watched:
    """A page with its console errors, page errors and every request URL recorded."""

    def __init__(self, context, base: str):
        self.base = base
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


@pytest.fixture
def browser_page(driver, server, tmp_path):
    """A fresh headless Chromium (its own user-data folder) on the page; checks console and network at the end."""
    context = driver.chromium.launch_persistent_context(
        str(tmp_path / "chromium-profile"),
        executable_path=str(CHROMIUM),
        headless=True,
        args=CHROMIUM_ARGS,
        viewport={"width": 1280, "height": 900},
    )
    try:
        watched = Watched(context, server)
        watched.page.goto(server + "/")
        yield watched
        assert not watched.errors, watched.errors
        assert not watched.outside(), f"requests left {server}: {watched.outside()}"
    finally:
        context.close()


def ask(page, question: str) -> None:
    """Type a question, submit it, and wait (bounded) until the final record is rendered."""
    page.fill("#question", question)
    page.click("#ask-button")
    page.wait_for_function(  # the button is disabled while the stream runs; then badges or an error message show
        "() => !document.getElementById('ask-button').disabled"
        " && (document.querySelector('#badges .badge') !== null"
        " || document.getElementById('status-detail').textContent !== '')",
        timeout=ANSWER_TIMEOUT_MS,
    )
    detail = page.inner_text("#status-detail")
    assert not detail.startswith("Error"), detail


def provenance(page) -> dict[str, str]:
    terms = page.locator("#clause-provenance dt").all_inner_texts()
    values = page.locator("#clause-provenance dd").all_inner_texts()
    return dict(zip(terms, values))


def test_question_answer_and_clause(browser_page, server, tmp_path):
    page = browser_page.page
    collections = httpx.get(f"{server}/health", timeout=30).json()["index"]["chunks_per_collection"]
    page.wait_for_function(
        "n => document.querySelectorAll('#collection option').length === n", arg=len(collections) + 1
    )
    values = page.locator("#collection option").evaluate_all("options => options.map(o => o.value)")
    assert values == [""] + sorted(collections)

    ask(page, BREACH)

    steps = page.locator("#progress .step").all_inner_texts()
    assert steps and steps[0] == "retrieve", steps
    assert any(s.startswith("grade") for s in steps) and any(s.startswith("generate") for s in steps), steps
    assert page.locator("#badges .badge").first.inner_text() == "answered"
    assert "72 hours" in page.inner_text("#answer")
    citations = page.locator("#answer button.cite")
    assert citations.count() >= 1

    citations.first.click()
    page.wait_for_selector("#clause", state="visible")
    assert page.inner_text("#clause-title").startswith("GDPR Art. 33")
    rows = provenance(page)
    assert rows.get("Publisher") == "EUR-Lex" and rows.get("Hierarchy rank") == "1", rows
    marks = page.locator("#clause-text mark")
    assert marks.count() >= 1 and marks.first.inner_text().strip()
    assert marks.first.inner_text() in page.inner_text("#clause-text")

    shot = tmp_path / "answer.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.exists() and shot.stat().st_size > 0
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_out_of_scope_question_is_refused_plainly(browser_page, tmp_path):
    page = browser_page.page
    ask(page, "What is the capital of France?")

    assert page.locator("#badges .badge").first.inner_text() == "refused"
    assert page.locator("#badges .badge.refused").count() == 1
    assert page.inner_text("#evidence-heading") == "Evidence found (too weak to answer from)"
    assert "refusal" in (page.get_attribute("#answer", "class") or "")
    assert page.inner_text("#answer").strip()
    assert page.locator("#answer button.cite").count() == 0
    assert page.locator("#progress .step").count() >= 2
    page.screenshot(path=str(tmp_path / "refused.png"), full_page=True)


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


def test_page_parses_split_events_and_escapes_what_it_shows(browser_page):
    page = browser_page.page
    assert page.evaluate(SPLIT_STREAM) == [
        ["progress", {"node": "retrieve"}],
        ["token", {"text": "72 hours \u2014 ok"}],
        ["final", {"status": "answered"}],
    ]
    assert (
        page.evaluate("() => highlight('Fee: $& more. Next.', ['Fee: $& more.'])")
        == "<mark>Fee: $&amp; more.</mark> Next."
    )

    def clause(url: str, text: str = "plain") -> None:
        evidence = {
            "chunk_id": "c1",
            "citation": "<b>C</b>",
            "document": "D",
            "text": text,
            "highlights": [],
            "url": url,
        }
        page.evaluate("evidence => openClause({citations: [], evidence: [evidence]}, 1)", evidence)

    clause("javascript:alert(1)", text="<img src=x onerror=alert(1)>")
    assert page.locator("#clause-provenance a").count() == 0
    assert "javascript:alert(1)" in page.inner_text("#clause-provenance")
    assert page.inner_text("#clause-title") == "<b>C</b>"
    assert (
        page.locator("#clause-text img").count() == 0
        and page.inner_text("#clause-text") == "<img src=x onerror=alert(1)>"
    )
    clause("https://eur-lex.europa.eu/eli/reg/2016/679/oj")
    assert page.get_attribute("#clause-provenance a", "href") == "https://eur-lex.europa.eu/eli/reg/2016/679/oj"
