"""Arena statistics: mean scores with Wilson intervals, Elo, and the sequential test (SPRT).

`summarize` turns the records into per-engine statistics: mean score with its
Wilson 95% interval (the score read as a proportion: a draw is half a win)
and, for two engines at a two-seat table, the Elo difference with its
interval. `Sprt` decides between two Elo hypotheses as games come in.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from solver.search.intervals import wilson_interval
from solver.tools.arena.tasks import ArenaError, GameTask

__all__ = [
    "ArenaSummary",
    "EngineStats",
    "Sprt",
    "SprtResult",
    "SprtWatch",
    "elo_difference",
    "expected_score",
    "sprt_result",
    "summarize",
    "wilson_interval",
]


def elo_difference(score: float) -> float:
    """The Elo difference that predicts an expected score `score` (±inf at 1 and 0)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0: no -0 for an even score


def expected_score(elo: float) -> float:
    """The expected score of a player `elo` points stronger than its opponent (logistic Elo)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test of H0 "the first engine is `elo0` stronger than the
    second" against H1 "it is `elo1` stronger", with error rates `alpha` (accepting H1 when H0
    holds) and `beta` (accepting H0 when H1 holds).

    The log-likelihood ratio is the generalized SPRT with the normal approximation on the mean
    score: for `n` game scores `x_i` (1 a win, 0.5 a draw, 0 a loss) with sum `S` and variance
    `var = Σx_i²/n - (S/n)²`, and `s0`, `s1` the expected scores of `elo0` and `elo1`,

        LLR = (s1 - s0) · (2·S - n·(s0 + s1)) / (2·var)

    which is n·((m - s0)² - (m - s1)²) / (2·var) with `m = S/n`: how much nearer the
    observed mean is to `s1` than to `s0`, in units of its variance. While every game scored
    alike the variance is 0 and nothing can be weighed, so it is then taken over the scores
    with one win and one loss added. The test accepts H1 once `LLR >= ln((1 - beta)/alpha)`,
    H0 once `LLR <= ln(beta/(1 - alpha))`, and goes on in between. The two games of a deal
    are counted as they are, not as a pair (no pentanomial model): paired deals make the
    variance estimate, and so the test, somewhat conservative.
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not all(math.isfinite(x) for x in (self.elo0, self.elo1)) or self.elo0 >= self.elo1:
            raise ArenaError(f"SPRT needs elo0 < elo1, not {self.elo0:g}, {self.elo1:g}")
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0.0 < value < 0.5:
                raise ArenaError(f"SPRT {name} must be between 0 and 0.5, not {value:g}")

    @property
    def bounds(self) -> tuple[float, float]:
        """(lower, upper): the LLR at which H0, respectively H1, is accepted."""
        return (math.log(self.beta / (1.0 - self.alpha)), math.log((1.0 - self.beta) / self.alpha))

    def llr(self, scores: Sequence[float]) -> float:
        """The log-likelihood ratio of H1 against H0 after games scoring `scores`."""
        n = len(scores)
        if n == 0:
            return 0.0
        total = math.fsum(scores)
        var = _variance(scores)
        if var <= 0.0:
            var = _variance([*scores, 0.0, 1.0])
        s0, s1 = expected_score(self.elo0), expected_score(self.elo1)
        return (s1 - s0) * (2.0 * total - n * (s0 + s1)) / (2.0 * var)

    def decision(self, llr: float) -> str:
        """"H1", "H0" or "inconclusive" for a log-likelihood ratio `llr`."""
        lower, upper = self.bounds
        return "H1" if llr >= upper else "H0" if llr <= lower else "inconclusive"


def _variance(values: Sequence[float]) -> float:
    n = len(values)
    mean = math.fsum(values) / n
    return max(math.fsum(x * x for x in values) / n - mean * mean, 0.0)


@dataclass(frozen=True)
class SprtResult:
    """Where a `Sprt` stands after the first `deals` whole deals (`games` games)."""

    sprt: Sprt
    engine: str
    opponent: str
    llr: float
    decision: str
    deals: int
    games: int

    @property
    def decided(self) -> bool:
        return self.decision != "inconclusive"

    def to_json(self) -> dict[str, Any]:
        lower, upper = self.sprt.bounds
        return {
            "engine": self.engine,
            "opponent": self.opponent,
            "elo0": self.sprt.elo0,
            "elo1": self.sprt.elo1,
            "alpha": self.sprt.alpha,
            "beta": self.sprt.beta,
            "llr": round(self.llr, 4),
            "bounds": [round(lower, 4), round(upper, 4)],
            "decision": self.decision,
            "deals": self.deals,
            "games": self.games,
        }


class SprtWatch:
    """Runs a `Sprt` over whole deals in deal order, whatever order the games finish in.

    A deal counts once all its seat rotations are in; the test looks at deals 0, 1, 2, …
    and stops at the first that decides it, so its decision, and the deals it used, are
    the same on one core, many cores or a cluster.
    """

    def __init__(self, sprt: Sprt, tasks: Sequence[GameTask]) -> None:
        labels = list(dict.fromkeys(label for task in tasks for label in task.engines))
        if len(labels) != 2 or any(task.players != 2 for task in tasks):
            raise ArenaError("SPRT needs two engines at a two-seat table")
        self.sprt = sprt
        self.engine, self.opponent = tasks[0].engines[0], tasks[0].engines[1]
        self.by_deal: dict[int, list[Mapping[str, Any]]] = {}
        self.scores: list[float] = []
        self.deals = 0
        self.llr = 0.0
        self._decision = "inconclusive"

    def add(self, record: Mapping[str, Any]) -> SprtResult:
        """Count a finished game; answer where the test stands."""
        if self._decision != "inconclusive":
            return self.result()
        self.by_deal.setdefault(record["deal"], []).append(record)
        while len(self.by_deal.get(self.deals, ())) == 2:
            for game in self.by_deal.pop(self.deals):
                self.scores.append(float(game["scores"][game["engines"].index(self.engine)]))
            self.deals += 1
            self.llr = self.sprt.llr(self.scores)
            self._decision = self.sprt.decision(self.llr)
            if self._decision != "inconclusive":
                break
        return self.result()

    def result(self) -> SprtResult:
        return SprtResult(self.sprt, self.engine, self.opponent, self.llr, self._decision,
                          self.deals, len(self.scores))


def sprt_result(sprt: Sprt, tasks: Sequence[GameTask], records: Iterable[Mapping[str, Any]]) -> SprtResult:
    """Where `sprt` stands over the records of an arena of `tasks` (as `run_arena` decides)."""
    watch = SprtWatch(sprt, tasks)
    for record in sorted(records, key=lambda r: (r["deal"], r["rotation"])):
        watch.add(record)
    return watch.result()


@dataclass(frozen=True)
class EngineStats:
    """One engine's results over every seat it held: a win scores 1, a draw 0.5 (docs/rules.md §1.5)."""

    engine: str
    games: int
    score: float
    wins: int
    draws: int
    losses: int
    ci95: tuple[float, float]

    def to_json(self) -> dict[str, Any]:
        return {
            "engine": self.engine,
            "games": self.games,
            "score": round(self.score, 6),
            "ci95": [round(x, 6) for x in self.ci95],
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
        }


@dataclass(frozen=True)
class ArenaSummary:
    """Per-engine statistics of a match; `elo` is (difference, low, high) of the first engine
    against the second, for two engines at a two-seat table, else None."""

    games: int
    engines: list[EngineStats]
    elo: tuple[float, float, float] | None
    plies_per_game: float
    seconds: float

    def to_json(self) -> dict[str, Any]:
        def finite(x: float) -> float | None:
            return round(x, 1) if math.isfinite(x) else None

        return {
            "games": self.games,
            "engines": [stats.to_json() for stats in self.engines],
            "elo": None
            if self.elo is None
            else {
                "engine": self.engines[0].engine,
                "opponent": self.engines[1].engine,
                "difference": finite(self.elo[0]),
                "ci95": [finite(self.elo[1]), finite(self.elo[2])],
            },
            "plies_per_game": round(self.plies_per_game, 2),
            "seconds": round(self.seconds, 3),
        }


def summarize(records: Iterable[Mapping[str, Any]], order: Sequence[str] | None = None) -> ArenaSummary:
    """Statistics per engine over `records` (listed in `order`, else as first seen); a match's
    record counts each of its games."""
    records = list(records)
    scores: dict[str, list[float]] = {name: [] for name in order or ()}
    for record in records:
        for game in record.get("games") or [record["scores"]]:
            for engine, score in zip(record["engines"], game, strict=True):
                scores.setdefault(engine, []).append(float(score))
    stats = []
    for engine, values in scores.items():
        n = len(values)
        mean = sum(values) / n if n else 0.0
        stats.append(
            EngineStats(
                engine=engine,
                games=n,
                score=mean,
                wins=sum(1 for v in values if v == 1.0),
                draws=sum(1 for v in values if v == 0.5),
                losses=sum(1 for v in values if v == 0.0),
                ci95=wilson_interval(mean, n),
            )
        )
    elo = None
    two_seats = bool(records) and all(record["players"] == 2 for record in records)
    if len(stats) == 2 and two_seats and stats[0].games:
        low, high = stats[0].ci95
        elo = (elo_difference(stats[0].score), elo_difference(low), elo_difference(high))
    plies = sum(record["plies"] for record in records)
    games = sum(len(record.get("games") or [record["scores"]]) for record in records)
    return ArenaSummary(
        games=games,
        engines=stats,
        elo=elo,
        plies_per_game=plies / games if games else 0.0,
        seconds=sum(record["seconds"] for record in records),
    )
