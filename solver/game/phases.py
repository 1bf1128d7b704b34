"""The game's phases, and the rule questions at their edges, asked on public fields.

A game is in its setup (`Phase.SETUP`, docs/rules.md §1.7) until the first lead,
then in play (`Phase.PLAY`) until it ends (§1.5). Whether a redeal is offered,
which setup decisions the other seats may not see, whether a hand of trumps
has won, whether the trump ace left alone has lost, who lost and what every
seat scores need only the rules, counts and the cards a seat can see, so the
readable engine (`solver.game.reference`), a seat's position
(`solver.game.position`), the record reader and the service ask them here, as
they ask `solver.game.bout` about the bout. Whether a game has a setup at all
is `Rules.has_setup`.

The Cython core (`solver/core/_core.pyx`) runs without the interpreter, so it
mirrors these functions over bit sets (each mirror names its source here) and
reads `Rules.has_setup` when it converts the rules; the differential tests hold
it to the readable engine on every state.
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Sequence

from solver.game.cards import Card, Suit
from solver.game.moves import Action, Move
from solver.game.rules import Rules

__all__ = [
    "Chance",
    "LeadReason",
    "Phase",
    "all_trumps_win",
    "chance_of",
    "final_scores",
    "game_loser",
    "nothing_to_decide",
    "redeal_asked",
    "redeal_offered",
    "secret_decision",
    "seen_by",
    "swap_asked",
    "trump_ace_loses",
]


class Phase(enum.StrEnum):
    """Where a game stands: in its setup before the first lead (docs/rules.md §1.7), or in play."""

    SETUP = "setup"
    PLAY = "play"


class LeadReason(enum.StrEnum):
    """Why a seat leads a game's first bout (docs/rules.md §1.2, §1.7, §1.9): stable, so a client
    says it in its own words without working it out (the reference engine sets it when it deals,
    `Game.lead_reason`); `meaning` in a phrase."""

    SEAT0 = "seat0"
    LOWEST_TRUMP = "lowest_trump"
    NO_TRUMP = "no_trump"
    NAMED = "named"
    LAST_WINNER = "last_winner"
    DEALER = "dealer"
    FIRST_SEAT = "first_seat"
    TRUMP_SWAP = "trump_swap"

    @property
    def meaning(self) -> str:
        """What the reason says, in a phrase (for the API's manual)."""
        return _LEAD_MEANING[self]


_LEAD_MEANING: dict[LeadReason, str] = {
    LeadReason.SEAT0: "the rules' `first_attacker` is seat0 (§1.2)",
    LeadReason.LOWEST_TRUMP: "the seat was dealt the lowest trump (`first_attacker` lowest_trump, §1.2)",
    LeadReason.NO_TRUMP: "nobody was dealt a trump, so seat 0 leads (`first_attacker` lowest_trump, §1.2)",
    LeadReason.NAMED: "the game was dealt with its first attacker named",
    LeadReason.LAST_WINNER: "a match's later game: the last game's winner leads (§1.9)",
    LeadReason.DEALER: "a match's later game after one with no winner: the dealer leads (§1.9)",
    LeadReason.FIRST_SEAT: "the others' game after a trump repeat, the last winner not in it: its first "
    "seat (§1.9)",
    LeadReason.TRUMP_SWAP: "the seat after the one that swapped the lowest trump (`trump_swap_cedes_lead`, "
    "§1.7)",
}


class Chance(enum.StrEnum):
    """What a seat's expected score (docs/rules.md §1.5) is the chance of, so that a client words
    a hint's, an evaluation's and a review's numbers alike; `meaning` in a phrase."""

    WIN = "win"
    NOT_LOSER = "not_loser"

    @property
    def meaning(self) -> str:
        return {
            Chance.WIN: "with two seats: the chance to win, a draw counting half",
            Chance.NOT_LOSER: "with three seats or more: the chance of not being the loser (every seat "
            "but the loser scores 1), a draw counting half",
        }[self]


def chance_of(players: int) -> Chance:
    """What the expected scores of a game of `players` seats are the chance of (`Chance`)."""
    return Chance.WIN if players == 2 else Chance.NOT_LOSER


def redeal_asked(rules: Rules, redealt: bool, stock: int) -> bool:
    """A seat is asked in the xả chủ round (docs/rules.md §1.7): the rule is on, the seat has not
    redealt yet, and the stock of `stock` cards holds two new hands above the trump card at its
    bottom. Only public facts decide it, so every seat is asked alike whatever it holds, and
    nobody learns from being kept waiting who holds a trump; the seat's hand decides only whether
    it may redeal (`redeal_offered`) or just keep."""
    return rules.redeal_without_trump and not redealt and stock - 1 >= 2 * rules.hand_size


def redeal_offered(rules: Rules, holds_trump: bool, redealt: bool, stock: int) -> bool:
    """xả chủ (docs/rules.md §1.7) is offered to a seat asked (`redeal_asked`) that holds no trump."""
    return redeal_asked(rules, redealt, stock) and not holds_trump


def swap_asked(rules: Rules, stock: int, trump_card_is_low: bool) -> bool:
    """The đổi 2 chủ round is held (docs/rules.md §1.7): the rule is on, the trump card lies under
    a stock of `stock` cards and is not itself the deck's lowest trump. Then every seat is asked in
    turn, whoever holds the lowest trump (even nobody: it may lie in the stock), so the others'
    wait tells nothing; only its holder may swap, every other seat just keeps."""
    return rules.trump_swap and stock > 0 and not trump_card_is_low


def secret_decision(step: str | None) -> bool:
    """Whether a seat's decision at this setup step is hidden from the others until it is made
    (docs/rules.md §1.7): whether to redeal, whether to swap. A pick follows a redeal everyone saw."""
    return step in ("redeal", "swap")


def nothing_to_decide(moves: Sequence[Move]) -> bool:
    """A seat asked in the setup with no choice: `keep` is its only move (docs/rules.md §1.7). A
    record leaves such a keep out, as a real table never hears it, and its replay keeps for it."""
    return len(moves) == 1 and moves[0].action is Action.KEEP


def seen_by(move: Move, mover: int, viewer: int) -> bool:
    """Whether `viewer` sees `mover` play `move`: every move but another seat's keep in the setup,
    which nobody else learns of (docs/rules.md §1.7)."""
    return move.action is not Action.KEEP or mover == viewer


def all_trumps_win(rules: Rules, hand: Collection[Card], trump_suit: Suit, redealt: bool) -> bool:
    """thắng trắng (docs/rules.md §1.7): this hand, shown before the first lead, wins the game at
    once: the rule is on, the hand is a full one of nothing but trumps, and not a redealt seat's."""
    return (
        rules.all_trumps_wins
        and not redealt
        and len(hand) >= rules.hand_size
        and all(card.suit == trump_suit for card in hand)
    )


def trump_ace_loses(rules: Rules, stock: int) -> bool:
    """thối A chủ (docs/rules.md §1.5) is in force: the rule is on and the stock is empty, so an
    active seat left holding only the trump ace loses at once."""
    return rules.trump_ace_last_loses and stock == 0


def game_loser(rules: Rules, stock: int, holding: Sequence[int], ace_alone: Sequence[int]) -> int | None:
    """The loser of a finished game (docs/rules.md §1.5), None for a draw.

    `holding`: the active seats still holding cards; `ace_alone`: those of them whose only card
    is the trump ace. A trump ace left alone loses where `trump_ace_loses`; otherwise the one
    seat still holding cards lost, and several (a repetition) or none drew.
    """
    if trump_ace_loses(rules, stock) and ace_alone:
        return ace_alone[0]
    if len(holding) == 1:
        return holding[0]
    return None


def final_scores(
    players: int, loser: int | None, trumps_winner: int | None, drawn: Collection[int]
) -> list[float]:
    """docs/rules.md §1.5 scores of a finished game, by seat.

    A loser scores 0 and every other seat 1. A win by a hand of trumps (§1.7,
    `trumps_winner`, with no loser): the winner 1, every other seat 0. A draw:
    the `drawn` seats 0.5 (those still playing when the last bout began), the
    seats that had finished before 1.
    """
    if loser is not None:
        return [0.0 if seat == loser else 1.0 for seat in range(players)]
    if trumps_winner is not None:
        return [1.0 if seat == trumps_winner else 0.0 for seat in range(players)]
    return [0.5 if seat in drawn else 1.0 for seat in range(players)]
