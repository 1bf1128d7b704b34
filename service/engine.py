"""Searches as the service runs them: limits capped by settings, hints, evaluations and engine moves.

Every search gets both an iteration and a time limit, whatever the request
asked: `Limits.capped` fills in and caps both from the settings. (A position
with nothing hidden is solved exactly by `Solver` within that time limit, and
searched when the exact solver runs out of time.)
"""

from __future__ import annotations

import random
import time
from typing import Any

from service.metrics import Metrics
from service.settings import Settings
from solver.game.errors import GameOverError, NotYourTurnError
from solver.game.position import Position
from solver.game.record import Play, Record, RecordError
from solver.search import Evaluation, Hint, Limits, Solver, StopFlag, Tracker
from solver.search.beliefs import History
from solver.search.calibration import ScoreMap, calibrated_review
from solver.search.puzzles import Puzzle, candidates, find_puzzles
from solver.search.review import Decision, Review, decisions, review_decisions

__all__ = ["Searcher"]


class Searcher:
    """Turns a request's position, limits and seed into a `Solver` answer within the settings."""

    def __init__(self, settings: Settings, metrics: Metrics) -> None:
        self.settings = settings
        self.metrics = metrics

    # -- limits -------------------------------------------------------------------------------

    def limits(self, requested: dict[str, Any] | None) -> Limits:
        """The request's limits (or the defaults), both filled in and capped (raises `bad_limits`)."""
        s = self.settings
        if requested is None:
            limits = Limits(iterations=s.default_iterations, time_ms=s.default_time_ms)
        else:
            limits = Limits.from_json(requested)
        return limits.capped(s.max_iterations, s.max_time_ms)

    def review_limits(self, requested: dict[str, Any] | None, searches: int) -> Limits:
        """Each decision's limits in a review of `searches` searched decisions: the request's limits
        (or the defaults) capped as any search's, the time also within the decision's share of
        `analysis_budget_ms`, so the whole review ends."""
        limits = self.limits(requested)
        share = self.settings.analysis_budget_ms / max(searches, 1)
        return Limits(iterations=limits.iterations, time_ms=min(limits.time_ms or share, share))

    # -- searches -----------------------------------------------------------------------------

    def _solver(self, algorithm: str, stop: StopFlag | None = None, others: str | None = None) -> Solver:
        s = self.settings
        return Solver(algorithm, threads=s.threads, beliefs=s.beliefs, particles=s.particles, stop=stop,
                      others=others)

    @staticmethod
    def check_to_move(position: Position) -> None:
        """Hints and move lists are for the seat to move: refuse a finished game or another's turn."""
        if position.waiting:
            raise NotYourTurnError(
                f"seat {position.seat} is not to move: another seat is asked a setup question it may not see"
            )
        if position.to_move is None:
            raise GameOverError("the game is over: no seat is to move")
        if position.to_move != position.seat:
            raise NotYourTurnError(
                f"seat {position.seat} is not to move: seat {position.to_move} is "
                "(set seat to the seat to move, with its hand)"
            )

    def hint(
        self,
        position: Position,
        limits: Limits,
        seed: int,
        multipv: int | None = None,
        algorithm: str = "ismcts",
        kind: str = "hint",
        history: History | None = None,
        stop: StopFlag | None = None,
        begun: float | None = None,
        pv: int = 0,
        others: str | None = None,
    ) -> Hint:
        """Ranked moves for the seat to move (runs in a search slot); `history` is what the seat
        saw the others do; `stop` ends the search at once when set (the pool's flag); the time
        limit counts from `begun` (a replay before it counts too); `pv` plies of each move's line
        (solver/search/lines.py); `others`: the kind of player every other seat is known to be
        (`Solver`'s option; None: read from their moves)."""
        self.check_to_move(position)
        solver = self._solver(algorithm, stop, others)
        hint = solver.hint(position, limits, seed=seed, multipv=multipv, history=history, begun=begun, pv=pv)
        self.metrics.record_search(kind, hint.stats.iterations, hint.stats.time_ms)
        return hint

    def evaluate(
        self,
        position: Position,
        limits: Limits,
        seed: int,
        history: History | None = None,
        stop: StopFlag | None = None,
        begun: float | None = None,
        others: str | None = None,
    ) -> Evaluation:
        """How good the position is for its seat, and where the cards it cannot see lie (runs in a
        search slot; the time limit counts from `begun`; `others` as for `hint`)."""
        solver = self._solver("ismcts", stop, others)
        evaluation = solver.evaluate(position, limits, seed=seed, history=history, begun=begun)
        self.metrics.record_search("evaluate", evaluation.stats.iterations, evaluation.stats.time_ms)
        return evaluation

    def track(self, position: Position, history: History | None, seed: int,
              stop: StopFlag | None = None) -> Tracker:
        """The seat's card tracker (no search, but weighing a long history is as dear as one: it
        runs in a search slot); `history` is weighed when the `beliefs` setting is on."""
        return self._solver("ismcts", stop).track(position, history, seed)

    def check_review_size(self, record: Record) -> None:
        """Refuse a record whose seat made more than `max_review_decisions` moves (422, before a slot
        is taken): its review would leave each decision too small a share of the budget."""
        cap = self.settings.max_review_decisions
        moves = sum(isinstance(event, Play) and event.seat == record.seat for event in record.events)
        if moves > cap:
            raise RecordError(
                f"seat {record.seat} made {moves} moves in this record: a review takes at most {cap} "
                "(TAN_MAX_REVIEW_DECISIONS)"
            )

    def review(
        self,
        record: Record,
        requested: dict[str, Any] | None,
        seed: int,
        stop: StopFlag | None = None,
        same_seed: bool = False,
    ) -> Review:
        """Review the decisions of the record's seat (runs in one search slot: the record's replay,
        then one search after another, all within `analysis_budget_ms` and stopped by `stop`);
        `same_seed`: every decision searched with `seed` (a stored game's, as its hints are)."""
        begun = time.perf_counter()
        self.check_review_size(record)
        found = decisions(record, stop)
        limits = self.review_limits(requested, sum(not decision.forced for decision in found))

        def searched(hint: Hint) -> None:
            self.metrics.record_search("review", hint.stats.iterations, hint.stats.time_ms)

        return review_decisions(record.seat, found, limits, seed, self._solver("ismcts", stop), searched,
                                budget_ms=self.settings.analysis_budget_ms, begun=begun, same_seed=same_seed)

    def puzzles(
        self, record: Record, limits: Limits, seed: int, stop: StopFlag | None = None
    ) -> tuple[list[Puzzle], int]:
        """The puzzles among the record seat's decisions, and how many decisions were searched
        (runs in one search slot): at most `max_puzzle_checks` of them (`candidates`), each within
        `limits` and its share of `analysis_budget_ms` (so the answer ends, as a review does), all
        stopped by `stop`."""
        found, checks = decisions(record, stop), self.settings.max_puzzle_checks
        share = self.settings.analysis_budget_ms / checks
        limits = Limits(iterations=limits.iterations, time_ms=min(limits.time_ms or share, share))
        puzzles = find_puzzles(found, self._solver("ismcts", stop), limits, seed, checks)
        return puzzles, len(candidates(found, seed, checks))

    def job_limits(self, requested: dict[str, Any] | None, searched: int = 1) -> Limits:
        """Each decision's limits in a review job of `searched` searched decisions: a fixed iteration
        budget (the request's iterations, else the default, capped, and lowered so that the whole
        job runs at most `max_job_iterations`), so the job's answer is reproducible and its work
        bounded; the clock only guards against a hang, at `analysis_budget_ms` a decision, far
        past what the iterations take, so that exact endgames end on their node budget, not the
        clock (raises `bad_limits`)."""
        iterations = self.limits(requested).iterations or self.settings.default_iterations
        share = max(1, self.settings.max_job_iterations // max(searched, 1))
        return Limits(iterations=min(iterations, share), time_ms=self.settings.analysis_budget_ms)

    def review_step(
        self,
        seat: int,
        decision: Decision,
        limits: Limits,
        seed: int,
        stop: StopFlag | None = None,
        same_seed: bool = False,
        mapped: ScoreMap | None = None,
    ) -> dict[str, Any]:
        """One decision of a review job (service/jobs.py): the decision reviewed as a review of it
        alone answers it, with the loss unrounded and the search's counts; `same_seed` searches it
        with `seed` itself (a stored game's, as its hints are) and `mapped` calibrates its scores
        as the game's hints are (`calibrated_review`). A set stop flag leaves it unscored."""
        reviewed = review_decisions(seat, [decision], limits, seed, self._solver("ismcts", stop),
                                    same_seed=same_seed)
        reviewed = calibrated_review(reviewed, mapped)
        stats = reviewed.stats
        if stats["searches"]:
            self.metrics.record_search("review", stats["iterations"], stats["time_ms"])
        return {
            "move": reviewed.moves[0].to_json(),
            "loss": reviewed.moves[0].loss,
            "searches": stats["searches"],
            "exact": stats["exact"],
            "iterations": stats["iterations"],
            "time_ms": stats["time_ms"],
        }

    # -- stored games -------------------------------------------------------------------------

    @staticmethod
    def tracker_seed(game_seed: int, ply: int) -> int:
        """The seed of a stored game's card tracker after `ply` moves: the same answer every time it
        is read, whichever seat reads it."""
        return random.Random(f"{game_seed}:{ply}:tracker").getrandbits(63)
