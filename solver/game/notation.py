"""Games as text (docs/notation.md): a game record (docs/api.md §2.3) a person can read, keep and paste.

A text is a block of headers, one a line (`[Name "value"]`), then the events,
one line for the setup (`0.`) and one for each bout (`1.`, `2.`, …), each
event in the move notation of docs/api.md §2.1 after its seat (`1: attack 7d`)
and the events only the record's seat saw in words (`draw 8h`, `tribute Kh`).
`record_to_text` writes the one canonical text of a record (its bouts found by
replaying it); `record_from_text` reads a text back, refusing a malformed one
with its line number and the reason, and reads loose spellings (`10h`, `Q♥`,
any spacing) as the move and card parsers do. Both go through the record's
JSON, so the text says exactly what the JSON says.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, NamedTuple

from solver.game.cards import Card, parse_cards
from solver.game.errors import CardError, ErrorCode, MoveError, TanError
from solver.game.events import AllTrumps, Draw, Event, Play, RecordError, Tribute
from solver.game.moves import Action, Move
from solver.game.phases import Phase
from solver.game.position import MatchInfo
from solver.game.record import Record
from solver.game.reference import Game
from solver.game.rules import PRESETS, Rules

__all__ = ["HEADERS", "Header", "NotationError", "parse_record", "record_from_text", "record_to_text"]


class NotationError(RecordError):
    """A text that is not a game record: `line` (from 1) says where, the message why."""

    def __init__(self, message: str, line: int, code: ErrorCode | None = None) -> None:
        TanError.__init__(self, f"line {line}: {message}", code or ErrorCode.INVALID_RECORD)
        self.index = None
        self.line = line


class Header(NamedTuple):
    """A header of the text: the record's JSON field it writes (docs/api.md §2.3) and what it says."""

    field: str
    meaning: str


HEADERS: dict[str, Header] = {
    "Rules": Header("rules", "the rule set: a preset's name, then each option that differs as `name value` "
                    "(docs/rules.md §1.6)"),
    "Players": Header("players", "the number of seats"),
    "Seat": Header("seat", "whose record it is: the seat whose hand and draws it shows"),
    "Seats": Header("seats", "who sat at each seat (`human`, an engine, a name), by seat, comma-separated"),
    "Date": Header("date", "the day it was played, YYYY-MM-DD"),
    "Match": Header("match", "in a match: `game N, dealer S`, then `previous_winner S`, `previous_loser S`, "
                    "`trump_suits h d …` and `sitting_out S` as known (docs/api.md §2.2)"),
    "Tribute": Header("tribute", "in a match, the tribute owed at this deal: `giver to receiver`"),
    "Deck": Header("deck", "the whole deck, top first, when known (then the hand and trump card follow)"),
    "Hand": Header("hand", "the seat's dealt cards"),
    "Trump": Header("trump", "the card turned up (with none left to turn up, the last card dealt)"),
    "FirstAttacker": Header("first_attacker", "the seat that would lead at the deal, before any setup "
                            "decision"),
    "Result": Header("result", "every seat's score at the end, by seat: `1-0`, `0.5-0.5`, `1-1-0`"),
}
"""Every header, in the order they are written, with its JSON field and meaning (docs/notation.md's
table has a row for each)."""

_HEADER = re.compile(r'^\[([A-Za-z]+)\s+"([^"]*)"\]$')
_LINE = re.compile(r"^(\d+)\.(?:\s+(.*))?$")
_PLAY = re.compile(r"^(\d+)\s*:\s*(.+)$")


# -- writing ---------------------------------------------------------------------------


def record_to_text(record: Record) -> str:
    """The record as text (docs/notation.md): its headers, then a line for the setup and one for
    each bout. The record is replayed to tell where each bout begins (a record that cannot have
    happened is refused, with the index of its first bad event)."""
    lines = [f'[{name} "{value}"]' for name, value in _headers(record) if value is not None]
    lines.append("")
    for number, events in _bouts(record):
        lines.append(f"{number}. " + "; ".join(_event_text(event) for event in events))
    return "\n".join(lines) + "\n"


def _headers(record: Record) -> list[tuple[str, str | None]]:
    known_deck = record.deck is not None
    return [
        ("Rules", _rules_text(record.rules)),
        ("Players", str(record.players)),
        ("Seat", str(record.seat)),
        ("Seats", None if record.seats is None else ", ".join(record.seats)),
        ("Date", record.date),
        ("Match", None if record.match is None else _match_text(record.match)),
        ("Tribute", None if record.tribute is None else f"{record.tribute[0]} to {record.tribute[1]}"),
        ("Deck", None if record.deck is None else _cards_text(record.deck)),
        ("Hand", None if known_deck else _cards_text(record.hand)),
        ("Trump", None if known_deck else str(record.trump)),
        ("FirstAttacker", str(record.first_attacker)),
        ("Result", None if record.result is None else "-".join(_score(score) for score in record.result)),
    ]


def _rules_text(rules: Rules) -> str:
    preset = PRESETS.get(rules.preset)
    if preset == rules:
        return rules.preset
    base = preset.to_json() if preset is not None else {}
    changed = [f"{name} {value if isinstance(value, str) else json.dumps(value)}"
               for name, value in rules.to_json().items()
               if name != "preset" and base.get(name) != value]
    return ", ".join([rules.preset, *changed])


def _match_text(match: MatchInfo) -> str:
    parts = [f"game {match.game}", f"dealer {match.dealer}"]
    for name in ("previous_winner", "previous_loser", "sitting_out"):
        value = getattr(match, name)
        if value is not None:
            parts.append(f"{name} {value}")
    if match.trump_suits:
        parts.append("trump_suits " + " ".join(suit.letter for suit in match.trump_suits))
    return ", ".join(parts)


def _score(score: float) -> str:
    return str(int(score)) if score == int(score) else str(score)


def _cards_text(cards: tuple[Card, ...]) -> str:
    return " ".join(str(card) for card in cards)


def _event_text(event: Event) -> str:
    if isinstance(event, Draw):
        return f"draw {_cards_text(event.cards)}"
    if isinstance(event, Tribute):
        text = "tribute " + ("unseen" if event.card is None else str(event.card))
        return text if event.inspected is None else f"{text} inspected {_cards_text(event.inspected)}"
    if isinstance(event, AllTrumps):
        return f"{event.seat}: all trumps {_cards_text(event.shown)}"
    text = f"{event.seat}: {event.move.notation}"
    if event.move.action is Action.REDEAL:
        text += f" shows {_cards_text(event.shown)}"
        if event.sets is not None:
            text += f" sets {_cards_text(event.sets[0])} / {_cards_text(event.sets[1])}"
    return text


def _bouts(record: Record) -> list[tuple[int, list[Event]]]:
    """The events in lines: 0 for what comes before the first lead (the setup), then one for each
    bout, which begins with its lead (found by replaying the record)."""
    leads: set[int] = set()

    def watch(index: int, event: Play, before: Game, _after: Game) -> None:
        if before.phase is Phase.PLAY and not before.table and event.move.action is Action.ATTACK:
            leads.add(index)

    record.replay(watch)
    lines: list[tuple[int, list[Event]]] = []
    for index, event in enumerate(record.events):
        if index in leads:
            lines.append((lines[-1][0] + 1 if lines else 1, []))
        elif not lines:
            lines.append((0, []))
        lines[-1][1].append(event)
    return lines


# -- reading ---------------------------------------------------------------------------


def parse_record(data: Any) -> Record:
    """A record from its JSON (an object, docs/api.md §2.3), its text (a string) or a `Record`
    itself: what every entry point that reads a record takes."""
    if isinstance(data, Record):
        return data
    if isinstance(data, str):
        return record_from_text(data)
    return Record.from_json(data)


def record_from_text(text: str) -> Record:
    """Read a text of docs/notation.md into a record; a malformed text is refused with its line
    number and the reason (`NotationError`), as is an event no record could hold."""
    if not isinstance(text, str):
        raise RecordError(f"a record's text must be text, not {type(text).__name__}")
    headers: dict[str, tuple[str, int]] = {}
    events: list[dict[str, Any]] = []
    event_lines: list[int] = []  # the line of each event
    expected: int | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        header = _HEADER.match(line)
        if header is not None:
            name, value = header.groups()
            if events or expected is not None:
                raise NotationError(f"the header {name} comes after the moves: headers come first", number)
            if name not in HEADERS:
                raise NotationError(f"unknown header {name!r} (known: {', '.join(HEADERS)})", number)
            if name in headers:
                raise NotationError(f"the header {name} is given twice (first on line {headers[name][1]})",
                                    number)
            headers[name] = (value.strip(), number)
            continue
        if line.startswith("["):
            raise NotationError('a header is [Name "value"], on one line', number)
        bout = _LINE.match(line)
        if bout is None:
            raise NotationError("a line of moves begins with its bout's number and a dot (`1. 0: attack 7c`)",
                                number)
        label = int(bout.group(1))
        if expected is None:
            if label not in (0, 1):
                raise NotationError(
                    f"the moves begin with 0. (the setup) or 1. (the first bout), not {label}.", number
                )
        elif label != expected:
            raise NotationError(f"bout {expected} comes next, not {label}", number)
        expected = label + 1
        for part in (bout.group(2) or "").split(";"):
            if part.strip():
                events.append(_read_event(part.strip(), number))
                event_lines.append(number)
    data = _record_json(headers, events)
    try:
        record = Record.from_json(data)
    except RecordError as error:
        if error.index is not None and error.index < len(event_lines):
            message = error.message.split(": ", 1)[1] if ": " in error.message else error.message
            raise NotationError(message, event_lines[error.index], error.code) from None
        at = _header_line(headers, error.message)
        if at is not None:
            raise NotationError(error.message, at, error.code) from None
        raise
    return record


def _header_line(headers: dict[str, tuple[str, int]], message: str) -> int | None:
    """The line of the header a refusal of the record's fields is about, if one is."""
    for name, header in HEADERS.items():
        if message.startswith(f"{header.field}:") and name in headers:
            return headers[name][1]
    return None


def _record_json(headers: dict[str, tuple[str, int]], events: list[dict[str, Any]]) -> dict[str, Any]:
    """The record's JSON (docs/api.md §2.3) from its headers and events; a missing header is
    refused at the line after the headers."""
    after = max((line for _value, line in headers.values()), default=0) + 1

    def read(name: str, parse: Callable[[str], Any]) -> Any:
        if name not in headers:
            return None
        value, line = headers[name]
        try:
            return parse(value)
        except NotationError:
            raise
        except (TanError, ValueError) as error:
            code = error.code if isinstance(error, TanError) else None
            raise NotationError(f"{name}: {error}", line, code) from None

    players = read("Players", _number)
    seat = read("Seat", _number)
    match = read("Match", _match_json)
    data: dict[str, Any] = {
        "rules": read("Rules", _rules_json),
        "players": players,
        "seat": seat,
        "first_attacker": read("FirstAttacker", _number),
        "events": events,
    }
    optional = {
        "seats": read("Seats", lambda value: [name.strip() for name in value.split(",")]),
        "date": read("Date", str),
        "match": match,
        "tribute": read("Tribute", _tribute_json),
        "deck": read("Deck", _cards_json),
        "result": read("Result", lambda value: [_number(score, float) for score in value.split("-")]),
    }
    data.update((name, value) for name, value in optional.items() if value is not None)
    for name in ("Rules", "Players", "Seat", "FirstAttacker"):
        if name not in headers:
            raise NotationError(f"the header {name} is missing", after)
    if "Deck" not in headers and not {"Hand", "Trump"} <= set(headers):
        raise NotationError("give the Hand and Trump headers, or the Deck", after)
    if "Deck" in headers:
        if "Hand" in headers or "Trump" in headers:
            raise NotationError("with the Deck, the Hand and Trump follow from it: give one or the other",
                                headers.get("Hand", headers.get("Trump", ("", 1)))[1])
        data["hand"], data["trump"] = _dealt(data, headers["Deck"][1])
    else:
        data["hand"] = read("Hand", _cards_json)
        data["trump"] = read("Trump", lambda value: str(Card.parse(value)))
    return data


def _dealt(data: dict[str, Any], line: int) -> tuple[list[str], str]:
    """The seat's hand and the trump card the deck deals (docs/rules.md §1.2)."""
    try:
        rules = Rules.from_json(data["rules"])
        cards = parse_cards(data["deck"])
    except TanError as error:
        raise NotationError(f"Deck: {error.message}", line, error.code) from None
    players, seat = data["players"], data["seat"]
    out = data.get("match", {}).get("sitting_out") if isinstance(data.get("match"), dict) else None
    seats = [other for other in range(players) if other != out] if isinstance(players, int) else []
    dealt = len(seats) * rules.hand_size
    if not seats or len(cards) != rules.deck:
        raise NotationError(f"Deck: the {rules.deck} cards of the deck, top first", line,
                            ErrorCode.COUNT_MISMATCH)
    hand = [str(cards[i]) for i in range(dealt) if seats[i % len(seats)] == seat]
    return hand, str(cards[dealt] if dealt < len(cards) else cards[-1])


def _number(text: str, kind: type = int) -> Any:
    try:
        value = kind(text.strip())
    except ValueError:
        raise ValueError(f"{text.strip()!r} is not a number") from None
    return int(value) if kind is float and value == int(value) else value


def _rules_json(value: str) -> Any:
    parts = [part.strip() for part in value.split(",")]
    if len(parts) == 1:
        return parts[0]
    rules: dict[str, Any] = {"preset": parts[0]}
    for part in parts[1:]:
        name, _, text = part.partition(" ")
        if not name or not text.strip():
            raise ValueError(f"{part!r}: an option is `name value`, as `transfer true`")
        try:
            rules[name] = json.loads(text.strip())
        except json.JSONDecodeError:
            rules[name] = text.strip()  # a word, such as refill_order's attacker_others_defender
    return rules


def _match_json(value: str) -> dict[str, Any]:
    names = ("game", "dealer", "previous_winner", "previous_loser", "trump_suits", "sitting_out")
    match: dict[str, Any] = {}
    for part in (part.strip() for part in value.split(",")):
        name, _, text = part.partition(" ")
        if name not in names or name in match:
            raise ValueError(f"{part!r}: expected each of {', '.join(names)} at most once, as `game 2`")
        match[name] = text.split() if name == "trump_suits" else _number(text)
    return match


def _tribute_json(value: str) -> list[int]:
    words = value.split()
    if len(words) != 3 or words[1] != "to":
        raise ValueError(f"{value!r}: the tribute owed is `giver to receiver`, as `1 to 0`")
    return [_number(words[0]), _number(words[2])]


def _cards_json(value: str) -> list[str]:
    return [str(card) for card in parse_cards(value.split())]


def _read_event(text: str, line: int) -> dict[str, Any]:
    """One event's JSON (docs/api.md §2.3) from its text."""
    words = text.split()
    try:
        if words[0] == "draw":
            return {"draw": _cards_json(" ".join(words[1:]))}
        if words[0] == "tribute":
            return _tribute_event(words[1:], line)
        play = _PLAY.match(text)
        if play is None:
            raise NotationError(f"{text!r}: an event is `seat: move`, `draw cards` or `tribute card`", line)
        seat, rest = int(play.group(1)), play.group(2).strip()
        if rest.startswith("all trumps"):
            return {"all_trumps": seat, "shown": _cards_json(rest[len("all trumps"):])}
        if rest.split()[0] == Action.REDEAL.value:
            return {"seat": seat, "move": Action.REDEAL.value, **_redeal(rest, line)}
        return {"seat": seat, "move": Move.from_text(rest).to_json()}
    except (CardError, MoveError) as error:
        raise NotationError(f"{text!r}: {error.message}", line, error.code) from None


def _tribute_event(words: list[str], line: int) -> dict[str, Any]:
    if not words or (len(words) > 1 and words[1] != "inspected"):
        raise NotationError("a tribute is `tribute card` (or `tribute unseen`), then `inspected cards`", line)
    event: dict[str, Any] = {"tribute": None if words[0] == "unseen" else str(Card.parse(words[0]))}
    if len(words) > 1:
        event["inspected"] = _cards_json(" ".join(words[2:]))
    return event


def _redeal(rest: str, line: int) -> dict[str, Any]:
    """`redeal shows cards [sets cards / cards]`."""
    words = rest.split()
    if len(words) < 2 or words[1] != "shows":
        raise NotationError("a redeal shows the hand it sets aside: `redeal shows 7s 8h …`", line)
    shown, _, sets = " ".join(words[2:]).partition(" sets ")
    if shown.startswith("sets ") or not shown.strip():
        raise NotationError("a redeal shows the hand it sets aside: `redeal shows 7s 8h …`", line)
    event: dict[str, Any] = {"shown": _cards_json(shown)}
    if sets:
        first, slash, second = sets.partition("/")
        if not slash:
            raise NotationError("the two hands offered are `sets cards / cards`", line)
        event["sets"] = [_cards_json(first), _cards_json(second)]
    return event
