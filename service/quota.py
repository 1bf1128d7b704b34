"""A cap on how many requests of one key (a game, a client) are at work at once.

A request over the cap is answered 429 `too_many_requests` with `Retry-After` at
once, rather than waiting: the cap is there so that one game or one client cannot
pile work up in front of everybody else.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator

from service.errors import ApiError, ServiceCode

__all__ = ["Quota", "refuse"]


def refuse(
    key: str, cap: int, retry_after_s: int, refusal: Callable[[str, int], str],
    refused: Callable[[], None] | None,
) -> ApiError:
    """The 429 for one holder too many of `key` (counted by `refused`, if given): the one answer
    of every quota, in this process or shared by replicas (service/leases.py)."""
    if refused is not None:
        refused()
    retry = str(retry_after_s)
    return ApiError(
        ServiceCode.TOO_MANY_REQUESTS, f"{refusal(key, cap)}; retry in {retry} s", {"Retry-After": retry}
    )


class Quota:
    """At most `cap` holders per key; `refusal(key, cap)` says why the next one is refused, and
    `refused()` (if given) is called for each refusal (a metric)."""

    def __init__(
        self,
        cap: int,
        retry_after_s: int,
        refusal: Callable[[str, int], str],
        refused: Callable[[], None] | None = None,
    ) -> None:
        self.cap = cap
        self.retry_after_s = retry_after_s
        self.refusal = refusal
        self.refused = refused
        self._lock = threading.Lock()
        self._held: dict[str, int] = {}

    def held(self, key: str) -> int:
        """How many hold `key` now."""
        return self._held.get(key, 0)

    @contextlib.contextmanager
    def holding(self, key: str) -> Iterator[None]:
        """Hold one of `key`'s places while the block runs, or raise the 429 `ApiError` at once."""
        with self._lock:
            held = self._held.get(key, 0)
            if held >= self.cap:
                raise refuse(key, self.cap, self.retry_after_s, self.refusal, self.refused)
            self._held[key] = held + 1
        try:
            yield
        finally:
            with self._lock:
                left = self._held.pop(key) - 1
                if left:
                    self._held[key] = left
