"""Win chances against a known opponent: the search's expected score mapped to what happens.

The search scores a position as if every other seat answered about as well as
the engine does. Against itself that is nearly honest (BENCHMARKS.md, "Honest
win chances": an expected calibration error of 0.03–0.06), but against the
greedy player it is far too modest — where it predicts 0.6 it scores about
0.9, because greedy does not answer well. When the other seats are known to be
one such player (engine seats of a stored game: greedy, or the searching
engine itself), a hint's scores are passed through a monotone map fitted on
arena games of the default engine against that player (`python -m
benchmarks.calibration … --fit-map`), and the answer says so in
`stats.calibrated`. The map is monotone, so the ranking of moves is unchanged;
proven (`exact`) values are left alone.

A map is chosen for the game's exact rules and seat count, else the plain
preset's (or another of the same preset) for that seat count; otherwise the
search's own scores stand.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from solver.game.record import Record
from solver.game.rules import Rules
from solver.search.answers import Hint, MoveValue, SearchStats, Value
from solver.search.labels import Label, graded
from solver.search.learned import answering_model
from solver.search.review import MoveReview, Review, ReviewSummary

__all__ = ["ScoreMap", "calibrated_hint", "calibrated_review", "record_score_map", "score_map", "score_maps"]

MAPS_FILE = Path(__file__).with_name("calibration.json")
MAPS_FORMAT = 1


@dataclass(frozen=True)
class ScoreMap:
    """A non-decreasing piecewise-linear map from a predicted expected score to the mean final
    score, through the knots `(x, y)`; flat beyond the end knots."""

    against: str
    rules: Rules
    players: int
    x: tuple[float, ...]
    y: tuple[float, ...]
    predictions: int = 0
    source: str = ""
    model: str = "playouts"
    """The search's model of play whose scores the map was fitted on (`stats.model`: `playouts`,
    or a learned value's name): another model's scores are another scale, and are not mapped."""

    def __post_init__(self) -> None:
        if len(self.x) != len(self.y) or not self.x:
            raise ValueError("a score map needs as many x as y knots, at least one")
        if any(b < a for a, b in zip(self.x, self.x[1:], strict=False)) or any(
            b < a for a, b in zip(self.y, self.y[1:], strict=False)
        ):
            raise ValueError("a score map's knots must not decrease")
        if not all(0.0 <= v <= 1.0 for v in (*self.x, *self.y)):
            raise ValueError("a score map's knots lie in [0, 1]")

    def __call__(self, score: float) -> float:
        return float(np.interp(score, self.x, self.y))

    @property
    def label(self) -> str:
        """What `stats.calibrated` says: the opponent, and the rules the map was fitted on."""
        preset = Rules.preset_named(self.rules.preset)
        changed = sum(
            1 for name, value in self.rules.to_json().items() if preset.to_json().get(name) != value
        )
        rules = self.rules.preset + (f" with {changed} side rules" if changed else "")
        return f"{self.against} ({rules}, {self.players} seats)"

    @classmethod
    def fit(
        cls,
        predicted: Sequence[float],
        outcome: Sequence[float],
        against: str,
        rules: Rules,
        players: int,
        source: str = "",
        model: str = "playouts",
    ) -> ScoreMap:
        """The least-squares monotone fit of `outcome` on `predicted` (pool-adjacent-violators),
        kept as the two ends of each constant block."""
        order = np.argsort(np.asarray(predicted, dtype=float), kind="stable")
        xs = np.asarray(predicted, dtype=float)[order]
        ys = np.asarray(outcome, dtype=float)[order]
        blocks: list[list[float]] = []  # [mean, weight, first x, last x]
        for x, y in zip(xs, ys, strict=True):
            blocks.append([float(y), 1.0, float(x), float(x)])
            while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
                merged = blocks.pop()
                before = blocks[-1]
                weight = before[1] + merged[1]
                before[0] = (before[0] * before[1] + merged[0] * merged[1]) / weight
                before[1], before[3] = weight, merged[3]
        knots_x: list[float] = []
        knots_y: list[float] = []
        for mean, _weight, first, last in blocks:
            for end in (first, last) if last > first else (first,):
                if knots_x and end <= knots_x[-1]:
                    continue  # ties between blocks: keep the first knot at that x
                knots_x.append(round(end, 6))
                knots_y.append(round(min(1.0, max(0.0, mean)), 6))
        return cls(against, rules, players, tuple(knots_x), tuple(knots_y), len(xs), source, model)

    def to_json(self) -> dict[str, Any]:
        return {
            "against": self.against,
            "model": self.model,
            "rules": self.rules.to_json(),
            "players": self.players,
            "predictions": self.predictions,
            "source": self.source,
            "x": list(self.x),
            "y": list(self.y),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ScoreMap:
        return cls(
            str(data["against"]),
            Rules.from_json(data["rules"]),
            int(data["players"]),
            tuple(float(v) for v in data["x"]),
            tuple(float(v) for v in data["y"]),
            int(data.get("predictions", 0)),
            str(data.get("source", "")),
            str(data.get("model", "playouts")),
        )


@cache
def score_maps() -> tuple[ScoreMap, ...]:
    """The maps shipped with Tấn (`calibration.json` beside this module)."""
    if not MAPS_FILE.exists():
        return ()
    data = json.loads(MAPS_FILE.read_text())
    if data.get("format") != MAPS_FORMAT:
        raise ValueError(f"{MAPS_FILE}: format {data.get('format')!r}, expected {MAPS_FORMAT}")
    return tuple(ScoreMap.from_json(entry) for entry in data["maps"])


def score_map(
    rules: Rules, players: int, opponents: Sequence[str], maps: Sequence[ScoreMap] | None = None,
    model: str | None = None,
) -> ScoreMap | None:
    """The map for a seat whose every other seat is the engine `opponents[0]` (all alike), under
    `rules` with `players` seats, of the scores of the search's `model` (by default the one the
    default search answers with for the rules: `solver.search.learned.answering_model`): fitted on
    those very rules if there is one, else on the plain preset (else another of the same preset);
    None when the others differ or no map fits."""
    if model is None:
        model = answering_model(rules, players)
    kinds = set(opponents)
    if len(kinds) != 1:
        return None
    (against,) = kinds
    candidates = [
        m for m in (score_maps() if maps is None else maps)
        if m.against == against and m.players == players and m.model == model
    ]
    for candidate in candidates:
        if candidate.rules == rules:
            return candidate
    plain = Rules.preset_named(rules.preset)
    same_preset = [candidate for candidate in candidates if candidate.rules.preset == rules.preset]
    return min(same_preset, key=lambda m: m.rules != plain, default=None)  # the plain preset's first


def record_score_map(record: Record) -> ScoreMap | None:
    """The map of a record's seat when its `seats` name every other seat one engine that has a map
    (a stored game's record does: `GET /v1/games/{id}/record`), so that record asked of
    `POST /v1/hint` answers on the scale of that game's own hints and review; None otherwise (no
    seats named, a human, or seats of different kinds)."""
    if record.seats is None:
        return None
    others = [name for seat, name in enumerate(record.seats) if seat != record.seat]
    return score_map(record.rules, len(record.seats), others)


def _value(value: Value, mapped: ScoreMap) -> Value:
    if value.exact:
        return value
    return Value(mapped(value.score), (mapped(value.ci95[0]), mapped(value.ci95[1])), False)


def _move(move: MoveValue, mapped: ScoreMap) -> MoveValue:
    if move.exact:
        return move
    return dataclasses.replace(
        move, score=mapped(move.score), ci95=(mapped(move.ci95[0]), mapped(move.ci95[1])),
        line=None if move.line is None else move.line.mapped(mapped),
    )


def _stats(stats: SearchStats, mapped: ScoreMap) -> SearchStats:
    return dataclasses.replace(stats, calibrated=mapped.label)


def calibrated_hint(hint: Hint, mapped: ScoreMap | None) -> Hint:
    """`hint` with every estimated score (and interval end) passed through `mapped`, and its moves
    graded again on the chances it now shows (labels.py: a cost is the difference shown)."""
    if mapped is None:
        return hint
    forced = any(move.label == Label.FORCED for move in hint.moves)
    return graded(dataclasses.replace(
        hint,
        moves=[_move(move, mapped) for move in hint.moves],
        evaluation=_value(hint.evaluation, mapped),
        stats=_stats(hint.stats, mapped),
    ), forced)


def _reviewed(move: MoveReview, mapped: ScoreMap) -> MoveReview:
    """A reviewed decision's two rows passed through `mapped` and graded again, as a calibrated
    hint's are; a forced or unscored decision has nothing to grade."""
    best = None if move.best_value is None else _move(move.best_value, mapped)
    if move.played_value is None or best is None:
        return move if best is None else dataclasses.replace(move, best_score=best.score, best_value=best)
    return MoveReview.of(move.decision, _move(move.played_value, mapped), best)


def calibrated_review(review: Review, mapped: ScoreMap | None) -> Review:
    """`review` with every estimated played and best score passed through `mapped`, as its hints'
    are, and graded again on those chances (labels.py), so that a stored game's hints and review
    show one quantity and each cost is the difference of the two chances shown."""
    if mapped is None:
        return review
    moves = [_reviewed(move, mapped) for move in review.moves]
    return dataclasses.replace(
        review, moves=moves, summary=ReviewSummary.of(moves),
        stats={**review.stats, "calibrated": mapped.label},
    )
