"""Service settings, read from `TAN_*` environment variables (pydantic-settings).

Every limit a client could push is capped here: search iterations and time,
how many searches run at once, how large a request body may be. Example:

    TAN_PORT=9000 TAN_MAX_SEARCHES=4 TAN_CORS_ORIGINS=http://localhost:5173 tan serve
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

__all__ = ["Settings", "default_database", "get_settings"]


def default_database() -> Path:
    """Where games are stored unless `TAN_DATABASE` says otherwise: `tan/games.db` under the
    user's data directory (`$XDG_DATA_HOME`, else `~/.local/share`), whatever the working
    directory."""
    data = os.environ.get("XDG_DATA_HOME") or ""
    base = Path(data) if Path(data).is_absolute() else Path.home() / ".local" / "share"
    return base / "tan" / "games.db"


class Settings(BaseSettings):
    """What an operator may tune. Names are the environment variables without `TAN_`."""

    model_config = SettingsConfigDict(env_prefix="TAN_", extra="ignore", frozen=True)

    host: str = Field(default="127.0.0.1", description="address `tan serve` listens on")
    port: int = Field(default=8000, ge=0, le=65535, description="port `tan serve` listens on")
    database: Path | str = Field(
        default_factory=lambda: default_database(),
        description="where games are stored: a SQLite file (created if missing, readable by its owner only; "
        "default $XDG_DATA_HOME/tan/games.db, that is ~/.local/share/tan/games.db), or a PostgreSQL URL "
        "(postgresql://user:password@host:5432/name) that several replicas and workers share",
    )
    database_connections: int = Field(
        default=10,
        ge=1,
        le=1000,
        description="most connections this process opens to a PostgreSQL database for its requests, and as "
        "many again for the moves being computed (one each, holding the game's lock); SQLite: unused",
    )
    database_timeout_s: float = Field(
        default=5.0,
        gt=0,
        le=300,
        description="longest a request waits for the store (a free connection, a reachable server, SQLite's "
        "lock) before it is answered 503 storage_unavailable",
    )
    default_iterations: int = Field(
        default=10_000, ge=1, description="search iterations when a request names no limits (within the cap)"
    )
    max_iterations: int = Field(default=1_000_000, ge=1, description="most iterations one search may run")
    default_time_ms: float = Field(
        default=2_000, gt=0, description="search time when a request names no limits (within the cap)"
    )
    max_time_ms: float = Field(default=10_000, gt=0, description="most milliseconds one search may run")
    threads: int = Field(default=1, ge=1, le=64, description="threads per search (root-parallel)")
    beliefs: bool = Field(
        default=True,
        description="weigh hidden hands by how likely the other seats' moves are (a game's history); "
        "off: every consistent deal is equally likely",
    )
    particles: int = Field(
        default=16384, ge=64, le=1_000_000, description="worlds weighed for beliefs and the card tracker"
    )
    max_searches: int = Field(
        default_factory=lambda: os.cpu_count() or 1,
        ge=1,
        description="searches that may run at once; beyond that requests wait in the queue",
    )
    queue_size: int = Field(
        default=64,
        ge=0,
        description="search requests that may wait for a slot when every one is busy (first come, first "
        "served); beyond, 503 at once",
    )
    queue_wait_s: float = Field(
        default=10.0,
        ge=0,
        description="longest a search request waits in the queue for a slot before it is answered 503",
    )
    max_searches_per_client: int = Field(
        default=4,
        ge=0,
        description="searches of any kind one client (one address) may have running or waiting at once; "
        "beyond, 429 with Retry-After (0: no limit; behind a proxy set TAN_FORWARDED_ALLOW_IPS; "
        "docs/deploy.md says why 4)",
    )
    parse_threads: int = Field(
        default=1,
        ge=1,
        le=64,
        description="threads that read request bodies (records, positions) off the event loop; beyond, "
        "bodies wait their turn. Each one more takes the interpreter's lock from the loop more often "
        "(docs/deploy.md)",
    )
    search_nice: int = Field(
        default=5,
        ge=0,
        le=19,
        description="how much lower than the event loop search threads run (Linux nice steps; 0: equal)",
    )
    retry_after_s: int = Field(default=1, ge=1, description="the Retry-After header of a 503, in seconds")
    max_body_bytes: int = Field(
        default=65_536, ge=256, description="largest request body accepted (413 beyond)"
    )
    header_timeout_s: float = Field(
        default=10.0,
        gt=0,
        description="a connection must send a request's whole headers within this many seconds of opening "
        "(or of its last answer), else 408 and it is closed",
    )
    body_timeout_s: float = Field(
        default=30.0, gt=0, description="a request body must arrive whole within this many seconds, else 408"
    )
    keep_alive_s: int = Field(
        default=5, ge=1, description="an idle connection between requests is closed after this many seconds"
    )
    limit_concurrency: int = Field(
        default=1000,
        ge=1,
        description="connections and requests at once (uvicorn's --limit-concurrency); beyond, a new "
        "request is answered 503 at once",
    )
    forwarded_allow_ips: str = Field(
        default="",
        description="reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed, "
        "comma-separated (uvicorn's --forwarded-allow-ips). None by default: a client is the address "
        "it connects from; behind a proxy on this host, 127.0.0.1",
    )
    shutdown_grace_s: int = Field(
        default=5,
        ge=1,
        description="on Ctrl-C or SIGTERM, how long requests may finish before they are cancelled (their "
        "searches stop at once)",
    )
    cors_origins: Annotated[list[str], NoDecode] = Field(
        default_factory=list, description="origins allowed by CORS, comma-separated (none by default)"
    )
    engine_budget_ms: float = Field(
        default=20_000,
        gt=0,
        description="engine seats search for at most this long within one request; "
        "past it they play the greedy engine's move, so a request always ends",
    )
    analysis_budget_ms: float = Field(
        default=60_000,
        gt=0,
        description="a game review searches for at most this long in all: each decision's time limit is "
        "at most its share of it (and at most max_time_ms), so a review always ends",
    )
    max_review_decisions: int = Field(
        default=400,
        ge=1,
        description="most moves of its own the reviewed seat may have made in a record or stored game; "
        "beyond, the review is refused (422 invalid_record), so each decision keeps a useful share of "
        "analysis_budget_ms",
    )
    max_puzzle_checks: int = Field(
        default=8,
        ge=1,
        le=64,
        description="most decisions of a posted record POST /v1/puzzles searches for puzzles (each within "
        "the search caps); the rest are not tried",
    )
    max_game_moves: int = Field(
        default=1_000,
        ge=1,
        description="most moves a stored game may hold (a match: each of its games); a move past it is "
        "refused (422 invalid_move) and the game stays as it was",
    )
    game_cache: int = Field(default=256, ge=0, description="games kept in memory between requests")
    max_requests_per_game: int = Field(
        default=8,
        ge=1,
        description="requests at work on one game at once (reads, moves, hints, trackers, reviews); "
        "beyond, 429 with Retry-After",
    )
    finished_ttl_s: float = Field(
        default=7 * 86_400, gt=0, description="a finished game is deleted this many seconds after its end"
    )
    abandoned_ttl_s: float = Field(
        default=2 * 86_400,
        gt=0,
        description="a game still being played is deleted when nobody has moved in it for this many seconds",
    )
    sweep_interval_s: float = Field(
        default=600, gt=0, description="how often expired games are looked for and deleted, in seconds"
    )
    max_playing_per_client: int = Field(
        default=20,
        ge=1,
        description="games one client (one address) may have being played at once; beyond, creating "
        "one answers 429",
    )
    max_followed_per_client: int = Field(
        default=64,
        ge=1,
        description="games followed at a table one client (one address) may keep on the server at once "
        "(`PUT /v1/followed`); beyond, keeping another answers 429 (replacing one of its own is taken)",
    )
    max_followed_bytes_per_client: int = Field(
        default=2_097_152,
        ge=65_536,
        description="bytes of JSON the games one client (one address) keeps followed may take in all; a "
        "`PUT /v1/followed` that would go past it answers 413 and keeps nothing",
    )

    lease_s: float = Field(
        default=120,
        gt=0,
        description="on PostgreSQL, seconds after which a per-game or per-client place a replica could not "
        "give back (it died) is free again. Keep it above the longest request (engine and analysis "
        "budgets, the queue wait)",
    )
    job_workers: int = Field(
        default=1,
        ge=0,
        le=64,
        description="review jobs `tan serve` works on in its own process at once, in its search slots "
        "(0: none; `tan worker` runs workers elsewhere)",
    )
    job_lease_s: float = Field(
        default=60,
        gt=0,
        description="a worker holds its job this long, renewed with each decision it stores and while one "
        "is searched (up to TAN_ANALYSIS_BUDGET_MS and a lease more); a worker that stops loses the job "
        "once its lease has run out",
    )
    job_poll_s: float = Field(
        default=1.0, gt=0, description="how often an idle worker looks for a job in the database, in seconds"
    )
    job_attempts: int = Field(
        default=3, ge=1, description="workers that may take a job in turn before it fails (each one died)"
    )
    max_jobs_per_client: int = Field(
        default=4,
        ge=1,
        description="review jobs one client (one address) may have queued or running at once; beyond, 429",
    )
    max_job_bytes_per_client: int = Field(
        default=8_000_000,
        ge=65_536,
        description="bytes one client's stored review jobs may take (records and reviews, until they "
        "expire); beyond, 429 with the wait until its oldest expires",
    )
    max_job_iterations: int = Field(
        default=4_000_000,
        ge=1_000,
        description="most search iterations of one review job in all: each decision's iterations are lowered "
        "to its share (stats.limits says what was used), so one job holds a slot for a bounded time",
    )
    job_ttl_s: float = Field(
        default=86_400, gt=0, description="a finished job (and its review) is deleted this many seconds after"
    )

    @field_validator("database", mode="after")
    @classmethod
    def _database_path(cls, value: Path | str) -> Path | str:
        """A PostgreSQL URL stays text; anything else is a path."""
        if isinstance(value, str) and not value.startswith(("postgresql://", "postgres://")):
            return Path(value)
        return value

    @field_validator("cors_origins", mode="before")
    @classmethod
    def _split_origins(cls, value: Any) -> Any:
        if isinstance(value, str):
            return [origin.strip() for origin in value.split(",") if origin.strip()]
        return value


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The settings of this process, read once from the environment."""
    return Settings()
