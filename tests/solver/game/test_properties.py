"""Properties of the reference rules over random games (Hypothesis).

Every preset and seat count, and random option sets beyond the presets:
every card is always in exactly one place, games end, scores follow docs/rules.md §1.5,
and positions round-trip and redeal to the same view.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.game.cards import Card, deck
from solver.game.position import Position
from solver.game.reference import Game
from solver.game.rules import PRESETS, Rules

# Random games run 100-650 plies (measured over 1,200 deals); this bound only
# catches a game that fails to end.
PLY_BOUND = 5000

FAST = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def rule_sets(draw: st.DrawFn) -> Rules:
    """A preset, sometimes with options changed."""
    rules = PRESETS[draw(st.sampled_from(sorted(PRESETS)))]
    if draw(st.booleans()):
        return rules
    return rules.with_options(
        max_attack=draw(st.sampled_from([None, 4, 6])),
        first_bout_max_attack=draw(st.sampled_from([None, 3, 5])),
        throw_in_after_take=draw(st.booleans()),
        refill_order=draw(st.sampled_from(["attacker_defender_others", "attacker_others_defender"])),
        transfer=draw(st.booleans()),
        defender_empty=draw(st.sampled_from(["end_bout", "refill"])),
        trump_ace_last_loses=draw(st.booleans()),
        first_attacker=draw(st.sampled_from(["seat0", "lowest_trump"])),
        redeal_without_trump=draw(st.booleans()),
        all_trumps_wins=draw(st.booleans()),
        trump_swap=draw(st.booleans()),
        trump_swap_cedes_lead=draw(st.booleans()),
        take_when_beaten=draw(st.booleans()),
        twos_last=rules.deck == 52 and draw(st.booleans()),
    )


@st.composite
def games(draw: st.DrawFn) -> tuple[Rules, int, int]:
    rules = draw(rule_sets())
    players = draw(st.integers(rules.min_players, rules.max_players))
    return rules, players, draw(st.integers(0, 2**32 - 1))


def places(game: Game) -> Counter[Card]:
    counts: Counter[Card] = Counter()
    for hand in game.hands:
        counts.update(hand)
    counts.update(game.stock)
    counts.update(game.discard)
    for pair in game.table:
        counts[pair.attack] += 1
        if pair.defense is not None:
            counts[pair.defense] += 1
    counts.update(game.shown)  # a redeal's shown hand and offered hands, while the pick is pending
    for part in game.redeal_sets or ():
        counts.update(part)
    return counts


def check_state(game: Game) -> None:
    """Invariants of every reachable state."""
    assert places(game) == Counter(deck(game.rules.deck)), "every card in exactly one place"
    if game.stock:
        assert game.stock[-1] == game.trump, "the trump card lies at the bottom while the stock lasts"
        assert not game.finished
    for seat in range(game.players):
        assert game.known[seat] <= game.hands[seat]
    for seat in game.finished:
        assert not game.hands[seat]
    assert len(set(game.finished)) == len(game.finished)
    for pair in game.table:
        if pair.defense is not None:
            assert pair.defense.beats(pair.attack, game.trump_suit)
    assert game.defended_once == bool(game.discard)
    if not game.over:
        assert game.to_move is not None and game.legal_moves()
        assert game.defender != game.attacker
        assert game.attacker not in game.finished and game.defender not in game.finished


def play(rules: Rules, players: int, seed: int, each: object = None) -> tuple[Game, int]:
    game = Game.deal(rules, players, seed=seed)
    rng = random.Random(seed)
    plies = 0
    while not game.over and plies < PLY_BOUND:
        if callable(each):
            each(game, rng)
        game.play(rng.choice(game.legal_moves()))
        plies += 1
    return game, plies


@FAST
@given(games())
def test_every_card_is_always_in_exactly_one_place(case: tuple[Rules, int, int]) -> None:
    game, _ = play(*case, each=lambda game, rng: check_state(game))
    check_state(game)


@FAST
@given(games())
def test_every_game_ends(case: tuple[Rules, int, int]) -> None:
    game, plies = play(*case)
    assert game.over and plies < PLY_BOUND
    assert game.legal_moves() == [] and game.to_move is None


@FAST
@given(games())
def test_scores_follow_the_rules(case: tuple[Rules, int, int]) -> None:
    """docs/rules.md §1.5: values in {0, 0.5, 1}; a loser scores 0 and everyone else 1;
    without one, some seats score 0.5 and the rest 1."""
    game, _ = play(*case)
    scores = game.scores
    assert scores is not None and len(scores) == game.players
    assert set(scores) <= {0.0, 0.5, 1.0}
    if game.loser is not None:
        assert scores[game.loser] == 0.0
        assert sum(scores) == game.players - 1
        assert scores.count(0.0) == 1 and 0.5 not in scores
    else:
        assert 0.0 not in scores and 0.5 in scores
        assert sum(scores) == game.players - scores.count(0.5) / 2
    active = [seat for seat in range(game.players) if seat not in game.finished]
    assert len(active) <= 1 or game.loser is None or game.rules.trump_ace_last_loses
    if game.loser is not None and len(active) == 1:
        assert active == [game.loser]


@FAST
@given(games(), st.integers(0, 10**6))
def test_positions_round_trip(case: tuple[Rules, int, int], stop: int) -> None:
    """At a random moment, every seat's position reads back to itself and a redeal of the
    unseen cards shows that seat the same position (and the same moves when it is to move)."""
    rules, players, seed = case
    game = Game.deal(rules, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(stop % 400):
        if game.over:
            break
        game.play(rng.choice(game.legal_moves()))
    for seat in range(players):
        data = Position.from_game(game, seat).to_json()
        position = Position.from_json(data)
        assert position.to_json() == data
        slots = position.hidden_slots()
        assert slots.total == len(position.unseen_cards())
        if position.phase == "setup" and position.to_move is None:
            continue  # another seat decides in secret: this seat cannot tell where the setup stands
        redeal = position.sample_game(rng)
        assert Position.from_game(redeal, seat).to_json() == data
        if game.to_move == seat:
            assert redeal.legal_moves() == game.legal_moves()
