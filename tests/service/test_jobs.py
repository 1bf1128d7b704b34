"""Review jobs on both stores: leases, two workers, a worker killed with -9 mid-job, progress in order.

The workers are the service's own (`service.jobs.Worker`, in-process, and `tan worker` as a real
process); the store is a SQLite file or a fresh database of a real PostgreSQL server. Every wait
is a hang guard, never a timing.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from service.capacity import SearchPool
from service.deps import open_store
from service.engine import Searcher
from service.jobs import JobQueue, Worker
from service.metrics import Metrics
from service.store import GameStore, LeaseLostError
from solver.game.record import Record
from solver.game.reference import Game, random_deck
from solver.game.rules import Rules
from tests.support.records import record_of_game
from tests.support.service import make_settings

_opened: list[GameStore] = []


@pytest.fixture(autouse=True)
def _close_stores() -> Iterator[None]:
    yield
    while _opened:
        _opened.pop().close()


def played_record(seed: int, seat: int = 0) -> Record:
    """A whole 2-seat durak game of seeded random moves, as `seat` saw it."""
    rules = Rules.preset_named("durak")
    deck = [str(card) for card in random_deck(rules, seed)]
    game = Game.deal(rules, 2, deck=deck, first_attacker=0)
    rng = random.Random(seed)
    moves: list[tuple[int, str]] = []
    while game.to_move is not None:
        mover = game.to_move
        chosen = rng.choice(game.legal_moves())
        moves.append((mover, chosen.notation))
        game.play(chosen, mover)
    return record_of_game(rules, 2, deck, moves, seat, first_attacker=0)


class Side:
    """A process's share of the jobs: its settings, store, queue and workers on `database`."""

    def __init__(self, database: Path | str, **settings: Any) -> None:
        self.settings = make_settings(database, **settings)
        self.metrics = Metrics()
        self.store = open_store(self.settings)
        _opened.append(self.store)
        self.searcher = Searcher(self.settings, self.metrics)
        self.queue = JobQueue(self.store, self.searcher, self.settings, self.metrics)

    def worker(self) -> Worker:
        pool = SearchPool(1, 1, self.metrics, queue_size=1, queue_wait_s=60)
        return Worker(self.store, self.searcher, pool, self.settings, self.metrics)

    def submit(self, record: Record, iterations: int, seed: int) -> str:
        job = asyncio.run(self.queue.submit("analyze", record, {"iterations": iterations}, seed))
        return str(job["id"])


def work_until_done(side: Side, workers: list[Worker], jobs: list[str]) -> None:
    """Run `workers` together until every job of `jobs` has ended."""

    async def run() -> None:
        tasks = [asyncio.create_task(worker.run()) for worker in workers]
        for _ in range(60_000):  # a hang guard
            states = await asyncio.to_thread(lambda: [side.store.job(job) for job in jobs])
            if all(state is not None and state.status in ("done", "failed") for state in states):
                break
            await asyncio.sleep(0.01)
        for worker in workers:
            worker.stopping.set()
        await asyncio.gather(*tasks)

    asyncio.run(run())


def steps_by(store: GameStore, job_id: str) -> list[str]:
    """Who stored each step of the job, in order."""
    with store.transaction(write=False) as db:
        rows = db.execute("SELECT worker FROM job_steps WHERE job_id = ? ORDER BY step", (job_id,)).fetchall()
    return [str(row[0]) for row in rows]


def untimed(result: dict[str, Any]) -> dict[str, Any]:
    return {**result, "stats": {k: v for k, v in result["stats"].items() if k != "time_ms"}}


@pytest.mark.long
def test_two_workers_never_run_one_job_twice(database: Path | str) -> None:
    """Two workers of two 'processes' on one store share four jobs: each job is claimed once and
    every step of it stored by the worker that claimed it; the same record and seed give the same
    review whichever worker did it."""
    first, second = Side(database), Side(database)
    record = played_record(3)
    jobs = [first.submit(record, 100, seed=number % 2) for number in range(4)]
    workers = [first.worker(), second.worker()]
    work_until_done(first, workers, jobs)
    finished = [first.store.job(job) for job in jobs]
    assert all(job is not None and job.status == "done" and job.attempts == 1 for job in finished)
    for job in finished:
        assert job is not None and job.result is not None
        assert steps_by(first.store, job.id) == [job.worker] * job.total
        assert job.done == job.total == len(job.result["moves"])
    assert {job.worker for job in finished if job is not None} <= {worker.name for worker in workers}
    by_seed = [untimed(job.result) for job in finished if job is not None and job.result is not None]
    assert by_seed[0::2] == [by_seed[0]] * 2 and by_seed[1::2] == [by_seed[1]] * 2


def test_a_worker_whose_lease_ran_out_stores_nothing(database: Path | str) -> None:
    side = Side(database)
    job_id = side.submit(played_record(4), 100, seed=0)
    late = side.store.claim_job("late", lease_s=-1)  # a lease already run out: as if it stalled
    assert late is not None and late.id == job_id and late.attempts == 1
    taken = side.store.claim_job("next", lease_s=60)
    assert taken is not None and taken.id == job_id and taken.attempts == 2
    assert side.store.claim_job("third", lease_s=60) is None  # held: nobody else gets it
    step = {"move": {}, "loss": 0.0, "searches": 0, "exact": 0, "iterations": 0, "time_ms": 0.0}
    with pytest.raises(LeaseLostError):
        side.store.job_step(job_id, "late", 0, step, 60)
    with pytest.raises(LeaseLostError):
        side.store.finish_job(job_id, "late", {"seat": 0})
    side.store.job_step(job_id, "next", 0, step, 60)
    job = side.store.job(job_id)
    assert job is not None and job.done == 1 and job.worker == "next"
    assert steps_by(side.store, job_id) == ["next"]


def test_a_job_whose_workers_keep_dying_fails(database: Path | str) -> None:
    side = Side(database)
    job_id = side.submit(played_record(4), 100, seed=0)
    for attempt in range(3):
        assert side.store.claim_job(f"dies-{attempt}", lease_s=-1, max_attempts=3) is not None
    assert side.store.claim_job("last", lease_s=60, max_attempts=3) is None
    job = side.store.job(job_id)
    assert job is not None and job.status == "failed" and "3 workers" in str(job.error)


@pytest.mark.parametrize("database", ["sqlite", pytest.param("postgresql", marks=pytest.mark.long)],
                         indirect=True)
def test_a_worker_killed_mid_job_loses_nothing(database: Path | str, tmp_path: Path) -> None:
    """A `tan worker` process killed with -9 after its first stored steps: once its lease has run
    out another worker takes the job and goes on from the steps stored, the progress read all
    along never goes back, and the review is the one an unbroken run gives."""
    side = Side(database)
    record = played_record(5)
    job_id = side.submit(record, 500, seed=7)
    env = {**os.environ, "TAN_DATABASE": str(database), "TAN_JOB_LEASE_S": "1", "TAN_JOB_POLL_S": "0.05",
           "TAN_MAX_ITERATIONS": "5000", "TAN_MAX_TIME_MS": "2000"}
    seen: list[int] = []
    worker = subprocess.Popen([sys.executable, "-m", "service.cli", "worker"], env=env,
                              stderr=subprocess.DEVNULL)
    try:
        event = threading.Event()
        for _ in range(60_000):  # a hang guard
            job = side.store.job(job_id)
            assert job is not None
            seen.append(job.done)
            if job.done >= 2:
                break
            assert worker.poll() is None, "the worker exited"
            event.wait(0.01)
    finally:
        worker.send_signal(signal.SIGKILL)
        worker.wait()
    killed = side.store.job(job_id)
    assert killed is not None and killed.status == "running" and 2 <= killed.done < killed.total
    dead = killed.worker
    after = side.worker()

    async def finish() -> None:
        task = asyncio.create_task(after.run())
        for _ in range(60_000):
            job = await asyncio.to_thread(side.store.job, job_id)
            assert job is not None
            seen.append(job.done)
            if job.status in ("done", "failed"):
                break
            await asyncio.sleep(0.01)
        after.stopping.set()
        await task

    asyncio.run(finish())
    done = side.store.job(job_id)
    assert done is not None and done.status == "done" and done.attempts == 2 and done.worker == after.name
    assert seen == sorted(seen) and seen[-1] == done.total
    owners = steps_by(side.store, job_id)
    assert len(owners) == done.total and owners[: killed.done] == [dead] * killed.done
    assert set(owners[killed.done :]) == {after.name}
    unbroken = side.submit(record, 500, seed=7)
    work_until_done(side, [side.worker()], [unbroken])
    reference = side.store.job(unbroken)
    assert reference is not None and reference.result is not None and done.result is not None
    assert untimed(done.result) == untimed(reference.result)


@pytest.mark.parametrize("database", ["sqlite", pytest.param("postgresql", marks=pytest.mark.long)],
                         indirect=True)
def test_a_cancelled_job_stores_nothing_more_and_frees_its_client(database: Path | str) -> None:
    """`cancel_job`: a running job becomes `cancelled`; its worker's next write is refused, nobody
    claims it again, the client's job count frees at once; cancelling again, or a job that ended,
    changes nothing; it expires like an ended job."""
    side = Side(database, max_jobs_per_client=1)
    record = played_record(6)
    first = asyncio.run(side.queue.submit("analyze", record, {"iterations": 50}, 0, client="10.0.0.9"))
    with pytest.raises(Exception, match="already has 1 jobs"):
        asyncio.run(side.queue.submit("analyze", record, {"iterations": 50}, 0, client="10.0.0.9"))
    taken = side.store.claim_job("w", lease_s=60)
    assert taken is not None and taken.id == first["id"]
    step = {"move": {}, "loss": 0.0, "searches": 0, "exact": 0, "iterations": 0, "time_ms": 0.0}
    side.store.job_step(taken.id, "w", 0, step, 60)
    cancelled = asyncio.run(side.queue.cancel(taken.id))
    assert cancelled["status"] == "cancelled" and cancelled["progress"]["done"] == 1
    assert cancelled["result"] is None
    with pytest.raises(LeaseLostError):
        side.store.job_step(taken.id, "w", 1, step, 60)
    with pytest.raises(LeaseLostError):
        side.store.finish_job(taken.id, "w", {"seat": 0})
    assert side.store.claim_job("other", lease_s=60) is None
    assert asyncio.run(side.queue.cancel(taken.id)) == cancelled  # twice: the same
    second = asyncio.run(side.queue.submit("analyze", record, {"iterations": 50}, 0, client="10.0.0.9"))
    work_until_done(side, [side.worker()], [second["id"]])
    done = asyncio.run(side.queue.read(second["id"]))
    assert done["status"] == "done" and asyncio.run(side.queue.cancel(second["id"])) == done
    assert side.store.cancel_job("no-such-job") is None
    assert side.store.job_counts()["cancelled"] == 1
    assert side.store.expire_jobs(ended_before=time.time() + 1) == 2
    assert side.store.job(taken.id) is None and side.store.job_steps(taken.id) == {}


@pytest.mark.parametrize("database", [pytest.param("sqlite", marks=pytest.mark.long), "postgresql"],
                         indirect=True)
def test_a_worker_leaves_a_job_cancelled_under_it_for_the_next(database: Path | str) -> None:
    """A job cancelled while a worker reviews it: the worker stores no step after the cancel and
    goes on to the next job, which it finishes."""
    side = Side(database)
    record = played_record(5)
    long_job = side.submit(record, 2_000, seed=1)
    next_job = side.submit(record, 50, seed=1)
    worker = side.worker()
    at_cancel: list[int] = []

    async def run() -> None:
        task = asyncio.create_task(worker.run())
        for _ in range(60_000):  # a hang guard
            job = await asyncio.to_thread(side.store.job, long_job)
            assert job is not None
            if job.done >= 1:
                break
            await asyncio.sleep(0.01)
        cancelled = await asyncio.to_thread(side.store.cancel_job, long_job)
        assert cancelled is not None and cancelled.status == "cancelled"
        at_cancel.append(cancelled.done)
        for _ in range(60_000):
            job = await asyncio.to_thread(side.store.job, next_job)
            assert job is not None
            if job.status in ("done", "failed"):
                break
            await asyncio.sleep(0.01)
        worker.stopping.set()
        await task

    asyncio.run(run())
    dropped, finished = side.store.job(long_job), side.store.job(next_job)
    assert dropped is not None and dropped.status == "cancelled" and dropped.result is None
    assert dropped.done == at_cancel[0] < dropped.total
    assert len(side.store.job_steps(long_job)) == at_cancel[0]
    assert finished is not None and finished.status == "done" and finished.worker == worker.name
