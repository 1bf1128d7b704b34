"""Game records: what one seat has seen from the deal on (docs/api.md §2.3).

A record is the seat's dealt hand, the trump card, who would lead, in a match
the game's place in it (its `match` block and the tribute owed), and every
event it saw (`solver.game.events`): each seat's public move, its own draws,
a tribute given and a win by trumps. `Record.replay` turns it into the seat's
position and everything the seat knows by playing the events in a full game
of the readable engine (`solver.game.replay`), so every rule and every piece
of knowledge comes from `solver.game.reference`. `Record.of_game` writes the
record a seat keeps of a game it played; `solver.game.notation` writes and
reads a record as text (docs/notation.md).

Beside what the seat saw, a record may carry what is known of the game as a
whole: the names of the seats, the date, the whole deck (once the game is over
and its deal known) and the result, which the replay then checks.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from solver.game.cards import Card, parse_cards
from solver.game.errors import CardError, ErrorCode, RulesError, TanError
from solver.game.events import AllTrumps, Draw, Event, Play, RecordError, Tribute, event_from_json
from solver.game.moves import Action, Move
from solver.game.phases import Phase, seen_by
from solver.game.position import MatchInfo, Position, match_from_json
from solver.game.reference import Game
from solver.game.replay import Seen, Watch, check_result, replay_record
from solver.game.rules import Rules

__all__ = ["AllTrumps", "Draw", "Event", "Play", "Record", "RecordError", "Tribute"]

_REQUIRED = ("rules", "players", "seat", "hand", "trump", "first_attacker", "events")
_OPTIONAL = ("seats", "date", "match", "tribute", "deck", "result")


@dataclass(frozen=True)
class Record(Seen):
    """What `seat` has seen of one game: its dealt `hand`, the `trump` card, the seat that would
    lead at the deal (`first_attacker`), in a match the game's `match` block (docs/api.md §2.2)
    and the `tribute` owed as `(giver, receiver)`, and its `events` in order (the fields the
    replay reads, `solver.game.replay.Seen`); then what is known of the game as a whole: the whole
    `deck` (top first), the `result` (every seat's score), the `seats`' names and the `date`."""

    seats: tuple[str, ...] | None = None
    date: str | None = None

    # -- JSON -----------------------------------------------------------------------------

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """Read a record (docs/api.md §2.3); a malformed one names the field at fault."""
        if not isinstance(data, Mapping):
            raise RecordError(f"a record must be an object, not {type(data).__name__}")
        unknown = sorted(str(key) for key in data if key not in _REQUIRED + _OPTIONAL)
        if unknown:
            raise RecordError(f"unknown field(s) in record: {', '.join(unknown)}")
        missing = [name for name in _REQUIRED if name not in data]
        if missing:
            raise RecordError(f"missing field(s) in record: {', '.join(missing)}")
        rules = Rules.from_json(data["rules"])
        players, seat, first = (_whole(data[name], name) for name in ("players", "seat", "first_attacker"))
        try:
            rules.check_players(players)
        except RulesError as error:
            raise RecordError(f"players: {error.message}", code=ErrorCode.BAD_PLAYERS) from None
        for name, value in (("seat", seat), ("first_attacker", first)):
            _seat_in(value, name, players)
        if not isinstance(data["events"], list):
            raise RecordError("events must be a list")
        try:
            hand = tuple(parse_cards(_list(data["hand"], "hand")))
            trump = parse_cards([data["trump"]])[0]
            deck = None if data.get("deck") is None else tuple(parse_cards(_list(data["deck"], "deck")))
        except CardError as error:
            raise RecordError(error.message, code=ErrorCode.INVALID_CARD) from None
        try:
            match = match_from_json(data.get("match"))
        except TanError as error:
            raise RecordError(error.message, code=error.code) from None
        events = tuple(event_from_json(item, index, players) for index, item in enumerate(data["events"]))
        record = cls(
            rules, players, seat, hand, trump, first, events, match,
            _tribute(data.get("tribute"), players), deck, _result(data.get("result"), players),
            seats=_seats(data.get("seats"), players), date=_date(data.get("date")),
        )
        record.check_context()
        return record

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "rules": self.rules.to_json(),
            "players": self.players,
            "seat": self.seat,
            "hand": [str(card) for card in self.hand],
            "trump": str(self.trump),
            "first_attacker": self.first_attacker,
            "events": [event.to_json() for event in self.events],
        }
        optional: dict[str, Any] = {
            "seats": None if self.seats is None else list(self.seats),
            "date": self.date,
            "match": None if self.match is None else self.match.to_json(),
            "tribute": None if self.tribute is None else list(self.tribute),
            "deck": None if self.deck is None else [str(card) for card in self.deck],
            "result": None if self.result is None else list(self.result),
        }
        out.update((name, value) for name, value in optional.items() if value is not None)
        return out

    def check_context(self) -> None:
        """The tribute owed agrees with the rules and the match block (docs/rules.md §1.9; the
        block itself is checked in full as the replay's position is built)."""
        if self.tribute is None:
            return
        if not self.rules.tribute:
            raise RecordError("tribute: these rules owe no tribute (the tribute option is off)")
        match = self.match
        if match is None or (match.previous_loser, match.previous_winner) != self.tribute:
            raise RecordError("tribute: the last game's loser owes its winner, as the match block says",
                              code=ErrorCode.INCONSISTENT_TURN)

    @classmethod
    def of_game(
        cls,
        game: Game,
        seat: int,
        deal: Sequence[Card],
        history: Sequence[tuple[int, Move]],
        *,
        match: MatchInfo | None = None,
        tribute: tuple[int, int] | None = None,
        deck_known: bool = False,
        seats: Sequence[str] | None = None,
        date: str | None = None,
    ) -> Record:
        """The record `seat` keeps of a game dealt from `deal` (top first), `game` being that game
        just dealt (the setup's forced steps played) and `history` its moves since; in a match
        its `match` block and the `tribute` owed. With `deck_known` the record carries the deck
        and, once the game is over, the result."""
        world, deal = game.clone(), [Card.parse(card) for card in deal]
        seated = [other for other in range(world.players) if other not in world.finished]
        h, n = world.rules.hand_size, len(seated)
        hand = tuple(deal[i] for i in range(n * h) if seated[i % n] == seat)
        trump = deal[n * h] if n * h < len(deal) else deal[-1]
        leader = world.leader
        events: list[Event] = []
        _observe(world, None, seat, events)
        for mover, move in history:
            before = world.clone()
            world.play(move, mover)
            if seen_by(move, mover, seat):  # not another seat's keep, which is secret
                events.append(_play_event(before, world, mover, move, seat))
            _observe(world, before, seat, events)
        over = world.over and world.scores is not None  # everyone sees how a game ends
        return cls(
            world.rules, world.players, seat, hand, trump, leader, tuple(events), match, tribute,
            tuple(deal) if deck_known else None, tuple(world.scores or ()) if over else None,
            seats=None if seats is None else tuple(seats), date=date,
        )

    # -- replay -----------------------------------------------------------------------------

    def replay(self, watch: Watch | None = None, *, settle: bool = False) -> Game:
        """A full game consistent with everything the record's seat saw, at the record's end
        (`solver.game.replay`); with a `result`, the game must have ended so. With `settle`, a
        secret setup decision of another seat left pending at the end is taken as a keep (docs/api.md
        §2.3): a hint or evaluation asks at the seat's own turn, which only such keeps can hide.

        `watch(index, event, before, after)` is called around every move the world plays:
        `before` is a copy of the world as the move was chosen (already consistent with the
        move), `after` the world right after it (the record's own draws not yet repaired).
        """
        world = replay_record(self, watch, settle)
        check_result(self, world)
        return world

    def position(self) -> Position:
        """What the record's seat sees at its end (docs/api.md §2.2), with its match block."""
        return self.position_of(self.replay())

    def position_of(self, world: Game) -> Position:
        """What the record's seat sees of `world` (its replay, at any point), with its match block."""
        try:
            return Position.from_game(world, self.seat, match=self.match)
        except TanError as error:
            raise RecordError(error.message, code=error.code) from None


def _play_event(before: Game, after: Game, mover: int, move: Move, seat: int) -> Play:
    """A public move as `seat` saw it: a redeal with the hand it showed, and the hands offered
    when it is the seat's own."""
    if move.action is not Action.REDEAL:
        return Play(mover, move)
    sets = after.redeal_sets
    offered = None if mover != seat or sets is None else (tuple(sorted(sets[0])), tuple(sorted(sets[1])))
    return Play(mover, move, tuple(sorted(before.hands[mover])), offered)


def _observe(world: Game, before: Game | None, seat: int, events: list[Event]) -> None:
    """What `seat` saw the setup's forced steps do in the last move (or at the deal), then its
    own draws: a tribute given (docs/rules.md §1.7, step 2), a win by trumps (step 3)."""
    if world.tributed is not None and (before is None or before.tributed is None):
        giver, receiver, card = world.tributed
        inspected = world.seen[receiver][giver] if seat == receiver else set()
        # everyone sees the card go when it was the trump card, dealt last and shown (§1.2)
        public = card == world.trump and not world.stock
        events.append(Tribute(card if seat in (giver, receiver) or public else None,
                              tuple(sorted(inspected)) if inspected else None))
    if world.drawn[seat]:
        events.append(Draw(tuple(world.drawn[seat])))
    winner = world.winner if world.over and world.loser is None else None  # only a win by trumps
    if winner is not None and (before is None or before.phase is Phase.SETUP):
        events.append(AllTrumps(winner, tuple(sorted(world.hands[winner]))))


def _whole(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(f"{name} must be a whole number, not {value!r}")
    return value


def _list(value: Any, name: str) -> list[Any]:
    if not isinstance(value, list):
        raise RecordError(f"{name} must be a list, not {value!r}")
    return value


def _seat_in(value: int, name: str, players: int) -> None:
    if value not in range(players):
        raise RecordError(f"{name}: no seat {value} in a {players}-seat game", code=ErrorCode.INVALID_SEAT)


def _tribute(value: Any, players: int) -> tuple[int, int] | None:
    if value is None:
        return None
    pair = _list(value, "tribute")
    if len(pair) != 2:
        raise RecordError(f"tribute: [giver, receiver], not {value!r}")
    giver, receiver = (_whole(seat, "tribute") for seat in pair)
    for seat in (giver, receiver):
        _seat_in(seat, "tribute", players)
    return giver, receiver


def _seats(value: Any, players: int) -> tuple[str, ...] | None:
    """Who sat at each seat (`human`, an engine, a name): text without quotes, commas, brackets
    or line breaks, so that the text notation's header holds it (docs/notation.md)."""
    if value is None:
        return None
    names = _list(value, "seats")
    if len(names) != players or not all(isinstance(name, str) for name in names):
        raise RecordError(f"seats: one name for each of the {players} seats, not {value!r}")
    for name in names:
        if not name.strip() or name != name.strip() or any(char in name for char in '",[]\n\r'):
            raise RecordError(f"seats: {name!r} is not a name (no quotes, commas, brackets or line breaks)")
    return tuple(names)


def _date(value: Any) -> str | None:
    """The day the game was played, `YYYY-MM-DD`."""
    if value is None:
        return None
    try:
        if isinstance(value, str) and len(value) == 10:
            return datetime.date.fromisoformat(value).isoformat()
    except ValueError:
        pass
    raise RecordError(f"date: a day as YYYY-MM-DD, not {value!r}")


def _result(value: Any, players: int) -> tuple[float, ...] | None:
    """Every seat's score at the end (docs/rules.md §1.5): 0, 0.5 or 1 each."""
    if value is None:
        return None
    scores = _list(value, "result")
    ok = len(scores) == players and all(
        not isinstance(score, bool) and isinstance(score, int | float) and score in (0, 0.5, 1)
        for score in scores
    )
    if not ok:
        raise RecordError(f"result: a score of 0, 0.5 or 1 for each of the {players} seats, not {value!r}")
    return tuple(float(score) for score in scores)
