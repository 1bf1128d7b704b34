"""Players: `random`, `greedy` and the search engines `ismcts` and `pimc`.

Every player sees only a seat's position (SPEC §2.2) and answers a move, so an
engine can never peek at hidden cards. `make_player` reads the seat specs of
SPEC §3 (`"greedy"`, `{"engine": "ismcts", "limits": {...}}`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Protocol

from solver.cards import Card, Rank
from solver.errors import TanError
from solver.moves import Action, Move
from solver.position import Position
from solver.search import Limits, Solver, prepare

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
    """A sensible human heuristic with no look-ahead.

    Shed low non-trumps, defend each card with the cheapest card that beats it,
    keep trumps (and take instead of spending a high trump while the stock is
    still large), throw in only cheap cards, transfer with a cheap card.
    """

    name: str = "greedy"

    def choose(self, position: Position, seed: int = 0) -> Move:
        moves = legal_moves(position)
        if len(moves) == 1:
            return moves[0]
        trump = position.trump.suit

        def cost(card: Card) -> int:
            return card.rank + (13 if card.suit == trump else 0)

        by_action: dict[Action, list[Move]] = {}
        for move in moves:
            by_action.setdefault(move.action, []).append(move)
        if Action.DEFEND in by_action or Action.TAKE in by_action:
            return self._defend(position, by_action, cost)
        attacks = sorted(by_action.get(Action.ATTACK, []), key=lambda m: cost(m.card))  # type: ignore[arg-type]
        if not attacks:
            return moves[0]
        if not position.table:
            return attacks[0]  # the lead: lowest card, trumps last
        cheapest = attacks[0].card
        assert cheapest is not None
        late = position.stock == 0
        if cheapest.suit != trump and (cheapest.rank < Rank.JACK or late):
            return attacks[0]
        if late and cheapest.suit == trump and len(position.hand) <= 2:
            return attacks[0]
        return Move.pass_() if Action.PASS in by_action else attacks[0]

    @staticmethod
    def _defend(position: Position, by_action: dict[Action, list[Move]], cost: Any) -> Move:
        transfers = sorted(by_action.get(Action.TRANSFER, []), key=lambda m: cost(m.card))
        if transfers and transfers[0].card is not None and transfers[0].card.suit != position.trump.suit:
            return transfers[0]
        defends = by_action.get(Action.DEFEND, [])
        undefended = {attack for attack, defense in position.table if defense is None}
        cheapest: dict[Card, Move] = {}
        for move in defends:
            assert move.target is not None and move.card is not None
            best = cheapest.get(move.target)
            if best is None or cost(move.card) < cost(best.card):
                cheapest[move.target] = move
        if set(cheapest) != undefended:
            return Move.take()  # some card cannot be beaten: taking now saves cards
        spend = [move.card for move in cheapest.values() if move.card is not None]
        expensive = sum(1 for card in spend if card.suit == position.trump.suit and card.rank >= Rank.QUEEN)
        if expensive and position.stock > 6:
            return Move.take()
        target_move = min(cheapest.values(), key=lambda m: cost(m.card))
        return target_move


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
