"""Screenshots of the web page at a desktop size (1366x900) and a phone size (390x844), for the README.

Usage: python scripts/screenshots.py [--out evals/results/screenshots]   (`make screenshots`; needs `make setup`)

Starts `policyrag serve` on a free loopback port over the index in data/ (offline answerer, the offline commentary
as the only web provider), drives Debian's Chromium through Playwright, writes four PNGs and stops the server by
its PID. Not part of the test run.
"""

from __future__ import annotations

import argparse
import os
import subprocess
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from evals.service_process import free_port, start, stop

REPO_ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
SIZES = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}
QUESTION = "How long does a controller have to notify a personal data breach?"
COMPARE = "What is the cataract limit?"
START_TIMEOUT_S = 180
ANSWER_TIMEOUT_MS = 240_000


def serve(port: int) -> subprocess.Popen:
    """The service in its own process group; returns once it listens (exits if it ends or takes too long)."""
    env = {**os.environ, "POLICYRAG_WEB_PROVIDERS": '["secondary"]', "HF_HUB_OFFLINE": "1"}
    try:
        process, _ = start(["serve", "--host", "127.0.0.1", "--port", str(port)], env, START_TIMEOUT_S)
    except RuntimeError as error:
        raise SystemExit(f"{error}\n(run `make setup` first)") from None
    if process.poll() is not None:
        raise SystemExit("the service did not start (run `make setup` first)")
    return process


def answered(page: Page) -> None:
    page.fill("#question", QUESTION)
    page.press("#question", "Enter")
    page.wait_for_function("() => document.getElementById('announcer').textContent !== ''", timeout=ANSWER_TIMEOUT_MS)


def compared(page: Page) -> None:
    page.click("#tab-compare")
    page.wait_for_function("() => document.querySelectorAll('#doc-a option').length > 1")
    page.fill("#compare-question", COMPARE)
    page.click("#compare-button")
    page.wait_for_selector("#compare-result:not([hidden])", timeout=ANSWER_TIMEOUT_MS)


def shoot(base: str, out: Path) -> list[Path]:
    written = []
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
        for size, viewport in SIZES.items():
            page = browser.new_page(viewport=viewport)
            page.goto(base + "/")
            page.wait_for_function("() => document.querySelectorAll('#collection option').length > 1")
            answered(page)
            if size == "desktop":  # the clause beside the answer, its quoted sentence marked
                page.locator("#answer .cite").first.click()
            page.locator("#answer-heading").evaluate("e => e.scrollIntoView()")
            written.append(out / f"{size}-answer.png")
            page.screenshot(path=str(written[-1]))
            page.keyboard.press("Escape")
            compared(page)
            page.locator("#compare-heading").evaluate("e => e.scrollIntoView()")
            written.append(out / f"{size}-compare.png")
            page.screenshot(path=str(written[-1]))
            page.close()
        browser.close()
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO_ROOT / "evals" / "results" / "screenshots")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    port = free_port()
    process = serve(port)
    try:
        for path in shoot(f"http://127.0.0.1:{port}", args.out):
            print(path.relative_to(REPO_ROOT) if path.is_relative_to(REPO_ROOT) else path)
    finally:
        stop(process)


if __name__ == "__main__":
    main()
