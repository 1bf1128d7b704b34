"""Game records: what one seat has seen from the deal on (docs/api.md §2.3).

A record is the seat's dealt hand, the trump card, who would lead, and every
event it saw: each seat's public move, and its own draws. `Record.replay`
turns it into the seat's position and everything the seat knows, by playing
the events in a full game of the readable engine (so every rule and every
piece of knowledge comes from `solver.game.reference`):

- the game starts from a deal that gives the seat its hand and deals the
  cards it cannot see in deck order;
- when another seat plays a card the world did not give it, or the seat
  draws other cards than it did, the card is swapped with one of the same
  seat's cards that nobody has seen — both were unseen, so the world stays
  consistent with all the seat has seen;
- another seat's secret setup decisions (a keep) are not in the record: the
  world keeps where the next event shows nothing else happened.

The first event that cannot have happened is refused with its index.
Records of games with `redeal_without_trump` or `tribute` are refused for now:
a redeal shows hands and a tribute private cards that the format does not carry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from solver.game.cards import Card, deck, parse_cards
from solver.game.errors import CardError, ErrorCode, MoveError, RulesError, TanError
from solver.game.moves import Action, Move
from solver.game.phases import Phase, seen_by
from solver.game.position import Position
from solver.game.reference import Game
from solver.game.rules import Rules

__all__ = ["Draw", "Play", "Record", "RecordError"]


class RecordError(TanError):
    """A record that is malformed or whose events cannot have happened; `index` is the first bad
    event (None when the fault is outside the events)."""

    code = ErrorCode.INVALID_RECORD

    def __init__(self, message: str, index: int | None = None, code: ErrorCode | None = None) -> None:
        super().__init__(message if index is None else f"events[{index}]: {message}", code)
        self.index = index


@dataclass(frozen=True)
class Play:
    """A seat's public move."""

    seat: int
    move: Move

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "move": self.move.to_json()}


@dataclass(frozen=True)
class Draw:
    """Cards the record's own seat drew from the stock."""

    cards: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        return {"draw": [str(card) for card in self.cards]}


Event = Play | Draw
Watch = Callable[[int, Play, Game, Game], None]


@dataclass(frozen=True)
class Record:
    """What `seat` has seen of one game: its dealt `hand`, the `trump` card, the seat that would
    lead at the deal (`first_attacker`), and its `events` in order."""

    rules: Rules
    players: int
    seat: int
    hand: tuple[Card, ...]
    trump: Card
    first_attacker: int
    events: tuple[Event, ...]

    # -- JSON -----------------------------------------------------------------------------

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """Read a record (docs/api.md §2.3); a malformed one names the field at fault."""
        if not isinstance(data, Mapping):
            raise RecordError(f"a record must be an object, not {type(data).__name__}")
        names = ("rules", "players", "seat", "hand", "trump", "first_attacker", "events")
        unknown = sorted(str(key) for key in data if key not in names)
        if unknown:
            raise RecordError(f"unknown field(s) in record: {', '.join(unknown)}")
        missing = [name for name in names if name not in data]
        if missing:
            raise RecordError(f"missing field(s) in record: {', '.join(missing)}")
        rules = Rules.from_json(data["rules"])
        _readable(rules)
        players, seat, first = (_whole(data[name], name) for name in ("players", "seat", "first_attacker"))
        try:
            rules.check_players(players)
        except RulesError as error:
            raise RecordError(f"players: {error.message}", code=ErrorCode.BAD_PLAYERS) from None
        for name, value in (("seat", seat), ("first_attacker", first)):
            if value not in range(players):
                raise RecordError(
                    f"{name}: no seat {value} in a {players}-seat game", code=ErrorCode.INVALID_SEAT
                )
        if not isinstance(data["events"], list):
            raise RecordError("events must be a list")
        try:
            hand = tuple(parse_cards(_list(data["hand"], "hand")))
            trump = parse_cards([data["trump"]])[0]
        except CardError as error:
            raise RecordError(f"{error.message}", code=ErrorCode.INVALID_CARD) from None
        events = tuple(_event(item, index, players) for index, item in enumerate(data["events"]))
        return cls(rules, players, seat, hand, trump, first, events)

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_json(),
            "players": self.players,
            "seat": self.seat,
            "hand": [str(card) for card in self.hand],
            "trump": str(self.trump),
            "first_attacker": self.first_attacker,
            "events": [event.to_json() for event in self.events],
        }

    @classmethod
    def of_game(
        cls,
        game: Game,
        seat: int,
        deal: Sequence[Card],
        history: Sequence[tuple[int, Move]],
        draws: Sequence[tuple[int, Sequence[Card]]] = (),
    ) -> Record:
        """The record `seat` keeps of a game dealt from `deal` (top first) and played as `history`;
        `draws` are `(ply, cards)`: what it drew after the move at that ply."""
        h, n = game.rules.hand_size, game.players
        hand = tuple(deal[i] for i in range(n * h) if i % n == seat)
        trump = deal[n * h] if n * h < len(deal) else deal[-1]
        by_ply = {ply: tuple(cards) for ply, cards in draws}
        events: list[Event] = []
        for ply, (mover, move) in enumerate(history):
            if seen_by(move, mover, seat):  # not another seat's keep, which is secret
                events.append(Play(mover, move))
            if ply in by_ply:
                events.append(Draw(by_ply[ply]))
        return cls(
            game.rules, n, seat, hand, trump, game.leader if game.leader is not None else 0, tuple(events)
        )

    # -- replay -----------------------------------------------------------------------------

    def replay(self, watch: Watch | None = None) -> Game:
        """A full game consistent with everything the record's seat saw, at the record's end.

        `watch(index, event, before, after)` is called around every move the world plays:
        `before` is a copy of the world as the move was chosen (already consistent with the
        move), `after` the world right after it (the record's own draws not yet repaired).
        """
        rules, seat = self.rules, self.seat
        _readable(rules)
        world = Game.deal(rules, self.players, deck=self._first_deck(), first_attacker=self.first_attacker)
        owed = 0  # the seat drew in the world and the record has not shown the cards yet
        for index, event in enumerate(self.events):
            if isinstance(event, Draw):
                if not owed:
                    raise RecordError(f"seat {seat} draws nothing here", index, ErrorCode.COUNT_MISMATCH)
                self._drawn(world, event, index)
                owed = 0
                continue
            if owed:
                raise RecordError(
                    f"seat {seat} drew {owed} cards just before: the record must show them",
                    index,
                    ErrorCode.COUNT_MISMATCH,
                )
            if world.over:
                raise RecordError("the game is already over", index, ErrorCode.GAME_OVER)
            try:
                self._skip_secret_keeps(world, event)
                if event.move.card is not None and event.seat != seat:
                    _give(world, seat, event.seat, event.move.card, index)
                before = world.clone() if watch is not None else None
                world.play(event.move, event.seat)
            except RecordError:
                raise
            except TanError as error:
                raise RecordError(error.message, index, error.code) from None
            if watch is not None and before is not None:
                watch(index, event, before, world)
            owed = len(world.drawn[seat])
        if owed:
            raise RecordError(
                f"seat {seat} drew {owed} cards at the end: the record must show them",
                len(self.events),
                ErrorCode.COUNT_MISMATCH,
            )
        return world

    def position(self) -> Position:
        """What the record's seat sees at its end (docs/api.md §2.2)."""
        return Position.from_game(self.replay(), self.seat)

    def _first_deck(self) -> list[Card]:
        """A deck that deals the seat its hand and turns up the trump card, dealing every card the
        seat cannot see in deck order; a seat the record shows swapping gets the lowest trump."""
        rules, n, h = self.rules, self.players, self.rules.hand_size
        full = deck(rules.deck)
        if len(set(self.hand)) != h or len(self.hand) != h:
            raise RecordError(
                f"hand: {len(self.hand)} different cards dealt, {h} wanted", code=ErrorCode.COUNT_MISMATCH
            )
        if not set(self.hand) | {self.trump} <= set(full):
            raise RecordError(
                f"hand, trump: a card outside the {rules.deck}-card deck", code=ErrorCode.CARD_NOT_IN_DECK
            )
        dealt = n * h
        last_seat = (dealt - 1) % n
        if dealt < rules.deck and self.trump in self.hand:
            raise RecordError(
                f"trump: {self.trump} is turned up under the stock, not dealt to the seat",
                code=ErrorCode.DUPLICATE_CARD,
            )
        if dealt == rules.deck and last_seat == self.seat and self.trump not in self.hand:
            raise RecordError(
                f"trump: the last card dealt, {self.trump}, is the seat's own", code=ErrorCode.COUNT_MISMATCH
            )
        unseen = [card for card in full if card not in self.hand and card != self.trump]
        placed: dict[int, Card] = {}
        if dealt == rules.deck and last_seat != self.seat:
            placed[dealt - 1] = self.trump  # no card is left to turn up: the last one dealt sets trump
        low = Card(full[0].rank, self.trump.suit)
        swapper = next(
            (e.seat for e in self.events if isinstance(e, Play) and e.move.action is Action.SWAP), None
        )
        if swapper is not None and swapper != self.seat and low in unseen:
            first = next(i for i in range(dealt) if i % n == swapper and i not in placed)
            placed[first] = low
            unseen.remove(low)
        mine, others = iter(self.hand), iter(unseen)
        order = [
            placed[i] if i in placed else next(mine) if i % n == self.seat else next(others)
            for i in range(dealt)
        ]
        if dealt == rules.deck:
            return order
        return [*order, self.trump, *others]

    def _skip_secret_keeps(self, world: Game, event: Play) -> None:
        """Another seat's setup decision the record's seat could not see: it kept, unless the event
        is that decision."""
        while world.phase is Phase.SETUP and not world.over and world.to_move not in (None, self.seat):
            if world.to_move == event.seat and event.move.is_setup:
                return
            world.play(Move.keep(), world.to_move)

    def _drawn(self, world: Game, event: Draw, index: int) -> None:
        """The seat drew `event.cards`: the world's draw is made to agree, swapping unseen cards."""
        drawn = world.drawn[self.seat]
        if len(drawn) != len(event.cards):
            raise RecordError(
                f"draw: seat {self.seat} drew {len(drawn)} cards here, not {len(event.cards)}",
                index,
                ErrorCode.COUNT_MISMATCH,
            )
        spare = [card for card in drawn if card not in event.cards]
        for card in event.cards:
            if card not in drawn:
                _swap(world, self.seat, spare.pop(), card, index)
        world.drawn[self.seat] = list(event.cards)


def _give(world: Game, viewer: int, seat: int, card: Card, index: int) -> None:
    """Make `seat` hold `card` in the world, if the viewer could not know otherwise."""
    if card in world.hands[seat]:
        return
    donor = [c for c in world.hands[seat] if not _seen(world, viewer, seat, c)]
    if not donor:
        raise RecordError(
            f"seat {seat} cannot hold {card}: every card it holds is known", index, ErrorCode.ILLEGAL_MOVE
        )
    _swap(world, seat, donor[0], card, index, viewer)


def _seen(world: Game, viewer: int, holder: int, card: Card) -> bool:
    return card in world.known[holder] or card in world.seen[viewer][holder]


def _swap(world: Game, seat: int, mine: Card, theirs: Card, index: int, viewer: int | None = None) -> None:
    """Exchange `mine` (in `seat`'s hand) with `theirs` (hidden elsewhere) in the world."""
    viewer = seat if viewer is None else viewer
    if theirs == world.trump and world.stock:
        raise RecordError(f"{theirs} is the trump card under the stock", index, ErrorCode.ILLEGAL_MOVE)
    for other in range(world.players):
        if theirs in world.hands[other]:
            if other == viewer or _seen(world, viewer, other, theirs):
                raise RecordError(
                    f"{theirs} is known to be elsewhere (seat {other})", index, ErrorCode.ILLEGAL_MOVE
                )
            world.hands[other].discard(theirs)
            world.hands[other].add(mine)
            break
    else:
        if theirs in world.stock and theirs not in world.in_stock[viewer]:
            world.stock[world.stock.index(theirs)] = mine
        else:
            raise RecordError(
                f"{theirs} cannot be in seat {seat}'s hand (it was seen elsewhere)",
                index,
                ErrorCode.ILLEGAL_MOVE,
            )
    world.hands[seat].discard(mine)
    world.hands[seat].add(theirs)


def _readable(rules: Rules) -> None:
    """Refuse the rules whose records the format cannot carry yet (docs/api.md §2.3): a redeal
    shows hands, and a tribute private cards, that no event says."""
    if rules.redeal_without_trump or rules.tribute:
        raise RecordError("records of games with redeal_without_trump or tribute cannot be read yet")


def _whole(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(f"{name} must be a whole number, not {value!r}")
    return value


def _list(value: Any, name: str) -> list[Any]:
    if not isinstance(value, list):
        raise RecordError(f"{name} must be a list, not {value!r}")
    return value


def _event(item: Any, index: int, players: int) -> Event:
    if not isinstance(item, Mapping):
        raise RecordError("an event must be an object", index)
    if set(item) == {"draw"}:
        try:
            return Draw(tuple(parse_cards(_list(item["draw"], "draw"))))
        except CardError as error:
            raise RecordError(error.message, index, ErrorCode.INVALID_CARD) from None
    if set(item) != {"seat", "move"}:
        raise RecordError('an event is {"seat", "move"} or {"draw": [cards]}', index)
    seat = item["seat"]
    if isinstance(seat, bool) or not isinstance(seat, int) or seat not in range(players):
        raise RecordError(f"seat: no seat {seat!r} in a {players}-seat game", index, ErrorCode.INVALID_SEAT)
    try:
        return Play(seat, Move.parse(item["move"]))
    except (MoveError, CardError) as error:
        raise RecordError(error.message, index, error.code) from None
