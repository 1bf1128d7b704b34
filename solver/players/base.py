"""What every player is: something that picks a move from one seat's position."""

from __future__ import annotations

from typing import Protocol

from solver.game.moves import Move
from solver.game.position import Position
from solver.search.beliefs import History

__all__ = ["Player"]


class Player(Protocol):
    """Anything that picks a move for the seat to move of a position."""

    @property
    def name(self) -> str: ...

    def choose(self, position: Position, seed: int = 0, history: History | None = None) -> Move:
        """The move for `position`'s seat; `history` is what it saw the others do
        (`solver.search.beliefs.HistoryReader`), for players that read it."""
        ...
