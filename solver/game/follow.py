"""Following a game at a table: what one seat has seen so far, and what may come next.

A person at a table enters the game as it happens — every seat's moves, what the
side rules show, and the cards their own seat draws — and needs, after each entry,
the table as their seat sees it and the entries that can come next (docs/api.md §3,
`POST /v1/next`):

- the moves of the seat to move *as far as the following seat can tell*: its own
  legal moves, or, for another seat, every move some card it might hold allows
  (a card the following seat cannot see may lie in that hand);
- while the setup (docs/rules.md §1.7) may still bring another seat's secret
  decision to light, every seat that may move next: another seat's redeal (and
  the hand it shows), its trump swap, its win by a hand of trumps, the match's
  tribute (its card and the hand the receiver inspects, where the seat sees
  them), the seat's own decision (its redeal names the two hands offered), or the
  first lead once every secret decision was a keep;
- or, right after a move that ended a bout, how many cards the following seat
  drew and which of them it surely drew (the trump card, drawn last).

The game so far is a record (docs/api.md §2.3) or a position (§2.2) followed by
events of the same form (the analysis board); either way one replay plays it
(`solver.game.replay.Replay`). The moves come from the readable engine's own legal
moves in a world consistent with what the seat saw, and each side-rule entry is
offered only once the replay has accepted it played next (with cards the seat
might see), so an entry offered here is one the replay accepts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from solver.game.cards import Card
from solver.game.events import AllTrumps, Event, Play, RecordError, Tribute
from solver.game.events import event_from_json as _event
from solver.game.moves import Move
from solver.game.position import Position, to_move_seen_by
from solver.game.record import Record
from solver.game.reference import Game
from solver.game.replay import Replay, check_result, give

__all__ = [
    "Mover", "Naming", "NextEntries", "TributeEntry", "after_position", "after_record", "possible_moves",
]


@dataclass(frozen=True)
class Naming:
    """Cards an entry must name: `count` of them, `surely` among them, all from `among`."""

    count: int
    surely: tuple[Card, ...]
    among: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        return {"count": self.count, "with": _texts(self.surely), "from": _texts(self.among)}


@dataclass(frozen=True)
class Mover:
    """A seat that may make the next move, and the moves it may make as far as the following seat
    can tell. A redeal among them shows the hand set aside (`shown`) and, the following seat's own,
    names the two hands offered to it (`sets`: `count` cards each)."""

    seat: int
    moves: tuple[Move, ...]
    shown: Naming | None = None
    sets: Naming | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "moves": [move.to_json() for move in self.moves],
            "shown": None if self.shown is None else self.shown.to_json(),
            "sets": None if self.sets is None else self.sets.to_json(),
        }


@dataclass(frozen=True)
class TributeEntry:
    """The match's tribute given next, as the following seat sees it: its `card` (None for a seat
    that does not see it) and, where the receiver inspects the giver's hand, that hand (`inspected`)."""

    card: Card | None
    inspected: Naming | None = None

    def to_json(self) -> dict[str, Any]:
        return {"card": None if self.card is None else str(self.card),
                "inspected": None if self.inspected is None else self.inspected.to_json()}


@dataclass(frozen=True)
class NextEntries:
    """The table as `seat` sees it after what it has seen, and what may be entered next.

    `draw`: the seat drew with the last move, and the next entry must name those cards;
    `position` is then its view with them still counted in the stock. Otherwise any of `movers`
    may move next, the `tributes` may be given next, or a seat of `all_trumps` may show its hand of
    trumps and win; `to_move` and `moves` are the one mover's when nothing else may come (None
    and () once the game is over, or while several things may).
    """

    position: dict[str, Any]
    to_move: int | None
    moves: tuple[Move, ...]
    draw: Naming | None = None
    scores: tuple[float, ...] | None = None  # once the game is over (docs/rules.md §1.5)
    movers: tuple[Mover, ...] = ()
    tributes: tuple[TributeEntry, ...] = ()
    all_trumps: tuple[tuple[int, Naming], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "position": self.position,
            "to_move": self.to_move,
            "moves": [move.to_json() for move in self.moves],
            "movers": [mover.to_json() for mover in self.movers],
            "tributes": [entry.to_json() for entry in self.tributes],
            "all_trumps": [{"seat": seat, "shown": shown.to_json()} for seat, shown in self.all_trumps],
            "draw": None if self.draw is None else self.draw.to_json(),
            "scores": None if self.scores is None else list(self.scores),
        }


def after_record(record: Record) -> NextEntries:
    """What the record's seat sees at its end, and what may come next."""
    return _next(lambda events: Replay(replace(record, events=tuple(events))), record.events)


def after_position(position: Position, events: Sequence[Any]) -> NextEntries:
    """What `position`'s seat sees once `events` (docs/api.md §2.3 events, as JSON) have followed
    it, and what may come next. The unseen cards are dealt in one fixed way and moved where the
    events show them, as a record's replay does; the first event that cannot have happened is
    refused with its index."""
    if not isinstance(events, list | tuple):
        raise RecordError("events must be a list")
    parsed = tuple(_event(item, index, position.players) for index, item in enumerate(events))
    return _next(lambda more: Replay.from_position(position, more), parsed)


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


def _known_in(world: Game, viewer: int, seat: int) -> set[Card]:
    """The cards `viewer` knows lie in `seat`'s hand."""
    return (world.known[seat] | world.seen[viewer][seat]) & world.hands[seat]


Replayer = Callable[[Sequence[Event]], Replay]


def _next(replay_of: Replayer, events: Sequence[Event]) -> NextEntries:
    """What may come after `events`, from the replay `replay_of` makes of any events."""
    replay = replay_of(events)
    world = replay.run()
    check_result(replay.record, world)  # a record's result, as every entry point checks it
    seat = replay.seat
    view = Position.from_game(world, seat, match=replay.record.match).to_json()
    if replay.owed and replay.unshown() != "tribute":  # the tribute comes before the giver's draw
        return _draw(world, seat, view)
    if replay.unshown() is None and not _setup_open(replay, events):
        scores = tuple(world.scores) if world.over and world.scores is not None else None
        moves = tuple(possible_moves(world, seat))
        mover = to_move_seen_by(world, seat)
        movers = (Mover(mover, moves),) if mover is not None and moves else ()
        return NextEntries(view, mover, moves, None, scores, movers)
    return _setup_entries(replay_of, events, replay, view)


def _setup_open(replay: Replay, events: Sequence[Event]) -> bool:
    """Whether another seat may still make a setup decision public, as far as the seat knows: the
    game has a setup, the start is not past it (a record's deal; a position in its setup), and no
    event has shown its end (a play-phase move, a win by trumps)."""
    if not replay.world.rules.has_setup or replay.started_in_play:
        return False
    ended = any(isinstance(event, AllTrumps) or (isinstance(event, Play) and not event.move.is_setup)
                for event in events)
    return not ended


def _draw(world: Game, seat: int, view: dict[str, Any]) -> NextEntries:
    """The seat drew with the last move: the next entry names the cards."""
    owed = list(world.drawn[seat])
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
    return NextEntries(view, None, (), Naming(len(owed), surely, tuple(sorted(hidden))))


def _setup_entries(replay_of: Replayer, events: Sequence[Event], replay: Replay,
                   view: dict[str, Any]) -> NextEntries:
    """While the setup may still show another seat's secret decision: what the game shows next if
    every such decision was a keep, and each other seat's redeal, swap and win by trumps, and the
    tribute, that the replay accepts played next (`replay` has played `events`)."""
    world, seat, rules = replay.world, replay.seat, replay.world.rules
    settled = replay_of(events)
    after = settled.run(settle=True)
    movers: dict[int, Mover] = {}
    tributes: list[TributeEntry] = []
    trumps: list[tuple[int, Naming]] = []
    unshown = settled.unshown()
    if unshown == "tribute" and after.tributed is not None and after.tributed[0] == seat:
        tributes.append(TributeEntry(after.tributed[2]))  # the seat gives its highest trump
    elif unshown == "win" and after.winner == seat:
        won = tuple(sorted(after.hands[seat]))
        trumps.append((seat, Naming(len(won), won, won)))
    elif unshown is None:
        mover = to_move_seen_by(after, seat)
        moves = tuple(possible_moves(after, seat))
        if mover is not None and moves:
            movers[mover] = _own_redeal(after, seat, moves) if mover == seat else Mover(mover, moves)

    def accepted(event: Event) -> bool:
        try:
            replay_of([*events, event]).run()
        except RecordError:
            return False
        return True

    suit = world.trump.suit
    for other in range(world.players):
        if other == seat or other in world.finished or world.over:
            continue
        might = _cards_it_might_hold(world, seat, other)
        known = _known_in(world, seat, other)
        found: list[Move] = []
        naming = None
        if rules.redeal_without_trump:
            plain = [card for card in might if card.suit != suit]
            shown = _choose(known, plain, rules.hand_size)
            if shown is not None and accepted(Play(other, Move.redeal(), shown)):
                found.append(Move.redeal())
                naming = Naming(rules.hand_size, tuple(sorted(known)), tuple(sorted(set(plain) | known)))
        if rules.trump_swap and accepted(Play(other, Move.swap())):
            found.append(Move.swap())
        if found:
            had = movers.get(other)
            movers[other] = Mover(other, tuple(sorted({*found, *(had.moves if had else ())})), naming)
        if rules.all_trumps_wins:
            held = [card for card in might if card.suit == suit]
            # its whole hand: as dealt, or with a tribute received
            for count in (len(world.hands[other]), len(world.hands[other]) + 1):
                shown = _choose(known, held, count)
                if shown is not None and accepted(AllTrumps(other, shown)):
                    among = tuple(sorted(set(held) | known))
                    trumps.append((other, Naming(count, tuple(sorted(known)), among)))
                    break
    tributes += _tributes(replay, events, accepted)
    ordered = tuple(movers[other] for other in sorted(movers))
    only = ordered[0] if len(ordered) == 1 and not tributes and not trumps else None
    return NextEntries(
        view, None if only is None else only.seat, () if only is None else only.moves, None, None, ordered,
        tuple(tributes), tuple(trumps),
    )


def _own_redeal(world: Game, seat: int, moves: tuple[Move, ...]) -> Mover:
    """The seat's own setup decision: a redeal among `moves` shows its hand and names the two hands
    offered, of the cards it has not seen elsewhere (any may lie in the stock)."""
    if Move.redeal() not in moves:
        return Mover(seat, moves)
    hand = tuple(sorted(world.hands[seat]))
    stock = set(world.stock[:-1])
    for other in range(world.players):
        if other != seat:
            stock |= world.hands[other] - _known_in(world, seat, other)
    sets = Naming(world.rules.hand_size, (), tuple(sorted(stock)))
    return Mover(seat, moves, Naming(len(hand), hand, hand), sets)


def _tributes(
    replay: Replay, events: Sequence[Event], accepted: Callable[[Event], bool]
) -> list[TributeEntry]:
    """The tribute given next, where the seat is not its giver: for the receiver each trump it might
    be given (with the giver's hand it then inspects, where it does), for another seat that one
    was given (its card unseen, unless it is the trump card dealt last and shown)."""
    owed, seat, world = replay.record.tribute, replay.seat, replay.world
    if owed is None or owed[0] == seat or any(isinstance(event, Tribute) for event in events):
        return []
    giver, receiver = owed
    if seat != receiver:
        return [TributeEntry(card) for card in (None, world.trump) if accepted(Tribute(card))]
    might = _cards_it_might_hold(world, seat, giver)
    known = _known_in(world, seat, giver)
    found = []
    for card in (card for card in might if card.suit == world.trump.suit):
        rest = [other for other in might if other != card]
        lower = [other for other in rest if other.suit != card.suit or other.rank < card.rank]
        inspected = _choose(known, lower, len(world.hands[giver]) - 1)  # its hand after giving
        if inspected is not None and accepted(Tribute(card, inspected)):
            found.append(TributeEntry(card, Naming(len(inspected), tuple(sorted(known)), tuple(rest))))
        elif accepted(Tribute(card)):
            found.append(TributeEntry(card))
    return found


def _choose(known: set[Card], cards: Sequence[Card], count: int) -> tuple[Card, ...] | None:
    """`count` cards: the `known` ones, then the first of `cards`; None when they are too few."""
    chosen = sorted(known) + [card for card in cards if card not in known]
    if count <= 0 or len(chosen) < count:
        return None
    return tuple(sorted(chosen[:count]))


def _texts(cards: tuple[Card, ...]) -> list[str]:
    return [str(card) for card in cards]

