"""What handlers depend on, as `Annotated` aliases: the app's services and a seat's bearer token;
and what every operation depends on: a body, where it takes one, sent as JSON (`json_body`)."""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass
from email.message import Message
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Request
from fastapi.routing import APIRoute
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from service.capacity import SearchPool
from service.engine import Searcher
from service.errors import ApiError, ServiceCode
from service.games import GameManager
from service.jobs import JobQueue, Worker
from service.leases import places
from service.metrics import Metrics
from service.parsing import ParsePool
from service.settings import Settings
from service.store import GameStore, PostgresStore, SqliteStore, is_database_url

__all__ = ["Services", "ServicesDep", "TokenDep", "json_body", "services_of", "takes_body"]


@dataclass
class Services:
    """Everything one app instance owns: settings, metrics, the search pool, the game store, the
    threads that read request bodies."""

    settings: Settings
    metrics: Metrics
    pool: SearchPool
    searcher: Searcher
    store: GameStore
    games: GameManager
    jobs: JobQueue
    parsing: ParsePool

    @classmethod
    def start(cls, settings: Settings, metrics: Metrics) -> Services:
        store = open_store(settings)
        clients = places(  # searches of one client, counted by every replica on PostgreSQL
            store, "searches", settings.max_searches_per_client, settings.retry_after_s, settings.lease_s,
            lambda _client, cap: f"this client already has {cap} searches running or waiting",
            metrics.searches_rejected.inc,
        )
        pool = SearchPool(
            settings.max_searches, settings.retry_after_s, metrics, settings.search_nice, settings.queue_size,
            settings.queue_wait_s, settings.max_searches_per_client, clients,
        )
        searcher = Searcher(settings, metrics)
        metrics.watch_store(store)
        games = GameManager(store, searcher, pool, metrics, settings)
        jobs = JobQueue(store, searcher, settings, metrics, pool)
        return cls(settings, metrics, pool, searcher, store, games, jobs, ParsePool(settings.parse_threads))

    def workers(self, count: int) -> list[Worker]:
        """`count` job workers in this process, in its search pool, woken when it queues a job."""
        return [
            Worker(self.store, self.searcher, self.pool, self.settings, self.metrics, self.jobs.wake)
            for _ in range(count)
        ]

    def stop(self) -> None:
        self.pool.shutdown()
        self.parsing.shutdown()
        self.store.close()


def open_store(settings: Settings) -> GameStore:
    """The store `settings.database` names: PostgreSQL for a URL, else the SQLite file."""
    if is_database_url(settings.database):
        return PostgresStore(
            str(settings.database), settings.database_connections, settings.database_timeout_s
        )
    return SqliteStore(settings.database, settings.database_timeout_s)


_starting = threading.Lock()


def services_of(app: FastAPI) -> Services:
    """The app's services, started on first use if the lifespan has not started them."""
    services: Services | None = getattr(app.state, "services", None)
    if services is None:
        with _starting:
            services = getattr(app.state, "services", None)
            if services is None:
                services = Services.start(app.state.settings, app.state.metrics)
                app.state.services = services
    return services


async def _services(request: Request) -> Services:
    return services_of(request.app)


_bearer = HTTPBearer(
    auto_error=False,
    description="the seat's token from POST /v1/games, as `Authorization: Bearer <token>`",
)


async def _token(credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]) -> str | None:
    return credentials.credentials if credentials is not None else None


def takes_body(route: object) -> bool:
    """Whether the route is an operation that reads a JSON body."""
    return isinstance(route, APIRoute) and route.body_field is not None


async def json_body(request: Request) -> None:
    """415 `unsupported_media_type` for a body sent to an operation that takes one, unless its
    `Content-Type` says JSON (`application/json` or `application/…+json`, as FastAPI reads it);
    without it the body would be refused as a body of the wrong shape (docs/api.md §3, "Errors").
    An empty body is left to the operation: it is a missing body."""
    if not takes_body(request.scope.get("route")):
        return
    body = await request.body()
    if not body:
        return
    declared = request.headers.get("content-type")
    if declared:
        message = Message()
        message["content-type"] = declared
        kind, subtype = message.get_content_maintype(), message.get_content_subtype()
        if kind == "application" and (subtype == "json" or subtype.endswith("+json")):
            _refuse_lone_surrogates(body)
            return
    raise ApiError(
        ServiceCode.UNSUPPORTED_MEDIA_TYPE,
        f"the request body must be JSON sent with 'Content-Type: application/json', not {declared or 'none'}",
    )


# A surrogate can reach a JSON body only as an escape (UTF-8 cannot carry one): look for one first.
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def _refuse_lone_surrogates(body: bytes) -> None:
    """422 `invalid_request` for a string holding a lone surrogate (`"\\ud800"`): JSON lets it be
    written, but it is no character, so it could be stored and then never answered (a 500 on every
    later read). A pair that makes one character is text like any other."""
    if not _SURROGATE_ESCAPE.search(body):
        return
    try:
        value = json.loads(body)
    except ValueError:
        return  # not JSON: the operation's own validation says so
    where = lone_surrogate(value, "body")
    if where is not None:
        raise ApiError(
            ServiceCode.INVALID_REQUEST,
            f"{where}: text must be Unicode characters; a lone surrogate (\\ud800 to \\udfff) is none",
        )


def lone_surrogate(value: Any, path: str) -> str | None:
    """Where in a JSON value a string (or an object's key) holds a lone surrogate, or None."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return path
    elif isinstance(value, dict):
        for key, item in value.items():
            found = lone_surrogate(key, f"{path} (a key)") or lone_surrogate(item, f"{path}.{key}")
            if found is not None:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = lone_surrogate(item, f"{path}[{index}]")
            if found is not None:
                return found
    return None


ServicesDep = Annotated[Services, Depends(_services)]
TokenDep = Annotated[str | None, Depends(_token)]
