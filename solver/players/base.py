"""What every player is: something that picks a move from one seat's position."""

from __future__ import annotations

from typing import Protocol

from solver.game.moves import Move
from solver.game.position import Position

__all__ = ["Player"]


class Player(Protocol):
    """Anything that picks a move for the seat to move of a position."""

    @property
    def name(self) -> str: ...

    def choose(self, position: Position, seed: int = 0) -> Move: ...
