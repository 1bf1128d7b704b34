"""The answers of a search, shaped like the JSON of docs/api.md §3: hints, evaluations, stats."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from solver.game.cards import Card
from solver.game.moves import Move
from solver.game.phases import Chance
from solver.search.lines import Line

__all__ = ["Evaluation", "Hint", "MoveValue", "SearchStats", "Tracker", "Value"]


@dataclass(frozen=True)
class SearchStats:
    algorithm: str
    iterations: int
    worlds: int
    time_ms: float
    iterations_per_s: float
    stop_reason: str
    seed: int
    threads: int
    beliefs: str = "uniform"  # how the worlds were weighed (solver.search.beliefs.Beliefs.mode)
    ess: float | None = None  # their effective sample size, when weighed
    calibrated: str | None = None  # the opponent whose score map the scores went through (calibration.py)
    model: str = "playouts"  # what valued the tree's leaves: greedy playouts or a learned net's name
    # the share of iterations in which the others played the greedy heuristic in the tree (solver.py)
    opponent_policy: float = 0.0
    value_mix: float = 0.0  # the learned value's weight against a playout at the leaves (0: played out)

    def to_json(self) -> dict[str, Any]:
        return {
            "algorithm": self.algorithm,
            "iterations": self.iterations,
            "worlds": self.worlds,
            "time_ms": round(self.time_ms, 3),
            "iterations_per_s": round(self.iterations_per_s, 1),
            "stop_reason": self.stop_reason,
            "seed": self.seed,
            "threads": self.threads,
            "beliefs": self.beliefs,
            "ess": None if self.ess is None else round(self.ess, 1),
            "calibrated": self.calibrated,
            "model": self.model,
            "opponent_policy": round(self.opponent_policy, 6),
            "value_mix": round(self.value_mix, 6),
        }


@dataclass(frozen=True)
class Value:
    """An expected score (docs/rules.md §1.5) with its 95% interval; `exact` when proven."""

    score: float
    ci95: tuple[float, float]
    exact: bool

    def to_json(self) -> dict[str, Any]:
        return {"score": round(self.score, 6), "ci95": [round(x, 6) for x in self.ci95], "exact": self.exact}


@dataclass(frozen=True)
class MoveValue:
    move: Move
    score: float
    ci95: tuple[float, float]
    visits: int
    exact: bool
    # What it costs against the best move, in the search's own expected score (before any
    # calibration), and the review's label for that cost (solver/search/labels.py).
    loss: float | None = None
    label: str | None = None
    # The line the search expects after it (solver/search/lines.py), when the hint was asked
    # for lines and this engine draws one.
    line: Line | None = None

    @property
    def notation(self) -> str:
        return self.move.notation

    def to_json(self, lines: bool = False) -> dict[str, Any]:
        """The move's JSON (docs/api.md §3); with `lines`, its `line` too (null when it has none)."""
        out: dict[str, Any] = {
            "move": self.move.to_json(),
            "notation": self.move.notation,
            "score": round(self.score, 6),
            "ci95": [round(x, 6) for x in self.ci95],
            "visits": self.visits,
            "exact": self.exact,
            "loss": None if self.loss is None else round(self.loss, 6),
            "label": self.label,
        }
        if lines:
            out["line"] = None if self.line is None else self.line.to_json()
        return out


@dataclass(frozen=True)
class Hint:
    seat: int
    best: Move
    moves: list[MoveValue]
    evaluation: Value
    stats: SearchStats
    chance: Chance  # what the scores are the chance of (solver/game/phases.py `chance_of`)
    pv: int = 0  # the plies of each move's line asked for (solver/search/lines.py); 0: no lines

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "best": self.best.to_json(),
            "moves": [move.to_json(lines=self.pv > 0) for move in self.moves],
            "evaluation": self.evaluation.to_json(),
            "chance": self.chance.value,
            "stats": self.stats.to_json(),
        }


@dataclass(frozen=True)
class Evaluation:
    seat: int
    score: float
    ci95: tuple[float, float]
    exact: bool
    scores: list[float]
    p_lose: list[float]
    stats: SearchStats
    chance: Chance  # what the scores are the chance of (solver/game/phases.py `chance_of`)
    cards: dict[Card, list[float]] = field(default_factory=dict)  # per unseen card: each seat, stock

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "score": round(self.score, 6),
            "ci95": [round(x, 6) for x in self.ci95],
            "exact": self.exact,
            "scores": [round(x, 6) for x in self.scores],
            "p_lose": [round(x, 6) for x in self.p_lose],
            "chance": self.chance.value,
            "cards": {str(card): chances for card, chances in self.cards.items()},
            "stats": self.stats.to_json(),
        }


@dataclass(frozen=True)
class Tracker:
    """One seat's card tracker (docs/api.md §3): the cards gone to the discard pile, the cards known
    in each other seat's hand, and for every card the seat cannot see the chance it lies in each
    seat's hand, then in the stock; `beliefs` and `ess` say how the worlds were weighed (as
    `SearchStats`)."""

    seat: int
    gone: tuple[Card, ...]
    known: dict[int, tuple[Card, ...]]
    cards: dict[Card, list[float]]
    beliefs: str = "uniform"
    ess: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "gone": [str(card) for card in self.gone],
            "known": {str(seat): [str(card) for card in cards] for seat, cards in self.known.items()},
            "cards": {str(card): chances for card, chances in self.cards.items()},
            "beliefs": self.beliefs,
            "ess": None if self.ess is None else round(self.ess, 1),
        }
