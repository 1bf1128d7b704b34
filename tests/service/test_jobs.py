"""Review jobs on both stores: leases, two workers, a worker killed with -9 mid-job, progress in order.

The workers are the service's own (`service.jobs.Worker`, in-process, and `tan worker` as a real
process); the store is a SQLite file or a fresh database of a real PostgreSQL server. Every wait
is a hang guard, never a timing.
"""

from __future__ import annotations

import asyncio
import json
import logging
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
from service.errors import ApiError, ServiceCode
from service.jobs import JobQueue, Worker
from service.metrics import Metrics
from service.store import GameStore, LeaseLostError, StorageUnavailableError
from solver.game.record import Record
from solver.game.reference import Game, random_deck
from solver.game.rules import Rules
from solver.search.review import decisions
from tests.support.postgres import Cluster
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


# -- fairness between clients, a job's whole work, leases, storage blips (issue 64, findings 2-4) --


def job_order(store: GameStore) -> list[str]:
    """The stored jobs, by when they were last touched (an ended job: when it ended)."""
    with store.transaction(write=False) as db:
        return [str(row[0]) for row in db.execute("SELECT id FROM jobs ORDER BY updated_at").fetchall()]


def lease_until(store: GameStore, job_id: str) -> float | None:
    with store.transaction(write=False) as db:
        row = db.execute("SELECT lease_until FROM jobs WHERE id = ?", (job_id,)).fetchone()
    return None if row[0] is None else float(row[0])


def test_workers_take_jobs_in_turns_between_clients(database: Path | str) -> None:
    """The claim order: a client with a job being worked on waits behind one with none; a turn
    passes only when another client's job waits, and goes to the client served longest ago; a job
    put back keeps its steps and its turn is no attempt."""
    side = Side(database)
    store = side.store
    for job_id, client in (("a1", "a"), ("a2", "a"), ("b1", "b")):
        store.submit_job(job_id, "analyze", {"n": job_id}, 3, client)
    first = store.claim_job("w1", lease_s=60)
    second = store.claim_job("w2", lease_s=60)
    assert first is not None and first.id == "a1"
    assert second is not None and second.id == "b1"  # not a2: client a already has a job held
    step = {"move": {}, "loss": 0.0, "searches": 0, "exact": 0, "iterations": 0, "time_ms": 0.0}
    store.job_step("a1", "w1", 0, step, 60)
    kept = store.pass_job("a1", "w1", 60)  # only a's own job waits: a1 goes on
    assert kept is not None and kept.id == "a1" and kept.attempts == 1
    store.submit_job("c1", "analyze", {"n": "c1"}, 3, "c")
    passed = store.pass_job("a1", "w1", 60)  # c waits, and was never served
    assert passed is not None and passed.id == "c1" and passed.worker == "w1"
    put_back = store.job("a1")
    assert put_back is not None and put_back.status == "queued" and put_back.done == 1
    assert put_back.attempts == 0 and store.job_steps("a1") == {0: step}
    with pytest.raises(LeaseLostError):
        store.pass_job("a1", "w1", 60)  # no longer w1's
    store.finish_job("b1", "w2", {"seat": 0})
    again = store.claim_job("w2", lease_s=60)  # a (served before c) before a's second job
    assert again is not None and again.id == "a1" and again.attempts == 1 and again.done == 1


def test_a_step_written_again_after_a_lost_commit_counts_once(database: Path | str) -> None:
    """A worker whose connection broke as its step committed writes the step again once the store is
    back: it is kept once, counted once, and the lease renewed."""
    side = Side(database)
    side.store.submit_job("j", "analyze", {"n": 1}, 3)
    assert side.store.claim_job("w", lease_s=60) is not None
    step = {"move": {}, "loss": 0.0, "searches": 0, "exact": 0, "iterations": 0, "time_ms": 0.0}
    side.store.job_step("j", "w", 0, step, 60)
    side.store.job_step("j", "w", 0, step, 60)
    job = side.store.job("j")
    assert job is not None and job.done == 1 and side.store.job_steps("j") == {0: step}


def prefix(record: Record, events: int) -> Record:
    """The record's first `events` events (a record still)."""
    return Record(record.rules, record.players, record.seat, record.hand, record.trump, record.first_attacker,
                  record.events[:events])


@pytest.mark.parametrize("database", ["sqlite", pytest.param("postgresql", marks=pytest.mark.long)],
                         indirect=True)
def test_a_second_clients_job_starts_before_a_long_one_ends(database: Path | str) -> None:
    """One worker, client A's long job queued first, client B's short one after: B's job ends
    before A's, each took one worker's claim, and A's review is the one it gets alone."""
    side = Side(database, particles=64)
    long_record = prefix(played_record(5), 36)
    short_record = prefix(long_record, 8)

    def submit(record: Record, client: str) -> dict[str, Any]:
        return asyncio.run(side.queue.submit("analyze", record, {"iterations": 60}, 3, client=client))

    long_job, short_job = submit(long_record, "10.0.0.1"), submit(short_record, "10.0.0.2")
    assert long_job["progress"]["total"] > 3 * short_job["progress"]["total"] > 0
    work_until_done(side, [side.worker()], [long_job["id"], short_job["id"]])
    assert job_order(side.store) == [short_job["id"], long_job["id"]]
    first, second = side.store.job(long_job["id"]), side.store.job(short_job["id"])
    assert first is not None and second is not None and first.status == second.status == "done"
    assert first.attempts == second.attempts == 1
    alone = side.submit(long_record, 60, seed=3)
    work_until_done(side, [side.worker()], [alone])
    reference = side.store.job(alone)
    assert reference is not None and reference.result is not None and first.result is not None
    assert untimed(first.result) == untimed(reference.result)


def test_a_jobs_whole_work_is_bounded() -> None:
    """`TAN_MAX_JOB_ITERATIONS` bounds a job's searches together: each decision's iterations are
    lowered to the job's share; a job inside the bound keeps the iterations asked."""
    settings = make_settings(Path("unused.db"), max_iterations=1_000_000, max_job_iterations=10_000)
    searcher = Searcher(settings, Metrics())
    huge = searcher.job_limits({"iterations": 10**30}, 62)
    assert huge.iterations == 10_000 // 62 and huge.time_ms == settings.analysis_budget_ms
    assert searcher.job_limits({"iterations": 100}, 62).iterations == 100
    assert searcher.job_limits({"iterations": 10**30}, 20_000).iterations == 1


def test_a_queued_jobs_limits_share_its_bound(tmp_path: Path) -> None:
    side = Side(tmp_path / "games.db", max_job_iterations=2_000)
    record = played_record(5)
    job = side.store.job(side.submit(record, 5_000, seed=0))
    assert job is not None
    searched = sum(not decision.forced for decision in decisions(record))
    assert job.request["limits"]["iterations"] == 2_000 // searched < 5_000


def test_a_clients_stored_jobs_are_capped_in_bytes(database: Path | str) -> None:
    """`TAN_MAX_JOB_BYTES_PER_CLIENT`: past it a client's next job is refused 429, with the wait
    until its oldest ended job expires; another client is not."""
    side = Side(database, max_job_bytes_per_client=65_536, max_jobs_per_client=1_000)
    record = played_record(6)
    size = len(json.dumps(record.to_json()))
    queued = 0
    with pytest.raises(ApiError) as refused:
        for _ in range(65_536 // size + 2):
            asyncio.run(side.queue.submit("analyze", record, {"iterations": 10}, 0, client="10.0.0.7"))
            queued += 1
    assert refused.value.code is ServiceCode.TOO_MANY_REQUESTS and "65536" in refused.value.detail
    assert int(refused.value.headers["Retry-After"]) > 0
    assert 0 < queued * size <= 65_536
    other = asyncio.run(side.queue.submit("analyze", record, {"iterations": 10}, 0, client="10.0.0.8"))
    assert other["status"] == "queued"


def test_a_decision_longer_than_its_lease_keeps_its_job(database: Path | str) -> None:
    """A worker's lease is renewed while a decision runs: past the lease it held when the decision
    began, nobody else can take the job; cancelling it then stops the search at the next renewal."""
    side = Side(database, job_lease_s=1.0, max_iterations=1_000_000, max_job_iterations=10**9)
    job_id = side.submit(played_record(5), 1_000_000, seed=0)
    worker = side.worker()
    seen: dict[str, Any] = {}

    async def run() -> None:
        task = asyncio.create_task(worker.run())
        try:
            for _ in range(60_000):  # a hang guard
                job = await asyncio.to_thread(side.store.job, job_id)
                assert job is not None
                if job.status == "running":
                    break
                await asyncio.sleep(0.01)
            first = await asyncio.to_thread(lease_until, side.store, job_id)
            assert first is not None
            while time.time() < first + 0.1:  # the lease taken with the job has run out by then
                await asyncio.sleep(0.01)
            seen["thief"] = await asyncio.to_thread(side.store.claim_job, "thief", 60)
            seen["job"] = await asyncio.to_thread(side.store.job, job_id)
            await asyncio.to_thread(side.store.cancel_job, job_id)
            for _ in range(60_000):  # the search stops at the next renewal, the worker goes idle
                if worker.pool.running == 0:
                    break
                await asyncio.sleep(0.01)
        finally:
            worker.stopping.set()
            await task

    asyncio.run(run())
    assert seen["thief"] is None
    assert seen["job"].status == "running" and seen["job"].done == 0 and seen["job"].worker == worker.name
    assert side.store.job_steps(job_id) == {}


@pytest.mark.usefixtures("postgres")
def test_a_job_survives_a_database_blip(postgres: Cluster, caplog: pytest.LogCaptureFixture) -> None:
    """The worker's database refuses every connection for a while mid-job (its sessions cut, new
    ones refused): the worker waits it out, keeps its job, and the review is the one an unbroken
    run gives."""
    url = postgres.database()
    name = url.rsplit("/", 1)[1]
    side = Side(url, database_timeout_s=0.5, particles=64)
    record = prefix(played_record(5), 30)
    job_id = side.submit(record, 30, seed=4)
    worker = side.worker()

    async def read(job: str) -> Any:
        for _ in range(60_000):  # a hang guard; the store is away for part of it
            try:
                return await asyncio.to_thread(side.store.job, job)
            except StorageUnavailableError:
                await asyncio.sleep(0.05)
        raise AssertionError("the store never came back")

    async def run() -> None:
        task = asyncio.create_task(worker.run())
        try:
            for _ in range(60_000):
                job = await read(job_id)
                if job.done >= 2:
                    break
                await asyncio.sleep(0.01)
            caplog.clear()
            postgres.admin(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
            postgres.admin(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'")
            for _ in range(60_000):  # until the worker has met the outage (a write of it failed)
                if any(record.name == "service" and record.levelno >= logging.WARNING
                       for record in caplog.records):
                    break
                await asyncio.sleep(0.01)
            postgres.admin(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
            for _ in range(60_000):
                job = await read(job_id)
                if job.status not in ("queued", "running"):
                    break
                await asyncio.sleep(0.01)
        finally:
            worker.stopping.set()
            await task

    with caplog.at_level(logging.WARNING, logger="service"):
        asyncio.run(run())
    done = side.store.job(job_id)
    assert done is not None and done.status == "done" and done.error is None
    assert done.attempts == 1 and set(steps_by(side.store, job_id)) == {worker.name}
    unbroken = side.submit(record, 30, seed=4)
    work_until_done(side, [side.worker()], [unbroken])
    reference = side.store.job(unbroken)
    assert reference is not None and reference.result is not None and done.result is not None
    assert untimed(done.result) == untimed(reference.result)
