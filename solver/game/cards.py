"""Cards, ranks, suits and decks (docs/rules.md §1.1).

A card is a small immutable value. It prints canonically (`6s`, `Th`, `Ad`)
and parses loosely (`10h`, `qS`, `A♠`, `7♡`), so people and programs can both
type cards while everything Tấn writes stays in one spelling.

Every card also has an *index* `suit * 13 + rank` in 0…51. The Cython core
keeps hands as 64-bit sets of these indices; this module is the one place the
numbering is defined.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import total_ordering

from solver.game.errors import CardError

__all__ = [
    "Card",
    "CardError",
    "Rank",
    "Suit",
    "deck",
    "format_cards",
    "parse_cards",
]


class Suit(enum.IntEnum):
    """The four suits; the value is the suit's block in the card index."""

    SPADES = 0  # ♠ bích
    HEARTS = 1  # ♥ cơ
    DIAMONDS = 2  # ♦ rô
    CLUBS = 3  # ♣ chuồn / nhép

    @property
    def letter(self) -> str:
        return "shdc"[self.value]

    @property
    def symbol(self) -> str:
        return "♠♥♦♣"[self.value]

    @classmethod
    def parse(cls, text: str) -> Suit:
        key = text.strip().lower()
        if key in _SUIT_TEXT:
            return _SUIT_TEXT[key]
        raise CardError(f"not a suit: {text!r} (expected one of s h d c or ♠♥♦♣)")

    def __str__(self) -> str:
        return self.letter


_SUIT_TEXT: dict[str, Suit] = {}
for _suit, _symbols in zip(Suit, ("♠♤", "♥♡", "♦♢", "♣♧"), strict=True):
    _SUIT_TEXT[_suit.letter] = _suit
    for _symbol in _symbols:
        _SUIT_TEXT[_symbol] = _suit


class Rank(enum.IntEnum):
    """Ranks from low to high; `TWO` is 0 so a rank is its place in the order."""

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def letter(self) -> str:
        return "23456789TJQKA"[self.value]

    @classmethod
    def parse(cls, text: str) -> Rank:
        key = text.strip().upper()
        if key == "10":
            key = "T"
        if len(key) == 1 and key in "23456789TJQKA":
            return cls("23456789TJQKA".index(key))
        raise CardError(f"not a rank: {text!r} (expected 2-9, T or 10, J, Q, K, A)")

    def __str__(self) -> str:
        return self.letter


# A suit symbol may carry a variation selector (U+FE0E text, U+FE0F emoji
# presentation), as phones and many editors type `♠️`; it is not part of the suit.
_CARD_RE = re.compile(r"^\s*(10|[2-9TJQKAtjqka])\s*(\S)[\ufe0e\ufe0f]?\s*$")


@total_ordering
@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. Ordered by index (suit, then rank) for stable sorting."""

    rank: Rank
    suit: Suit

    @classmethod
    def parse(cls, text: str | Card) -> Card:
        """Read a card such as `6s`, `10h`, `qS`, `A♠`; raise `CardError` if not one."""
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise CardError(f"not a card: {text!r} (expected text such as '6s')")
        match = _CARD_RE.match(text)
        if match is None:
            raise CardError(f"not a card: {text!r} (expected rank then suit, e.g. '6s', '10h', 'Q♥')")
        try:
            return cls(Rank.parse(match.group(1)), Suit.parse(match.group(2)))
        except CardError as error:
            raise CardError(f"not a card: {text!r} ({error})") from None

    @classmethod
    def from_index(cls, index: int) -> Card:
        if not 0 <= index < 52:
            raise CardError(f"not a card index: {index!r} (expected 0-51)")
        return _CARDS[index]

    @property
    def index(self) -> int:
        """Position of the card in the 64-bit card sets of the core."""
        return self.suit.value * 13 + self.rank.value

    def beats(self, other: Card, trump: Suit) -> bool:
        """docs/rules.md §1.3: same suit and higher, or trump over non-trump."""
        if self.suit == other.suit:
            return self.rank > other.rank
        return self.suit == trump

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    def __str__(self) -> str:
        return f"{self.rank.letter}{self.suit.letter}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


_CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in Rank)


def deck(size: int) -> list[Card]:
    """The cards of a 36- or 52-card deck, in index order (docs/rules.md §1.1)."""
    if size == 52:
        low = Rank.TWO
    elif size == 36:
        low = Rank.SIX
    else:
        raise ValueError(f"no {size}-card deck: Tấn plays with 36 or 52 cards")
    return [card for card in _CARDS if card.rank >= low]


def parse_cards(items: str | Iterable[str | Card]) -> list[Card]:
    """Read many cards: a list of texts, or one text separated by spaces or commas."""
    if isinstance(items, str):
        items = [part for part in re.split(r"[\s,]+", items) if part]
    return [Card.parse(item) if not isinstance(item, Card) else item for item in items]


def format_cards(cards: Iterable[Card]) -> list[str]:
    """Canonical texts of cards, in the order given."""
    return [str(card) for card in cards]
