"""The search engines as players: `ismcts` and `pimc` under limits per move."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from solver.game.moves import Move
from solver.game.position import Position
from solver.search import Limits, Solver

__all__ = ["SearchPlayer"]


@dataclass
class SearchPlayer:
    """An engine that searches every move with `Solver` under `limits`."""

    algorithm: str = "ismcts"
    limits: Limits = field(default_factory=lambda: Limits(iterations=None, time_ms=100))
    threads: int = 1
    options: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.solver = Solver(self.algorithm, threads=self.threads, **self.options)

    @property
    def name(self) -> str:
        return self.algorithm

    def choose(self, position: Position, seed: int = 0) -> Move:
        return self.solver.hint(position, self.limits, seed=seed).best
