"""Post-game review (docs/api.md §3, "Reviews"): every decision of a record's seat, the move it
played against the engine's best.

A game record (docs/api.md §2.3) is replayed; before each of its seat's moves
in the play phase the position is the one the seat saw (`Position.from_game`
of the world before the move). One search ranks every legal move there, so
the move played has its own expected score (docs/rules.md §1.5) beside the
engine's choice, the most searched move, with the hidden hands weighed by what
the seat had seen the others do until then (`solver.search.beliefs`); with two
seats left and an empty stock the values are proven (`exact`). The loss is the best move's score
minus the played move's, never below 0, in the scores the review shows (calibrated, when they are:
`calibrated_review` grades again), and gives a label (`LABELS`, solver/search/labels.py, the
bounds measured by `benchmarks.review_labels`); a hint grades its moves the same way (`grade`):

| label | loss in expected score |
|---|---|
| `good` | below 0.03 (the played move is the engine's, or within the search's noise) |
| `inaccuracy` | 0.03 to below 0.07 |
| `mistake` | 0.07 to below 0.36 |
| `blunder` | 0.36 or more (a proven loss of a game always is) |

A loss past `good` whose move's 95% interval reaches the best's is `uncertain` (the search tried
it too few times to tell), not costed. A decision with a single legal move is `forced` and not
searched; a move
the search never tried (only when a time limit stops it before every move
was tried once) is `unscored`, and so is every decision left once the
review's whole budget (`budget_ms`) is spent or its stop flag is set: the
flag and the time left are checked before each decision, and each search's
time is cut to what is left, so a review ends within its budget. Each
decision is searched with its own seed, derived from the review's seed and
the decision's event index, so the same record, seed and iteration limit give
the same review when the iteration limit (not the clock) stops every search.
Setup decisions (docs/rules.md §1.7) are not reviewed.
"""

from __future__ import annotations

import contextlib
import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from solver.game.moves import Move
from solver.game.phases import Phase, chance_of
from solver.game.position import Position
from solver.game.record import Play, Record
from solver.game.reference import Game
from solver.search.answers import Hint, MoveValue
from solver.search.beliefs import History, HistoryReader
from solver.search.budget import Limits, StopFlag
from solver.search.labels import COSTED, LABELS, Label, grade, graded, label_of
from solver.search.solver import Solver

__all__ = [
    "LABELS",
    "Decision",
    "Label",
    "MoveReview",
    "Review",
    "ReviewSummary",
    "decision_seed",
    "decisions",
    "label_of",
    "review",
    "review_decisions",
]


def decision_seed(seed: int, index: int) -> int:
    """The search seed of the decision at event `index` of a review seeded with `seed` (63 bits)."""
    digest = hashlib.sha256(f"review:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass(frozen=True)
class Decision:
    """A move the record's seat chose: its event `index` in the record, the game's `ply` (moves
    the seat saw played before it since the deal: not another seat's secret keep), what the seat
    saw, and the move it played."""

    index: int
    ply: int
    position: Position
    move: Move
    history: History | None = field(default=None, compare=False)  # what the seat saw the others do
    choices: int | None = field(default=None, compare=False)  # its legal moves, when counted already

    @property
    def forced(self) -> bool:
        """A single legal move (counted once, as the replay found the decision)."""
        choices = self.choices if self.choices is not None else len(self.position.legal_moves())
        return choices == 1


class _Stopped(Exception):
    """The replay of `decisions` was stopped (its `StopFlag` set)."""


def decisions(record: Record, stop: StopFlag | None = None) -> list[Decision]:
    """The record seat's decisions in the play phase, in order (replays the record: a bad event
    raises `RecordError` with its index). Once `stop` is set (checked at every move) the replay
    ends there with the decisions found so far: nobody waits for the answer, not even for the
    rest of the record to be checked."""
    found: list[Decision] = []
    reader = HistoryReader(record.seat, record.trump)

    plies = 0  # the moves the seat saw (another seat's secret keep is no move it saw)

    def watch(index: int, event: Play, before: Game, after: Game) -> None:
        nonlocal plies
        if stop is not None and stop.is_set():
            raise _Stopped
        if event.seat == record.seat and before.phase is Phase.PLAY:
            position = record.position_of(before)  # with the game's match block, as its hints have
            choices = len(before.legal_moves())  # the seat's moves depend only on what it sees
            found.append(Decision(index, plies, position, event.move, reader.history(), choices))
        reader.observe(event.seat, event.move, before, after)
        plies += 1

    with contextlib.suppress(_Stopped):
        record.replay(watch)
    return found


@dataclass(frozen=True)
class MoveReview:
    """One reviewed decision; a score is None when it is not known (a forced move is not
    searched; an unscored move was not tried), and the loss is then 0. `played_value` and
    `best_value` are the search's rows of the two moves (their intervals and visits), when
    searched; `calibration.calibrated_review` maps them and grades them again."""

    decision: Decision
    best: Move
    played_score: float | None
    best_score: float | None
    loss: float
    label: Label
    exact: bool
    played_value: MoveValue | None = field(default=None, compare=False)
    best_value: MoveValue | None = field(default=None, compare=False)

    @classmethod
    def of(cls, decision: Decision, played: MoveValue, best: MoveValue) -> MoveReview:
        """The decision graded from the search's rows of the move played and of the best move
        (`labels.grade`, the hints' grading)."""
        loss, label = grade(played, best)
        if loss is None:
            return cls(decision, best.move, None, best.score, 0.0, label, False, None, best)
        return cls(decision, best.move, played.score, best.score, loss, label,
                   played.exact and best.exact, played, best)

    def to_json(self) -> dict[str, Any]:
        decision = self.decision

        def rounded(value: float | None) -> float | None:
            return None if value is None else round(value, 6)

        return {
            "index": decision.index,
            "ply": decision.ply,
            "move": decision.move.to_json(),
            "notation": decision.move.notation,
            "best": self.best.to_json(),
            "best_notation": self.best.notation,
            "played_score": rounded(self.played_score),
            "best_score": rounded(self.best_score),
            "loss": round(self.loss, 6),
            "label": self.label.value,
            "exact": self.exact,
            "played_ci95": _interval(self.played_value),
            "best_ci95": _interval(self.best_value),
            "played_visits": None if self.played_value is None else self.played_value.visits,
            "best_visits": None if self.best_value is None else self.best_value.visits,
            "played_exact": self.played_value is not None and self.played_value.exact,
            "best_exact": self.best_value is not None and self.best_value.exact,
            "chance": chance_of(decision.position.players).value,
            "position": decision.position.to_json(),
        }


def _interval(value: MoveValue | None) -> list[float] | None:
    return None if value is None else [round(end, 6) for end in value.ci95]


@dataclass(frozen=True)
class ReviewSummary:
    """The decisions reviewed, how many got each label, and the loss over the scored ones."""

    decisions: int
    labels: dict[Label, int]
    total_loss: float
    mean_loss: float | None

    @classmethod
    def of(cls, moves: Sequence[MoveReview]) -> ReviewSummary:
        labels = {label: 0 for label in Label}
        for move in moves:
            labels[move.label] += 1
        searched = [move.loss for move in moves if move.label in COSTED]
        total = sum(searched)
        return cls(len(moves), labels, total, total / len(searched) if searched else None)

    def to_json(self) -> dict[str, Any]:
        return {
            "decisions": self.decisions,
            "labels": {label.value: count for label, count in self.labels.items()},
            "total_loss": round(self.total_loss, 6),
            "mean_loss": None if self.mean_loss is None else round(self.mean_loss, 6),
        }


@dataclass(frozen=True)
class Review:
    """A seat's reviewed decisions and their summary; `stats` adds up the searches."""

    seat: int
    moves: list[MoveReview]
    summary: ReviewSummary
    stats: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "moves": [move.to_json() for move in self.moves],
            "summary": self.summary.to_json(),
            "stats": self.stats,
        }


def review_decisions(
    seat: int,
    found: Sequence[Decision],
    limits: Limits,
    seed: int = 0,
    solver: Solver | None = None,
    searched: Callable[[Hint], None] | None = None,
    budget_ms: float | None = None,
    begun: float | None = None,
    same_seed: bool = False,
) -> Review:
    """Review `found` (the decisions of `seat`): one search of each unforced decision within
    `limits`; `searched(hint)` is told of every search (for metrics). Each decision is searched
    with its own seed (`decision_seed`), or with `seed` itself when `same_seed`: a stored game's
    review, whose every search is then the very search of that decision's hint with that seed
    and those limits. The whole review takes at most `budget_ms` from `begun`
    (`time.perf_counter()`, by default now; earlier when the record's replay counts too): before
    each decision it checks the solver's stop flag and the time left, cuts the search's time to
    it, and leaves the decisions it has no time for `unscored` (`stats.skipped`)."""
    solver = solver or Solver()
    begun = time.perf_counter() if begun is None else begun
    moves: list[MoveReview] = []
    searches, iterations, exact, skipped = 0, 0, 0, 0
    for decision in found:
        if decision.forced:
            moves.append(MoveReview(decision, decision.move, None, None, 0.0, Label.FORCED, False))
            continue
        left_ms = None if budget_ms is None else budget_ms - (time.perf_counter() - begun) * 1000.0
        if (solver.stop is not None and solver.stop.is_set()) or (left_ms is not None and left_ms < 1.0):
            moves.append(MoveReview(decision, decision.move, None, None, 0.0, Label.UNSCORED, False))
            skipped += 1
            continue
        hint = solver.hint(
            decision.position, _within(limits, left_ms),
            seed=seed if same_seed else decision_seed(seed, decision.index),
            history=decision.history,
        )
        if searched is not None:
            searched(hint)
        searches += 1
        iterations += hint.stats.iterations
        exact += hint.evaluation.exact
        moves.append(_reviewed(decision, hint))
    stats = {
        "algorithm": solver.algorithm,
        "searches": searches,
        "skipped": skipped,
        "exact": exact,
        "iterations": iterations,
        "time_ms": round((time.perf_counter() - begun) * 1000.0, 3),
        "limits": limits.to_json(),
        "seed": seed,
    }
    return Review(seat, moves, ReviewSummary.of(moves), stats)


def _within(limits: Limits, left_ms: float | None) -> Limits:
    """`limits` with the time cut to `left_ms` (None: as they are)."""
    if left_ms is None:
        return limits
    return Limits(iterations=limits.iterations, time_ms=min(limits.time_ms or left_ms, left_ms))


def review(record: Record, limits: Limits, seed: int = 0, solver: Solver | None = None) -> Review:
    """Review every play-phase decision of the record's seat (see the module's docstring)."""
    return review_decisions(record.seat, decisions(record), limits, seed, solver)


def _reviewed(decision: Decision, hint: Hint) -> MoveReview:
    """The decision scored from one search that ranked every legal move, graded as a hint is
    (labels.py)."""
    by_move: dict[Move, MoveValue] = {value.move: value for value in graded(hint).moves}
    best = by_move[hint.best]
    played = by_move.get(decision.move)
    if played is None:  # the replay checked the move is legal, and a hint ranks every legal move
        raise AssertionError(f"{decision.move} is not among the searched moves at event {decision.index}")
    return MoveReview.of(decision, played, best)
