"""Cards: parsing, canonical printing, decks and beating (docs/rules.md §1.1, §1.3)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.game.cards import Card, CardError, Rank, Suit, deck, format_cards, parse_cards
from solver.game.errors import TanError

ALL_CARDS = deck(52)
cards = st.sampled_from(ALL_CARDS)
suits = st.sampled_from(list(Suit))


# -- parsing -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("6s", "6s"),
        ("Th", "Th"),
        ("Ad", "Ad"),
        ("2c", "2c"),
        ("10h", "Th"),
        ("10S", "Ts"),
        ("th", "Th"),
        ("qS", "Qs"),
        ("QS", "Qs"),
        ("kd", "Kd"),
        ("aC", "Ac"),
        ("jH", "Jh"),
        ("A♠", "As"),
        ("7♥", "7h"),
        ("9♦", "9d"),
        ("K♣", "Kc"),
        ("A♤", "As"),
        ("7♡", "7h"),
        ("9♢", "9d"),
        ("K♧", "Kc"),
        ("10♡", "Th"),
        ("  6s  ", "6s"),
        ("\t6s\n", "6s"),
        ("10 h", "Th"),
        ("A ♠", "As"),
        ("A♠\ufe0f", "As"),  # emoji presentation of the suit symbol, as phones type it
    ],
)
def test_parse_accepts_loose_input_and_prints_canonically(text: str, canonical: str) -> None:
    card = Card.parse(text)
    assert str(card) == canonical
    assert Card.parse(canonical) == card


@pytest.mark.parametrize(
    "text",
    ["", "   ", "6", "s", "1s", "11s", "0s", "66s", "6sx", "6 s s", "Xs", "6x", "Bh", "6 ♠♠", "sixs", "T10"],
)
def test_parse_refuses_and_quotes_the_text(text: str) -> None:
    with pytest.raises(CardError) as caught:
        Card.parse(text)
    assert repr(text) in str(caught.value)
    assert caught.value.code == "invalid_card"


@pytest.mark.parametrize("value", [None, 6, 6.5, ["6s"], b"6s"])
def test_parse_refuses_non_text(value: object) -> None:
    with pytest.raises(CardError, match="not a card"):
        Card.parse(value)  # type: ignore[arg-type]


def test_card_error_is_a_value_error() -> None:
    assert issubclass(CardError, TanError)
    assert issubclass(CardError, ValueError)
    with pytest.raises(ValueError):
        Card.parse("zz")


def test_bad_suit_message_names_the_suit() -> None:
    with pytest.raises(CardError, match=r"'6x'.*not a suit: 'x'"):
        Card.parse("6x")


def test_parse_passes_a_card_through() -> None:
    card = Card.parse("Qh")
    assert Card.parse(card) is card


@given(cards)
def test_every_card_round_trips_through_text(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert Card.parse(str(card).lower()) == card
    assert Card.parse(str(card).upper()) == card
    assert Card.parse(f"{card.rank.letter}{card.suit.symbol}") == card


@given(cards)
def test_repr_round_trips(card: Card) -> None:
    assert eval(repr(card)) == card


@given(cards, st.sampled_from(["", " ", "  ", "\t"]), st.sampled_from(["", " ", "\n"]))
def test_surrounding_whitespace_is_ignored(card: Card, before: str, after: str) -> None:
    assert Card.parse(f"{before}{card}{after}") == card


def test_rank_and_suit_parsing() -> None:
    assert Rank.parse("10") is Rank.TEN
    assert Rank.parse("t") is Rank.TEN
    assert Rank.parse(" a ") is Rank.ACE
    assert Suit.parse("S") is Suit.SPADES
    assert Suit.parse("♡") is Suit.HEARTS
    assert Suit.parse("♢") is Suit.DIAMONDS
    assert Suit.parse("♧") is Suit.CLUBS
    with pytest.raises(CardError, match="'1'"):
        Rank.parse("1")
    with pytest.raises(CardError, match="'x'"):
        Suit.parse("x")
    assert [str(rank) for rank in Rank] == list("23456789TJQKA")
    assert [str(suit) for suit in Suit] == list("shdc")
    assert [suit.symbol for suit in Suit] == list("♠♥♦♣")


# -- indices and decks ---------------------------------------------------------------------


def test_index_is_suit_times_13_plus_rank() -> None:
    assert Card.parse("2s").index == 0
    assert Card.parse("As").index == 12
    assert Card.parse("2h").index == 13
    assert Card.parse("6d").index == 2 * 13 + 4
    assert Card.parse("Ac").index == 51
    for index in range(52):
        assert Card.from_index(index).index == index


@pytest.mark.parametrize("index", [-1, 52, 64])
def test_from_index_refuses_out_of_range(index: int) -> None:
    with pytest.raises(CardError, match=str(index)):
        Card.from_index(index)


def test_52_card_deck() -> None:
    cards_ = deck(52)
    assert len(cards_) == len(set(cards_)) == 52
    assert [card.index for card in cards_] == list(range(52))
    assert str(cards_[0]) == "2s" and str(cards_[-1]) == "Ac"


def test_36_card_deck_has_six_to_ace() -> None:
    cards_ = deck(36)
    assert len(cards_) == len(set(cards_)) == 36
    assert {card.rank for card in cards_} == set(Rank) - {Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE}
    assert all(sum(card.suit is suit for card in cards_) == 9 for suit in Suit)
    assert cards_ == sorted(cards_)
    assert str(cards_[0]) == "6s" and str(cards_[-1]) == "Ac"


@pytest.mark.parametrize("size", [0, 32, 35, 53, 54])
def test_other_deck_sizes_are_refused(size: int) -> None:
    with pytest.raises(ValueError, match=str(size)):
        deck(size)


def test_deck_returns_a_fresh_list() -> None:
    first = deck(36)
    first.pop()
    assert len(deck(36)) == 36


# -- order, equality, hashing ---------------------------------------------------------------


@given(cards, cards)
def test_order_follows_the_index(a: Card, b: Card) -> None:
    assert (a < b) == (a.index < b.index)
    assert (a <= b) == (a.index <= b.index)
    assert (a > b) == (a.index > b.index)
    assert (a == b) == (a.index == b.index)


def test_cards_are_hashable_and_immutable() -> None:
    assert len({Card.parse("6s"), Card.parse("6♠"), Card.parse("6S")}) == 1
    card = Card.parse("6s")
    with pytest.raises(AttributeError):
        card.rank = Rank.ACE  # type: ignore[misc]


# -- beating (docs/rules.md §1.3) --------------------------------------------------------------------


def test_beats_examples() -> None:
    c = Card.parse
    trump = Suit.DIAMONDS
    assert c("9c").beats(c("7c"), trump)  # same suit, higher
    assert not c("7c").beats(c("9c"), trump)  # same suit, lower
    assert not c("7c").beats(c("7c"), trump)  # not itself
    assert not c("Ac").beats(c("7h"), trump)  # other suit, not trump
    assert c("6d").beats(c("Ac"), trump)  # any trump beats a non-trump
    assert not c("Ac").beats(c("6d"), trump)  # a non-trump never beats a trump
    assert c("7d").beats(c("6d"), trump)  # trump by a higher trump
    assert not c("6d").beats(c("7d"), trump)  # but not by a lower one


@given(cards, cards, suits)
def test_beats_matches_the_rule(d: Card, a: Card, trump: Suit) -> None:
    expected = (d.suit == a.suit and d.rank > a.rank) or (d.suit == trump and a.suit != trump)
    assert d.beats(a, trump) == expected


@given(cards, cards, suits)
def test_beating_is_antisymmetric(d: Card, a: Card, trump: Suit) -> None:
    assert not (d.beats(a, trump) and a.beats(d, trump))


@given(cards, suits)
def test_a_trump_is_beaten_only_by_a_higher_trump(a: Card, trump: Suit) -> None:
    beaters = {d for d in ALL_CARDS if d.beats(a, trump)}
    if a.suit == trump:
        assert beaters == {d for d in ALL_CARDS if d.suit == trump and d.rank > a.rank}
    else:
        assert {d for d in ALL_CARDS if d.suit == trump} <= beaters


# -- many cards ----------------------------------------------------------------------------


def test_parse_cards_from_text_and_lists() -> None:
    assert format_cards(parse_cards("6s 10h, q♣,,  A♢")) == ["6s", "Th", "Qc", "Ad"]
    assert format_cards(parse_cards(["6s", Card.parse("7h")])) == ["6s", "7h"]
    assert parse_cards("") == []
    assert parse_cards([]) == []


def test_parse_cards_names_the_bad_card() -> None:
    with pytest.raises(CardError, match="'7z'"):
        parse_cards("6s 7z 8h")


@given(st.lists(cards))
def test_format_then_parse_round_trips(hand: list[Card]) -> None:
    assert parse_cards(format_cards(hand)) == hand
    assert parse_cards(" ".join(format_cards(hand))) == hand
