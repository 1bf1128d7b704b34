"""What a move costs against the search's best, and the label that cost earns (docs/api.md §3,
"Reviews"): one scale for hints and reviews.

A move's loss is the best move's expected score (docs/rules.md §1.5) minus its
own, never below 0, in the search's own scores: before any calibration
(solver/search/calibration.py), which may flatten near 0 or 1 and would hide
what a move costs. A hint grades every move it ranks with the label a review
would give it, so the hint and the review of the same decision at the same
budget and seed say the same thing.

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

__all__ = ["LABELS", "Label", "graded", "label_of", "loss_of"]


class Label(enum.StrEnum):
    """How costly a decision was (the bounds are `LABELS`)."""

    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"
    FORCED = "forced"
    UNSCORED = "unscored"


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


def graded(hint: Hint) -> Hint:
    """`hint` with each move's loss against the best and its label (a single legal move: forced)."""
    by_move = {value.move: value for value in hint.moves}
    best = by_move.get(hint.best)
    if best is None:
        return hint
    forced = len(hint.moves) == 1
    moves = []
    for value in hint.moves:
        loss = loss_of(value, best)
        if forced:
            label = Label.FORCED
        elif loss is None:
            label = Label.UNSCORED
        else:
            label = label_of(loss)
        moves.append(dataclasses.replace(value, loss=loss, label=label.value))
    return dataclasses.replace(hint, moves=moves)
