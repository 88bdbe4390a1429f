"""Fixtures shared by the test suite: real models, real Qdrant, real SQLite, temporary data folders."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # a model download attempt fails fast instead of hanging

from core.settings import REPO_ROOT, Settings  # noqa: E402

SHARED = REPO_ROOT.parent / "shared"
CORPORA = SHARED / "corpora"
CORPUS = REPO_ROOT / "corpus"


def shared_path(*parts: str) -> Path:
    """A file from ../shared, or a clean skip on a machine without it."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is not available on this machine")
    return path


@pytest.fixture(scope="session")
def models_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Model folders built once per session (the repository's own, when `make setup` made them)."""
    built = REPO_ROOT / "data" / "models"
    return built if built.exists() else tmp_path_factory.mktemp("models")


def policyrag(*args: str, env: dict[str, str], timeout: float = 600) -> subprocess.CompletedProcess:
    """`policyrag ARGS` run as a user runs it, in its own process, from the repository folder."""
    return subprocess.run(
        [sys.executable, "-m", "cli.main", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO_ROOT,
        timeout=timeout,
    )


def ingest_into(resources, paths: list[Path], **options):
    """Ingest with the resources' own settings, embedder, catalog and backend, as `policyrag ingest` does."""
    from ingest.pipeline import ingest

    return ingest(
        paths,
        settings=resources.settings,
        embedder=resources.embedder,
        catalog=resources.catalog,
        backend=resources.backend,
        **options,
    )


def make_settings(data_dir: Path, models_dir: Path, **overrides) -> Settings:
    return Settings(data_dir=data_dir, models_dir=models_dir, **overrides)


def seed_vector_cache(settings: Settings) -> None:
    """Borrow the vectors `make setup` computed: content-addressed, so only time is saved."""
    from db.catalog import Catalog

    catalog = Catalog(settings.catalog_path)
    catalog.import_vectors(REPO_ROOT / "data" / "catalog.sqlite")
    catalog.close()


@pytest.fixture
def settings(tmp_path: Path, models_dir: Path) -> Settings:
    return make_settings(tmp_path / "data", models_dir)


@pytest.fixture(scope="session")
def embedder(models_dir: Path, tmp_path_factory: pytest.TempPathFactory):
    """One real embedding model for the whole session."""
    from retrieval.embedder import Embedder

    return Embedder(make_settings(tmp_path_factory.mktemp("embedder-data"), models_dir))


@pytest.fixture(scope="session")
def shipped(tmp_path_factory: pytest.TempPathFactory, models_dir: Path, embedder):
    """Resources over an index of the whole shipped corpus, built once per session."""
    from retrieval.resources import Resources

    settings = make_settings(tmp_path_factory.mktemp("shipped") / "data", models_dir)
    seed_vector_cache(settings)
    resources = Resources(settings, embedder=embedder)
    report = ingest_into(resources, [CORPUS])
    assert not report.failed, report.failed
    yield resources
    resources.close()


def copy_tree(source: Path, target: Path) -> Path:
    shutil.copytree(source, target)
    return target


@pytest.fixture
def standin(tmp_path):
    """A local stand-in for Groq (OpenAI-compatible chat) and Tavily, stopped by PID afterwards."""
    from tests.standins.fixture import start_standin

    server = start_standin(tmp_path)
    yield server
    server.stop()


@pytest.fixture
def make_services(shipped):
    """Services over the shipped index with settings overrides (web providers, Groq address, ...)."""
    from retrieval.services import Services

    made = []

    def build(web=None, **overrides):
        overrides.setdefault("web_providers", ["secondary"])
        settings = shipped.settings.model_copy(update=overrides)
        services = Services(settings, shipped, web=web)
        made.append(services)
        return services

    yield build
    for services in made:
        services.close_web()


def run_graph(question: str, services, with_requery: bool = True, **context):
    """One graph run over these services with a run context; returns the answer record."""
    from core.schemas import RunContext
    from graph.crag import build_graph
    from graph.run import answer

    return answer(build_graph(services, with_requery), question, RunContext(**context))


@pytest.fixture
def service_env(shipped, tmp_path) -> dict[str, str]:
    """The environment of a `policyrag` process over the shipped index and a fresh data folder of its own."""
    data = tmp_path / "data"
    data.mkdir()
    for name in ("catalog.sqlite", "index"):  # share the shipped index read-only: a symlinked index folder
        (data / name).symlink_to(shipped.settings.data_dir / name)
    return {
        **os.environ,
        "POLICYRAG_DATA_DIR": str(data),
        "POLICYRAG_MODELS_DIR": str(shipped.settings.models_dir),
        "POLICYRAG_WEB_PROVIDERS": '["secondary"]',
        "HF_HUB_OFFLINE": "1",
    }


@pytest.fixture
def api(shipped, tmp_path):
    """A factory for a TestClient over a fresh data folder (keys, telemetry) and the shipped index."""
    from fastapi.testclient import TestClient

    from retrieval.services import Services
    from server.app import create_app

    clients = []

    def build(anonymous: bool = True, **overrides) -> TestClient:
        overrides.setdefault("web_providers", ["secondary"])
        settings = shipped.settings.model_copy(
            update={
                "data_dir": tmp_path / f"svc{len(clients)}",
                "models_dir_override": shipped.settings.models_dir,
                **overrides,
            }
        )
        client = TestClient(
            create_app(settings, Services(settings, shipped), anonymous_read=anonymous), raise_server_exceptions=False
        )
        client.__enter__()
        clients.append(client)
        return client

    yield build
    for client in clients:
        client.__exit__(None, None, None)


def used_blocks(record):
    """The evidence blocks an answer was written from (none when it refused for want of evidence)."""
    return record.evidence if record.evidence_used else []


# Fixtures that cost tens of seconds each (real PDF wordings ingested, both model variants built):
# the tests using them run in `make test`, not in `make test-fast`.
SLOW_FIXTURES = {"real", "built"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)
