"""The players: one greedy policy, seen from a seat's position and inside the search."""

from __future__ import annotations

import pytest

from solver.core._core import decode_move
from solver.game.errors import TanError
from solver.game.position import Position
from solver.game.rules import Rules
from solver.players import GreedyPlayer, RandomPlayer, make_player
from solver.search import Limits, Solver, _greedy
from tests.support.games import twin_games, variants
from tests.support.positions import to_move_position
from tests.support.sweeps import sampled


@pytest.mark.parametrize(
    ("rules", "players"), sampled(variants(), 10, "greedy"), ids=lambda x: getattr(x, "preset", x)
)
def test_greedy_player_plays_the_search_policy(rules: Rules, players: int) -> None:
    """On every state of random games, the `greedy` player (which sees one seat's position)
    and the in-tree policy (which sees the whole state) choose the same, legal, move."""
    greedy = GreedyPlayer()
    states = 0
    for seed in range(4):
        for reference, core in twin_games(rules, players, 7000 + seed):
            if reference.over:
                break
            seat = reference.to_move
            assert seat is not None
            chosen = greedy.choose(Position.from_game(reference, seat))
            assert chosen == decode_move(_greedy.greedy_code(core))
            assert chosen in reference.legal_moves()
            states += 1
    assert states > 100


def test_greedy_throws_in_any_plain_card_onto_a_taker() -> None:
    """While the defender takes, greedy sheds any plain card of a rank on the table, even an ace."""
    position = Position.from_json({
        "rules": "durak", "players": 2, "seat": 0, "hand": ["As", "Kd", "7h", "9h", "Jh", "Qh"],
        "hand_counts": [6, 6], "trump": "6c", "stock": 11,
        "discard": ["7s", "8s", "7d", "8d", "9s", "Ts", "9d", "Td", "Js", "Qs", "Jd", "Qd"],
        "table": [{"attack": "Ac", "defense": None}], "attacker": 0, "defender": 1, "to_move": 0,
        "taking": True, "defended_once": True,
    })
    assert str(GreedyPlayer().choose(position)) == "attack As"


def test_random_player_plays_legal_moves() -> None:
    position = Position.from_json({
        "rules": "durak", "players": 2, "seat": 1, "hand": ["6s", "7s", "8h", "Qd", "Ac", "9c"],
        "hand_counts": [6, 6], "trump": "6c", "stock": 24,
        "table": [], "attacker": 1, "defender": 0, "to_move": 1,
    })
    legal = set(position.legal_moves())
    assert {RandomPlayer().choose(position, seed) for seed in range(40)} <= legal


def test_the_engine_before_the_learned_value_is_kept_under_its_own_name() -> None:
    """`ismcts_playouts` is the default engine as it was: greedy playouts and the others played by
    the greedy heuristic in three iterations of four, whatever value ships; its options may still
    be given, and its name is the player's."""
    position = Position.from_json(to_move_position("durak", seed=5))
    old = make_player({"engine": "ismcts_playouts", "limits": {"iterations": 500}})
    assert old.name == "ismcts_playouts"
    config = old.solver.config
    assert (config.value, config.opponent_policy, config.policy_prior, config.puct) == (
        False, 0.75, False, 0.0)
    hint = old.solver.hint(position, Limits(iterations=500), seed=2)
    assert (hint.stats.model, hint.stats.opponent_policy) == ("playouts", 0.75)
    same = Solver(value=False, opponent_policy=0.75, policy_prior=False, puct=0.0).hint(
        position, Limits(iterations=500), seed=2)
    assert [(m.move, m.visits) for m in hint.moves] == [(m.move, m.visits) for m in same.moves]
    new = make_player({"engine": "ismcts", "limits": {"iterations": 500}})
    assert new.name == "ismcts"
    assert new.solver.hint(position, Limits(iterations=500)).stats.model == "value-durak-2+policy-durak-2"
    shared = make_player({"engine": "ismcts_playouts", "opponent_policy": 0.5})
    assert shared.solver.config.opponent_policy == 0.5
    with pytest.raises(TanError, match="ismcts_playouts has no option"):
        make_player({"engine": "ismcts_playouts", "nonsense": 1})
