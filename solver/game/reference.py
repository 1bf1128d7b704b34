"""The plain, readable rules of bài Tấn / Durak: the oracle (docs/rules.md).

`Game` is a full-information game state in ordinary Python sets and lists.
It is written to be read next to docs/rules.md, not to be
fast: the Cython core (`solver/core/_core.pyx`) plays the same game quickly, and
the differential tests hold the two to identical legal-move lists and
`snapshot()`s on every state.

Each action has three faces, as in pokerkit: `verify()` raises with the
reason a move is refused, `can()` answers a bool, `play()` applies a move and
returns a `MoveRecord`.

Questions that need only public fields live beside it, shared with positions:
whose turn, the attack limit and what a table may hold in `solver.game.bout`;
the phases, a redeal offered, a win by trumps, the loser and the scores in
`solver.game.phases`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from types import EllipsisType
from typing import Any

from solver.game.bounds import HISTORY_CAP
from solver.game.bout import (
    Pair,
    around,
    attack_limit,
    check_turn,
    next_active,
    place_cards,
    role_of,
    seat_to_move,
    throwers,
)
from solver.game.cards import Card, Rank, Suit, deck, parse_cards
from solver.game.chance import ChanceRng
from solver.game.errors import (
    ErrorCode,
    GameOverError,
    IllegalMoveError,
    NotYourTurnError,
    PositionError,
    Refusal,
)
from solver.game.moves import Action, Move
from solver.game.phases import (
    LeadReason,
    Phase,
    all_trumps_win,
    final_scores,
    game_loser,
    redeal_asked,
    redeal_offered,
    swap_asked,
    trump_ace_loses,
)
from solver.game.rules import DefenderEmpty, FirstAttacker, RefillOrder, Rules

__all__ = [
    "Game",
    "MoveRecord",
    "SetupState",
    "play_random_game",
    "random_deck",
]



@dataclass(frozen=True)
class SetupState:
    """Where a game stands in its setup (docs/rules.md §1.7): the pending `step` (`redeal`,
    `pick` or `swap`), the seat that would lead, the seats that redealt, the two offered hands
    and the shown one while a pick is pending, and the tribute still to come."""

    step: str
    leader: int
    redealt: tuple[int, ...] = ()
    sets: tuple[tuple[Card, ...], tuple[Card, ...]] | None = None
    shown: tuple[Card, ...] = ()
    tribute: tuple[int, int] | None = None


@dataclass(frozen=True)
class MoveRecord:
    """What `Game.play` did: who moved, the move, and whether it ended the bout or the game."""

    seat: int
    move: Move
    bout_ended: bool = False
    game_over: bool = False


# -- the game -------------------------------------------------------------------------


class Game:
    """A full-information game of bài Tấn / Durak (docs/rules.md), mutable, in plain Python.

    The public attributes are read by other modules (positions, bots, the
    service). Build one with `Game.deal` or `Game.from_parts`; change it only
    through `play`.
    """

    rules: Rules
    players: int
    hands: list[set[Card]]
    stock: list[Card]
    trump: Card
    discard: list[Card]
    table: list[Pair]
    attacker: int
    defender: int
    to_move: int | None
    taking: bool
    passed: set[int]
    finished: list[int]
    defended_once: bool
    known: list[set[Card]]
    over: bool
    loser: int | None
    scores: list[float] | None
    plies: int
    # The setup before the first lead (docs/rules.md §1.7) and the game's winner (§1.8).
    phase: Phase
    setup_step: str | None
    leader: int
    lead_reason: LeadReason | None  # why `leader` leads (None: a game built mid-way, `from_parts`)
    redealt: set[int]
    redeal_sets: tuple[list[Card], list[Card]] | None
    shown: list[Card]
    tribute: tuple[int, int] | None
    tributed: tuple[int, int, Card] | None
    swapper: int | None
    winner: int | None
    first_out: int | None
    two_out: int | None
    last_played: list[Card | None]
    chance: ChanceRng
    seen: list[list[set[Card]]]
    in_stock: list[set[Card]]

    def __init__(self, rules: Rules, players: int, trump: Card) -> None:
        """An empty table; use `deal` or `from_parts` instead."""
        self.rules = rules
        self.players = players
        self.hands = [set() for _ in range(players)]
        self.stock = []
        self.trump = trump
        self.discard = []
        self.table = []
        self.attacker = 0
        self.defender = 1 % players
        self.to_move = 0
        self.taking = False
        self.passed = set()
        self.finished = []
        self.defended_once = False
        self.known = [set() for _ in range(players)]
        self.over = False
        self.loser = None
        self.scores = None
        self.plies = 0  # moves played since the deal (or since `from_parts`)
        self.phase = Phase.PLAY
        self.setup_step = None
        self.leader = 0
        self.lead_reason = None
        self.redealt = set()
        self.redeal_sets = None
        self.shown = []
        self.tribute = None
        self.tributed = None
        self.swapper = None
        self.winner = None
        self.first_out = None
        self.two_out = None
        self.last_played = [None] * players
        self.chance = ChanceRng(0)
        # What each seat knows beyond the public `known`: seen[viewer][holder] are cards the
        # viewer alone knows in holder's hand; in_stock[viewer] cards it knows lie in the stock.
        self.seen = [[set() for _ in range(players)] for _ in range(players)]
        self.in_stock = [set() for _ in range(players)]
        self.drawn: list[list[Card]] = [[] for _ in range(players)]  # what each seat drew in the last move
        self._redeal_index = 0
        # Repetition (docs/rules.md §1.5, repetition): bout-start keys since
        # the last defence or draw, and the seats active when the current bout began.
        self._history: list[tuple[Any, ...]] = []
        self._bout_active: frozenset[int] = frozenset(range(players))

    # -- construction ---------------------------------------------------------------

    @classmethod
    def deal(
        cls,
        rules: Rules,
        players: int,
        seed: int | None = None,
        deck: Sequence[Card | str] | None = None,
        first_attacker: int | None = None,
        *,
        chance_seed: int | None = None,
        tribute: tuple[int, int] | None = None,
        absent: Sequence[int] = (),
        lead_reason: LeadReason | None = None,
    ) -> Game:
        """Deal a new game (docs/rules.md §1.2) from a shuffled deck (`seed`) or an ordered one
        (`deck`, top first), then play its setup's forced steps (§1.7).

        `first_attacker`: who would lead (default: as the rules say, on the hands as
        dealt), and `lead_reason` why (a match names its later games' leaders, §1.9; default:
        the rules' reason when they pick that seat too, else `named`); `chance_seed`: the seed of
        the game's chance events, the redeal's shuffle (default: `seed`, else 0); `tribute`:
        `(giver, receiver)` when a match owes one (§1.9); `absent`: seats dealt no cards,
        finished from the start (the others' game after a trump repeat, §1.9).
        """
        rules.check_players(players)
        if (seed is None) == (deck is None):
            raise ValueError("give exactly one of seed and deck")
        cards = random_deck(rules, seed) if deck is None else _check_deck(rules, deck)
        seats = [seat for seat in range(players) if seat not in absent]
        if len(seats) < 2:
            raise PositionError(f"absent: {list(absent)} leaves fewer than two seats", ErrorCode.INVALID_SEAT)
        dealt = len(seats) * rules.hand_size
        if dealt < len(cards):
            trump = cards[dealt]
            stock = [*cards[dealt + 1 :], trump]
        else:
            # No card left for the trump card: the last dealt card sets trump (docs/rules.md §1.2).
            trump = cards[-1]
            stock = []
        game = cls(rules, players, trump)
        for i, card in enumerate(cards[:dealt]):
            game.hands[seats[i % len(seats)]].add(card)
        game.stock = stock
        game.finished = [seat for seat in range(players) if seat in absent]
        if not stock:
            game.known[seats[(dealt - 1) % len(seats)]].add(trump)
        ruled, why = game._first_attacker()
        if first_attacker is None:
            first_attacker = ruled
        elif isinstance(first_attacker, bool) or first_attacker not in seats:
            raise PositionError(
                f"first_attacker: no seat {first_attacker!r} plays this {players}-seat game",
                ErrorCode.INVALID_SEAT,
            )
        if lead_reason is None:
            lead_reason = why if first_attacker == ruled else LeadReason.NAMED
        game.chance = ChanceRng(chance_seed if chance_seed is not None else seed if seed is not None else 0)
        game.lead_reason = lead_reason
        game._begin(first_attacker, tribute)
        return game

    # -- the setup (docs/rules.md §1.7) ----------------------------------------------

    def _begin(self, leader: int, tribute: tuple[int, int] | None) -> None:
        """The setup's steps from the start, then the first bout."""
        self.leader = leader
        self.tribute = tribute if self.rules.tribute else None
        if not self.rules.has_setup:
            self._start_play()
            return
        self.phase = Phase.SETUP
        self._redeal_index = 0
        self._advance_setup()

    def _setup_order(self) -> list[int]:
        """Play order from the seat that would lead: the order of the redeal and all-trumps steps."""
        return [seat for seat in ((self.leader + k) % self.players for k in range(self.players))
                if seat not in self.finished]

    def _redeal_asked(self, seat: int) -> bool:
        """The seat is asked in the xả chủ round: decided on public facts only (docs/rules.md §1.7)."""
        return redeal_asked(self.rules, seat in self.redealt, len(self.stock))

    def _may_redeal(self, seat: int) -> bool:
        """xả chủ is offered: asked, and no trump in hand."""
        holds_trump = any(card.suit == self.trump_suit for card in self.hands[seat])
        return redeal_offered(self.rules, holds_trump, seat in self.redealt, len(self.stock))

    def _low_trump(self) -> Card:
        """The lowest trump of the deck: the 2 in 52 cards, the 6 in 36."""
        return Card(deck(self.rules.deck)[0].rank, self.trump_suit)

    def _may_swap(self, seat: int) -> bool:
        """The seat asked in the đổi 2 chủ round holds the lowest trump, so may swap it."""
        return self._low_trump() in self.hands[seat]

    def _advance_setup(self) -> None:
        """Play the setup's forced steps until a seat is asked or the first bout begins. Every seat
        is asked in a round that is held, whatever it holds (docs/rules.md §1.7): a seat with no
        choice answers `keep` like one that keeps, so the others' wait shows nothing."""
        order = self._setup_order()
        while self._redeal_index < len(order):
            seat = order[self._redeal_index]
            if self._redeal_asked(seat):
                self.setup_step = "redeal"
                self.to_move = seat
                return
            self._redeal_index += 1
        if self.tribute is not None:
            self._give_tribute(*self.tribute)
            self.tribute = None
        if self.rules.all_trumps_wins:
            for seat in order:
                hand = self.hands[seat]
                if all_trumps_win(self.rules, hand, self.trump_suit, seat in self.redealt):
                    self.known[seat] |= hand  # shown to claim the win
                    self.winner = seat
                    self._end_setup()
                    self._game_over(None)
                    return
        if swap_asked(self.rules, len(self.stock), self._low_trump() == self.trump):
            self._ask_swap(0)
            return
        self._end_setup()
        self._start_play()

    def _ask_swap(self, index: int) -> None:
        """Ask the `index`-th seat of the setup order whether to swap; after the last, play."""
        order = self._setup_order()
        if index < len(order):
            self.setup_step = "swap"
            self.to_move = order[index]
            return
        self._end_setup()
        self._start_play()

    def _end_setup(self) -> None:
        self.setup_step = None
        self.redeal_sets = None

    def _give_tribute(self, giver: int, receiver: int) -> None:
        """cúng chủ: the last game's loser gives its highest trump to the last game's winner and draws
        one card; with `tribute_inspect` the receiver sees the giver's hand (docs/rules.md §1.7)."""
        trumps = sorted(card for card in self.hands[giver] if card.suit == self.trump_suit)
        if giver in self.redealt or not trumps:
            return
        card = trumps[-1]
        self.hands[giver].discard(card)
        self._forget(giver, card)
        self.hands[receiver].add(card)
        self.seen[giver][receiver].add(card)
        self.tributed = (giver, receiver, card)
        ace, king = Card(Rank.ACE, self.trump_suit), Card(Rank.KING, self.trump_suit)
        surely_highest = card == ace or (card == king and self.trump == ace)
        if self.rules.inspects_tribute and not surely_highest:
            self.seen[receiver][giver] = set(self.hands[giver])
        if self.stock:
            self._draw(giver, 1)

    def _play_setup(self, move: Move, seat: int) -> None:
        """A setup decision (docs/rules.md §1.7)."""
        h = self.rules.hand_size
        if move.action is Action.REDEAL:
            # The hand is shown and set aside; the next two hands of the stock are offered.
            self.shown = sorted(self.hands[seat])
            self.hands[seat] = set()
            self.known[seat].clear()
            for viewer in range(self.players):
                self.seen[viewer][seat].clear()
                if viewer != seat:
                    self.in_stock[viewer].clear()  # the offered hands may hold what it knew there
            self.redeal_sets = (self.stock[:h], self.stock[h : 2 * h])
            self.stock = self.stock[2 * h :]
            self.in_stock[seat] -= set(self.redeal_sets[0]) | set(self.redeal_sets[1])
            self.setup_step = "pick"
            return
        if move.action is Action.PICK:
            assert self.redeal_sets is not None and move.choice is not None
            picked, other = self.redeal_sets[move.choice], self.redeal_sets[1 - move.choice]
            self.hands[seat] = set(picked)
            # The other hand and the shown one go back under the stock's top, shuffled with
            # everything above the trump card (which stays at the bottom).
            rest = self.stock[:-1] + sorted(other) + self.shown
            self.chance.shuffle(rest)
            self.stock = [*rest, self.trump]
            self.in_stock[seat] = (self.in_stock[seat] - set(picked)) | set(other)
            for viewer in range(self.players):
                self.in_stock[viewer] |= set(self.shown)
            self.shown = []
            self.redeal_sets = None
            self.redealt.add(seat)
            self.setup_step = None
            self._redeal_index += 1
            self._advance_setup()
            return
        if move.action is Action.SWAP:
            low = self._low_trump()
            self.hands[seat].discard(low)
            self._forget(seat, low)
            self.hands[seat].add(self.trump)
            self.known[seat].add(self.trump)  # everyone saw it taken
            self.stock[-1] = low
            self.trump = low
            self.swapper = seat
            if self.rules.trump_swap_cedes_lead:
                self.leader = self._next_active(seat)
                self.lead_reason = LeadReason.TRUMP_SWAP
            self._end_setup()
            self._start_play()
            return
        # keep: nothing changes, and nobody else learns of it; the round goes on.
        if self.setup_step == "redeal":
            self._redeal_index += 1
            self.setup_step = None
            self._advance_setup()
        else:
            self._ask_swap(self._setup_order().index(seat) + 1)

    def _start_play(self) -> None:
        """The first bout begins with the seat that leads (docs/rules.md §1.7, step 5)."""
        self.phase = Phase.PLAY
        self.setup_step = None
        self._start_bout(self.leader)
        self._check_trump_ace()

    def _first_attacker(self) -> tuple[int, LeadReason]:
        """docs/rules.md §1.2 `first_attacker`: seat 0, or the holder of the lowest trump (seat 0 if
        none), and why."""
        if self.rules.first_attacker is FirstAttacker.SEAT0:
            return (0 if 0 not in self.finished else self._next_active(0)), LeadReason.SEAT0
        holders = [
            (card.rank, seat)
            for seat, hand in enumerate(self.hands)
            for card in hand
            if card.suit == self.trump_suit
        ]
        return (min(holders)[1], LeadReason.LOWEST_TRUMP) if holders else (0, LeadReason.NO_TRUMP)

    @classmethod
    def from_parts(
        cls,
        rules: Rules,
        players: int,
        hands: Sequence[Iterable[Card | str] | str],
        stock: Iterable[Card | str] | str,
        trump: Card | str,
        discard: Iterable[Card | str] | str = (),
        table: Iterable[Pair | tuple[Card | str, Card | str | None]] = (),
        attacker: int = 0,
        defender: int | EllipsisType = ...,
        to_move: int | EllipsisType | None = ...,
        taking: bool = False,
        passed: Iterable[int] = (),
        finished: Iterable[int] = (),
        defended_once: bool = False,
        known: Sequence[Iterable[Card | str]] | None = None,
        loser: int | None = None,
        scores: Sequence[float] | None = None,
        *,
        setup: SetupState | None = None,
        in_stock: Sequence[Iterable[Card | str]] | None = None,
        chance_seed: int = 0,
        sitting_out: Iterable[int] = (),
    ) -> Game:
        """Any mid-game state, checked for consistency (raises `PositionError`).

        `stock` is top first with the trump card last while it lies there.
        `defender` defaults to the next active seat after `attacker`, `to_move`
        to the seat the rules say must move; `to_move=None` builds a finished game
        (give `loser`/`scores`, or they are worked out from the hands).
        A state with an empty table counts as the first occurrence of its bout
        start for the repetition rule; earlier history is unknown. `setup` builds
        a game still in its setup (docs/rules.md §1.7); `in_stock[s]` are the
        cards seat `s` knows lie in the stock; `chance_seed` seeds the chance
        events still to come.
        """
        rules.check_players(players)
        if len(hands) != players:
            raise PositionError(f"hands: {len(hands)} hands for {players} seats", ErrorCode.COUNT_MISMATCH)
        trump_card = Card.parse(trump)
        game = cls(rules, players, trump_card)
        game.hands = [set(parse_cards(hand)) for hand in hands]
        game.stock = parse_cards(stock)
        game.discard = parse_cards(discard)
        for item in table:
            if isinstance(item, Pair):
                game.table.append(Pair(item.attack, item.defense))
            else:
                attack, defense = item
                game.table.append(Pair(Card.parse(attack), None if defense is None else Card.parse(defense)))
        game.finished = list(finished)
        game.attacker = attacker
        game.defender = (
            next_active(players, game.finished, attacker) if isinstance(defender, EllipsisType) else defender
        )
        game.taking = taking
        game.passed = set(passed)
        game.defended_once = defended_once
        if known is not None:
            if len(known) != players:
                raise PositionError(
                    f"known: {len(known)} entries for {players} seats",
                    ErrorCode.COUNT_MISMATCH,
                )
            game.known = [set(parse_cards(cards)) for cards in known]
        if in_stock is not None:
            game.in_stock = [set(parse_cards(cards)) for cards in in_stock]
        game.chance = ChanceRng(chance_seed)
        if setup is not None:
            game._setup_from_parts(setup, None if isinstance(to_move, EllipsisType) else to_move)
            return game
        game._check_cards()
        if isinstance(to_move, EllipsisType):
            to_move = seat_to_move(
                rules, players, game.finished, game.table, game.attacker, game.defender, taking, game.passed
            )
            if to_move is None:
                raise PositionError(
                    "passed: every thrower has passed, so the bout is already over",
                    ErrorCode.INCONSISTENT_TURN,
                )
        check_turn(
            rules,
            players,
            [len(hand) for hand in game.hands],
            len(game.stock),
            len(game.discard),
            game.table,
            trump_card.suit,
            game.attacker,
            game.defender,
            to_move,
            taking,
            game.passed,
            game.finished,
            defended_once,
            sitting_out=set(sitting_out),
        )
        game.to_move = to_move
        game._bout_active = frozenset(game._active())
        if to_move is None:
            game._finish_from_parts(loser, scores)
        elif not game.table:
            game._history.append(game._bout_key())
        return game

    def _setup_from_parts(self, setup: SetupState, to_move: int | None) -> None:
        """A game in its setup, at a seat's decision (docs/rules.md §1.7)."""
        if to_move is None:
            raise PositionError(
                "setup: a game in its setup needs the seat to move",
                ErrorCode.INCONSISTENT_TURN,
            )
        self.phase = Phase.SETUP
        self.setup_step = setup.step
        self.leader = setup.leader
        self.redealt = set(setup.redealt)
        self.tribute = setup.tribute
        self.redeal_sets = None if setup.sets is None else (list(setup.sets[0]), list(setup.sets[1]))
        self.shown = sorted(setup.shown)
        self.to_move = to_move
        order = self._setup_order()
        self._redeal_index = order.index(to_move) if setup.step in ("redeal", "pick") else len(order)
        self._check_cards()
        if to_move not in order:
            raise PositionError(
                f"to_move: seat {to_move} does not play this game",
                ErrorCode.INCONSISTENT_TURN,
            )
        if setup.step == "redeal" and not self._redeal_asked(to_move):
            raise PositionError(
                f"setup: seat {to_move} is not asked to redeal (it has redealt, or the stock is short)",
                ErrorCode.INCONSISTENT_TURN,
            )
        if setup.step == "pick":
            h = self.rules.hand_size
            if self.redeal_sets is None or any(len(part) != h for part in self.redeal_sets):
                raise PositionError(f"setup: a pick needs two sets of {h} cards", ErrorCode.COUNT_MISMATCH)
            if len(self.shown) != h or self.hands[to_move]:
                raise PositionError(
                    f"setup: the seat picking has shown its {h} cards and holds none",
                    ErrorCode.COUNT_MISMATCH,
                )
        if setup.step == "swap":
            low = self._low_trump()
            if not swap_asked(self.rules, len(self.stock), low == self.trump):
                raise PositionError(
                    f"setup: nobody is asked to swap {low} (the trump card must lie under the stock and "
                    "not be it)",
                    ErrorCode.INCONSISTENT_TURN,
                )

    def _finish_from_parts(self, loser: int | None, scores: Sequence[float] | None) -> None:
        """A finished game built by hand: loser and scores as given, or from the hands
        (docs/rules.md §1.5)."""
        self.over = True
        if loser is None:
            holding = [seat for seat in self._active() if self.hands[seat]]
            ace = Card(Rank.ACE, self.trump_suit)
            aces = [seat for seat in holding if self.hands[seat] == {ace}]
            loser = game_loser(self.rules, len(self.stock), holding, aces)
        elif loser not in range(self.players):
            raise PositionError(
                f"loser: no seat {loser} in a {self.players}-seat game",
                ErrorCode.INVALID_SEAT,
            )
        self.loser = loser
        self.scores = list(scores) if scores is not None else self._scores()

    def _check_cards(self) -> None:
        """Every card of the deck in exactly one place; the trump card at the stock's bottom
        while the stock lasts; known cards in their seat's hand (docs/api.md §2.2)."""
        places: list[tuple[str, Card]] = []
        for seat, hand in enumerate(self.hands):
            places += [(f"hands[{seat}]", card) for card in hand]
        places += [("stock", card) for card in self.stock]
        places += [("discard", card) for card in self.discard]
        places += [("setup.shown", card) for card in self.shown]
        for i, part in enumerate(self.redeal_sets or ()):
            places += [(f"setup.sets[{i}]", card) for card in part]
        for i, pair in enumerate(self.table):
            places.append((f"table[{i}]", pair.attack))
            if pair.defense is not None:
                places.append((f"table[{i}]", pair.defense))
        full = set(deck(self.rules.deck))
        seen = place_cards(self.rules.deck, places)
        if len(seen) != len(full):
            missing = sorted(full - set(seen))
            raise PositionError(
                f"{len(missing)} cards of the deck are nowhere, e.g. {missing[0]}", ErrorCode.COUNT_MISMATCH
            )
        if self.trump not in full:
            raise PositionError(
                f"trump: {self.trump} is not in a {self.rules.deck}-card deck", ErrorCode.CARD_NOT_IN_DECK
            )
        if self.stock and self.stock[-1] != self.trump:
            raise PositionError(
                f"stock: the trump card {self.trump} must lie at the bottom (last) while the stock lasts, "
                f"found {self.stock[-1]}",
                ErrorCode.COUNT_MISMATCH,
            )
        for seat, cards in enumerate(self.known):
            stray = sorted(cards - self.hands[seat])
            if stray:
                raise PositionError(
                    f"known: {stray[0]} is not in seat {seat}'s hand",
                    ErrorCode.COUNT_MISMATCH,
                )
        for cards in self.in_stock:
            stray = sorted(cards - set(self.stock))
            if stray:
                raise PositionError(f"in_stock: {stray[0]} is not in the stock", ErrorCode.COUNT_MISMATCH)

    # -- questions ------------------------------------------------------------------

    @property
    def trump_suit(self) -> Suit:
        return self.trump.suit

    def limit(self) -> int:
        """The current attack limit (docs/rules.md §1.4, "The attack limit"); a large number when uncapped."""
        defended = sum(1 for pair in self.table if pair.defense is not None)
        limit = attack_limit(self.rules, self.defended_once, len(self.hands[self.defender]), defended)
        return limit if limit is not None else len(deck(self.rules.deck))

    def _active(self) -> list[int]:
        return [seat for seat in range(self.players) if seat not in self.finished]

    def _next_active(self, seat: int) -> int:
        return next_active(self.players, self.finished, seat)

    def _throwers(self) -> list[int]:
        return throwers(self.rules, self.players, self.finished, self.attacker, self.defender)

    def _phase(self) -> str:
        """`lead`, `defend`, `throw_in` (docs/rules.md §1.4, "Whose turn") or the defender's
        `last_word` (`take_when_beaten`, §1.8)."""
        if not self.table:
            return "lead"
        if not self.taking and any(pair.defense is None for pair in self.table):
            return "defend"
        if self.to_move == self.defender:
            return "last_word"
        return "throw_in"

    def _table_ranks(self) -> set[Rank]:
        ranks = {pair.attack.rank for pair in self.table}
        ranks |= {pair.defense.rank for pair in self.table if pair.defense is not None}
        return ranks

    def _can_transfer_at_all(self) -> bool:
        """Transfer is open: rule on, nothing beaten, and the next seat can face one more card."""
        if not self.rules.transfer or any(pair.defense is not None for pair in self.table):
            return False
        receiver = self._next_active(self.defender)
        return len(self.hands[receiver]) >= len(self.table) + 1

    def legal_moves(self) -> list[Move]:
        """Every legal move of the seat to move, sorted; [] once the game is over."""
        if self.over or self.to_move is None:
            return []
        if self.phase is Phase.SETUP:
            return self._setup_moves()
        hand = self.hands[self.to_move]
        phase = self._phase()
        moves: list[Move] = []
        if phase == "lead":
            moves = [Move.attack(card) for card in hand if self._may_play(card, hand)]
        elif phase == "last_word":
            moves = [Move.take(), Move.pass_()]
        elif phase == "defend":
            for pair in self.table:
                if pair.defense is None:
                    moves += [
                        Move.defend(pair.attack, card)
                        for card in hand
                        if card.beats(pair.attack, self.trump_suit)
                    ]
            moves.append(Move.take())
            if self._can_transfer_at_all():
                rank = self.table[0].attack.rank
                moves += [
                    Move.transfer(card) for card in hand if card.rank == rank and self._may_play(card, hand)
                ]
        else:
            if len(self.table) < self.limit():
                ranks = self._table_ranks()
                moves = [
                    Move.attack(card) for card in hand if card.rank in ranks and self._may_play(card, hand)
                ]
            moves.append(Move.pass_())
        return sorted(moves)

    def _setup_moves(self) -> list[Move]:
        assert self.to_move is not None
        if self.setup_step == "pick":
            return [Move.pick(0), Move.pick(1)]
        if self.setup_step == "redeal":
            choice = self._may_redeal(self.to_move)
        else:
            choice = self._may_swap(self.to_move)
        if not choice:
            return [Move.keep()]  # asked like every seat, with nothing to decide (docs/rules.md §1.7)
        return sorted([Move.keep(), Move.redeal() if self.setup_step == "redeal" else Move.swap()])

    def _may_play(self, card: Card, hand: set[Card]) -> bool:
        """đút 2 (docs/rules.md §1.8): a 2 is led, thrown in or transferred only from a hand of 2s."""
        return not (self.rules.twos_last and card.rank == Rank.TWO and any(c.rank != Rank.TWO for c in hand))

    def verify(self, move: Move | str | dict[str, Any], seat: int | None = None) -> Move:
        """The move, parsed, if `seat` (default: the seat to move) may play it now; else raise why."""
        move = Move.parse(move)
        if self.over or self.to_move is None:
            raise GameOverError(f"the game is over: cannot {move}", reason=Refusal.GAME_OVER)
        if seat is None:
            seat = self.to_move
        if seat != self.to_move:
            if isinstance(seat, bool) or seat not in range(self.players):
                raise NotYourTurnError(f"no seat {seat!r} in this {self.players}-seat game",
                                       reason=Refusal.NOT_YOUR_TURN)
            raise NotYourTurnError(
                f"seat {seat} cannot {move}: it is seat {self.to_move}'s turn "
                f"({role_of(self.to_move, self.attacker, self.defender)})", reason=Refusal.NOT_YOUR_TURN,
            )
        if self.phase is Phase.SETUP or move.is_setup:
            if move not in self.legal_moves():
                raise IllegalMoveError(f"seat {seat} cannot {move} now: {self._setup_situation()}",
                                       reason=Refusal.SETUP)
            return move
        hand = self.hands[seat]
        phase = self._phase()
        if move.card is not None and move.card not in hand:
            raise IllegalMoveError(f"seat {seat} cannot {move}: it does not hold {move.card}",
                                   reason=Refusal.NOT_HELD)
        if move.card is not None and move.action is not Action.DEFEND and not self._may_play(move.card, hand):
            raise IllegalMoveError(
                f"cannot {move}: under đút 2 a 2 may be played only when every card in the hand is a 2",
                reason=Refusal.TWOS_LAST,
            )
        if phase == "lead":
            if move.action is not Action.ATTACK:
                raise IllegalMoveError(
                    f"cannot {move}: the table is empty, seat {seat} must lead a card (attack)",
                    reason=Refusal.MUST_LEAD,
                )
        elif phase == "defend":
            self._verify_defender_move(move)
        elif phase == "last_word":
            if move.action not in (Action.TAKE, Action.PASS):
                raise IllegalMoveError(
                    f"cannot {move}: every card is beaten and every thrower has passed; the defender "
                    "may take the table or pass (let the defence stand)", reason=Refusal.LAST_WORD,
                )
        else:
            self._verify_throw_in(move, seat)
        return move

    def _setup_situation(self) -> str:
        if self.phase is not Phase.SETUP:
            return "the setup is over, the game is being played"
        if self.setup_step == "redeal":
            return ("every seat is asked in turn: one holding no trump may redeal (show its hand and pick "
                    "a new one) or keep, one holding a trump only keeps")
        if self.setup_step == "pick":
            return "the seat that redealt picks one of the two new hands: pick 0 or pick 1"
        return ("every seat is asked in turn: the holder of the lowest trump may swap it for the trump card "
                "or keep it, any other seat only keeps")

    def _verify_defender_move(self, move: Move) -> None:
        """docs/rules.md §1.4: the defender defends, takes or (rule permitting) transfers."""
        if move.action in (Action.ATTACK, Action.PASS):
            raise IllegalMoveError(
                f"cannot {move}: seat {self.defender} is defending and must defend, take or transfer",
                reason=Refusal.MUST_ANSWER,
            )
        if move.action is Action.DEFEND:
            assert move.card is not None and move.target is not None
            if not any(pair.attack == move.target and pair.defense is None for pair in self.table):
                raise IllegalMoveError(
                    f"cannot {move}: {move.target} is not an undefended attack card on the table",
                    reason=Refusal.NO_TARGET,
                )
            if not move.card.beats(move.target, self.trump_suit):
                raise IllegalMoveError(
                    f"{move.card} does not beat {move.target}: {self._why_not_beats(move.card, move.target)}",
                    reason=Refusal.DOES_NOT_BEAT,
                )
        elif move.action is Action.TRANSFER:
            assert move.card is not None
            if not self.rules.transfer:
                raise IllegalMoveError(f"cannot {move}: transfer is off in these rules",
                                       reason=Refusal.NO_TRANSFER)
            if any(pair.defense is not None for pair in self.table):
                raise IllegalMoveError(f"cannot {move}: an attack card has already been beaten",
                                       reason=Refusal.ALREADY_BEATEN)
            rank = self.table[0].attack.rank
            if move.card.rank != rank:
                raise IllegalMoveError(
                    f"cannot {move}: the attack cards are of rank {rank}, not {move.card.rank}",
                    reason=Refusal.OTHER_RANK,
                )
            receiver = self._next_active(self.defender)
            if len(self.hands[receiver]) < len(self.table) + 1:
                raise IllegalMoveError(
                    f"cannot transfer: seat {receiver} holds {_count(len(self.hands[receiver]), 'card')}, "
                    f"{len(self.table) + 1} attack cards would be on the table", reason=Refusal.NO_ROOM,
                )

    def _why_not_beats(self, card: Card, target: Card) -> str:
        trump = self.trump_suit
        if card.suit == target.suit:
            return f"a card beats one of its own suit only by ranking higher ({card.rank} < {target.rank})"
        if target.suit == trump:
            return f"{target} is trump ({trump.letter}) and is beaten only by a higher trump"
        return f"it is neither of the suit of {target} nor trump ({trump.letter})"

    def _verify_throw_in(self, move: Move, seat: int) -> None:
        """docs/rules.md §1.4: a thrower throws in a card of a rank on the table, within the limit,
        or passes."""
        if move.action is Action.PASS:
            return
        if move.action is not Action.ATTACK:
            raise IllegalMoveError(
                f"cannot {move}: seat {seat} is throwing in and may throw in (attack) a card "
                "of a rank on the table, or pass", reason=Refusal.THROW_IN_ONLY,
            )
        assert move.card is not None
        if move.card.rank not in self._table_ranks():
            raise IllegalMoveError(f"cannot throw in {move.card}: no {move.card.rank} on the table",
                                   reason=Refusal.RANK_NOT_ON_TABLE)
        if len(self.table) >= self.limit():
            raise IllegalMoveError(f"attack limit of {self.limit()} cards reached",
                                   reason=Refusal.ATTACK_LIMIT)

    def refusal(self, card: Card, seat: int | None = None) -> IllegalMoveError | None:
        """Why no move of `seat` (default: the seat to move) plays `card` now, as `verify` refuses
        the move the card would make — a lead or a throw-in, or for the defender a defence of each
        unbeaten card, then a transfer (the first refusal: the defence's) — or None if one may.
        A page says why a card cannot be played from this, and re-derives no rule."""
        tries = [Move.attack(card)]
        if not self.over and self.phase is not Phase.SETUP and self._phase() == "defend":
            tries = [Move.defend(pair.attack, card) for pair in self.table if pair.defense is None]
            tries.append(Move.transfer(card))
        first: IllegalMoveError | None = None
        for move in tries:
            try:
                self.verify(move, seat)
            except IllegalMoveError as error:
                first = first or error
            else:
                return None
        return first

    def can(self, move: Move | str | dict[str, Any], seat: int | None = None) -> bool:
        """Whether `verify` would accept the move (a malformed move is simply not playable)."""
        try:
            self.verify(move, seat)
        except ValueError:
            return False
        return True

    # -- playing --------------------------------------------------------------------

    def play(self, move: Move | str | dict[str, Any], seat: int | None = None) -> MoveRecord:
        """Verify and apply a move, and everything it sets off: the end of the bout,
        the refill, finishing, the next bout, repetition and thối A chủ (docs/rules.md §1.4-§1.5)."""
        move = self.verify(move, seat)
        mover = self.to_move
        assert mover is not None
        self.drawn = [[] for _ in range(self.players)]
        if self.phase is Phase.SETUP:
            self._play_setup(move, mover)
            self.plies += 1
            return MoveRecord(mover, move, game_over=self.over)
        last_word = self._phase() == "last_word"
        bout_ended = False
        if last_word:
            # take_when_beaten (docs/rules.md §1.8): the defender takes the beaten table, or lets
            # the defence stand.
            self._end_bout(took=move.action is Action.TAKE)
            bout_ended = True
        elif move.action is Action.ATTACK:
            # docs/rules.md §1.4: a lead or a throw-in; a card played clears the passes.
            self._put_card(mover, move)
            self.table.append(Pair(_card(move)))
        elif move.action is Action.DEFEND:
            # docs/rules.md §1.3-§1.4: the card beats its target (verified); an empty hand may end the bout.
            self._put_card(mover, move)
            for pair in self.table:
                if pair.attack == move.target:
                    pair.defense = move.card
            bout_ended = self._after_defence(mover)
        elif move.action is Action.TAKE:
            if self.rules.throw_in_after_take:
                # docs/rules.md §1.4: the throwers may still add cards; the order restarts at the
                # main attacker.
                self.taking = True
                self.passed.clear()
            else:
                # Tấn: the defender picks up the table at once.
                self._end_bout(took=True)
                bout_ended = True
        elif move.action is Action.PASS:
            # docs/rules.md §1.4: the bout ends when every thrower has passed since the last card.
            self.passed.add(mover)
            everyone = all(seat in self.passed for seat in self._throwers())
            if everyone and not (self.rules.take_when_beaten and not self.taking):
                self._end_bout(took=self.taking)
                bout_ended = True
        else:
            # Transfer (docs/rules.md §1.4): the old defender becomes the main attacker.
            self._put_card(mover, move)
            self.table.append(Pair(_card(move)))
            self.attacker = mover
            self.defender = self._next_active(mover)
        # docs/rules.md §1.5: thối A chủ is checked after every move; a bout that ended checked it
        # after the refill.
        if not bout_ended and not self._check_trump_ace():
            self.to_move = seat_to_move(
                self.rules,
                self.players,
                self.finished,
                self.table,
                self.attacker,
                self.defender,
                self.taking,
                self.passed,
            )
        self.plies += 1
        return MoveRecord(mover, move, bout_ended=bout_ended, game_over=self.over)

    def _put_card(self, seat: int, move: Move) -> None:
        """A card leaves a hand for the table; it is no longer 'known in hand'. Passes are cleared."""
        card = _card(move)
        self.hands[seat].discard(card)
        self._forget(seat, card)
        self.last_played[seat] = card
        self.passed.clear()

    def _forget(self, seat: int, card: Card) -> None:
        """A card has left `seat`'s hand: nobody knows it there any more."""
        self.known[seat].discard(card)
        for viewer in range(self.players):
            self.seen[viewer][seat].discard(card)

    def _after_defence(self, defender: int) -> bool:
        """docs/rules.md §1.4: a defender whose hand empties refills (defender_empty = refill) or the
        bout ends."""
        if self.hands[defender]:
            return False
        if self.rules.defender_empty is DefenderEmpty.REFILL and self.stock:
            self._draw_up(defender)
            self._history.clear()
            return False
        self._end_bout(took=False)
        return True

    def _draw_up(self, seat: int) -> int:
        """`seat` draws from the top of the stock up to hand_size. Returns cards drawn."""
        return self._draw(seat, self.rules.hand_size - len(self.hands[seat]))

    def _draw(self, seat: int, count: int) -> int:
        """`seat` draws up to `count` cards from the top of the stock. The trump card, drawn last,
        becomes known in its hand (docs/api.md §2.2, public knowledge); what another seat knew
        of the stock may now be in this hand, so it forgets it. Returns cards drawn."""
        drawn = 0
        while self.stock and drawn < count:
            card = self.stock.pop(0)
            self.hands[seat].add(card)
            self.drawn[seat].append(card)
            self.in_stock[seat].discard(card)
            if card == self.trump:
                self.known[seat].add(card)
            drawn += 1
        if drawn:
            for viewer in range(self.players):
                if viewer != seat:
                    self.in_stock[viewer].clear()
        return drawn

    def _refill_order(self) -> list[int]:
        """docs/rules.md §1.4 refill order, from the bout's main attacker; finished seats draw nothing."""
        order = around(self.players, self.finished, self.attacker, self.defender)
        others = [seat for seat in order if seat != self.attacker]
        if self.rules.refill_order is RefillOrder.ATTACKER_DEFENDER_OTHERS:
            return [self.attacker, self.defender, *others]
        return [self.attacker, *others, self.defender]

    def _end_bout(self, took: bool) -> None:
        """docs/rules.md §1.4, "The end of a bout"."""
        # 1. The table goes to the defender (take) or to the discard pile (defence).
        defender = self.defender
        if took:
            for pair in self.table:
                for card in (pair.attack, pair.defense):
                    if card is not None:
                        self.hands[defender].add(card)
                        self.known[defender].add(card)
        else:
            for pair in self.table:
                self.discard.append(pair.attack)
                if pair.defense is not None:
                    self.discard.append(pair.defense)
            self.defended_once = True
            self._history.clear()  # a defence can never be undone
        self.table.clear()
        self.passed.clear()
        self.taking = False
        # 2. Refill.
        drawn = sum(self._draw_up(seat) for seat in self._refill_order())
        if drawn:
            self._history.clear()  # nor can a draw from the stock
        if self._check_trump_ace():
            return
        # 3. Finishing (docs/rules.md §1.5), in play order from the main attacker.
        if not self.stock:
            for step in range(self.players):
                seat = (self.attacker + step) % self.players
                if seat not in self.finished and not self.hands[seat]:
                    self.finished.append(seat)
                    self._finish(seat)
        # 4. Game over when at most one seat still holds cards.
        active = self._active()
        if len(active) <= 1:
            self._game_over(active[0] if active else None)
            return
        # 5. The next bout.
        if took or defender in self.finished:
            self._start_bout(self._next_active(defender))
        else:
            self._start_bout(defender)

    def _start_bout(self, attacker: int) -> None:
        """A bout begins (docs/rules.md §1.4); step 6, repetition, is checked here."""
        self.attacker = attacker
        self.defender = self._next_active(attacker)
        self.to_move = attacker
        self._bout_active = frozenset(self._active())
        key = self._bout_key()
        # docs/rules.md §1.5: the third occurrence of a state is a draw (two earlier ones recorded).
        if self._history.count(key) >= 2 or len(self._history) >= HISTORY_CAP:
            self._game_over(None)
            return
        self._history.append(key)

    def _bout_key(self) -> tuple[Any, ...]:
        """A bout-start state: every hand, the stock and the main attacker (the rest follows)."""
        return (tuple(frozenset(hand) for hand in self.hands), tuple(self.stock), self.attacker)

    def _check_trump_ace(self) -> bool:
        """thối A chủ (docs/rules.md §1.5): an active seat holding only the trump ace, stock empty, loses."""
        if not trump_ace_loses(self.rules, len(self.stock)):
            return False
        ace = Card(Rank.ACE, self.trump_suit)
        for seat in self._active():
            if self.hands[seat] == {ace}:
                self.known[seat].add(ace)  # shown to end the game (docs/rules.md §1.5)
                self._game_over(seat)
                return True
        return False

    def _finish(self, seat: int) -> None:
        """A seat has finished: the first to do so, or (đút 2) the first to go out on a 2, wins."""
        if self.first_out is None:
            self.first_out = seat
        last = self.last_played[seat]
        if self.two_out is None and last is not None and last.rank == Rank.TWO:
            self.two_out = seat

    def _game_over(self, loser: int | None) -> None:
        self.over = True
        self.to_move = None
        self.loser = loser
        if self.winner is None:
            self.winner = self._winner()
        self.scores = self._scores()

    def _winner(self) -> int | None:
        """docs/rules.md §1.8: the first seat to finish (under đút 2 the first to finish on a 2, if
        any did); a game with no loser has no winner."""
        if self.loser is None:
            return None
        if self.rules.twos_last and self.two_out is not None:
            return self.two_out
        return self.first_out

    def _scores(self) -> list[float]:
        """docs/rules.md §1.5: loser 0, others 1; no loser: seats active when the last bout began 0.5;
        a win by all trumps (§1.7): the winner 1, every other seat 0."""
        return final_scores(self.players, self.loser, self.winner, self._bout_active)

    # -- copies and views -----------------------------------------------------------

    def clone(self) -> Game:
        """An independent copy (history included)."""
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.hands = [set(hand) for hand in self.hands]
        other.stock = list(self.stock)
        other.discard = list(self.discard)
        other.table = [Pair(pair.attack, pair.defense) for pair in self.table]
        other.passed = set(self.passed)
        other.finished = list(self.finished)
        other.known = [set(cards) for cards in self.known]
        other.scores = None if self.scores is None else list(self.scores)
        other._history = list(self._history)
        other.redealt = set(self.redealt)
        other.redeal_sets = (
            None if self.redeal_sets is None else (list(self.redeal_sets[0]), list(self.redeal_sets[1]))
        )
        other.shown = list(self.shown)
        other.last_played = list(self.last_played)
        other.chance = self.chance.copy()
        other.seen = [[set(cards) for cards in row] for row in self.seen]
        other.in_stock = [set(cards) for cards in self.in_stock]
        other.drawn = [list(cards) for cards in self.drawn]
        return other

    def snapshot(self) -> dict[str, Any]:
        """The canonical comparable form, identical to the Cython core's `snapshot()`."""

        def indices(cards: Iterable[Card]) -> list[int]:
            return sorted(card.index for card in cards)

        return {
            "players": self.players,
            "hands": [indices(hand) for hand in self.hands],
            "stock": [card.index for card in self.stock],
            "trump": self.trump.index,
            "discard": indices(self.discard),
            "table": [
                [pair.attack.index, -1 if pair.defense is None else pair.defense.index] for pair in self.table
            ],
            "attacker": self.attacker,
            "defender": self.defender,
            "to_move": -1 if self.to_move is None else self.to_move,
            "taking": self.taking,
            "passed": sorted(self.passed),
            "finished": list(self.finished),
            "defended_once": self.defended_once,
            "over": self.over,
            "loser": -1 if self.loser is None else self.loser,
            "scores": None if self.scores is None else list(self.scores),
            "phase": self.phase,
            "setup_step": self.setup_step,
            "leader": self.leader,
            "redealt": sorted(self.redealt),
            "redeal_sets": None if self.redeal_sets is None else [indices(part) for part in self.redeal_sets],
            "shown": indices(self.shown),
            "tribute": None if self.tribute is None else list(self.tribute),
            "winner": -1 if self.winner is None else self.winner,
            "first_out": -1 if self.first_out is None else self.first_out,
            "two_out": -1 if self.two_out is None else self.two_out,
        }

    def __repr__(self) -> str:
        state = "over" if self.over else f"seat {self.to_move} to move"
        return f"<Game {self.rules.preset} {self.players} seats, {state}>"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _card(move: Move) -> Card:
    assert move.card is not None
    return move.card


def _check_deck(rules: Rules, cards: Sequence[Card | str]) -> list[Card]:
    """An ordered deck must hold every card of the rules' deck once (docs/rules.md §1.2)."""
    parsed = parse_cards(cards)
    full = set(deck(rules.deck))
    seen: set[Card] = set()
    for i, card in enumerate(parsed):
        if card not in full:
            raise PositionError(
                f"deck[{i}]: {card} is not in a {rules.deck}-card deck",
                ErrorCode.CARD_NOT_IN_DECK,
            )
        if card in seen:
            raise PositionError(f"deck[{i}]: {card} appears twice", ErrorCode.DUPLICATE_CARD)
        seen.add(card)
    if len(parsed) != rules.deck:
        raise PositionError(
            f"deck: {len(parsed)} cards given, a {rules.deck}-card deck is needed", ErrorCode.COUNT_MISMATCH
        )
    return parsed


def random_deck(rules: Rules, seed: int | None) -> list[Card]:
    """The rules' deck shuffled by `random.Random(seed)` (docs/rules.md §1.2)."""
    cards = deck(rules.deck)
    random.Random(seed).shuffle(cards)
    return cards


def play_random_game(rules: Rules, players: int, seed: int, max_plies: int | None = None) -> Game:
    """Deal with `seed` and play uniformly random legal moves (drawn with `random.Random(seed)`)."""
    game = Game.deal(rules, players, seed=seed)
    rng = random.Random(seed)
    plies = 0
    while not game.over and (max_plies is None or plies < max_plies):
        game.play(rng.choice(game.legal_moves()))
        plies += 1
    return game
