"""Every part of an answer keeps its budget and stops on its flag (issue 24): the belief weighing of
a long history, the review loop, the replay of a record's decisions."""

from __future__ import annotations

from functools import cache

import pytest

from benchmarks.long_game import long_record
from solver.game.record import Record, RecordError
from solver.search import Limits, Solver, StopFlag
from solver.search.beliefs import weigh
from solver.search.review import Decision, Label, decisions, review_decisions
from solver.search.sampling import prepare
from tests.support.records import endgame_record


@cache
def late_decision() -> Decision:
    """The last searched decision of seat 0 in the long game: 1,369 other decisions to weigh."""
    return [decision for decision in decisions(long_record(1, 0)) if not decision.forced][-1]


def stopped() -> StopFlag:
    flag = StopFlag()
    flag.set()
    return flag


def test_the_long_game_is_legal_long_and_ends_at_the_bout_cap() -> None:
    record = long_record(1, 0)
    assert len(record.events) == 2056
    world = record.replay()
    assert world.over and world.loser is None and world.scores == [0.5, 0.5, 0.5]
    assert late_decision().history is not None and late_decision().history.decisions > 1000


def test_the_weighing_stops_on_the_flag() -> None:
    decision = late_decision()
    beliefs = weigh(prepare(decision.position), decision.history, stop=stopped())
    assert beliefs.mode == "unweighed" and not beliefs.weighted and beliefs.decisions > 1000
    table = beliefs.card_chances(decision.position)  # every unseen card alike: uniform
    assert set(table) == set(decision.position.unseen_cards())


def test_the_weighing_ends_at_its_time_limit() -> None:
    decision = late_decision()
    beliefs = weigh(prepare(decision.position), decision.history, time_ms=1e-9)
    assert beliefs.mode == "unweighed"
    whole = weigh(prepare(decision.position), decision.history, particles=2048, seed=3)
    assert whole.weighted and len(whole.weights) == 1024  # the work budget: 1,024 worlds at least


def test_the_weighing_refuses_a_time_limit_that_is_not_positive() -> None:
    decision = late_decision()
    with pytest.raises(ValueError, match="time_ms"):
        weigh(prepare(decision.position), decision.history, time_ms=0)


def test_a_stopped_hint_weighs_nothing() -> None:
    decision = late_decision()
    hint = Solver(stop=stopped()).hint(decision.position, Limits(iterations=10**6), history=decision.history)
    assert hint.stats.beliefs == "unweighed" and hint.stats.stop_reason == "stopped"
    assert hint.stats.iterations <= 1


def test_a_stopped_review_searches_no_decision() -> None:
    found = decisions(endgame_record())
    unforced = sum(not decision.forced for decision in found)
    review = review_decisions(0, found, Limits(iterations=200), solver=Solver(stop=stopped()))
    assert unforced and review.stats["searches"] == 0 and review.stats["skipped"] == unforced
    assert review.summary.labels[Label.UNSCORED] == unforced
    assert review.summary.labels[Label.FORCED] == len(found) - unforced


def test_a_review_ends_when_its_budget_is_spent() -> None:
    found = decisions(endgame_record())
    unforced = sum(not decision.forced for decision in found)
    spent = review_decisions(0, found, Limits(iterations=200), budget_ms=0.5)
    assert spent.stats["searches"] == 0 and spent.stats["skipped"] == unforced
    whole = review_decisions(0, found, Limits(iterations=200), budget_ms=None)
    assert whole.stats["searches"] == unforced and whole.stats["skipped"] == 0


def test_a_stopped_replay_ends_at_once() -> None:
    """A set flag ends the replay at its first move: no decision, and the rest of the record (here
    an impossible last event) is not even read."""
    record = endgame_record()
    assert decisions(record, stopped()) == []
    assert decisions(record, StopFlag()) == decisions(record)
    data = record.to_json()
    bad = Record.from_json({**data, "events": [*data["events"], {"seat": 1, "move": "attack 6d"}]})
    with pytest.raises(RecordError):
        decisions(bad)
    assert decisions(bad, stopped()) == []
