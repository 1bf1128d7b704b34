"""Games as text (docs/notation.md): every record round-trips through its text, and a malformed text
is refused with its line number and the reason."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from solver.game.errors import ErrorCode
from solver.game.notation import HEADERS, NotationError, record_from_text, record_to_text
from solver.game.record import Record
from solver.game.rules import Rules
from tests.support.games import VARIANTS
from tests.support.records import arena_game, endgame_record, match_games
from tests.support.sweeps import sampled

NOTATION = Path(__file__).parents[3] / "docs" / "notation.md"
CASES = [
    *((preset, options, players) for preset, options in VARIANTS
      for players in range(Rules.preset_named(preset, **options).min_players,
                           Rules.preset_named(preset, **options).max_players + 1)),
    ("tan", {"trump_repeat_limit": 2, "tribute": True}, 3),
]


@pytest.mark.parametrize(("preset", "options", "players"), sampled(CASES, 3, "notation-round-trip"))
def test_every_arena_game_and_match_round_trips_through_its_text(
    preset: str, options: dict[str, Any], players: int
) -> None:
    """text → record → text and JSON → text → JSON, for every seat of arena games and of every game
    of random matches (a seeded sample of every preset and side rule), with and without the deck."""
    rules = Rules.preset_named(preset, **options)
    for seed in range(2):
        for played in [arena_game(rules, players, seed), *match_games(rules, players, seed, 3)]:
            for seat in range(players):
                extra = {"deck_known": seed == 1, "seats": ["greedy", *["random"] * (players - 1)],
                         "date": "2026-12-02"}
                record = played.record(seat, **extra)
                text = record_to_text(record)
                assert record_from_text(text) == record
                assert record_to_text(record_from_text(text)) == text
                data = json.loads(json.dumps(record.to_json()))
                assert record_from_text(record_to_text(Record.from_json(data))).to_json() == data


def test_the_text_numbers_the_bouts_and_reads_loose_spellings() -> None:
    text = record_to_text(endgame_record())
    lines = text.splitlines()
    assert lines[:3] == ['[Rules "durak"]', '[Players "2"]', '[Seat "0"]']
    bouts = [line for line in lines if line[:1].isdigit()]
    assert [line.split(".")[0] for line in bouts] == [str(n) for n in range(1, len(bouts) + 1)]
    assert bouts[0].startswith("1. 0: attack 6s; 1: defend 6s with 7s;")
    loose = text.replace("attack 6s", "ATTACK 6♠").replace("with 7s", "with 7S").replace("Tc", "10c")
    assert record_from_text(loose) == endgame_record()


BASE = record_to_text(endgame_record())


@pytest.mark.parametrize(
    ("change", "line", "reason"),
    [
        (lambda text: text.replace('[Players "2"]', '[Players "two"]'), 2, "'two' is not a number"),
        (lambda text: text.replace('[Seat "0"]', '[Seat 0]'), 3, 'a header is [Name "value"]'),
        (lambda text: text.replace('[Seat "0"]', '[Chair "0"]'), 3, "unknown header 'Chair'"),
        (lambda text: text.replace('[Seat "0"]\n', ""), 6, "the header Seat is missing"),
        (lambda text: text.replace('[Hand "', '[Hand "Zz '), 4, "not a card: 'Zz'"),
        (lambda text: text.replace("1. 0: attack 6s", "1. 0: fly 6s"), 8, "unknown action 'fly'"),
        (lambda text: text.replace("1. 0: attack 6s", "1. 9: attack 6s"), 8, "no seat 9"),
        (lambda text: text.replace("1. 0: attack 6s", "1. attack 6s"), 8, "an event is `seat: move`"),
        (lambda text: text.replace("\n2. ", "\n3. "), 9, "bout 2 comes next, not 3"),
        (lambda text: text.replace("\n2. ", "\nbout two "), 9, "begins with its bout's number"),
        (lambda text: text + '[Date "2026-12-02"]\n', 13, "comes after the moves"),
        (lambda text: text.replace('[Trump "6h"]', '[Trump "6h"]\n[Hand "6s"]'), 6, "given twice"),
        (lambda text: text.replace('[Seat "0"]', '[Seat "0"]\n[Date "yesterday"]'), 4, "YYYY-MM-DD"),
        (lambda text: text.replace('[Seat "0"]', '[Seat "0"]\n[Tribute "1 gives 0"]'), 4,
         "giver to receiver"),
    ],
)
def test_a_malformed_text_is_refused_with_its_line_and_reason(change: Any, line: int, reason: str) -> None:
    with pytest.raises(NotationError) as caught:
        record_from_text(change(BASE))
    assert caught.value.line == line and reason in caught.value.message, caught.value.message
    assert caught.value.message.startswith(f"line {line}: ")


def test_a_bad_card_keeps_its_code() -> None:
    with pytest.raises(NotationError) as caught:
        record_from_text(BASE.replace('[Hand "', '[Hand "Zz '))
    assert caught.value.code is ErrorCode.INVALID_CARD


def test_the_documented_text_reads_and_replays_and_every_header_is_documented() -> None:
    """docs/notation.md: its example is a record the replay accepts, written back as it is, and
    every header the library reads has its line in the table."""
    doc = NOTATION.read_text()
    example = doc.split("```text")[1].split("```")[0].lstrip("\n")
    record = record_from_text(example)
    assert record.position().to_move is not None
    assert record_to_text(record) == example
    for name in HEADERS:
        assert f"| `{name}` |" in doc, name
