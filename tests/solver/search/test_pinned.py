"""Fixed seeds pin the search's answers: the same position, seed and iteration limit give the same
visits per move, the same endgame node counts and the same greedy training examples.

A change meant to keep behaviour (a refactor, a speed-up) must keep these figures bit for bit;
a change of behaviour records them anew here, on purpose.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import numpy as np
import pytest

from solver.core import CoreGame
from solver.game.position import Position
from solver.game.record import Record
from solver.game.reference import Game, random_deck
from solver.game.rules import Rules
from solver.search import Limits, Solver, _endgame, _greedy
from solver.search._model import FEATURES, POLICY_FEATURES, PolicyModel, ValueModel
from solver.search.beliefs import read_record

ENGINES: dict[str, dict[str, Any]] = {
    "playouts": {},
    "pimc": {"algorithm": "pimc", "pimc_worlds": 4},
}
"""The engine without a learned model (`ismcts_playouts`), and PIMC with its options: the shipped
models change with each generation, the figures pinned here do not."""

# (preset, seats, random plies from deal `plies`, engine) -> each move's visits after 2,000
# iterations with seed 7, most visited first.
VISITS: dict[tuple[str, int, int, str], list[tuple[str, int]]] = {
    ("durak", 2, 3, "playouts"): [
        ("attack 7h", 484), ("attack Qd", 401), ("attack 8h", 375), ("attack Ad", 268), ("attack 8c", 260),
        ("attack Td", 212),
    ],
    ("durak", 2, 3, "pimc"): [
        ("attack Ad", 458), ("attack 8h", 373), ("attack Td", 369), ("attack 8c", 282), ("attack Qd", 263),
        ("attack 7h", 255),
    ],
    ("tan", 2, 5, "playouts"): [
        ("pass", 1946), ("attack Ah", 54),
    ],
    ("tan", 2, 5, "pimc"): [
        ("pass", 1880), ("attack Ah", 120),
    ],
    ("perevodnoy", 2, 4, "playouts"): [
        ("attack 6c", 601), ("attack 8d", 455), ("attack Th", 245), ("attack Ad", 236), ("attack Tc", 234),
        ("attack 9d", 229),
    ],
    ("perevodnoy", 2, 4, "pimc"): [
        ("attack 9d", 557), ("attack Ad", 321), ("attack Tc", 299), ("attack 8d", 288), ("attack 6c", 271),
        ("attack Th", 264),
    ],
    ("durak", 3, 2, "playouts"): [
        ("pass", 1248), ("attack 8h", 752),
    ],
    ("durak", 3, 2, "pimc"): [
        ("pass", 1281), ("attack 8h", 719),
    ],
    ("durak", 2, 31, "playouts"): [
        ("take", 692), ("defend 6c with Qd", 478), ("defend 6c with Jc", 383), ("defend 6c with Ad", 271),
        ("defend 6c with 7d", 176),
    ],
    ("durak", 2, 31, "pimc"): [
        ("take", 488), ("defend 6c with Qd", 473), ("defend 6c with Jc", 384), ("defend 6c with Ad", 345),
        ("defend 6c with 7d", 310),
    ],
    ("tan", 2, 47, "playouts"): [
        ("take", 1644), ("defend Qs with Jc", 356),
    ],
    ("tan", 2, 47, "pimc"): [
        ("defend Qs with Jc", 1147), ("take", 853),
    ],
}


def position(preset: str, players: int, plies: int) -> Position:
    """The position of the seat to move after `plies` random moves from deal `plies`."""
    rules = Rules.preset_named(preset)
    game = Game.deal(rules, players, deck=random_deck(rules, plies))
    rng = random.Random(plies)
    for _ in range(plies):
        game.play(rng.choice(game.legal_moves()), game.to_move)
    assert game.to_move is not None
    return Position.from_game(game, game.to_move)


@pytest.mark.parametrize(("preset", "players", "plies", "engine"), sorted(VISITS))
def test_a_fixed_seed_gives_the_recorded_visits(preset: str, players: int, plies: int, engine: str) -> None:
    solver = Solver("ismcts_playouts", **ENGINES[engine])
    hint = solver.hint(position(preset, players, plies), Limits(iterations=2000), seed=7)
    assert [(m.notation, m.visits) for m in hint.moves] == VISITS[preset, players, plies, engine]


def seeded_models() -> tuple[ValueModel, PolicyModel]:
    """A value net and a policy of seeded weights: the shipped models change with each generation,
    these do not (tests/solver/search/test_pinned_default.py)."""
    rng = np.random.default_rng(23)
    value = ValueModel(np.zeros(FEATURES), np.ones(FEATURES), rng.normal(0.0, 0.3, (8, FEATURES)),
                       rng.normal(0.0, 0.1, 8), rng.normal(0.0, 0.5, 8), rng.normal(0.0, 0.2, FEATURES), 0.1)
    return value, PolicyModel(rng.normal(0.0, 0.5, POLICY_FEATURES))


def test_a_fixed_seed_gives_the_recorded_visits_with_weighted_beliefs() -> None:
    """A seat that took a low spade: the worlds are weighed by its decisions before the search."""
    record = {
        "rules": "durak", "players": 2, "seat": 0, "hand": ["6s", "7c", "8d", "Jc", "Qd", "Ah"],
        "trump": "9h", "first_attacker": 0,
        "events": [{"seat": 0, "move": "attack 6s"}, {"seat": 1, "move": "take"},
                   {"seat": 0, "move": "pass"}, {"draw": ["Ks"]}],
    }
    seen, history = read_record(Record.from_json(record))
    solver = Solver("ismcts_playouts", particles=2048)
    hint = solver.hint(seen, Limits(iterations=2000), seed=7, history=history)
    assert [(m.notation, m.visits) for m in hint.moves] == [
        ("attack Jc", 645),
        ("attack 7c", 394),
        ("attack 8d", 346),
        ("attack Ks", 318),
        ("attack Qd", 227),
        ("attack Ah", 70),
    ]
    # The same search with the worlds weighed by the learned policy shipped for `durak` (which the
    # pin follows when that policy changes): one take of a low card says more of the hand.
    by_policy = Solver("ismcts_playouts", particles=2048, beliefs_policy=True).hint(
        seen, Limits(iterations=2000), seed=7, history=history)
    assert by_policy.stats.beliefs == "tempered" and hint.stats.beliefs == "weighted"
    assert [(m.notation, m.visits) for m in by_policy.moves] == [
        ("attack Ks", 472),
        ("attack Jc", 457),
        ("attack 8d", 412),
        ("attack Qd", 404),
        ("attack 7c", 220),
        ("attack Ah", 35),
    ]


# The first three solvable endgames with an empty stock met by random play from deal 1: (value, nodes).
# (The solver also proves a stock of the trump card alone; these pins keep to the endgames they had.)
NODES: dict[str, list[tuple[int, int]]] = {
    "durak": [(0, 143288), (0, 48090), (2, 42462)],
    "tan": [(2, 185551), (0, 185562), (0, 5730)],
    "perevodnoy": [(2, 39205), (0, 287), (2, 33)],
}


@pytest.mark.parametrize("preset", sorted(NODES))
def test_the_endgame_solver_takes_the_recorded_nodes(preset: str) -> None:
    rules = Rules.preset_named(preset)
    core = CoreGame.deal(rules, 2, random_deck(rules, 1))
    rng = random.Random(1)
    found: list[tuple[int, int]] = []
    while not core.over and len(found) < 3:
        if core.snapshot()["stock"]:
            core.play(rng.choice(core.legal_codes()))
            continue
        try:
            solution = _endgame.solve_exact(core, core.to_move, budget=200_000)
            found.append((solution.value, solution.nodes))
        except (ValueError, TimeoutError):
            pass
        core.play(rng.choice(core.legal_codes()))
    assert found == NODES[preset]


def test_greedy_examples_are_the_recorded_ones() -> None:
    rules = Rules.preset_named("durak")
    x, y, game = _greedy.greedy_examples(CoreGame.deal(rules, 2, random_deck(rules, 1)), 10, 5, 8)
    digest = hashlib.sha256(x.tobytes() + y.tobytes() + game.tobytes()).hexdigest()
    assert (len(y), digest) == (
        288,
        "449a7df130577f94dd59fad586e1eb98ea5420f9addfeb4f2c603bf50a75f021",
    )
