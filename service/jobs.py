"""Analysis as jobs (docs/api.md §3, "Jobs"): a review is queued in the database, and workers on
any machine that reaches it take it, step by step, under a lease.

`POST /v1/analyze` and `POST /v1/games/{id}/analysis` check the record (replayed
once, so a bad one is refused at once and nothing is stored) and queue a job of
one step per decision of its seat; they answer 202 with the job's id, and
`GET /v1/jobs/{id}` answers its progress and, once done, its review.

A `Worker` claims the oldest job nobody holds (`GameStore.claim_job`: `FOR
UPDATE SKIP LOCKED` on PostgreSQL, SQLite's one writer at a time) for
`job_lease_s`, then reviews its decisions one by one, each in a slot of its
process's search pool. Each step's answer is stored with the lease renewed, only
while the worker still holds it: a worker whose lease expired (it stalled, or
died) stores nothing more, and the next worker to claim the job goes on from the
steps already stored. So a worker killed with -9 loses at most the step it was
on, and no step is ever stored twice.

A job's answer is reproducible: every decision is searched with a fixed
iteration budget (the request's iterations, or the default, capped) and a seed
drawn from the job's seed and the decision, never stopped by the clock
(`analysis_budget_ms` a decision only guards against a hang; exact endgames end
on their node budget). A step cut short by a shutdown is dropped, not stored.

`tan serve` runs `job_workers` workers in its own process (0: none), sharing its
search slots with the requests; `tan worker` runs them alone.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import secrets
import socket
import time
from dataclasses import dataclass, field
from typing import Any

import anyio

from service.capacity import SearchPool
from service.engine import Searcher
from service.errors import ApiError, ServiceCode
from service.metrics import Metrics
from service.settings import Settings
from service.store import GameStore, Job, LeaseLostError, TooManyJobsError
from solver.game.record import Record
from solver.search import Limits
from solver.search.calibration import ScoreMap
from solver.search.review import Decision, Label, ReviewSummary, decisions

__all__ = ["JobQueue", "Worker", "assemble_review", "job_view"]

log = logging.getLogger("service")

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
        if label not in (Label.FORCED, Label.UNSCORED):
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
        limits = self.searcher.job_limits(requested)
        self.searcher.check_review_size(record)  # a seat of too many moves: refused, nothing queued
        if self.pool is not None:
            found = await self.pool.run(lambda stop: decisions(record, stop), request, client)
        else:
            found = await anyio.to_thread.run_sync(decisions, record)
        job_id = secrets.token_urlsafe(16)
        request = {"record": record.to_json(), "limits": limits.to_json(), "seed": seed, **(extra or {})}
        cap = self.settings.max_jobs_per_client
        owner = None if client is None else hashlib.sha256(f"client:{client}".encode()).hexdigest()
        try:
            await anyio.to_thread.run_sync(
                self.store.submit_job, job_id, kind, request, len(found), owner, cap
            )
        except TooManyJobsError:
            raise ApiError(
                ServiceCode.TOO_MANY_REQUESTS,
                f"this client already has {cap} jobs queued or running; retry once one is done "
                f"(retry in {self.settings.retry_after_s} s)",
                {"Retry-After": str(self.settings.retry_after_s)},
            ) from None
        self.metrics.jobs_submitted.labels(kind).inc()
        self.wake.set()
        return await self.read(job_id)

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

    async def run(self) -> None:
        """Take and do jobs until `stopping` is set; a store that cannot be used is retried."""
        while not self.stopping.is_set():
            try:
                worked = await self.work_once()
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
        """Claim one job and work on it until it ends or its lease is lost; False: none to take."""
        s = self.settings
        job = await anyio.to_thread.run_sync(self.store.claim_job, self.name, s.job_lease_s, s.job_attempts)
        if job is None:
            return False
        try:
            await self._work(job)
        except LeaseLostError:
            log.warning("worker %s lost job %s: cancelled, or its lease ran out and another worker has it",
                        self.name, job.id)
        except _Stopping:
            pass  # the lease expires and another worker goes on from the last stored step
        except Exception as error:
            log.exception("worker %s: job %s failed", self.name, job.id)
            await anyio.to_thread.run_sync(
                self.store.finish_job, job.id, self.name, None, f"internal: {type(error).__name__}"
            )
            self.metrics.jobs_finished.labels("failed").inc()
        return True

    async def _search(self, work: Any) -> Any:
        """`work(stop)` in a slot of the pool; a busy pool is waited out with the lease kept."""
        while True:
            if self.stopping.is_set():
                raise _Stopping
            try:
                return await self.pool.run(work)
            except ApiError as error:
                if error.code is not ServiceCode.BUSY:
                    raise
            await asyncio.sleep(self.settings.retry_after_s)

    async def _work(self, job: Job) -> None:
        request = job.request
        record = Record.from_json(request["record"])
        limits = Limits.from_json(request["limits"])
        seed = int(request["seed"])
        same_seed = bool(request.get("same_seed", False))
        mapped = None if request.get("score_map") is None else ScoreMap.from_json(request["score_map"])
        found: list[Decision] = await self._search(lambda stop: decisions(record, stop))
        if self.stopping.is_set():
            raise _Stopping  # the replay may have been cut short
        if len(found) != job.total:
            raise RuntimeError(f"job {job.id}: {len(found)} decisions, {job.total} were counted")
        steps = await anyio.to_thread.run_sync(self.store.job_steps, job.id)
        for step, decision in enumerate(found):
            if step in steps:
                continue
            answer = await self._search(
                lambda stop, decision=decision: self.searcher.review_step(
                    record.seat, decision, limits, seed, stop, same_seed, mapped
                )
            )
            if self.stopping.is_set() or answer["move"]["label"] == Label.UNSCORED.value:
                raise _Stopping  # the search may have been cut short: not stored
            await anyio.to_thread.run_sync(
                self.store.job_step, job.id, self.name, step, answer, self.settings.job_lease_s
            )
            steps[step] = answer
        result = assemble_review(record.seat, [steps[step] for step in range(len(found))], limits, seed,
                                 mapped)
        await anyio.to_thread.run_sync(self.store.finish_job, job.id, self.name, result)
        self.metrics.jobs_finished.labels("done").inc()


class _Stopping(Exception):
    """The worker is stopping: it leaves its job to the next one."""
