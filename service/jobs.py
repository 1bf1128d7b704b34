"""Analysis as jobs (docs/api.md §3, "Jobs"): a review is queued in the database, and workers on
any machine that reaches it take it, step by step, under a lease.

`POST /v1/analyze` and `POST /v1/games/{id}/analysis` check the record (replayed
once, so a bad one is refused at once and nothing is stored) and queue a job of
one step per decision of its seat; they answer 202 with the job's id, and
`GET /v1/jobs/{id}` answers its progress and, once done, its review.

A `Worker` claims a job nobody holds (`GameStore.claim_job`: `FOR UPDATE SKIP
LOCKED` on PostgreSQL, SQLite's one writer at a time), fairly between clients:
first the clients with the fewest jobs being worked on, then the client served
longest ago; after each decision it stores, a worker whose job's client is not
alone in the queue puts the job back and takes the next in that order
(`GameStore.pass_job`), so clients take turns a decision at a time and one
client's long job delays another's by at most a decision per client. It holds
its job under a lease of `job_lease_s`, renewed with each step it stores and,
while a decision is searched, every third of a lease (`_Heartbeat`) — up to the
decision's hang guard and a lease beyond, so a hung search still loses its job.
A worker whose lease ran out (it stalled, or died) or whose job was cancelled
stores nothing more (a cancelled decision's search stops at the next renewal),
and the next worker to claim the job goes on from the steps already stored. So a
worker killed with -9 loses at most the step it was on, and no step is ever
stored twice. A store that cannot be reached (`StorageUnavailableError`: a
database restarting, a network blip) is waited out: each read or write is tried
again with a backoff of at most `STORAGE_BACKOFF_S`, the job kept, never failed
for it.

A job's answer is reproducible: every decision is searched with a fixed
iteration budget (the request's iterations, or the default, capped) and a seed
drawn from the job's seed and the decision, never stopped by the clock
(`analysis_budget_ms` a decision only guards against a hang; exact endgames end
on their node budget). The whole job is bounded too: the iterations of a decision
are lowered, when the job is queued, so that all its searched decisions together
run at most `max_job_iterations` (`Searcher.job_limits`; `stats.limits` says what
was used). A step cut short by a shutdown is dropped, not stored.

`tan serve` runs `job_workers` workers in its own process (0: none), sharing its
search slots with the requests; `tan worker` runs them alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import logging
import os
import secrets
import socket
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import anyio

from service.capacity import SearchPool
from service.engine import Searcher
from service.errors import ApiError, ServiceCode
from service.metrics import Metrics
from service.settings import Settings
from service.store import GameStore, Job, LeaseLostError, StorageUnavailableError, TooManyJobsError
from solver.game.record import Record
from solver.search import Limits, StopFlag
from solver.search.calibration import ScoreMap
from solver.search.labels import COSTED
from solver.search.review import Decision, Label, ReviewSummary, decisions

__all__ = ["STORAGE_BACKOFF_S", "JobQueue", "Worker", "assemble_review", "job_view", "review_key"]

log = logging.getLogger("service")

T = TypeVar("T")

STORAGE_BACKOFF_S = (0.05, 2.0)
"""A worker's wait before it tries an unreachable store again: the first, doubled at each failure
up to the second, for as long as the store stays away (a job is never failed for it)."""

RENEWALS_A_LEASE = 3
"""While a decision is searched its lease is renewed this many times a lease."""

REPLAYS_KEPT = 4
"""Jobs whose replayed decisions a worker keeps while it takes turns between them."""

KINDS = ("analyze", "review")
"""`analyze`: a record sent to `POST /v1/analyze`; `review`: a stored game's, for one seat."""


def job_view(job: Job) -> dict[str, Any]:
    """What `GET /v1/jobs/{id}` answers (docs/api.md §3, "Jobs")."""
    return {
        "id": job.id,
        "kind": job.kind,
        "status": job.status,
        "progress": {"done": job.done, "total": job.total},
        "result": job.result,
        "error": job.error,
    }


def review_key(seat: int, number: int, limits: Limits, seed: int) -> str:
    """The name a stored game's finished review is kept under with the game (`GameStore.keep_review`):
    the seat, the game of the match, and what makes the review repeat (its iterations and seed)."""
    return f"seat={seat}:game={number}:iterations={limits.iterations}:seed={seed}"


def assemble_review(
    seat: int, steps: list[dict[str, Any]], limits: Limits, seed: int, mapped: ScoreMap | None = None
) -> dict[str, Any]:
    """The review of a job's steps, in the shape a review answers (`Review.to_json`); `mapped`: the
    score map its steps were calibrated with (`stats.calibrated`)."""
    labels = {label: 0 for label in Label}
    losses: list[float] = []
    for step in steps:
        label = Label(step["move"]["label"])
        labels[label] += 1
        if label in COSTED:
            losses.append(float(step["loss"]))
    total = sum(losses)
    summary = ReviewSummary(len(steps), labels, total, total / len(losses) if losses else None)
    return {
        "seat": seat,
        "moves": [step["move"] for step in steps],
        "summary": summary.to_json(),
        "stats": {
            "algorithm": "ismcts",
            "searches": sum(int(step["searches"]) for step in steps),
            "skipped": labels[Label.UNSCORED],
            "exact": sum(int(step["exact"]) for step in steps),
            "iterations": sum(int(step["iterations"]) for step in steps),
            "time_ms": round(sum(float(step["time_ms"]) for step in steps), 3),
            "limits": limits.to_json(),
            "seed": seed,
            **({"calibrated": mapped.label} if mapped is not None else {}),
        },
    }


class JobQueue:
    """The service's side of jobs: queue a review, show a job."""

    def __init__(
        self, store: GameStore, searcher: Searcher, settings: Settings, metrics: Metrics,
        pool: SearchPool | None = None,
    ) -> None:
        self.store = store
        self.searcher = searcher
        self.settings = settings
        self.metrics = metrics
        self.pool = pool  # where a record is replayed (in a worker thread without one)
        self.wake = asyncio.Event()  # set when this process queues a job: its workers look at once

    async def submit(
        self,
        kind: str,
        record: Record,
        requested: dict[str, Any] | None,
        seed: int,
        client: str | None = None,
        extra: dict[str, Any] | None = None,
        request: Any = None,
    ) -> dict[str, Any]:
        """Queue a review of `record`'s seat for the client at address `client` (kept as a hash),
        searched with `requested` limits' fixed iteration budget (`Searcher.job_limits`: bad limits
        are refused now), and answer the new job's view. The record is replayed first, in a search
        slot (counted against the client's share; stopped if the `request`'s client hangs up): a
        bad one is refused (422) and nothing is queued; so is a seat of too many moves."""
        self.searcher.job_limits(requested)  # bad limits: refused now, nothing replayed
        self.searcher.check_review_size(record)  # a seat of too many moves: refused, nothing queued
        if self.pool is not None:
            found = await self.pool.run(lambda stop: decisions(record, stop), request, client)
        else:
            found = await anyio.to_thread.run_sync(decisions, record)
        limits = self.searcher.job_limits(requested, sum(not decision.forced for decision in found))
        job_id = secrets.token_urlsafe(16)
        stored = await anyio.to_thread.run_sync(record.to_json)  # a long record: ~50 ms, off the loop
        request = {"record": stored, "limits": limits.to_json(), "seed": seed, **(extra or {})}
        s = self.settings
        owner = None if client is None else hashlib.sha256(f"client:{client}".encode()).hexdigest()
        try:
            await anyio.to_thread.run_sync(
                self.store.submit_job, job_id, kind, request, len(found), owner, s.max_jobs_per_client,
                s.max_job_bytes_per_client,
            )
        except TooManyJobsError as error:
            raise await self._too_many(error, owner) from None
        self.metrics.jobs_submitted.labels(kind).inc()
        self.wake.set()
        return await self.read(job_id)

    async def _too_many(self, error: TooManyJobsError, owner: str | None) -> ApiError:
        """The 429 of a client over its jobs (retry once one is done) or its bytes (retry once its
        oldest ended job expires, `job_ttl_s` after it ended)."""
        s = self.settings
        if not error.bytes:
            return ApiError(
                ServiceCode.TOO_MANY_REQUESTS,
                f"this client already has {s.max_jobs_per_client} jobs queued or running; retry once one "
                f"is done (retry in {s.retry_after_s} s)",
                {"Retry-After": str(s.retry_after_s)},
            )
        ended = None if owner is None else await anyio.to_thread.run_sync(self.store.job_expiry, owner)
        wait = s.job_ttl_s if ended is None else ended + s.job_ttl_s - time.time()
        retry = max(s.retry_after_s, int(wait) + 1)
        return ApiError(
            ServiceCode.TOO_MANY_REQUESTS,
            f"this client's jobs already take {error.held} bytes, and it may keep "
            f"{s.max_job_bytes_per_client} (TAN_MAX_JOB_BYTES_PER_CLIENT) until they expire, "
            f"TAN_JOB_TTL_S after they end (retry in {retry} s)",
            {"Retry-After": str(retry)},
        )

    async def sweep(self) -> int:
        """Delete the jobs that ended `job_ttl_s` ago; note the store's counts in the metrics."""
        ended_before = time.time() - self.settings.job_ttl_s

        def expire() -> tuple[int, dict[str, int]]:
            return self.store.expire_jobs(ended_before), self.store.job_counts()

        gone, counts = await anyio.to_thread.run_sync(expire)
        for status, count in counts.items():
            self.metrics.jobs_stored.labels(status).set(count)
        return gone

    async def read(self, job_id: str) -> dict[str, Any]:
        """`GET /v1/jobs/{id}`: 404 for no such job (never queued, or expired)."""
        job = await anyio.to_thread.run_sync(self.store.job, job_id)
        if job is None:
            raise ApiError(ServiceCode.NOT_FOUND, f"no job with id {job_id!r}")
        return job_view(job)

    async def cancel(self, job_id: str) -> dict[str, Any]:
        """`DELETE /v1/jobs/{id}`: a queued or running job is cancelled (its worker stops at its next
        step, storing nothing more); one that ended is answered as it is; 404 for no such job."""
        job = await anyio.to_thread.run_sync(self.store.cancel_job, job_id)
        if job is None:
            raise ApiError(ServiceCode.NOT_FOUND, f"no job with id {job_id!r}")
        return job_view(job)


@dataclass
class Worker:
    """One worker: claims a job, reviews its remaining decisions in `pool`'s slots, stores each
    step under its lease, and finishes it; then the next. `run` loops until `stopping` is set."""

    store: GameStore
    searcher: Searcher
    pool: SearchPool
    settings: Settings
    metrics: Metrics
    wake: asyncio.Event | None = None
    name: str = field(default_factory=lambda: f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}")
    stopping: asyncio.Event = field(default_factory=asyncio.Event)

    replays: dict[str, list[Decision]] = field(default_factory=dict)

    async def run(self) -> None:
        """Take and do jobs until `stopping` is set; a store that cannot be used is retried."""
        while not self.stopping.is_set():
            try:
                worked = await self.work_once()
            except StorageUnavailableError as error:
                log.warning("worker %s: the store cannot be reached, tried again: %s", self.name, error)
                worked = False
            except Exception:
                log.exception("worker %s: a job could not be taken or stored", self.name)
                worked = False
            if not worked:
                await self._idle()

    async def _idle(self) -> None:
        waits = [asyncio.ensure_future(self.stopping.wait())]
        if self.wake is not None:
            waits.append(asyncio.ensure_future(self.wake.wait()))
        try:
            await asyncio.wait(waits, timeout=self.settings.job_poll_s, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiting in waits:
                waiting.cancel()
        if self.wake is not None:
            self.wake.clear()

    async def work_once(self) -> bool:
        """Claim one job and work on it — and on the jobs its turns pass to — until it ends, its
        lease is lost or the store is away; False: none to take."""
        s = self.settings
        job: Job | None = await anyio.to_thread.run_sync(self.store.claim_job, self.name, s.job_lease_s,
                                                         s.job_attempts)
        if job is None:
            return False
        while job is not None:
            job = await self._turn(job)
        return True

    async def _turn(self, job: Job) -> Job | None:
        """Work on `job` until it ends (None) or its turn passes to the next job (answered)."""
        try:
            return await self._work(job)
        except LeaseLostError:
            log.warning("worker %s lost job %s: cancelled, or its lease ran out and another worker has it",
                        self.name, job.id)
        except _Stopping:
            pass  # the lease expires and another worker goes on from the last stored step
        except Exception as error:
            log.exception("worker %s: job %s failed", self.name, job.id)
            with contextlib.suppress(LeaseLostError, _Stopping):
                await self._stored(self.store.finish_job, job.id, self.name, None,
                                   f"internal: {type(error).__name__}")
                self.metrics.jobs_finished.labels("failed").inc()
        self.replays.pop(job.id, None)
        return None

    async def _stored(self, call: Callable[..., T], *args: Any) -> T:
        """`call(*args)` on the store in a thread, tried again after a bounded backoff for as long as
        the store cannot be reached (until the worker stops: `_Stopping`)."""
        delay, most = STORAGE_BACKOFF_S
        while True:
            try:
                return await anyio.to_thread.run_sync(call, *args)
            except StorageUnavailableError as error:
                self.metrics.jobs_storage_retries.inc()
                log.warning("worker %s: the store cannot be reached, tried again in %g s: %s",
                            self.name, delay, error)
            if self.stopping.is_set():
                raise _Stopping
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stopping.wait(), delay)
            delay = min(delay * 2, most)

    async def _search(self, work: Callable[[StopFlag], T], heartbeat: _Heartbeat | None = None) -> T:
        """`work(stop)` in a slot of the pool; a busy pool is waited out with the lease kept. With a
        `heartbeat`, the lease is renewed while the search runs and the search stopped if it is lost."""
        def watched(stop: StopFlag) -> T:
            if heartbeat is not None:
                heartbeat.watch(stop)
            return work(stop)

        while True:
            if self.stopping.is_set():
                raise _Stopping
            try:
                if heartbeat is None:
                    return await self.pool.run(watched)
                async with heartbeat.running():
                    return await self.pool.run(watched)
            except ApiError as error:
                if error.code is not ServiceCode.BUSY:
                    raise
            await asyncio.sleep(self.settings.retry_after_s)

    async def _decisions(self, job: Job, record: Record) -> list[Decision]:
        """The record's decisions, replayed once while the worker takes turns on this job."""
        found = self.replays.pop(job.id, None)
        if found is None:
            found = await self._search(lambda stop: decisions(record, stop))
            if self.stopping.is_set():
                raise _Stopping  # the replay may have been cut short
        self.replays[job.id] = found
        while len(self.replays) > REPLAYS_KEPT:
            del self.replays[next(iter(self.replays))]
        return found

    async def _work(self, job: Job) -> Job | None:
        """Review `job`'s decisions not yet stored; after each, pass the turn on (`pass_job`) and
        answer the next job if it is another one; once every decision is stored, finish the job."""
        s = self.settings
        request = job.request
        record = await anyio.to_thread.run_sync(Record.from_json, request["record"])  # off the loop
        limits = Limits.from_json(request["limits"])
        seed = int(request["seed"])
        same_seed = bool(request.get("same_seed", False))
        mapped = None if request.get("score_map") is None else ScoreMap.from_json(request["score_map"])
        found = await self._decisions(job, record)
        if len(found) != job.total:
            raise RuntimeError(f"job {job.id}: {len(found)} decisions, {job.total} were counted")
        steps = await self._stored(self.store.job_steps, job.id)
        for step, decision in enumerate(found):
            if step in steps:
                continue
            heartbeat = _Heartbeat(self, job.id)
            review = functools.partial(self.searcher.review_step, record.seat, decision, limits, seed,
                                       same_seed=same_seed, mapped=mapped)
            answer = await self._search(review, heartbeat)
            if heartbeat.lost:
                raise LeaseLostError(job.id)
            if self.stopping.is_set() or answer["move"]["label"] == Label.UNSCORED.value:
                raise _Stopping  # the search may have been cut short: not stored
            await self._stored(self.store.job_step, job.id, self.name, step, answer, s.job_lease_s)
            steps[step] = answer
            if len(steps) < len(found):
                held = await self._stored(self.store.pass_job, job.id, self.name, s.job_lease_s,
                                          s.job_attempts)
                if held is None or held.id != job.id:
                    return held  # another client's turn (or nothing: this job went back to the queue)
        result = assemble_review(record.seat, [steps[step] for step in range(len(found))], limits, seed,
                                 mapped)
        await self._stored(self.store.finish_job, job.id, self.name, result)
        self.metrics.jobs_finished.labels("done").inc()
        if job.kind == "review" and request.get("number") is not None:  # kept with its game, for a reload
            key = request.get("review_key") or review_key(record.seat, int(request["number"]), limits, seed)
            await self._stored(self.store.keep_review, str(request["game"]), key, result)
        self.replays.pop(job.id, None)
        return None


class _Heartbeat:
    """Renews a worker's lease on its job every `job_lease_s / RENEWALS_A_LEASE` while one decision is
    searched, for at most the decision's hang guard (`analysis_budget_ms`) and one lease more: a
    decision longer than a lease keeps its job, a hung one does not. A lease found lost (the job
    cancelled, or taken by another worker) stops the search at once; a store out of reach is tried
    again at the next beat, the lease kept meanwhile if it has not run out."""

    def __init__(self, worker: Worker, job_id: str) -> None:
        self.worker = worker
        self.job_id = job_id
        self.lost = False
        self._flag: StopFlag | None = None

    def watch(self, stop: StopFlag) -> None:
        """The search's stop flag (called in its thread as it starts)."""
        self._flag = stop
        if self.lost:
            stop.set()

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """Beat while the block runs."""
        task = asyncio.create_task(self._beat())
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _beat(self) -> None:
        s = self.worker.settings
        every = s.job_lease_s / RENEWALS_A_LEASE
        until = time.monotonic() + s.analysis_budget_ms / 1000.0 + s.job_lease_s
        while time.monotonic() + every < until:
            await asyncio.sleep(every)
            try:
                await anyio.to_thread.run_sync(self.worker.store.renew_job, self.job_id, self.worker.name,
                                               s.job_lease_s)
            except StorageUnavailableError as error:
                self.worker.metrics.jobs_storage_retries.inc()
                log.warning("worker %s: job %s's lease not renewed, the store cannot be reached: %s",
                            self.worker.name, self.job_id, error)
            except LeaseLostError:
                self.lost = True
                if self._flag is not None:
                    self._flag.set()
                return


class _Stopping(Exception):
    """The worker is stopping: it leaves its job to the next one."""
