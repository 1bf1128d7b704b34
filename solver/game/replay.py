"""Replaying what one seat saw (docs/api.md §2.3): one full game consistent with all of it.

The events a seat saw are played by one loop (`Replay.run`) in a full game of
the readable engine, from one of two starts: a record's deal (`replay_record`),
or a position (docs/api.md §2.2) followed by events (`Replay.from_position`, the
analysis board and a game followed from a position, solver.game.follow).

The seat knows its own hand, the trump card and what the events show; every
other card is unseen, so the replay deals them as it likes — as long as the
world agrees with every event:

- the first deck (`_first_deck`) gives each other seat what the record shows
  it held before the first lead: a redeal's shown hand, the low trump of a
  swap, a tribute card and an inspected hand, a hand of trumps that won, no
  trump for a giver that gave no tribute, at least one trump for one that
  did, and never an unseen hand of trumps that would have won; the cards
  offered to the seat's own redeal are kept in the stock (docs/rules.md §1.7);
- another seat's pick is made to take a hand that holds what it will show
  later and nothing offered to the seat later; the seat's own redeal finds the
  two offered hands on top of the stock;
- when another seat plays a card the world did not give it, or the seat draws
  other cards than it did, the card is exchanged with an unseen one — both were
  unseen, so the world stays consistent with everything the seat has seen;
- another seat's secret setup decisions (a keep) are not in the record: the
  world keeps where the next event shows nothing else happened.

From a position the unseen cards are first dealt in one fixed way, then moved
where the events show them (`Replay._arrange`: the same reading of the events as
the first deck's). The first event that cannot have happened is refused with
its index.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from solver.game.cards import Card, Rank, deck
from solver.game.errors import ErrorCode, TanError
from solver.game.events import AllTrumps, Draw, Event, Play, RecordError, Tribute
from solver.game.moves import Action, Move
from solver.game.phases import Phase, nothing_to_decide, secret_decision
from solver.game.position import MatchInfo, Position
from solver.game.reference import Game
from solver.game.rules import Rules

__all__ = ["Replay", "Seen", "Watch", "check_result", "draw_as_seen", "give", "replay_record"]


@dataclass(frozen=True)
class Seen:
    """What a seat saw, as the replay reads it: the rules and seats, the seat, its hand and the trump
    card at the start (dealt, or a position's), the seat that would lead at the deal, the events
    since, in a match its block and the tribute owed, and what is known of the game as a whole (the
    whole deck, the result). A record (`solver.game.record.Record`) is one, with more fields."""

    rules: Rules
    players: int
    seat: int
    hand: tuple[Card, ...]
    trump: Card
    first_attacker: int
    events: tuple[Event, ...]
    match: MatchInfo | None = None
    tribute: tuple[int, int] | None = None
    deck: tuple[Card, ...] | None = None
    result: tuple[float, ...] | None = None


Watch = Callable[[int, Play, Game, Game], None]
_STEP_OF = {Action.REDEAL: "redeal", Action.PICK: "pick", Action.SWAP: "swap"}


@dataclass
class _Plan:
    """What the events say of the other seats' hands before the first lead (see the module)."""

    held: dict[int, set[Card]] = field(default_factory=dict)  # cards a seat surely held
    exact: set[int] = field(default_factory=set)  # seats whose whole hand is known
    no_trump: set[int] = field(default_factory=set)
    trumps: dict[int, int] = field(default_factory=dict)  # at least this many trumps
    cap: dict[int, Card] = field(default_factory=dict)  # no trump above this one
    plain: set[int] = field(default_factory=set)  # at least one card that is not trump
    offered: dict[int, set[Card]] = field(default_factory=dict)  # the seat's own redeal: event -> sets
    swapper: int | None = None
    redealers: dict[int, int] = field(default_factory=dict)  # seat -> index of its redeal
    where: dict[Card, int] = field(default_factory=dict)  # a held card -> the event that shows it
    top: list[Card] = field(default_factory=list)  # the stock's top: what the seat draws after giving

    def hold(self, seat: int, cards: set[Card] | list[Card] | tuple[Card, ...], index: int) -> None:
        for card in cards:
            other = next((s for s, held in self.held.items() if card in held and s != seat), None)
            if other is not None:
                raise RecordError(f"{card} is shown in seat {other}'s hand at events[{self.where[card]}] too",
                                  index, ErrorCode.DUPLICATE_CARD)
            self.held.setdefault(seat, set()).add(card)
            self.where.setdefault(card, index)

    def reserved_after(self, index: int) -> set[Card]:
        """The cards offered to the seat's own redeals after event `index`: they lie in the stock."""
        return {card for at, cards in self.offered.items() if at > index for card in cards}


def check_result(seen: Seen, world: Game) -> None:
    """With a `result`, the game must have ended so: `world` is the replay's at the end of the
    events. The one check of a record's result, for every entry point that reads a record
    (`Record.replay`, and `solver.game.follow`, which replays without `finish`)."""
    if seen.result is not None and (not world.over or tuple(world.scores or ()) != seen.result):
        ended = "is not over" if not world.over else f"ended {list(world.scores or ())}"
        raise RecordError(f"result: the game {ended}, not {list(seen.result)}", len(seen.events))


def replay_record(record: Seen, watch: Watch | None = None, settle: bool = False) -> Game:
    """A full game consistent with everything the record's seat saw, at the record's end (see
    `Record.replay`)."""
    replay = Replay(record, watch)
    replay.run(settle)
    replay.finish()
    return replay.world


class Replay:
    """One replay of what a seat saw: the world the events are played in — dealt from a record's
    first deck, or a position's world with the unseen cards moved where the events show them —
    then `run` plays the events in it one by one, repairing what the seat could not see (see the
    module), and `finish` checks that the events end with nothing owed."""

    def __init__(self, seen: Seen, watch: Watch | None = None, start: Game | None = None) -> None:
        self.record, self.watch = seen, watch
        self.seat = seen.seat
        rules = seen.rules
        self.low = Card(deck(rules.deck)[0].rank, seen.trump.suit)
        self.absent = [] if seen.match is None or seen.match.sitting_out is None else [
            seen.match.sitting_out
        ]
        self.known: set[Card] = set()  # cards the seat knew lay in the stock before the last move
        self.tribute_shown = self.win_shown = False  # the events showed the tribute, a win by trumps
        self.started_in_play = start is not None and start.phase is Phase.PLAY  # a position past its setup
        # Another seat picking at the start: its hand is still to come from the offered ones.
        self.picking = start.to_move if start is not None and start.setup_step == "pick" else None
        if start is not None:
            self.start_stock = len(start.stock)
            self.world = start
            self.plan = self._plan()
            self._arrange()
            self.owed = len(start.drawn[self.seat])
            return
        seats = seen.players - len(self.absent)
        self.start_stock = rules.deck - seats * rules.hand_size  # the stock after the deal (§1.2)
        self._check_deal()
        self.plan = self._plan()
        first = list(seen.deck) if seen.deck is not None else self._first_deck()
        try:
            self.world = Game.deal(rules, seen.players, deck=first, first_attacker=seen.first_attacker,
                                   tribute=seen.tribute, absent=self.absent)
        except TanError as error:
            raise RecordError(error.message, code=error.code) from None
        self.owed = len(self.world.drawn[self.seat])  # a tribute's draw at the deal

    @classmethod
    def from_position(cls, position: Position, events: Sequence[Event], watch: Watch | None = None) -> Replay:
        """The replay of `events` after `position` (what its seat saw then): the unseen cards
        dealt in one fixed way, then moved where the events show them."""
        world = position.sample_game(random.Random(0))
        world.drawn = [[] for _ in range(world.players)]  # nothing drawn before the position
        setup = position.setup if position.phase is Phase.SETUP else None
        seen = Seen(
            position.rules, position.players, position.seat, tuple(position.hand), position.trump,
            position.attacker, tuple(events), position.match, None if setup is None else setup.tribute,
        )
        return cls(seen, watch, start=world)

    # -- the plan and the first deck ---------------------------------------------------------

    def _check_deal(self) -> None:
        """The seat's dealt hand and the trump card fit the deal (docs/rules.md §1.2), and the
        whole deck, when the record gives it, deals them."""
        record, rules = self.record, self.record.rules
        h, full = rules.hand_size, deck(rules.deck)
        want = 0 if record.seat in self.absent else h
        if len(set(record.hand)) != want or len(record.hand) != want:
            raise RecordError(f"hand: {len(record.hand)} different cards dealt, {want} wanted",
                              code=ErrorCode.COUNT_MISMATCH)
        if not set(record.hand) | {record.trump} <= set(full):
            raise RecordError(f"hand, trump: a card outside the {rules.deck}-card deck",
                              code=ErrorCode.CARD_NOT_IN_DECK)
        seats = [other for other in range(record.players) if other not in self.absent]
        if record.first_attacker not in seats:
            raise RecordError(f"first_attacker: seat {record.first_attacker} sits this game out",
                              code=ErrorCode.INVALID_SEAT)
        dealt = len(seats) * h
        last = seats[(dealt - 1) % len(seats)]
        if dealt < rules.deck and record.trump in record.hand:
            raise RecordError(f"trump: {record.trump} is turned up under the stock, not dealt to the seat",
                              code=ErrorCode.DUPLICATE_CARD)
        if dealt == rules.deck and last == record.seat and record.trump not in record.hand:
            raise RecordError(f"trump: the last card dealt, {record.trump}, is the seat's own",
                              code=ErrorCode.COUNT_MISMATCH)
        if record.deck is None:
            return
        cards = list(record.deck)
        if sorted(cards) != full:
            raise RecordError(f"deck: every card of the {rules.deck}-card deck once, top first",
                              code=ErrorCode.COUNT_MISMATCH)
        mine = {cards[i] for i in range(dealt) if seats[i % len(seats)] == record.seat}
        trump = cards[dealt] if dealt < rules.deck else cards[-1]
        if mine != set(record.hand) or trump != record.trump:
            raise RecordError("deck: it does not deal the seat's hand and trump card",
                              code=ErrorCode.COUNT_MISMATCH)

    def _plan(self) -> _Plan:
        """What the events say of the other seats' hands before the first lead."""
        record, plan = self.record, _Plan()
        events = list(enumerate(record.events))
        tribute = next(((i, e) for i, e in events if isinstance(e, Tribute)), None)
        winner = next(((i, e) for i, e in events if isinstance(e, AllTrumps)), None)
        given = tribute[1].card if tribute is not None else None
        for index, event in events:
            if isinstance(event, Play):
                self._plan_move(plan, index, event, given)
        if record.tribute is not None:
            self._plan_tribute(plan, record.tribute, tribute)
        elif tribute is not None:
            raise RecordError("no tribute is owed in this game (see tribute)", tribute[0])
        if winner is not None and winner[1].seat != self.seat:
            self._plan_win(plan, *winner, tribute[1].card if tribute is not None else None)
        if record.rules.all_trumps_wins:  # no unseen hand of trumps may win before the first lead
            plan.plain = {other for other in range(record.players) if other != self.seat}
            plan.plain -= set(plan.redealers) | ({winner[1].seat} if winner is not None else set())
        return plan

    def _plan_move(self, plan: _Plan, index: int, event: Play, given: Card | None) -> None:
        """A redeal shows a hand (and, the seat's own, the hands offered); a swap shows the low
        trump, which another seat holds unless a tribute gave it (`given`)."""
        seat, action = self.seat, event.move.action
        if action is Action.REDEAL:
            if event.seat in plan.redealers:
                raise RecordError(f"seat {event.seat} has already redealt in this game", index,
                                  ErrorCode.ILLEGAL_MOVE)
            plan.redealers[event.seat] = index
            self._check_shown(event, index)
            if event.seat == seat:
                if event.sets is None:
                    raise RecordError("sets: the seat's own redeal shows it the two hands offered", index)
                plan.offered[index] = self._offered(event.sets, index)
            elif event.sets is not None:
                raise RecordError(f"sets: only seat {event.seat} sees the hands offered to it", index)
            else:
                plan.hold(event.seat, event.shown, index)
        elif action is Action.SWAP and event.seat != seat:
            plan.swapper = event.seat
            owed = self.record.tribute
            by_tribute = given == self.low and owed is not None and owed[1] == event.seat
            if event.seat not in plan.redealers and event.seat != self.picking and not by_tribute:
                plan.hold(event.seat, [self.low], index)

    def _plan_tribute(self, plan: _Plan, owed: tuple[int, int], shown: tuple[int, Tribute] | None) -> None:
        """The giver's hand: its highest trump given (known to the receiver, with the hand it
        inspected), at least one trump if the seat saw a tribute, none if it saw none."""
        record, seat, h = self.record, self.seat, self.record.rules.hand_size
        giver, receiver = owed
        if shown is None:
            if giver != seat:
                plan.no_trump.add(giver)
            return
        index, tribute = shown
        if giver in plan.redealers:
            raise RecordError(f"seat {giver} redealt, so it gives no tribute", index, ErrorCode.ILLEGAL_MOVE)
        after = record.events[index + 1] if index + 1 < len(record.events) else None
        if giver == seat:
            if isinstance(after, Draw) and not plan.redealers:
                # drawn from the top of the stock (a redeal would have shuffled it)
                plan.top = [card for card in after.cards if card not in record.hand and card != record.trump]
            return
        card = tribute.card
        if seat == receiver:
            if card is None or card.suit != record.trump.suit:
                raise RecordError("tribute: the receiver sees the trump it is given", index)
            plan.hold(giver, [card], index)
            plan.cap[giver] = card
            if tribute.inspected is not None:
                if len(tribute.inspected) != h - 1:
                    raise RecordError(f"inspected: the giver holds {h - 1} cards after giving, not "
                                      f"{len(tribute.inspected)}", index, ErrorCode.COUNT_MISMATCH)
                plan.hold(giver, tribute.inspected, index)
                plan.exact.add(giver)
        elif card is not None:  # the trump card, dealt last and shown: everyone saw it go (§1.2)
            if card != record.trump or self.start_stock > 0:
                raise RecordError(f"tribute: seat {seat} does not see the card given", index)
            plan.cap[giver] = card
        else:
            plan.trumps[giver] = 1
        if plan.swapper == giver:
            plan.trumps[giver] = 2  # it keeps the low trump it swaps after giving a higher one
            if giver in plan.exact and self.low not in (*(tribute.inspected or ()), card):
                plan.held[giver].discard(self.low)
                plan.top = [self.low]  # not in the hand inspected: the giver drew it

    def _plan_win(self, plan: _Plan, index: int, won: AllTrumps, given: Card | None) -> None:
        """Another seat's hand of trumps: shown, less the tribute it received (the giver's highest
        trump: where the seat did not see it, the highest of the hand)."""
        owed, shown = self.record.tribute, set(won.shown)
        received = any(isinstance(event, Tribute) for event in self.record.events)
        if owed is not None and won.seat == owed[1] and received:
            card = given if given is not None else max(shown)
            shown.discard(card)
            if owed[0] != self.seat:
                plan.hold(owed[0], [card], index)
                plan.cap[owed[0]] = card
        plan.hold(won.seat, shown, index)
        plan.exact.add(won.seat)

    def _check_shown(self, event: Play, index: int) -> None:
        h = self.record.rules.hand_size
        shown = set(event.shown)
        if len(shown) != h or len(event.shown) != h:
            raise RecordError(f"shown: a redeal shows the {h} cards of the hand, not {len(event.shown)}",
                              index, ErrorCode.COUNT_MISMATCH)
        self._in_deck(shown, "shown", index)
        trumps = sorted(card for card in shown if card.suit == self.record.trump.suit)
        if trumps:
            raise RecordError(f"shown: only a hand without trumps is redealt, not one holding {trumps[0]}",
                              index, ErrorCode.ILLEGAL_MOVE)
        if event.seat == self.seat and shown != set(self.record.hand):
            raise RecordError("shown: the seat's own redeal shows the hand it was dealt", index,
                              ErrorCode.COUNT_MISMATCH)
        mine = sorted(shown & set(self.record.hand)) if event.seat != self.seat else []
        if mine:
            raise RecordError(f"shown: {mine[0]} is in seat {self.seat}'s own hand", index,
                              ErrorCode.DUPLICATE_CARD)

    def _offered(self, sets: tuple[tuple[Card, ...], tuple[Card, ...]], index: int) -> set[Card]:
        h = self.record.rules.hand_size
        cards = [*sets[0], *sets[1]]
        if len(sets[0]) != h or len(sets[1]) != h or len(set(cards)) != 2 * h:
            raise RecordError(f"sets: two hands of {h} different cards are offered", index,
                              ErrorCode.COUNT_MISMATCH)
        self._in_deck(set(cards), "sets", index)
        seen = sorted(set(cards) & (set(self.record.hand) | {self.record.trump}))
        if seen:
            raise RecordError(f"sets: {seen[0]} cannot be offered from the stock: the seat has seen it "
                              "elsewhere", index, ErrorCode.DUPLICATE_CARD)
        return set(cards)

    def _in_deck(self, cards: set[Card], name: str, index: int) -> None:
        stray = sorted(cards - set(deck(self.record.rules.deck)))
        if stray:
            raise RecordError(f"{name}: {stray[0]} is not in a {self.record.rules.deck}-card deck", index,
                              ErrorCode.CARD_NOT_IN_DECK)

    def _arrange(self) -> None:
        """From a position: move the unseen cards of the world where the events show them, as the
        first deck places them for a record — the cards another seat will show in its hand, the
        hands offered to the seat's own redeal in the stock, no trump (or none above the tribute
        given) in a giver's hand, a card that is not trump in every hand that must not win by trumps."""
        world, plan, seat = self.world, self.plan, self.seat
        suit = world.trump.suit
        reserved = plan.reserved_after(-1)
        for other, cards in sorted(plan.held.items()):
            for card in sorted(cards):
                if card in reserved:
                    raise RecordError(f"{card} is offered to seat {seat} from the stock, so it is not in "
                                      f"seat {other}'s hand", plan.where.get(card), ErrorCode.DUPLICATE_CARD)
                give(world, seat, other, card, plan.where.get(card, 0), keep=cards)
        fixed = {card for cards in plan.held.values() for card in cards}

        def out(other: int, card: Card, fits: Callable[[Card], bool], index: int | None) -> None:
            free = lambda c: fits(c) and c not in reserved and c not in fixed  # noqa: E731
            _exchange(world, seat, other, card, free, index)

        for card in sorted(reserved):
            holder = next((other for other in range(world.players) if card in world.hands[other]), None)
            if holder is not None:
                out(holder, card, lambda _c: True, min(plan.offered))
        for other in range(world.players):
            if other == seat or other in plan.exact:
                continue
            cap = plan.cap.get(other)
            for card in sorted(world.hands[other]):
                high = cap is not None and card.suit == suit and card.rank > cap.rank
                if (other in plan.no_trump and card.suit == suit) or high:
                    out(other, card, lambda c: c.suit != suit, None)
            hand = world.hands[other]
            if other in plan.plain and hand and all(card.suit == suit for card in hand):
                spare = next((card for card in sorted(hand) if card not in fixed), None)
                if spare is not None:
                    out(other, spare, lambda c: c.suit != suit, None)

    def _first_deck(self) -> list[Card]:
        """A deck that deals the seat its hand, turns up the trump card and gives every other seat
        what the plan says it held, dealing the rest in deck order (docs/rules.md §1.2)."""
        record, plan, seat = self.record, self.plan, self.seat
        rules, n, h = record.rules, record.players, record.rules.hand_size
        trump = record.trump
        seats = [other for other in range(n) if other not in self.absent]
        dealt = len(seats) * h
        last = seats[(dealt - 1) % len(seats)]
        held = {other: set(plan.held.get(other, ())) for other in seats if other != seat}
        if dealt == rules.deck and last != seat:
            held[last].add(trump)  # no card is left to turn up: the last one dealt sets trump
        reserved = plan.reserved_after(-1) | ({self.low} if plan.swapper in plan.redealers else set())
        own = min(plan.offered, default=-1)  # the seat's own redeal, if any
        taken = set(record.hand) | {trump}
        for other, cards in held.items():
            clash = sorted(cards & taken - ({trump} if other == last and dealt == rules.deck else set()))
            if clash:
                raise RecordError(f"{clash[0]} is seen elsewhere, not in seat {other}'s hand",
                                  plan.where.get(clash[0]), ErrorCode.DUPLICATE_CARD)
            if plan.redealers.get(other, own) < own:
                reserved -= cards  # shown before the seat's own redeal: back in the stock by then
            clash = sorted(cards & reserved)
            if clash and clash[0] == self.low and plan.swapper in plan.redealers:
                raise RecordError(f"{clash[0]} lies in the stock for seat {plan.swapper} to pick and swap, "
                                  f"so it is not in seat {other}'s hand", plan.where.get(clash[0]),
                                  ErrorCode.DUPLICATE_CARD)
            if clash:
                raise RecordError(f"{clash[0]} is offered to seat {seat} from the stock, so it is not in "
                                  f"seat {other}'s hand", min(plan.offered), ErrorCode.DUPLICATE_CARD)
            if len(cards) > h:
                raise RecordError(f"seat {other} cannot hold {len(cards)} cards at the deal",
                                  plan.where.get(min(cards)), ErrorCode.COUNT_MISMATCH)
        pool = [card for card in deck(rules.deck)
                if card not in taken and card not in reserved and card not in plan.top
                and all(card not in c for c in held.values())]
        suit = trump.suit
        hidden = [other for other in seats if other != seat and other not in plan.exact]

        def allowed(card: Card, other: int) -> bool:
            if card.suit != suit:
                return True
            cap = plan.cap.get(other)
            return other not in plan.no_trump and (cap is None or card.rank < cap.rank)

        def give(other: int, wanted: Callable[[Card], bool], count: int) -> None:
            for card in [card for card in pool if wanted(card)][:max(count, 0)]:
                pool.remove(card)
                held[other].add(card)

        for other in hidden:  # first what the events ask for: trumps a giver gave, a card not trump
            hand = held[other]

            def trump_for(card: Card, other: int = other) -> bool:
                return card.suit == suit and allowed(card, other)

            give(other, trump_for, plan.trumps.get(other, 0) - sum(card.suit == suit for card in hand))
            if other in plan.plain and all(card.suit == suit for card in hand):
                give(other, lambda card: card.suit != suit, 1)
        for other in hidden:  # then the seats that may not hold every trump, before the others
            if other in plan.no_trump or other in plan.cap:
                give(other, lambda card: card.suit != suit, h - len(held[other]))
        room = [other for other in hidden if len(held[other]) < h]
        turn = 0
        for card in list(pool):  # then the rest in deck order, a card to each seat in turn
            for step in range(len(room)):
                other = room[(turn + step) % len(room)]
                if len(held[other]) < h and allowed(card, other):
                    pool.remove(card)
                    held[other].add(card)
                    turn = (turn + step + 1) % len(room)
                    break
        for other in seats:
            hand = held.get(other, set(record.hand))
            if len(hand) != h or (other in plan.no_trump and any(card.suit == suit for card in hand)):
                raise RecordError(f"seat {other}'s hand at the deal cannot be all the events show",
                                  plan.where.get(min(hand)) if hand else None)
        stock = [*plan.top, *sorted(reserved), *pool]
        mine = iter(sorted(record.hand, key=lambda c: c == trump))
        hands = {other: iter(sorted(cards, key=lambda c: c == trump)) for other, cards in held.items()}
        order = [next(mine) if seats[i % len(seats)] == seat else next(hands[seats[i % len(seats)]])
                 for i in range(dealt)]
        return order if dealt == rules.deck else [*order, trump, *stock]

    # -- the events ----------------------------------------------------------------------

    def run(self, settle: bool = False) -> Game:
        """Play the events in the world, one by one; the world at their end. With `settle`, another
        seat's secret setup decision left pending at the end is taken as a keep (`Record.replay`)."""
        record, seat = self.record, self.seat
        for index, event in enumerate(record.events):
            if isinstance(event, Draw):
                self._skip(lambda world: world.tribute is not None and not self.owed)
                self._check_shown_all(index, win=False)
                if not self.owed:
                    raise RecordError(f"seat {seat} draws nothing here", index, ErrorCode.COUNT_MISMATCH)
                self._drawn(event, index)
                continue
            if isinstance(event, Tribute):
                self._skip(lambda world: world.tribute is not None)
                self._tribute(event, index)
                continue
            if self.owed:
                raise RecordError(f"seat {seat} drew {self.owed} cards just before: the events must show "
                                  "them", index, ErrorCode.COUNT_MISMATCH)
            if isinstance(event, AllTrumps):
                self._skip(lambda world: not world.over)
                self._check_shown_all(index, win=False)
                self._all_trumps(event, index)
                continue
            self._play(event, index)
        if settle:
            self.settle()
        return self.world

    def settle(self) -> Game:
        """Another seat's secret setup decision pending at the end was a keep, and so were the next
        ones, up to the seat's own turn or a public one: the seat asks at its own turn, which only
        such keeps can hide (`Record.replay`)."""
        if not self.owed:
            self._skip(lambda _world: True, own=True)
        return self.world

    def finish(self) -> None:
        """The events end with nothing owed: the seat's draw, a tribute or a win by trumps the world
        made must be shown."""
        end = len(self.record.events)
        if self.owed:
            raise RecordError(f"seat {self.seat} drew {self.owed} cards at the end: the events must show "
                              "them", end, ErrorCode.COUNT_MISMATCH)
        self._check_shown_all(end)

    def unshown(self) -> str | None:
        """What the world has done that the events have not shown yet: `tribute` (a tribute given),
        `win` (a win by a hand of trumps), or None."""
        world = self.world
        if world.tributed is not None and not self.tribute_shown:
            return "tribute"
        if not self.win_shown and world.over and world.winner is not None and world.loser is None:
            return "win"  # only a win by trumps ends a game with a winner and no loser
        return None

    def _check_shown_all(self, index: int, win: bool = True) -> None:
        """A tribute the world gave, or (with `win`) a win by trumps, must be in the events before
        `index`."""
        unshown = self.unshown()
        if unshown == "tribute":
            raise RecordError("a tribute was given before this: the events must show it", index)
        if win and unshown == "win":
            raise RecordError(f"seat {self.world.winner} won by a hand of trumps before this: the events "
                              "must show it", index)

    def _skip(self, until: Callable[[Game], bool], seat: int | None = None, step: str | None = None,
              own: bool = False) -> None:
        """Another seat's secret setup decisions the seat could not see: it kept, while `until(world)`
        holds (and unless it is `seat`'s decision at `step`, the event's); and the seat's own turns
        with nothing to decide (`nothing_to_decide`), which a record may leave out as a table never
        hears them — unless the event is that keep, or `own` stops at every turn of the seat's."""
        world = self.world
        while (world.phase is Phase.SETUP and not world.over and world.to_move is not None
               and secret_decision(world.setup_step) and until(world)):
            own_keep = own or (seat == self.seat and step is None)  # the event is the seat's own keep
            if world.to_move == self.seat and (own_keep or not nothing_to_decide(world.legal_moves())):
                return
            if world.to_move == seat and world.setup_step == step:
                return
            mover = world.to_move
            self.known = set(world.in_stock[self.seat])
            world.play(Move.keep(), mover)
            self.owed = len(world.drawn[self.seat])

    def _play(self, event: Play, index: int) -> None:
        world, seat, move = self.world, self.seat, event.move
        try:
            if move.is_setup:
                self._skip(lambda _world: True, event.seat, _STEP_OF.get(move.action))
            else:
                self._skip(lambda _world: True)
            self._check_shown_all(index)
            if world.over:
                raise RecordError("the game is already over", index, ErrorCode.GAME_OVER)
            if move.action is Action.REDEAL:
                self._before_redeal(event, index)
            elif move.action is Action.PICK and event.seat != seat:
                self._before_pick(event, index)
            if move.card is not None and event.seat != seat:
                give(world, seat, event.seat, move.card, index)
                if world.rules.twos_last and move.card.rank is Rank.TWO and move.action is not Action.DEFEND:
                    _only_twos(world, seat, event.seat, index)
            before = world.clone() if self.watch is not None else None
            # what the seat may know lies in the stock once this move is played: a pick puts back
            # the shown hand, and for the seat's own pick the hand it did not take
            offered = world.redeal_sets if event.seat == seat else None
            self.known = set(world.in_stock[seat]) | set(world.shown)
            self.known |= {card for part in offered or () for card in part}
            saved = world.clone() if world.rules.trump_ace_last_loses else None
            world.play(move, event.seat)
            last = index + 1 == len(self.record.events)
            if saved is not None and last and not world.over and self._ace_to_loser(saved, move):
                # the record ends lost by thối A chủ: the loser's last card was the trump ace
                world = self.world = saved
                before = world.clone() if self.watch is not None else None
                world.play(move, event.seat)
            if saved is not None and not last and self._unseen_ace_lost(saved):
                # thối A chủ ended the world's game with an ace nobody saw, where the record goes on:
                # the ace lay elsewhere (docs/rules.md §1.5)
                world = self.world = saved
                before = world.clone() if self.watch is not None else None
                world.play(move, event.seat)
        except RecordError:
            raise
        except TanError as error:
            raise RecordError(error.message, index, error.code) from None
        if self.watch is not None and before is not None:
            self.watch(index, event, before, world)
        self.owed = len(world.drawn[seat])

    def _ace_to_loser(self, saved: Game, move: Move) -> bool:
        """The record's result names a loser the world's game has not ended on: if the trump ace
        lies unseen, `saved` (the world before the last move) gives it to the loser in place of an
        unseen card, and True is answered (docs/rules.md §1.5, thối A chủ)."""
        result, seat = self.record.result, self.seat
        if result is None or list(result).count(0.0) != 1 or 0.5 in result:
            return False
        loser = result.index(0.0)
        ace = Card(Rank.ACE, saved.trump.suit)
        if loser == seat or ace in saved.hands[loser] or not _unseen_elsewhere(saved, seat, ace):
            return False
        spare = [card for card in saved.hands[loser]
                 if card != move.card and not _seen(saved, seat, loser, card)]
        if not spare:
            return False
        _swap(saved, loser, spare[0], ace, -1, seat)
        return True

    def _unseen_ace_lost(self, saved: Game) -> bool:
        """The last move ended the world's game by a trump ace left alone in a hand whose ace the
        seat never saw; if so, `saved` (the world before the move) gets the ace in another unseen
        place, and True is answered."""
        world, seat = self.world, self.seat
        loser = world.loser
        ace = Card(Rank.ACE, world.trump.suit)
        if not world.over or loser is None or loser == seat or world.hands[loser] != {ace}:
            return False
        if ace not in saved.hands[loser] or _seen(saved, seat, loser, ace):
            return False
        # the ace goes to the fullest other hand, where it is not left alone
        for other in sorted(range(saved.players), key=lambda other: -len(saved.hands[other])):
            if other in (seat, loser) or other in saved.finished or len(saved.hands[other]) < 2:
                continue
            spare = [card for card in saved.hands[other]
                     if card != ace and not _seen(saved, seat, other, card)]
            if spare:
                _swap(saved, loser, ace, spare[0], -1, seat)
                return True
        return False

    def _before_redeal(self, event: Play, index: int) -> None:
        world, seat = self.world, self.seat
        if world.to_move != event.seat or world.setup_step != "redeal":
            return  # the move is refused as it is played
        if event.seat != seat:
            if set(world.hands[event.seat]) != set(event.shown):
                raise RecordError(f"seat {event.seat} cannot show these cards: some were seen elsewhere",
                                  index, ErrorCode.ILLEGAL_MOVE)
            return
        assert event.sets is not None
        wanted = [*event.sets[0], *event.sets[1]]
        stock = world.stock
        for place, card in enumerate(wanted):
            if card not in stock[:-1]:
                raise RecordError(f"sets: {card} cannot be in the stock here (it was seen elsewhere)", index,
                                  ErrorCode.ILLEGAL_MOVE)
            at = stock.index(card)
            stock[place], stock[at] = stock[at], stock[place]

    def _before_pick(self, event: Play, index: int) -> None:
        """Another seat picks: its new hand holds the low trump it will swap and nothing offered to
        the record's seat later (both unseen, so the world may choose)."""
        world, plan = self.world, self.plan
        if world.redeal_sets is None or event.move.choice is None or world.to_move != event.seat:
            return
        picked = world.redeal_sets[event.move.choice]
        out = plan.reserved_after(index)
        # where an unseen card may come from: the stock above the trump card, the hand not picked
        spare = [(world.stock, len(world.stock) - 1), (world.redeal_sets[1 - event.move.choice], None)]
        if plan.swapper == event.seat and self.low not in picked:
            for cards, end in spare:
                if self.low in cards[:end]:
                    at = cards.index(self.low)
                    victim = next((i for i, card in enumerate(picked) if card in out), 0)
                    cards[at], picked[victim] = picked[victim], cards[at]
                    break
        for i, card in enumerate(picked):
            if card not in out:
                continue
            for cards, end in spare:
                free = next((j for j, other in enumerate(cards[:end])
                             if other not in out and other != self.low), None)
                if free is not None:
                    cards[free], picked[i] = picked[i], cards[free]
                    break

    def _tribute(self, event: Tribute, index: int) -> None:
        world, seat = self.world, self.seat
        given = world.tributed
        if self.record.tribute is None or given is None or world.tribute is not None:
            raise RecordError("no tribute was given here", index, ErrorCode.ILLEGAL_MOVE)
        giver, receiver, card = given
        if seat in (giver, receiver):
            if event.card != card:
                raise RecordError(f"tribute: seat {giver} gives its highest trump, {card}, not {event.card}",
                                  index, ErrorCode.ILLEGAL_MOVE)
        elif event.card != (card if card == world.trump and not world.stock else None):
            raise RecordError(f"tribute: seat {seat} sees the card given only when it is the trump card "
                              "dealt last", index, ErrorCode.ILLEGAL_MOVE)
        inspected = world.seen[receiver][giver] if seat == receiver else set()
        if seat == receiver and (event.inspected is None) != (not inspected):
            want = "shows the giver's hand it inspects" if inspected else "inspects no hand here"
            raise RecordError(f"inspected: the receiver {want}", index, ErrorCode.COUNT_MISMATCH)
        if inspected and set(event.inspected or ()) != inspected:
            raise RecordError("inspected: the giver's hand cannot be that one", index, ErrorCode.ILLEGAL_MOVE)
        if seat != receiver and event.inspected is not None:
            raise RecordError("inspected: only the receiver inspects the giver's hand", index)
        self.tribute_shown = True

    def _all_trumps(self, event: AllTrumps, index: int) -> None:
        world = self.world
        won = world.over and world.winner == event.seat and world.loser is None
        if not won or set(world.hands[event.seat]) != set(event.shown):
            raise RecordError(f"seat {event.seat} cannot win by this hand of trumps here", index,
                              ErrorCode.ILLEGAL_MOVE)
        self.win_shown = True

    # -- the seat's own draws ------------------------------------------------------------

    def _drawn(self, event: Draw, index: int) -> None:
        draw_as_seen(self.world, self.seat, event.cards, index, self.known)
        self.owed = 0


def draw_as_seen(world: Game, seat: int, cards: tuple[Card, ...], index: int, known: set[Card]) -> None:
    """`seat` drew `cards`: the world's draw is made to agree, exchanging unseen cards; a card it
    knew lay in the stock (`known`, before the move that drew) and did not draw stays there
    (docs/rules.md §1.7). The one repair of a draw, for a record's replay and for a game followed
    from a position (solver.game.follow)."""
    drawn = world.drawn[seat]
    if len(drawn) != len(cards):
        raise RecordError(f"draw: seat {seat} drew {len(drawn)} cards here, not {len(cards)}",
                          index, ErrorCode.COUNT_MISMATCH)
    others = any(world.drawn[other] for other in range(world.players) if other != seat)
    known = set() if others else known
    spares = sorted((card for card in drawn if card not in cards), key=lambda c: c not in known)
    wanted = sorted((card for card in cards if card not in drawn), key=lambda card: card not in world.stock)
    for card in wanted:
        _take(world, seat, spares.pop(0), card, index, keep_in_stock=known)
    world.drawn[seat] = list(cards)
    if not others:
        world.in_stock[seat] = (world.in_stock[seat] | (known & set(world.stock))) - set(cards)


def _take(world: Game, seat: int, mine: Card, theirs: Card, index: int, keep_in_stock: set[Card]) -> None:
    """The seat drew `theirs`, not `mine`: exchange them. A card it knows lies in the stock and did
    not draw goes back into the stock, so a holder of `theirs` gets an unseen stock card instead."""
    if theirs == world.trump and world.stock:
        raise RecordError(f"{theirs} is the trump card under the stock", index, ErrorCode.ILLEGAL_MOVE)
    holder = next((other for other in range(world.players) if other != seat and theirs in world.hands[other]),
                  None)
    stock = world.stock
    if holder is None:
        if theirs not in stock:
            raise RecordError(f"{theirs} cannot be drawn here (it was seen elsewhere)", index,
                              ErrorCode.ILLEGAL_MOVE)
        stock[stock.index(theirs)] = mine
    else:
        if _seen(world, seat, holder, theirs):
            raise RecordError(f"{theirs} is known to be elsewhere (seat {holder})", index,
                              ErrorCode.ILLEGAL_MOVE)
        gift = mine
        if mine in keep_in_stock:
            unseen = next((i for i in range(len(stock) - 1)
                           if stock[i] not in keep_in_stock and stock[i] not in world.in_stock[seat]), None)
            if unseen is None:
                raise RecordError(f"{theirs} cannot be drawn here", index, ErrorCode.ILLEGAL_MOVE)
            gift, stock[unseen] = stock[unseen], mine
        world.hands[holder].discard(theirs)
        world.hands[holder].add(gift)
    world.hands[seat].discard(mine)
    world.hands[seat].add(theirs)


def give(world: Game, viewer: int, seat: int, card: Card, index: int,
         keep: set[Card] | frozenset[Card] = frozenset()) -> None:
    """Make `seat` hold `card` in the world, if the viewer could not know otherwise (giving up a
    card it holds unseen, not one of `keep`)."""
    if card in world.hands[seat]:
        return
    donor = [c for c in sorted(world.hands[seat]) if not _seen(world, viewer, seat, c) and c not in keep]
    if not donor:
        raise RecordError(f"seat {seat} cannot hold {card}: every card it holds is known", index,
                          ErrorCode.ILLEGAL_MOVE)
    _swap(world, seat, donor[0], card, index, viewer)


def _exchange(world: Game, viewer: int, seat: int, card: Card, fits: Callable[[Card], bool],
              index: int | None) -> None:
    """Put `card`, unseen in `seat`'s hand, into the stock in place of an unseen stock card that
    `fits` (the stock's trump card and the cards the viewer knows lie there stay)."""
    stock = world.stock
    spare = next((other for other in stock[:-1] if other not in world.in_stock[viewer] and fits(other)), None)
    if spare is None or _seen(world, viewer, seat, card):
        raise RecordError(f"seat {seat}'s hand cannot be all the events show ({card})", index,
                          ErrorCode.ILLEGAL_MOVE)
    _swap(world, seat, card, spare, -1 if index is None else index, viewer)


def _only_twos(world: Game, viewer: int, seat: int, index: int) -> None:
    """đút 2 (docs/rules.md §1.8): a seat that leads, throws in or transfers a 2 holds only 2s, so
    the world's other cards in its hand are exchanged for unseen 2s."""
    for card in sorted(world.hands[seat]):
        if card.rank is Rank.TWO:
            continue
        if _seen(world, viewer, seat, card):
            raise RecordError(f"seat {seat} plays a 2 while it is known to hold {card} (đút 2)", index,
                              ErrorCode.ILLEGAL_MOVE)
        hidden = [two for two in deck(world.rules.deck) if two.rank is Rank.TWO
                  and two not in world.hands[seat] and _unseen_elsewhere(world, viewer, two)]
        if not hidden:
            raise RecordError(f"seat {seat} cannot hold only 2s here (đút 2)", index, ErrorCode.ILLEGAL_MOVE)
        _swap(world, seat, card, hidden[0], index, viewer)


def _unseen_elsewhere(world: Game, viewer: int, card: Card) -> bool:
    """`card` lies somewhere `viewer` cannot see: another seat's unknown slot, or the stock above
    the trump card (and not where the viewer knows it lies)."""
    for other in range(world.players):
        if card in world.hands[other]:
            return other != viewer and not _seen(world, viewer, other, card)
    stock = world.stock
    return card in stock[:-1] and card not in world.in_stock[viewer]


def _seen(world: Game, viewer: int, holder: int, card: Card) -> bool:
    return card in world.known[holder] or card in world.seen[viewer][holder]


def _swap(world: Game, seat: int, mine: Card, theirs: Card, index: int, viewer: int) -> None:
    """Exchange `mine` (in `seat`'s hand, unseen by `viewer`) with `theirs` (hidden elsewhere)."""
    if theirs == world.trump and world.stock:
        raise RecordError(f"{theirs} is the trump card under the stock", index, ErrorCode.ILLEGAL_MOVE)
    for other in range(world.players):
        if theirs in world.hands[other]:
            if other == viewer or _seen(world, viewer, other, theirs):
                raise RecordError(f"{theirs} is known to be elsewhere (seat {other})", index,
                                  ErrorCode.ILLEGAL_MOVE)
            world.hands[other].discard(theirs)
            world.hands[other].add(mine)
            break
    else:
        # Hands offered to another seat's pick are as unseen as the stock (docs/rules.md §1.7).
        offered = world.redeal_sets if world.setup_step == "pick" and world.to_move != viewer else None
        part = next((cards for cards in offered or () if theirs in cards), None)
        if part is not None:
            part[part.index(theirs)] = mine
        elif theirs in world.stock and theirs not in world.in_stock[viewer]:
            world.stock[world.stock.index(theirs)] = mine
        else:
            raise RecordError(f"{theirs} cannot be in seat {seat}'s hand (it was seen elsewhere)", index,
                              ErrorCode.ILLEGAL_MOVE)
    world.hands[seat].discard(mine)
    world.hands[seat].add(theirs)

