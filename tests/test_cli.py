"""The `policyrag` command as a user runs it: a real process, a temporary data folder."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.conftest import CORPUS, policyrag

pytestmark = pytest.mark.subprocess


@pytest.fixture
def env(tmp_path, models_dir) -> dict[str, str]:
    return {
        **os.environ,
        "POLICYRAG_DATA_DIR": str(tmp_path / "data"),
        "POLICYRAG_MODELS_DIR": str(models_dir),
        "HF_HUB_OFFLINE": "1",
    }


@pytest.fixture
def small_corpus(tmp_path) -> Path:
    folder = tmp_path / "docs" / "health_governance"
    folder.mkdir(parents=True)
    for name in ("gdpr_art_33", "gdpr_art_34", "gdpr_art_09_2_h"):
        for suffix in (".txt", ".json"):
            shutil.copy(CORPUS / "health_governance" / f"{name}{suffix}", folder)
    return folder


def test_ingest_then_search_json(env, small_corpus):
    done = policyrag("ingest", str(small_corpus), "--quiet", env=env)
    assert done.returncode == 0, done.stderr
    assert "3 added" in done.stderr.replace("\n", " ")

    found = policyrag(
        "search", "How long to notify a personal data breach?", "--collection", "health_governance", "--json", env=env
    )
    assert found.returncode == 0, found.stderr
    rows = json.loads(found.stdout)
    # Both paragraphs of Art. 33 on notifying a breach lead (the answer step then picks the deadline).
    assert {row["citation"] for row in rows[:2]} == {"GDPR Art. 33(1)", "GDPR Art. 33(2)"}
    for key in ("citation", "document", "collection", "text", "page", "url", "scores"):
        assert key in rows[0]
    assert {"dense", "sparse", "fused", "rerank"} <= set(rows[0]["scores"])

    readable = policyrag("search", "What does Art. 9(2)(h) allow?", env=env)
    assert readable.returncode == 0 and "GDPR Art. 9(2)(h)" in readable.stdout.splitlines()[0]


def test_search_before_any_ingest_says_what_to_do(env):
    done = policyrag("search", "anything", env=env)
    assert done.returncode == 2
    assert "policyrag ingest" in done.stderr and "Traceback" not in done.stderr


def test_bad_file_is_named_and_strict_mode_fails(env, small_corpus):
    (small_corpus / "scan.pdf").write_bytes(b"%PDF-1.4 broken")
    done = policyrag("ingest", str(small_corpus), "--quiet", "--strict", env=env)
    assert done.returncode == 1
    assert "scan.pdf" in done.stderr and "skipped" in done.stderr


def test_missing_path_is_a_clear_error(env, tmp_path):
    done = policyrag("ingest", str(tmp_path / "nowhere"), env=env)
    assert done.returncode == 2 and "no such file or folder" in done.stderr


def test_ask_answers_with_citations_and_refuses_out_of_scope(env, small_corpus):
    assert policyrag("ingest", str(small_corpus), "--quiet", env=env).returncode == 0
    env = {**env, "POLICYRAG_WEB_PROVIDERS": "[]"}
    answered = policyrag(
        "ask", "How many hours to notify a personal data breach to the supervisory authority?", "--json", env=env
    )
    assert answered.returncode == 0, answered.stderr
    record = json.loads(answered.stdout)
    for key in (
        "answer",
        "status",
        "route",
        "initial_route",
        "confidence",
        "trust_grade",
        "citations",
        "evidence",
        "generator",
        "web_provider",
        "latency_ms",
    ):
        assert key in record
    assert record["status"] == "answered" and "72 hours" in record["answer"]
    assert {"source", "citation", "document", "url", "page"} <= set(record["citations"][0])
    assert {"citation", "document", "text", "origin", "scores"} <= set(record["evidence"][0])
    assert "total" in record["latency_ms"] and "retrieve" in record["latency_ms"]

    refused = policyrag("ask", "What is the capital of France?", "--json", "--no-web", env=env)
    assert json.loads(refused.stdout)["status"] == "refused"

    streamed = policyrag("ask", "How many hours to notify a personal data breach?", "--stream", env=env)
    assert streamed.returncode == 0 and "72 hours" in streamed.stdout and "generate done" in streamed.stderr


@pytest.mark.parametrize("name", ["evil\nabc123def456  forged  admin,read  active", "nul\x00name", "esc\x1b[31mred"])
def test_keys_create_refuses_a_name_with_control_characters(env, name):
    made = policyrag("keys", "create", "--name", name, env=env) if "\x00" not in name else None
    if made is not None:  # a NUL cannot even be passed as an argument; the store refuses it below
        assert made.returncode == 2 and "control character" in made.stderr and "prag_" not in made.stdout
    from db.keys import KeyStore

    store = KeyStore(Path(env["POLICYRAG_DATA_DIR"]) / "keys.sqlite")
    try:
        with pytest.raises(ValueError, match="control character"):
            store.create(name, ["read"])
        assert store.list() == []
    finally:
        store.close()


def test_keys_list_cannot_be_forged_by_a_stored_name(env):
    import sqlite3

    from db.keys import KeyStore

    path = Path(env["POLICYRAG_DATA_DIR"]) / "keys.sqlite"
    KeyStore(path).close()
    with sqlite3.connect(path) as db:  # a name stored before names were checked
        db.execute(
            "INSERT INTO api_keys (key_id, name, salt, secret_hash, scopes, created_at) VALUES"
            " ('aaaaaaaaaaaa', 'old\nbbbbbbbbbbbb  forged  admin,read  active', x'00', x'00', 'read', '2024-01-01')"
        )
    listed = policyrag("keys", "list", env=env)
    assert listed.returncode == 0 and len(listed.stdout.splitlines()) == 1, listed.stdout
    assert "old\\u000abbbbbbbbbbbb" in listed.stdout


def test_every_option_of_every_command_says_what_it_does():
    import argparse

    from cli.main import build_parser
    from evals.runner import build_parser as eval_parser

    def undescribed(parser: argparse.ArgumentParser, name: str) -> list[str]:
        missing = []
        for action in parser._actions:  # argparse keeps no public list of a parser's arguments
            if isinstance(action, argparse._SubParsersAction):
                for command, sub in action.choices.items():
                    missing += undescribed(sub, f"{name} {command}")
            elif not isinstance(action, argparse._HelpAction) and not action.help:
                missing.append(f"{name} {'/'.join(action.option_strings) or action.dest}")
        return missing

    assert undescribed(build_parser(), "policyrag") + undescribed(eval_parser(), "policyrag eval") == []
