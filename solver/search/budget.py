"""A search's budget: `Limits` (iterations, time, or both, whichever comes first, docs/api.md §3)
and the `StopFlag` that ends a search early."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from solver.game.errors import ErrorCode, TanError

__all__ = ["Limits", "LimitsError", "StopFlag"]


class LimitsError(TanError):
    """Limits that cannot be searched with."""

    code = ErrorCode.BAD_LIMITS


@dataclass(frozen=True)
class Limits:
    """Stop after `iterations` or `time_ms`, whichever comes first (docs/api.md §3)."""

    iterations: int | None = 10_000
    time_ms: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is None and self.time_ms is None:
            raise LimitsError("limits need iterations, time_ms or both")
        if self.iterations is not None and (
            isinstance(self.iterations, bool) or not isinstance(self.iterations, int) or self.iterations < 1
        ):
            raise LimitsError(f"iterations must be a positive whole number, not {self.iterations!r}")
        if self.time_ms is not None and (
            isinstance(self.time_ms, bool)
            or not isinstance(self.time_ms, int | float)
            or not math.isfinite(self.time_ms)
            or self.time_ms <= 0
        ):
            raise LimitsError(f"time_ms must be a positive number, not {self.time_ms!r}")

    @classmethod
    def from_json(cls, data: Any) -> Limits:
        if data is None:
            return cls()
        if isinstance(data, Limits):
            return data
        if not isinstance(data, dict):
            raise LimitsError(f"limits must be an object, not {data!r}")
        extra = set(data) - {"iterations", "time_ms"}
        if extra:
            raise LimitsError(f"unknown field(s) in limits: {', '.join(sorted(extra))}")
        return cls(iterations=data.get("iterations"), time_ms=data.get("time_ms"))

    def capped(self, max_iterations: int, max_time_ms: float) -> Limits:
        """These limits within a server's caps."""
        iterations = min(self.iterations or max_iterations, max_iterations)
        time_ms = min(self.time_ms or max_time_ms, max_time_ms)
        return Limits(iterations=iterations, time_ms=time_ms)

    def to_json(self) -> dict[str, Any]:
        return {"iterations": self.iterations, "time_ms": self.time_ms}


class StopFlag:
    """Stop a running search from another thread: `set()` makes the search end within an
    iteration (an exact solve within a few thousand nodes) with what it has found so far.

    The flag is one byte the Cython search reads while it runs without the GIL (its `buffer`);
    a service sets it when the client hangs up or the server stops.
    """

    __slots__ = ("buffer",)

    def __init__(self) -> None:
        self.buffer = bytearray(1)

    def set(self) -> None:
        self.buffer[0] = 1

    def is_set(self) -> bool:
        return bool(self.buffer[0])
