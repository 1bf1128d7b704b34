"""A seat's position, ready for the Cython search: the sampler of the worlds it cannot tell apart.

`Position` says what the seat cannot see (`unseen_cards`) and where those
cards may lie (`hidden_slots`, and `in_stock` for the cards it knows lie in
the stock); `prepare` hands exactly that to the Cython `Sampler`, which deals
them uniformly at random to the other seats' unknown slots, the offered hands
of another seat's pending pick and the stock, one world per call (OpenSpiel's
ResampleFromInfostate).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from solver.core import CoreGame
from solver.game.errors import ErrorCode, PositionError
from solver.game.moves import Move
from solver.game.phases import Phase
from solver.game.position import Position
from solver.search import _sampling

__all__ = ["Root", "prepare"]


@dataclass(frozen=True)
class Root:
    """A position prepared for the search: its sampler, the active seats and the seat's legal moves."""

    position: Position
    sampler: _sampling.Sampler
    active: tuple[int, ...]

    @cached_property
    def legal(self) -> tuple[Move, ...]:
        """The seat's legal moves when it is to move (`Position.legal_moves`), else none."""
        pos = self.position
        return tuple(pos.legal_moves()) if pos.to_move == pos.seat else ()

    @property
    def perfect_information(self) -> bool:
        """Nothing is hidden: two seats are left and the stock is empty or holds only the face-up
        trump card (docs/rules.md §1.5), so the exact solver can prove the root."""
        return self.position.stock <= 1 and len(self.active) == 2

    def world(self, seed: int = 0) -> CoreGame:
        """One full state consistent with the position, drawn with `seed`."""
        return self.sampler.sample(seed)


def prepare(position: Position | dict[str, Any]) -> Root:
    """The sampler of the worlds consistent with `position` (a `Position` or its JSON)."""
    pos = position if isinstance(position, Position) else Position.from_json(position)
    if pos.waiting:
        raise PositionError(
            "another seat is making a setup decision in secret: this seat cannot search until it is made",
            ErrorCode.INCONSISTENT_TURN,
        )
    hidden = pos.hidden_slots()
    stock_only = set(pos.in_stock)
    hands = [pos.hand if seat == pos.seat else pos.known[seat] for seat in range(pos.players)]
    template = CoreGame.from_fields(
        pos.rules,
        pos.players,
        [[card.index for card in hand] for hand in hands],
        [pos.trump.index] if pos.stock > 0 else [],  # only the trump card of the stock is seen
        pos.trump.index,
        [(attack.index, -1 if defense is None else defense.index) for attack, defense in pos.table],
        attacker=pos.attacker,
        defender=pos.defender,
        to_move=pos.to_move if pos.to_move is not None else -1,
        taking=pos.taking,
        passed=list(pos.passed),
        finished=list(pos.finished),
        defended_once=pos.defended_once,
        setup=pos.setup if pos.phase is Phase.SETUP else None,
    )
    sampler = _sampling.Sampler(
        template,
        pos.seat,
        [card.index for card in pos.unseen_cards() if card not in stock_only],
        [hidden.seats.get(seat, 0) for seat in range(pos.players)],
        pos.stock,
        stock_only=[card.index for card in sorted(stock_only)],
        set_slots=hidden.sets,
    )
    active = tuple(seat for seat in range(pos.players) if seat not in pos.finished)
    return Root(pos, sampler, active)
