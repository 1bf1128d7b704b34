"""Following a game at a table (solver.game.follow): after every entry of a real game, the seat's
view is the one the game gives it, the move really played is among those offered, its own moves
are exactly its legal ones, and its draws are asked for when they happen — from a record, and
from a position followed by events (the analysis board)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from solver.game.cards import Card, parse_cards
from solver.game.errors import ErrorCode
from solver.game.follow import Naming, NextEntries, after_position, after_record
from solver.game.moves import Action, Move
from solver.game.phases import Phase
from solver.game.position import Position, to_move_seen_by
from solver.game.record import Play, Record, RecordError
from solver.game.reference import Game, random_deck
from solver.game.rules import Rules
from tests.support.games import ordered_deck
from tests.support.records import arena_game, match_games

CASES = [("tan", 2), ("durak", 2), ("durak", 3), ("perevodnoy", 2), ("perevodnoy", 4)]


def _record(dealt: Game, seat: int, events: list[dict[str, Any]]) -> Record:
    """The record `seat` keeps of the game dealt as `dealt`, after `events`."""
    return Record.from_json({
        "rules": dealt.rules.to_json(), "players": dealt.players, "seat": seat,
        "hand": [str(card) for card in sorted(dealt.hands[seat])], "trump": str(dealt.trump),
        "first_attacker": dealt.to_move, "events": events,
    })


@pytest.mark.parametrize(("preset", "players"), CASES)
@pytest.mark.parametrize("seed", [1, pytest.param(2, marks=pytest.mark.long)])
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
            assert entries.to_move is None and entries.moves == () and entries.draw is None
            assert entries.position == Position.from_game(game, seat).to_json()
            assert entries.scores is not None and list(entries.scores) == game.scores
            break
        assert entries.draw is None and entries.scores is None
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
            assert owing.draw is not None and owing.draw.count == len(drawn)
            assert owing.to_move is None and owing.moves == () and owing.movers == ()
            assert owing.draw.surely == ((game.trump,) if game.trump in drawn else ())
            assert set(drawn) <= set(owing.draw.among)
            assert not {str(card) for card in owing.draw.among} & set(owing.position["hand"])
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
            owing = after_position(start, events).draw
            assert owing is not None and owing.count == len(game.drawn[0])
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
    assert entries.draw is not None and entries.draw.count == 1 and entries.draw.surely == ()
    with pytest.raises(RecordError) as refused:
        after_position(start, [*events, {"draw": [str(mine[1])]}])  # a card the seat already holds
    assert refused.value.index == 3
    with pytest.raises(RecordError) as refused:
        after_position(start, [*events, {"draw": [str(Card.parse(str(game.trump)))]}])  # the trump, not last
    assert refused.value.index == 3


def _named(naming: Naming | None, cards: Any) -> bool:
    """`cards` are what `naming` asks for: as many, the sure ones among them, all from its list."""
    named = set(Card.parse(card) for card in cards)
    return (naming is not None and naming.count == len(named) == len(cards) and set(naming.surely) <= named
            and named <= set(naming.among))


def offered(entries: NextEntries, event: dict[str, Any]) -> bool:
    """Whether `event` (its JSON) is among the entries offered."""
    if "draw" in event:
        return _named(entries.draw, event["draw"])
    if "tribute" in event:
        card = None if event["tribute"] is None else Card.parse(event["tribute"])
        inspected = event.get("inspected")
        return any(
            entry.card == card
            and (entry.inspected is None if inspected is None else _named(entry.inspected, inspected))
            for entry in entries.tributes
        )
    if "all_trumps" in event:
        won = event["all_trumps"]
        return any(seat == won and _named(shown, event["shown"]) for seat, shown in entries.all_trumps)
    move = Move.parse(event["move"])
    mover = next((mover for mover in entries.movers if mover.seat == event["seat"]), None)
    if mover is None or move not in mover.moves:
        return False
    if move.action is not Action.REDEAL:
        return True
    sets = event.get("sets")
    return _named(mover.shown, event["shown"]) and all(_named(mover.sets, part) for part in sets or [])


SIDE = [
    ("tan", {"redeal_without_trump": True, "trump_swap": True}, 2),
    ("tan", {"redeal_without_trump": True, "tribute": True, "all_trumps_wins": True, "trump_swap": True,
             "twos_last": True}, 2),
    ("tan", {"redeal_without_trump": True, "tribute": True, "trump_swap": True}, 3),
    ("durak", {"redeal_without_trump": True, "tribute": True, "all_trumps_wins": True, "trump_swap": True},
     2),
    ("perevodnoy", {"redeal_without_trump": True, "trump_swap": True, "all_trumps_wins": True,
                    "tribute": True}, 4),
    ("durak", {"trump_repeat_limit": 2, "tribute": True, "redeal_without_trump": True}, 3),
]  # fmt: skip


@pytest.mark.parametrize(("preset", "options", "players"), SIDE)
def test_every_entry_of_side_rule_games_and_matches_is_offered(
    preset: str, options: dict[str, Any], players: int
) -> None:
    """Under the side rules, in single games and through matches, every seat following the game
    is offered each next event that really came — another seat's redeal with the hand it showed,
    its own redeal with the hands offered, a swap, a tribute with the hand inspected, a win by
    trumps, the first lead after hidden keeps — and, at the end, nothing more."""
    rules = Rules.preset_named(preset, **options)
    shown: set[str] = set()
    for seed in range(3):
        for played in [arena_game(rules, players, seed), *match_games(rules, players, seed, 3)]:
            for seat in range(players):
                record = played.record(seat)
                events = record.to_json()["events"]
                lead = next((i for i, event in enumerate(record.events)
                             if isinstance(event, Play) and not event.move.is_setup), len(events))
                for index, event in enumerate(events[: lead + 4]):  # the setup, the first lead and on
                    # A prefix of the game, as followed while it was played: no result yet.
                    entries = after_record(replace(record, events=record.events[:index], result=None))
                    assert offered(entries, event), (seed, seat, index, event, entries)
                    kind = Move.parse(event["move"]).action.value if "seat" in event else next(iter(event))
                    shown.add(kind)
                end = after_record(record)
                assert end.to_move is None and end.movers == () and end.draw is None and end.tributes == ()
                assert end.position == played.seen(seat).to_json()
    assert "draw" in shown and shown & {"redeal", "swap", "tribute", "all_trumps"}


# Two seats of tan, hearts trump (9h turned up): seat 1 holds eight trumps.
ALL_TRUMPS = [
    ["2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s"], ["2h", "3h", "4h", "5h", "6h", "7h", "8h", "Th"],
]


def test_a_win_by_trumps_is_offered_to_the_others_and_owed_by_the_winner() -> None:
    rules = Rules.preset_named("tan", all_trumps_wins=True)
    deck = parse_cards(ordered_deck(rules, ALL_TRUMPS, "9h"))
    game = Game.deal(rules, 2, deck=deck, first_attacker=0)
    assert game.over and game.winner == 1
    loser, winner = (Record.of_game(game, seat, deck, []) for seat in (0, 1))
    ahead = after_record(replace(loser, events=(), result=None))
    assert offered(ahead, loser.events[0].to_json())
    assert ahead.movers and ahead.movers[0].seat == 0  # or seat 0 leads, if seat 1 held no such hand
    owed = after_record(replace(winner, events=(), result=None))
    assert owed.movers == () and owed.all_trumps == ((1, owed.all_trumps[0][1]),)
    assert set(owed.all_trumps[0][1].surely) == game.hands[1]
    over = after_record(winner)
    assert over.scores == (0.0, 1.0) and over.movers == () and over.all_trumps == ()


def _setup_positions(
    rules: Rules, players: int, seed: int
) -> list[tuple[Position, list[dict[str, Any]], Position]]:
    """From real games under the side rules: each seat's view at every moment of the setup it can
    see (not while another seat decides in secret), the events it saw after it, and its view at the
    game's end."""
    found = []
    for played in [arena_game(rules, players, seed), *match_games(rules, players, seed, 2)]:
        game = played.dealt.clone()
        for ply in range(len(played.history) + 1):
            if game.phase is not Phase.SETUP or game.over:
                break
            for seat in range(players):
                if to_move_seen_by(game, seat) is None:
                    continue
                whole = played.record(seat).to_json()["events"]
                done = Record.of_game(played.dealt, seat, played.deck, played.history[:ply],
                                      match=played.info, tribute=played.owed)
                found.append((Position.from_game(game, seat, match=played.info), whole[len(done.events):],
                              played.seen(seat)))
            if ply < len(played.history):
                game.play(played.history[ply][1], played.history[ply][0])
    return found


@pytest.mark.parametrize(("preset", "options", "players"), SIDE[:4])
def test_a_position_in_the_setup_follows_the_side_rules_events(
    preset: str, options: dict[str, Any], players: int
) -> None:
    """The analysis board's replay (a position followed by events) is the records' replay: from any
    moment of a real game's setup a seat can see, what the seat saw after it — redeals, picks,
    swaps, a tribute, draws — is offered entry by entry and accepted, to the view it had at the end."""
    rules = Rules.preset_named(preset, **options)
    starts = [start for seed in range(2) for start in _setup_positions(rules, players, seed)]
    assert starts
    for start, events, end in starts:
        for index, event in enumerate(events[:12]):
            assert offered(after_position(start, events[:index]), event), (start, index, event)
        assert after_position(start, events).position == end.to_json()


def test_side_rule_events_after_a_position_are_refused_when_they_contradict_what_was_shown() -> None:
    rules = Rules.preset_named("tan", redeal_without_trump=True, trump_swap=True)
    # Seat 0 leads and holds no trump; seat 1 holds 2h, the low trump.
    hands = [
        ["3s", "4s", "5s", "6s", "7s", "8s", "9s", "Ts"], ["2h", "3c", "4c", "5c", "6c", "7c", "8c", "9c"],
    ]
    deck = ordered_deck(rules, hands, "9h")
    game = Game.deal(rules, 2, deck=deck, first_attacker=0)
    start = Position.from_game(game, 0)
    assert start.to_move == 0 and start.setup is not None and start.setup.step == "redeal"
    kept = [{"seat": 0, "move": "keep"}]
    entries = after_position(start, kept)
    swap = next(mover for mover in entries.movers if mover.seat == 1)
    assert Move.swap() in swap.moves  # seat 0 cannot see who holds 2h
    plain = [str(card) for card in Position.from_game(game, 0).unseen_cards() if card.suit.letter != "h"]

    def refused(event: dict[str, Any]) -> RecordError:
        with pytest.raises(RecordError) as error:
            after_position(start, [*kept, event])
        assert error.value.index == 1
        return error.value

    mine = refused({"seat": 1, "move": "redeal", "shown": ["3s", *plain[:7]]})  # a card of seat 0's hand
    assert mine.code is ErrorCode.DUPLICATE_CARD
    trump = refused({"seat": 1, "move": "redeal", "shown": ["Ah", *plain[:7]]})  # a hand with a trump
    assert trump.code is ErrorCode.ILLEGAL_MOVE
    short = refused({"seat": 1, "move": "redeal", "shown": plain[:7]})  # seven cards of eight
    assert short.code is ErrorCode.COUNT_MISMATCH
    assert after_position(start, [*kept, {"seat": 1, "move": "redeal", "shown": plain[:8]}]).to_move == 1
    # Once seat 0 has seen 2h in its own hand, nobody else can swap it.
    low_hands = [
        ["2h", "3c", "4c", "5c", "6c", "7c", "8c", "9c"], ["Ah", "3s", "4s", "5s", "6s", "7s", "8s", "9s"],
    ]
    with_low = Game.deal(rules, 2, deck=ordered_deck(rules, low_hands, "9h"), first_attacker=1)
    for seat in (1, 0, 1):  # each holds a trump: asked in the redeal round, then seat 1 in the swap round
        with_low.play("keep", seat)
    mine_low = Position.from_game(with_low, 0)
    assert mine_low.to_move == 0 and mine_low.setup is not None and mine_low.setup.step == "swap"
    with pytest.raises(RecordError) as error:
        after_position(mine_low, [{"seat": 1, "move": "swap"}])
    assert error.value.index == 0
