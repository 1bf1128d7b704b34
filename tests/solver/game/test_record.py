"""Game records (docs/api.md §2.3): a seat's record replays to the position it saw, and the first
event that cannot have happened is refused with its index and code."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from solver.game.errors import ErrorCode, TanError
from solver.game.moves import Move
from solver.game.position import Position
from solver.game.record import Record, RecordError
from solver.game.reference import Game, random_deck
from solver.game.rules import Rules

CASES = [
    ("tan", {}, 2), ("durak", {}, 3), ("perevodnoy", {}, 2), ("tan", {"trump_swap": True}, 2),
    ("tan", {"take_when_beaten": True, "twos_last": True, "trump_swap": True}, 3),
    ("durak", {"trump_ace_last_loses": True, "transfer": True}, 4),
]  # fmt: skip


def played(rules: Rules, players: int, seed: int, plies: int) -> tuple[Game, list[Any], dict[int, list[Any]]]:
    """A random game: the game, its deck, and per seat its draws as (ply, cards)."""
    deck = random_deck(rules, seed)
    game = Game.deal(rules, players, deck=deck)
    rng = random.Random(seed)
    history: list[tuple[int, Move]] = []
    draws: dict[int, list[Any]] = {seat: [] for seat in range(players)}
    for ply in range(plies):
        if game.over:
            break
        seat = game.to_move
        assert seat is not None
        move = rng.choice(game.legal_moves())
        game.play(move, seat)
        history.append((seat, move))
        for other in range(players):
            if game.drawn[other]:
                draws[other].append((ply, list(game.drawn[other])))
    return game, [deck, history], draws


@pytest.mark.parametrize(("preset", "options", "players"), CASES)
def test_a_seat_record_replays_to_the_position_it_saw(
    preset: str, options: dict[str, Any], players: int
) -> None:
    rules = Rules.preset_named(preset, **options)
    for seed in range(6):
        game, (deck, history), draws = played(rules, players, seed, plies=30 + 25 * seed)
        first = Game.deal(rules, players, deck=deck)
        for seat in range(players):
            record = Record.of_game(first, seat, deck, history, draws[seat])
            assert Record.from_json(record.to_json()) == record
            assert record.position().to_json() == Position.from_game(game, seat).to_json()


def record_of(rules: Rules, seed: int = 1, plies: int = 12, seat: int = 0) -> dict[str, Any]:
    _game, (deck, history), draws = played(rules, 2, seed, plies)
    return Record.of_game(Game.deal(rules, 2, deck=deck), seat, deck, history, draws[seat]).to_json()


def refused(data: dict[str, Any]) -> RecordError:
    with pytest.raises(RecordError) as caught:
        Record.from_json(data).replay()
    return caught.value


def test_a_card_the_seat_holds_cannot_be_played_by_another() -> None:
    data = record_of(Rules.preset_named("durak"), seed=3, plies=20)
    mine = set(data["hand"])
    for index, event in enumerate(data["events"]):
        move = event.get("move")
        if move and event["seat"] == 1 and move.get("card") and move["action"] == "attack":
            changed = {
                **move,
                "card": sorted(mine - {c for e in data["events"][:index] for c in e.get("draw", [])})[0],
            }
            data["events"][index] = {"seat": 1, "move": changed}
            error = refused(data)
            assert error.index == index and error.code in (ErrorCode.ILLEGAL_MOVE, ErrorCode.INVALID_RECORD)
            return
    raise AssertionError("seat 1 never attacked with a card")


def test_out_of_turn_and_after_the_end() -> None:
    data = record_of(Rules.preset_named("tan"), seed=2, plies=4)
    first = data["events"][0]
    data["events"].insert(0, {"seat": 1 - first["seat"], "move": "take"})
    error = refused(data)
    assert error.index == 0 and error.code is ErrorCode.NOT_YOUR_TURN


def test_the_seats_own_draws_must_be_shown_and_agree() -> None:
    data = record_of(Rules.preset_named("durak"), seed=5, plies=30)
    draw = next(i for i, event in enumerate(data["events"]) if "draw" in event)
    short = {**data, "events": data["events"][:draw] + data["events"][draw + 1 :]}
    error = refused(short)
    assert error.index == draw and error.code is ErrorCode.COUNT_MISMATCH
    wrong = {**data, "events": [*data["events"]]}
    wrong["events"][draw] = {"draw": data["events"][draw]["draw"][1:]}
    assert refused(wrong).index == draw


def test_malformed_records_name_the_field() -> None:
    data = record_of(Rules.preset_named("tan"))
    for change, code in (
        ({"seat": 5}, ErrorCode.INVALID_SEAT),
        ({"hand": ["Zz"]}, ErrorCode.INVALID_CARD),
        ({"events": [{"seat": 0}]}, ErrorCode.INVALID_RECORD),
        ({"events": [{"seat": 0, "move": "fly"}]}, ErrorCode.INVALID_MOVE),
        ({"rules": {"preset": "tan", "nonsense": True}}, ErrorCode.UNKNOWN_RULES),
        # docs/api.md §2.3: a record the format cannot carry yet, not rules that do not exist.
        ({"rules": {"preset": "tan", "redeal_without_trump": True}}, ErrorCode.INVALID_RECORD),
        ({"rules": {"preset": "tan", "tribute": True}}, ErrorCode.INVALID_RECORD),
        # A seat count the rules do not allow, as in a position (docs/api.md §2.2).
        *(({"players": players}, ErrorCode.BAD_PLAYERS) for players in (0, -1, 7, 10**40)),
        ({"players": "two"}, ErrorCode.INVALID_RECORD),
    ):
        with pytest.raises(TanError) as caught:
            Record.from_json({**data, **change}).replay()
        assert caught.value.code is code, change


def test_the_documented_record_replays() -> None:
    """The example in docs/api.md §2.3 is a record the replay accepts, and it ends where it says."""
    text = (Path(__file__).parents[3] / "docs" / "api.md").read_text()
    example = text.split("## 2.3")[1].split("```json")[1].split("```")[0]
    position = Record.from_json(json.loads(example)).position()
    assert "8h" in [str(card) for card in position.hand]
    assert [str(card) for card in position.discard] == ["7d", "Jd"]
    assert position.to_move == 0


def test_watch_sees_every_move_as_it_was_chosen() -> None:
    """`replay(watch)` shows each move with the world before it (the mover to move, the move legal
    there) and after it; the record's own seat sees its real hand before each of its moves."""
    rules = Rules.preset_named("durak")
    _game, (deck, history), draws = played(rules, 2, 5, plies=60)
    record = Record.of_game(Game.deal(rules, 2, deck=deck), 0, deck, history, draws[0])
    real = Game.deal(rules, 2, deck=deck)
    seen: list[int] = []

    def watch(index: int, event: Any, before: Game, after: Game) -> None:
        seat, move = history[len(seen)]
        assert (event.seat, event.move) == (seat, move) and before.to_move == seat
        assert move in before.legal_moves() and after.plies == before.plies + 1
        if seat == 0:
            assert before.hands[0] == real.hands[0]
        real.play(move, seat)
        seen.append(index)

    record.replay(watch)
    assert len(seen) == len(history)
