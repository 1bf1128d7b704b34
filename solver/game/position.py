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

import dataclasses
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from solver.game.bounds import MAX_MATCH_GAMES
from solver.game.bout import Pair, check_reachable, check_turn, place_cards
from solver.game.cards import Card, Rank, Suit, deck
from solver.game.errors import CardError, ErrorCode, NotYourTurnError, PositionError, RulesError, TanError
from solver.game.moves import Move
from solver.game.phases import (
    Phase,
    all_trumps_win,
    final_scores,
    game_loser,
    redeal_asked,
    secret_decision,
    swap_asked,
    trump_ace_loses,
)
from solver.game.reference import Game, SetupState
from solver.game.rules import PRESETS, Rules

__all__ = [
    "POSITION_FIELDS",
    "HiddenSlots",
    "MatchInfo",
    "Position",
    "PositionField",
    "SetupView",
    "match_from_json",
    "to_move_seen_by",
]

_NO_DEFAULT: Any = dataclasses.MISSING


@dataclass(frozen=True)
class PositionField:
    """One field of a docs/api.md §2.2 position: its JSON `shape` (rules, count, seat, seat or
    null, card, cards, counts, seats, table, known, flag, phase, block), what it means, whether a
    position must give it, its `json_default` when left out (None for `defended_once`: worked
    out from the discard pile), whether `to_json` leaves it out at its default (`quiet`), and its
    value in the docs' example position (None: not in the example)."""

    name: str
    shape: str
    meaning: str
    required: bool
    json_default: Any = None
    quiet: bool = False
    example: Any = None


def _declare(
    shape: str,
    meaning: str,
    *,
    default: Any = _NO_DEFAULT,
    json_default: Any = None,
    quiet: bool = False,
    example: Any = None,
) -> Any:
    """A `Position` field with its `PositionField` declaration in the field's metadata."""
    metadata = {"shape": shape, "meaning": meaning, "json_default": json_default, "quiet": quiet,
                "example": example}
    return field(default=default, metadata=metadata)
_STEPS = ("redeal", "pick", "swap")


class HiddenSlots(NamedTuple):
    """What a seat does not know: unknown cards per other seat, unknown stock cards (the stock
    without the trump card at its bottom), and, while another seat picks a new hand after a
    redeal, the two offered hands (docs/rules.md §1.7)."""

    seats: dict[int, int]
    stock: int
    sets: int = 0

    @property
    def total(self) -> int:
        return sum(self.seats.values()) + self.stock + self.sets


@dataclass(frozen=True)
class SetupView:
    """A position's setup block (docs/api.md §2.2): the pending `step` (None while another seat
    makes a decision this seat may not see), the seat that would lead, the seats that redealt,
    the two offered hands (to the seat picking only), the hand shown by it, and a tribute still
    to come as `(giver, receiver)`."""

    step: str | None
    leader: int
    redealt: tuple[int, ...] = ()
    sets: tuple[tuple[Card, ...], tuple[Card, ...]] | None = None
    shown: tuple[Card, ...] = ()
    tribute: tuple[int, int] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"step": self.step, "leader": self.leader, "redealt": list(self.redealt)}
        if self.sets is not None:
            out["sets"] = [[str(card) for card in part] for part in self.sets]
        if self.shown:
            out["shown"] = [str(card) for card in self.shown]
        if self.tribute is not None:
            out["tribute"] = list(self.tribute)
        return out


@dataclass(frozen=True)
class MatchInfo:
    """A position's match block (docs/api.md §2.2): which game of the match this is (from 1),
    its dealer, the last game's winner and loser, the trump suit of every game before it, and
    the dealer sitting out after losing this game to a trump repeat (docs/rules.md §1.9)."""

    game: int
    dealer: int
    previous_winner: int | None = None
    previous_loser: int | None = None
    trump_suits: tuple[Suit, ...] = ()
    sitting_out: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "dealer": self.dealer,
            "previous_winner": self.previous_winner,
            "previous_loser": self.previous_loser,
            "trump_suits": [suit.letter for suit in self.trump_suits],
            **({"sitting_out": self.sitting_out} if self.sitting_out is not None else {}),
        }


@dataclass(frozen=True, kw_only=True)
class Position:
    """What one seat sees (docs/api.md §2.2). Construction validates; cards are `Card`s, rules `Rules`.

    `known[s]` are the cards known to be in seat `s`'s hand (empty for `seat`
    itself, whose whole hand is `hand`). `to_move` None means the game is over.

    The fields are declared once, in JSON order, each with its JSON shape, meaning and example
    (`POSITION_FIELDS`): `from_json`'s required and optional names, `to_json` and the service's
    request and answer schemas are read from them.
    """

    rules: Rules = _declare(
        "rules",
        'a preset name (`tan`, `durak`, `perevodnoy`) or `{"preset": name, option: value, …}` '
        "(see GET /v1/rules)",
        example="durak",
    )
    players: int = _declare("count", "number of seats", example=2)
    seat: int = _declare("seat", "the viewpoint: whose hand `hand` is", example=0)
    hand: tuple[Card, ...] = _declare(
        "cards", "the seat's own cards", example=["7s", "Js", "6h", "Th", "Jh", "9d"]
    )
    hand_counts: tuple[int, ...] = _declare("counts", "cards in every seat's hand, by seat", example=[6, 5])
    trump: Card = _declare(
        "card", "the trump card (lies at the bottom of the stock while it lasts)", example="7c"
    )
    stock: int = _declare(
        "count", "cards left in the stock, the trump card included while it lies there", example=24
    )
    discard: tuple[Card, ...] = _declare(
        "cards", "every card in the discard pile", default=(), json_default=[], example=[]
    )
    table: tuple[tuple[Card, Card | None], ...] = _declare(
        "table", "the bout's pairs, in play order", default=(), json_default=[],
        example=[{"attack": "8h", "defense": None}],
    )
    attacker: int = _declare("seat", "the main attacker of the bout", example=1)
    defender: int = _declare("seat", "the defender of the bout", example=0)
    to_move: int | None = _declare("seat or null", "the seat to move; null once the game is over", example=0)
    taking: bool = _declare(
        "flag", "the defender has declared take (throw-ins may follow)", default=False, json_default=False,
        example=False,
    )
    passed: tuple[int, ...] = _declare(
        "seats", "seats that passed since the last card", default=(), json_default=[], example=[]
    )
    known: tuple[tuple[Card, ...], ...] = _declare(
        "known", 'cards known to be in other seats\' hands, by seat: `{"1": ["Kc"]}`', default=(),
        json_default={}, example={},
    )
    finished: tuple[int, ...] = _declare(
        "seats", "seats that have finished, in order", default=(), json_default=[], example=[]
    )
    # Only a defence fills the discard pile, so that is the default (docs/rules.md §1.4).
    defended_once: bool = _declare(
        "flag", "a bout of this game already ended in a defence (default: discard is non-empty)",
        default=False, json_default=None, example=False,
    )
    # The side rules' fields (docs/api.md §2.2), in the JSON only where they say something.
    phase: str = _declare(
        "phase", "before the first lead (setup) or after", default="play", json_default="play", quiet=True
    )
    setup: SetupView | None = _declare(
        "block",
        'in the setup: {"step", "leader", "redealt", "sets", "shown", "tribute"} (docs/api.md §2.2)',
        default=None, json_default=None, quiet=True,
    )
    in_stock: tuple[Card, ...] = _declare(
        "cards", "cards this seat knows lie in the stock", default=(), json_default=[], quiet=True
    )
    match: MatchInfo | None = _declare(
        "block",
        'in a match: {"game" (1 to 100), "dealer", "previous_winner", "previous_loser", "trump_suits", '
        '"sitting_out"} (docs/api.md §2.2)',
        default=None, json_default=None, quiet=True,
    )

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
        object.__setattr__(self, "in_stock", tuple(sorted(self.in_stock)))
        # Held as a `Phase`, whether given as one or as its text.
        object.__setattr__(self, "phase", _phase(self.phase))
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
            phase=_phase(data.get("phase", Phase.PLAY)),
            setup=_setup(data.get("setup")),
            in_stock=tuple(_cards(data.get("in_stock", []), "in_stock")),
            match=match_from_json(data.get("match")),
        )

    def to_json(self) -> dict[str, Any]:
        """The docs/api.md §2.2 JSON; `from_json` reads it back to an equal `Position`. A quiet
        field (the side rules') is written only where it differs from its default."""
        out: dict[str, Any] = {}
        for declared in dataclasses.fields(self):
            value = getattr(self, declared.name)
            if declared.metadata["quiet"] and value == declared.default:
                continue
            out[declared.name] = _ENCODERS[declared.metadata["shape"]](value)
        return out

    @classmethod
    def from_game(
        cls, game: Game, seat: int, match: MatchInfo | None = None, *, reveal_hands: bool = False
    ) -> Position:
        """What `seat` sees of a full game (in a match, with its match block).

        `reveal_hands` shows it every other hand as known cards, as no player ever sees them: the
        arena's ceiling on what reading the others' hands could be worth (BENCHMARKS.md)."""
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
            to_move=to_move_seen_by(game, seat),
            discard=tuple(game.discard),
            table=tuple((pair.attack, pair.defense) for pair in game.table),
            taking=game.taking,
            passed=tuple(game.passed),
            known=tuple(
                ()
                if other == seat
                else tuple(game.hands[other])
                if reveal_hands
                else tuple(game.known[other] | game.seen[seat][other])
                for other in range(game.players)
            ),
            finished=tuple(game.finished),
            defended_once=game.defended_once,
            phase=game.phase if not game.over else Phase.PLAY,
            setup=_setup_view(game, seat),
            in_stock=tuple(game.in_stock[seat]),
            match=match,
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
        self._check_match()
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
        aside = self._aside()
        total = sum(self.hand_counts) + self.stock + on_table + len(self.discard) + aside
        if total != rules.deck:
            setup = f" + set aside in the setup {aside}" if aside else ""
            raise PositionError(
                f"cards do not add up to the {rules.deck}-card deck: hands {sum(self.hand_counts)} + "
                f"stock {self.stock} + table {on_table} + discard {len(self.discard)}{setup} = {total}",
                ErrorCode.COUNT_MISMATCH,
            )
        if len(self.in_stock) > max(self.stock - 1, 0):
            raise PositionError(
                f"in_stock: {len(self.in_stock)} cards known in a stock of {self.stock} with the trump card",
                ErrorCode.COUNT_MISMATCH,
            )
        check_reachable(
            rules,
            players,
            self.hand_counts,
            self.stock,
            len(self.discard),
            [Pair(attack, defense) for attack, defense in self.table],
            self.defender,
            self.to_move,
            sitting_out=self._sitting_out(),
        )
        if self.phase is Phase.SETUP:
            self._check_setup()
            return
        if self.setup is not None:
            raise PositionError("setup: only a position in the setup phase has a setup block")
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
            sitting_out=self._sitting_out(),
        )

    def _check_match(self) -> None:
        """A match block that a match could have reached (docs/api.md §2.2, docs/rules.md §1.9).

        `trump_suits` holds one suit for every game recorded: the games before this one, or every
        game with this one once the match is over (its block then tells of this game as the
        previous one). Game 1 is dealt by seat 0 with no game before it; a later game by the last
        game's loser, if there was one; a winner is never the loser; only the dealer sits out,
        after losing a trump repeat with three seats or more; a trump suit repeated in the last
        `trump_repeat_limit - 1` games would have lost the dealer this game at once."""
        match, players = self.match, self.players
        if match is None:
            return
        if isinstance(match.game, bool) or not 1 <= match.game <= MAX_MATCH_GAMES:
            raise PositionError(f"match.game: a match has games 1 to {MAX_MATCH_GAMES}, not {match.game!r}")
        seats = (
            ("match.dealer", match.dealer),
            ("match.previous_winner", match.previous_winner),
            ("match.previous_loser", match.previous_loser),
            ("match.sitting_out", match.sitting_out),
        )
        for name, seat in seats:
            if seat is not None and (isinstance(seat, bool) or seat not in range(players)):
                raise PositionError(
                    f"{name}: no seat {seat!r} in a {players}-seat game", ErrorCode.INVALID_SEAT
                )
        recorded = len(match.trump_suits)
        if recorded not in (match.game - 1, match.game):
            raise PositionError(
                f"match.trump_suits: game {match.game} follows {match.game - 1} games, so it lists "
                f"{match.game - 1} trump suits (or {match.game} once the match is over), not {recorded}"
            )
        finished = recorded == match.game  # this game is over and recorded: the match is over
        if recorded and finished and match.trump_suits[-1] != self.trump.suit:
            raise PositionError(
                f"match.trump_suits: the last suit is this game's, {self.trump.suit.letter}, "
                f"not {match.trump_suits[-1].letter}"
            )
        previous = (match.previous_winner, match.previous_loser)
        if recorded == 0 and previous != (None, None):
            raise PositionError(
                "match: game 1 has no game before it, so no previous_winner or previous_loser"
            )
        if match.previous_winner is not None and match.previous_winner == match.previous_loser:
            raise PositionError(
                f"match: seat {match.previous_winner} cannot be both the winner and the loser of the "
                "last game"
            )
        if match.game == 1 and match.dealer != 0:
            raise PositionError(f"match.dealer: seat 0 deals game 1, not seat {match.dealer}")
        loser = match.previous_loser
        if not finished and loser is not None and match.dealer != loser:
            raise PositionError(
                f"match.dealer: the last game's loser, seat {loser}, deals, not seat {match.dealer}"
            )
        limit = self.rules.trump_repeat_limit
        if match.sitting_out is not None and (
            finished or match.sitting_out != match.dealer or players < 3 or limit is None
        ):
            raise PositionError(
                f"match.sitting_out: only the dealer sits out, after losing a trump repeat with three "
                f"seats or more (trump_repeat_limit), not seat {match.sitting_out}"
            )
        if limit is not None and match.sitting_out is None and not finished and recorded >= limit - 1:
            last = match.trump_suits[recorded - (limit - 1):]
            if all(suit == self.trump.suit for suit in last):
                raise PositionError(
                    f"match.trump_suits: {self.trump.suit.letter} was trump in each of the last {limit - 1} "
                    f"games, so the dealer lost this game at once (trump_repeat_limit {limit})"
                )
        tribute = self.setup.tribute if self.setup is not None else None
        if tribute is not None and not finished and tribute != (match.previous_loser, match.previous_winner):
            raise PositionError(
                f"setup.tribute: the last game's loser owes its winner, not {list(tribute)}",
                ErrorCode.INCONSISTENT_TURN,
            )

    def _sitting_out(self) -> set[int]:
        out = self.match.sitting_out if self.match is not None else None
        return set() if out is None else {out}

    def _aside(self) -> int:
        """Cards neither in hands, stock, table nor discard: a redeal's shown hand and the two
        offered hands while the pick is pending (docs/rules.md §1.7)."""
        if self.setup is None or self.setup.step != "pick":
            return len(self.setup.shown) if self.setup is not None else 0
        return len(self.setup.shown) + 2 * self.rules.hand_size

    def _check_setup(self) -> None:
        """A position in the setup (docs/rules.md §1.7): nothing played yet, and a pending step
        that agrees with the rules and with what this seat can check."""
        setup, rules, h = self.setup, self.rules, self.rules.hand_size
        if setup is None:
            raise PositionError("setup: a position in the setup phase needs its setup block")
        if not rules.has_setup:
            raise PositionError("phase: these rules have no setup (every side rule of the setup is off)",
                                ErrorCode.INCONSISTENT_TURN)
        if self.table or self.discard or self.taking or self.passed or self.defended_once:
            raise PositionError("setup: nothing is played before the first lead (table, discard, passes)",
                                ErrorCode.INCONSISTENT_TURN)
        seats = range(self.players)
        for name, seat in (("setup.leader", setup.leader), *(("setup.redealt", s) for s in setup.redealt)):
            if seat not in seats:
                raise PositionError(
                    f"{name}: no seat {seat} in a {self.players}-seat game",
                    ErrorCode.INVALID_SEAT,
                )
        if setup.tribute is not None and (not rules.tribute or any(s not in seats for s in setup.tribute)):
            raise PositionError(
                f"setup.tribute: {list(setup.tribute)} is not a tribute these rules and seats owe",
                ErrorCode.INCONSISTENT_TURN,
            )
        if setup.redealt and not rules.redeal_without_trump:
            raise PositionError("setup.redealt: redeal_without_trump is off", ErrorCode.INCONSISTENT_TURN)
        if setup.step is None:
            if self.to_move is not None:
                raise PositionError(
                    "to_move: a seat to move needs its setup step",
                    ErrorCode.INCONSISTENT_TURN,
                )
            return
        if self.to_move is None:
            raise PositionError(f"to_move: the setup step {setup.step} needs the seat to decide",
                                ErrorCode.INCONSISTENT_TURN)
        mover, mine = self.to_move, self.to_move == self.seat
        if mover not in seats:
            raise PositionError(
                f"to_move: no seat {mover} in a {self.players}-seat game",
                ErrorCode.INVALID_SEAT,
            )
        option = {"redeal": "redeal_without_trump", "pick": "redeal_without_trump", "swap": "trump_swap"}
        if not getattr(rules, option[setup.step]):
            raise PositionError(f"setup.step: {setup.step} needs {option[setup.step]} on",
                                ErrorCode.INCONSISTENT_TURN)
        if setup.step == "redeal":
            # Every seat is asked, whatever it holds (one holding a trump only keeps).
            if not redeal_asked(rules, mover in setup.redealt, self.stock):
                raise PositionError(
                    f"setup: seat {mover} is not asked to redeal (redealt already, or the stock is short)",
                    ErrorCode.INCONSISTENT_TURN,
                )
        elif setup.step == "pick":
            if len(setup.shown) != h or self.hand_counts[mover] != 0 or mover not in range(self.players):
                raise PositionError(f"setup: the seat picking has shown its {h} cards and holds none",
                                    ErrorCode.COUNT_MISMATCH)
            sizes = [len(part) for part in setup.sets] if setup.sets is not None else []
            if (setup.sets is not None) != mine or any(size != h for size in sizes):
                raise PositionError(f"setup.sets: the seat picking, and only it, sees two hands of {h} cards",
                                    ErrorCode.COUNT_MISMATCH)
        else:
            # Every seat is asked, whoever holds the lowest trump (any other seat only keeps).
            low = Card(deck(rules.deck)[0].rank, self.trump.suit)
            if not swap_asked(rules, self.stock, low == self.trump):
                raise PositionError(
                    f"setup: nobody is asked to swap {low}: the trump card must lie under the stock and not "
                    "be it",
                    ErrorCode.INCONSISTENT_TURN,
                )
        if setup.step != "pick" and (setup.sets is not None or setup.shown):
            raise PositionError(
                "setup: offered and shown hands belong to a pending pick",
                ErrorCode.INCONSISTENT_TURN,
            )

    def _check_cards(self) -> None:
        """Every card shown is in the deck and in one place only (docs/api.md §2.2)."""
        places: list[tuple[str, Card]] = [("hand", card) for card in self.hand]
        places += [("in_stock", card) for card in self.in_stock]
        if self.setup is not None:
            places += [("setup.shown", card) for card in self.setup.shown]
            for i, part in enumerate(self.setup.sets or ()):
                places += [(f"setup.sets[{i}]", card) for card in part]
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
        """The game has ended (a position in its setup may also have nobody to move: another seat
        decides in secret)."""
        return self.to_move is None and self.phase is Phase.PLAY

    @property
    def waiting(self) -> bool:
        """Another seat is making a setup decision this seat may not see (docs/rules.md §1.7): the
        game is not over, but nobody is to move as far as this seat can tell."""
        return self.to_move is None and self.phase is Phase.SETUP

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
        won = self._all_trumps_winner()
        if won is not None:
            return final_scores(self.players, None, won, ())
        holding = [seat for seat in range(self.players) if self.hand_counts[seat] > 0]
        ace_alone = self._trump_ace_loser()
        loser = game_loser(self.rules, self.stock, holding, () if ace_alone is None else (ace_alone,))
        drawn = set(holding) if holding else set(self.finished[-2:])
        return final_scores(self.players, loser, None, drawn)

    def _all_trumps_winner(self) -> int | None:
        """The seat that won before the first lead with a shown hand of trumps (docs/rules.md §1.7)."""
        if not self.rules.all_trumps_wins or self.table or self.discard or self.finished:
            return None
        for seat in range(self.players):
            cards = self.hand if seat == self.seat else self.known[seat]
            # Only a hand this seat sees whole; a finished game shows no redeal, none is assumed.
            whole = len(cards) == self.hand_counts[seat]
            if whole and all_trumps_win(self.rules, cards, self.trump.suit, redealt=False):
                return seat
        return None

    def _trump_ace_loser(self) -> int | None:
        """The seat that lost holding only the trump ace (docs/rules.md §1.5), if the position shows one."""
        if not trump_ace_loses(self.rules, self.stock):
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
        """Cards whose place this seat does not know exactly: in other hands' unknown slots, in the
        stock (those of `in_stock` among them, known to lie there), or in the offered hands of
        another seat's pending pick."""
        shown = set(self.hand) | set(self.discard)
        for cards in self.known:
            shown |= set(cards)
        for attack, defense in self.table:
            shown.add(attack)
            if defense is not None:
                shown.add(defense)
        if self.stock > 0:
            shown.add(self.trump)
        if self.setup is not None:
            shown |= set(self.setup.shown)
            for part in self.setup.sets or ():
                shown |= set(part)
        return [card for card in deck(self.rules.deck) if card not in shown]

    def hidden_slots(self) -> HiddenSlots:
        """Unknown cards per other seat, unknown stock cards (the trump card is known), and the
        offered hands of another seat's pending pick."""
        seats = {
            other: self.hand_counts[other] - len(self.known[other])
            for other in range(self.players)
            if other != self.seat
        }
        setup = self.setup
        others_pick = setup is not None and setup.step == "pick" and setup.sets is None
        sets = 2 * self.rules.hand_size if others_pick else 0
        return HiddenSlots(seats, max(self.stock - 1, 0), sets)

    def to_game(
        self,
        hidden: Mapping[int, Sequence[Card]],
        stock_order: Sequence[Card],
        sets: Sequence[Sequence[Card]] | None = None,
        chance_seed: int = 0,
    ) -> Game:
        """The full game for one assignment of the unseen cards.

        `hidden[s]`: the unknown cards of seat `s` (seats with no unknown cards may
        be left out); `stock_order`: the unknown stock cards, top first (the trump
        card is put beneath them; every card of `in_stock` must be among them);
        `sets`: the two offered hands of another seat's pending pick. Together they
        must be exactly `unseen_cards()`. `chance_seed` seeds the chance events to come.
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
        offered = [list(part) for part in sets] if sets is not None else []
        if sum(len(part) for part in offered) != slots.sets:
            raise PositionError(
                f"sets: the two offered hands hold {slots.sets} unseen cards",
                ErrorCode.COUNT_MISMATCH,
            )
        assigned = [card for cards in hidden.values() for card in cards] + list(stock_order)
        assigned += [card for part in offered for card in part]
        if sorted(assigned) != self.unseen_cards():
            raise PositionError(
                "hidden, stock_order and sets must hold exactly the unseen cards",
                ErrorCode.COUNT_MISMATCH,
            )
        if not set(self.in_stock) <= set(stock_order):
            raise PositionError("stock_order: the cards known to lie in the stock must be there",
                                ErrorCode.COUNT_MISMATCH)
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
            setup=self._setup_state(offered),
            in_stock=[set(self.in_stock) if other == self.seat else set() for other in range(self.players)],
            chance_seed=chance_seed,
            sitting_out=self._sitting_out(),
        )

    def _setup_state(self, offered: list[list[Card]]) -> SetupState | None:
        setup = self.setup
        if self.phase is not Phase.SETUP or setup is None:
            return None
        if setup.step is None:
            raise PositionError(
                "setup: another seat is deciding in secret, so this seat cannot see where the setup stands",
                ErrorCode.INCONSISTENT_TURN,
            )
        sets = setup.sets
        if sets is None and offered:
            sets = (tuple(offered[0]), tuple(offered[1]))
        return SetupState(setup.step, setup.leader, setup.redealt, sets, setup.shown, setup.tribute)

    def sample_game(self, rng: random.Random) -> Game:
        """A full game with the unseen cards dealt uniformly at random (the readable sampler):
        the cards known to lie in the stock go there, the others anywhere unseen."""
        slots = self.hidden_slots()
        stock_only = set(self.in_stock)
        free = [card for card in self.unseen_cards() if card not in stock_only]
        rng.shuffle(free)
        hidden: dict[int, list[Card]] = {}
        start = 0
        for other, count in slots.seats.items():
            hidden[other] = free[start : start + count]
            start += count
        h = self.rules.hand_size
        sets = [free[start : start + h], free[start + h : start + 2 * h]] if slots.sets else None
        start += slots.sets
        stock = free[start:] + sorted(stock_only)
        rng.shuffle(stock)
        return self.to_game(hidden, stock, sets)

    def legal_moves(self) -> list[Move]:
        """The legal moves of this seat, which must be the seat to move ([] once the game is over,
        or while another seat decides in secret)."""
        if self.to_move is None:
            return []
        if self.to_move != self.seat:
            raise NotYourTurnError(f"seat {self.seat} is not to move: seat {self.to_move} is")
        # A seat's own moves depend only on what it sees, so any redeal gives the same list.
        return self.sample_game(random.Random(0)).legal_moves()


# -- reading JSON fields ----------------------------------------------------------------


def _encode_rules(rules: Rules) -> str | dict[str, Any]:
    """A preset by its name; changed options as the full option set."""
    return rules.preset if PRESETS.get(rules.preset) == rules else rules.to_json()


def _as_is(value: Any) -> Any:
    return value


_ENCODERS: dict[str, Any] = {
    "rules": _encode_rules,
    "count": _as_is,
    "seat": _as_is,
    "seat or null": _as_is,
    "flag": _as_is,
    "phase": _as_is,
    "card": str,
    "cards": lambda cards: [str(card) for card in cards],
    "counts": list,
    "seats": list,
    "table": lambda table: [
        {"attack": str(attack), "defense": None if defense is None else str(defense)}
        for attack, defense in table
    ],
    "known": lambda known: {
        str(seat): [str(card) for card in cards] for seat, cards in enumerate(known) if cards
    },
    "block": lambda block: block.to_json(),
}
"""How `to_json` writes a field of each shape."""

POSITION_FIELDS: tuple[PositionField, ...] = tuple(
    PositionField(
        name=declared.name,
        shape=declared.metadata["shape"],
        meaning=declared.metadata["meaning"],
        required=declared.default is dataclasses.MISSING,
        json_default=declared.metadata["json_default"],
        quiet=declared.metadata["quiet"],
        example=declared.metadata["example"],
    )
    for declared in dataclasses.fields(Position)
)
"""Every field of a position, in JSON order, as its declaration on `Position` says."""

_REQUIRED = tuple(declared.name for declared in POSITION_FIELDS if declared.required)
_OPTIONAL = tuple(declared.name for declared in POSITION_FIELDS if not declared.required)


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


def _phase(value: Any) -> Phase:
    try:
        return Phase(value)
    except ValueError:
        raise PositionError(f"phase must be setup or play, not {value!r}") from None


def _optional_seat(value: Any, name: str) -> int | None:
    return None if value is None else _int(value, name)


def _setup(value: Any) -> SetupView | None:
    """The setup block (docs/api.md §2.2), read strictly."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise PositionError(f"setup must be an object, not {value!r}")
    names = ("step", "leader", "redealt", "sets", "shown", "tribute")
    extra = sorted(str(key) for key in value if key not in names)
    if extra:
        raise PositionError(f"setup: unknown field(s) {', '.join(extra)}")
    step = value.get("step")
    if step is not None and step not in _STEPS:
        raise PositionError(f"setup.step must be one of {', '.join(_STEPS)} or null, not {step!r}")
    if "leader" not in value:
        raise PositionError("setup: missing field leader")
    sets = value.get("sets")
    if sets is not None and (not isinstance(sets, list) or len(sets) != 2):
        raise PositionError(f"setup.sets must be two lists of cards, not {sets!r}")
    tribute = value.get("tribute")
    if tribute is not None and (not isinstance(tribute, list) or len(tribute) != 2):
        raise PositionError(f"setup.tribute must be [giver, receiver], not {tribute!r}")
    return SetupView(
        step=step,
        leader=_int(value["leader"], "setup.leader"),
        redealt=tuple(_seats(value.get("redealt", []), "setup.redealt")),
        sets=None if sets is None else (
            tuple(_cards(sets[0], "setup.sets[0]")), tuple(_cards(sets[1], "setup.sets[1]"))
        ),
        shown=tuple(_cards(value.get("shown", []), "setup.shown")),
        tribute=None if tribute is None else (_int(tribute[0], "setup.tribute[0]"),
                                              _int(tribute[1], "setup.tribute[1]")),
    )


def match_from_json(value: Any) -> MatchInfo | None:
    """The match block (docs/api.md §2.2), read strictly (a position's, and a record's, §2.3)."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise PositionError(f"match must be an object, not {value!r}")
    names = ("game", "dealer", "previous_winner", "previous_loser", "trump_suits", "sitting_out")
    extra = sorted(str(key) for key in value if key not in names)
    if extra:
        raise PositionError(f"match: unknown field(s) {', '.join(extra)}")
    suits = value.get("trump_suits", [])
    if not isinstance(suits, list):
        raise PositionError(f"match.trump_suits must be a list of suits, not {suits!r}")
    parsed = []
    for i, suit in enumerate(suits):
        try:
            parsed.append(Suit.parse(suit))
        except (CardError, ValueError, TypeError):
            raise PositionError(
                f"match.trump_suits[{i}]: not a suit: {suit!r}",
                ErrorCode.INVALID_CARD,
            ) from None
    return MatchInfo(
        game=_int(value.get("game", 1), "match.game", minimum=1),
        dealer=_int(value.get("dealer", 0), "match.dealer"),
        previous_winner=_optional_seat(value.get("previous_winner"), "match.previous_winner"),
        previous_loser=_optional_seat(value.get("previous_loser"), "match.previous_loser"),
        trump_suits=tuple(parsed),
        sitting_out=_optional_seat(value.get("sitting_out"), "match.sitting_out"),
    )


def to_move_seen_by(game: Game, seat: int) -> int | None:
    """The seat to move as `seat` sees it: nobody while another seat decides in secret whether to
    redeal or to swap (docs/rules.md §1.7). A position's `to_move` and every public state shown to
    the seat (the service's history entries) read it here, so none can tell more than the other."""
    return None if _secret_decision(game, seat) else game.to_move


def _secret_decision(game: Game, seat: int) -> bool:
    """Another seat is deciding whether to redeal or to swap: nobody else may see that it is."""
    secret = secret_decision(game.setup_step) and game.to_move != seat
    return game.phase is Phase.SETUP and not game.over and secret


def _setup_view(game: Game, seat: int) -> SetupView | None:
    """What `seat` sees of a game's pending setup: the step only if the decision is public or its
    own, the offered hands only to the seat picking (docs/rules.md §1.7)."""
    if game.phase is not Phase.SETUP or game.over:
        return None
    step = None if _secret_decision(game, seat) else game.setup_step
    sets = game.redeal_sets if step == "pick" and game.to_move == seat else None
    return SetupView(
        step=step,
        leader=game.leader,
        redealt=tuple(sorted(game.redealt)),
        sets=None if sets is None else (tuple(sorted(sets[0])), tuple(sorted(sets[1]))),
        shown=tuple(game.shown),
        tribute=game.tribute,
    )
