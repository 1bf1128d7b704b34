"""Games for the tests: every preset with option mixes, and random games walked in both engines."""

from __future__ import annotations

import random
from collections.abc import Iterator

from solver.core._core import CoreGame
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
    drawn from the reference's legal moves with `random.Random(seed)`.
    """
    rng = random.Random(seed)
    deck = random_deck(rules, seed)
    reference = Game.deal(rules, players, deck=deck)
    core = CoreGame.deal(rules, players, [card.index for card in deck])
    while True:
        yield reference, core
        if reference.over:
            return
        move = rng.choice(reference.legal_moves())
        reference.play(move)
        core.play(move)
