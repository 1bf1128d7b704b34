"""The bounded search pool: searches run off the event loop, at most `max_searches` at once.

The Cython search releases the GIL, so two searches in two worker threads use
two cores. A request that finds every slot busy is refused at once with 503
and `Retry-After` — nothing waits in an unbounded queue. A slot is freed when
its search really ends, not when its client goes away, so the number of busy
cores never exceeds the setting.

Search threads run at a lower CPU priority (`nice`, Linux) than the event loop,
so when searches fill every core the loop still answers promptly — a 503 to
one client must not wait behind another client's search.

`CapacityGate` refuses search requests while every slot is busy before their
body is even read, so an overloaded server spends its time searching rather
than validating requests it cannot serve.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

from starlette.types import ASGIApp, Receive, Scope, Send

from service.errors import ApiError
from service.metrics import Metrics
from solver.game.errors import ErrorCode

__all__ = ["CapacityGate", "SearchPool"]

T = TypeVar("T")


class SearchPool:
    """A fixed number of search slots over a thread pool of the same size."""

    def __init__(self, slots: int, retry_after_s: int, metrics: Metrics, nice: int = 0) -> None:
        self.slots = slots
        self.retry_after_s = retry_after_s
        self.metrics = metrics
        self._free = threading.BoundedSemaphore(slots)
        self._count_lock = threading.Lock()
        self._running = 0
        self._executor = ThreadPoolExecutor(
            max_workers=slots, thread_name_prefix="tan-search", initializer=_lower_priority, initargs=(nice,)
        )
        metrics.search_slots.set(slots)

    @property
    def full(self) -> bool:
        return self._running >= self.slots

    def busy_error(self) -> ApiError:
        self.metrics.searches_rejected.inc()
        return ApiError(ErrorCode.BUSY,
            f"all {self.slots} search slots are busy; retry in {self.retry_after_s} s",
            {"Retry-After": str(self.retry_after_s)},
        )

    @property
    def running(self) -> int:
        """Slots in use now."""
        return self._running

    def _count(self, step: int) -> None:
        with self._count_lock:
            self._running += step
        self.metrics.searches_running.inc(step)

    def _release(self, _future: Future[Any]) -> None:
        self._count(-1)
        self._free.release()

    def submit(self, work: Callable[[], T]) -> Future[T]:
        """Start `work` in a free slot, or raise the busy `ApiError` (503) when there is none."""
        if not self._free.acquire(blocking=False):
            raise self.busy_error()
        self._count(+1)
        try:
            future = self._executor.submit(work)
        except BaseException:
            self._count(-1)
            self._free.release()
            raise
        future.add_done_callback(self._release)
        return future

    async def run(self, work: Callable[[], T]) -> T:
        """Run `work` in a slot and wait for it without blocking the event loop."""
        return await asyncio.wrap_future(self.submit(work))

    def shutdown(self) -> None:
        """Drop searches not yet started and wait for the running ones (each is time-capped)."""
        self._executor.shutdown(wait=True, cancel_futures=True)


def _lower_priority(nice: int) -> None:
    """Make this (search) thread `nice` steps less urgent than the event loop (Linux only)."""
    if nice <= 0 or not hasattr(os, "setpriority"):
        return
    with contextlib.suppress(OSError):  # not permitted here: searches run at the loop's priority
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), os.getpriority(os.PRIO_PROCESS, 0) + nice)


class CapacityGate:
    """Answer 503 at once to a search request (`POST /v1/hint`, `POST /v1/evaluate`,
    `POST /v1/analyze`, `GET /v1/games/{id}/hint`, `GET /v1/games/{id}/analysis`) while every
    search slot is busy, before reading its body."""

    def __init__(self, app: ASGIApp, pool: Callable[[], SearchPool]) -> None:
        self.app = app
        self.pool = pool

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and _is_search(scope.get("method", ""), scope.get("path", "")):
            pool = self.pool()
            if pool.full:
                error = pool.busy_error()
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


def _is_search(method: str, path: str) -> bool:
    if method == "POST":
        return path in ("/v1/hint", "/v1/evaluate", "/v1/analyze")
    return method == "GET" and path.startswith("/v1/games/") and path.endswith(("/hint", "/analysis"))
