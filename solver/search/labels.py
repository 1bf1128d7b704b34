"""What a move costs against the search's best, and the label that cost earns (docs/api.md §3,
"Reviews"): one scale for hints and reviews.

A move's loss is the best move's expected score (docs/rules.md §1.5) minus its
own, never below 0, in the very scores the answer shows: the search's own, or,
where the answer is calibrated (solver/search/calibration.py), the calibrated
win chances — graded again after the map, by this module's one `grade` —, so a
cost is always the difference of the two chances shown beside it, and a loss
near 0 or 1 where the chances hardly move is no loss of winning chances. A hint
grades every move it ranks with the label a review would give it, so the hint
and the review of the same decision at the same budget and seed say the same
thing.

A loss past `good` is labelled only when the move's 95% interval lies wholly
below the best's: a move the search tried a handful of times (a wide interval
reaching the best's) is `uncertain`, its cost not counted, however low its
mean — the search cannot tell it from the best.

The bounds come from measured losses (`python -m benchmarks.review_labels`,
BENCHMARKS.md "Review labels"): `good` is below what the engine's own choice
loses to a second search in 95 decisions of 100 (the search's noise); past it,
the greedy player's losses past that bound set the rest — below their median a
loss is an `inaccuracy`, below their 85th percentile a `mistake`, beyond a
`blunder` (at 5,000 iterations, 2,032 decisions of greedy in `durak` and `tan`).
"""

from __future__ import annotations

import dataclasses
import enum

from solver.search.answers import Hint, MoveValue

__all__ = ["COSTED", "LABELS", "Label", "clearly_below", "grade", "graded", "label_of", "loss_of"]


class Label(enum.StrEnum):
    """How costly a decision was (the bounds are `LABELS`)."""

    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"
    FORCED = "forced"
    UNSCORED = "unscored"
    UNCERTAIN = "uncertain"  # a loss past `good`, but the move's interval reaches the best's


COSTED = frozenset({Label.GOOD, Label.INACCURACY, Label.MISTAKE, Label.BLUNDER})
"""The labels whose loss is a measured cost (a review's summary adds these up)."""


# (label, the loss it stays below), mildest first; past the last bound a move is a blunder.
# Measured at 5,000 iterations (benchmarks/results/review-labels.json).
LABELS: tuple[tuple[Label, float], ...] = (
    (Label.GOOD, 0.03),
    (Label.INACCURACY, 0.07),
    (Label.MISTAKE, 0.36),
)


def label_of(loss: float) -> Label:
    """The label of a searched decision that lost `loss` in expected score."""
    for label, below in LABELS:
        if loss < below:
            return label
    return Label.BLUNDER


def loss_of(value: MoveValue, best: MoveValue) -> float | None:
    """What playing `value` instead of `best` costs in expected score (0 for the best itself);
    None when the search never tried it."""
    if value is best or value.move == best.move:
        return 0.0
    if not value.visits and not value.exact:
        return None
    return max(0.0, best.score - value.score)


def clearly_below(value: MoveValue, best: MoveValue) -> bool:
    """Whether `value`'s 95% interval lies wholly below `best`'s (proven values are points)."""
    return value.ci95[1] < best.ci95[0]


def grade(value: MoveValue, best: MoveValue) -> tuple[float | None, Label]:
    """The loss of `value` against `best` in their own scores, and its label: the one grading of
    hints and reviews (calibrated or not), so a cost is the difference of the chances shown."""
    loss = loss_of(value, best)
    if loss is None:
        return None, Label.UNSCORED
    label = label_of(loss)
    if label is not Label.GOOD and not clearly_below(value, best):
        return loss, Label.UNCERTAIN
    return loss, label


def graded(hint: Hint, forced: bool | None = None) -> Hint:
    """`hint` with each move's loss against the best and its label (a single legal move: forced;
    `forced` says so of a hint already cut to fewer moves), in the hint's scores as they are
    (graded again once calibrated)."""
    by_move = {value.move: value for value in hint.moves}
    best = by_move.get(hint.best)
    if best is None:
        return hint
    forced = len(hint.moves) == 1 if forced is None else forced
    moves = []
    for value in hint.moves:
        loss, label = grade(value, best)
        moves.append(dataclasses.replace(value, loss=loss, label=(Label.FORCED if forced else label).value))
    return dataclasses.replace(hint, moves=moves)
