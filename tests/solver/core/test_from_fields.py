"""`CoreGame.from_fields` builds the same mid-game state as the reference's `Game.from_parts`.

The search builds every world it plays from a seat's position this way, so a
state taken from the middle of a random game — a take under way, passes,
transfers, finished seats — must give the same legal moves and the same
snapshot in both, and stay equal to the end of the game.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from solver.core import CoreGame
from solver.game.reference import Game, SetupState
from solver.game.rules import Rules
from tests.support.games import twin_games, variants
from tests.support.sweeps import sampled

PLIES_AFTER = 30  # moves played on from each rebuilt state (the differential test plays whole games)


def rebuilt(game: Game) -> tuple[Game, CoreGame]:
    """The reference game's current state, built afresh in both implementations."""
    table = [(pair.attack, pair.defense) for pair in game.table]
    setup = None
    if game.phase == "setup":
        sets = None if game.redeal_sets is None else (tuple(game.redeal_sets[0]), tuple(game.redeal_sets[1]))
        assert game.setup_step is not None
        setup = SetupState(game.setup_step, game.leader, tuple(sorted(game.redealt)), sets, tuple(game.shown),
                           game.tribute)
    reference = Game.from_parts(
        game.rules, game.players, [set(hand) for hand in game.hands], list(game.stock), game.trump,
        discard=list(game.discard), table=table, attacker=game.attacker, defender=game.defender,
        to_move=game.to_move, taking=game.taking, passed=game.passed, finished=game.finished,
        defended_once=game.defended_once, known=[set(cards) for cards in game.known], setup=setup,
    )
    core = CoreGame.from_fields(
        game.rules, game.players, [[card.index for card in hand] for hand in game.hands],
        [card.index for card in game.stock], game.trump.index,
        [(attack.index, -1 if defense is None else defense.index) for attack, defense in table],
        attacker=game.attacker, defender=game.defender,
        to_move=-1 if game.to_move is None else game.to_move, taking=game.taking,
        passed=sorted(game.passed), finished=game.finished, defended_once=game.defended_once, setup=setup,
    )
    return reference, core


def features(game: Game) -> set[str]:
    """Which of the hard cases a mid-game state shows."""
    found = set()
    if game.taking:
        found.add("taking")
    if game.passed:
        found.add("passed")
    if game.finished:
        found.add("finished")
    if game.phase == "setup":
        found.add(f"setup:{game.setup_step}")
    if game.rules.take_when_beaten and game.table and game.to_move == game.defender and not any(
        pair.defense is None for pair in game.table
    ):
        found.add("last_word")
    if len(game.table) >= 2 and all(pair.defense is None for pair in game.table) and len(
        {pair.attack.rank for pair in game.table}
    ) == 1 and game.rules.transfer:
        found.add("transfer")
    return found


@pytest.mark.parametrize(
    ("rules", "players"), sampled(variants(), 8, "rebuild"), ids=lambda x: getattr(x, "preset", x)
)
def test_a_state_rebuilt_mid_game_plays_on_alike(rules: Rules, players: int) -> None:
    for seed in range(3):
        rng = random.Random(f"rebuild-{seed}")
        for reference, _core in twin_games(rules, players, 9100 + seed):
            if reference.over or rng.random() > (0.5 if features(reference) else 0.05):
                continue
            rebuilt_reference, core = rebuilt(reference)
            walk = random.Random(seed)
            for _ply in range(PLIES_AFTER):
                assert core.snapshot() == rebuilt_reference.snapshot()
                moves = rebuilt_reference.legal_moves()
                assert core.legal_moves() == moves
                if rebuilt_reference.over:
                    break
                move = walk.choice(moves)
                rebuilt_reference.play(move)
                core.play(move)


def test_the_hard_cases_are_all_covered() -> None:
    """Across the variants the rebuilt states include takes, passes, transfers and finished seats."""
    seen: Counter[str] = Counter()
    for rules, players in variants():
        # A redeal needs a seat dealt no trump that then redeals: rarer than the other cases.
        for seed in range(12 if rules.redeal_without_trump else 3):
            for reference, _core in twin_games(rules, players, 9100 + seed):
                seen.update(features(reference))
    wanted = {"taking", "passed", "finished", "transfer", "last_word"}
    wanted |= {"setup:redeal", "setup:pick", "setup:swap"}
    assert wanted <= set(seen)


def test_a_bout_start_rebuilt_mid_game_counts_once_for_repetition() -> None:
    """The one game in 3,000 random ones of its kind that ends by repetition (docs/rules.md §1.5):
    rebuilt at any bout start, both implementations must still end it as a draw at the same ply,
    which needs the rebuilt bout start counted as the first occurrence of its state."""
    rules = Rules.preset_named("tan", transfer=True)
    rng = random.Random(356)
    game = Game.deal(rules, 3, seed=356)
    moves = []
    while not game.over:
        moves.append(rng.choice(game.legal_moves()))
        game.play(moves[-1])
    assert game.loser is None and any(game.hands)  # a repetition draw, not an empty-handed one
    walk = Game.deal(rules, 3, seed=356)
    drawn_alike = 0
    for ply, move in enumerate(moves):
        if not walk.table:
            reference, core = rebuilt(walk)
            for later in moves[ply:]:
                if reference.over:
                    break
                reference.play(later)
                core.play(later)
                assert core.snapshot() == reference.snapshot()
            # Rebuilt after the last defence or draw, nothing of the cycle is forgotten.
            drawn_alike += reference.over and core.snapshot() == game.snapshot()
        walk.play(move)
    assert drawn_alike >= 1
