"""The reference rules, rule by rule (docs/rules.md), and pinned perft counts.

Most scenarios are built with `Game.from_parts` through `build()`: the cards a
scenario names go where it says, every other card of the deck goes to the
discard pile (or into the stock), so each test shows only what it is about.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pytest

from solver.game import reference
from solver.game.bout import throwers
from solver.game.cards import Card, deck, parse_cards
from solver.game.errors import (
    GameOverError,
    IllegalMoveError,
    NotYourTurnError,
    PositionError,
    Refusal,
    RulesError,
)
from solver.game.moves import Move
from solver.game.phases import LeadReason
from solver.game.reference import Game, play_random_game, random_deck
from solver.game.rules import PRESETS, Rules


def rules_of(preset: str, **options: object) -> Rules:
    return Rules.preset_named(preset, **options)


def build(
    rules: Rules,
    hands: Sequence[str],
    trump: str,
    *,
    stock: str | None = None,
    table: Iterable[tuple[str, str | None]] = (),
    rest: str = "discard",
    **fields: object,
) -> Game:
    """A state holding `hands` and `table`. `stock` (top first) lies above the trump card;
    the deck's other cards go to the discard pile (`rest="discard"`) or into the stock
    between `stock` and the trump card (`rest="stock"`). With neither, the stock is empty."""
    hand_cards = [parse_cards(hand) for hand in hands]
    trump_card = Card.parse(trump)
    top = parse_cards(stock) if stock else []
    pairs = [
        (Card.parse(attack), None if defense is None else Card.parse(defense)) for attack, defense in table
    ]
    stock_lasts = stock is not None or rest == "stock"
    used = {card for hand in hand_cards for card in hand} | set(top)
    used |= {card for pair in pairs for card in pair if card is not None}
    if stock_lasts:
        used.add(trump_card)
    others = [card for card in deck(rules.deck) if card not in used]
    discard: list[Card] = []
    if rest == "stock":
        top += others
    else:
        discard = others
    fields.setdefault("defended_once", bool(discard))
    return Game.from_parts(
        rules,
        len(hand_cards),
        hand_cards,
        [*top, trump_card] if stock_lasts else [],
        trump_card,
        discard=discard,
        table=pairs,
        **fields,  # type: ignore[arg-type]
    )


def moves(*texts: str) -> list[Move]:
    return sorted(Move.parse(text) for text in texts)


def cards(text: str) -> set[Card]:
    return set(parse_cards(text))


# -- docs/rules.md §1.3 beating -------------------------------------------------------------------


def test_same_suit_higher_and_any_trump_beat_a_plain_card() -> None:
    game = build(rules_of("durak"), ["Ad", "7c 9c 7h Qs"], "6h", table=[("8c", None)])
    assert game.to_move == 1
    assert game.legal_moves() == moves("defend 8c with 9c", "defend 8c with 7h", "take")
    with pytest.raises(IllegalMoveError, match=r"^7c does not beat 8c: .*only by ranking higher"):
        game.verify("defend 8c with 7c")
    with pytest.raises(IllegalMoveError, match=r"^Qs does not beat 8c: .*neither .* nor trump"):
        game.verify("defend 8c with Qs")


def test_a_trump_is_beaten_only_by_a_higher_trump() -> None:
    game = build(rules_of("durak"), ["Ad", "7h Jh As Ac"], "6h", table=[("9h", None)])
    assert game.legal_moves() == moves("defend 9h with Jh", "take")
    with pytest.raises(IllegalMoveError, match=r"^7h does not beat 9h"):
        game.verify("defend 9h with 7h")
    with pytest.raises(IllegalMoveError, match=r"^As does not beat 9h: 9h is trump"):
        game.verify("defend 9h with As")


# -- docs/rules.md §1.4 throwing in and the limit ---------------------------------------------------


def test_throw_in_ranks_include_defence_cards() -> None:
    game = build(rules_of("durak"), ["9s 7d Kd", "As Ks Qs"], "6h", table=[("7c", "9c")])
    assert game.to_move == 0
    assert game.legal_moves() == moves("attack 7d", "attack 9s", "pass")
    with pytest.raises(IllegalMoveError, match=r"^cannot throw in Kd: no K on the table$"):
        game.verify("attack Kd")


def test_limit_is_the_defenders_cards_at_bout_start() -> None:
    game = build(rules_of("durak"), ["7d 9s", "As"], "6h", table=[("7c", "9c")])
    assert game.limit() == 2  # one card in hand + one already beaten
    game.play("attack 7d")
    game.play("take")
    assert game.to_move == 0 and game.taking
    assert game.legal_moves() == moves("pass")
    with pytest.raises(IllegalMoveError, match=r"^attack limit of 2 cards reached$"):
        game.verify("attack 9s")


def _reason(game: Game, card: str, seat: int | None = None) -> Refusal | None:
    refused = game.refusal(Card.parse(card), seat)
    return None if refused is None else refused.reason


def test_refusal_says_why_a_card_plays_no_move() -> None:
    """Why a card of the hand is in no legal move, as `verify` refuses the move it would make: a
    defence of each unbeaten card (then a transfer), or a throw-in (docs/api.md §3 `unplayable`)."""
    defending = build(rules_of("perevodnoy"), ["Ad", "7c 9c 7h Qs"], "6h", table=[("8c", None)])
    assert _reason(defending, "7c") is Refusal.DOES_NOT_BEAT  # the defence's reason, not the transfer's
    assert _reason(defending, "Qs") is Refusal.DOES_NOT_BEAT
    assert _reason(defending, "9c") is None and _reason(defending, "7h") is None
    throwing = build(rules_of("durak"), ["9s 7d Kd", "As Ks Qs"], "6h", table=[("7c", "9c")])
    assert _reason(throwing, "Kd") is Refusal.RANK_NOT_ON_TABLE
    assert _reason(throwing, "7d") is None
    full = build(rules_of("durak"), ["7d 9s", "As"], "6h", table=[("7c", "9c")])
    full.play("attack 7d")
    full.play("take")
    assert _reason(full, "9s") is Refusal.ATTACK_LIMIT
    assert _reason(full, "As", 1) is Refusal.NOT_YOUR_TURN
    with pytest.raises(IllegalMoveError) as refused:
        full.verify("attack 9s")
    assert refused.value.reason is Refusal.ATTACK_LIMIT


SIX_PAIRS = [("6c", "7c"), ("6d", "7d"), ("7s", "8s"), ("8c", "9c"), ("9d", "Td"), ("Ts", "Js")]


@pytest.mark.parametrize(
    ("max_attack", "expected"), [(6, ["pass"]), (None, ["attack 6s", "attack Jc", "pass"])]
)
def test_max_attack_caps_the_limit(max_attack: int | None, expected: list[str]) -> None:
    rules = rules_of("durak", max_attack=max_attack)
    game = build(rules, ["6s Jc", "Ah Kh Qh Jh Th 9h 8h 7h"], "6h", table=SIX_PAIRS)
    assert game.limit() == (6 if max_attack else 14)
    assert game.legal_moves() == moves(*expected)


@pytest.mark.parametrize(("defended_once", "limit"), [(False, 2), (True, 6)])
def test_first_bout_max_attack_until_the_first_defence(defended_once: bool, limit: int) -> None:
    rules = rules_of("durak", first_bout_max_attack=2)
    game = build(
        rules,
        ["7d", "As Ks Qs Js Ts"],
        "6h",
        table=[("7c", "9c"), ("9d", "Td")],
        rest="discard" if defended_once else "stock",
    )
    assert game.defended_once is defended_once
    assert game.limit() == limit
    assert (Move.attack("7d") in game.legal_moves()) is defended_once


def test_first_bout_max_attack_is_lifted_by_the_first_defence() -> None:
    rules = rules_of("durak", first_bout_max_attack=1)
    game = build(rules, ["7c 7d", "9c 9d Ah Ks", "Qs"], "6h", stock="8s", rest="stock")
    game.play("attack 7c")
    game.play("defend 7c with 9c")
    assert game.legal_moves() == moves("pass")  # capped at 1 in the first bout
    game.play("pass")
    game.play("pass")
    assert game.defended_once and game.attacker == 1 and game.defender == 2
    assert game.limit() == min(6, len(game.hands[2]))


# -- docs/rules.md §1.4 taking -------------------------------------------------------------------------


def test_take_ends_the_bout_at_once_without_throw_in_after_take() -> None:
    game = build(rules_of("tan"), ["Kd 7d", "As 2s"], "5h", table=[("7c", None)])
    discard_before = list(game.discard)
    record = game.play("take")
    assert record.bout_ended and not record.game_over
    assert game.hands[1] == cards("As 2s 7c") and game.known[1] == cards("7c")
    assert game.table == [] and not game.taking and game.discard == discard_before
    assert (game.attacker, game.defender, game.to_move) == (0, 1, 0)


def test_take_in_three_seats_passes_the_attack_beyond_the_taker() -> None:
    game = build(rules_of("tan"), ["Kd 7d", "As 2s", "3s 4s"], "5h", table=[("7c", None)])
    game.play("take")
    assert (game.attacker, game.defender, game.to_move) == (2, 0, 2)


def test_throw_in_after_take() -> None:
    game = build(rules_of("durak"), ["7d Kd", "As Qs", "7s 8h"], "6h", table=[("7c", None)])
    record = game.play("take")
    assert not record.bout_ended
    assert game.taking and game.to_move == 0 and game.limit() == 2
    assert game.legal_moves() == moves("attack 7d", "pass")
    game.play("attack 7d")
    # The new card stays undefended and the order starts again at the main attacker.
    assert game.to_move == 0 and game.passed == set()
    assert game.legal_moves() == moves("pass")
    game.play("pass")
    assert game.to_move == 2 and game.legal_moves() == moves("pass")
    record = game.play("pass")
    assert record.bout_ended
    assert game.hands[1] == cards("As Qs 7c 7d") and game.known[1] == cards("7c 7d")
    assert (game.attacker, game.defender, game.to_move) == (2, 0, 2)


# -- docs/rules.md §1.4 transfer ----------------------------------------------------------------------


def test_transfer_makes_the_defender_the_attacker() -> None:
    game = build(rules_of("perevodnoy"), ["Kd Qd", "7h 9s", "6s 8s Js"], "6d", table=[("7c", None)])
    assert game.legal_moves() == moves("take", "transfer 7h")
    game.play("transfer 7h")
    assert (game.attacker, game.defender, game.to_move) == (1, 2, 2)
    assert [pair.attack for pair in game.table] == parse_cards("7c 7h")
    # Seat 0, next after seat 2, holds 2 cards: too few for 3 attack cards.
    assert game.legal_moves() == moves("take")


def test_transfer_back_to_the_attacker_with_two_seats() -> None:
    game = build(rules_of("perevodnoy"), ["7d Kd", "7h 9s"], "6h", table=[("7c", None)])
    game.play("transfer 7h")
    assert (game.attacker, game.defender, game.to_move) == (1, 0, 0)
    with pytest.raises(IllegalMoveError, match=r"^cannot transfer: seat 1 holds 1 card, 3 attack cards"):
        game.verify("transfer 7d")


def test_transfer_is_off_in_durak() -> None:
    game = build(rules_of("durak"), ["Kd Qd", "7h 9s", "6s 8s Js"], "6d", table=[("7c", None)])
    assert game.legal_moves() == moves("take")
    with pytest.raises(IllegalMoveError, match="transfer is off"):
        game.verify("transfer 7h")


def test_no_transfer_after_a_defence() -> None:
    game = build(
        rules_of("perevodnoy"), ["Kd Qd", "7h As Ks", "6s 8s Js"], "6h", table=[("7c", "9c"), ("7d", None)]
    )
    assert game.to_move == 1
    assert game.legal_moves() == moves("defend 7d with 7h", "take")
    with pytest.raises(IllegalMoveError, match="already been beaten"):
        game.verify("transfer 7h")


def test_no_transfer_when_the_next_seat_holds_too_few_cards() -> None:
    game = build(rules_of("perevodnoy"), ["Kd Qd", "7h 9s", "Js"], "6d", table=[("7c", None)])
    assert game.legal_moves() == moves("take")
    with pytest.raises(
        IllegalMoveError,
        match=r"^cannot transfer: seat 2 holds 1 card, 2 attack cards would be on the table$",
    ):
        game.verify("transfer 7h")
    with pytest.raises(IllegalMoveError, match="attack cards are of rank 7, not 9"):
        game.verify("transfer 9s")


# -- docs/rules.md §1.4 refill and the next bout --------------------------------------------------------

REFILL_HANDS = ["2h 3h 4h 5h 6h 7h 8h", "2d 3d 4d 5d 6d 7d", "2s 3s 4s 5s 6s 8s Ts"]


@pytest.mark.parametrize(
    ("order", "drawn"),
    [
        ("attacker_defender_others", ["Ac", "Kc 4c", ""]),
        ("attacker_others_defender", ["Ac", "4c", "Kc"]),
    ],
)
def test_refill_order(order: str, drawn: list[str]) -> None:
    game = build(rules_of("tan", refill_order=order), REFILL_HANDS, "4c", stock="Ac Kc", table=[("7s", "9s")])
    assert game.to_move == 0
    game.play("pass")
    assert game.to_move == 2
    record = game.play("pass")
    assert record.bout_ended
    for seat in range(3):
        assert game.hands[seat] == cards(REFILL_HANDS[seat]) | cards(drawn[seat])
    assert game.stock == [] and game.discard[-2:] == parse_cards("7s 9s")
    # The trump card, drawn last, is known in the drawer's hand.
    assert [bool(known) for known in game.known] == ["4c" in text for text in drawn]
    assert (game.attacker, game.defender, game.to_move) == (1, 2, 1)
    assert game.finished == []


def test_after_a_defence_the_defender_attacks() -> None:
    game = build(rules_of("durak"), ["Kd", "9c 8s", "Qs"], "6h", table=[("7c", None)])
    game.play("defend 7c with 9c")
    game.play("pass")
    game.play("pass")
    assert (game.attacker, game.defender, game.to_move) == (1, 2, 1)


def test_a_finished_defender_hands_the_attack_to_the_next_seat() -> None:
    game = build(rules_of("durak"), ["Kd", "9c", "Qs"], "6h", table=[("7c", None)])
    record = game.play("defend 7c with 9c")
    assert record.bout_ended  # defender_empty = end_bout: the bout ends at once as a defence
    assert game.finished == [1]
    assert (game.attacker, game.defender, game.to_move) == (2, 0, 2)


def test_finishing_order_is_play_order_from_the_main_attacker() -> None:
    game = build(
        rules_of("durak"),
        ["", "Ks", "Kd", "9d"],
        "6h",
        table=[("7c", "8c"), ("7d", None)],
        attacker=2,
    )
    assert game.to_move == 3
    game.play("defend 7d with 9d")
    assert game.finished == [3, 0]
    assert (game.attacker, game.defender, game.to_move) == (1, 2, 1)


def test_throw_in_order_with_six_seats() -> None:
    hands = ["Ks", "7d Qs", "Js", "Ts", "8s", "9d Ad Ah"]
    game = build(rules_of("durak"), hands, "6h", table=[("7c", "9c")], attacker=4)
    assert (game.defender, game.to_move) == (5, 4)
    game.play("pass")
    assert game.to_move == 0
    game.play("pass")
    assert game.to_move == 1 and game.passed == {4, 0}
    game.play("attack 7d")
    assert game.to_move == 5 and game.passed == set()
    game.play("defend 7d with Ad")
    assert game.to_move == 4  # a new card: the order starts again at the main attacker
    for seat in (4, 0, 1, 2):
        assert game.to_move == seat
        game.play("pass")
    assert game.to_move == 3
    assert game.play("pass").bout_ended
    assert (game.attacker, game.defender) == (5, 0)


def test_finished_seats_do_not_throw_in() -> None:
    hands = ["Ks", "7d Qs", "", "Ts", "8s", "9d Ad Ah"]
    game = build(rules_of("durak"), hands, "6h", table=[("7c", "9c")], attacker=4, finished=[2])
    for seat in (4, 0, 1, 3):
        assert game.to_move == seat
        game.play("pass")
    assert game.over is False and game.table == []


@pytest.mark.parametrize(
    ("throwers", "finished", "expected"),
    [
        ("all", [], [4, 0, 1, 2, 3]),
        ("neighbours", [], [4, 0]),
        ("neighbours", [0], [4, 1]),  # a finished neighbour is skipped: the next active seat throws
        ("attacker", [], [4]),
    ],
)
def test_who_may_throw_in_at_six_seats(throwers: str, finished: list[int], expected: list[int]) -> None:
    """docs/rules.md §1.4 `throwers`: the throwers in order, each passing in turn; once they have
    all passed the bout ends, though others hold a card that could be thrown in (seat 1's 7d)."""
    hands = ["" if 0 in finished else "Ks", "7d Qs", "Js", "Ts", "8s", "9d Ad Ah"]
    rules = rules_of("durak", throwers=throwers)
    game = build(rules, hands, "6h", table=[("7c", "9c")], attacker=4, finished=finished)
    assert game.defender == 5
    for turn, seat in enumerate(expected, 1):
        assert game.to_move == seat
        if seat == 1:
            assert Move.parse("attack 7d") in game.legal_moves()
        assert game.play("pass").bout_ended == (turn == len(expected))
    assert game.table == [] and (game.attacker, game.defender) == (5, 1 if 0 in finished else 0)


@pytest.mark.parametrize(
    ("players", "all_of_them", "neighbours"),
    [(2, [0], [0]), (3, [0, 2], [0, 2]), (4, [0, 2, 3], [0, 2]), (5, [0, 2, 3, 4], [0, 2])],
)
def test_neighbours_are_the_attacker_and_the_seat_after_the_defender(
    players: int, all_of_them: list[int], neighbours: list[int]
) -> None:
    """At two seats every rule gives the attacker alone, at three `neighbours` is everyone."""
    durak = PRESETS["durak"]
    for value, expected in (("all", all_of_them), ("neighbours", neighbours), ("attacker", [0])):
        assert throwers(durak.with_options(throwers=value), players, [], 0, 1) == expected


# -- docs/rules.md §1.4 defender_empty --------------------------------------------------------------------


def test_defender_empty_refill_draws_and_the_bout_goes_on() -> None:
    rules = rules_of("durak", defender_empty="refill")
    game = build(rules, ["7d 9d Ks", "9c"], "6h", stock="6s 8s Th", table=[("7c", None)])
    record = game.play("defend 7c with 9c")
    assert not record.bout_ended
    assert game.hands[1] == cards("6s 8s Th 6h") and game.known[1] == cards("6h") and game.stock == []
    assert game.to_move == 0 and game.limit() == 5
    assert game.legal_moves() == moves("attack 7d", "attack 9d", "pass")


def test_defender_empty_end_bout_ends_it_as_a_defence() -> None:
    game = build(rules_of("durak"), ["7d 9d Ks", "9c"], "6h", stock="6s 8s Th", table=[("7c", None)])
    record = game.play("defend 7c with 9c")
    assert record.bout_ended
    assert game.discard[-2:] == parse_cards("7c 9c")
    assert game.hands[0] == cards("7d 9d Ks 6s 8s Th") and game.hands[1] == cards("6h")
    assert (game.attacker, game.defender, game.to_move) == (1, 0, 1)


# -- docs/rules.md §1.5 the end ------------------------------------------------------------------------


def test_two_seat_game_has_a_loser() -> None:
    game = build(rules_of("durak"), ["7c Kd", "9c"], "6h")
    game.play("attack 7c")
    record = game.play("defend 7c with 9c")
    assert record.game_over and game.over
    assert game.finished == [1] and game.loser == 0 and game.to_move is None
    assert game.scores == [0.0, 1.0]
    assert game.legal_moves() == []
    with pytest.raises(GameOverError):
        game.verify("pass")


def test_a_draw_when_the_last_seats_finish_together() -> None:
    game = build(rules_of("durak"), ["7c", "9c"], "6h")
    game.play("attack 7c")
    game.play("defend 7c with 9c")
    assert game.over and game.loser is None and game.finished == [0, 1]
    assert game.scores == [0.5, 0.5]


def test_a_draw_scores_only_the_seats_of_the_last_bout_half() -> None:
    game = build(rules_of("durak"), ["", "7c", "9c"], "6h", attacker=1, finished=[0])
    game.play("attack 7c")
    game.play("defend 7c with 9c")
    assert game.over and game.loser is None and game.finished == [0, 1, 2]
    assert game.scores == [1.0, 0.5, 0.5]


def test_three_seats_play_on_after_one_finishes() -> None:
    game = build(rules_of("durak"), ["7c", "9c Kd", "Qs"], "6h")
    game.play("attack 7c")
    game.play("defend 7c with 9c")
    game.play("pass")
    assert game.play("pass").bout_ended
    assert game.finished == [0] and not game.over
    assert (game.attacker, game.defender) == (1, 2)


@pytest.mark.parametrize("rule", [True, False])
def test_trump_ace_last_loses_after_a_move(rule: bool) -> None:
    game = build(rules_of("durak", trump_ace_last_loses=rule), ["7c Ah", "9c Ks", "Qs Js"], "6h")
    record = game.play("attack 7c")
    assert record.game_over is rule
    if rule:
        assert game.loser == 0 and game.scores == [0.0, 1.0, 1.0] and game.to_move is None
        assert [pair.attack for pair in game.table] == parse_cards("7c")  # the game ends mid-bout
    else:
        assert game.to_move == 1


@pytest.mark.parametrize("rule", [True, False])
def test_trump_ace_last_loses_after_the_refill(rule: bool) -> None:
    # The trump card is the ace itself, drawn last from the stock.
    game = build(rules_of("durak", trump_ace_last_loses=rule), ["7c", "9c Kd"], "Ah", stock="")
    game.play("attack 7c")
    game.play("defend 7c with 9c")
    game.play("pass")
    assert game.hands[0] == cards("Ah") and game.stock == []
    if rule:
        assert game.over and game.loser == 0 and game.scores == [0.0, 1.0]
    else:
        assert not game.over and (game.attacker, game.to_move) == (1, 1)


def test_trump_ace_alone_while_the_stock_lasts_is_safe() -> None:
    rules = rules_of("durak", trump_ace_last_loses=True)
    game = build(rules, ["7c Ah", "9c Ks"], "6h", stock="", rest="stock")
    game.play("attack 7c")
    assert not game.over


# -- docs/rules.md §1.5 repetition ------------------------------------------------------------------------


def lead(bout: int) -> str:
    return "attack 7c" if bout % 2 == 0 else "attack 8c"


def cycle_game() -> Game:
    """Three seats, empty stock: each bout the attacker leads a card the defender takes, and
    two cards go round so the bout-start state repeats every six bouts."""
    return build(rules_of("tan"), ["7c Kd", "Ks", "8c Qh"], "2s")


def test_repetition_is_a_draw_at_the_third_occurrence() -> None:
    game = cycle_game()
    start = game.snapshot()
    for bout in range(12):
        assert not game.over, f"bout {bout}"
        if bout == 6:
            assert game.snapshot() == start  # second occurrence
        game.play(lead(bout))
        record = game.play("take")
        assert record.bout_ended
    assert game.over and game.loser is None and game.to_move is None
    assert game.scores == [0.5, 0.5, 0.5]
    assert game.hands == [cards("7c Kd"), cards("Ks"), cards("8c Qh")]


def test_repetition_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reference, "HISTORY_CAP", 3)
    game = cycle_game()
    for bout in range(3):
        assert not game.over
        game.play(lead(bout))
        game.play("take")
    assert game.over and game.loser is None


# -- docs/rules.md §1.2 the deal, §1.6 first attacker ---------------------------------------------------


@pytest.mark.parametrize(("preset", "players"), [("durak", 2), ("tan", 4), ("perevodnoy", 5), ("tan", 3)])
def test_the_deal(preset: str, players: int) -> None:
    rules = rules_of(preset)
    order = random_deck(rules, 7)
    game = Game.deal(rules, players, deck=order)
    dealt = players * rules.hand_size
    for seat in range(players):
        assert game.hands[seat] == set(order[seat:dealt:players])
    assert game.trump == order[dealt]
    assert game.stock == [*order[dealt + 1 :], order[dealt]]
    assert game.known == [set() for _ in range(players)]
    assert game.table == [] and game.discard == [] and game.finished == []
    assert game.defender == (game.attacker + 1) % players and game.to_move == game.attacker
    assert Game.deal(rules, players, seed=7).snapshot() == game.snapshot()


@pytest.mark.parametrize(
    ("preset", "players", "hand_size"), [("durak", 2, 18), ("tan", 4, 13), ("durak", 6, 6)]
)
def test_deal_without_a_card_left_for_trump(preset: str, players: int, hand_size: int) -> None:
    rules = rules_of(preset, hand_size=hand_size)
    order = random_deck(rules, 3)
    game = Game.deal(rules, players, deck=order)
    assert game.stock == []
    assert game.trump == order[-1] and order[-1] in game.hands[players - 1]
    assert game.known[players - 1] == {order[-1]}
    assert sum(len(known) for known in game.known) == 1


def ordered(rules: Rules, first: str) -> list[Card]:
    top = parse_cards(first)
    return top + [card for card in deck(rules.deck) if card not in top]


# Two seats of six cards: seat 0 gets the even places, seat 1 the odd ones; the 13th card is trump.
LOW_TRUMP_SEAT_1 = "7s 6s 8d 8c 9d 9c Td Tc Jd Jc Qd Qc As"
NO_TRUMP_DEALT = "7h 6h 8d 8c 9d 9c Td Tc Jd Jc Qd Qc As"


@pytest.mark.parametrize(
    ("preset", "first", "expected", "why"),
    [
        ("durak", LOW_TRUMP_SEAT_1, 1, LeadReason.LOWEST_TRUMP),
        ("perevodnoy", LOW_TRUMP_SEAT_1, 1, LeadReason.LOWEST_TRUMP),
        ("durak", NO_TRUMP_DEALT, 0, LeadReason.NO_TRUMP),
        ("tan", LOW_TRUMP_SEAT_1, 0, LeadReason.SEAT0),
    ],
)
def test_first_attacker(preset: str, first: str, expected: int, why: LeadReason) -> None:
    """Who leads, and why the game says it does (`lead_reason`, for a client to word)."""
    rules = rules_of(preset, deck=36, hand_size=6)
    game = Game.deal(rules, 2, deck=ordered(rules, first))
    assert game.trump == Card.parse("As")
    assert (game.attacker, game.defender, game.to_move) == (expected, 1 - expected, expected)
    assert (game.leader, game.lead_reason) == (expected, why)
    assert game.clone().lead_reason is why


def test_first_attacker_override() -> None:
    rules = rules_of("durak")
    game = Game.deal(rules, 3, deck=ordered(rules, LOW_TRUMP_SEAT_1), first_attacker=2)
    assert (game.attacker, game.defender, game.to_move) == (2, 0, 2)
    assert game.lead_reason is LeadReason.NAMED
    with pytest.raises(PositionError) as error:
        Game.deal(rules, 3, seed=1, first_attacker=3)
    assert error.value.code == "invalid_seat"


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (lambda cards: [*cards[:-1], cards[0]], "duplicate_card"),
        (lambda cards: [*cards[:-1], Card.parse("2c")], "card_not_in_deck"),
        (lambda cards: cards[:-1], "count_mismatch"),
    ],
)
def test_deal_refuses_a_bad_deck(change: object, code: str) -> None:
    rules = rules_of("durak")
    bad = change(random_deck(rules, 1))  # type: ignore[operator]
    with pytest.raises(PositionError) as error:
        Game.deal(rules, 2, deck=bad)
    assert error.value.code == code


def test_deal_refuses_bad_arguments() -> None:
    with pytest.raises(RulesError):
        Game.deal(rules_of("tan"), 5, seed=1)
    with pytest.raises(ValueError, match="exactly one"):
        Game.deal(rules_of("tan"), 2)
    with pytest.raises(ValueError, match="exactly one"):
        Game.deal(rules_of("tan"), 2, seed=1, deck=random_deck(rules_of("tan"), 1))


@pytest.mark.parametrize(
    ("preset", "players"),
    [(name, n) for name, rules in PRESETS.items() for n in range(rules.min_players, rules.max_players + 1)],
)
def test_whole_random_games_of_every_seat_count(preset: str, players: int) -> None:
    for seed in range(3):
        game = play_random_game(rules_of(preset), players, seed)
        assert game.over and game.scores is not None and len(game.scores) == players
        assert len(game.finished) >= players - 1


# -- verify() and friends ---------------------------------------------------------------------


def test_verify_messages() -> None:
    game = build(rules_of("durak"), ["7c Kd", "9c Ks", "Qs"], "6h")
    with pytest.raises(
        NotYourTurnError, match=r"^seat 1 cannot attack 9c: it is seat 0's turn \(the main attacker\)"
    ):
        game.verify("attack 9c", seat=1)
    with pytest.raises(NotYourTurnError, match="no seat 7"):
        game.verify("pass", seat=7)
    with pytest.raises(IllegalMoveError, match="does not hold Qs"):
        game.verify("attack Qs")
    with pytest.raises(IllegalMoveError, match="must lead a card"):
        game.verify("pass")
    assert game.can("attack 7c") and not game.can("attack Qs") and not game.can("nonsense")
    game.play({"action": "attack", "card": "7c"})
    with pytest.raises(IllegalMoveError, match="must defend, take or transfer"):
        game.verify("pass")
    with pytest.raises(IllegalMoveError, match="Kd is not an undefended attack card"):
        game.verify("defend Kd with Ks")
    game.play("defend 7c with 9c")
    with pytest.raises(IllegalMoveError, match="is throwing in"):
        game.verify("take")
    assert game.verify("pass", seat=0) == Move.pass_()


def test_clone_is_independent() -> None:
    game = Game.deal(rules_of("perevodnoy"), 3, seed=5)
    copy = game.clone()
    copy.play(copy.legal_moves()[0])
    assert game.snapshot() == Game.deal(rules_of("perevodnoy"), 3, seed=5).snapshot()
    assert copy.snapshot() != game.snapshot()


def test_snapshot_form() -> None:
    game = build(rules_of("durak"), ["7c Kd", "9c"], "6h")
    snap = game.snapshot()
    assert snap["hands"] == [sorted(c.index for c in cards("7c Kd")), [Card.parse("9c").index]]
    assert snap["to_move"] == 0 and snap["loser"] == -1 and snap["scores"] is None and snap["stock"] == []
    game.play("attack 7c")
    game.play("defend 7c with 9c")
    snap = game.snapshot()
    assert snap["over"] and snap["to_move"] == -1 and snap["loser"] == 0 and snap["scores"] == [0.0, 1.0]
    assert snap["table"] == [] and snap["passed"] == [] and not snap["taking"]


def test_from_parts_refuses_inconsistent_states() -> None:
    rules = rules_of("durak")
    with pytest.raises(PositionError) as error:
        build(rules, ["7c", "9c"], "6h", to_move=1)
    assert error.value.code == "inconsistent_turn"
    with pytest.raises(PositionError) as error:
        Game.from_parts(rules, 2, ["7c", "9c"], [], "6h", discard=deck(36)[:10])
    assert error.value.code == "count_mismatch"
    with pytest.raises(PositionError) as error:
        build(rules, ["7c 6h", "9c"], "6h", stock="")
    assert error.value.code == "duplicate_card"


# -- perft: move-tree sizes from fixed deals ------------------------------------------------------


def perft(game: Game, depth: int) -> int:
    """Leaf nodes of the move tree `depth` plies deep (lines that end the game earlier count 0)."""
    if depth == 0:
        return 1
    total = 0
    for move in game.legal_moves():
        child = game.clone()
        child.play(move)
        total += perft(child, depth - 1)
    return total


# Checked by hand to depth 2 (see the test's docstring); deeper levels pin the current rules.
PERFT = {
    ("durak", 2): [6, 8, 11, 51, 117, 240],
    ("tan", 2): [8, 30, 92, 455, 1365, 6128],
    ("perevodnoy", 3): [6, 21, 49, 101, 253, 678],
}


@pytest.mark.parametrize(("preset", "players"), list(PERFT))
def test_perft(preset: str, players: int) -> None:
    """Seed 1 deals. durak: seat 0 leads (lowest trump 8s) one of 6 cards; seat 1 can beat
    7d (Td) and 8h (Ah) and take anything: 2+2+1+1+1+1 = 8. tan: seat 0 leads one of 8;
    seat 1 answers 4s five ways, 5d/8h/Jd/Kd three ways, 6c two, Qc one, Qh two, plus a take
    each: 30. perevodnoy: seat 2 leads (6d) one of 6 into seat 0 (no 6 to transfer):
    5+2+3+5+3+3 = 21."""
    game = Game.deal(rules_of(preset), players, seed=1)
    assert [perft(game, depth) for depth in range(1, 7)] == PERFT[(preset, players)]


def test_perft_through_the_setup() -> None:
    """tan with trump swap, take when beaten, redeal and twos last, seed 3: both seats hold a
    trump, yet each is asked in the redeal round and may only keep (1, 1: docs/rules.md §1.7).
    Seat 0 holds the 2 of hearts under the Kh, so the swap round starts with swap or keep (2).
    Kept, seat 1 is asked and may only keep; swapped, the lead passes to seat 1, which leads one
    of seven (its 2 held back): 1 + 7 = 8. Deeper levels pin the rules, and the core counts the
    same tree."""
    from solver.core import CoreGame

    def core_perft(game: CoreGame, depth: int) -> int:
        if depth == 0:
            return 1
        total = 0
        for code in game.legal_codes():
            child = game.copy()
            child.play(code)
            total += core_perft(child, depth - 1)
        return total

    rules = rules_of("tan", trump_swap=True, take_when_beaten=True, redeal_without_trump=True, twos_last=True)
    deck = random_deck(rules, 3)
    game = Game.deal(rules, 2, deck=deck, chance_seed=3)
    core = CoreGame.deal(rules, 2, [card.index for card in deck], chance_seed=3)
    counts = [perft(game, depth) for depth in range(1, 8)]
    assert counts == [1, 1, 2, 8, 28, 102, 314]
    assert [core_perft(core, depth) for depth in range(1, 8)] == counts
