"""The seeds' side rules in the readable engine (docs/rules.md §1.7-§1.8), one hand-made deal each."""

from __future__ import annotations

from typing import Any

import pytest

from solver.game.cards import Card, deck, parse_cards
from solver.game.errors import IllegalMoveError, Refusal
from solver.game.moves import Move
from solver.game.phases import LeadReason
from solver.game.position import Position
from solver.game.reference import Game, random_deck
from solver.game.rules import Rules
from tests.support.games import ordered_deck

TAN = Rules.preset_named("tan")


def moves(*texts: str) -> list[Move]:
    return sorted(Move.parse(text) for text in texts)


def cards(text: str) -> set[Card]:
    return set(parse_cards(text.split()))


# Two seats of tan; seat 1 holds no trump (hearts are trump: the trump card is 9h).
NO_TRUMP_1 = [
    ["2h", "3s", "4s", "5s", "6s", "7s", "8s", "9s"],
    ["2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c"],
]
OFFERED = ["Ah", "Kh", "Qh", "Jh", "Th", "8h", "7h", "6h", "Ad", "Kd", "Qd", "Jd", "Td", "9d", "8d", "7d"]


def dealt(
    rules: Rules, hands: list[list[str]], trump: str, top: list[str] | None = None, **kwargs: Any
) -> Game:
    return Game.deal(rules, len(hands), deck=ordered_deck(rules, hands, trump, top or []), **kwargs)


# -- redeal without trump (xả chủ) -------------------------------------------------------------


def test_a_trumpless_seat_may_redeal_and_picks_one_of_the_next_two_hands() -> None:
    rules = TAN.with_options(redeal_without_trump=True)
    game = dealt(rules, NO_TRUMP_1, "9h", OFFERED, chance_seed=7)
    # Seat 0 leads and holds the 2h: asked first all the same, it may only keep.
    assert game.phase == "setup" and game.setup_step == "redeal" and game.to_move == 0
    assert game.legal_moves() == moves("keep")
    game.play("keep", 0)
    assert game.setup_step == "redeal" and game.to_move == 1
    assert game.legal_moves() == moves("keep", "redeal")
    before = game.refusal(next(iter(game.hands[1])), 1)
    assert before is not None and before.reason is Refusal.SETUP
    shown = set(game.hands[1])
    game.play("redeal", 1)
    assert game.setup_step == "pick" and game.to_move == 1
    assert game.legal_moves() == moves("pick 0", "pick 1")
    assert game.redeal_sets is not None and set(game.redeal_sets[1]) == cards("Ad Kd Qd Jd Td 9d 8d 7d")
    stock_before = len(game.stock) + 2 * rules.hand_size
    game.play("pick 0", 1)  # both offered hands left the stock; one comes back with the shown hand
    assert game.hands[1] == cards("Ah Kh Qh Jh Th 8h 7h 6h")
    assert len(game.stock) == stock_before and game.stock[-1] == Card.parse("9h")
    assert shown <= set(game.stock) and cards("Ad Kd Qd Jd Td 9d 8d 7d") <= set(game.stock)
    assert game.in_stock[0] == shown  # everyone saw the hand go back
    assert game.in_stock[1] == shown | cards("Ad Kd Qd Jd Td 9d 8d 7d")  # the picker saw the other one
    assert game.phase == "play" and game.to_move == 0 and game.redealt == {1}


def test_every_seat_sees_a_valid_position_through_several_redeals() -> None:
    """A seat offered hands that hold cards it saw go back to the stock knows them in the offered
    hands, no longer in the stock: every seat's position stays valid through every redeal."""
    rules = TAN.with_options(redeal_without_trump=True)
    several = 0
    for seed in range(400):
        players = 2 + seed % 3
        game = Game.deal(rules, players, deck=random_deck(rules, seed), chance_seed=seed)
        while game.phase == "setup" and not game.over:
            for seat in range(players):
                Position.from_game(game, seat)  # raises on a card shown in two places
            legal = game.legal_moves()
            redeal = Move.parse("redeal")
            game.play(redeal if redeal in legal else legal[seed % len(legal)], game.to_move)
        several += len(game.redealt) >= 2
    assert several >= 3


def test_the_redeal_shuffle_follows_the_chance_seed() -> None:
    rules = TAN.with_options(redeal_without_trump=True)
    stocks = []
    for seed in (1, 1, 2):
        game = dealt(rules, NO_TRUMP_1, "9h", OFFERED, chance_seed=seed)
        game.play("keep", 0)
        game.play("redeal", 1)
        game.play("pick 1", 1)
        stocks.append(game.stock)
    assert stocks[0] == stocks[1] != stocks[2]


def test_a_keep_moves_on_and_a_seat_with_a_trump_is_asked_and_only_keeps() -> None:
    rules = TAN.with_options(redeal_without_trump=True)
    hands = [
        ["3s", "4s", "5s", "6s", "7s", "8s", "9s", "Ts"],
        ["2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c"],
    ]
    game = dealt(rules, hands, "9h", OFFERED)
    assert game.to_move == 0 and game.setup_step == "redeal"  # seat 0 leads, so it is asked first
    game.play("keep", 0)
    assert game.to_move == 1 and game.setup_step == "redeal"
    game.play("keep", 1)
    assert game.phase == "play" and game.to_move == 0
    other = dealt(rules, NO_TRUMP_1, "9h", OFFERED)
    # Seat 0 holds the 2h: asked like any seat, so that waiting on it tells nothing (docs/rules.md §1.7).
    assert other.to_move == 0 and other.setup_step == "redeal" and other.legal_moves() == moves("keep")
    other.play("keep", 0)
    assert other.to_move == 1 and other.legal_moves() == moves("keep", "redeal")


def test_no_redeal_when_the_stock_cannot_offer_two_hands() -> None:
    rules = Rules.preset_named("durak", redeal_without_trump=True)
    hands = [["6s", "7s", "8s", "9s", "Ts", "Js"], ["6c", "7c", "8c", "9c", "Tc", "Jc"],
             ["6d", "7d", "8d", "9d", "Td", "Jd"], ["Qs", "Ks", "As", "Qc", "Kc", "Ac"],
             ["Qd", "Kd", "Ad", "7h", "8h", "9h"]]
    game = dealt(rules, hands, "6h")  # 5 hands of 6: 5 cards above the trump card, fewer than 12
    assert game.phase == "play"


# -- tribute (cúng chủ) --------------------------------------------------------------------------


def test_the_loser_gives_its_highest_trump_and_draws_and_the_winner_sees_its_hand() -> None:
    rules = TAN.with_options(tribute=True)
    hands = [
        ["2h", "Kh", "4s", "5s", "6s", "7s", "8s", "9s"],
        ["2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c"],
    ]
    game = dealt(rules, hands, "9h", ["Ac"], tribute=(0, 1), first_attacker=1)
    assert game.phase == "play" and game.to_move == 1
    assert Card.parse("Kh") in game.hands[1] and len(game.hands[1]) == 9
    assert game.hands[0] == cards("2h 4s 5s 6s 7s 8s 9s Ac")  # drew the top card
    assert game.tributed == (0, 1, Card.parse("Kh"))
    assert game.seen[0][1] == {Card.parse("Kh")}  # the giver knows where its king went
    assert game.seen[1][0] == cards("2h 4s 5s 6s 7s 8s 9s")  # the receiver saw the hand before the draw
    assert Position.from_game(game, 1).known[0] == tuple(sorted(cards("2h 4s 5s 6s 7s 8s 9s")))
    assert Position.from_game(game, 0).known[1] == (Card.parse("Kh"),)
    game.play("attack 2c", 1)
    game.play("take", 0)
    assert len(game.hands[1]) == 8  # refills bring nobody above the hand size


def test_no_inspection_when_the_tribute_is_the_trump_ace() -> None:
    rules = TAN.with_options(tribute=True)
    hands = [
        ["2h", "Ah", "4s", "5s", "6s", "7s", "8s", "9s"],
        ["2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c"],
    ]
    game = dealt(rules, hands, "9h", tribute=(0, 1))
    assert game.tributed == (0, 1, Card.parse("Ah")) and game.seen[1][0] == set()


def test_a_loser_who_redealt_or_holds_no_trump_owes_nothing() -> None:
    rules = TAN.with_options(tribute=True, redeal_without_trump=True)
    game = dealt(rules, NO_TRUMP_1, "9h", OFFERED, tribute=(1, 0))
    game.play("keep", 0)
    game.play("redeal", 1)
    game.play("pick 0", 1)  # eight hearts now, but it redealt
    assert game.tributed is None and len(game.hands[0]) == 8
    bare = dealt(TAN.with_options(tribute=True), NO_TRUMP_1, "9h", tribute=(1, 0))
    assert bare.tributed is None


def test_a_loser_holding_only_the_trump_two_gives_it_and_the_winner_may_swap_it() -> None:
    rules = TAN.with_options(tribute=True, trump_swap=True)
    hands = [
        ["2h", "3s", "4s", "5s", "6s", "7s", "8s", "9s"],
        ["2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c"],
    ]
    game = dealt(rules, hands, "Qh", tribute=(0, 1), first_attacker=1)
    assert game.tributed == (0, 1, Card.parse("2h"))
    assert game.setup_step == "swap" and game.to_move == 1
    assert game.legal_moves() == moves("keep", "swap")
    game.play("swap", 1)
    assert Card.parse("Qh") in game.hands[1] and game.trump == Card.parse("2h")
    assert game.stock[-1] == Card.parse("2h") and Card.parse("Qh") in game.known[1]
    assert game.to_move == 0  # tan: the swapper cedes the lead to the seat after it


# -- all trumps (thắng trắng) -------------------------------------------------------------------


def test_a_hand_of_all_trumps_wins_at_once() -> None:
    rules = TAN.with_options(all_trumps_wins=True)
    hands = [
        ["2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s"],
        ["2h", "3h", "4h", "5h", "6h", "7h", "8h", "Th"],
    ]
    game = dealt(rules, hands, "9h")
    assert game.over and game.winner == 1 and game.loser is None
    assert game.scores == [0.0, 1.0]
    assert game.known[1] == game.hands[1]  # shown to claim it


def test_all_trumps_after_a_redeal_does_not_win() -> None:
    rules = TAN.with_options(all_trumps_wins=True, redeal_without_trump=True)
    game = dealt(rules, NO_TRUMP_1, "9h", OFFERED)
    game.play("keep", 0)
    game.play("redeal", 1)
    game.play("pick 0", 1)  # eight hearts
    assert not game.over and game.phase == "play"


def test_a_tribute_that_completes_a_hand_of_trumps_wins() -> None:
    rules = TAN.with_options(all_trumps_wins=True, tribute=True)
    hands = [
        ["Ah", "3s", "4s", "5s", "6s", "7s", "8s", "9s"],
        ["2h", "3h", "4h", "5h", "6h", "7h", "8h", "Th"],
    ]
    game = dealt(rules, hands, "9h", tribute=(0, 1))
    assert game.over and game.winner == 1 and len(game.hands[1]) == 9


# -- trump swap (đổi 2 chủ / đổi 6 chủ) ---------------------------------------------------------


def test_the_low_trump_holder_may_swap_and_then_does_not_lead() -> None:
    rules = TAN.with_options(trump_swap=True)
    hands = [
        ["2h", "3s", "4s", "5s", "6s", "7s", "8s", "9s"],
        ["2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c"],
    ]
    kept = dealt(rules, hands, "Kh")
    assert kept.to_move == 0 and kept.setup_step == "swap"
    kept.play("keep", 0)
    # Seat 1 is asked too, with nothing to swap: the round ends after the last seat.
    assert kept.to_move == 1 and kept.setup_step == "swap" and kept.legal_moves() == moves("keep")
    kept.play("keep", 1)
    assert kept.phase == "play" and kept.to_move == 0 and kept.trump == Card.parse("Kh")
    swapped = dealt(rules, hands, "Kh")
    swapped.play("swap", 0)
    assert swapped.to_move == 1 and swapped.trump == Card.parse("2h") and swapped.swapper == 0
    assert (kept.leader, kept.lead_reason) == (0, LeadReason.SEAT0)
    assert (swapped.leader, swapped.lead_reason) == (1, LeadReason.TRUMP_SWAP)
    durak = Rules.preset_named("durak", trump_swap=True)
    six = [["6h", "7s", "8s", "9s", "Ts", "Js"], ["6c", "7c", "8c", "9c", "Tc", "Jc"]]
    game = dealt(durak, six, "Kh", first_attacker=0)
    game.play("swap", 0)
    assert game.to_move == 0 and game.lead_reason is LeadReason.LOWEST_TRUMP  # durak: the swap keeps the lead


def test_no_swap_when_the_trump_card_is_the_low_trump() -> None:
    game = dealt(TAN.with_options(trump_swap=True), NO_TRUMP_1, "2s")
    assert game.phase == "play"


# -- take when beaten ----------------------------------------------------------------------------


def test_a_defender_who_beat_everything_may_still_take() -> None:
    rules = TAN.with_options(take_when_beaten=True)
    hands = [
        ["3s", "4s", "5s", "6s", "7s", "8s", "9s", "Ts"],
        ["Ks", "3c", "4c", "5c", "6c", "7c", "8c", "9c"],
    ]
    for last, discarded in (("take", False), ("pass", True)):
        game = dealt(rules, hands, "2h")
        game.play("attack 3s", 0)
        game.play("defend 3s with Ks", 1)
        game.play("pass", 0)
        assert game.to_move == 1 and game.legal_moves() == moves("pass", "take")
        with pytest.raises(IllegalMoveError) as refused:
            game.verify("attack 3c", 1)
        assert refused.value.reason is Refusal.LAST_WORD
        last_word = game.refusal(Card.parse("3c"), 1)
        assert last_word is not None and last_word.reason is Refusal.LAST_WORD
        game.play(last, 1)
        assert (Card.parse("3s") in game.discard) is discarded
        assert game.attacker == (1 if discarded else 0)


# -- twos last (đút 2) ---------------------------------------------------------------------------


def test_a_two_is_played_only_from_a_hand_of_twos_but_the_trump_two_defends() -> None:
    rules = TAN.with_options(twos_last=True)
    hands = [
        ["2s", "2d", "5s", "6s", "7s", "8s", "9s", "Ts"],
        ["2h", "3c", "4c", "5c", "6c", "7c", "8c", "9c"],
    ]
    game = dealt(rules, hands, "Jh")
    assert Move.parse("attack 2s") not in game.legal_moves()
    with pytest.raises(IllegalMoveError, match="đút 2"):
        game.verify("attack 2s", 0)
    game.play("attack 5s", 0)
    assert Move.parse("defend 5s with 2h") in game.legal_moves()


def test_a_two_refused_under_twos_last_says_so() -> None:
    """`refusal` names the rule that keeps a card in the hand, for a page to word it (docs/api.md §3)."""
    rules = TAN.with_options(twos_last=True)
    hands = [
        ["2s", "2d", "5s", "6s", "7s", "8s", "9s", "Ts"],
        ["2h", "3c", "4c", "5c", "6c", "7c", "8c", "9c"],
    ]
    game = dealt(rules, hands, "Jh")
    refused = game.refusal(Card.parse("2s"))
    assert refused is not None and refused.reason is Refusal.TWOS_LAST and "đút 2" in refused.message
    assert game.refusal(Card.parse("5s")) is None


def test_the_first_seat_out_on_a_two_wins_under_twos_last() -> None:
    rules = TAN.with_options(twos_last=True)
    hands = [["2s"], ["9c"], ["Kd", "Qd"]]
    held = set(parse_cards([card for hand in hands for card in hand]))
    discard = [card for card in deck(52) if card not in held]
    game = Game.from_parts(rules, 3, hands, [], "2h", discard=discard, attacker=1, defended_once=True)
    game.play("attack 9c", 1)
    game.play("take", 2)  # seat 1 is out first, on a 9
    assert game.first_out == 1 and game.to_move == 0
    game.play("attack 2s", 0)  # a hand of 2s may lead one
    game.play("take", 2)
    assert game.over and game.loser == 2 and game.winner == 0  # out on a 2 beats out first
    plain = Game.from_parts(TAN, 3, hands, [], "2h", discard=discard, attacker=1, defended_once=True)
    for text in ("attack 9c", "take", "attack 2s", "take"):
        plain.play(text)
    assert plain.winner == 1  # without the rule, the first out wins
