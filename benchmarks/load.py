"""Service load: concurrent hint requests and stored games against real `tan serve` processes on
free loopback ports.

    python -m benchmarks.load [--clients 1,2,50] [--requests 400] [--duration 60]
                              [--iterations 10000] [--latency-requests 50]
                              [--burst 50] [--burst-iterations 20000]
                              [--games 8] [--games-duration 30]
                              [--store sqlite|postgresql] [--database URL] [--replicas 1]
                              [--output FILE]

Four measurements, against `--replicas` server processes started here on 127.0.0.1 on one
store (and stopped with Ctrl-C's SIGINT at the end): a SQLite file (`--store sqlite`, one
replica only), or a PostgreSQL database (`--store postgresql`: `--database`, else a throwaway
cluster of Debian's server, `service.cluster`). Clients spread their requests over the
replicas in turn; the latency bar uses the first.

1. The latency bar of BENCHMARKS.md, quality bars: `--latency-requests` sequential hints of
   `--iterations` iterations (one thread per search) on a fixed 2-seat
   `durak` mid-game position; median and p99 latency as the client sees it.
2. For each client count in `--clients`: that many concurrent async httpx
   clients share `--requests` hint requests (at most `--duration` seconds).
   A client answered 503 waits `Retry-After × --backoff` seconds and moves on
   to its next request. Measured: throughput, median and p99 latency of the
   answered hints, and the count of each status; every answer must be 200, or
   503 with a `Retry-After` header (BENCHMARKS.md, quality bars) — anything else is listed under
   `violations`.
3. A burst: `--burst` clients each send one hint of `--burst-iterations`
   iterations at the same moment, more than the search slots can take at
   once; the queue in front of them (`--queue-size`, `--queue-wait-s`: the
   server's `TAN_QUEUE_SIZE`, `TAN_QUEUE_WAIT_S`) should serve them in turn.
   Measured: the count of each status, the share of 503, the median, p99 and
   longest latency of the answered ones, and whether every answer came within
   the queue's deadline plus the longest search.
4. Stored games: `--games` concurrent clients each deal a game (a human against
   the greedy engine, seeded), read it and play its first legal move with
   `expected_ply` until it ends, then deal the next, for `--games-duration`
   seconds, each request to the next replica — the store's own load: a write
   per move, a read per view, the engine's reply computed once. Measured: requests
   a second, the median and p99 latency of every answered request, and the
   statuses; every answer must be 200/201, or 503/429 with `Retry-After`.

Writes `benchmarks/results/load.json` (or `--output`) and prints a summary line
per measurement. Exits 1 if any answer broke the rule.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from service.cluster import Cluster, binaries
from service.process import ServiceProcess
from solver.game.position import Position
from solver.game.reference import Game
from solver.game.rules import Rules

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "results"


# -- the position -------------------------------------------------------------------------------


def mid_game_position(seed: int = 7, plies: int = 12) -> dict[str, Any]:
    """A 2-seat `durak` position after `plies` random moves, seen by the seat to move."""
    game = Game.deal(Rules.from_json("durak"), 2, seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        game.play(rng.choice(game.legal_moves()))
    assert game.to_move is not None and len(game.stock) > 0
    return Position.from_game(game, game.to_move).to_json()


def _percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def _summary(latencies_ms: list[float]) -> dict[str, float]:
    return {
        "median": round(statistics.median(latencies_ms), 2) if latencies_ms else float("nan"),
        "p99": round(_percentile(latencies_ms, 0.99), 2),
        "mean": round(statistics.fmean(latencies_ms), 2) if latencies_ms else float("nan"),
        "max": round(max(latencies_ms), 2) if latencies_ms else float("nan"),
    }


# -- the measurements ---------------------------------------------------------------------------


def latency_bar(url: str, position: dict[str, Any], iterations: int, requests: int) -> dict[str, Any]:
    """Sequential hints of `iterations` iterations: the BENCHMARKS.md, quality bars latency bar."""
    latencies: list[float] = []
    server_ms: list[float] = []
    rates: list[float] = []
    with httpx.Client(base_url=url, timeout=60.0) as http:
        for seed in range(requests + 3):
            body = {"position": position, "limits": {"iterations": iterations}, "seed": seed}
            start = time.perf_counter()
            answer = http.post("/v1/hint", json=body)
            elapsed = (time.perf_counter() - start) * 1000.0
            answer.raise_for_status()
            if seed < 3:
                continue  # warm-up
            stats = answer.json()["stats"]
            if stats["iterations"] != iterations:
                raise RuntimeError(f"the search ran {stats['iterations']} iterations, not {iterations}")
            latencies.append(elapsed)
            server_ms.append(stats["time_ms"])
            rates.append(stats["iterations_per_s"])
    return {
        "requests": requests,
        "iterations": iterations,
        "threads": 1,
        "latency_ms": _summary(latencies),
        "search_ms": _summary(server_ms),
        "iterations_per_s_median": round(statistics.median(rates), 1),
        "bar_ms": 250,
        "meets_bar": statistics.median(latencies) < 250,
    }


async def _load(
    urls: list[str], position: dict[str, Any], clients: int, requests: int, duration: float, iterations: int,
    backoff: float,
) -> dict[str, Any]:  # fmt: skip
    """`clients` concurrent clients share `requests` hint requests, for at most `duration` s; client
    k sends to replica k of `urls` (in turn)."""
    counts: dict[str, int] = {}
    latencies: list[float] = []
    violations: list[str] = []
    remaining = requests
    deadline = time.monotonic() + duration
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)

    async def client(index: int, https: list[httpx.AsyncClient]) -> None:
        nonlocal remaining
        http = https[index % len(https)]
        seed = index * 1_000_003
        while remaining > 0 and time.monotonic() < deadline:
            remaining -= 1
            seed += 1
            body = {"position": position, "limits": {"iterations": iterations}, "seed": seed}
            start = time.perf_counter()
            try:
                answer = await http.post("/v1/hint", json=body)
            except httpx.HTTPError as error:
                counts[type(error).__name__] = counts.get(type(error).__name__, 0) + 1
                violations.append(f"{type(error).__name__}: {error}")
                continue
            elapsed = (time.perf_counter() - start) * 1000.0
            counts[str(answer.status_code)] = counts.get(str(answer.status_code), 0) + 1
            if answer.status_code == 200:
                latencies.append(elapsed)
            elif answer.status_code == 503 and "retry-after" in answer.headers:
                await asyncio.sleep(float(answer.headers["retry-after"]) * backoff)
            else:
                violations.append(f"{answer.status_code}: {answer.text[:200]}")

    start = time.perf_counter()
    https = [httpx.AsyncClient(base_url=url, timeout=60.0, limits=limits) for url in urls]
    try:
        await asyncio.gather(*(client(index, https) for index in range(clients)))
    finally:
        for http in https:
            await http.aclose()
    seconds = time.perf_counter() - start
    answered = sum(counts.values())
    return {
        "clients": clients,
        "backoff": backoff,
        "requests": answered,
        "iterations": iterations,
        "seconds": round(seconds, 3),
        "throughput_per_s": round(answered / seconds, 1),
        "hints_per_s": round(counts.get("200", 0) / seconds, 1),
        "status_counts": dict(sorted(counts.items())),
        "latency_ms_200": _summary(latencies),
        "violations": violations[:20],
        "ok": not violations,
    }


async def _burst(url: str, position: dict[str, Any], clients: int, iterations: int) -> dict[str, Any]:
    """`clients` hints of `iterations` iterations sent at the same moment, one per client."""
    counts: dict[str, int] = {}
    latencies: list[float] = []
    searches: list[float] = []
    violations: list[str] = []
    go = asyncio.Event()

    async def client(seed: int) -> None:
        async with httpx.AsyncClient(base_url=url, timeout=120.0) as http:
            body = {"position": position, "limits": {"iterations": iterations}, "seed": seed}
            await http.get("/healthz")  # connected before the burst
            await go.wait()
            start = time.perf_counter()
            answer = await http.post("/v1/hint", json=body)
            elapsed = (time.perf_counter() - start) * 1000.0
        counts[str(answer.status_code)] = counts.get(str(answer.status_code), 0) + 1
        if answer.status_code == 200:
            latencies.append(elapsed)
            searches.append(answer.json()["stats"]["time_ms"])
        elif answer.status_code != 503 or "retry-after" not in answer.headers:
            violations.append(f"{answer.status_code}: {answer.text[:200]}")

    tasks = [asyncio.create_task(client(seed)) for seed in range(clients)]
    await asyncio.sleep(1.0)  # every client connected
    go.set()
    await asyncio.gather(*tasks)
    return {
        "clients": clients,
        "iterations": iterations,
        "status_counts": dict(sorted(counts.items())),
        "share_503": round(counts.get("503", 0) / clients, 3),
        "latency_ms_200": _summary(latencies),
        "search_ms_200": _summary(searches),
        "violations": violations[:20],
        "ok": not violations,
    }


async def _games(urls: list[str], clients: int, duration: float) -> dict[str, Any]:
    """`clients` clients play stored games against greedy for `duration` seconds, each request to
    the next of `urls`."""
    counts: dict[str, int] = {}
    latencies: list[float] = []
    violations: list[str] = []
    finished = 0
    deadline = time.monotonic() + duration
    turn = 0

    async def call(
        https: list[httpx.AsyncClient], method: str, path: str, **kwargs: Any
    ) -> httpx.Response | None:
        nonlocal turn
        http = https[turn % len(https)]
        turn += 1
        start = time.perf_counter()
        try:
            answer = await http.request(method, path, **kwargs)
        except httpx.HTTPError as error:
            counts[type(error).__name__] = counts.get(type(error).__name__, 0) + 1
            violations.append(f"{type(error).__name__}: {error}")
            return None
        counts[str(answer.status_code)] = counts.get(str(answer.status_code), 0) + 1
        if answer.status_code in (200, 201):
            latencies.append((time.perf_counter() - start) * 1000.0)
            return answer
        if answer.status_code in (429, 503) and "retry-after" in answer.headers:
            await asyncio.sleep(float(answer.headers["retry-after"]))
        else:
            violations.append(f"{answer.status_code}: {answer.text[:200]}")
        return None

    async def client(index: int) -> None:
        nonlocal finished
        https = [httpx.AsyncClient(base_url=url, timeout=60.0) for url in urls]
        seed = index * 1_000_003
        try:
            while time.monotonic() < deadline:
                seed += 1
                body = {"rules": "durak", "seats": ["human", "greedy"], "seed": seed, "first_attacker": 0}
                created = await call(https, "POST", "/v1/games", json=body)
                if created is None:
                    continue
                game = created.json()
                auth = {"Authorization": f"Bearer {game['tokens'][0]}"}
                path = f"/v1/games/{game['id']}"
                view = game["game"]
                while view["status"] == "playing" and time.monotonic() < deadline:
                    read = await call(https, "GET", path, params={"seat": 0}, headers=auth)
                    if read is not None:
                        view = read.json()
                    move = {"seat": 0, "move": view["legal_moves"][0], "expected_ply": len(view["history"])}
                    played = await call(https, "POST", f"{path}/moves", json=move, headers=auth)
                    if played is not None:
                        view = played.json()
                finished += view["status"] == "over"
        finally:
            for http in https:
                await http.aclose()

    start = time.perf_counter()
    await asyncio.gather(*(client(index) for index in range(clients)))
    seconds = time.perf_counter() - start
    answered = sum(counts.values())
    return {
        "clients": clients,
        "replicas": len(urls),
        "seconds": round(seconds, 3),
        "requests": answered,
        "requests_per_s": round(answered / seconds, 1),
        "games_finished": finished,
        "status_counts": dict(sorted(counts.items())),
        "latency_ms": _summary(latencies),
        "violations": violations[:20],
        "ok": not violations,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.load", description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", default="1,2,50", help="comma-separated client counts (default 1,2,50)")
    parser.add_argument("--requests", type=int, default=400, help="hint requests per client count (400)")
    parser.add_argument("--duration", type=float, default=60.0, help="most seconds per client count (60)")
    parser.add_argument("--iterations", type=int, default=10_000, help="iterations per hint (10000)")
    parser.add_argument("--latency-requests", type=int, default=50, help="sequential hints for the bar (50)")
    parser.add_argument(
        "--backoff", type=float, default=1.0, help="share of Retry-After a client waits (1: all)"
    )
    parser.add_argument("--max-searches", type=int, help="TAN_MAX_SEARCHES of the server (default: cores)")
    parser.add_argument("--burst", type=int, default=50, help="clients of the burst (50; 0: none)")
    parser.add_argument("--burst-iterations", type=int, default=20_000, help="iterations a hint (20000)")
    parser.add_argument("--queue-size", type=int, default=64, help="TAN_QUEUE_SIZE of the server (64)")
    parser.add_argument("--queue-wait-s", type=float, default=10.0, help="TAN_QUEUE_WAIT_S (10)")
    parser.add_argument("--games", type=int, default=8, help="clients playing stored games (8; 0: none)")
    parser.add_argument("--games-duration", type=float, default=30.0, help="seconds of stored games (30)")
    parser.add_argument("--store", choices=("sqlite", "postgresql"), default="sqlite", help="the game store")
    parser.add_argument("--database", help="a PostgreSQL URL (--store postgresql; default: a new cluster)")
    parser.add_argument("--replicas", type=int, default=1, help="server processes on the one store (1)")
    parser.add_argument("--output", type=Path, default=RESULTS / "load.json", help="results file")
    args = parser.parse_args(argv)
    if args.replicas < 1 or (args.store == "sqlite" and args.replicas != 1):
        parser.error("--replicas: at least 1, and replicas share a PostgreSQL store (--store postgresql)")
    client_counts = [int(count) for count in args.clients.split(",") if count.strip()]
    if not client_counts or min(client_counts) < 1 or args.requests < 1 or args.duration <= 0:
        parser.error("--clients, --requests and --duration must be positive")

    position = mid_game_position()
    settings: dict[str, object] = {
        "threads": 1,
        "max_iterations": max(args.iterations, args.burst_iterations, 10_000),
        "queue_size": args.queue_size,
        "queue_wait_s": args.queue_wait_s,
        "max_playing_per_client": 1000,
        # Its clients share one address: the pool and its queue are measured, not the per-client
        # cap (benchmarks/adversarial.py gives each client its own address instead).
        "max_searches_per_client": 0,
    }
    if args.max_searches is not None:
        settings["max_searches"] = args.max_searches
    with contextlib.ExitStack() as stack:
        scratch = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        database: str | Path = scratch / "games.db"
        if args.store == "postgresql":
            if args.database:
                database = args.database
            else:
                found = binaries()
                if found is None:
                    parser.error("--store postgresql needs --database or PostgreSQL's server binaries")
                database = stack.enter_context(Cluster(found)).database()
        servers = [stack.enter_context(ServiceProcess(database, **settings)) for _ in range(args.replicas)]
        urls = [server.url for server in servers]
        bar = latency_bar(urls[0], position, args.iterations, args.latency_requests)
        print(
            f"latency bar: {args.iterations} iterations, median {bar['latency_ms']['median']} ms, "
            f"p99 {bar['latency_ms']['p99']} ms (search {bar['search_ms']['median']} ms)",
            file=sys.stderr,
        )
        runs = []
        for clients in client_counts:
            run = asyncio.run(
                _load(urls, position, clients, args.requests, args.duration, args.iterations, args.backoff)
            )
            runs.append(run)
            print(
                f"{clients} clients: {run['throughput_per_s']} answers/s, {run['hints_per_s']} hints/s, "
                f"median {run['latency_ms_200']['median']} ms, p99 {run['latency_ms_200']['p99']} ms, "
                f"statuses {run['status_counts']}, violations {len(run['violations'])}",
                file=sys.stderr,
            )
        burst = None
        if args.burst > 0:
            burst = asyncio.run(_burst(urls[0], position, args.burst, args.burst_iterations))
            # Every answer within the queue's wait, one search and a second of slack.
            allowed = args.queue_wait_s * 1000.0 + burst["search_ms_200"]["max"] + 1000.0
            burst["within_deadline"] = bool(burst["latency_ms_200"]["max"] <= allowed)
            print(
                f"burst of {args.burst} x {args.burst_iterations} iterations: "
                f"statuses {burst['status_counts']}, "
                f"median {burst['latency_ms_200']['median']} ms, p99 {burst['latency_ms_200']['p99']} ms, "
                f"max {burst['latency_ms_200']['max']} ms, 503 share {burst['share_503']}",
                file=sys.stderr,
            )
        games = None
        if args.games > 0:
            games = asyncio.run(_games(urls, args.games, args.games_duration))
            print(
                f"stored games, {args.games} clients on {args.replicas} replica(s): "
                f"{games['requests_per_s']} requests/s, median {games['latency_ms']['median']} ms, "
                f"p99 {games['latency_ms']['p99']} ms, {games['games_finished']} games finished, "
                f"statuses {games['status_counts']}, violations {len(games['violations'])}",
                file=sys.stderr,
            )
        exit_status = max(server.stop() for server in servers)
    results = {
        "bench": "load",
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "platform": platform.platform(),
        },
        "server": {
            "store": args.store,
            "replicas": args.replicas,
            "threads_per_search": 1,
            "max_searches": args.max_searches or os.cpu_count(),
            "queue_size": args.queue_size,
            "queue_wait_s": args.queue_wait_s,
        },
        "position": position,
        "latency_bar": bar,
        "runs": runs,
        "burst": burst,
        "games": games,
        "server_exit_status": exit_status,
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(results, indent=2) + "\n")
    print(f"benchmarks.load: results written to {args.output}", file=sys.stderr)
    burst_ok = burst is None or burst["ok"]
    games_ok = games is None or games["ok"]
    return 0 if all(run["ok"] for run in runs) and burst_ok and games_ok and exit_status == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
