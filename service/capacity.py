"""The bounded search pool: searches run off the event loop, at most `max_searches` at once.

The Cython search releases the GIL, so two searches in two worker threads use
two cores. A request that finds every slot busy is refused at once with 503
and `Retry-After` — nothing waits in an unbounded queue. A slot is freed when
its search really ends, not when its client goes away, so the number of busy
cores never exceeds the setting.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

from service.errors import ApiError
from service.metrics import Metrics

__all__ = ["SearchPool"]

T = TypeVar("T")


class SearchPool:
    """A fixed number of search slots over a thread pool of the same size."""

    def __init__(self, slots: int, retry_after_s: int, metrics: Metrics) -> None:
        self.slots = slots
        self.retry_after_s = retry_after_s
        self.metrics = metrics
        self._free = threading.BoundedSemaphore(slots)
        self._count_lock = threading.Lock()
        self._running = 0
        self._executor = ThreadPoolExecutor(max_workers=slots, thread_name_prefix="tan-search")
        metrics.search_slots.set(slots)

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
        """Start `work` in a free slot, or raise `ApiError(503)` when there is none."""
        if not self._free.acquire(blocking=False):
            self.metrics.searches_rejected.inc()
            raise ApiError(
                503,
                "busy",
                f"all {self.slots} search slots are busy; retry in {self.retry_after_s} s",
                {"Retry-After": str(self.retry_after_s)},
            )
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
