"""Prometheus metrics (`GET /metrics`) and the ASGI middleware that feeds them.

Each app has its own registry, so several apps in one process (tests) do not
collide. Routes are labelled by their template (`/v1/games/{game_id}`), never
by the raw path, so the label set stays small.
"""

from __future__ import annotations

import math
import time

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.store import GameStore, StorageUnavailableError

__all__ = ["Metrics", "MetricsMiddleware"]

_LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
_RATE_BUCKETS = (1e3, 1e4, 5e4, 1e5, 2e5, 4e5, 6e5, 8e5, 1e6, 2e6, 5e6)


class Metrics:
    """The service's counters, gauges and histograms in one registry."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.requests = Counter(
            "tan_http_requests",
            "HTTP requests answered, by method, route template and status",
            ["method", "route", "status"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "tan_http_request_seconds",
            "HTTP request latency, by method and route template",
            ["method", "route"],
            buckets=_LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.searches_running = Gauge(
            "tan_searches_running", "searches running now (hints, evaluations, engine moves)",
            registry=self.registry,
        )
        self.searches_waiting = Gauge(
            "tan_searches_waiting", "search requests waiting in the queue for a slot", registry=self.registry
        )
        self.search_slots = Gauge(
            "tan_search_slots", "searches that may run at once (setting max_searches)", registry=self.registry
        )
        self.searches_rejected = Counter(
            "tan_searches_rejected",
            "searches refused with 503: every slot busy and the queue full, or no slot within the wait",
            registry=self.registry,
        )
        self.searches = Counter(
            "tan_searches", "searches finished, by kind (hint, evaluate, engine)", ["kind"],
            registry=self.registry,
        )
        self.search_iterations = Counter(
            "tan_search_iterations", "search iterations run (rate() of this is iterations per second)",
            registry=self.registry,
        )
        self.search_seconds = Counter(
            "tan_search_seconds", "seconds spent searching", registry=self.registry
        )
        self.iterations_per_s = Histogram(
            "tan_search_iterations_per_second", "iterations per second of each search",
            buckets=_RATE_BUCKETS, registry=self.registry,
        )
        self.games_created = Counter("tan_games_created", "games created", registry=self.registry)
        self.games_expired = Counter(
            "tan_games_expired", "games deleted by the sweep: finished, or abandoned mid-game",
            registry=self.registry,
        )
        self.games_stored = Gauge(
            "tan_games_stored", "games in the store at the last sweep, by status (playing, over)", ["status"],
            registry=self.registry,
        )
        self.database_bytes = Gauge(
            "tan_database_bytes",
            "size of the game store: the SQLite file and its write-ahead log, or the PostgreSQL tables",
            registry=self.registry,
        )
        self.database_connections = Gauge(
            "tan_database_connections",
            "connections of the PostgreSQL store's pool, by state (size: open, idle, waiting: requests "
            "waiting for one); 0 on SQLite",
            ["state"],
            registry=self.registry,
        )
        self.jobs_submitted = Counter(
            "tan_jobs_submitted", "review jobs queued, by kind (analyze, review)", ["kind"],
            registry=self.registry,
        )
        self.jobs_finished = Counter(
            "tan_jobs_finished", "review jobs this process's workers finished, by status (done, failed)",
            ["status"], registry=self.registry,
        )
        self.jobs_storage_retries = Counter(
            "tan_jobs_storage_retries",
            "reads and writes of this process's workers that found the store out of reach and were tried "
            "again (a job is never failed for it)",
            registry=self.registry,
        )
        self.jobs_stored = Gauge(
            "tan_jobs_stored",
            "review jobs in the store at the last sweep, by status (queued, running, done, failed): queued "
            "is the backlog that sizes the workers",
            ["status"],
            registry=self.registry,
        )
        self.moves_played = Counter(
            "tan_moves_played", "moves played in stored games, by who played (human, engine)", ["by"],
            registry=self.registry,
        )

    def watch_store(self, store: GameStore) -> None:
        """Read the store's size and its pool's connections at each scrape; a store that cannot be
        read then shows NaN bytes (`/readyz` says why)."""

        def size() -> float:
            try:
                return float(store.size())
            except StorageUnavailableError:
                return math.nan

        self.database_bytes.set_function(size)
        for state in ("size", "idle", "waiting"):
            self.database_connections.labels(state).set_function(
                lambda state=state: float(store.pool_stats().get(state, 0))  # type: ignore[misc]
            )

    def record_search(self, kind: str, iterations: int, time_ms: float) -> None:
        self.searches.labels(kind).inc()
        self.search_iterations.inc(iterations)
        self.search_seconds.inc(time_ms / 1000.0)
        if time_ms > 0:
            self.iterations_per_s.observe(iterations / (time_ms / 1000.0))


class MetricsMiddleware:
    """Counts every HTTP request and times it, labelled by the matched route's template."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 500

        async def send_and_note(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, send_and_note)
        finally:
            route = scope.get("route")
            template = getattr(route, "path", None) or "unmatched"
            method = scope.get("method", "")
            self.metrics.requests.labels(method, template, str(status)).inc()
            self.metrics.latency.labels(method, template).observe(time.perf_counter() - start)
