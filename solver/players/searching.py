"""The search engines as players: `ismcts`, `ismcts_playouts` and `pimc` under limits per move."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from solver.game.errors import ErrorCode, TanError
from solver.game.moves import Move
from solver.game.phases import Phase
from solver.game.position import Position
from solver.search import Limits, Solver
from solver.search.beliefs import History

__all__ = ["SETUP_CHOICES", "SearchPlayer"]

SETUP_CHOICES = ("search", "keep")


@dataclass
class SearchPlayer:
    """An engine that searches every move with `Solver` under `limits`: the preset called `engine`
    (`solver.search.config.PRESETS`) with `options` changed.

    `setup`: `search` (the default) searches the setup's decisions too; `keep` always
    keeps (never redeals, never swaps) — a baseline that measures what those
    decisions are worth (docs/rules.md §1.7).

    `sees_hands` (arenas only): the seat is shown every other hand, which no
    player can see — a ceiling on what reading the others' hands is worth.
    """

    engine: str = "ismcts"
    limits: Limits = field(default_factory=lambda: Limits(iterations=None, time_ms=100))
    threads: int = 1
    options: dict[str, Any] = field(default_factory=dict)
    setup: str = "search"
    sees_hands: bool = False

    last_score: float | None = field(default=None, init=False, repr=False)  # the last search's value
    # The last search's visits per root move (notation), the target a policy learns (expert iteration).
    last_visits: dict[str, int] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.setup not in SETUP_CHOICES:
            raise TanError(f"setup must be one of {', '.join(SETUP_CHOICES)}, not {self.setup!r}",
                           ErrorCode.UNKNOWN_ENGINE)
        self.solver = Solver(self.engine, threads=self.threads, **self.options)

    @property
    def name(self) -> str:
        return self.engine

    @property
    def reads_history(self) -> bool:
        """Whether `choose` weighs worlds by a history (the solver's beliefs are on)."""
        return self.solver.config.beliefs

    def choose(self, position: Position, seed: int = 0, history: History | None = None) -> Move:
        """The searched best move; `last_score` keeps the seat's expected score the search saw."""
        self.last_score = None
        self.last_visits = None
        if self.setup == "keep" and position.phase is Phase.SETUP and Move.keep() in position.legal_moves():
            return Move.keep()
        hint = self.solver.hint(position, self.limits, seed=seed, history=history)
        self.last_score = hint.evaluation.score
        self.last_visits = {value.move.notation: value.visits for value in hint.moves}
        return hint.best
