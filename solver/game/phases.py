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
    "Phase",
    "all_trumps_win",
    "final_scores",
    "game_loser",
    "redeal_offered",
    "secret_decision",
    "seen_by",
    "trump_ace_loses",
]


class Phase(enum.StrEnum):
    """Where a game stands: in its setup before the first lead (docs/rules.md §1.7), or in play."""

    SETUP = "setup"
    PLAY = "play"


def redeal_offered(rules: Rules, holds_trump: bool, redealt: bool, stock: int) -> bool:
    """xả chủ (docs/rules.md §1.7) is offered to a seat: the rule is on, the seat holds no trump
    and has not redealt yet, and the stock of `stock` cards holds two new hands above the trump
    card at its bottom."""
    return rules.redeal_without_trump and not holds_trump and not redealt and stock - 1 >= 2 * rules.hand_size


def secret_decision(step: str | None) -> bool:
    """Whether a seat's decision at this setup step is hidden from the others until it is made
    (docs/rules.md §1.7): whether to redeal, whether to swap. A pick follows a redeal everyone saw."""
    return step in ("redeal", "swap")


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
