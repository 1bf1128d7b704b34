"""Following a game at a real table: what one seat has seen so far, and what may come next.

A person at a table enters the game as it happens — every seat's moves, and the
cards their own seat draws — and needs, after each entry, the table as their seat
sees it and the entries that can come next (docs/api.md §3, `POST /v1/next`):

- the moves of the seat to move *as far as the following seat can tell*: its own
  legal moves, or, for another seat, every move some card it might hold allows
  (a card the following seat cannot see may lie in that hand);
- or, right after a move that ended a bout, how many cards the following seat
  drew and which of them it surely drew (the trump card, drawn last).

The game so far is a record (docs/api.md §2.3), replayed by `Record.replay`, or a
position (§2.2) followed by events of the same form (the analysis board). Either
way the moves come from the readable engine's own legal moves in a world
consistent with what the seat saw, with the card given to the mover as the
replay itself would give it, so an entry offered here is one the replay accepts.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from solver.game.cards import Card
from solver.game.errors import ErrorCode, TanError
from solver.game.events import Draw, Event, Play, RecordError
from solver.game.events import event_from_json as _event
from solver.game.moves import Move
from solver.game.position import Position, to_move_seen_by
from solver.game.record import Record
from solver.game.reference import Game
from solver.game.replay import draw_as_seen, give

__all__ = ["NextEntries", "after_position", "after_record", "possible_moves"]


@dataclass(frozen=True)
class NextEntries:
    """The table as `seat` sees it after what it has seen, and what may be entered next.

    `draw` > 0: the seat drew that many cards with the last move, and the next entry must name
    them, from `draw_from` (the cards it may have drawn), `draw_with` among them (those it surely
    drew); `position` is then its view with those cards still counted in the stock. Otherwise
    `to_move` (as the seat sees it: None once the game is over, or while another seat decides in
    secret) may make any of `moves`.
    """

    position: dict[str, Any]
    to_move: int | None
    moves: tuple[Move, ...]
    draw: int
    draw_with: tuple[Card, ...]
    draw_from: tuple[Card, ...] = ()
    scores: tuple[float, ...] | None = None  # once the game is over (docs/rules.md §1.5)

    def to_json(self) -> dict[str, Any]:
        return {
            "position": self.position,
            "to_move": self.to_move,
            "moves": [move.to_json() for move in self.moves],
            "draw": (
                {
                    "count": self.draw,
                    "with": [str(card) for card in self.draw_with],
                    "from": [str(card) for card in self.draw_from],
                }
                if self.draw
                else None
            ),
            "scores": None if self.scores is None else list(self.scores),
        }


def after_record(record: Record) -> NextEntries:
    """What the record's seat sees at its end, and what may come next."""
    last: list[Game] = []

    def watch(_index: int, _event: Play, _before: Game, after: Game) -> None:
        last[:] = [after]

    try:
        return _entries(record.replay(watch), record.seat, owing=False)
    except RecordError as error:
        # The replay refuses a record that ends owing the seat's draw; here that is the question.
        owing = bool(last) and error.index == len(record.events) and bool(last[0].drawn[record.seat])
        if not owing:
            raise
        return _entries(last[0], record.seat, owing=True)


def after_position(position: Position, events: Sequence[Any]) -> NextEntries:
    """What `position`'s seat sees once `events` (docs/api.md §2.3 events, as JSON) have followed
    it, and what may come next. The unseen cards are dealt in one fixed way and moved where the
    events show them, as a record's replay does; the first event that cannot have happened is
    refused with its index."""
    if not isinstance(events, list | tuple):
        raise RecordError("events must be a list")
    parsed = [_event(item, index, position.players) for index, item in enumerate(events)]
    world = position.sample_game(random.Random(0))
    world.drawn = [[] for _ in range(world.players)]  # nothing drawn before the position
    owing = _follow(world, position.seat, parsed)
    return _entries(world, position.seat, owing)


def possible_moves(world: Game, viewer: int) -> list[Move]:
    """The moves of the seat to move, as far as `viewer` can tell: its own legal moves, or for
    another seat every legal move of some card it might hold (known in its hand, or unseen by
    the viewer). [] when nobody is to move as the viewer sees it."""
    mover = to_move_seen_by(world, viewer)
    if mover is None or world.over:
        return []
    moves = world.legal_moves()
    if mover == viewer:
        return moves
    found = {move for move in moves if move.card is None}
    for card in _cards_it_might_hold(world, viewer, mover):
        trial = world.clone()
        try:
            give(trial, viewer, mover, card, 0)
        except RecordError:
            continue  # every card it holds is known, or the card is known elsewhere
        found.update(move for move in trial.legal_moves() if move.card == card)
    return sorted(found)


def _cards_it_might_hold(world: Game, viewer: int, mover: int) -> list[Card]:
    """The mover's cards in this world, and every card placed elsewhere that the viewer has not
    seen there (another hand's unknown cards, the stock but its trump card)."""
    cards = set(world.hands[mover])
    for other in range(world.players):
        if other not in (viewer, mover):
            cards |= {card for card in world.hands[other]
                      if card not in world.known[other] and card not in world.seen[viewer][other]}
    cards |= {card for card in world.stock if card != world.trump and card not in world.in_stock[viewer]}
    return sorted(cards)


def _follow(world: Game, seat: int, events: Sequence[Event]) -> bool:
    """Play `events` in `world` as `seat` saw them (the loop of `Record.replay`, from a position);
    whether the seat drew with the last move and the events have not shown the cards yet."""
    owed = 0
    known: set[Card] = set()  # the cards the seat knew lay in the stock before the last move
    for index, event in enumerate(events):
        if isinstance(event, Draw):
            if not owed:
                raise RecordError(f"seat {seat} draws nothing here", index, ErrorCode.COUNT_MISMATCH)
            draw_as_seen(world, seat, event.cards, index, known)
            owed = 0
            continue
        if owed:
            raise RecordError(
                f"seat {seat} drew {owed} cards just before: the events must show them",
                index,
                ErrorCode.COUNT_MISMATCH,
            )
        if world.over:
            raise RecordError("the game is already over", index, ErrorCode.GAME_OVER)
        if not isinstance(event, Play):  # a tribute or a win by trumps: side rules, not followed yet
            raise RecordError("the board follows games without side rules", index, ErrorCode.INVALID_INPUT)
        try:
            if event.move.card is not None and event.seat != seat:
                give(world, seat, event.seat, event.move.card, index)
            known = set(world.in_stock[seat])
            world.play(event.move, event.seat)
        except RecordError:
            raise
        except TanError as error:
            raise RecordError(error.message, index, error.code) from None
        owed = len(world.drawn[seat])
    return owed > 0


def _entries(world: Game, seat: int, owing: bool) -> NextEntries:
    owed = list(world.drawn[seat]) if owing else []
    view = Position.from_game(world, seat).to_json()
    if not owed:
        scores = tuple(world.scores) if world.over and world.scores is not None else None
        return NextEntries(
            view, to_move_seen_by(world, seat), tuple(possible_moves(world, seat)), 0, (), (), scores
        )
    # The seat's hand before it names what it drew: those cards are still counted in the stock.
    view["hand"] = [card for card in view["hand"] if Card.parse(card) not in owed]
    view["hand_counts"][seat] -= len(owed)
    view["stock"] += len(owed)
    surely = tuple(card for card in owed if card == world.trump)  # the trump card is drawn last
    # What it may have drawn: any card it has not seen placed, and no trump card it did not draw.
    hidden = set(owed) | {card for card in world.stock if card != world.trump}
    for other in range(world.players):
        if other != seat:
            hidden |= {card for card in world.hands[other]
                       if card not in world.known[other] and card not in world.seen[seat][other]}
    hidden -= {world.trump} - set(surely)
    return NextEntries(view, None, (), len(owed), surely, tuple(sorted(hidden)))
