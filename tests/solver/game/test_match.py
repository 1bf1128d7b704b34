"""Matches (docs/rules.md §1.9): dealer and leader between games, tribute, standings, trump repeat."""

from __future__ import annotations

import pytest

from solver.game.bounds import MAX_MATCH_GAMES
from solver.game.errors import GameOverError, TanError
from solver.game.match import Match
from solver.game.phases import LeadReason
from solver.game.position import Position
from solver.game.rules import Rules
from solver.players import GreedyPlayer
from solver.tools.arena import ArenaError, build_tasks
from tests.support.sweeps import sampled

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
    assert match.game.lead_reason is LeadReason.SEAT0
    for number in range(2, 6):
        dealer = match.dealer
        play_out(match, number - 1)
        last = match.results[-1]
        assert match.number == number
        assert match.dealer == (last.loser if last.loser is not None else dealer)
        leader = last.winner if last.winner is not None else match.dealer
        assert match.game.leader == leader and match.game.attacker == leader
        why = LeadReason.LAST_WINNER if last.winner is not None else LeadReason.DEALER
        assert match.game.lead_reason is why
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
    # As many games as a position's match block may count (docs/rules.md §1.9), and no more.
    assert Match(Rules.preset_named("tan"), 2, games=MAX_MATCH_GAMES, seed=1).games == MAX_MATCH_GAMES
    with pytest.raises(TanError, match="at most 100 games") as error:
        Match(Rules.preset_named("tan"), 2, games=MAX_MATCH_GAMES + 1, seed=1)
    assert error.value.code == "invalid_input"
    with pytest.raises(ArenaError, match="from 1 to 100"):
        build_tasks(["random", "greedy"], deals=1, rules="tan", players=2, seed=1, match=MAX_MATCH_GAMES + 1)


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


def _second_game() -> dict[str, object]:
    """The JSON position of the seat to move at the start of a match's game 2 (two seats)."""
    match = Match(Rules.preset_named("tan"), 2, games=3, seed=5)
    play_out(match, games=1)
    seat = match.game.to_move
    assert seat is not None and match.number == 2 and match.previous is not None
    assert match.previous.loser is not None and match.previous.winner is not None
    return match.position(seat).to_json()


def _with_match(position: dict[str, object], **block: object) -> dict[str, object]:
    match = position["match"]
    assert isinstance(match, dict)
    return {**position, "match": {**match, **block}}


@pytest.mark.parametrize(
    ("block", "code", "message"),
    [
        ({"dealer": 9}, "invalid_seat", r"match.dealer: no seat 9 in a 2-seat game"),
        ({"dealer": -5}, "invalid_seat", r"match.dealer: no seat -5"),
        ({"previous_winner": 2}, "invalid_seat", r"match.previous_winner: no seat 2"),
        ({"previous_winner": 1, "previous_loser": 1}, "invalid_position", r"both the winner and the loser"),
        ({"previous_winner": 0, "previous_loser": 0}, "invalid_position", r"both the winner and the loser"),
        ({"game": 10**30}, "invalid_position", r"match.game: a match has games 1 to 100"),
        ({"game": 101, "trump_suits": ["h"] * 100}, "invalid_position", r"games 1 to 100"),
        ({"game": 1, "trump_suits": []}, "invalid_position", r"game 1 has no game before it"),
        ({"game": 1, "trump_suits": ["h"] * 500}, "invalid_position", r"lists 0 trump suits .* not 500"),
        ({"trump_suits": ["h"] * 500}, "invalid_position", r"match.trump_suits: game 2 follows 1 games"),
        ({"trump_suits": []}, "invalid_position", r"lists 1 trump suits"),
        ({"sitting_out": 0}, "invalid_position", r"only the dealer sits out"),
    ],
)
def test_a_match_block_no_match_could_reach_is_refused(
    block: dict[str, object], code: str, message: str
) -> None:
    """docs/api.md §2.2: the match block's seats are seats of the game, game 1 has no game before
    it, a game has one trump suit listed for each game before it, a winner is not the loser."""
    position = _second_game()
    Position.from_json(position)  # as it is, it is fine
    with pytest.raises(TanError, match=message) as error:
        Position.from_json(_with_match(position, **block))
    assert error.value.code == code


def test_game_1_is_dealt_by_seat_0_and_later_games_by_the_last_loser() -> None:
    position = _second_game()
    block = position["match"]
    assert isinstance(block, dict)
    loser, winner = block["previous_loser"], block["previous_winner"]
    with pytest.raises(TanError, match=rf"the last game's loser, seat {loser}, deals") as error:
        Position.from_json(_with_match(position, dealer=winner))
    assert error.value.code == "invalid_position"
    first = Match(Rules.preset_named("tan"), 2, games=2, seed=5).position(0).to_json()
    assert first["match"] == {"game": 1, "dealer": 0, "previous_winner": None, "previous_loser": None,
                              "trump_suits": []}
    with pytest.raises(TanError, match="seat 0 deals game 1"):
        Position.from_json(_with_match(first, dealer=1))


@pytest.mark.parametrize("seed", sampled(range(6), 2, "match-read-back"))
def test_every_position_of_a_match_reads_back(seed: int) -> None:
    """Every seat's position of random matches (trump repeats with seats sitting out, tributes,
    the last game over) passes the match block's checks and reads back equal."""
    rules = Rules.preset_named("tan", tribute=True, trump_repeat_limit=2, redeal_without_trump=True)
    match = Match(rules, 2 + seed % 3, games=4, seed=seed)
    while True:
        for seat in range(match.players):
            position = match.position(seat)
            assert Position.from_json(position.to_json()) == position
        if match.over:
            break
        seat = match.game.to_move
        assert seat is not None
        match.play(GREEDY.choose(match.position(seat)), seat)
