"""Matches (docs/rules.md §1.9): dealer and leader between games, tribute, standings, trump repeat."""

from __future__ import annotations

import pytest

from solver.game.errors import GameOverError, TanError
from solver.game.match import Match
from solver.game.position import Position
from solver.game.rules import Rules
from solver.players import GreedyPlayer

GREEDY = GreedyPlayer()


def play_out(match: Match, games: int | None = None) -> None:
    """Greedy moves for every seat until the match (or `games` games of it) is over."""
    while not match.over and (games is None or len(match.results) < games):
        seat = match.game.to_move
        assert seat is not None
        match.play(GREEDY.choose(match.position(seat)), seat)


def test_a_match_deals_its_games_from_its_seed_and_counts_the_standings() -> None:
    rules = Rules.preset_named("tan")
    match = Match(rules, 3, games=4, seed=11)
    play_out(match)
    again = Match(rules, 3, games=4, seed=11)
    play_out(again)
    assert match.results == again.results and len(match.results) == 4
    standings = match.standings()
    assert sum(s.won for s in standings) == sum(1 for r in match.results if r.winner is not None)
    assert sum(s.lost for s in standings) == sum(1 for r in match.results if r.loser is not None)
    assert [s.score for s in standings] == [sum(r.scores[seat] for r in match.results) for seat in range(3)]
    with pytest.raises(GameOverError):
        match.play("take")


def test_the_loser_deals_and_the_winner_leads_the_next_game() -> None:
    match = Match(Rules.preset_named("tan"), 3, games=5, seed=3)
    assert match.dealer == 0 and match.game.attacker == 0  # game 1: seat 0 deals, seat0 leads
    for number in range(2, 6):
        dealer = match.dealer
        play_out(match, number - 1)
        last = match.results[-1]
        assert match.number == number
        assert match.dealer == (last.loser if last.loser is not None else dealer)
        leader = last.winner if last.winner is not None else match.dealer
        assert match.game.leader == leader and match.game.attacker == leader
        info = match.position(0).match
        assert info is not None and info.game == number and info.previous_winner == last.winner


def test_the_last_loser_pays_tribute_to_the_last_winner() -> None:
    rules = Rules.preset_named("tan", tribute=True)
    paid = 0
    for seed in range(8):
        match = Match(rules, 2, games=2, seed=seed)
        play_out(match, 1)
        first = match.results[0]
        game = match.game
        if first.loser is None or first.winner is None:
            assert game.tributed is None
            continue
        trumps = any(card.suit == game.trump.suit for card in game.hands[first.loser]) or game.tributed
        if game.tributed is not None:
            giver, receiver, card = game.tributed
            assert (giver, receiver) == (first.loser, first.winner) and card.suit == game.trump.suit
            assert card in game.hands[receiver] and len(game.hands[receiver]) == rules.hand_size + 1
            paid += 1
        else:
            assert not trumps
    assert paid >= 4


def test_three_games_with_one_trump_suit_make_the_dealer_lose() -> None:
    """trump_repeat_limit 3, two seats: the third game in a row with one suit is lost by its
    dealer at once, and the other seat wins it."""
    rules = Rules.preset_named("durak", trump_repeat_limit=3)
    for seed in range(400):
        probe = Match(rules, 2, games=3, seed=seed)
        play_out(probe)
        suits = [result.trump for result in probe.results]
        if probe.results[2].repeat:
            break
    else:
        raise AssertionError("no seed repeats a trump suit three times running")
    third = probe.results[2]
    assert suits[0] == suits[1] == suits[2]
    assert third.loser == third.dealer and third.winner == 1 - third.dealer
    assert list(third.scores) == [0.0 if seat == third.dealer else 1.0 for seat in range(2)]
    assert not any(result.repeat for result in probe.results[:2])


def test_with_three_seats_the_others_play_the_repeat_game_out() -> None:
    rules = Rules.preset_named("tan", trump_repeat_limit=2, tribute=True)
    for seed in range(200):
        match = Match(rules, 3, games=2, seed=seed)
        play_out(match, 1)
        if match.repeat:
            break
    else:
        raise AssertionError("no seed repeats the trump suit")
    dealer = match.dealer
    game = match.game
    assert dealer in game.finished and not game.hands[dealer] and game.tributed is None
    play_out(match)
    second = match.results[1]
    assert second.repeat and second.loser == dealer and second.scores[dealer] == 0.0
    assert second.winner != dealer
    assert match.standings()[dealer].lost >= 1


def test_bad_match_sizes_are_refused() -> None:
    with pytest.raises(TanError):
        Match(Rules.preset_named("tan"), 2, games=0, seed=1)


def test_every_seat_sees_a_valid_position_through_a_match_with_every_side_rule() -> None:
    rules = Rules.preset_named(
        "tan", redeal_without_trump=True, tribute=True, all_trumps_wins=True, trump_swap=True,
        take_when_beaten=True, twos_last=True, trump_repeat_limit=2,
    )
    for seed in range(3):
        match = Match(rules, 3, games=3, seed=seed)
        while not match.over:
            for seat in range(3):
                data = match.position(seat).to_json()
                assert Position.from_json(data).to_json() == data
            seat = match.game.to_move
            assert seat is not None
            match.play(GREEDY.choose(match.position(seat)), seat)
