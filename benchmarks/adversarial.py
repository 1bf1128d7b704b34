"""The adversarial load run (issues 24 and 64): long records, hung-up searches, tracker loops, racing
moves, a queue-starving job and a database blip.

    python -m benchmarks.adversarial [--seed 1] [--analysis-budget-ms 5000] [--review-iterations 300]
                                     [--tracker-s 10] [--stored-moves 600] [--blip-s 8]
                                     [--only starving_job,database_blip] [--output FILE]

One real `tan serve` on a free loopback port (`service.process`), two search
slots, every other setting at its default but the per-decision guard of a
review (`--analysis-budget-ms`) and `TAN_FORWARDED_ALLOW_IPS=127.0.0.1`, so
that each simulated client names its own address in `X-Forwarded-For` and the
per-client cap (default 4) counts it alone. All along, a prober asks
`/healthz` and `/readyz` every 20 ms. The game is `benchmarks.long_game`
(3 seats, 2,056 moves, every defender takes). In turn:

1. **hung-up hints**: two clients ask 10-second hints and hang up after 1 s,
   three times; measured from each hang-up to the moment `/metrics` shows no
   search running (polled every 2 ms). (Reviews are jobs since issue 22: a
   client that goes away holds nothing, so the hang-up is a hint's.)
2. **long reviews**: two clients queue reviews of the longest prefix of the
   long record whose seat has at most `TAN_MAX_REVIEW_DECISIONS` moves
   (`--review-iterations` a decision) and follow their jobs to the end; a third
   sends the whole record (refused 422 at once, nothing queued). Measured: the
   202's latency, the job's progress (in order) and its time, no decision
   unscored.
3. **long-record hints**: `POST /v1/hint` with the whole record but the seat's
   last move (so that it is to move: 1,369 other decisions to weigh) and
   `time_ms` 1, 100 and 1,000: the answer's time against its limit.
4. **tracker loops**: the first `--stored-moves` moves of the long game are
   played over HTTP into a stored game of three human seats; then four clients
   ask its tracker in a loop for `--tracker-s` s while a fifth asks hints on a
   position of 10,000 iterations; measured: tracker calls and latencies, and the
   hints' iterations a second against the same hints alone.
5. **racing moves**: eight clients send the same move for the seat to move,
   with its `expected_ply`, at once, ten times over: one 200 each time, the
   others 409 `game_moved_on` (or 429 past the per-game cap).
6. **followed-game flood** (issue 64): one client `PUT`s `--flood-games` followed
   games of 62 KB (the longest prefix of the long record that fits) under new
   ids as fast as it can: how many are kept (`TAN_MAX_FOLLOWED_*_PER_CLIENT`
   refuse the rest, 413 or 429), and in how long.
7. **parse load** (issue 64): `/healthz` asked every 20 ms for `--parse-s` s
   alone (from a process of its own), then as long again while eight clients
   each `PUT` that 62 KB game under their own id over and over (a replacement:
   no cap refuses it): the probe's median and p99 both ways, and the `PUT`s a
   second.

`--only` runs some of the phases (`hung_up_hints long_reviews long_record_hints
stored_game racing_moves followed_flood parse_load`; the tracker loops go with
the stored game).

6. **a queue-starving job** (issue 64, finding 3): on a server of its own (every
   setting at its default, one job worker), client A queues a review of the long
   game's first 62 decisions at `{"iterations": 10**30}`; once it runs, client B
   queues a review of 5 decisions at 300 iterations. Measured: when B's job
   started and ended after it was queued, and how far A's job was then (A is
   cancelled after). Before issue 64 B waited for all of A (~50 s a decision).
7. **a database blip** (issue 64, finding 4): a server with one job worker on a
   throwaway PostgreSQL (`service.cluster`); a review of 40 decisions runs, the
   server is stopped (`pg_ctl stop -m fast`) for `--blip-s` seconds after its
   third stored decision, then started again. Measured: whether the job ended
   `done`, whether its review is identical to the same job run again without a
   blip, and the worker's storage retries (`tan_jobs_storage_retries_total`).
   Skipped without PostgreSQL's binaries.

Every answer must be a status the run expects (anything else is listed under
`violations`, and the run exits 1). Writes `benchmarks/results/adversarial.json`.
`--only` runs the named phases alone (`hung_up_hints`, …, `starving_job`,
`database_blip`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from benchmarks.load import mid_game_position
from benchmarks.long_game import long_game, record_json
from service.process import ServiceProcess
from solver.game.record import Play, Record

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
REVIEW_CAP = 400  # TAN_MAX_REVIEW_DECISIONS's default
PHASES = ("starving_job", "database_blip", "hung_up_hints", "long_reviews", "long_record_hints",
          "stored_game", "racing_moves", "followed_flood", "parse_load")


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


def _summary(values: list[float]) -> dict[str, float]:
    if not values:
        return {"n": 0}
    return {"n": len(values), "median": round(statistics.median(values), 2),
            "p99": round(_percentile(values, 0.99), 2), "max": round(max(values), 2)}


def _client(index: int) -> dict[str, str]:
    return {"X-Forwarded-For": f"10.0.0.{index}"}


def before_last_decision(record: Record) -> Record:
    """`record` up to its seat's last move (not included): the seat is to move at its end."""
    last = max(index for index, event in enumerate(record.events)
               if isinstance(event, Play) and event.seat == record.seat)
    return Record(record.rules, record.players, record.seat, record.hand, record.trump,
                  record.first_attacker, record.events[:last])


def reviewable_prefix(record: Record, cap: int) -> Record:
    """The longest prefix of `record` whose seat made at most `cap` moves (a legal record still)."""
    moves, end = 0, 0
    for index, event in enumerate(record.events):
        if isinstance(event, Play) and event.seat == record.seat:
            if moves == cap:
                break
            moves += 1
        end = index + 1
    return Record(record.rules, record.players, record.seat, record.hand, record.trump,
                  record.first_attacker, record.events[:end])


class Prober:
    """`/healthz` and `/readyz` every 20 ms while the run goes on."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.latencies: dict[str, list[float]] = {"/healthz": [], "/readyz": []}
        self.statuses: dict[str, int] = {}
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        async with httpx.AsyncClient(base_url=self.url, timeout=30.0) as http:
            while True:
                for path, latencies in self.latencies.items():
                    start = time.perf_counter()
                    answer = await http.get(path)
                    latencies.append((time.perf_counter() - start) * 1000.0)
                    key = f"{path} {answer.status_code}"
                    self.statuses[key] = self.statuses.get(key, 0) + 1
                await asyncio.sleep(0.02)

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> dict[str, Any]:
        assert self._task is not None
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        return {"latency_ms": {path: _summary(values) for path, values in self.latencies.items()},
                "statuses": self.statuses}


async def running(http: httpx.AsyncClient) -> float:
    for line in (await http.get("/metrics")).text.splitlines():
        if line.startswith("tan_searches_running "):
            return float(line.split()[1])
    raise RuntimeError("no tan_searches_running in /metrics")


async def _job(
    http: httpx.AsyncClient, where: str, seconds: float
) -> tuple[dict[str, Any], list[int], float]:
    """Poll a job every 50 ms until it ends: its last answer, the progress seen, and when it ended."""
    seen: list[int] = []
    deadline = time.monotonic() + seconds
    while True:
        job = (await http.get(where)).json()
        if not seen or job["progress"]["done"] != seen[-1]:
            seen.append(job["progress"]["done"])
        if job["status"] in ("done", "failed") or time.monotonic() > deadline:
            return job, seen, time.perf_counter()
        await asyncio.sleep(0.05)


async def long_reviews(url: str, prefix: dict[str, Any], whole: dict[str, Any], budget_ms: float,
                       iterations: int, violations: list[str]) -> dict[str, Any]:
    async def review(index: int, record: dict[str, Any], expected: int) -> dict[str, Any]:
        async with httpx.AsyncClient(base_url=url, timeout=600.0, headers=_client(index)) as http:
            start = time.perf_counter()
            answer = await http.post("/v1/analyze", json={"record": record, "seed": index,
                                                          "limits": {"iterations": iterations}})
            elapsed = (time.perf_counter() - start) * 1000.0
            if answer.status_code != expected:
                violations.append(f"review {index}: {answer.status_code} {answer.text[:200]}")
            out: dict[str, Any] = {"status": answer.status_code, "latency_ms": round(elapsed, 1)}
            if answer.status_code != 202:
                out["code"] = answer.json().get("code")
                return out
            job, seen, ended = await _job(http, answer.headers["location"], 1_800.0)
        out.update(job_status=job["status"], job_s=round(ended - start, 1), progress_reads=len(seen),
                   progress_in_order=seen == sorted(seen))
        if seen != sorted(seen):
            violations.append(f"review {index}: progress out of order {seen}")
        if job["status"] != "done":
            violations.append(f"review {index}: job {job['status']} {job.get('error')}")
            return out
        data = job["result"]
        out.update(decisions=data["summary"]["decisions"], unscored=data["summary"]["labels"]["unscored"],
                   searches=data["stats"]["searches"], time_ms=data["stats"]["time_ms"])
        if data["summary"]["labels"]["unscored"]:
            violations.append(f"review {index}: {data['summary']['labels']['unscored']} decisions unscored")
        return out

    answers = await asyncio.gather(review(1, prefix, 202), review(2, prefix, 202), review(3, whole, 422))
    return {"decision_guard_ms": budget_ms, "iterations": iterations, "reviews": list(answers)}


async def hung_up_hints(url: str, position: dict[str, Any], violations: list[str]) -> dict[str, Any]:
    """Two 10-second hints sent on raw sockets and hung up after 1 s, three times: measured from the
    hang-up to the moment `/metrics` shows no search running (polled every 2 ms)."""
    body = json.dumps({"position": position, "limits": {"time_ms": 10_000}}).encode()
    freed: list[float] = []
    async with httpx.AsyncClient(base_url=url, timeout=30.0) as http:
        for attempt in range(3):
            connections = []
            for index in range(2):
                host, port = url.removeprefix("http://").split(":")
                _reader, writer = await asyncio.open_connection(host, int(port))
                head = (f"POST /v1/hint HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
                        f"X-Forwarded-For: 10.0.1.{attempt * 2 + index}\r\n"
                        f"Content-Length: {len(body)}\r\n\r\n").encode()
                writer.write(head + body)
                await writer.drain()
                connections.append(writer)
            await asyncio.sleep(1.0)
            busy = await running(http)
            if busy != 2:
                violations.append(f"hung-up hints, attempt {attempt}: {busy} searches running after 1 s")
            for writer in connections:
                writer.close()
            hung_up = time.perf_counter()
            while await running(http):
                await asyncio.sleep(0.002)
                if time.perf_counter() - hung_up > 30:
                    violations.append(f"hung-up hints, attempt {attempt}: slots still busy after 30 s")
                    break
            freed.append((time.perf_counter() - hung_up) * 1000.0)
    if max(freed) > 100:
        violations.append(f"hung-up hints: a slot came free {max(freed):.0f} ms after the hang-up")
    return {"attempts": len(freed), "freed_after_ms": [round(value, 1) for value in freed],
            "bar_ms": 100}


async def long_record_hints(url: str, whole: dict[str, Any], violations: list[str]) -> dict[str, Any]:
    out = []
    async with httpx.AsyncClient(base_url=url, timeout=60.0, headers=_client(20)) as http:
        for time_ms in (1, 100, 1000):
            start = time.perf_counter()
            answer = await http.post("/v1/hint", json={"record": whole, "limits": {"time_ms": time_ms}})
            elapsed = (time.perf_counter() - start) * 1000.0
            entry: dict[str, Any] = {"time_ms": time_ms, "status": answer.status_code,
                                     "latency_ms": round(elapsed, 1)}
            if answer.status_code == 200:
                stats = answer.json()["stats"]
                entry.update(stats_time_ms=stats["time_ms"], beliefs=stats["beliefs"],
                             iterations=stats["iterations"])
            elif answer.status_code != 422:
                violations.append(f"long-record hint {time_ms}: {answer.status_code} {answer.text[:200]}")
            else:
                entry["code"] = answer.json()["code"]
            out.append(entry)
    return {"hints": out}


async def store_long_game(
    url: str, game: Any, moves: int, violations: list[str]
) -> tuple[str, list[str], float]:
    async with httpx.AsyncClient(base_url=url, timeout=60.0, headers=_client(30)) as http:
        created = await http.post("/v1/games", json={
            "rules": "durak", "seats": ["human"] * 3, "deck": [str(card) for card in game.deck],
            "first_attacker": game.first_attacker,
        })
        if created.status_code != 201:
            raise RuntimeError(f"the stored game: {created.status_code} {created.text}")
        game_id, tokens = created.json()["id"], created.json()["tokens"]
        start = time.perf_counter()
        for seat, move in game.moves[:moves]:
            answer = await http.post(f"/v1/games/{game_id}/moves", json={"seat": seat, "move": move.notation},
                                     headers={"Authorization": f"Bearer {tokens[seat]}"})
            if answer.status_code != 200:
                violations.append(f"stored game move: {answer.status_code} {answer.text[:200]}")
                break
        per_move = (time.perf_counter() - start) * 1000.0 / moves
    return game_id, tokens, per_move


async def _hint_rates(url: str, position: dict[str, Any], seconds: float, index: int) -> list[float]:
    rates: list[float] = []
    deadline = time.monotonic() + seconds
    async with httpx.AsyncClient(base_url=url, timeout=60.0, headers=_client(index)) as http:
        seed = 0
        while time.monotonic() < deadline:
            seed += 1
            answer = await http.post("/v1/hint", json={"position": position, "seed": seed,
                                                       "limits": {"iterations": 10_000}})
            if answer.status_code == 200:
                rates.append(answer.json()["stats"]["iterations_per_s"])
    return rates


async def tracker_loops(url: str, game_id: str, tokens: list[str], seconds: float,
                        violations: list[str]) -> dict[str, Any]:
    position = mid_game_position()
    alone = await _hint_rates(url, position, 3.0, 40)
    latencies: list[float] = []
    statuses: dict[int, int] = {}

    async def loop(index: int) -> None:
        seat = index % 3
        deadline = time.monotonic() + seconds
        async with httpx.AsyncClient(base_url=url, timeout=60.0, headers=_client(50 + index)) as http:
            while time.monotonic() < deadline:
                start = time.perf_counter()
                answer = await http.get(f"/v1/games/{game_id}/tracker", params={"seat": seat},
                                        headers={"Authorization": f"Bearer {tokens[seat]}"})
                latencies.append((time.perf_counter() - start) * 1000.0)
                statuses[answer.status_code] = statuses.get(answer.status_code, 0) + 1
                if answer.status_code not in (200, 429, 503):
                    violations.append(f"tracker: {answer.status_code} {answer.text[:200]}")
                if answer.status_code in (429, 503):
                    await asyncio.sleep(float(answer.headers.get("retry-after", "1")))

    loaded, *_ = await asyncio.gather(_hint_rates(url, position, seconds, 41), *(loop(i) for i in range(4)))
    alone_rate, loaded_rate = statistics.median(alone), statistics.median(loaded) if loaded else 0.0
    return {"seconds": seconds, "calls": sum(statuses.values()),
            "statuses": {str(k): v for k, v in statuses.items()},
            "latency_ms": _summary(latencies), "hint_iterations_per_s_alone": round(alone_rate),
            "hint_iterations_per_s_with_trackers": round(loaded_rate),
            "hint_speed_kept": round(loaded_rate / alone_rate, 3) if alone_rate else None}


async def racing_moves(url: str, game_id: str, tokens: list[str], rounds: int,
                       violations: list[str]) -> dict[str, Any]:
    statuses: dict[str, int] = {}
    latencies: list[float] = []
    async with httpx.AsyncClient(base_url=url, timeout=60.0, headers=_client(60),
                                 limits=httpx.Limits(max_connections=16)) as http:
        for _round in range(rounds):
            seen = (await http.get(f"/v1/games/{game_id}", params={"seat": 0},
                                   headers={"Authorization": f"Bearer {tokens[0]}"})).json()
            seat = seen["position"]["to_move"]
            view = (await http.get(f"/v1/games/{game_id}", params={"seat": seat},
                                   headers={"Authorization": f"Bearer {tokens[seat]}"})).json()
            body = {"seat": seat, "move": view["legal_moves"][0], "expected_ply": len(view["history"])}

            async def one(body: dict[str, Any], seat: int) -> tuple[int, str]:
                start = time.perf_counter()
                answer = await http.post(f"/v1/games/{game_id}/moves", json=body,
                                         headers={"Authorization": f"Bearer {tokens[seat]}"})
                latencies.append((time.perf_counter() - start) * 1000.0)
                code = answer.json().get("code", "ok") if answer.status_code != 200 else "ok"
                return answer.status_code, code

            answers = await asyncio.gather(*(one(body, seat) for _ in range(8)))
            for status, code in answers:
                statuses[f"{status} {code}"] = statuses.get(f"{status} {code}", 0) + 1
            wins = sum(status == 200 for status, _ in answers)
            if wins != 1 or any(status not in (200, 409, 429) for status, _ in answers):
                violations.append(f"racing moves: {answers}")
    return {"rounds": rounds, "clients": 8, "statuses": statuses, "latency_ms": _summary(latencies)}


async def _poll_job(http: httpx.AsyncClient, where: str) -> dict[str, Any] | None:
    """The job's view, or None while the server answers 503 (its store away)."""
    answer = await http.get(where)
    if answer.status_code == 503:
        return None
    answer.raise_for_status()
    return dict(answer.json())


async def starving_job(url: str, record: Record, violations: list[str]) -> dict[str, Any]:
    """Client A's job of 62 decisions at 10**30 iterations, then client B's of 5 once A runs: when
    B's starts and ends, and how far A is by then."""
    starving = record_json(reviewable_prefix(record, 62))
    short = record_json(reviewable_prefix(record, 5))
    async with httpx.AsyncClient(base_url=url, timeout=60.0, headers=_client(70)) as first, \
            httpx.AsyncClient(base_url=url, timeout=60.0, headers=_client(71)) as second:
        answer = await first.post("/v1/analyze", json={"record": starving, "seed": 1,
                                                       "limits": {"iterations": 10**30}})
        if answer.status_code != 202:
            violations.append(f"starving job: {answer.status_code} {answer.text[:200]}")
            return {"status": answer.status_code}
        a_where = answer.headers["location"]
        a_queued = time.perf_counter()
        while (await first.get(a_where)).json()["status"] == "queued":
            await asyncio.sleep(0.05)
        a_running = time.perf_counter()
        answer = await second.post("/v1/analyze", json={"record": short, "seed": 2,
                                                        "limits": {"iterations": 300}})
        b_where, b_queued = answer.headers["location"], time.perf_counter()
        b_started = b_ended = None
        b_job: dict[str, Any] = {}
        while time.perf_counter() - b_queued < 900:
            b_job = (await second.get(b_where)).json()
            if b_started is None and b_job["status"] != "queued":
                b_started = time.perf_counter()
            if b_job["status"] in ("done", "failed", "cancelled"):
                b_ended = time.perf_counter()
                break
            await asyncio.sleep(0.05)
        a_job = (await first.get(a_where)).json()
        await first.delete(a_where)
    if b_ended is None or b_job.get("status") != "done":
        violations.append(f"starving job: client B's job {b_job.get('status')} after 900 s")
    if a_job["status"] == "done":
        violations.append("starving job: client A's job ended before client B's")

    def after(moment: float | None) -> float | None:
        return None if moment is None else round(moment - b_queued, 2)

    return {"a_decisions": a_job["progress"]["total"], "a_iterations_asked": "10**30",
            "a_started_after_s": round(a_running - a_queued, 2),
            "b_decisions": b_job.get("progress", {}).get("total"),
            "b_started_after_s": after(b_started), "b_done_after_s": after(b_ended),
            "a_done_when_b_done": a_job["progress"]["done"], "a_status_when_b_done": a_job["status"]}


async def database_blip(record: Record, blip_s: float, violations: list[str]) -> dict[str, Any]:
    """A job on PostgreSQL whose server stops for `blip_s` seconds mid-job: survived, identical."""
    from service.cluster import Cluster, binaries

    found = binaries()
    if found is None:
        return {"skipped": "PostgreSQL's server binaries are not installed"}
    body = {"record": record_json(reviewable_prefix(record, 40)), "seed": 5, "limits": {"iterations": 300}}
    with Cluster(found) as cluster:
        server = ServiceProcess(cluster.database(), max_searches=2)
        with server:
            async with httpx.AsyncClient(base_url=server.url, timeout=60.0, headers=_client(80)) as http:

                async def finished(where: str) -> tuple[dict[str, Any], float]:
                    begun = time.perf_counter()
                    while True:
                        job = await _poll_job(http, where)
                        if job is not None and job["status"] not in ("queued", "running"):
                            return job, time.perf_counter() - begun
                        await asyncio.sleep(0.05)

                where = (await http.post("/v1/analyze", json=body)).headers["location"]
                while (job := await _poll_job(http, where)) is None or job["progress"]["done"] < 3:
                    await asyncio.sleep(0.02)
                at_blip = job["progress"]["done"]
                blip_began = time.perf_counter()
                cluster.pause()
                await asyncio.sleep(blip_s)
                cluster.resume()
                blip = time.perf_counter() - blip_began
                blipped, seconds = await asyncio.wait_for(finished(where), 900)
                retries = 0.0
                for line in (await http.get("/metrics")).text.splitlines():
                    if line.startswith("tan_jobs_storage_retries_total "):
                        retries = float(line.split()[1])
                again = (await http.post("/v1/analyze", json=body)).headers["location"]
                unbroken, unbroken_s = await asyncio.wait_for(finished(again), 900)

    def untimed(job: dict[str, Any]) -> Any:
        result = job.get("result") or {}
        return {**result, "stats": {k: v for k, v in result.get("stats", {}).items() if k != "time_ms"}}

    survived = blipped["status"] == "done"
    identical = survived and untimed(blipped) == untimed(unbroken)
    if not survived or not identical:
        violations.append(f"database blip: job {blipped['status']} {blipped.get('error')}, "
                          f"identical {identical}")
    return {"blip_s": round(blip, 2), "decisions": blipped["progress"]["total"], "done_at_blip": at_blip,
            "survived": survived, "identical": identical, "error": blipped.get("error"),
            "job_s_after_blip": round(seconds, 1), "unbroken_job_s": round(unbroken_s, 1),
            "storage_retries": retries}
def followed_body(record: Record, limit: int = 62_000) -> dict[str, Any]:
    """A `PUT /v1/followed` body of at most `limit` bytes: the longest prefix of `record` that fits."""
    def body(end: int) -> dict[str, Any]:
        return {"record": record_json(Record(record.rules, record.players, record.seat, record.hand,
                                             record.trump, record.first_attacker, record.events[:end]))}

    low, high = 0, len(record.events)
    while low < high:
        middle = (low + high + 1) // 2
        low, high = (middle, high) if len(json.dumps(body(middle))) <= limit else (low, middle - 1)
    return body(low)


async def followed_flood(url: str, body: dict[str, Any], games: int, violations: list[str]) -> dict[str, Any]:
    statuses: dict[str, int] = {}
    kept_bytes = 0  # the answers to the games kept: each is the game as stored, and its id
    async with httpx.AsyncClient(base_url=url, timeout=60.0, headers=_client(70)) as http:
        start = time.perf_counter()
        for index in range(games):
            answer = await http.put(f"/v1/followed/flood-{index:05d}-0123456789abcdef", json=body)
            code = "ok" if answer.status_code == 200 else answer.json().get("code")
            statuses[f"{answer.status_code} {code}"] = statuses.get(f"{answer.status_code} {code}", 0) + 1
            kept_bytes += len(answer.content) if answer.status_code == 200 else 0
            if answer.status_code not in (200, 413, 429):
                violations.append(f"followed flood: {answer.status_code} {answer.text[:200]}")
        seconds = time.perf_counter() - start
    kept = statuses.get("200 ok", 0)
    return {"games_sent": games, "body_bytes": len(json.dumps(body)), "statuses": statuses, "kept": kept,
            "kept_bytes": kept_bytes, "seconds": round(seconds, 1)}


_PROBE = """
import json, sys, time, httpx
latencies, deadline = [], time.monotonic() + float(sys.argv[2])
with httpx.Client(base_url=sys.argv[1], timeout=30.0) as http:
    while time.monotonic() < deadline:
        start = time.perf_counter()
        http.get("/healthz")
        latencies.append((time.perf_counter() - start) * 1000.0)
        time.sleep(0.02)
print(json.dumps(latencies))
"""


async def _probe_health(url: str, seconds: float) -> list[float]:
    """`/healthz` every 20 ms for `seconds`, from a process of its own: in this one, the clients
    sending 62 KB bodies would delay the probe's own answers (a 1.3 s outlier at each burst's start)."""
    probe = await asyncio.create_subprocess_exec(
        sys.executable, "-c", _PROBE, url, str(seconds), stdout=asyncio.subprocess.PIPE
    )
    out, _ = await probe.communicate()
    return [float(value) for value in json.loads(out)]


async def parse_load(url: str, body: dict[str, Any], seconds: float, clients: int,
                     violations: list[str]) -> dict[str, Any]:
    alone = await _probe_health(url, seconds)
    sent: list[int] = []
    encoded = json.dumps(body).encode()
    headers = {"content-type": "application/json"}

    async def put_again(index: int) -> None:
        deadline = time.monotonic() + seconds
        async with httpx.AsyncClient(base_url=url, timeout=60.0, headers=_client(80 + index)) as http:
            while time.monotonic() < deadline:
                where = f"/v1/followed/parse-load-{index:03d}-0123456789abcdef"
                answer = await http.put(where, content=encoded, headers=headers)
                sent.append(answer.status_code)
                if answer.status_code != 200:
                    violations.append(f"parse load: {answer.status_code} {answer.text[:200]}")

    probe = asyncio.create_task(_probe_health(url, seconds))
    await asyncio.gather(*(put_again(index) for index in range(clients)))
    loaded = await probe
    return {"seconds": seconds, "clients": clients, "body_bytes": len(json.dumps(body)),
            "puts_per_s": round(len(sent) / seconds, 1), "healthz_ms_alone": _summary(alone),
            "healthz_ms_under_load": _summary(loaded)}


async def run(args: argparse.Namespace) -> dict[str, Any]:
    game = long_game(args.seed)
    record = game.record(0)
    whole = record_json(record)
    prefix_record = reviewable_prefix(record, REVIEW_CAP)
    prefix = record_json(prefix_record)
    to_move = record_json(before_last_decision(record))
    violations: list[str] = []
    result: dict[str, Any] = {
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "system": platform.system()},
        "game": {"seed": args.seed, "moves": len(game.moves), "record_bytes": len(json.dumps(whole)),
                 "review_prefix_events": len(prefix_record.events)},
    }
    followed = followed_body(record)
    wanted = set(args.only or PHASES)
    phases: dict[str, Any] = {}
    result["phases"] = phases
    if "starving_job" in wanted:
        with tempfile.TemporaryDirectory() as folder, \
                ServiceProcess(Path(folder) / "games.db", forwarded_allow_ips="127.0.0.1") as alone:
            phases["starving_job"] = await starving_job(alone.url, record, violations)
    if "database_blip" in wanted:
        phases["database_blip"] = await database_blip(record, args.blip_s, violations)
    if not wanted - {"starving_job", "database_blip"}:
        result["violations"] = violations
        return result
    with tempfile.TemporaryDirectory() as folder:
        server = ServiceProcess(Path(folder) / "games.db", max_searches=2,
                                analysis_budget_ms=args.analysis_budget_ms, forwarded_allow_ips="127.0.0.1")
        with server:
            prober = Prober(server.url)
            prober.start()
            started = time.perf_counter()
            if "hung_up_hints" in wanted:
                phases["hung_up_hints"] = await hung_up_hints(server.url, mid_game_position(), violations)
            if "long_reviews" in wanted:
                phases["long_reviews"] = await long_reviews(
                    server.url, prefix, whole, args.analysis_budget_ms, args.review_iterations, violations
                )
            if "long_record_hints" in wanted:
                phases["long_record_hints"] = await long_record_hints(server.url, to_move, violations)
            if "stored_game" in wanted or "racing_moves" in wanted:
                game_id, tokens, per_move = await store_long_game(server.url, game, args.stored_moves,
                                                                  violations)
                phases["stored_game"] = {"moves": args.stored_moves, "ms_per_move": round(per_move, 1)}
            if "stored_game" in wanted:
                phases["tracker_loops"] = await tracker_loops(server.url, game_id, tokens, args.tracker_s,
                                                              violations)
            if "racing_moves" in wanted:
                phases["racing_moves"] = await racing_moves(server.url, game_id, tokens, 10, violations)
            if "followed_flood" in wanted:
                phases["followed_flood"] = await followed_flood(server.url, followed, args.flood_games,
                                                                violations)
            if "parse_load" in wanted:
                phases["parse_load"] = await parse_load(server.url, followed, args.parse_s, 8, violations)
            phases["health_under_load"] = await prober.stop()
            phases["seconds"] = round(time.perf_counter() - started, 1)
    result["violations"] = violations
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1, help="the long game's seed")
    parser.add_argument("--analysis-budget-ms", type=float, default=5_000.0)
    parser.add_argument("--review-iterations", type=int, default=300,
                        help="each reviewed decision's fixed iteration budget")
    parser.add_argument("--tracker-s", type=float, default=10.0)
    parser.add_argument("--stored-moves", type=int, default=600)
    parser.add_argument("--blip-s", type=float, default=8.0, help="how long the database blip lasts")
    parser.add_argument("--flood-games", type=int, default=200)
    parser.add_argument("--parse-s", type=float, default=10.0)
    parser.add_argument("--only", nargs="+", choices=PHASES, help="run only these phases")
    parser.add_argument("--output", type=Path, default=RESULTS / "adversarial.json")
    args = parser.parse_args(argv)
    result = asyncio.run(run(args))
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result["phases"], indent=1))
    for violation in result["violations"]:
        print("VIOLATION", violation, file=sys.stderr)
    return 1 if result["violations"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
