"""Reading request bodies off the event loop: a bounded pool of parse threads.

A record or a position is read into the solver's objects in pure Python: a 62 KB
record takes about 50 ms. Done in a handler on the event loop, eight clients
sending such records held the loop for most of every second, and `/healthz`
waited behind them (its p99 went from 55 ms to 755 ms, issue 64). So handlers
hand that work to `ParsePool.run`: at most `TAN_PARSE_THREADS` threads read
bodies at once, the rest wait their turn in its queue (a wait on the loop costs
nothing), and the loop stays free to answer everything else. The threads still
share the interpreter's lock with the loop, which takes it back within the
switch interval (5 ms), so a probe waits a few intervals instead of a whole
parse; and since reading holds that lock, each thread more takes it from the
loop more often: one by default (docs/deploy.md gives the figures).

Search work (a replay, a search) runs in the search slots (`service.capacity`),
never here: this pool only reads what was sent, before a slot is taken, so a
malformed body is still refused at once without one.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

__all__ = ["ParsePool"]

P = ParamSpec("P")
T = TypeVar("T")


class ParsePool:
    """`threads` threads that read request bodies; `run` waits for one without blocking the loop."""

    def __init__(self, threads: int) -> None:
        self.threads = threads
        self._executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="tan-parse")

    async def run(self, work: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """`work(*args, **kwargs)` in a parse thread, once one is free; its answer, or its error."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, functools.partial(work, *args, **kwargs))

    def shutdown(self) -> None:
        """Let the threads finish what they read and go (a parse is short: nothing to stop)."""
        self._executor.shutdown(wait=True, cancel_futures=True)
