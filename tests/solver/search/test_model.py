"""The learned value: its features in C and in Python, the shipped nets, training, the search with them."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from solver.core import CoreGame
from solver.game.errors import TanError
from solver.game.position import Position
from solver.game.reference import Game, random_deck
from solver.game.rules import PRESETS, RULE_OPTIONS, Rules
from solver.search import Limits, Solver
from solver.search._model import FEATURES, TABLE_FEATURES, ValueModel, features, table_features_of
from solver.search.features import PLACE, TABLE_HEADER, table_features, world_features
from solver.search.learned import (
    GENERATIONS,
    KEEPS_MODEL,
    MODELS,
    answering_model,
    fits,
    load_model,
    model_for,
    model_names,
)
from solver.tools.arena import build_tasks, play_game
from solver.tools.train import examples, fit_value, replay


def random_states(rules: Rules, players: int, seed: int, count: int) -> list[CoreGame]:
    """States met along random games: copies, so each stays as it was."""
    rng = random.Random(seed)
    states = []
    while len(states) < count:
        game = CoreGame.deal(rules, players, random_deck(rules, rng.getrandbits(32)))
        while not game.over and len(states) < count:
            if rng.random() < 0.3:
                states.append(game.copy())
            game.play(rng.choice(game.legal_codes()))
    return states


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_c_features_are_the_readable_ones(preset: str, players: int) -> None:
    rules = PRESETS[preset]
    for game in random_states(rules, players, seed=players * 7 + len(preset), count=60):
        snapshot = game.snapshot()
        for seat in range(players):
            readable = world_features(rules, snapshot, seat)
            assert features(game, seat).tolist() == pytest.approx(readable, abs=1e-12)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_c_table_features_are_the_readable_ones_at_every_table(preset: str) -> None:
    """Issue 62 part 1: the features of any table, in C and in Python, at every seat count the
    preset allows, from every seat."""
    rules = PRESETS[preset]
    for players in range(rules.min_players, rules.max_players + 1):
        for game in random_states(rules, players, seed=players * 11 + len(preset), count=25):
            snapshot = game.snapshot()
            for seat in range(players):
                readable = table_features(rules, snapshot, seat)
                assert len(readable) == TABLE_FEATURES
                assert table_features_of(game, seat).tolist() == pytest.approx(readable, abs=1e-12)


def test_table_features_place_each_other_seat_by_its_place_after_the_seat() -> None:
    """At a 4-seat table the block of place p holds the hand of seat (seat + p) mod 4, and the
    place a 4-seat table does not have stays zero."""
    rules = PRESETS["durak"]
    game = random_states(rules, 4, seed=2, count=1)[0]
    hands = game.snapshot()["hands"]
    for seat in range(4):
        x = table_features_of(game, seat)
        for place in (1, 2, 3):
            other = (seat + place) % 4
            base = TABLE_HEADER + (place - 1) * PLACE
            assert x[base + 32] == pytest.approx(len(hands[other]) / 12.0)
            assert x[base + 26] == 1.0
        assert not x[TABLE_HEADER + 3 * PLACE:].any()


def test_features_are_suit_blind() -> None:
    """Two deals that differ only by which suit is trump give the same features."""
    rules = PRESETS["durak"]
    deck = random_deck(rules, 5)
    swapped = [card.index + 13 if card.index < 13 else card.index - 13 if card.index < 26 else card.index
               for card in deck]
    first, second = CoreGame.deal(rules, 2, deck), CoreGame.deal(rules, 2, swapped)
    for seat in range(2):
        assert features(first, seat).tolist() == features(second, seat).tolist()


def tiny_net(hidden: int = 3) -> ValueModel:
    rng = np.random.default_rng(0)
    return ValueModel(np.zeros(FEATURES), np.ones(FEATURES), rng.normal(size=(hidden, FEATURES)),
                      rng.normal(size=hidden), rng.normal(size=hidden), rng.normal(size=FEATURES), 0.1)


def test_a_net_values_two_way_fights_and_only_those() -> None:
    net = tiny_net()
    for game in random_states(PRESETS["durak"], 3, seed=3, count=80):
        scores = net.scores(game)
        snapshot = game.snapshot()
        active = [seat for seat in range(3) if seat not in snapshot["finished"]]
        if snapshot["over"] or len(active) != 2:
            assert scores is None
            continue
        assert scores is not None
        assert sum(scores[seat] for seat in active) == pytest.approx(1.0)
        assert all(0.0 <= score <= 1.0 for score in scores)
        assert all(scores[seat] == 1.0 for seat in range(3) if seat not in active)


def tiny_table_net(hidden: int = 3, seed: int = 0) -> ValueModel:
    rng = np.random.default_rng(seed)
    return ValueModel(np.zeros(TABLE_FEATURES), np.ones(TABLE_FEATURES),
                      rng.normal(0.0, 0.3, size=(hidden, TABLE_FEATURES)), rng.normal(size=hidden),
                      rng.normal(size=hidden), rng.normal(0.0, 0.3, size=TABLE_FEATURES), 0.1, "table")


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_table_net_values_every_seat_and_its_scores_sum_as_a_games_do(preset: str) -> None:
    """Issue 62 part 2: at every seat count, every state of the play gets a score for every seat;
    the seats out score 1, the seats in share the losing, so the scores add up to players − 1."""
    rules = PRESETS[preset]
    net = tiny_table_net()
    assert net.feature_set == "table"
    for players in range(rules.min_players, rules.max_players + 1):
        valued = 0
        for game in random_states(rules, players, seed=players, count=30):
            scores = net.scores(game)
            snapshot = game.snapshot()
            if snapshot["over"] or snapshot["phase"] != "play":
                assert scores is None
                continue
            assert scores is not None and len(scores) == players
            assert sum(scores) == pytest.approx(players - 1.0)
            assert all(0.0 < score <= 1.0 for score in scores)
            assert all(scores[seat] == 1.0 for seat in snapshot["finished"])
            assert [net.value(game, seat) for seat in range(players)] == scores
            valued += 1
        assert valued > 10


def test_a_table_net_weighs_each_seats_log_odds_in_a_softmax_of_who_loses() -> None:
    """The score of a seat in is 1 − its chance of being the durak, a softmax over the seats in of
    minus the net's log-odds from each one's side (the features of `table_features_of`)."""
    from solver.tools.fitting import forward as _forward

    rng = np.random.default_rng(5)
    w = {"w1": rng.normal(0.0, 0.2, (4, TABLE_FEATURES)), "b1": rng.normal(size=4), "w2": rng.normal(size=4),
         "skip": rng.normal(0.0, 0.2, TABLE_FEATURES), "b2": np.asarray(0.3)}
    mean, scale = rng.normal(0.0, 0.1, TABLE_FEATURES), rng.uniform(0.5, 2.0, TABLE_FEATURES)
    net = ValueModel(mean, scale, w["w1"], w["b1"], w["w2"], w["skip"], 0.3, "table")
    for game in random_states(PRESETS["durak"], 4, seed=12, count=30):
        snapshot = game.snapshot()
        if snapshot["over"]:
            continue
        seats = [seat for seat in range(4) if seat not in snapshot["finished"]]
        logits = np.array([_forward(((table_features_of(game, seat) - mean) * scale)[None, :], w)[0][0]
                           for seat in seats])
        durak = np.exp(-logits - (-logits).max())
        durak /= durak.sum()
        scores = net.scores(game)
        assert scores is not None
        assert [scores[seat] for seat in seats] == pytest.approx((1.0 - durak).tolist(), abs=1e-9)


def test_a_net_with_wrong_shapes_or_weights_is_refused() -> None:
    with pytest.raises(ValueError, match="means, scales"):
        ValueModel(np.zeros(3), np.ones(3), [], [], [], np.zeros(3), 0.0)
    with pytest.raises(ValueError, match="finite"):
        ValueModel(np.full(FEATURES, np.nan), np.ones(FEATURES), [], [], [], np.zeros(FEATURES), 0.0)
    with pytest.raises(ValueError, match="hidden"):
        ValueModel(np.zeros(FEATURES), np.ones(FEATURES), np.zeros((65, FEATURES)), np.zeros(65),
                   np.zeros(65), np.zeros(FEATURES), 0.0)
    with pytest.raises(ValueError, match="means, scales"):
        ValueModel(np.zeros(FEATURES), np.ones(FEATURES), [], [], [], np.zeros(FEATURES), 0.0, "table")
    with pytest.raises(ValueError, match="feature set"):
        ValueModel(np.zeros(FEATURES), np.ones(FEATURES), [], [], [], np.zeros(FEATURES), 0.0, "seats")


@pytest.fixture(scope="module")
def games() -> list[dict]:
    """A few greedy games of durak, played as an arena plays them."""
    return [play_game(task) for task in build_tasks(["greedy"], 6, rules="durak", seed=9)]


def test_a_record_replays_to_its_end(games: list[dict]) -> None:
    for record in games:
        states = list(replay(record))
        assert len(states) == len(record["moves"])


def test_a_seeded_training_run_gives_the_same_weights_twice(games: list[dict]) -> None:
    data = examples(games)
    assert data.x.shape == (len(data.y), FEATURES) and len(data.y) > 100
    assert set(np.unique(data.y)) <= {0.0, 0.5, 1.0}
    first = fit_value(data, hidden=4, epochs=2, seed=3)
    second = fit_value(data, hidden=4, epochs=2, seed=3)
    other = fit_value(data, hidden=4, epochs=2, seed=4)
    assert json.dumps(first.weights) == json.dumps(second.weights)
    assert json.dumps(first.weights) != json.dumps(other.weights)
    assert first.figures["held_out"]["examples"] > 0


def test_training_learns_something(games: list[dict]) -> None:
    """On the games it learned from, the net beats the best constant."""
    fit = fit_value(examples(games), hidden=8, epochs=30, seed=1, holdout=0)
    assert fit.figures["train"]["log_loss"] < fit.figures["train"]["constant_log_loss"]


def test_a_value_may_learn_the_searching_seats_root_means_beside_the_outcome() -> None:
    records = [play_game(task) for task in build_tasks(
        [{"engine": "ismcts", "beliefs": False, "limits": {"iterations": 200}}], 1, rules="durak", seed=3)]
    plain, mixed = examples(records), examples(records, root_mix=0.25)
    assert plain.target is None and np.array_equal(plain.learned, plain.y)
    assert np.array_equal(mixed.y, plain.y) and np.array_equal(mixed.x, plain.x)
    # The rows come a state's two seats at a time: each pair's targets still sum to the pair's scores.
    assert np.allclose(mixed.target[0::2] + mixed.target[1::2], plain.y[0::2] + plain.y[1::2])
    moved = mixed.target != mixed.y
    assert moved.any() and np.all(np.abs(mixed.target - mixed.y)[moved] <= 0.25 + 1e-12)
    means = {int(ply): (int(seat), mean) for ply, seat, mean in records[0]["predictions"]}
    ply, (seat, mean) = next(iter(means.items()))
    first = next(iter(replay(records[0])))
    assert ply == 0 and first.snapshot()["to_move"] == seat
    assert mixed.target[seat] == pytest.approx(0.75 * plain.y[seat] + 0.25 * mean)
    # The net learns the mixed targets, and its figures stay on the final scores.
    learned = fit_value(mixed, hidden=4, epochs=2, seed=3, holdout=0)
    outcomes = fit_value(plain, hidden=4, epochs=2, seed=3, holdout=0)
    assert json.dumps(learned.weights) != json.dumps(outcomes.weights)
    assert learned.figures["train"]["constant_log_loss"] == outcomes.figures["train"]["constant_log_loss"]


def test_every_shipped_model_loads_and_says_how_it_was_made() -> None:
    paths = sorted(MODELS.glob("*.json"))
    assert {load_model(path).kind for path in paths} == {"value", "policy"}
    for path in paths + sorted(GENERATIONS.glob("*.json")):
        model = load_model(path)
        made = model.data["made_by"]
        assert made["command"].startswith("python -m solver.tools.train")
        learned_from = (made["data_sha256"] and made["games"] > 0) or made["greedy_games"] > 0
        assert made["seed"] is not None and learned_from
        if path.parent == MODELS:
            assert model_for(PRESETS[model.rules], model.players, model.kind).name == model.name
        game = random_states(PRESETS[model.rules], model.players, seed=1, count=1)[0]
        if model.kind == "value":
            assert 0.0 < model.net.value(game, 0) < 1.0
        else:
            assert sum(model.net.probabilities(game).values()) == pytest.approx(1.0)


def test_every_preset_has_a_learned_value_and_policy_for_two_seats_and_none_elsewhere() -> None:
    """Issue 23's "every preset": the default search of each preset's 2-seat game is valued by
    its own net and guided by its own policy; 3 seats and a side rule fall back to the playouts
    — and the default search's `stats.model` is what `answering_model` says (the score maps' key)."""
    for preset, rules in PRESETS.items():
        assert answering_model(rules, 2) == f"value-{preset}-2+policy-{preset}-2"
        assert answering_model(rules, 3) == "playouts"
        for players in (2, 3):
            game = Game.deal(rules, players, deck=random_deck(rules, 5))
            position = Position.from_game(game, game.to_move)
            hint = Solver().hint(position, Limits(iterations=50, time_ms=None), seed=1)
            assert hint.stats.model == answering_model(rules, players)
    assert answering_model(PRESETS["tan"].with_options(tribute=True), 2) == "playouts"


@pytest.mark.parametrize(
    ("rules", "model"),
    [
        ({"preset": "durak", "first_attacker": "seat0"}, "value-durak-2+policy-durak-2"),
        ({"preset": "durak", "first_bout_max_attack": 5, "max_players": 4}, "value-durak-2+policy-durak-2"),
        ({"preset": "tan", "throwers": "attacker", "trump_repeat_limit": 3}, "value-tan-2+policy-tan-2"),
        ({"preset": "tan", "trump_swap_cedes_lead": False, "tribute_inspect": True},
         "value-tan-2+policy-tan-2"),
        ({"preset": "durak", "transfer": True}, "value-perevodnoy-2+policy-perevodnoy-2"),
        ({"preset": "durak", "throw_in_after_take": False}, "value-durak-2+policy-durak-2"),
        ({"preset": "tan", "refill_order": "attacker_others_defender"}, "value-tan-2+policy-tan-2"),
        ({"preset": "durak", "max_attack": None}, "playouts"),
        ({"preset": "tan", "hand_size": 6}, "playouts"),
        ({"preset": "tan", "take_when_beaten": True}, "playouts"),
        ({"preset": "tan", "trump_swap": True, "trump_swap_cedes_lead": False}, "playouts"),
    ],
)
def test_a_model_answers_wherever_its_game_is_unchanged(rules: dict, model: str) -> None:
    """Issue 62 part 0: an option of `KEEPS_MODEL` (who leads first, the first bout's cap, the seats
    allowed, throw-ins after a take, the refill order, who throws in at 2 seats, …) keeps the
    shipped model, and the hint says so; an option that changes the game more (the attack cap, the
    hand size, a side rule) answers with the playouts."""
    parsed = Rules.from_json(rules)
    assert answering_model(parsed, 2) == model
    game = Game.deal(parsed, 2, deck=random_deck(parsed, 3))
    hint = Solver().hint(Position.from_game(game, game.to_move), Limits(iterations=40, time_ms=None), seed=1)
    assert hint.stats.model == model


def test_who_throws_in_keeps_a_model_only_where_it_names_the_same_seats() -> None:
    """At 2 seats every `throwers` is the main attacker alone, at 3 `neighbours` is both others;
    elsewhere a non-default value changes the game (docs/rules.md §1.4)."""
    durak = PRESETS["durak"]
    for value in ("all", "neighbours", "attacker"):
        assert fits(durak.with_options(throwers=value), 2, "durak")
    assert fits(durak.with_options(throwers="neighbours"), 3, "durak")
    assert not fits(durak.with_options(throwers="attacker"), 3, "durak")
    assert not fits(durak.with_options(throwers="neighbours"), 4, "durak")
    assert fits(durak, 6, "durak") and not fits(durak, 2, "tan")


def test_the_options_that_keep_a_model_are_rule_options_named_in_the_docs() -> None:
    learning = (Path(__file__).parents[3] / "docs" / "learning.md").read_text(encoding="utf-8")
    for option in KEEPS_MODEL:
        assert option.name in RULE_OPTIONS and f"`{option.name}`" in learning, option.name


DEFAULT_MODEL = "value-durak-2+policy-durak-2"  # the default search's models for durak, 2 seats


def durak_position(seed: int) -> dict:
    rules = PRESETS["durak"]
    from solver.game.position import Position
    from solver.game.reference import Game

    game = Game.deal(rules, 2, deck=random_deck(rules, seed))
    return Position.from_game(game, game.to_move).to_json()


def test_the_search_values_its_leaves_with_the_shipped_net() -> None:
    position = durak_position(4)
    with_net = Solver(value=True).hint(position, Limits(iterations=600, time_ms=None), seed=2)
    without = Solver(value=False).hint(position, Limits(iterations=600, time_ms=None), seed=2)
    assert with_net.stats.model == "value-durak-2+policy-durak-2"
    assert without.stats.model == "policy-durak-2"
    assert with_net.stats.iterations == 600
    again = Solver(value=True).hint(position, Limits(iterations=600, time_ms=None), seed=2)
    assert [(m.move, m.visits) for m in again.moves] == [(m.move, m.visits) for m in with_net.moves]
    assert [(m.move, m.visits) for m in with_net.moves] != [(m.move, m.visits) for m in without.moves]


def test_the_default_search_values_its_leaves_where_a_net_ships_and_models_the_others_by_them() -> None:
    """By default the learned value answers where one ships for the rules and seats, and the others
    are then searched (no greedy share); where none ships, the greedy model of before answers."""
    position = durak_position(4)
    limits = Limits(iterations=600, time_ms=None)
    default = Solver().hint(position, limits, seed=2)
    assert default.stats.model == "value-durak-2+policy-durak-2"
    plain = Solver(opponent_policy=0.0).hint(position, limits, seed=2)
    assert [(m.move, m.visits) for m in default.moves] == [(m.move, m.visits) for m in plain.moves]
    greedy_share = Solver(opponent_policy=0.75).hint(position, limits, seed=2)
    assert [(m.move, m.visits) for m in default.moves] != [(m.move, m.visits) for m in greedy_share.moves]
    rules = PRESETS["durak"]
    from solver.game.position import Position
    from solver.game.reference import Game

    game = Game.deal(rules, 3, deck=random_deck(rules, 8))
    three = Position.from_game(game, game.to_move).to_json()
    before = Solver(value=False, opponent_policy=0.75).hint(three, limits, seed=1)
    fallback = Solver().hint(three, limits, seed=1)
    assert fallback.stats.model == "playouts"
    assert [(m.move, m.visits) for m in fallback.moves] == [(m.move, m.visits) for m in before.moves]


def test_the_others_read_as_greedy_are_modelled_as_greedy_and_the_leaves_played_out() -> None:
    """With a learned value the search reads the others from their moves: a seat that has played
    greedy's moves all along is modelled nearly as the engine of before did (the greedy heuristic in
    the tree, playouts at the leaves), a searching one is searched and the net values the leaves;
    options given by hand win over the reading."""
    from solver.game.position import Position
    from solver.game.reference import Game
    from solver.players import make_player
    from solver.players.simple import GreedyPlayer
    from solver.search.beliefs import HistoryReader

    rules = PRESETS["durak"]
    read = {}
    for kind, other in (("greedy", GreedyPlayer()),
                        ("engine", make_player({"engine": "ismcts_playouts",
                                                "limits": {"iterations": 1000}}))):
        game = Game.deal(rules, 2, deck=random_deck(rules, 101))
        reader = HistoryReader(0, game.trump)
        decisions = 0
        while (decisions < 14 or game.to_move != 0) and not game.over:
            seat = game.to_move
            position = Position.from_game(game, seat)
            move = GreedyPlayer().choose(position) if seat == 0 else other.choose(position, seed=decisions)
            decisions += seat == 1
            before = game.clone()
            game.play(move, seat)
            reader.observe(seat, move, before, game)
        seen = Position.from_game(game, 0)
        read[kind] = Solver().hint(seen, Limits(iterations=300), seed=1, history=reader.history()).stats
        both = Solver(opponent_policy=0.25, value_mix=0.5).hint(seen, Limits(iterations=300), seed=1,
                                                               history=reader.history()).stats
        assert (both.opponent_policy, both.value_mix, both.model) == (0.25, 0.5, DEFAULT_MODEL)
    assert read["greedy"].opponent_policy > 0.5 and read["greedy"].value_mix < 0.3
    assert read["engine"].opponent_policy < 0.2 and read["engine"].value_mix > 0.7
    for stats in read.values():
        assert stats.opponent_policy == pytest.approx(0.75 * (1 - stats.value_mix), abs=1e-5)
    bare = Solver().hint(durak_position(4), Limits(iterations=300), seed=1).stats
    assert (bare.opponent_policy, bare.value_mix, bare.model) == (0.0, 1.0, "value-durak-2+policy-durak-2")
    played_out = Solver(value_mix=0.0, policy_prior=False).hint(durak_position(4), Limits(iterations=300),
                                                                seed=1).stats
    assert (played_out.value_mix, played_out.model) == (0.0, "playouts")


def test_others_known_from_outside_the_game_stand_for_the_reading() -> None:
    """`others` (a stored game's engine seats): known greedy, the others are modelled as greedy from
    the first move and the leaves played out; known a searcher, they are searched and the net values
    the leaves; a name that is no kind of player is refused."""
    from solver.game.errors import TanError

    limits = Limits(iterations=300)
    greedy = Solver(others="greedy").hint(durak_position(4), limits, seed=1).stats
    assert (greedy.opponent_policy, greedy.value_mix, greedy.model) == (0.75, 0.0, "playouts")
    searcher = Solver(others="engine").hint(durak_position(4), limits, seed=1).stats
    assert (searcher.opponent_policy, searcher.value_mix, searcher.model) == (0.0, 1.0, DEFAULT_MODEL)
    evaluation = Solver(others="greedy").evaluate(durak_position(4), limits, seed=1)
    assert evaluation.stats.model == "playouts"
    for bad in ("expert", 1, ["greedy"]):
        with pytest.raises(TanError, match="others must be one of greedy, engine"):
            Solver(others=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [-0.1, 1.5, "half", [0.5]])
def test_a_bad_opponent_share_is_refused(bad: object) -> None:
    from solver.game.errors import TanError

    with pytest.raises(TanError):
        Solver(opponent_policy=bad)  # type: ignore[arg-type]


def test_without_a_net_for_the_rules_the_search_plays_its_leaves_out() -> None:
    rules = PRESETS["durak"]
    from solver.game.position import Position
    from solver.game.reference import Game

    game = Game.deal(rules, 3, deck=random_deck(rules, 8))
    position = Position.from_game(game, game.to_move).to_json()
    hint = Solver(value=True).hint(position, Limits(iterations=300, time_ms=None), seed=1)
    assert hint.stats.model == "playouts"
    assert hint.best in {m.move for m in hint.moves}


@pytest.mark.parametrize("bad", [{"value": 1}, {"value_mix": -0.1}, {"value_mix": 1.5}, {"value_mix": True}])
def test_bad_value_options_are_refused(bad: dict) -> None:
    from solver.game.errors import TanError

    with pytest.raises(TanError):
        Solver(**bad)


def test_the_net_in_c_answers_what_the_trainer_computes(games: list[dict]) -> None:
    """The weights folded into C give the trainer's own forward pass, state by state."""
    from solver.tools.fitting import forward as _forward

    data = examples(games)
    fit = fit_value(data, hidden=5, epochs=1, seed=2)
    w = fit.weights
    net = ValueModel(w["mean"], w["scale"], w["w1"], w["b1"], w["w2"], w["skip"], w["b2"])
    weights = {name: np.asarray(w[name]) for name in ("w1", "b1", "w2", "skip", "b2")}
    mean, scale = np.asarray(w["mean"]), np.asarray(w["scale"])
    for game in random_states(PRESETS["durak"], 2, seed=11, count=40):
        for seat in range(2):
            z = (features(game, seat) - mean) * scale
            expected = 1.0 / (1.0 + np.exp(-_forward(z[None, :], weights)[0][0]))
            assert net.value(game, seat) == pytest.approx(expected, abs=1e-9)


# -- the policy ------------------------------------------------------------------------------

from solver.core import decode_move  # noqa: E402
from solver.search._model import (  # noqa: E402
    POLICY_FEATURES,
    POLICY_VIEW,
    PolicyModel,
    policy_features,
    policy_view,
)
from solver.search.learned import model_from_json  # noqa: E402
from solver.tools.train import decisions, fit_policy  # noqa: E402


def redealt(game: CoreGame, rng: random.Random) -> CoreGame:
    """`game` with the cards its mover cannot see dealt again (same sizes), at a 2-seat table."""
    snap = game.snapshot()
    other = 1 - snap["to_move"]
    hidden = snap["hands"][other] + snap["stock"][:-1]  # the trump card lies face up
    rng.shuffle(hidden)
    size = len(snap["hands"][other])
    hands = list(snap["hands"])
    hands[other] = hidden[:size]
    stock = hidden[size:] + snap["stock"][-1:]
    table = [(a, d if d >= 0 else None) for a, d in snap["table"]]
    return CoreGame.from_fields(game.rules, 2, hands, stock, snap["trump"], table, snap["attacker"],
                                snap["defender"], snap["to_move"], snap["taking"], snap["passed"],
                                snap["finished"], snap["defended_once"])


def test_a_moves_policy_features_are_what_its_mover_sees() -> None:
    """Another deal of the cards the mover cannot see (same sizes) leaves every feature as it was."""
    rules = PRESETS["durak"]
    rng = random.Random(4)
    checked = 0
    for game in random_states(rules, 2, seed=5, count=60):
        snap = game.snapshot()
        if snap["over"]:
            continue
        other_deal = redealt(game, rng)
        assert other_deal.legal_codes() == game.legal_codes()
        for code in game.legal_codes():
            assert policy_features(other_deal, code) == policy_features(game, code)
        checked += 1
    assert checked > 30


def test_a_policy_gives_every_legal_move_a_probability() -> None:
    policy = PolicyModel(np.random.default_rng(1).normal(size=POLICY_FEATURES))
    for game in random_states(PRESETS["tan"], 3, seed=6, count=40):
        if game.over:
            continue
        p = policy.probabilities(game)
        assert sorted(p) == sorted(game.legal_codes())
        assert sum(p.values()) == pytest.approx(1.0)
        assert all(0.0 < value <= 1.0 for value in p.values())
        assert all(0 <= i < POLICY_FEATURES for code in p for i in policy_features(game, code))


def test_a_policy_learns_the_visits_and_the_same_data_gives_the_same_weights() -> None:
    records = [play_game(task) for task in build_tasks(
        [{"engine": "ismcts", "beliefs": False, "limits": {"iterations": 200}}], 2, rules="durak", seed=3)]
    assert all(record["visits"] for record in records)
    for record in records:
        for _ply, _seat, counts in record["visits"]:
            assert sum(counts.values()) == 200
    data = decisions(records)
    assert len(data.deal) == sum(len(record["visits"]) for record in records)
    first, second = fit_policy(data, steps=60, holdout=0), fit_policy(data, steps=60, holdout=0)
    assert first.weights == second.weights
    figures = first.figures["train"]
    assert figures["cross_entropy"] < figures["uniform_cross_entropy"]
    game = next(iter(replay(records[0])))
    codes = {decode_move(code).notation for code in game.legal_codes()}
    assert set(records[0]["visits"][0][2]) <= codes


def test_the_movers_view_is_its_world_features_less_what_only_the_world_knows() -> None:
    """The view a contextual policy reads: the mover's world features without the others' hands
    (26–51), their trumps (89) and whose trump is highest (90) — and so the same in every deal of
    the cards the mover cannot see."""
    seen = [i for i in range(FEATURES) if i < 26 or 52 <= i < 89 or i > 90]
    assert len(seen) == POLICY_VIEW
    rng = random.Random(8)
    checked = 0
    for players in (2, 3):
        for game in random_states(PRESETS["tan"], players, seed=9, count=40):
            if game.over:
                continue
            mover = game.snapshot()["to_move"]
            assert policy_view(game).tolist() == features(game, mover)[seen].tolist()
            if players == 2:
                assert policy_view(redealt(game, rng)).tolist() == policy_view(game).tolist()
                checked += 1
    assert checked > 20


def test_a_contextual_policy_in_c_answers_what_the_trainer_computes() -> None:
    """Each move's score is its features' weights plus their context rows dotted with the view;
    with no context the policy is the linear one."""
    rng = np.random.default_rng(2)
    theta = rng.normal(size=POLICY_FEATURES)
    context = rng.normal(0.0, 0.3, size=(POLICY_FEATURES, POLICY_VIEW))
    contextual, linear = PolicyModel(theta, 1.0, context), PolicyModel(theta)
    assert contextual.contextual and not linear.contextual
    zero = PolicyModel(theta, 1.0, np.zeros((POLICY_FEATURES, POLICY_VIEW)))
    for game in random_states(PRESETS["durak"], 2, seed=10, count=30):
        if game.over:
            continue
        codes = game.legal_codes()
        view = policy_view(game)
        scores = np.array([sum(theta[f] + context[f] @ view for f in policy_features(game, code))
                           for code in codes])
        expected = np.exp(scores - scores.max())
        expected /= expected.sum()
        got = contextual.probabilities(game)
        assert [got[code] for code in codes] == pytest.approx(expected.tolist(), abs=1e-9)
        assert zero.probabilities(game) == pytest.approx(linear.probabilities(game), abs=1e-12)
    with pytest.raises(ValueError, match="contextual"):
        PolicyModel(theta, 1.0, np.zeros((POLICY_FEATURES, POLICY_VIEW - 1)))
    with pytest.raises(ValueError, match="contextual"):
        PolicyModel(theta, 1.0, np.full((POLICY_FEATURES, POLICY_VIEW), np.nan))


def test_a_contextual_policy_learns_and_the_same_seed_gives_the_same_weights() -> None:
    records = [play_game(task) for task in build_tasks(
        [{"engine": "ismcts", "beliefs": False, "limits": {"iterations": 200}}], 2, rules="tan", seed=4)]
    data = decisions(records)
    assert data.view.shape == (len(data.deal), POLICY_VIEW)
    first = fit_policy(data, holdout=0, sharpen=16, context=True, epochs=3, batch=32, seed=1)
    again = fit_policy(data, holdout=0, sharpen=16, context=True, epochs=3, batch=32, seed=1)
    other = fit_policy(data, holdout=0, sharpen=16, context=True, epochs=3, batch=32, seed=2)
    assert first.weights == again.weights
    assert first.weights["context"] != other.weights["context"]
    assert first.weights["view"] == POLICY_VIEW
    figures = first.figures["train"]
    assert figures["cross_entropy"] < figures["uniform_cross_entropy"]
    # The file it makes loads, plays what was fitted, and a view of another size is refused.
    model = {"format": 1, "kind": "policy", "rules": "tan", "players": 2, "features": POLICY_FEATURES,
             **first.weights}
    policy = model_from_json("contextual", model).net
    assert isinstance(policy, PolicyModel) and policy.contextual
    game = next(iter(replay(records[0])))
    fitted = PolicyModel(first.weights["weights"], 1.0, first.weights["context"])
    assert policy.probabilities(game) == fitted.probabilities(game)
    with pytest.raises(ValueError, match="view"):
        model_from_json("contextual", {**model, "view": POLICY_VIEW + 1})


def test_the_search_uses_the_shipped_policy_as_its_prior_where_asked() -> None:
    position = durak_position(4)
    limits = Limits(iterations=800, time_ms=None)
    plain = Solver(value=False, policy_prior=False).hint(position, limits, seed=3)
    assert plain.stats.model == "playouts"
    hint = Solver(value=False).hint(position, limits, seed=3)
    assert hint.stats.model == "policy-durak-2"
    assert hint.stats.iterations == 800
    assert [(m.move, m.visits) for m in hint.moves] != [(m.move, m.visits) for m in plain.moves]
    both = Solver().hint(position, limits, seed=3)
    assert both.stats.model == "value-durak-2+policy-durak-2"


def test_puct_selects_by_the_policy_and_still_ranks_every_root_move() -> None:
    """PUCT (`puct` > 0 with the policy as the prior: the default) changes the search, answers the
    same for the same seed, and still gives every legal move at the root a row of its own; without
    the prior `puct` changes nothing (UCB1)."""
    position = durak_position(4)
    limits = Limits(iterations=2000, time_ms=None)
    ordered = Solver(puct=0.0).hint(position, limits, seed=3)  # the policy's expansion order, UCB1
    puct = Solver().hint(position, limits, seed=3)
    again = Solver(policy_prior=True, puct=1.0).hint(position, limits, seed=3)
    no_prior = Solver(policy_prior=False).hint(position, limits, seed=3)
    ucb = Solver(policy_prior=False, puct=0.0).hint(position, limits, seed=3)
    assert [(m.move, m.visits) for m in no_prior.moves] == [(m.move, m.visits) for m in ucb.moves]
    assert [(m.move, m.visits) for m in puct.moves] == [(m.move, m.visits) for m in again.moves]
    assert [(m.move, m.visits) for m in puct.moves] != [(m.move, m.visits) for m in ordered.moves]
    assert {m.move for m in puct.moves} == {m.move for m in ordered.moves}
    assert all(m.visits >= 1 for m in puct.moves)
    assert puct.stats.iterations == 2000


@pytest.mark.parametrize("bad", [{"puct": -1.0}, {"puct": True}, {"puct": "high"}])
def test_bad_puct_options_are_refused(bad: dict) -> None:
    with pytest.raises(TanError, match="puct"):
        Solver(**bad)


def test_a_search_may_name_an_earlier_generation() -> None:
    position = durak_position(4)
    limits = Limits(iterations=600, time_ms=None)
    assert "policy-durak-2-g0" in model_names()
    earlier = Solver(policy_model="policy-durak-2-g0", value=False).hint(position, limits, seed=3)
    assert earlier.stats.model == "policy-durak-2-g0"
    again = Solver(policy_model="policy-durak-2-g0", value=False).hint(position, limits, seed=3)
    assert [(m.move, m.visits) for m in again.moves] == [(m.move, m.visits) for m in earlier.moves]
    # A model of other rules does not answer here: the greedy model does, and says so.
    other = Solver(policy_model="policy-tan-2", value=False).hint(position, limits, seed=3)
    assert other.stats.model == "playouts"
    for wrong in ("value-durak-2", "../models/policy-durak-2", "nothing", 3):
        with pytest.raises(TanError):
            Solver(policy_model=wrong)  # type: ignore[arg-type]
    with pytest.raises(TanError):
        Solver(value_model="policy-durak-2")


# -- a value of every seat at 3 to 6 seats (issue 62) ------------------------------------------

from solver.tools.train_table import fit_table_value, table_examples  # noqa: E402


@pytest.fixture(scope="module")
def three_seat_games() -> list[dict]:
    """A few greedy games of durak at 3 seats, played as an arena plays them."""
    return [play_game(task) for task in build_tasks(["greedy"], 4, rules="durak", players=3, seed=9)]


def test_table_examples_are_each_states_seats_in_with_their_share_of_the_losing(
        three_seat_games: list[dict]) -> None:
    data = table_examples(three_seat_games)
    assert data.x.shape == (len(data.score), TABLE_FEATURES) and data.states > 100
    counts = np.diff(data.start)
    assert set(counts.tolist()) <= {2, 3} and 3 in counts.tolist()
    per_state = np.add.reduceat(data.share, data.start[:-1])
    assert per_state == pytest.approx(np.ones(data.states))
    assert set(np.unique(data.score)) <= {0.0, 0.5, 1.0}
    sampled = table_examples(three_seat_games, positions=10, seed=1)
    assert sampled.states <= 10 * len(three_seat_games)
    again = table_examples(three_seat_games, positions=10, seed=1)
    assert np.array_equal(sampled.x, again.x)


def test_a_seeded_table_value_training_run_gives_the_same_weights_twice(three_seat_games: list[dict]) -> None:
    data = table_examples(three_seat_games)
    first = fit_table_value(data, hidden=4, epochs=2, seed=3, batch=32)
    second = fit_table_value(data, hidden=4, epochs=2, seed=3, batch=32)
    other = fit_table_value(data, hidden=4, epochs=2, seed=4, batch=32)
    assert json.dumps(first.weights) == json.dumps(second.weights)
    assert json.dumps(first.weights) != json.dumps(other.weights)
    assert first.figures["held_out"]["states"] > 0
    learned = fit_table_value(data, hidden=8, epochs=20, seed=1, batch=32, holdout=0).figures["train"]
    assert learned["cross_entropy"] < learned["uniform_cross_entropy"]


def test_the_trainer_writes_a_table_value_that_loads_and_says_how_it_was_made(
        three_seat_games: list[dict], tmp_path) -> None:
    from solver.search.learned import load_model
    from solver.tools.train import main

    games = tmp_path / "games.jsonl"
    games.write_text("".join(json.dumps(record) + "\n" for record in three_seat_games), encoding="utf-8")
    out = tmp_path / "value-durak-3-test.json"
    assert main(["--kind", "value", "--rules", "durak", "--players", "3", "--hidden", "4", "--epochs", "1",
                 "--seed", "2", "--out", str(out), str(games)]) == 0
    model = load_model(out)
    assert (model.kind, model.players, model.data["feature_set"], model.data["features"]) == (
        "value", 3, "table", TABLE_FEATURES)
    made = model.data["made_by"]
    assert made["games"] == len(three_seat_games) and made["seed"] == 2 and len(made["data_sha256"]) == 64
    assert made["held_out"]["states"] > 0 and "--players 3" in made["command"]
    game = random_states(PRESETS["durak"], 3, seed=1, count=1)[0]
    scores = model.net.scores(game)
    assert scores is not None and sum(scores) == pytest.approx(2.0)
    with pytest.raises(ValueError, match="features"):
        model_from_json("wrong", {**model.data, "features": FEATURES})


def test_greedy_games_give_table_examples_beside_the_recorded_ones(three_seat_games: list[dict]) -> None:
    from solver.tools.train import GREEDY_DEALS
    from solver.tools.train_table import concatenate_tables, greedy_table

    greedy = greedy_table(PRESETS["durak"], 3, 30, seed=5)
    assert greedy.states > 50 and greedy.x.dtype == np.float32 and greedy.x.shape[1] == TABLE_FEATURES
    assert np.add.reduceat(greedy.share, greedy.start[:-1]) == pytest.approx(np.ones(greedy.states))
    assert (greedy.deal >= GREEDY_DEALS).all()
    assert np.array_equal(greedy_table(PRESETS["durak"], 3, 30, seed=5).x, greedy.x)
    recorded = table_examples(three_seat_games)
    both = concatenate_tables(recorded, greedy)
    assert both.states == recorded.states + greedy.states
    rows, _ = both.rows_of(np.array([recorded.states]))
    assert np.array_equal(both.x[rows], greedy.x[greedy.start[0]:greedy.start[1]])
    fit = fit_table_value(both, hidden=2, epochs=1, seed=1, batch=64, holdout=2)
    assert fit.figures["held_out_recorded"]["states"] < fit.figures["held_out"]["states"]


# -- a value of every seat in the search (issue 62, part 4) ------------------------------------

THREE_SEAT_VALUE = "value-durak-3-g0"  # a kept generation of the durak value at 3 seats


def three_seat_position(seed: int) -> dict:
    rules = PRESETS["durak"]
    game = Game.deal(rules, 3, deck=random_deck(rules, seed))
    return Position.from_game(game, game.to_move).to_json()


def test_a_value_of_every_seat_values_the_leaves_at_three_seats_and_says_so() -> None:
    """A table value named for its rules and seats answers at the leaves (`stats.model` names it,
    the search changes, the same seed answers the same); at a table it was not made for, or by
    default where none ships, the greedy model answers and says `playouts`."""
    position = three_seat_position(8)
    limits = Limits(iterations=600, time_ms=None)
    named = Solver(value_model=THREE_SEAT_VALUE).hint(position, limits, seed=1)
    stats = named.stats
    assert (stats.model, stats.value_mix, stats.opponent_policy) == (THREE_SEAT_VALUE, 1.0, 0.0)
    again = Solver(value_model=THREE_SEAT_VALUE).hint(position, limits, seed=1)
    assert [(m.move, m.visits) for m in again.moves] == [(m.move, m.visits) for m in named.moves]
    fallback = Solver().hint(position, limits, seed=1)
    assert fallback.stats.model == answering_model(PRESETS["durak"], 3) == "playouts"
    assert [(m.move, m.visits) for m in fallback.moves] != [(m.move, m.visits) for m in named.moves]
    rules = PRESETS["durak"]
    game = Game.deal(rules, 4, deck=random_deck(rules, 8))
    four = Position.from_game(game, game.to_move).to_json()
    assert Solver(value_model=THREE_SEAT_VALUE).hint(four, limits, seed=1).stats.model == "playouts"


def test_a_value_and_a_policy_of_more_seats_answer_together_where_they_were_made() -> None:
    """The kept 3-seat policy is the tree's prior beside the 3-seat value; the 4-seat `tan` value
    answers at 4 seats of `tan`."""
    limits = Limits(iterations=400, time_ms=None)
    both = Solver(value_model=THREE_SEAT_VALUE, policy_model="policy-durak-3-g0").hint(
        three_seat_position(9), limits, seed=1)
    assert both.stats.model == f"{THREE_SEAT_VALUE}+policy-durak-3-g0"
    rules = PRESETS["tan"]
    game = Game.deal(rules, 4, deck=random_deck(rules, 9))
    four = Position.from_game(game, game.to_move).to_json()
    hint = Solver(value_model="value-tan-4-g0").hint(four, limits, seed=1)
    assert hint.stats.model == "value-tan-4-g0" and hint.best in {m.move for m in hint.moves}


GIL_SCRIPT = """
import json, threading
import numpy as np
from solver.search import SearchConfig, StopFlag, _tree, prepare
from solver.search._model import TABLE_FEATURES, ValueModel
from tests.solver.search.test_pinned import position
rng = np.random.default_rng(1)
net = ValueModel(np.zeros(TABLE_FEATURES), np.ones(TABLE_FEATURES), rng.normal(0.0, 0.3, (4, TABLE_FEATURES)),
                 rng.normal(size=4), rng.normal(size=4), rng.normal(0.0, 0.3, TABLE_FEATURES), 0.1, "table")
out = []
for players in range(2, 7):
    stop = StopFlag()
    threading.Timer(0.05, stop.set).start()
    result = _tree.run_search(prepare(position("durak", players, 5)).sampler, SearchConfig(),
                              iterations=10**12, time_ms=0.0, seed=1, value=net, stop=stop.buffer)
    out.append([players, result.iterations, sum(result.seat_sum)])
print(json.dumps(out))
"""


def test_a_table_value_searches_without_the_gil_at_every_seat_count_and_backs_up_scores_that_sum() -> None:
    """At 2 to 6 seats a search valued by a table net runs without the GIL — a flag set from
    another thread stops it (in a subprocess, so a search that held the GIL fails the test
    instead of hanging it) — and the scores it backs up add up to the players − 1 an iteration."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    try:
        # A hang guard, not a speed test: unstopped, each search would run for hours.
        run = subprocess.run([sys.executable, "-c", GIL_SCRIPT], cwd=root, timeout=60, check=True,
                             capture_output=True, text=True)
    except subprocess.TimeoutExpired:
        pytest.fail("a search valued by a table net did not stop when its flag was set")
    for players, iterations, summed in json.loads(run.stdout):
        assert iterations > 0
        assert summed / iterations == pytest.approx(players - 1.0, abs=0.02)
