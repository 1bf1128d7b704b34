"""The reference and the Cython core agree on every legal-move list and transition.

Both implementations are dealt the same deck and driven through the same
random games of every preset, seat count and option; at every state their
legal moves and their canonical snapshots must be identical (BENCHMARKS.md, quality bars, rules
bar). `make test` runs a few thousand states; `-m long` runs a million.
"""

from __future__ import annotations

import pytest

from solver.game.rules import Rules
from tests.support.games import twin_games, variants


def drive(rules: Rules, players: int, seed: int) -> int:
    """Play one random game in both implementations; returns the states compared."""
    states = 0
    for reference, core in twin_games(rules, players, seed):
        states += 1
        assert core.snapshot() == reference.snapshot(), f"state {states} of seed {seed}: snapshots differ"
        assert core.legal_moves() == reference.legal_moves(), f"state {states} of seed {seed}: moves differ"
    return states


@pytest.mark.parametrize(("rules", "players"), list(variants()), ids=lambda x: getattr(x, "preset", x))
def test_core_agrees_with_reference(rules: Rules, players: int) -> None:
    states = 0
    seed = 0
    while states < 600:
        states += drive(rules, players, seed * 1000 + players)
        seed += 1


@pytest.mark.long
def test_core_agrees_with_reference_on_a_million_states() -> None:
    """The rules bar: at least 1,000,000 states across all presets and seat counts."""
    all_cases = list(variants())
    states = 0
    seed = 10_000
    while states < 1_000_000:
        rules, players = all_cases[seed % len(all_cases)]
        states += drive(rules, players, seed)
        seed += 1
    print(f"\ndifferential: {states} states agreed over {seed - 10_000} games")
