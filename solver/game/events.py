"""The events of a game record (docs/api.md §2.3): what one seat saw happen, one thing at a time.

A record's seat sees every public move (`Play`; a redeal with the hand it
showed and, for the seat's own redeal, the two hands offered to it), its own
draws from the stock (`Draw`), that a match's tribute was given (`Tribute`;
its card only to the giver and the receiver, the giver's hand too where the
receiver inspects it) and a win by a hand of trumps (`AllTrumps`, the hand
shown) — docs/rules.md §1.7. Each event is a frozen value with its JSON;
`event_from_json` reads one strictly, naming the field at fault. Whether the
events could have happened is the replay's question (`solver.game.record`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from solver.game.cards import Card, parse_cards
from solver.game.errors import CardError, ErrorCode, MoveError, TanError
from solver.game.moves import Action, Move

__all__ = ["AllTrumps", "Draw", "Event", "Play", "RecordError", "Tribute", "event_from_json"]


class RecordError(TanError):
    """A record that is malformed or whose events cannot have happened; `index` is the first bad
    event (None when the fault is outside the events)."""

    code = ErrorCode.INVALID_RECORD

    def __init__(self, message: str, index: int | None = None, code: ErrorCode | None = None) -> None:
        super().__init__(message if index is None else f"events[{index}]: {message}", code)
        self.index = index


Sets = tuple[tuple[Card, ...], tuple[Card, ...]]


@dataclass(frozen=True)
class Play:
    """A seat's public move. A redeal carries the hand it showed (`shown`) and, when it is the
    record's own seat's, the two hands offered to it (`sets`, set 0 then set 1)."""

    seat: int
    move: Move
    shown: tuple[Card, ...] = ()
    sets: Sets | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "move": self.move.to_json()}
        if self.move.action is Action.REDEAL:
            out["shown"] = _texts(self.shown)
            if self.sets is not None:
                out["sets"] = [_texts(part) for part in self.sets]
        return out


@dataclass(frozen=True)
class Draw:
    """Cards the record's own seat drew from the stock."""

    cards: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        return {"draw": _texts(self.cards)}


@dataclass(frozen=True)
class Tribute:
    """The match's tribute was given (docs/rules.md §1.7, step 2): its `card` where the record's
    seat gave or received it (None for a seat that did not see it), and the giver's hand after
    giving where the record's seat received it and inspected that hand (`inspected`)."""

    card: Card | None
    inspected: tuple[Card, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"tribute": None if self.card is None else str(self.card)}
        if self.inspected is not None:
            out["inspected"] = _texts(self.inspected)
        return out


@dataclass(frozen=True)
class AllTrumps:
    """`seat` showed a hand of trumps and won at once (docs/rules.md §1.7, step 3)."""

    seat: int
    shown: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        return {"all_trumps": self.seat, "shown": _texts(self.shown)}


Event = Play | Draw | Tribute | AllTrumps


def event_from_json(item: Any, index: int, players: int) -> Event:
    """One event of docs/api.md §2.3, read strictly (`index` names it in a refusal)."""
    if not isinstance(item, Mapping):
        raise RecordError("an event must be an object", index)
    keys = set(item)
    if keys == {"draw"}:
        return Draw(_cards(item["draw"], "draw", index))
    if "tribute" in keys:
        if not keys <= {"tribute", "inspected"}:
            raise RecordError('a tribute is {"tribute": card or null, "inspected"?: [cards]}', index)
        card = None if item["tribute"] is None else _cards([item["tribute"]], "tribute", index)[0]
        inspected = item.get("inspected")
        return Tribute(card, None if inspected is None else _cards(inspected, "inspected", index))
    if "all_trumps" in keys:
        if keys != {"all_trumps", "shown"}:
            raise RecordError('a win by trumps is {"all_trumps": seat, "shown": [cards]}', index)
        return AllTrumps(_seat(item["all_trumps"], index, players), _cards(item["shown"], "shown", index))
    if not {"seat", "move"} <= keys or not keys <= {"seat", "move", "shown", "sets"}:
        raise RecordError(
            'an event is {"seat", "move"}, {"draw": [cards]}, {"tribute": card} or {"all_trumps": seat, '
            '"shown"}',
            index,
        )
    seat = _seat(item["seat"], index, players)
    try:
        move = Move.parse(item["move"])
    except (MoveError, CardError) as error:
        raise RecordError(error.message, index, error.code) from None
    if move.action is not Action.REDEAL:
        if keys - {"seat", "move"}:
            raise RecordError(f"only a redeal shows cards, not {move.notation}", index)
        return Play(seat, move)
    if "shown" not in item:
        raise RecordError("a redeal shows the hand it sets aside: give it as shown", index)
    sets = item.get("sets")
    if sets is not None and (not isinstance(sets, list) or len(sets) != 2):
        raise RecordError("sets: the two hands offered, as a list of two lists of cards", index)
    return Play(
        seat,
        move,
        _cards(item["shown"], "shown", index),
        None if sets is None else (_cards(sets[0], "sets[0]", index), _cards(sets[1], "sets[1]", index)),
    )


def _texts(cards: tuple[Card, ...]) -> list[str]:
    return [str(card) for card in cards]


def _cards(value: Any, name: str, index: int) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise RecordError(f"{name} must be a list of cards, not {value!r}", index)
    try:
        return tuple(parse_cards(value))
    except CardError as error:
        raise RecordError(f"{name}: {error.message}", index, ErrorCode.INVALID_CARD) from None


def _seat(value: Any, index: int, players: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in range(players):
        raise RecordError(f"seat: no seat {value!r} in a {players}-seat game", index, ErrorCode.INVALID_SEAT)
    return value
