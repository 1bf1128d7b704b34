"""Following a game at a table (solver.game.follow): after every entry of a real game, the seat's
view is the one the game gives it, the move really played is among those offered, its own moves
are exactly its legal ones, and its draws are asked for when they happen — from a record, and
from a position followed by events (the analysis board)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from solver.game.cards import Card
from solver.game.errors import ErrorCode
from solver.game.follow import after_position, after_record
from solver.game.moves import Move
from solver.game.position import Position
from solver.game.record import Record, RecordError
from solver.game.reference import Game, random_deck
from solver.game.rules import Rules

CASES = [("tan", 2), ("durak", 2), ("durak", 3), ("perevodnoy", 2), ("perevodnoy", 4)]


def _record(dealt: Game, seat: int, events: list[dict[str, Any]]) -> Record:
    """The record `seat` keeps of the game dealt as `dealt`, after `events`."""
    return Record.from_json({
        "rules": dealt.rules.to_json(), "players": dealt.players, "seat": seat,
        "hand": [str(card) for card in sorted(dealt.hands[seat])], "trump": str(dealt.trump),
        "first_attacker": dealt.to_move, "events": events,
    })


@pytest.mark.parametrize(("preset", "players"), CASES)
@pytest.mark.parametrize("seed", [1, 2])
def test_every_entry_of_a_real_game_is_offered_and_its_draws_asked_for(
    preset: str, players: int, seed: int
) -> None:
    rules = Rules.preset_named(preset)
    game = Game.deal(rules, players, deck=random_deck(rules, seed))
    seat = seed % players
    dealt = game.clone()
    events: list[dict[str, Any]] = []
    rng = random.Random(seed)
    drew = 0
    while True:
        entries = after_record(_record(dealt, seat, events))
        if game.over:
            assert entries.to_move is None and entries.moves == () and entries.draw == 0
            assert entries.position == Position.from_game(game, seat).to_json()
            assert entries.scores is not None and list(entries.scores) == game.scores
            break
        assert entries.draw == 0 and entries.scores is None
        assert entries.position == Position.from_game(game, seat).to_json()
        mover = game.to_move
        assert entries.to_move == mover
        legal = game.legal_moves()
        if mover == seat:
            assert list(entries.moves) == legal
        else:
            assert set(legal) <= set(entries.moves)
            assert all(move.card is None or move.card not in game.hands[seat] for move in entries.moves)
        move = rng.choice(legal)
        game.play(move, mover)
        events.append({"seat": mover, "move": str(move)})
        if game.drawn[seat]:
            drawn = list(game.drawn[seat])
            owing = after_record(_record(dealt, seat, events))
            assert owing.draw == len(drawn) and owing.to_move is None and owing.moves == ()
            assert owing.draw_with == ((game.trump,) if game.trump in drawn else ())
            assert set(drawn) <= set(owing.draw_from)
            assert not {str(card) for card in owing.draw_from} & set(owing.position["hand"])
            assert owing.position["stock"] == len(game.stock) + len(drawn)
            assert len(owing.position["hand"]) == len(game.hands[seat]) - len(drawn)
            events.append({"draw": [str(card) for card in drawn]})
            drew += 1
    assert drew  # the seat drew in every one of these games, and each draw was asked for


def test_another_seats_moves_are_every_card_it_might_hold() -> None:
    rules = Rules.preset_named("durak")
    game = Game.deal(rules, 2, deck=random_deck(rules, 5), first_attacker=1)
    entries = after_record(_record(game, 0, []))
    unseen = [card for card in Position.from_game(game, 0).unseen_cards() if card != game.trump]
    assert entries.to_move == 1
    assert sorted(entries.moves) == sorted(Move.attack(card) for card in unseen)


def test_a_card_the_seat_holds_cannot_be_entered_for_another_seat() -> None:
    rules = Rules.preset_named("durak")
    game = Game.deal(rules, 2, deck=random_deck(rules, 5), first_attacker=1)
    mine = sorted(game.hands[0])[0]
    with pytest.raises(RecordError) as refused:
        after_record(_record(game, 0, [{"seat": 1, "move": f"attack {mine}"}]))
    assert refused.value.index == 0 and refused.value.code is ErrorCode.ILLEGAL_MOVE


def test_a_position_followed_by_events_is_what_the_game_shows() -> None:
    rules = Rules.preset_named("durak")
    game = Game.deal(rules, 2, deck=random_deck(rules, 8), first_attacker=0)
    rng = random.Random(8)
    for _ in range(6):
        game.play(rng.choice(game.legal_moves()), game.to_move)
    start = Position.from_game(game, 0)
    events: list[dict[str, Any]] = []
    while not game.over and len(events) < 40:
        entries = after_position(start, events)
        assert entries.position == Position.from_game(game, 0).to_json()
        assert set(game.legal_moves()) <= set(entries.moves)
        mover = game.to_move
        move = rng.choice(game.legal_moves())
        game.play(move, mover)
        events.append({"seat": mover, "move": move.to_json()})
        if game.drawn[0]:
            assert after_position(start, events).draw == len(game.drawn[0])
            events.append({"draw": [str(card) for card in game.drawn[0]]})


def test_a_wrong_draw_is_refused_with_its_index() -> None:
    rules = Rules.preset_named("durak")
    game = Game.deal(rules, 2, deck=random_deck(rules, 8), first_attacker=0)
    start = Position.from_game(game, 0)
    mine = sorted(game.hands[0])
    events: list[dict[str, Any]] = [
        {"seat": 0, "move": f"attack {mine[0]}"}, {"seat": 1, "move": "take"}, {"seat": 0, "move": "pass"},
    ]
    entries = after_position(start, events)
    assert entries.draw == 1 and entries.draw_with == ()
    with pytest.raises(RecordError) as refused:
        after_position(start, [*events, {"draw": [str(mine[1])]}])  # a card the seat already holds
    assert refused.value.index == 3
    with pytest.raises(RecordError) as refused:
        after_position(start, [*events, {"draw": [str(Card.parse(str(game.trump)))]}])  # the trump, not last
    assert refused.value.index == 3
