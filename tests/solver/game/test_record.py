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
from tests.support.games import VARIANTS
from tests.support.records import arena_game, match_games
from tests.support.sweeps import sampled

CASES = [
    ("tan", {}, 2), ("durak", {}, 3), ("perevodnoy", {}, 2), ("tan", {"trump_swap": True}, 2),
    ("tan", {"take_when_beaten": True, "twos_last": True, "trump_swap": True}, 3),
    ("durak", {"trump_ace_last_loses": True, "transfer": True}, 4),
]  # fmt: skip


def played(rules: Rules, players: int, seed: int, plies: int) -> tuple[Game, list[Any]]:
    """A random game: the game, and its deck and history."""
    deck = random_deck(rules, seed)
    game = Game.deal(rules, players, deck=deck)
    rng = random.Random(seed)
    history: list[tuple[int, Move]] = []
    for _ply in range(plies):
        if game.over:
            break
        seat = game.to_move
        assert seat is not None
        move = rng.choice(game.legal_moves())
        game.play(move, seat)
        history.append((seat, move))
    return game, [deck, history]


@pytest.mark.parametrize(("preset", "options", "players"), CASES)
def test_a_seat_record_replays_to_the_position_it_saw(
    preset: str, options: dict[str, Any], players: int
) -> None:
    rules = Rules.preset_named(preset, **options)
    for seed in range(6):
        game, (deck, history) = played(rules, players, seed, plies=30 + 25 * seed)
        first = Game.deal(rules, players, deck=deck)
        for seat in range(players):
            record = Record.of_game(first, seat, deck, history)
            assert Record.from_json(record.to_json()) == record
            assert record.position().to_json() == Position.from_game(game, seat).to_json()


def record_of(rules: Rules, seed: int = 1, plies: int = 12, seat: int = 0) -> dict[str, Any]:
    _game, (deck, history) = played(rules, 2, seed, plies)
    return Record.of_game(Game.deal(rules, 2, deck=deck), seat, deck, history).to_json()


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
    _game, (deck, history) = played(rules, 2, 5, plies=60)
    record = Record.of_game(Game.deal(rules, 2, deck=deck), 0, deck, history)
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


# -- side rules and matches (docs/rules.md §1.7-§1.9) -------------------------------------------

SIDE_RULES = {"redeal_without_trump": True, "tribute": True, "all_trumps_wins": True, "trump_swap": True}
REPLAYED = [
    *((preset, options, players) for preset, options in VARIANTS
      for players in range(Rules.preset_named(preset, **options).min_players,
                           Rules.preset_named(preset, **options).max_players + 1)),
    ("tan", {"trump_repeat_limit": 2, "tribute": True}, 2),
    ("durak", {"trump_repeat_limit": 2, "tribute": True, "redeal_without_trump": True}, 4),
]


@pytest.mark.parametrize(("preset", "options", "players"), sampled(REPLAYED, 6, "record-replays"))
def test_every_seat_of_arena_games_and_matches_replays_to_what_it_saw(
    preset: str, options: dict[str, Any], players: int
) -> None:
    """Every side rule and every game of a match: each seat's record replays to the position that
    seat saw at the game's end, its match block included, and reads back from its JSON."""
    rules = Rules.preset_named(preset, **options)
    for seed in range(3):
        for played in [arena_game(rules, players, seed), *match_games(rules, players, seed, 3)]:
            for seat in range(players):
                record = played.record(seat)
                assert Record.from_json(record.to_json()) == record
                assert record.position().to_json() == played.seen(seat).to_json()


def side_record(want: Any, seat: int = 0, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """The JSON of the first record (seeds in order) of a 2-seat `tan` match game under the side
    rules whose events `want(events)` picks."""
    rules = Rules.preset_named("tan", **(options or SIDE_RULES))
    for seed in range(200):
        for played in match_games(rules, 2, seed, 3):
            data = played.record(seat).to_json()
            if want(data["events"]):
                return data
    raise AssertionError("no such record in 200 seeds")


def first(events: list[dict[str, Any]], test: Any) -> int:
    return next(index for index, event in enumerate(events) if test(event))


def redeal_by(seat: int) -> Any:
    return lambda event: event.get("seat") == seat and event.get("move", {}).get("action") == "redeal"


def test_another_seats_redeal_must_show_what_the_seat_could_not_see() -> None:
    data = side_record(lambda events: any(map(redeal_by(1), events)))
    index = first(data["events"], redeal_by(1))
    suit = data["trump"][-1]
    plain = next(card for card in data["hand"] if card[-1] != suit)
    mine = {**data, "events": [dict(event) for event in data["events"]]}
    mine["events"][index]["shown"] = [plain, *data["events"][index]["shown"][1:]]
    error = refused(mine)
    assert error.index == index and error.code is ErrorCode.DUPLICATE_CARD
    seen = set(data["hand"]) | {data["trump"]}
    a_trump = next(card for card in (f"{rank}{suit}" for rank in "AKQJT98765432") if card not in seen)
    trump = {**data, "events": [dict(event) for event in data["events"]]}
    trump["events"][index]["shown"] = [a_trump, *data["events"][index]["shown"][1:]]
    error = refused(trump)
    assert error.index == index and error.code is ErrorCode.ILLEGAL_MOVE


def test_the_seats_own_redeal_shows_its_hand_and_the_hands_offered() -> None:
    data = side_record(lambda events: any(map(redeal_by(0), events)))
    index = first(data["events"], redeal_by(0))
    assert Record.from_json(data).replay()
    no_sets = {**data, "events": [dict(event) for event in data["events"]]}
    del no_sets["events"][index]["sets"]
    assert refused(no_sets).index == index
    mine = {**data, "events": [dict(event) for event in data["events"]]}
    sets = mine["events"][index]["sets"]
    mine["events"][index]["sets"] = [[data["hand"][0], *sets[0][1:]], sets[1]]
    error = refused(mine)
    assert error.index == index and error.code is ErrorCode.DUPLICATE_CARD


def test_a_tribute_must_be_the_givers_highest_trump_and_be_shown() -> None:
    is_tribute = lambda event: "tribute" in event  # noqa: E731
    def tribute_then_draw(events: list[dict[str, Any]]) -> bool:
        return any(map(is_tribute, events)) and "draw" in events[first(events, is_tribute) + 1]

    data = side_record(tribute_then_draw, seat=0)
    index = first(data["events"], is_tribute)
    given = data["events"][index]["tribute"]
    wrong = {**data, "events": [dict(event) for event in data["events"]]}
    other = next(card for card in data["hand"] if card != given)
    wrong["events"][index]["tribute"] = other
    error = refused(wrong)
    assert error.index == index and error.code is ErrorCode.ILLEGAL_MOVE
    hidden = {**data, "events": data["events"][:index] + data["events"][index + 1:]}
    assert refused(hidden).index == index  # the draw that follows the tribute now comes unexplained


def test_the_receiver_inspects_the_givers_hand_as_it_was() -> None:
    data = side_record(lambda events: any("inspected" in event for event in events), seat=0)
    index = first(data["events"], lambda event: "inspected" in event)
    assert Record.from_json(data).replay()
    wrong = {**data, "events": [dict(event) for event in data["events"]]}
    wrong["events"][index]["inspected"] = [data["hand"][0], *data["events"][index]["inspected"][1:]]
    error = refused(wrong)
    assert error.index == index and error.code is ErrorCode.DUPLICATE_CARD
    missing = {**data, "events": [dict(event) for event in data["events"]]}
    del missing["events"][index]["inspected"]
    assert refused(missing).index == index


def test_a_swap_needs_the_low_trump_the_seat_cannot_see() -> None:
    swap = lambda event: event.get("seat") == 1 and event.get("move", {}).get("action") == "swap"  # noqa: E731
    data = side_record(lambda events: any(map(swap, events)), options={"trump_swap": True})
    index = first(data["events"], swap)
    assert Record.from_json(data).replay()
    low = f"2{data['trump'][-1]}"
    mine = {**data, "hand": [low, *(card for card in data["hand"] if card != low)][:8]}
    if low not in data["hand"]:
        mine["hand"] = [low, *data["hand"][1:]]
    error = refused(mine)
    assert error.index is not None and error.index <= index
