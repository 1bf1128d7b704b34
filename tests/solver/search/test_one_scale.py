"""One number for one decision (issue 63): a cost is the difference of the two chances shown, a move
the search barely tried is `uncertain` (never costed as a blunder), a proven value stays proven."""

from __future__ import annotations

import dataclasses

from solver.game.phases import Chance
from solver.game.rules import Rules
from solver.search.answers import Hint, MoveValue, SearchStats, Value
from solver.search.calibration import ScoreMap, calibrated_hint, calibrated_review
from solver.search.labels import COSTED, Label, grade, graded
from solver.search.review import Decision, MoveReview, Review, ReviewSummary, decisions
from tests.support.records import endgame_record

# A map that spreads the middle, as greedy's does (a search's 0.6 is about 0.9 against greedy).
SPREAD = ScoreMap("greedy", Rules.preset_named("durak"), 2, (0.0, 0.3, 0.6, 1.0), (0.0, 0.2, 0.9, 1.0))


def _decision() -> Decision:
    return next(d for d in decisions(endgame_record()) if not d.forced)


def _value(decision: Decision, index: int, score: float, ci95: tuple[float, float], visits: int,
           exact: bool = False) -> MoveValue:
    return MoveValue(decision.position.legal_moves()[index], score, ci95, visits, exact)


def test_a_move_tried_once_is_uncertain_not_a_blunder() -> None:
    """The issue's row: tried once (95% range 0–83%), 1% against 54%, was a confident blunder."""
    decision = _decision()
    best = _value(decision, 0, 0.54, (0.52, 0.56), 4000)
    once = _value(decision, 1, 0.01, (0.0, 0.83), 1)
    loss, label = grade(once, best)
    assert label is Label.UNCERTAIN and loss is not None and loss > 0.36
    reviewed = MoveReview.of(decision, once, best)
    assert reviewed.label is Label.UNCERTAIN and Label.UNCERTAIN not in COSTED
    assert ReviewSummary.of([reviewed]).mean_loss is None  # not counted as a cost
    assert reviewed.to_json()["played_ci95"] == [0.0, 0.83] and reviewed.to_json()["played_visits"] == 1
    # Clearly below the best's interval: costed by its loss.
    clear = _value(decision, 1, 0.1, (0.05, 0.2), 300)
    assert grade(clear, best)[1] is Label.BLUNDER
    # Within the noise: good, whatever its interval.
    assert grade(_value(decision, 1, 0.53, (0.0, 1.0), 2), best)[1] is Label.GOOD


def test_a_calibrated_reviews_cost_is_the_difference_of_the_chances_it_shows() -> None:
    decision = _decision()
    best = _value(decision, 0, 0.6, (0.58, 0.62), 4000)
    played = _value(decision, 1, 0.55, (0.5, 0.57), 800)
    raw = MoveReview.of(decision, played, best)
    review = Review(0, [raw], ReviewSummary.of([raw]), {})
    (shown,) = calibrated_review(review, SPREAD).moves
    assert shown.best_score == SPREAD(0.6) and shown.played_score == SPREAD(0.55)
    assert shown.best_score is not None and shown.played_score is not None
    assert shown.loss == shown.best_score - shown.played_score  # 0.9 - 0.783: not the raw 0.05
    assert raw.label is Label.INACCURACY and shown.label is Label.MISTAKE
    as_json = shown.to_json()
    assert as_json["loss"] == round(as_json["best_score"] - as_json["played_score"], 6)
    assert calibrated_review(review, SPREAD).summary.total_loss == shown.loss


def test_a_proven_draw_stays_a_proven_draw() -> None:
    decision = _decision()
    best = _value(decision, 0, 0.5, (0.5, 0.5), 0, exact=True)
    worse = _value(decision, 1, 0.0, (0.0, 0.0), 0, exact=True)
    moves = [MoveReview.of(decision, best, best), MoveReview.of(decision, worse, best)]
    review = Review(0, moves, ReviewSummary.of(moves), {})
    drawn, lost = calibrated_review(review, SPREAD).moves
    assert drawn.played_score == 0.5 and drawn.exact and drawn.to_json()["played_exact"]  # not mapped
    assert lost.label is Label.BLUNDER and lost.loss == 0.5 and lost.exact
    # A proven best beside an estimated move played: the proven draw stays 0.5 (it was mapped, as
    # the pair was not both proven), the estimate is mapped.
    guessed = _value(decision, 1, 0.3, (0.1, 0.45), 200)
    mixed = Review(0, [MoveReview.of(decision, guessed, best)], ReviewSummary.of([]), {})
    (shown,) = calibrated_review(mixed, SPREAD).moves
    assert shown.best_score == 0.5 and shown.to_json()["best_exact"] and not shown.exact
    assert shown.played_score == SPREAD(0.3) and shown.loss == 0.5 - SPREAD(0.3)


def test_a_calibrated_hint_is_graded_on_the_chances_it_shows() -> None:
    decision = _decision()
    moves = [_value(decision, 0, 0.6, (0.58, 0.62), 4000), _value(decision, 1, 0.55, (0.5, 0.57), 800)]
    stats = SearchStats("ismcts", 5000, 5000, 1.0, 1e5, "iterations", 0, 1)
    hint = graded(Hint(0, moves[0].move, moves, Value(0.58, (0.56, 0.6), False), stats, Chance.WIN))
    shown = calibrated_hint(hint, SPREAD)
    best, other = shown.moves
    assert other.loss == best.score - other.score and other.label == Label.MISTAKE.value
    # A hint cut to its best move is not made forced by the grading again.
    cut = calibrated_hint(dataclasses.replace(hint, moves=hint.moves[:1]), SPREAD)
    assert cut.moves[0].label == Label.GOOD.value
