"""Players with no look-ahead: `random` (the floor) and `greedy` (the search's policy)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from solver.core import decode_move
from solver.game.moves import Move
from solver.game.position import Position
from solver.search import _greedy, prepare
from solver.search.beliefs import History

__all__ = ["GreedyPlayer", "RandomPlayer"]


@dataclass
class RandomPlayer:
    """Uniformly random legal moves: the floor every engine must beat."""

    name: str = "random"

    def choose(self, position: Position, seed: int = 0, history: History | None = None) -> Move:
        return random.Random(seed).choice(position.legal_moves())


@dataclass
class GreedyPlayer:
    """A sensible human heuristic with no look-ahead: the search's greedy policy.

    Shed low plain cards, defend each card with the cheapest card that beats it,
    keep trumps (and take instead of spending a high trump while the stock is
    still large), throw in cheap cards, transfer with a plain card. The policy
    is defined once, in the Cython search (`greedy_move` in `_greedy.pxd`),
    where it also drives the playouts and models the other seats; it reads only
    what the seat to move can see, so any world consistent with the position
    gives the same move.
    """

    name: str = "greedy"

    def choose(self, position: Position, seed: int = 0, history: History | None = None) -> Move:
        return decode_move(_greedy.greedy_code(prepare(position).world()))
