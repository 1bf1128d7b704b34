"""The rule questions on public fields (solver.game.phases), and that every engine asks them.

Each function is pinned on hand-made cases; then random games of every variant
hold the readable engine, the Cython core and a seat's position to its answers:
a redeal is offered exactly when `redeal_offered` says, the setup is entered
only when `Rules.has_setup`, and every finished game scores `final_scores` of
its loser, winner and drawn seats.
"""

from __future__ import annotations

import pytest

from solver.game.cards import Card, Suit, parse_cards
from solver.game.errors import PositionError
from solver.game.moves import Move
from solver.game.phases import (
    Phase,
    all_trumps_win,
    final_scores,
    game_loser,
    nothing_to_decide,
    redeal_asked,
    redeal_offered,
    secret_decision,
    seen_by,
    swap_asked,
    trump_ace_loses,
)
from solver.game.position import Position
from solver.game.reference import Game
from solver.game.rules import Rules
from tests.support.games import ordered_deck, twin_games, variants
from tests.support.positions import to_move_position, waiting_position

TAN = Rules.preset_named("tan")
REDEAL = TAN.with_options(redeal_without_trump=True)
HEARTS = Suit.parse("h")


def test_a_phase_is_its_json_text() -> None:
    assert [phase.value for phase in Phase] == ["setup", "play"]
    assert Phase("setup") is Phase.SETUP and Phase.PLAY == "play"


def test_a_position_holds_its_phase_as_a_phase() -> None:
    data = to_move_position()
    assert Position.from_json(data).phase is Phase.PLAY
    with pytest.raises(PositionError, match="phase must be setup or play"):
        Position.from_json({**data, "phase": "bidding"})


def test_whether_to_redeal_or_swap_is_decided_in_secret_and_a_keep_is_seen_by_nobody_else() -> None:
    assert secret_decision("redeal") and secret_decision("swap")
    assert not secret_decision("pick") and not secret_decision(None)
    assert not seen_by(Move.keep(), 1, 0) and seen_by(Move.keep(), 1, 1)
    assert seen_by(Move.redeal(), 1, 0) and seen_by(Move.parse("take"), 1, 0)


def test_a_seat_waits_while_another_decides_in_secret() -> None:
    hands = [
        ["2h", "3s", "4s", "5s", "6s", "7s", "8s", "9s"],
        ["2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c"],
    ]
    game = Game.deal(REDEAL, 2, deck=ordered_deck(REDEAL, hands, "9h"))
    # Seat 0 holds a trump: asked all the same, it may only keep (docs/rules.md §1.7).
    assert game.setup_step == "redeal" and game.to_move == 0 and game.legal_moves() == [Move.keep()]
    assert Position.from_game(game, 1).waiting
    game.play(Move.keep())
    assert game.setup_step == "redeal" and game.to_move == 1  # seat 1 holds no trump
    assert game.legal_moves() == [Move.keep(), Move.redeal()]
    waiting, deciding = Position.from_game(game, 0), Position.from_game(game, 1)
    assert waiting.waiting and not waiting.over and waiting.to_move is None
    assert not deciding.waiting and deciding.to_move == 1
    assert not Position.from_json(waiting_position()).waiting  # another's turn in play is no secret


@pytest.mark.parametrize(
    ("rules", "holds_trump", "redealt", "stock", "offered"),
    [
        (REDEAL, False, False, 17, True),  # two hands of 8 above the trump card
        (REDEAL, False, False, 16, False),  # one card short: the trump card stays at the bottom
        (REDEAL, True, False, 30, False),
        (REDEAL, False, True, 30, False),  # once per seat
        (TAN, False, False, 30, False),  # the rule is off
    ],
)
def test_a_redeal_is_offered_to_a_trumpless_seat_with_two_hands_in_the_stock(
    rules: Rules, holds_trump: bool, redealt: bool, stock: int, offered: bool
) -> None:
    assert redeal_offered(rules, holds_trump, redealt, stock) is offered


@pytest.mark.parametrize(
    ("rules", "redealt", "stock", "asked"),
    [(REDEAL, False, 17, True), (REDEAL, False, 16, False), (REDEAL, True, 30, False),
     (TAN, False, 30, False)],
)
def test_who_is_asked_to_redeal_depends_on_nothing_hidden(rules: Rules, redealt: bool, stock: int,
                                                          asked: bool) -> None:
    assert redeal_asked(rules, redealt, stock) is asked
    assert not redeal_offered(rules, True, redealt, stock)  # a seat holding a trump only keeps


def test_the_swap_round_is_held_on_public_facts_only() -> None:
    swap = TAN.with_options(trump_swap=True)
    assert swap_asked(swap, 30, trump_card_is_low=False)
    assert not swap_asked(swap, 0, trump_card_is_low=False)  # the trump card has been drawn
    assert not swap_asked(swap, 30, trump_card_is_low=True)  # nothing lower to swap it for
    assert not swap_asked(TAN, 30, trump_card_is_low=False)


def test_a_seat_with_nothing_to_decide_has_keep_alone() -> None:
    assert nothing_to_decide([Move.keep()])
    assert not nothing_to_decide([Move.keep(), Move.swap()]) and not nothing_to_decide([Move.parse("take")])


def test_a_full_hand_of_trumps_wins_before_the_first_lead() -> None:
    rules = TAN.with_options(all_trumps_wins=True)
    trumps = parse_cards(["2h", "3h", "4h", "5h", "6h", "7h", "8h", "9h"])
    assert all_trumps_win(rules, trumps, HEARTS, redealt=False)
    assert not all_trumps_win(TAN, trumps, HEARTS, redealt=False)  # the rule is off
    assert not all_trumps_win(rules, trumps, HEARTS, redealt=True)  # a redealt hand does not count
    assert not all_trumps_win(rules, trumps[:7], HEARTS, redealt=False)  # not a full hand
    assert not all_trumps_win(rules, [*trumps[:7], Card.parse("9s")], HEARTS, redealt=False)


def test_the_trump_ace_left_alone_loses_once_the_stock_is_empty() -> None:
    rules = TAN.with_options(trump_ace_last_loses=True)
    assert trump_ace_loses(rules, 0)
    assert not trump_ace_loses(rules, 1) and not trump_ace_loses(TAN, 0)
    assert game_loser(rules, 0, [0, 2], [2]) == 2  # before the seat still holding others
    assert game_loser(rules, 3, [0, 2], [2]) is None  # the stock still holds cards: a repetition
    assert game_loser(TAN, 0, [0, 2], [2]) is None


def test_the_last_seat_holding_cards_loses_and_several_draw() -> None:
    assert game_loser(TAN, 0, [1], []) == 1
    assert game_loser(TAN, 0, [0, 1], []) is None
    assert game_loser(TAN, 0, [], []) is None


def test_final_scores() -> None:
    assert final_scores(3, 1, None, ()) == [1.0, 0.0, 1.0]
    assert final_scores(3, None, 2, ()) == [0.0, 0.0, 1.0]  # a win by trumps
    assert final_scores(3, 1, 2, ()) == [1.0, 0.0, 1.0]  # a loser decides, whoever finished first
    assert final_scores(4, None, None, {1, 3}) == [1.0, 0.5, 1.0, 0.5]


def _seats_offered(game: Game) -> set[int]:
    """The seats `redeal_offered` says may redeal in this game now."""
    return {
        seat
        for seat in range(game.players)
        if seat not in game.finished
        and redeal_offered(
            game.rules,
            any(card.suit == game.trump.suit for card in game.hands[seat]),
            seat in game.redealt,
            len(game.stock),
        )
    }


@pytest.mark.parametrize(("rules", "players"), list(variants()), ids=lambda x: getattr(x, "preset", x))
def test_every_engine_asks_the_same_questions(rules: Rules, players: int) -> None:
    for seed in range(4):
        dealt = True
        for reference, core in twin_games(rules, players, seed * 31 + players):
            if dealt:
                # The setup is entered only when the rules have one, in both engines.
                assert reference.phase is Phase.PLAY or rules.has_setup
                assert core.snapshot()["phase"] is reference.phase
                dealt = False
            if reference.setup_step == "redeal":
                # Every seat is asked; the ones `redeal_offered` names may redeal, in both engines.
                offered = reference.to_move in _seats_offered(reference)
                assert (Move.redeal() in reference.legal_moves()) is offered
                assert (Move.redeal() in core.legal_moves()) is offered
            if reference.over:
                drawn = {seat for seat in range(players) if seat not in reference.finished}
                expected = final_scores(players, reference.loser, reference.winner, drawn)
                if reference.loser is not None or reference.winner is not None:
                    assert reference.scores == expected
                assert core.scores() == reference.scores
                for seat in range(players):
                    position = Position.from_game(reference, seat)
                    assert position.over
                    if players == 2 or reference.loser is not None or reference.winner is not None:
                        assert position.final_scores() == reference.scores, (seed, seat)
