"""Players: `random`, `greedy` and the search engines `ismcts` and `pimc`.

Every player sees only a seat's position (SPEC §2.2) and answers a move, so an
engine can never peek at hidden cards. `make_player` reads the seat specs of
SPEC §3 (`"greedy"`, `{"engine": "ismcts", "limits": {...}}`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Protocol

from solver.search import _search
from solver.core._core import decode_move
from solver.game.errors import TanError
from solver.game.moves import Move
from solver.game.position import Position
from solver.search.solver import Limits, Solver, prepare

__all__ = ["ENGINES", "GreedyPlayer", "Player", "RandomPlayer", "SearchPlayer", "legal_moves", "make_player"]

ENGINES = ("ismcts", "pimc", "greedy", "random")


class Player(Protocol):
    """Anything that picks a move for the seat to move of a position."""

    @property
    def name(self) -> str: ...

    def choose(self, position: Position, seed: int = 0) -> Move: ...


def legal_moves(position: Position) -> list[Move]:
    """Legal moves of the position's seat (it must be to move); they never depend on hidden cards."""
    return prepare(position).legal


@dataclass
class RandomPlayer:
    """Uniformly random legal moves: the floor every engine must beat."""

    name: str = "random"

    def choose(self, position: Position, seed: int = 0) -> Move:
        return random.Random(seed).choice(legal_moves(position))


@dataclass
class GreedyPlayer:
    """A sensible human heuristic with no look-ahead: the search's greedy policy.

    Shed low plain cards, defend each card with the cheapest card that beats it,
    keep trumps (and take instead of spending a high trump while the stock is
    still large), throw in cheap cards, transfer with a plain card. The policy
    is defined once, in the Cython search (`greedy_move` in `_search.pyx`),
    where it also drives the playouts and models the other seats; it reads only
    what the seat to move can see, so any world consistent with the position
    gives the same move.
    """

    name: str = "greedy"

    def choose(self, position: Position, seed: int = 0) -> Move:
        root = prepare(position)
        return decode_move(_search.greedy_code(root.sampler.sample(0)))


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


def make_player(spec: str | dict[str, Any] | Player) -> Player:
    """A player from a seat spec: a name, or `{"engine": name, "limits": {...}, ...options}`."""
    if not isinstance(spec, str | dict):
        return spec
    data: dict[str, Any] = {"engine": spec} if isinstance(spec, str) else dict(spec)
    engine = data.pop("engine", None)
    limits = data.pop("limits", None)
    threads = data.pop("threads", 1)
    if engine == "random":
        player: Player = RandomPlayer()
    elif engine == "greedy":
        player = GreedyPlayer()
    elif engine in ("ismcts", "pimc"):
        allowed = {
            "exploration", "policy", "noise", "prior", "opponent_policy",
            "pimc_worlds", "exact_cards", "exact_budget",
        }
        unknown = sorted(set(data) - allowed)
        if unknown:
            raise TanError(f"engine {engine} has no option(s) {', '.join(unknown)}", "unknown_engine")
        try:
            return SearchPlayer(
                engine,
                Limits.from_json(limits) if limits is not None else Limits(iterations=None, time_ms=100),
                threads,
                data,
            )
        except TypeError as error:
            raise TanError(f"engine {engine}: {error}", "unknown_engine") from None
    else:
        raise TanError(f"unknown engine {engine!r} (expected one of {', '.join(ENGINES)})", "unknown_engine")
    if data or limits is not None:
        extra = sorted(data) + (["limits"] if limits is not None else [])
        raise TanError(f"engine {engine} takes no options: {', '.join(extra)}", "unknown_engine")
    return player
