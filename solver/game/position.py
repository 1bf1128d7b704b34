"""docs/api.md §2.2 positions: what one seat sees, parsed, validated and redealt.

A `Position` holds exactly what one seat knows: its own hand, how many cards
every seat holds, the cards publicly known to be in other hands, the stock's
size and trump card, the table, the discard pile and the turn fields. Building
one validates it, so a `Position` is always a state that play could reach as
far as this seat can tell; every refusal is a `PositionError` (or `CardError`,
`RulesError`) with a docs/api.md §3 code and a message naming the field or card:

- `invalid_position`: a missing, mistyped or unknown field; a table no play
  could have built (a defence that does not beat its card, a thrown-in card
  whose rank is nowhere else on the table).
- `invalid_card` (`CardError`): text that is not a card.
- `unknown_rules` (`RulesError`): an unknown preset or option.
- `bad_players` (`RulesError`): a seat count the rules do not allow.
- `invalid_seat`: a seat number outside the game.
- `card_not_in_deck`: a card the rules' deck does not have (`2c` in 36 cards).
- `duplicate_card`: a card shown in two places.
- `count_mismatch`: counts that do not add up: `hand_counts` against `hand`
  or `players`, more known cards than a seat holds, all places together
  against the deck size, a finished seat holding cards — and the trump card
  shown in a hand, `known`, the table or the discard pile while `stock > 0`
  says it still lies at the bottom of the stock (that one card would be
  counted twice).
- `inconsistent_turn`: turn fields that contradict each other or the table
  (see `solver.game.bout.check_turn`).

Optional fields default to empty (`discard`, `table`, `known`, `passed`,
`finished`), false (`taking`) and, for `defended_once`, to whether the discard
pile holds any card (only a defence discards). `to_move: null` is a finished
game. The readings are listed in docs/api.md §2.2.

Determinized search starts here: `unseen_cards()` and `hidden_slots()` say
what this seat does not know, `to_game()` builds the full `Game` for one
assignment of the unseen cards and `sample_game()` draws one uniformly
(OpenSpiel's `ResampleFromInfostate`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from solver.game.bout import Pair, check_turn, place_cards
from solver.game.cards import Card, Rank, deck
from solver.game.errors import CardError, ErrorCode, NotYourTurnError, PositionError, RulesError, TanError
from solver.game.moves import Move
from solver.game.reference import Game
from solver.game.rules import PRESETS, Rules

__all__ = ["HiddenSlots", "Position"]

_REQUIRED = (
    "rules",
    "players",
    "seat",
    "hand",
    "hand_counts",
    "trump",
    "stock",
    "attacker",
    "defender",
    "to_move",
)
_OPTIONAL = ("discard", "table", "taking", "passed", "known", "finished", "defended_once")


class HiddenSlots(NamedTuple):
    """What a seat does not know: unknown cards per other seat, and unknown stock cards
    (the stock without the trump card at its bottom)."""

    seats: dict[int, int]
    stock: int

    @property
    def total(self) -> int:
        return sum(self.seats.values()) + self.stock


@dataclass(frozen=True)
class Position:
    """What one seat sees (docs/api.md §2.2). Construction validates; cards are `Card`s, rules `Rules`.

    `known[s]` are the cards known to be in seat `s`'s hand (empty for `seat`
    itself, whose whole hand is `hand`). `to_move` None means the game is over.
    """

    rules: Rules
    players: int
    seat: int
    hand: tuple[Card, ...]
    hand_counts: tuple[int, ...]
    trump: Card
    stock: int
    attacker: int
    defender: int
    to_move: int | None
    discard: tuple[Card, ...] = ()
    table: tuple[tuple[Card, Card | None], ...] = ()
    taking: bool = False
    passed: tuple[int, ...] = ()
    known: tuple[tuple[Card, ...], ...] = field(default=())
    finished: tuple[int, ...] = ()
    defended_once: bool = False

    def __post_init__(self) -> None:
        # Canonical order, so equal positions compare and print equal.
        object.__setattr__(self, "hand", tuple(sorted(self.hand)))
        object.__setattr__(self, "hand_counts", tuple(self.hand_counts))
        object.__setattr__(self, "discard", tuple(sorted(self.discard)))
        object.__setattr__(self, "table", tuple((attack, defense) for attack, defense in self.table))
        object.__setattr__(self, "passed", tuple(sorted(set(self.passed))))
        object.__setattr__(self, "finished", tuple(self.finished))
        known = self.known or tuple(() for _ in range(self.players))
        object.__setattr__(self, "known", tuple(tuple(sorted(cards)) for cards in known))
        self._validate()

    # -- JSON -----------------------------------------------------------------------

    @classmethod
    def from_json(cls, data: Any) -> Position:
        """Read a docs/api.md §2.2 position; every refusal names the field or card at fault."""
        if not isinstance(data, Mapping):
            raise PositionError(f"a position must be a JSON object, not {type(data).__name__}")
        unknown = sorted(str(key) for key in data if key not in _REQUIRED + _OPTIONAL)
        if unknown:
            raise PositionError(f"unknown field(s) in position: {', '.join(unknown)}")
        missing = [name for name in _REQUIRED if name not in data]
        if missing:
            raise PositionError(f"missing field(s) in position: {', '.join(missing)}")
        rules = _rules(data["rules"])
        players = _int(data["players"], "players", minimum=0)
        try:
            rules.check_players(players)
        except RulesError as error:
            raise RulesError(f"players: {error}", ErrorCode.BAD_PLAYERS) from None
        hand_counts = data["hand_counts"]
        if not isinstance(hand_counts, list):
            raise PositionError(f"hand_counts must be a list of numbers, not {hand_counts!r}")
        discard = _cards(data.get("discard", []), "discard")
        return cls(
            rules=rules,
            players=players,
            seat=_int(data["seat"], "seat"),
            hand=tuple(_cards(data["hand"], "hand")),
            hand_counts=tuple(
                _int(count, f"hand_counts[{i}]", minimum=0) for i, count in enumerate(hand_counts)
            ),
            trump=_card(data["trump"], "trump"),
            stock=_int(data["stock"], "stock", minimum=0),
            attacker=_int(data["attacker"], "attacker"),
            defender=_int(data["defender"], "defender"),
            to_move=None if data["to_move"] is None else _int(data["to_move"], "to_move"),
            discard=tuple(discard),
            table=_table(data.get("table", [])),
            taking=_bool(data.get("taking", False), "taking"),
            passed=tuple(_seats(data.get("passed", []), "passed")),
            known=_known(data.get("known", {}), players),
            finished=tuple(_seats(data.get("finished", []), "finished")),
            # Only a defence fills the discard pile, so that is the default (docs/rules.md §1.4).
            defended_once=_bool(data.get("defended_once", bool(discard)), "defended_once"),
        )

    def to_json(self) -> dict[str, Any]:
        """The docs/api.md §2.2 JSON; `from_json` reads it back to an equal `Position`."""
        preset = PRESETS.get(self.rules.preset)
        return {
            "rules": self.rules.preset if preset == self.rules else self.rules.to_json(),
            "players": self.players,
            "seat": self.seat,
            "hand": [str(card) for card in self.hand],
            "hand_counts": list(self.hand_counts),
            "trump": str(self.trump),
            "stock": self.stock,
            "discard": [str(card) for card in self.discard],
            "table": [
                {"attack": str(attack), "defense": None if defense is None else str(defense)}
                for attack, defense in self.table
            ],
            "attacker": self.attacker,
            "defender": self.defender,
            "to_move": self.to_move,
            "taking": self.taking,
            "passed": list(self.passed),
            "known": {
                str(seat): [str(card) for card in cards] for seat, cards in enumerate(self.known) if cards
            },
            "finished": list(self.finished),
            "defended_once": self.defended_once,
        }

    @classmethod
    def from_game(cls, game: Game, seat: int) -> Position:
        """What `seat` sees of a full game."""
        if isinstance(seat, bool) or seat not in range(game.players):
            raise PositionError(
                f"seat: no seat {seat!r} in a {game.players}-seat game",
                ErrorCode.INVALID_SEAT,
            )
        return cls(
            rules=game.rules,
            players=game.players,
            seat=seat,
            hand=tuple(game.hands[seat]),
            hand_counts=tuple(len(hand) for hand in game.hands),
            trump=game.trump,
            stock=len(game.stock),
            attacker=game.attacker,
            defender=game.defender,
            to_move=game.to_move,
            discard=tuple(game.discard),
            table=tuple((pair.attack, pair.defense) for pair in game.table),
            taking=game.taking,
            passed=tuple(game.passed),
            known=tuple(() if other == seat else tuple(game.known[other]) for other in range(game.players)),
            finished=tuple(game.finished),
            defended_once=game.defended_once,
        )

    # -- validation -----------------------------------------------------------------

    def _validate(self) -> None:
        rules, players = self.rules, self.players
        try:
            rules.check_players(players)
        except RulesError as error:
            raise RulesError(f"players: {error}", ErrorCode.BAD_PLAYERS) from None
        if isinstance(self.seat, bool) or self.seat not in range(players):
            raise PositionError(
                f"seat: no seat {self.seat!r} in a {players}-seat game",
                ErrorCode.INVALID_SEAT,
            )
        if len(self.hand_counts) != players:
            raise PositionError(
                f"hand_counts: {len(self.hand_counts)} counts for {players} seats", ErrorCode.COUNT_MISMATCH
            )
        if len(self.known) != players:
            raise PositionError(
                f"known: {len(self.known)} entries for {players} seats",
                ErrorCode.COUNT_MISMATCH,
            )
        if self.known[self.seat]:
            raise PositionError(
                f"known: seat {self.seat} is the viewpoint; its cards belong in hand",
                ErrorCode.INVALID_POSITION,
            )
        self._check_cards()
        if self.hand_counts[self.seat] != len(self.hand):
            raise PositionError(
                f"hand_counts[{self.seat}] is {self.hand_counts[self.seat]} "
                f"but hand holds {len(self.hand)} cards",
                ErrorCode.COUNT_MISMATCH,
            )
        for other, cards in enumerate(self.known):
            if len(cards) > self.hand_counts[other]:
                raise PositionError(
                    f"known: {len(cards)} cards known in seat {other}'s hand, "
                    f"which holds {self.hand_counts[other]}",
                    ErrorCode.COUNT_MISMATCH,
                )
        on_table = sum(1 if defense is None else 2 for _, defense in self.table)
        total = sum(self.hand_counts) + self.stock + on_table + len(self.discard)
        if total != rules.deck:
            raise PositionError(
                f"cards do not add up to the {rules.deck}-card deck: hands {sum(self.hand_counts)} + "
                f"stock {self.stock} + table {on_table} + discard {len(self.discard)} = {total}",
                ErrorCode.COUNT_MISMATCH,
            )
        check_turn(
            rules,
            players,
            self.hand_counts,
            self.stock,
            len(self.discard),
            [Pair(attack, defense) for attack, defense in self.table],
            self.trump.suit,
            self.attacker,
            self.defender,
            self.to_move,
            self.taking,
            self.passed,
            self.finished,
            self.defended_once,
        )

    def _check_cards(self) -> None:
        """Every card shown is in the deck and in one place only (docs/api.md §2.2)."""
        places: list[tuple[str, Card]] = [("hand", card) for card in self.hand]
        for other, cards in enumerate(self.known):
            places += [(f"known[{other}]", card) for card in cards]
        for i, (attack, defense) in enumerate(self.table):
            places.append((f"table[{i}]", attack))
            if defense is not None:
                places.append((f"table[{i}]", defense))
        places += [("discard", card) for card in self.discard]
        full = set(deck(self.rules.deck))
        if self.trump not in full:
            raise PositionError(
                f"trump: {self.trump} is not in a {self.rules.deck}-card deck", ErrorCode.CARD_NOT_IN_DECK
            )
        seen = place_cards(self.rules.deck, places)
        if self.stock > 0 and self.trump in seen:
            raise PositionError(
                f"{seen[self.trump]}: the trump card {self.trump} still lies at the bottom of the stock "
                f"(stock {self.stock}), so it cannot be here too",
                ErrorCode.COUNT_MISMATCH,
            )

    # -- what this seat does not know ----------------------------------------------

    @property
    def over(self) -> bool:
        return self.to_move is None

    def final_scores(self) -> list[float]:
        """docs/rules.md §1.5 scores of a finished game (`to_move` null), as far as this seat can tell.

        - A seat whose only card is the trump ace with the stock empty, where
          `trump_ace_last_loses` is on, lost (thối A chủ ends the game at once).
        - Otherwise one seat still holding cards is the loser, and several are a
          repetition draw: each scores 0.5, finished seats 1.
        - No seat holding cards: the seats that finished in the last bout drew
          (0.5). A position does not say which those were, only that they were
          at least the last two of `finished` (two seats were active when the
          last bout began, or the game would have ended before it); with two
          seats that is exact, with more the earlier finishers are given 1.
        """
        if not self.over:
            raise TanError("the game is not over: it has no final scores", ErrorCode.INCONSISTENT_TURN)
        holding = [seat for seat in range(self.players) if self.hand_counts[seat] > 0]
        loser = self._trump_ace_loser()
        if loser is None and len(holding) == 1:
            loser = holding[0]
        if loser is not None:
            return [0.0 if seat == loser else 1.0 for seat in range(self.players)]
        drawn = set(holding) if holding else set(self.finished[-2:])
        return [0.5 if seat in drawn else 1.0 for seat in range(self.players)]

    def _trump_ace_loser(self) -> int | None:
        """The seat that lost holding only the trump ace (docs/rules.md §1.5), if the position shows one."""
        if not self.rules.trump_ace_last_loses or self.stock > 0:
            return None
        ace = Card(Rank.ACE, self.trump.suit)
        for seat in range(self.players):
            cards = self.hand if seat == self.seat else self.known[seat]
            if self.hand_counts[seat] == 1 and ace in cards:
                return seat
        if ace in self.unseen_cards():  # by elimination, when one other seat has unknown cards
            slots = [seat for seat, count in self.hidden_slots().seats.items() if count > 0]
            if len(slots) == 1 and self.hand_counts[slots[0]] == 1:
                return slots[0]
        return None

    def unseen_cards(self) -> list[Card]:
        """Cards whose place this seat does not know: in other hands' unknown slots or the stock."""
        shown = set(self.hand) | set(self.discard)
        for cards in self.known:
            shown |= set(cards)
        for attack, defense in self.table:
            shown.add(attack)
            if defense is not None:
                shown.add(defense)
        if self.stock > 0:
            shown.add(self.trump)
        return [card for card in deck(self.rules.deck) if card not in shown]

    def hidden_slots(self) -> HiddenSlots:
        """Unknown cards per other seat, and unknown stock cards (the trump card is known)."""
        seats = {
            other: self.hand_counts[other] - len(self.known[other])
            for other in range(self.players)
            if other != self.seat
        }
        return HiddenSlots(seats, max(self.stock - 1, 0))

    def to_game(self, hidden: Mapping[int, Sequence[Card]], stock_order: Sequence[Card]) -> Game:
        """The full game for one assignment of the unseen cards.

        `hidden[s]`: the unknown cards of seat `s` (seats with no unknown cards may
        be left out); `stock_order`: the unknown stock cards, top first (the trump
        card is put beneath them). Together they must be exactly `unseen_cards()`.
        """
        slots = self.hidden_slots()
        for other in hidden:
            if other not in slots.seats:
                raise PositionError(
                    f"hidden: seat {other} has no hidden cards to assign",
                    ErrorCode.INVALID_SEAT,
                )
        for other, count in slots.seats.items():
            given = len(hidden.get(other, ()))
            if given != count:
                raise PositionError(
                    f"hidden[{other}]: {given} cards given for {count} unknown cards",
                    ErrorCode.COUNT_MISMATCH,
                )
        if len(stock_order) != slots.stock:
            raise PositionError(
                f"stock_order: {len(stock_order)} cards given for {slots.stock} unknown stock cards",
                ErrorCode.COUNT_MISMATCH,
            )
        assigned = [card for cards in hidden.values() for card in cards] + list(stock_order)
        if sorted(assigned) != self.unseen_cards():
            raise PositionError(
                "hidden and stock_order must hold exactly the unseen cards",
                ErrorCode.COUNT_MISMATCH,
            )
        hands = [
            set(self.hand) if other == self.seat else set(self.known[other]) | set(hidden.get(other, ()))
            for other in range(self.players)
        ]
        stock = [*stock_order, self.trump] if self.stock > 0 else []
        return Game.from_parts(
            self.rules,
            self.players,
            hands,
            stock,
            self.trump,
            discard=self.discard,
            table=[Pair(attack, defense) for attack, defense in self.table],
            attacker=self.attacker,
            defender=self.defender,
            to_move=self.to_move,
            taking=self.taking,
            passed=self.passed,
            finished=self.finished,
            defended_once=self.defended_once,
            known=[set(cards) for cards in self.known],
        )

    def sample_game(self, rng: random.Random) -> Game:
        """A full game with the unseen cards dealt uniformly at random (the readable sampler)."""
        cards = self.unseen_cards()
        rng.shuffle(cards)
        slots = self.hidden_slots()
        hidden: dict[int, list[Card]] = {}
        start = 0
        for other, count in slots.seats.items():
            hidden[other] = cards[start : start + count]
            start += count
        return self.to_game(hidden, cards[start:])

    def legal_moves(self) -> list[Move]:
        """The legal moves of this seat, which must be the seat to move ([] once the game is over)."""
        if self.to_move is None:
            return []
        if self.to_move != self.seat:
            raise NotYourTurnError(f"seat {self.seat} is not to move: seat {self.to_move} is")
        # A seat's own moves depend only on what it sees, so any redeal gives the same list.
        return self.sample_game(random.Random(0)).legal_moves()


# -- reading JSON fields ----------------------------------------------------------------


def _rules(value: Any) -> Rules:
    try:
        return Rules.from_json(value)
    except TanError:
        raise
    except (TypeError, ValueError) as error:
        raise RulesError(f"rules: {error}") from None


def _int(value: Any, name: str, minimum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise PositionError(f"{name} must be a whole number, not {value!r}")
    if minimum is not None and value < minimum:
        raise PositionError(f"{name} must be at least {minimum}, not {value}")
    return value


def _bool(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise PositionError(f"{name} must be true or false, not {value!r}")
    return value


def _card(value: Any, name: str) -> Card:
    try:
        return Card.parse(value)
    except CardError as error:
        raise CardError(f"{name}: {error}") from None


def _cards(value: Any, name: str) -> list[Card]:
    if not isinstance(value, list):
        raise PositionError(f"{name} must be a list of cards, not {value!r}")
    return [_card(item, f"{name}[{i}]") for i, item in enumerate(value)]


def _seats(value: Any, name: str) -> list[int]:
    if not isinstance(value, list):
        raise PositionError(f"{name} must be a list of seats, not {value!r}")
    return [_int(item, f"{name}[{i}]") for i, item in enumerate(value)]


def _table(value: Any) -> tuple[tuple[Card, Card | None], ...]:
    if not isinstance(value, list):
        raise PositionError(f"table must be a list of pairs, not {value!r}")
    pairs = []
    for i, item in enumerate(value):
        if not isinstance(item, Mapping):
            raise PositionError(f'table[{i}] must be an object {{"attack": card, "defense": card or null}}')
        extra = sorted(str(key) for key in item if key not in ("attack", "defense"))
        if extra:
            raise PositionError(f"table[{i}]: unknown field(s) {', '.join(extra)}")
        if "attack" not in item:
            raise PositionError(f"table[{i}]: missing field attack")
        defense = item.get("defense")
        pairs.append(
            (
                _card(item["attack"], f"table[{i}].attack"),
                None if defense is None else _card(defense, f"table[{i}].defense"),
            )
        )
    return tuple(pairs)


def _known(value: Any, players: int) -> tuple[tuple[Card, ...], ...]:
    if not isinstance(value, Mapping):
        raise PositionError(f"known must be an object from seat to cards, not {value!r}")
    known: list[tuple[Card, ...]] = [() for _ in range(players)]
    for key, cards in value.items():
        if isinstance(key, bool) or not (
            isinstance(key, int) or (isinstance(key, str) and key.strip().isdigit())
        ):
            raise PositionError(f"known: key {key!r} is not a seat number")
        seat = int(key)
        if seat not in range(players):
            raise PositionError(f"known: no seat {seat} in a {players}-seat game", ErrorCode.INVALID_SEAT)
        if known[seat]:
            raise PositionError(f"known: seat {seat} is given twice")
        known[seat] = tuple(_cards(cards, f"known[{seat}]"))
    return tuple(known)
