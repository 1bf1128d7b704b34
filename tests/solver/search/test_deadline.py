"""One deadline for the whole answer: the exact attempt, the weighing and the search share the
time limit, and `stats.time_ms` is the answer's wall time.

A fake clock and stand-ins for the Cython calls, which say how long they took, make these checks
exact: no test here measures real time (benchmarks/overshoot.py does).
"""

from __future__ import annotations

from typing import Any

import pytest

from solver.game.rules import Rules
from solver.search import Limits, Solver, _endgame, _tree
from solver.search import solver as solver_module
from solver.search.config import SINGLE_MOVE_ITERATIONS
from tests.support.positions import endgame_position, open_endgame, to_move_position


class Clock:
    """`time.perf_counter` for the solver: moves only when told."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def spend(self, ms: float) -> None:
        self.now += ms / 1000.0


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(solver_module.time, "perf_counter", fake)
    return fake


def stand_ins(monkeypatch: pytest.MonkeyPatch, clock: Clock, exact_ms: float) -> list[tuple[str, float]]:
    """The exact solver takes `exact_ms` and gives up; the search takes all its time (a real search
    of 100 iterations answers). Returns the time limit each was given, in order."""
    asked: list[tuple[str, float]] = []
    real_run = _tree.run_search

    def solve_exact(game: Any, hero: int, budget: int, time_ms: float, stop: Any = None) -> Any:
        asked.append(("exact", time_ms))
        clock.spend(exact_ms)
        raise TimeoutError("endgame node budget exhausted")

    def run_search(sampler: Any, config: Any, **options: Any) -> Any:
        asked.append(("search", options["time_ms"]))
        result = real_run(sampler, config, **{**options, "iterations": 100, "time_ms": 0.0})
        clock.spend(options["time_ms"])
        return result

    monkeypatch.setattr(_endgame, "solve_exact", solve_exact)
    monkeypatch.setattr(_tree, "run_search", run_search)
    return asked


def test_a_hint_searches_only_the_time_the_exact_attempt_left(
    monkeypatch: pytest.MonkeyPatch, clock: Clock
) -> None:
    asked = stand_ins(monkeypatch, clock, exact_ms=70.0)
    hint = Solver().hint(open_endgame(8, seed=13), Limits(iterations=10**9, time_ms=100), seed=1)
    # The exact attempt may take 90% of the time: the rest is the search's if it runs out.
    assert asked == [("exact", pytest.approx(90.0)), ("search", pytest.approx(30.0))]
    assert not hint.evaluation.exact and hint.stats.stop_reason == "time"
    assert hint.stats.time_ms == pytest.approx(100.0)  # the whole answer, the exact attempt included


def test_an_exact_attempt_that_overruns_leaves_the_search_a_millisecond(
    monkeypatch: pytest.MonkeyPatch, clock: Clock
) -> None:
    asked = stand_ins(monkeypatch, clock, exact_ms=100.0)
    hint = Solver().hint(open_endgame(8, seed=13), Limits(iterations=10**9, time_ms=100), seed=1)
    assert asked == [("exact", pytest.approx(90.0)), ("search", 1.0)]
    assert hint.stats.time_ms == pytest.approx(101.0)


def test_an_evaluation_shares_its_deadline_too(monkeypatch: pytest.MonkeyPatch, clock: Clock) -> None:
    asked = stand_ins(monkeypatch, clock, exact_ms=40.0)
    evaluation = Solver().evaluate(open_endgame(8, seed=13), Limits(iterations=10**9, time_ms=100), seed=1)
    assert asked == [("exact", pytest.approx(90.0)), ("search", pytest.approx(60.0))]
    assert evaluation.stats.time_ms == pytest.approx(100.0)


def test_a_single_legal_move_is_scored_by_iterations_not_by_a_clock(
    monkeypatch: pytest.MonkeyPatch, clock: Clock
) -> None:
    """The short search that scores a forced move runs `SINGLE_MOVE_ITERATIONS` (fewer if the answer
    asks fewer) within the answer's own time limit, and has no clock of its own: a 50 ms cap gave one
    game 0 iterations under load and its twin 300 (issue 64), where the iterations now decide."""
    asked: list[tuple[int, float]] = []
    real_run = _tree.run_search

    def run_search(sampler: Any, config: Any, **options: Any) -> Any:
        asked.append((options["iterations"], options["time_ms"]))
        result = real_run(sampler, config, **{**options, "time_ms": 0.0})
        clock.spend(options["time_ms"])
        return result

    monkeypatch.setattr(_tree, "run_search", run_search)
    forced = endgame_position(
        Rules.preset_named("tan"), players=3, seat=1, hand=["2s"], hand_counts=[2, 1, 2], trump="Ah",
        table=[{"attack": "Ks", "defense": None}], hidden=["3c", "4c", "5c", "6c"], attacker=0,
        defender=1, to_move=1,
    )
    hints = [Solver().hint(forced, limits, seed=1) for limits in (
        Limits(iterations=10**6, time_ms=20), Limits(iterations=10**6, time_ms=500), Limits(iterations=10**6),
        Limits(iterations=300),
    )]
    n = SINGLE_MOVE_ITERATIONS
    assert asked == [(n, pytest.approx(20.0)), (n, pytest.approx(500.0)), (n, 0.0), (300, 0.0)]
    assert {hint.stats.stop_reason for hint in hints} == {"single_move"}
    assert [hint.stats.iterations for hint in hints] == [n, n, n, 300]


def test_the_search_and_the_weighing_share_the_limit_with_no_exact_attempt(
    monkeypatch: pytest.MonkeyPatch, clock: Clock
) -> None:
    asked = stand_ins(monkeypatch, clock, exact_ms=0.0)
    hint = Solver().hint(to_move_position(seed=3), Limits(iterations=10**9, time_ms=80), seed=1)
    assert asked == [("search", pytest.approx(80.0))]
    assert hint.stats.time_ms == pytest.approx(80.0)


def test_a_model_read_from_its_file_comes_off_the_searchs_time(
    monkeypatch: pytest.MonkeyPatch, clock: Clock
) -> None:
    """The first search of a rule set reads its learned value and policy from their files (a few ms
    each; 6 here): that time is the answer's too, in a hint, an evaluation and the search that
    orders a lost endgame's moves (`practical`), so the answer still ends at its limit."""
    asked = stand_ins(monkeypatch, clock, exact_ms=0.0)
    real_chosen_model = solver_module.chosen_model

    def slow_chosen_model(*args: Any) -> Any:
        clock.spend(6.0)
        return real_chosen_model(*args)

    monkeypatch.setattr(solver_module, "chosen_model", slow_chosen_model)
    hint = Solver().hint(to_move_position(seed=3), Limits(iterations=10**9, time_ms=80), seed=1)
    assert hint.stats.model == "value-durak-2+policy-durak-2"
    Solver().evaluate(to_move_position(seed=3), Limits(iterations=10**9, time_ms=80), seed=1)
    assert asked == [("search", pytest.approx(68.0)), ("search", pytest.approx(68.0))]
    monkeypatch.setattr(_endgame, "solve_exact", real_exact)
    lost = Solver().hint(open_endgame(4, seed=2), Limits(iterations=10**9, time_ms=80), seed=1)
    assert lost.evaluation.exact and lost.evaluation.score == 0.0
    assert asked[2:] == [("search", pytest.approx(68.0))]
    assert lost.stats.time_ms == pytest.approx(80.0)


real_exact = _endgame.solve_exact
