"""Score maps: a monotone fit that corrects a biased predictor, chosen by rules and opponent,
applied to a hint without changing its moves' order."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from solver.game.position import Position
from solver.game.rules import Rules
from solver.search import Limits, Solver
from solver.search.calibration import ScoreMap, calibrated_hint, score_map, score_maps
from tests.support.positions import to_move_position

DURAK = Rules.from_json("durak")


def _ece(predicted: np.ndarray, outcome: np.ndarray, bins: int = 10) -> float:
    which = np.clip(np.digitize(predicted, np.linspace(0, 1, bins + 1)[1:-1]), 0, bins - 1)
    return float(
        sum(abs(predicted[which == b].mean() - outcome[which == b].mean()) * (which == b).mean()
            for b in range(bins) if (which == b).any())
    )


def _too_modest(count: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Predictions of a player that wins with chance √p when it predicts p (like the engine
    against greedy: it expects a better answer than it gets)."""
    rng = np.random.default_rng(seed)
    predicted = rng.uniform(0, 1, count)
    return predicted, (rng.uniform(0, 1, count) < np.sqrt(predicted)).astype(float)


def test_a_fitted_map_corrects_a_modest_predictor_on_games_it_never_saw() -> None:
    predicted, outcome = _too_modest(20_000, seed=1)
    mapped = ScoreMap.fit(predicted, outcome, "greedy", DURAK, 2)
    test_p, test_o = _too_modest(20_000, seed=2)
    before = _ece(test_p, test_o)
    after = _ece(np.array([mapped(p) for p in test_p]), test_o)
    assert before > 0.1 and after < 0.02
    assert abs(mapped(0.25) - 0.5) < 0.05 and abs(mapped(0.64) - 0.8) < 0.05


def test_a_map_is_monotone_and_stays_in_the_unit_interval() -> None:
    predicted, outcome = _too_modest(5_000, seed=3)
    mapped = ScoreMap.fit(predicted, outcome, "greedy", DURAK, 2)
    grid = np.linspace(-0.5, 1.5, 401)
    values = np.array([mapped(x) for x in grid])
    assert (np.diff(values) >= 0).all() and values.min() >= 0 and values.max() <= 1
    assert list(mapped.x) == sorted(set(mapped.x))
    assert ScoreMap.from_json(mapped.to_json()) == mapped
    with pytest.raises(ValueError, match="must not decrease"):
        ScoreMap("greedy", DURAK, 2, (0.0, 1.0), (0.6, 0.4))


def test_the_map_is_chosen_by_opponent_rules_and_seats() -> None:
    exact = ScoreMap("greedy", DURAK, 2, (0.0, 1.0), (0.2, 1.0))
    tan = ScoreMap("greedy", Rules.from_json("tan"), 2, (0.0, 1.0), (0.3, 1.0))
    maps = [exact, tan]
    assert score_map(DURAK, 2, ["greedy"], maps, "playouts") is exact
    side = Rules.from_json({"preset": "tan", "trump_swap": True})
    assert score_map(side, 2, ["greedy"], maps, "playouts") is tan  # same preset, no map of its own
    assert score_map(DURAK, 3, ["greedy", "greedy"], maps, "playouts") is None  # another seat count
    # a searching engine nobody fitted a map against: the search's own scores
    assert score_map(DURAK, 2, ["ismcts"], maps, "playouts") is None
    assert score_map(Rules.from_json("perevodnoy"), 2, ["greedy"], maps, "playouts") is None
    three = ScoreMap("greedy", DURAK, 3, (0.0, 1.0), (0.2, 1.0))
    assert score_map(DURAK, 3, ["greedy", "random"], [three], "playouts") is None  # others unlike each other


def test_a_map_is_for_the_scores_of_one_model_of_play() -> None:
    """A learned value's scores are another scale than the playouts': a map fitted on one model's
    predictions is never applied to another's, and by default the model is the one the default
    search answers with for the rules (the shipped value and policy for durak with 2 seats, playouts
    for 3)."""
    playouts = ScoreMap("greedy", DURAK, 2, (0.0, 1.0), (0.2, 1.0))
    valued = ScoreMap("greedy", DURAK, 2, (0.0, 1.0), (0.1, 1.0), model="value-durak-2+policy-durak-2")
    three = ScoreMap("greedy", DURAK, 3, (0.0, 1.0), (0.2, 1.0))
    maps = [playouts, valued, three]
    assert score_map(DURAK, 2, ["greedy"], maps, "playouts") is playouts
    assert score_map(DURAK, 2, ["greedy"], maps, "value-durak-2+policy-durak-2") is valued
    assert score_map(DURAK, 2, ["greedy"], maps, "value-durak-2") is None
    assert score_map(DURAK, 2, ["greedy"], maps) is valued
    assert score_map(DURAK, 3, ["greedy", "greedy"], maps) is three
    assert score_map(DURAK, 2, ["greedy"], [playouts]) is None
    assert ScoreMap.from_json(valued.to_json()) == valued
    assert ScoreMap.from_json({k: v for k, v in playouts.to_json().items() if k != "model"}) == playouts


def test_a_game_with_side_rules_prefers_its_own_map_then_the_plain_presets() -> None:
    side = Rules.from_json({"preset": "tan", "trump_swap": True, "twos_last": True})
    plain = ScoreMap("greedy", Rules.from_json("tan"), 2, (0.0, 1.0), (0.3, 1.0))
    own = ScoreMap("greedy", side, 2, (0.0, 1.0), (0.4, 1.0))
    for maps in ([own, plain], [plain, own]):
        assert score_map(side, 2, ["greedy"], maps) is own
        assert score_map(Rules.from_json({"preset": "tan", "tribute": True}), 2, ["greedy"], maps) is plain
    assert own.label == "greedy (tan with 2 side rules, 2 seats)" and plain.label == "greedy (tan, 2 seats)"


def test_the_shipped_maps_load_and_raise_modest_predictions_against_greedy() -> None:
    maps = score_maps()
    assert maps, "solver/search/calibration.json holds no map"
    for rules in (DURAK, Rules.from_json("tan")):
        shipped = score_map(rules, 2, ["greedy"])
        assert shipped is not None and shipped.rules == rules and shipped.predictions > 10_000
        assert shipped(0.6) > 0.7  # where the search predicts 0.6 against greedy it scores far more
        itself = score_map(rules, 2, ["ismcts"])  # fitted on self-play: close to the search's own
        assert itself is not None and itself.rules == rules and itself.predictions > 10_000
        assert 0.3 < itself(0.5) < 0.7 and itself(0.2) < 0.35 and itself(0.8) > 0.65


def test_a_calibrated_hint_maps_every_estimate_and_keeps_the_order() -> None:
    position = Position.from_json(to_move_position("durak", seed=4))
    hint = Solver().hint(position, Limits(iterations=2_000), seed=1)
    assert len(hint.moves) > 1 and not any(move.exact for move in hint.moves)
    mapped = ScoreMap("greedy", DURAK, 2, (0.0, 0.5, 1.0), (0.1, 0.8, 1.0))
    fixed = calibrated_hint(hint, mapped)
    assert [move.move for move in fixed.moves] == [move.move for move in hint.moves]
    for raw, calibrated in zip(hint.moves, fixed.moves, strict=True):
        assert calibrated.score == pytest.approx(mapped(raw.score))
        assert calibrated.ci95 == pytest.approx((mapped(raw.ci95[0]), mapped(raw.ci95[1])))
        assert calibrated.visits == raw.visits
    assert fixed.evaluation.score == pytest.approx(mapped(hint.evaluation.score))
    assert fixed.stats.calibrated == "greedy (durak, 2 seats)"
    assert fixed.to_json()["stats"]["calibrated"] == "greedy (durak, 2 seats)"
    assert calibrated_hint(hint, None) is hint and hint.stats.calibrated is None


def test_a_proven_value_is_left_alone() -> None:
    position = Position.from_json(to_move_position("durak", seed=4))
    hint = Solver().hint(position, Limits(iterations=500), seed=1)
    proven = dataclasses.replace(
        hint,
        moves=[dataclasses.replace(move, exact=True) for move in hint.moves],
        evaluation=dataclasses.replace(hint.evaluation, exact=True),
    )
    fixed = calibrated_hint(proven, ScoreMap("greedy", DURAK, 2, (0.0, 1.0), (0.5, 1.0)))
    assert fixed.moves == proven.moves and fixed.evaluation == proven.evaluation
