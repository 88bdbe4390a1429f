"""Error replies: every failure becomes a JSON `detail` with the right status, never a stack trace."""

from __future__ import annotations

import logging
import sqlite3
import uuid

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import ValidationError

from core.settings import Settings
from db.store import StoreError
from db.telemetry import RequestRecord
from graph.run import Cancelled, WordingNotFound
from server.querying import CLIENT_GONE_STATUS, UnknownCollection

log = logging.getLogger("policyrag.server")


def without_server_paths(text: str, settings: Settings) -> str:
    """A message for a reply: this machine's folders (data, models, corpus) named by their setting instead."""
    folders = {
        "POLICYRAG_DATA_DIR": settings.data_dir,
        "POLICYRAG_MODELS_DIR": settings.models_dir,
        "POLICYRAG_CORPUS_DIR": settings.corpus_dir,
    }
    spellings = [(str(p), name) for name, folder in folders.items() for p in {folder, folder.resolve()}]
    for path, name in sorted(spellings, key=lambda pair: -len(pair[0])):
        text = text.replace(path, name)
    return text


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
        problems = []
        for item in error.errors():
            if not isinstance(item, dict):  # LangServe raises it with plain strings ("Invalid JSON body")
                problems.append(f"body: {item}")
                continue
            where = ".".join(str(p) for p in item.get("loc", []) if p != "body") or "body"
            problems.append(f"{where}: {item.get('msg', 'invalid')}")
        request.app.state.policyrag.telemetry.record(RequestRecord(endpoint=request.url.path, http_status=422))
        return JSONResponse({"detail": "invalid request", "problems": problems}, status_code=422)

    @app.exception_handler(ValidationError)
    async def invalid_graph_input(request: Request, error: ValidationError) -> JSONResponse:
        """LangServe's /batch validates each input outside its own error translation: the caller's error."""
        if not request.url.path.startswith("/graph/"):
            raise error  # anywhere else a failed model is our bug: the 500 handler logs it with a reference
        return await invalid_request(
            request, RequestValidationError(error.errors(include_url=False, include_context=False))
        )

    @app.exception_handler(WordingNotFound)
    async def wording_not_found(request: Request, error: WordingNotFound) -> JSONResponse:
        return JSONResponse({"detail": f"{error} (GET /policies lists the wordings)"}, status_code=404)

    @app.exception_handler(Cancelled)
    async def client_went_away(request: Request, error: Cancelled) -> JSONResponse:
        """Nobody reads this reply: the run stopped because its client disconnected."""
        return JSONResponse({"detail": "the client went away"}, status_code=CLIENT_GONE_STATUS)

    @app.exception_handler(UnknownCollection)
    async def unknown_collection(request: Request, error: UnknownCollection) -> JSONResponse:
        return JSONResponse({"detail": str(error)}, status_code=404)

    @app.exception_handler(StoreError)
    async def index_unavailable(request: Request, error: StoreError) -> JSONResponse:
        detail = without_server_paths(f"the index is unavailable: {error}", request.app.state.policyrag.settings)
        return JSONResponse({"detail": detail}, status_code=503)

    @app.exception_handler(sqlite3.OperationalError)
    async def storage_busy(request: Request, error: sqlite3.OperationalError) -> JSONResponse:
        log.warning("storage error on %s: %s", request.url.path, error)
        detail = "storage is busy or full; nothing was changed, retry shortly"
        return JSONResponse({"detail": detail}, status_code=503, headers={"Retry-After": "5"})

    @app.exception_handler(Exception)
    async def unexpected(request: Request, error: Exception) -> JSONResponse:
        reference = uuid.uuid4().hex[:12]
        log.error("unhandled error %s on %s: %s", reference, request.url.path, type(error).__name__, exc_info=error)
        return JSONResponse({"detail": "internal error", "reference": reference}, status_code=500)
