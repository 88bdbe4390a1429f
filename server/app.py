"""The HTTP service: FastAPI routers, the graph mounted with LangServe, the web page."""

from __future__ import annotations

from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.staticfiles import StaticFiles

from core.settings import Settings
from retrieval.services import Services
from server.admission import RequestAdmission
from server.errors import install_error_handlers
from server.graph_routes import mount_graph
from server.routes import admin, insurance, query, service
from server.state import ServiceState


def create_app(settings: Settings, services: Services | None = None, anonymous_read: bool | None = None) -> FastAPI:
    """One service over these settings (and services, when the caller already has them)."""
    state = ServiceState(settings, services, anonymous_read)

    @asynccontextmanager
    async def lifespan(_: FastAPI):
        yield
        state.close()

    app = FastAPI(
        title="PolicyRAG",
        version="0.1.0",
        description="Answers about governing documents, with the clause behind every answer.",
        lifespan=lifespan,
    )
    app.state.policyrag = state
    if settings.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=settings.cors_origins,
            allow_methods=["GET", "POST"],
            allow_headers=["X-API-Key", "Content-Type"],
        )
    app.add_middleware(RequestAdmission, max_body_bytes=settings.max_body_bytes)  # outermost: every request
    install_error_handlers(app)
    for router in (service.router, query.router, admin.router, insurance.router):
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=service.STATIC), name="static")
    mount_graph(app, state)
    return app
