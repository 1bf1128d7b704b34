"""Games for the tests: every preset with option mixes, and random games walked in both engines."""

from __future__ import annotations

import random
from collections.abc import Iterator

from solver.core import CoreGame
from solver.game.cards import deck, parse_cards
from solver.game.reference import Game, random_deck
from solver.game.rules import Rules

# Every preset alone, then option mixes that together touch every option.
VARIANTS: list[tuple[str, dict[str, object]]] = [
    ("tan", {}),
    ("durak", {}),
    ("perevodnoy", {}),
    ("tan", {"transfer": True, "trump_ace_last_loses": True}),
    ("durak", {"first_bout_max_attack": 5, "defender_empty": "refill"}),
    ("perevodnoy", {"throw_in_after_take": False, "refill_order": "attacker_defender_others"}),
    ("tan", {"max_attack": 4, "throw_in_after_take": True, "first_attacker": "lowest_trump"}),
    ("durak", {"trump_ace_last_loses": True, "first_attacker": "seat0", "transfer": True}),
    ("tan", {"defender_empty": "refill", "first_bout_max_attack": 3}),
    ("perevodnoy", {"max_attack": 1}),  # transfers may pass a cap below 4
    ("perevodnoy", {"first_bout_max_attack": 2, "defender_empty": "refill"}),
    # Who may throw in (docs/rules.md §1.4): the defender's neighbours, or the main attacker alone.
    ("durak", {"throwers": "neighbours"}),
    ("durak", {"throwers": "attacker"}),
    ("perevodnoy", {"throwers": "neighbours", "take_when_beaten": True, "defender_empty": "refill"}),
    ("tan", {"throwers": "attacker", "take_when_beaten": True}),
    # The seeds' side rules (docs/rules.md §1.7-§1.8), each alone, then mixed.
    ("tan", {"redeal_without_trump": True}),
    ("tan", {"tribute": True}),
    ("tan", {"all_trumps_wins": True}),
    ("tan", {"trump_swap": True}),
    ("durak", {"trump_swap": True}),
    ("tan", {"take_when_beaten": True}),
    ("tan", {"twos_last": True}),
    ("tan", {"redeal_without_trump": True, "tribute": True, "all_trumps_wins": True, "trump_swap": True,
             "take_when_beaten": True, "twos_last": True, "trump_ace_last_loses": True}),
    ("perevodnoy", {"redeal_without_trump": True, "trump_swap": True, "take_when_beaten": True,
                    "all_trumps_wins": True, "tribute": True}),
]


def variants() -> Iterator[tuple[Rules, int]]:
    """Every variant at every seat count its rules allow."""
    for preset, options in VARIANTS:
        rules = Rules.preset_named(preset, **options)
        for players in range(rules.min_players, rules.max_players + 1):
            yield rules, players


def twin_games(rules: Rules, players: int, seed: int) -> Iterator[tuple[Game, CoreGame]]:
    """One random game dealt and played in the reference and the core side by side.

    Yields both at every state, the finished one included; the moves are
    drawn from the reference's legal moves with `random.Random(seed)`; the
    chance events follow `seed` in both, and a `tribute` game is dealt as if
    seat 1 owed seat 0 one.
    """
    rng = random.Random(seed)
    deck = random_deck(rules, seed)
    tribute = (1, 0) if rules.tribute else None  # as if seat 1 lost the last game and seat 0 won it
    reference = Game.deal(rules, players, deck=deck, tribute=tribute, chance_seed=seed)
    core = CoreGame.deal(rules, players, [card.index for card in deck], tribute=tribute, chance_seed=seed)
    while True:
        yield reference, core
        if reference.over:
            return
        move = rng.choice(reference.legal_moves())
        reference.play(move)
        core.play(move)


def ordered_deck(
    rules: Rules, hands: list[list[str]], trump: str, stock_top: list[str] | tuple[str, ...] = ()
) -> list[str]:
    """A deck (top first) that deals exactly `hands` (docs/rules.md §1.2), turns up `trump`, and
    puts `stock_top` on top of the stock, then every other card in deck order."""
    players = len(hands)
    parsed = [parse_cards(hand) for hand in hands]
    assert all(len(hand) == rules.hand_size for hand in parsed)
    dealt = [parsed[i % players][i // players] for i in range(players * rules.hand_size)]
    top = parse_cards(list(stock_top))
    trump_card = parse_cards([trump])[0]
    used = set(dealt) | set(top) | {trump_card}
    assert len(used) == len(dealt) + len(top) + 1, "a card is given twice"
    rest = [card for card in deck(rules.deck) if card not in used]
    return [str(card) for card in [*dealt, trump_card, *top, *rest]]
