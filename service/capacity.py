"""The bounded search pool: searches run off the event loop, at most `max_searches` at once,
with a short queue in front.

The Cython search releases the GIL, so two searches in two worker threads use
two cores. A request that finds every slot busy waits in a queue of at most
`queue_size` requests, first come first served, for at most `queue_wait_s`;
past that deadline, or when the queue is full, it is answered 503 with
`Retry-After`. So a burst a little larger than the pool is served in turn
rather than refused, and nothing waits without bound.

Every search gets a stop flag (`solver.search.StopFlag`): set when the client
hangs up (the pool watches the request while it waits and while it searches)
and when the server shuts down, so an abandoned search frees its slot at once.
A slot is freed when its search really ends, so the number of busy cores never
exceeds the setting.

Search threads run at a lower CPU priority (`nice`, Linux) than the event loop,
so when searches fill every core the loop still answers promptly — a 503 to
one client must not wait behind another client's search.

`CapacityGate` refuses search requests while the queue is full before their
body is even read, so an overloaded server spends its time searching rather
than validating requests it cannot serve. A search endpoint says so on its
route (`openapi_extra=SEARCH_ROUTE`, shown in the OpenAPI as `x-search-slot`);
the gate asks the routes, not a list of paths.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import threading
from collections import deque
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

from starlette.requests import Request
from starlette.routing import BaseRoute, Match
from starlette.types import ASGIApp, Receive, Scope, Send

from service.errors import ApiError, ServiceCode
from service.leases import LocalQuota, Places
from service.metrics import Metrics
from service.quota import Quota
from solver.search import StopFlag

__all__ = ["SEARCH_ROUTE", "CapacityGate", "SearchPool", "is_search_route"]

T = TypeVar("T")

SEARCH_ROUTE: dict[str, Any] = {"x-search-slot": True}
"""A route's `openapi_extra` that marks it a search endpoint: it takes a slot of the search pool,
so `CapacityGate` refuses it at once while the pool and its queue are full."""


def is_search_route(route: BaseRoute) -> bool:
    """Whether `route` is marked a search endpoint (`SEARCH_ROUTE`)."""
    extra = getattr(route, "openapi_extra", None) or {}
    return bool(extra.get("x-search-slot"))


class SearchPool:
    """`slots` search slots over a thread pool of the same size, and a queue of `queue_size`
    requests that wait at most `queue_wait_s` seconds for one."""

    def __init__(
        self,
        slots: int,
        retry_after_s: int,
        metrics: Metrics,
        nice: int = 0,
        queue_size: int = 0,
        queue_wait_s: float = 0.0,
        per_client: int = 0,
        clients: Places | None = None,
    ) -> None:
        self.slots = slots
        self.per_client = per_client
        self.retry_after_s = retry_after_s
        self.metrics = metrics
        self.queue_size = queue_size
        self.queue_wait_s = queue_wait_s
        self._lock = threading.Lock()  # guards the counts, the queue and the flags
        self._running = 0
        self._queue: deque[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]] = deque()
        self._flags: set[StopFlag] = set()
        # Searches running or queued, by client address (`clients`: counted by every replica).
        self._clients = clients or LocalQuota(Quota(
            per_client,
            retry_after_s,
            lambda _client, cap: f"this client already has {cap} searches running or waiting",
            metrics.searches_rejected.inc,
        ))
        self._executor = ThreadPoolExecutor(
            max_workers=slots, thread_name_prefix="tan-search", initializer=_lower_priority, initargs=(nice,)
        )
        metrics.search_slots.set(slots)

    @property
    def full(self) -> bool:
        """Every slot busy and the queue full: a new request would be refused at once."""
        return self._running >= self.slots and len(self._queue) >= self.queue_size

    @property
    def running(self) -> int:
        """Slots in use now."""
        return self._running

    @property
    def waiting(self) -> int:
        """Requests in the queue now."""
        return len(self._queue)

    def busy_error(self, why: str = "") -> ApiError:
        self.metrics.searches_rejected.inc()
        return ApiError(
            ServiceCode.BUSY,
            f"all {self.slots} search slots are busy{why}; retry in {self.retry_after_s} s",
            {"Retry-After": str(self.retry_after_s)},
        )

    def searches_of(self, client: str) -> int:
        """Searches of `client` running or queued now."""
        return self._clients.held(client)

    def _client_share(self, client: str | None) -> contextlib.AbstractAsyncContextManager[None]:
        """Count one search of `client` while the block runs: 429 at once past `per_client`."""
        if client is None or self.per_client <= 0:
            return contextlib.nullcontext()
        return self._clients.holding(client)

    # -- slots --------------------------------------------------------------------------------

    def _take(self) -> bool:
        """Take a free slot if there is one and nobody is queued before us."""
        with self._lock:
            return self._take_locked()

    def _take_locked(self) -> bool:
        if self._running < self.slots and not self._queue:
            self._running += 1
            self.metrics.searches_running.set(self._running)
            return True
        return False

    def _release(self) -> None:
        """Free a slot, or hand it straight to the first request still waiting in the queue."""
        with self._lock:
            while self._queue:
                loop, waiter = self._queue.popleft()
                self.metrics.searches_waiting.set(len(self._queue))
                if not waiter.done():
                    loop.call_soon_threadsafe(self._grant, waiter)
                    return  # the slot passes on: `_running` is unchanged
            self._running -= 1
            self.metrics.searches_running.set(self._running)

    def _grant(self, waiter: asyncio.Future[None]) -> None:
        if waiter.done():  # it gave up (its deadline, or its client) as the slot came: pass it on
            self._release()
        else:
            waiter.set_result(None)

    async def _wait_for_slot(self) -> None:
        """Queue for a slot: 503 at once if the queue is full, or once `queue_wait_s` has passed."""
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[None] = loop.create_future()
        with self._lock:
            if self._take_locked():
                return
            if len(self._queue) >= self.queue_size:
                raise self.busy_error(" and the queue is full" if self.queue_size else "")
            self._queue.append((loop, waiter))
            self.metrics.searches_waiting.set(len(self._queue))
        try:
            await asyncio.wait_for(waiter, self.queue_wait_s)
        except TimeoutError:
            self._leave(waiter)
            raise self.busy_error(f" and none came free within {self.queue_wait_s:g} s") from None
        except BaseException:
            self._leave(waiter)
            raise

    def _leave(self, waiter: asyncio.Future[None]) -> None:
        with self._lock:
            for entry in self._queue:
                if entry[1] is waiter:
                    self._queue.remove(entry)
                    self.metrics.searches_waiting.set(len(self._queue))
                    break

    # -- running work -------------------------------------------------------------------------

    def _start(self, work: Callable[[StopFlag], T], stop: StopFlag) -> Future[T]:
        """Run `work` in the slot already taken; the slot is freed when it ends."""
        with self._lock:
            self._flags.add(stop)

        def done(_future: Future[Any]) -> None:
            with self._lock:
                self._flags.discard(stop)
            self._release()

        try:
            future = self._executor.submit(work, stop)
        except BaseException:
            done(Future())
            raise
        future.add_done_callback(done)
        return future

    def submit(self, work: Callable[[], T]) -> Future[T]:
        """Start `work` in a free slot without queueing, or raise the busy `ApiError` (503)."""
        if not self._take():
            raise self.busy_error()
        return self._start(lambda _stop: work(), StopFlag())

    async def run(
        self, work: Callable[[StopFlag], T], request: Request | None = None, client: str | None = None
    ) -> T:
        """Wait in the queue for a slot, run `work(stop)` there and wait for it without blocking the
        event loop. `stop` is set if the `request`'s client hangs up meanwhile (the search then
        ends at once; the answer goes nowhere), if this wait is cancelled, or when the server
        shuts down. The search counts against its client's share (`client`, else the request's
        address) from the queue to its end."""
        stop = StopFlag()
        if client is None and request is not None and request.client is not None:
            client = request.client.host
        async with self._client_share(client):
            return await self._run(work, request, stop)

    async def _run(self, work: Callable[[StopFlag], T], request: Request | None, stop: StopFlag) -> T:
        async with _watching(request, stop):
            await self._wait_for_slot()
            try:
                return await asyncio.wrap_future(self._start(work, stop))
            except BaseException:  # cancelled (the server stopping): nobody waits for the answer
                stop.set()
                raise

    def shutdown(self) -> None:
        """Stop every running search (each ends within an iteration) and wait for them."""
        with self._lock:
            for flag in self._flags:
                flag.set()
        self._executor.shutdown(wait=True, cancel_futures=True)


@contextlib.asynccontextmanager
async def _watching(request: Request | None, stop: StopFlag) -> AsyncIterator[None]:
    """Set `stop` if the request's client hangs up while the block runs. (Its body has been read
    by then, so the next ASGI message is the disconnect.)"""
    if request is None:
        yield
        return

    async def watch() -> None:
        while True:
            message = await request.receive()
            if message["type"] == "http.disconnect":
                stop.set()
                return

    watcher = asyncio.create_task(watch())
    try:
        yield
    finally:
        watcher.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await watcher


def _lower_priority(nice: int) -> None:
    """Make this (search) thread `nice` steps less urgent than the event loop (Linux only)."""
    if nice <= 0 or not hasattr(os, "setpriority"):
        return
    with contextlib.suppress(OSError):  # not permitted here: searches run at the loop's priority
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), os.getpriority(os.PRIO_PROCESS, 0) + nice)


class CapacityGate:
    """Answer 503 at once to a search request (one to a route of `routes` marked `SEARCH_ROUTE`)
    while every search slot is busy and the queue is full, before reading its body."""

    def __init__(
        self, app: ASGIApp, pool: Callable[[], SearchPool], routes: Callable[[], Sequence[BaseRoute]]
    ) -> None:
        self.app = app
        self.pool = pool
        self.routes = routes
        self._searches: list[BaseRoute] | None = None

    def _is_search(self, scope: Scope) -> bool:
        if self._searches is None:  # the app's routes are all in place by its first request
            self._searches = [route for route in self.routes() if is_search_route(route)]
        return any(route.matches(scope)[0] is Match.FULL for route in self._searches)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and self._is_search(scope):
            pool = self.pool()
            if pool.full:
                error = pool.busy_error(" and the queue is full" if pool.queue_size else "")
                payload = json.dumps({"detail": error.detail, "code": error.code}).encode()
                headers = [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(payload)).encode()),
                ]
                headers += [(name.lower().encode(), value.encode()) for name, value in error.headers.items()]
                await send({"type": "http.response.start", "status": 503, "headers": headers})
                await send({"type": "http.response.body", "body": payload})
                return
        await self.app(scope, receive, send)
