"""The HTTP face of Tấn (docs/api.md §3): the FastAPI app.

`create_app(settings)` builds an app; `app` is the one `tan serve` runs
(`uvicorn service.main:app`), configured from `TAN_*` environment variables
(`service.settings`). The web page is served at `/`, the API under `/v1`,
its manual at `/docs`: Swagger UI from the files the `fastapi-offline` package
ships, so it works with no outside network (no `/redoc`: ReDoc fetches its logo
from outside).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import Depends, FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import FileResponse
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from starlette.types import ASGIApp

from service.capacity import CapacityGate
from service.deps import Services, json_body, services_of, takes_body
from service.errors import error_responses, install_error_handlers
from service.metrics import Metrics, MetricsMiddleware
from service.middleware import BodyLimitMiddleware, SecurityHeadersMiddleware
from service.routers import followed, games, jobs, positions, puzzles, reviews, rules
from service.routers import service as service_router
from service.settings import Settings, get_settings
from service.version import VERSION

__all__ = ["VERSION", "app", "create_app"]

STATIC = Path(__file__).resolve().parent / "static"
log = logging.getLogger("service")

DESCRIPTION = """
Tấn answers which move is best in a game of **bài Tấn / Durak**, from what one
player can see (a *position*, docs/api.md §2.2), and plays stored games against engines.

* **Positions**: `POST /v1/moves`, `POST /v1/hint`, `POST /v1/evaluate`.
* **Games**: `POST /v1/games` deals; each human seat gets a secret token to send as
  `Authorization: Bearer <token>` when it reads its view, moves or asks a hint.
* **Moves** are JSON (`{"action": "defend", "card": "9c", "target": "7c"}`) or text
  (`defend 7c with 9c`, `attack 7c`, `take`, `pass`, `transfer 7h`).
* **Errors** are `{"detail": "...", "code": "..."}`: 422 for bad input with a stable
  code, 401/403 for tokens, 404 for unknown games, 409 for a move behind the game,
  413 for large bodies, 429 for too many games or requests at once, 503 with
  `Retry-After` when every search slot is busy and the queue is full, or the store
  cannot be used.
"""

ROUTERS = (
    service_router.router, rules.router, positions.router, followed.router, games.router, reviews.router,
    jobs.router, puzzles.router,
)
"""The API's routers, included as they are (their routes carry their full paths)."""

TAGS = [
    {"name": "positions", "description": "legal moves, hints and evaluations of a position"},
    {"name": "games", "description": "games stored on the server, against engines or people"},
    {"name": "reviews", "description": "post-game reviews, queued as jobs"},
    {"name": "jobs", "description": "a queued review's progress and answer"},
    {"name": "puzzles", "description": "positions where one move is clearly best, from games"},
    {"name": "rules", "description": "presets and options"},
    {"name": "service", "description": "health and metrics"},
]


def create_app(settings: Settings | None = None) -> FastAPI:
    """A new app with its own settings, metrics, search pool and game store."""
    settings = settings or get_settings()
    metrics = Metrics()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        services = services_of(app)  # open the store and the pool before the first request
        services.jobs.wake = asyncio.Event()  # of this loop
        workers = services.workers(settings.job_workers)
        tasks = [asyncio.create_task(_sweep(services))] + [asyncio.create_task(w.run()) for w in workers]
        try:
            yield
        finally:
            for worker in workers:
                worker.stopping.set()
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            started = getattr(app.state, "services", None)
            if started is not None:
                del app.state.services  # a later start opens them anew
                started.stop()

    app = FastAPIOffline(
        redoc_url=None,
        title="Tấn",
        summary="Solver and hint service for bài Tấn / Durak",
        description=DESCRIPTION,
        version=VERSION,
        openapi_tags=TAGS,
        lifespan=lifespan,
        dependencies=[Depends(json_body)],
    )
    app.state.settings = settings
    app.state.metrics = metrics
    install_error_handlers(app)
    for router in ROUTERS:
        for route in router.routes:
            if takes_body(route):
                # Any body may be one the server cannot read (not UTF-8) or not JSON at all.
                assert isinstance(route, APIRoute)
                route.responses = {**error_responses(400, 415), **route.responses}
        app.include_router(router)

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        """The web page: play against the engines, with hints (its script and style are under /static)."""
        return FileResponse(STATIC / "index.html", media_type="text/html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # Added innermost first: metrics count every request, even one refused for
    # its size or for want of a search slot.
    app.add_middleware(
        BodyLimitMiddleware, max_bytes=settings.max_body_bytes, timeout_s=settings.body_timeout_s
    )
    app.add_middleware(
        CapacityGate,
        pool=lambda: services_of(app).pool,
        routes=lambda: [route for router in ROUTERS for route in router.routes],
    )
    if settings.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=settings.cors_origins,
            allow_methods=["GET", "POST"],
            allow_headers=["Authorization", "Content-Type"],
        )
    app.add_middleware(MetricsMiddleware, metrics=metrics)
    _outermost(app, SecurityHeadersMiddleware)
    return app


async def _sweep(services: Services) -> None:
    """Delete expired games now and every `sweep_interval_s` (docs/api.md §3, "Storage"); a sweep
    that fails (the store unavailable) is logged and tried again at the next one."""
    while True:
        try:
            await services.games.sweep()
            await services.jobs.sweep()
        except Exception:
            log.exception("the sweep of expired games failed")
        await asyncio.sleep(services.settings.sweep_interval_s)


def _outermost(app: FastAPI, middleware: Callable[[ASGIApp], ASGIApp]) -> None:
    """Wrap `middleware` around the whole stack, Starlette's error middleware included, so that
    even a 500 carries what it adds (`add_middleware` puts it inside that one)."""
    build = app.build_middleware_stack

    def build_wrapped() -> ASGIApp:
        return middleware(build())

    app.build_middleware_stack = build_wrapped  # type: ignore[method-assign]


app = create_app()
