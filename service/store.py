"""Games in SQLite (WAL mode, the default) or PostgreSQL: the set-up of each game and its move list.

`TAN_DATABASE` picks the store (`service.deps.open_store`): a `postgresql://…` URL opens a
`PostgresStore` (psycopg 3 with its connection pool), anything else is the path
of a `SqliteStore`. Both run the same schema, the same migrations and the same
SQL (written with `?` placeholders; the PostgreSQL store turns them into `%s`).

A game is stored as what is needed to rebuild it exactly: its set-up (rules
with every option, seats, the ordered deck, the first attacker, the seed of
its engines, the hashes of its seat tokens) and the moves played, one row per
ply. Loading deals the same deck and replays the moves through the reference
rules, so no pickled state is ever read back.

Writes are optimistic: `append` moves the game's ply count from the one the
caller read to the new one in one `UPDATE … WHERE plies = ?` and adds the moves
under the unique (game, ply) key, in one transaction; if another writer got
there first nothing is stored (`StaleGameError`). On PostgreSQL the second
writer's `UPDATE` waits for the first to commit, then finds the count moved on.

Storage stays bounded: `expire` deletes finished games and games nobody has
moved in for a while (the service sweeps periodically), and `create` refuses a
client more games still being played than its cap (on PostgreSQL a lock per
client makes the count and the insert one step across replicas). A client is
kept only as a hash of its address.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import stat
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "GameLockTimeoutError",
    "GameRecord",
    "GameStore",
    "Job",
    "LeaseLostError",
    "PostgresStore",
    "SqliteStore",
    "StaleGameError",
    "StorageUnavailableError",
    "TooManyFollowedError",
    "TooManyGamesError",
    "TooManyJobsError",
    "is_database_url",
]

SCHEMA: tuple[str, ...] = (
    """CREATE TABLE IF NOT EXISTS games (
    id         TEXT PRIMARY KEY,
    setup      TEXT NOT NULL,
    plies      INTEGER NOT NULL DEFAULT 0,
    status     TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL,
    client     TEXT
)""",
    """CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL REFERENCES games(id),
    ply     INTEGER NOT NULL,
    seat    INTEGER NOT NULL,
    move    TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
)""",
    """CREATE TABLE IF NOT EXISTS probe (
    id INTEGER PRIMARY KEY,
    at DOUBLE PRECISION NOT NULL
)""",
    "CREATE INDEX IF NOT EXISTS games_by_age ON games (status, updated_at)",
    "CREATE INDEX IF NOT EXISTS games_by_client ON games (client, status)",
    """CREATE TABLE IF NOT EXISTS jobs (
    id          TEXT PRIMARY KEY,
    kind        TEXT NOT NULL,
    request     TEXT NOT NULL,
    status      TEXT NOT NULL,
    done        INTEGER NOT NULL DEFAULT 0,
    total       INTEGER NOT NULL,
    result      TEXT,
    error       TEXT,
    worker      TEXT,
    lease_until DOUBLE PRECISION,
    attempts    INTEGER NOT NULL DEFAULT 0,
    created_at  DOUBLE PRECISION NOT NULL,
    updated_at  DOUBLE PRECISION NOT NULL,
    client      TEXT
)""",
    """CREATE TABLE IF NOT EXISTS job_steps (
    job_id TEXT NOT NULL REFERENCES jobs(id),
    step   INTEGER NOT NULL,
    worker TEXT NOT NULL,
    answer TEXT NOT NULL,
    PRIMARY KEY (job_id, step)
)""",
    """CREATE TABLE IF NOT EXISTS leases (
    key    TEXT NOT NULL,
    holder TEXT NOT NULL,
    until  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (key, holder)
)""",
    "CREATE INDEX IF NOT EXISTS leases_by_until ON leases (until)",
    "CREATE INDEX IF NOT EXISTS jobs_by_status ON jobs (status, created_at)",
    "CREATE INDEX IF NOT EXISTS jobs_by_client ON jobs (client, status)",
    # A game followed at a real table (the web page's table assistant), kept under its secret id.
    """CREATE TABLE IF NOT EXISTS followed (
    id         TEXT PRIMARY KEY,
    game       TEXT NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL,
    client     TEXT,
    bytes      INTEGER NOT NULL DEFAULT 0
)""",
    "CREATE INDEX IF NOT EXISTS followed_by_age ON followed (updated_at)",
    "CREATE INDEX IF NOT EXISTS followed_by_client ON followed (client)",
    # A stored game's finished reviews, kept with it (and deleted with it): `key` names the seat, the
    # game of the match and the review's budget and seed (service/jobs.py `review_key`).
    """CREATE TABLE IF NOT EXISTS reviews (
    game_id TEXT NOT NULL REFERENCES games(id),
    key     TEXT NOT NULL,
    review  TEXT NOT NULL,
    PRIMARY KEY (game_id, key)
)""",
)
"""The current schema, one statement each, the same on both stores."""

MIGRATIONS: dict[int, tuple[str, ...]] = {
    # Schema 1 had no client column: a store of it gains one (its games belong to no client).
    1: ("ALTER TABLE games ADD COLUMN client TEXT",),
    # Schema 2 had no jobs and no leases: `SCHEMA` creates their tables.
    2: (),
    # Schema 3 had no followed games: `SCHEMA` creates their table.
    3: (),
    # Schema 4 kept no reviews with the games: `SCHEMA` creates their table.
    4: (),
    # Schema 5's followed games belonged to no client and had no size: they gain both (the table
    # as schema 4 made it first, for a store coming from schema 3).
    5: (
        "CREATE TABLE IF NOT EXISTS followed (id TEXT PRIMARY KEY, game TEXT NOT NULL, "
        "updated_at DOUBLE PRECISION NOT NULL)",
        "ALTER TABLE followed ADD COLUMN client TEXT",
        "ALTER TABLE followed ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0",
        "UPDATE followed SET bytes = length(game)",
    ),
}
"""What brings a store of schema `version` to `version + 1`, before `SCHEMA` runs."""

SCHEMA_VERSION = 6

log = logging.getLogger("service")


def is_database_url(database: Path | str) -> bool:
    """Whether `database` names a PostgreSQL server (`postgresql://…` or `postgres://…`)."""
    return isinstance(database, str) and database.startswith(("postgresql://", "postgres://"))


class StorageUnavailableError(Exception):
    """The store could not be read or written (an operational error: a full or read-only disk, a
    file locked past the timeout, missing or unreadable, a database server that cannot be
    reached); the service answers 503 `storage_unavailable`, and nothing was stored."""


class TooManyGamesError(Exception):
    """The client already has as many games being played as it may."""


class StaleGameError(Exception):
    """The game changed since it was read: another writer added a move first."""


class GameLockTimeoutError(Exception):
    """Another process held the game's move lock for longer than the wait allowed."""


class TooManyJobsError(Exception):
    """The client already has as many jobs queued or running as it may (`held` jobs), or its stored
    jobs already take as many bytes as they may (`held` bytes, `bytes` true)."""

    def __init__(self, client: str, held: int = 0, bytes: bool = False) -> None:
        super().__init__(client)
        self.held = held
        self.bytes = bytes


class TooManyFollowedError(Exception):
    """Keeping the followed game would take the client past its cap: `kind` is `games` (it keeps
    `cap` of them already) or `bytes` (they would take `held` bytes, over `cap`)."""

    def __init__(self, kind: str, held: int, cap: int) -> None:
        super().__init__(f"{kind}: {held} of {cap}")
        self.kind = kind
        self.held = held
        self.cap = cap


class LeaseLostError(Exception):
    """The job's lease is no longer this worker's: it expired and another worker took the job (or
    the job was deleted). The worker drops it; nothing it did after that is kept."""


@dataclass(frozen=True)
class Job:
    """A stored job: what to do (`kind`, `request`), how far it is (`done` of `total` steps), and
    once it ends its `result` (JSON) or `error`. `attempts` counts the workers that claimed it and
    did not hand it back after a turn (`pass_job`): the one holding it, and those that died."""

    id: str
    kind: str
    request: dict[str, Any]
    status: str
    done: int
    total: int
    result: dict[str, Any] | None
    error: str | None
    attempts: int
    worker: str | None


JOB_STATUSES = ("queued", "running", "done", "failed", "cancelled")


@dataclass(frozen=True)
class GameRecord:
    """A stored game: its set-up and its moves as `(seat, notation)`, in order."""

    id: str
    setup: dict[str, Any]
    moves: tuple[tuple[int, str], ...]
    status: str

    @property
    def plies(self) -> int:
        return len(self.moves)


class Db(ABC):
    """One connection inside one transaction, with `?` placeholders whatever the database."""

    @abstractmethod
    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """Run one statement; the cursor (`fetchone`, `fetchall`, `rowcount`)."""

    @abstractmethod
    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement once per row."""


class GameStore(ABC):
    """The games, whichever database holds them. Each call runs in a transaction of its own on a
    connection of its own, so any thread may call."""

    kind: str
    """`sqlite` or `postgresql` (a label of the metrics)."""

    integrity_errors: tuple[type[BaseException], ...] = (sqlite3.IntegrityError,)
    """What the database raises for a duplicate key."""

    skip_locked: str = ""
    """What a claim's `SELECT` adds so that two workers never wait on, nor take, one job: nothing on
    SQLite, whose write transactions run one at a time; `FOR UPDATE SKIP LOCKED` on PostgreSQL."""

    # -- what each database does its own way ------------------------------------------------------

    @abstractmethod
    def transaction(
        self, write: bool = True, timeout: float | None = None
    ) -> contextlib.AbstractContextManager[Db]:
        """A transaction, committed when the block ends and rolled back if it raises; the
        database's operational errors come out as `StorageUnavailableError`. A write transaction
        takes the write lock at once on SQLite (`BEGIN IMMEDIATE`)."""

    @abstractmethod
    def _serialize(self, db: Db, key: str) -> None:
        """Make the transactions that name `key` run one at a time until this one ends."""

    def lock_game(self, game_id: str, timeout_s: float) -> Any:
        """Wait at most `timeout_s` for the lock on moves of `game_id` across every process of the
        store (`GameLockTimeoutError` then) and answer its handle for `unlock_game`. Only the
        PostgreSQL store has one (an advisory lock, gone with its connection if the process
        dies); SQLite's replicas are the threads of one process, which lock in memory."""
        raise NotImplementedError

    def unlock_game(self, handle: Any) -> None:
        """Let go of a lock `lock_game` answered."""
        raise NotImplementedError

    @abstractmethod
    def size(self) -> int:
        """Bytes the store takes."""

    def close(self) -> None:  # noqa: B027 (a store without connections to close does nothing)
        """Let go of the store's connections."""

    def pool_stats(self) -> dict[str, int]:
        """Connections of the store's pool (`size`, `idle`, `waiting`); empty without a pool."""
        return {}

    # -- the schema -----------------------------------------------------------------------------

    def _migrate(self, db: Db, version: int, where: str) -> None:
        """Bring a store at schema `version` (0: new) to `SCHEMA_VERSION`."""
        if version not in (0, *MIGRATIONS, SCHEMA_VERSION):
            raise RuntimeError(f"{where}: game store schema {version}, this Tấn reads {SCHEMA_VERSION}")
        if version:
            for step in range(version, SCHEMA_VERSION):
                for statement in MIGRATIONS[step]:
                    db.execute(statement)
        for statement in SCHEMA:
            db.execute(statement)

    # -- games ----------------------------------------------------------------------------------

    def probe(self, timeout: float = 2.0) -> None:
        """Read and write the store once (for `/readyz`): raises `StorageUnavailableError` when
        games could not be stored now."""
        with self.transaction(timeout=timeout) as db:
            db.execute("SELECT count(*) FROM games").fetchone()
            db.execute(
                "INSERT INTO probe (id, at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET at = excluded.at",
                (time.time(),),
            )

    def create(
        self,
        game_id: str,
        setup: dict[str, Any],
        moves: Sequence[tuple[int, str]],
        status: str,
        client: str | None = None,
        max_playing: int | None = None,
    ) -> None:
        """Store a new game with the moves its engine seats played at once; `client` (a hash of
        its address) may have at most `max_playing` games being played, this one included
        (`TooManyGamesError` beyond)."""
        now = time.time()
        with self.transaction() as db:
            if client is not None and max_playing is not None and status == "playing":
                self._serialize(db, client)
                if self._playing(db, client) >= max_playing:
                    raise TooManyGamesError(client)
            db.execute(
                "INSERT INTO games (id, setup, plies, status, created_at, updated_at, client) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, json.dumps(setup), len(moves), status, now, now, client),
            )
            if moves:
                db.executemany(
                    "INSERT INTO moves (game_id, ply, seat, move) VALUES (?, ?, ?, ?)",
                    [(game_id, ply, seat, move) for ply, (seat, move) in enumerate(moves)],
                )

    @staticmethod
    def _playing(db: Db, client: str) -> int:
        row = db.execute(
            "SELECT count(*) FROM games WHERE client = ? AND status = 'playing'", (client,)
        ).fetchone()
        return int(row[0])

    def playing(self, client: str) -> int:
        """How many games `client` has that are still being played."""
        with self.transaction(write=False) as db:
            return self._playing(db, client)

    def expire(self, finished_before: float, idle_before: float) -> int:
        """Delete the games that ended before `finished_before` and those still being played whose
        last move is older than `idle_before` (abandoned); returns how many went."""
        old = "(status != 'playing' AND updated_at < ?) OR (status = 'playing' AND updated_at < ?)"
        with self.transaction() as db:
            for table in ("moves", "reviews"):
                db.execute(
                    f"DELETE FROM {table} WHERE game_id IN (SELECT id FROM games WHERE {old})",
                    (finished_before, idle_before),
                )
            gone = db.execute(f"DELETE FROM games WHERE {old}", (finished_before, idle_before)).rowcount
        return int(gone)

    def counts(self) -> dict[str, int]:
        """How many games are stored, by status (`playing`, `over`)."""
        with self.transaction(write=False) as db:
            rows = db.execute("SELECT status, count(*) FROM games GROUP BY status").fetchall()
        return {"playing": 0, "over": 0} | {str(status): int(count) for status, count in rows}

    def load(self, game_id: str) -> GameRecord | None:
        """The stored game, or None."""
        with self.transaction(write=False) as db:
            row = db.execute("SELECT setup, plies, status FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                return None
            moves = db.execute(
                "SELECT seat, move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
            ).fetchall()
        setup, plies, status = row
        if len(moves) != plies:
            raise RuntimeError(f"game {game_id}: {plies} plies recorded but {len(moves)} moves stored")
        return GameRecord(game_id, json.loads(setup), tuple((int(s), str(m)) for s, m in moves), status)

    def plies(self, game_id: str) -> int | None:
        """How many moves the stored game has (None: no such game): a cheap freshness check."""
        with self.transaction(write=False) as db:
            row = db.execute("SELECT plies FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if row is None else int(row[0])

    def append(self, game_id: str, after: int, moves: Sequence[tuple[int, str]], status: str) -> None:
        """Add `moves` after ply `after`, only if the game still has exactly `after` plies."""
        try:
            with self.transaction() as db:
                moved = db.execute(
                    "UPDATE games SET plies = ?, status = ?, updated_at = ? WHERE id = ? AND plies = ?",
                    (after + len(moves), status, time.time(), game_id, after),
                ).rowcount
                if moved != 1:
                    raise StaleGameError(game_id)
                db.executemany(
                    "INSERT INTO moves (game_id, ply, seat, move) VALUES (?, ?, ?, ?)",
                    [(game_id, after + i, seat, move) for i, (seat, move) in enumerate(moves)],
                )
        except self.integrity_errors as error:  # a (game, ply) another writer stored first
            raise StaleGameError(game_id) from error

    # -- reviews kept with their games -------------------------------------------------------------

    def keep_review(self, game_id: str, key: str, review: dict[str, Any]) -> bool:
        """Keep a finished review with its game under `key` (replacing one kept before); False when
        the game is gone."""
        with self.transaction() as db:
            if db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
                return False
            db.execute(
                "INSERT INTO reviews (game_id, key, review) VALUES (?, ?, ?) "
                "ON CONFLICT (game_id, key) DO UPDATE SET review = excluded.review",
                (game_id, key, json.dumps(review)),
            )
        return True

    def review(self, game_id: str, key: str) -> dict[str, Any] | None:
        """The review kept with the game under `key`, or None."""
        with self.transaction(write=False) as db:
            row = db.execute(
                "SELECT review FROM reviews WHERE game_id = ? AND key = ?", (game_id, key)
            ).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    # -- jobs -----------------------------------------------------------------------------------

    def submit_job(
        self,
        job_id: str,
        kind: str,
        request: dict[str, Any],
        total: int,
        client: str | None = None,
        max_jobs: int | None = None,
        max_bytes: int | None = None,
    ) -> None:
        """Queue a job of `total` steps; `client` may have at most `max_jobs` jobs queued or running,
        this one included, and its stored jobs (whatever their status, until they expire: requests
        and results) at most `max_bytes` bytes, this request included (`TooManyJobsError` beyond)."""
        now = time.time()
        text = json.dumps(request)  # ASCII (json's default): its length is its size in bytes
        with self.transaction() as db:
            if client is not None and (max_jobs is not None or max_bytes is not None):
                self._serialize(db, client)
                waiting, stored = db.execute(
                    "SELECT count(CASE WHEN status IN ('queued', 'running') THEN 1 END), "
                    "coalesce(sum(length(request) + coalesce(length(result), 0)), 0) "
                    "FROM jobs WHERE client = ?",
                    (client,),
                ).fetchone()
                if max_jobs is not None and int(waiting) >= max_jobs:
                    raise TooManyJobsError(client, int(waiting))
                if max_bytes is not None and int(stored) + len(text) > max_bytes:
                    raise TooManyJobsError(client, int(stored), bytes=True)
            db.execute(
                "INSERT INTO jobs (id, kind, request, status, total, created_at, updated_at, client) "
                "VALUES (?, ?, ?, 'queued', ?, ?, ?, ?)",
                (job_id, kind, text, total, now, now, client),
            )

    def job_expiry(self, client: str) -> float | None:
        """When `client`'s job that ended first was last touched (it expires `job_ttl_s` after), or
        None when none of its jobs has ended: the Retry-After of a client over its bytes."""
        with self.transaction(write=False) as db:
            row = db.execute(
                "SELECT min(updated_at) FROM jobs "
                "WHERE client = ? AND status IN ('done', 'failed', 'cancelled')",
                (client,),
            ).fetchone()
        return None if row is None or row[0] is None else float(row[0])

    _JOB_COLUMNS = "id, kind, request, status, done, total, result, error, attempts, worker"

    @staticmethod
    def _job(row: Sequence[Any]) -> Job:
        job_id, kind, request, status, done, total, result, error, attempts, worker = row
        return Job(
            str(job_id),
            str(kind),
            json.loads(request),
            str(status),
            int(done),
            int(total),
            None if result is None else json.loads(result),
            error,
            int(attempts),
            worker,
        )

    def job(self, job_id: str) -> Job | None:
        """The stored job, or None."""
        with self.transaction(write=False) as db:
            row = db.execute(f"SELECT {self._JOB_COLUMNS} FROM jobs WHERE id = ?", (job_id,)).fetchone()
        return None if row is None else self._job(row)

    _CLAIMABLE = "(status = 'queued' OR (status = 'running' AND lease_until < ?))"
    """A job a worker may take: queued, or running under a lease run out (its worker died)."""

    _FAIR = (
        "SELECT id FROM jobs AS j "
        "WHERE (j.status = 'queued' OR (j.status = 'running' AND j.lease_until < ?)) "
        "ORDER BY (SELECT count(*) FROM jobs AS r WHERE coalesce(r.client, '') = coalesce(j.client, '') "
        "AND r.status = 'running' "
        "AND r.lease_until >= ?), "
        "(SELECT max(t.updated_at) FROM jobs AS t WHERE coalesce(t.client, '') = coalesce(j.client, '') "
        "AND t.status IN ('queued', 'running')), "
        "j.created_at LIMIT 1"
    )
    """The job to take next, fairly between clients: first the clients with the fewest jobs held by
    a worker now, then the client whose jobs were touched longest ago (a job put back after its
    turn is touched then: round robin), then the client's oldest job. The jobs of no client (none
    the service queues) count as one client's. Parameters: now, now."""

    def claim_job(self, worker: str, lease_s: float, max_attempts: int = 3) -> Job | None:
        """Lease the next job nobody holds, in the fair order of `_FAIR`, to `worker` for `lease_s`
        seconds; None when there is none. A job whose workers died `max_attempts` times fails
        instead of being taken again."""
        now = time.time()
        with self.transaction(write=False) as db:  # most polls find nothing: no write lock for them
            waiting = db.execute(f"SELECT 1 FROM jobs WHERE {self._CLAIMABLE} LIMIT 1", (now,)).fetchone()
        if waiting is None:
            return None
        with self.transaction() as db:
            return self._claim(db, worker, lease_s, max_attempts, now)

    def _claim(self, db: Db, worker: str, lease_s: float, max_attempts: int, now: float) -> Job | None:
        db.execute(
            "UPDATE jobs SET status = 'failed', error = ?, updated_at = ? "
            "WHERE status = 'running' AND lease_until < ? AND attempts >= ?",
            (f"{max_attempts} workers took this job and none finished it", now, now, max_attempts),
        )
        row = db.execute(
            f"UPDATE jobs SET status = 'running', worker = ?, lease_until = ?, attempts = attempts + 1, "
            f"updated_at = ? WHERE id = ({self._FAIR}{self.skip_locked}) RETURNING {self._JOB_COLUMNS}",
            (worker, now + lease_s, now, now, now),
        ).fetchone()
        return None if row is None else self._job(row)

    def pass_job(self, job_id: str, worker: str, lease_s: float, max_attempts: int = 3) -> Job | None:
        """End `worker`'s turn on its job if another client's job waits: the job goes back to the
        queue (its steps kept; the turn does not count as an attempt) and the worker takes the next
        job in the fair order — maybe this one again. Answers the job the worker holds now (this
        one when nobody else waits); `LeaseLostError` when it no longer held this one."""
        now = time.time()
        with self.transaction() as db:
            other = db.execute(
                f"SELECT 1 FROM jobs WHERE {self._CLAIMABLE} AND id != ? AND coalesce(client, '') != "
                "(SELECT coalesce(client, '') FROM jobs WHERE id = ?) LIMIT 1",
                (now, job_id, job_id),
            ).fetchone()
            if other is None:
                self._hold_job(db, job_id, worker, lease_s)
                row = db.execute(f"SELECT {self._JOB_COLUMNS} FROM jobs WHERE id = ?", (job_id,)).fetchone()
                return self._job(row)
            back = "status = 'queued', worker = NULL, attempts = attempts - 1, "
            self._hold_job(db, job_id, worker, lease_s, back)
            db.execute("UPDATE jobs SET lease_until = NULL WHERE id = ?", (job_id,))
            return self._claim(db, worker, lease_s, max_attempts, now)

    def job_steps(self, job_id: str) -> dict[int, dict[str, Any]]:
        """The steps of a job stored so far, by number."""
        with self.transaction(write=False) as db:
            rows = db.execute("SELECT step, answer FROM job_steps WHERE job_id = ?", (job_id,)).fetchall()
        return {int(step): json.loads(answer) for step, answer in rows}

    def job_step(self, job_id: str, worker: str, step: int, answer: dict[str, Any], lease_s: float) -> None:
        """Store one step's answer and renew the lease, only while `worker` holds it
        (`LeaseLostError` otherwise: nothing is stored). Tried again after a connection lost as it
        committed, a step already stored is only the lease renewed."""
        with self.transaction() as db:
            stored = db.execute(
                "SELECT 1 FROM job_steps WHERE job_id = ? AND step = ?", (job_id, step)
            ).fetchone()
            self._hold_job(db, job_id, worker, lease_s, "" if stored else "done = done + 1, ")
            if stored is None:
                db.execute(
                    "INSERT INTO job_steps (job_id, step, worker, answer) VALUES (?, ?, ?, ?)",
                    (job_id, step, worker, json.dumps(answer)),
                )

    def cancel_job(self, job_id: str) -> Job | None:
        """Cancel the job if it is queued or running (its worker's next write finds it gone and
        stores nothing more; the per-client count frees at once); one that ended is left as it is.
        The job as it stands after, or None for no such job."""
        now = time.time()
        with self.transaction() as db:
            db.execute(
                "UPDATE jobs SET status = 'cancelled', lease_until = NULL, updated_at = ? "
                "WHERE id = ? AND status IN ('queued', 'running')",
                (now, job_id),
            )
            row = db.execute(f"SELECT {self._JOB_COLUMNS} FROM jobs WHERE id = ?", (job_id,)).fetchone()
        return None if row is None else self._job(row)

    def renew_job(self, job_id: str, worker: str, lease_s: float) -> None:
        """Keep `worker`'s lease for another `lease_s` seconds (`LeaseLostError` if it is gone)."""
        with self.transaction() as db:
            self._hold_job(db, job_id, worker, lease_s)

    @staticmethod
    def _hold_job(db: Any, job_id: str, worker: str, lease_s: float, also: str = "") -> None:
        """Renew `worker`'s lease on its running job for `lease_s` seconds (with the `also`
        assignments), or raise `LeaseLostError` when it no longer holds it: the one check every
        write of a worker goes through."""
        now = time.time()
        held = db.execute(
            f"UPDATE jobs SET {also}lease_until = ?, updated_at = ? "
            "WHERE id = ? AND worker = ? AND status = 'running'",
            (now + lease_s, now, job_id, worker),
        ).rowcount
        if held != 1:
            raise LeaseLostError(job_id)

    def finish_job(
        self, job_id: str, worker: str, result: dict[str, Any] | None, error: str | None = None
    ) -> None:
        """End `worker`'s job with its result (or, with `error`, as failed), only while it holds the
        lease (`LeaseLostError` otherwise)."""
        now = time.time()
        with self.transaction() as db:
            held = db.execute(
                "UPDATE jobs SET status = ?, result = ?, error = ?, lease_until = NULL, updated_at = ? "
                "WHERE id = ? AND worker = ? AND status = 'running'",
                (
                    "failed" if error is not None else "done",
                    None if result is None else json.dumps(result),
                    error,
                    now,
                    job_id,
                    worker,
                ),
            ).rowcount
        if held != 1:
            raise LeaseLostError(job_id)

    # -- leases -------------------------------------------------------------------------------

    def take_lease(self, key: str, holder: str, cap: int, lease_s: float) -> bool:
        """Take one of `key`'s `cap` places for `holder` until `lease_s` from now, if one is free
        (the leases run out count as free); False when all are held."""
        now = time.time()
        with self.transaction() as db:
            self._serialize(db, f"lease:{key}")
            db.execute("DELETE FROM leases WHERE key = ? AND until < ?", (key, now))
            held = int(db.execute("SELECT count(*) FROM leases WHERE key = ?", (key,)).fetchone()[0])
            if held >= cap:
                return False
            db.execute(
                "INSERT INTO leases (key, holder, until) VALUES (?, ?, ?)", (key, holder, now + lease_s)
            )
        return True

    def drop_lease(self, key: str, holder: str) -> None:
        """Give `holder`'s place of `key` back."""
        with self.transaction() as db:
            db.execute("DELETE FROM leases WHERE key = ? AND holder = ?", (key, holder))

    def leases(self, key: str) -> int:
        """Places of `key` held now."""
        with self.transaction(write=False) as db:
            row = db.execute("SELECT count(*) FROM leases WHERE key = ? AND until >= ?", (key, time.time()))
            return int(row.fetchone()[0])

    def expire_leases(self) -> int:
        """Delete the leases that ran out (a replica that died held them)."""
        with self.transaction() as db:
            return int(db.execute("DELETE FROM leases WHERE until < ?", (time.time(),)).rowcount)

    def job_counts(self) -> dict[str, int]:
        """How many jobs are stored, by status."""
        with self.transaction(write=False) as db:
            rows = db.execute("SELECT status, count(*) FROM jobs GROUP BY status").fetchall()
        return dict.fromkeys(JOB_STATUSES, 0) | {str(status): int(count) for status, count in rows}

    def expire_jobs(self, ended_before: float) -> int:
        """Delete the jobs that ended (done, failed or cancelled) before `ended_before`; how many went."""
        with self.transaction() as db:
            old = "status IN ('done', 'failed', 'cancelled') AND updated_at < ?"
            db.execute(
                f"DELETE FROM job_steps WHERE job_id IN (SELECT id FROM jobs WHERE {old})", (ended_before,)
            )
            gone = db.execute(f"DELETE FROM jobs WHERE {old}", (ended_before,)).rowcount
        return int(gone)


    # -- games followed at a table ---------------------------------------------------------------

    def keep_followed(
        self,
        followed_id: str,
        game: dict[str, Any] | str,
        client: str | None = None,
        max_games: int | None = None,
        max_bytes: int | None = None,
    ) -> None:
        """Store (or replace) the followed game under its secret id, as `client`'s (a hash of its
        address): with it, `client` may keep at most `max_games` followed games taking at most
        `max_bytes` bytes of JSON in all, this one counted as it would be stored and the one it
        replaces not (`TooManyFollowedError` beyond, and nothing is stored). `game` may be given as
        its JSON text, stored as it is."""
        text = game if isinstance(game, str) else json.dumps(game)
        size = len(text.encode())
        with self.transaction() as db:
            if client is not None:
                self._serialize(db, f"followed:{client}")
                count, held = db.execute(
                    "SELECT count(*), coalesce(sum(bytes), 0) FROM followed WHERE client = ? AND id != ?",
                    (client, followed_id),
                ).fetchone()
                if max_games is not None and int(count) >= max_games:
                    raise TooManyFollowedError("games", int(count), max_games)
                if max_bytes is not None and int(held) + size > max_bytes:
                    raise TooManyFollowedError("bytes", int(held) + size, max_bytes)
            db.execute(
                "INSERT INTO followed (id, game, updated_at, client, bytes) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (id) DO UPDATE SET game = excluded.game, updated_at = excluded.updated_at, "
                "client = excluded.client, bytes = excluded.bytes",
                (followed_id, text, time.time(), client, size),
            )

    def followed(self, followed_id: str) -> dict[str, Any] | None:
        """The followed game stored under the id, or None."""
        text = self.followed_text(followed_id)
        return None if text is None else dict(json.loads(text))

    def followed_text(self, followed_id: str) -> str | None:
        """The followed game stored under the id, as its JSON text, or None."""
        with self.transaction(write=False) as db:
            row = db.execute("SELECT game FROM followed WHERE id = ?", (followed_id,)).fetchone()
        return None if row is None else str(row[0])

    def expire_followed(self, idle_before: float) -> int:
        """Delete the followed games last stored before `idle_before`; how many went."""
        with self.transaction() as db:
            return int(db.execute("DELETE FROM followed WHERE updated_at < ?", (idle_before,)).rowcount)

# -- SQLite -------------------------------------------------------------------------------------


def _private_file(path: Path) -> None:
    """Make sure the database file exists and only its owner can read it (0600): it holds every
    deck in plain text. A missing folder is created 0700; an existing file (or its `-wal`, `-shm`)
    open to others is narrowed. SQLite creates its `-wal` and `-shm` files with the database
    file's permissions."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    for file in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        with contextlib.suppress(FileNotFoundError):
            mode = stat.S_IMODE(file.stat().st_mode)
            if mode & 0o077:
                log.warning("%s was open to others (%o): narrowing it to %o", file, mode, mode & 0o700)
                file.chmod(mode & 0o700)


class _SqliteDb(Db):
    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self.connection.execute(sql, params)

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self.connection.executemany(sql, rows)


class SqliteStore(GameStore):
    """Games in one SQLite file, in WAL mode. Each call opens its own connection.

    A file that cannot be opened at start (a missing or read-only disk, a folder that is a file)
    does not stop the service: the store is unavailable (`StorageUnavailableError`, so `/readyz`
    answers 503) and opening it is tried again on every use, so it comes up once the disk does.
    A file of a schema this Tấn cannot read is a `RuntimeError` at once. On a read-only disk or
    file, reads are served from the file as immutable (`transaction(write=False)`).

    Once open, the store keeps one idle connection (`_keeper`) until it is closed. SQLite deletes
    the write-ahead log and its shared-memory index (`-wal`, `-shm`) when the last connection to
    the file closes, and the next one must create them again: on a full disk it cannot, and every
    read failed with the writes ("disk I/O error", issue 64). Kept open, they stay, so a full disk
    refuses writes only. The keeper holds no transaction, so it stops no checkpoint."""

    kind = "sqlite"

    def __init__(self, path: Path | str, timeout: float = 10.0) -> None:
        self.path = Path(path)
        self.timeout = timeout
        self._opened = False
        self._opening = threading.Lock()
        self._keeper: sqlite3.Connection | None = None
        try:
            self._open()
        except StorageUnavailableError as error:
            log.warning("the game store cannot be opened now, it is tried again on every use: %s", error)

    def _open(self) -> None:
        """Create the file (0600, in a 0700 folder) and its schema, once; raises
        `StorageUnavailableError` while it cannot be done (tried again at the next call)."""
        if self._opened:
            return
        with self._opening:
            if self._opened:
                return
            try:
                _private_file(self.path)
            except OSError as error:
                raise StorageUnavailableError(f"{self.path}: {error}") from error
            with self._connect() as connection:
                connection.execute("PRAGMA journal_mode=WAL")
            with self._transaction(True, None) as db:
                self._migrate(db, self._version(db), str(self.path))
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            try:
                self._keeper = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
                self._keeper.execute("SELECT count(*) FROM probe").fetchone()  # maps the log's index
            except sqlite3.OperationalError as error:
                raise StorageUnavailableError(f"{self.path}: {error}") from error
            self._opened = True

    def close(self) -> None:
        """Close the idle connection: the last one to go folds the log into the file."""
        with self._opening:
            keeper, self._keeper = self._keeper, None
        if keeper is not None:
            keeper.close()

    def _version(self, db: Db) -> int:
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        if version not in (0, *MIGRATIONS, SCHEMA_VERSION):
            raise RuntimeError(f"{self.path}: game store schema {version}, this Tấn reads {SCHEMA_VERSION}")
        return version

    @contextmanager
    def _connect(self, timeout: float | None = None, uri: str | None = None) -> Iterator[sqlite3.Connection]:
        try:
            waited = timeout or self.timeout
            if uri is None:
                connection = sqlite3.connect(self.path, timeout=waited, isolation_level=None)
            else:
                connection = sqlite3.connect(uri, timeout=waited, isolation_level=None, uri=True)
            try:
                connection.execute("PRAGMA synchronous=NORMAL")
                connection.execute("PRAGMA foreign_keys=ON")
                yield connection
            finally:
                connection.close()
        except sqlite3.OperationalError as error:
            raise StorageUnavailableError(f"{self.path}: {error}") from error

    @contextmanager
    def transaction(self, write: bool = True, timeout: float | None = None) -> Iterator[Db]:
        """A transaction on the store, opened now if it was not yet. A read where nobody can write
        the file: SQLite cannot open a WAL database there without creating its `-shm` file, so
        the file is read as immutable — true of it while nobody can write it, and exact while no
        write-ahead log holds what the file lacks."""
        if not write and self._unwritable():
            immutable = self.path.resolve().as_uri() + "?mode=ro&immutable=1"
            with self._connect(timeout, uri=immutable) as connection:
                frozen = _SqliteDb(connection)
                if self._version(frozen) != SCHEMA_VERSION:
                    older = f"{self.path}: a store of an older schema on a read-only disk"
                    raise StorageUnavailableError(older)
                connection.execute("BEGIN")
                try:
                    yield frozen
                finally:
                    connection.execute("ROLLBACK")
            return
        self._open()
        with self._transaction(write, timeout) as db:
            yield db

    @contextmanager
    def _transaction(self, write: bool, timeout: float | None) -> Iterator[Db]:
        with self._connect(timeout) as connection:
            connection.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield _SqliteDb(connection)
            except BaseException:
                connection.execute("ROLLBACK")
                raise
            connection.execute("COMMIT")

    def _unwritable(self) -> bool:
        """Nobody can write the file now — it lies on a read-only file system, or no write
        permission bit is set — and there is no write-ahead log with anything in it."""
        wal = self.path.with_name(self.path.name + "-wal")
        try:
            if wal.exists() and wal.stat().st_size > 0:
                return False
            read_only = bool(os.statvfs(self.path).f_flag & os.ST_RDONLY)
            mode = self.path.stat().st_mode
        except OSError:  # no file, or no folder, to read
            return False
        return read_only or not mode & 0o222

    def _serialize(self, db: Db, key: str) -> None:
        """`BEGIN IMMEDIATE` already holds the only write lock."""

    def size(self) -> int:
        """Bytes the store takes on disk: the file and its write-ahead log."""
        total = 0
        for file in (self.path, self.path.with_name(self.path.name + "-wal")):
            with contextlib.suppress(OSError):  # no file, or no folder (the store is unavailable)
                total += file.stat().st_size
        return total


# -- PostgreSQL ---------------------------------------------------------------------------------


class _PostgresDb(Db):
    def __init__(self, connection: Any) -> None:
        self.connection = connection

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self.connection.execute(sql.replace("?", "%s"), params)

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        with self.connection.cursor() as cursor:
            cursor.executemany(sql.replace("?", "%s"), rows)


_MIGRATION_LOCK = 0x7A4E_0001
"""The advisory lock two replicas starting at once take around the schema's migration."""


class PostgresStore(GameStore):
    """Games in a PostgreSQL database, through a pool of connections (`psycopg_pool`). The schema
    version lives in the table `tan_schema`; replicas starting together migrate one at a time."""

    kind = "postgresql"
    skip_locked = " FOR UPDATE SKIP LOCKED"

    def __init__(self, url: str, max_connections: int = 10, timeout: float = 10.0) -> None:
        import psycopg
        import psycopg_pool

        self._errors: tuple[type[BaseException], ...] = (psycopg.OperationalError, psycopg_pool.PoolTimeout)
        self.integrity_errors = (psycopg.IntegrityError,)
        self._lock_timeout = psycopg.errors.LockNotAvailable
        self.url = url
        self.timeout = timeout
        self.where = _redacted(url)
        self.pool = psycopg_pool.ConnectionPool(
            url,
            min_size=1,
            max_size=max_connections,
            timeout=timeout,
            reconnect_timeout=timeout,  # a failed attempt gives up soon: the next request tries anew at once
            open=False,
            name="tan",
            kwargs={"connect_timeout": max(1, round(timeout))},
            check=psycopg_pool.ConnectionPool.check_connection,
        )
        # The move locks hold a connection each for a whole move: a pool of their own, so that moves
        # waiting for their engines never take the connections their own writes need.
        self.lock_pool = psycopg_pool.ConnectionPool(
            url,
            min_size=0,
            max_size=max_connections,
            timeout=timeout,
            reconnect_timeout=timeout,
            open=False,
            name="tan-locks",
            kwargs={"connect_timeout": max(1, round(timeout))},
            check=psycopg_pool.ConnectionPool.check_connection,
        )
        self.pool.open(wait=False)
        self.lock_pool.open(wait=False)
        self._started = False
        self._starting = threading.Lock()
        try:
            self._start()
        except StorageUnavailableError as error:
            # Not a reason to stop: /readyz answers 503 and the schema is checked at the next use.
            log.warning("the game store cannot be reached now, it is tried again on every use: %s", error)
        except BaseException:
            self.close()
            raise

    def _start(self) -> None:
        """Check (and migrate) the schema, once; `StorageUnavailableError` while the database cannot
        be reached (tried again at the next use)."""
        if self._started:
            return
        with self._starting:
            if self._started:
                return
            self._migrated()
            self._started = True

    def _migrated(self) -> None:
        with self._transaction() as db:
            db.execute("SELECT pg_advisory_xact_lock(?)", (_MIGRATION_LOCK,))
            db.execute("CREATE TABLE IF NOT EXISTS tan_schema (version INTEGER NOT NULL)")
            row = db.execute("SELECT version FROM tan_schema").fetchone()
            exists = db.execute("SELECT to_regclass('games') IS NOT NULL").fetchone()[0]
            version = int(row[0]) if row is not None else (1 if exists else 0)
            self._migrate(db, version, self.where)
            db.execute("DELETE FROM tan_schema")
            db.execute("INSERT INTO tan_schema (version) VALUES (?)", (SCHEMA_VERSION,))

    @contextmanager
    def transaction(self, write: bool = True, timeout: float | None = None) -> Iterator[Db]:
        """A read (`write` false) sees one snapshot from its first statement to its last: under
        PostgreSQL's default, each statement sees what was committed before it, and a game read as
        its row, then its moves, could lose its moves to a sweep between the two."""
        self._start()
        with self._transaction(timeout) as db:
            if not write:
                db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            yield db

    @contextmanager
    def _transaction(self, timeout: float | None = None) -> Iterator[Db]:
        try:
            waited = timeout or self.timeout
            with self.pool.connection(timeout=waited) as connection, connection.transaction():
                yield _PostgresDb(connection)
        except self._errors as error:
            raise StorageUnavailableError(f"{self.where}: {error}") from error

    def _serialize(self, db: Db, key: str) -> None:
        db.execute("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", (f"serialize:{key}",))

    def size(self) -> int:
        """Bytes the store's tables take, their indexes included."""
        with self.transaction(write=False) as db:
            row = db.execute(
                "SELECT coalesce(sum(pg_total_relation_size(to_regclass(name))), 0) FROM "
                "(VALUES ('games'), ('moves'), ('probe'), ('jobs'), ('job_steps'), ('leases'), ('followed')) "
                "AS tables (name)"
            ).fetchone()
        return int(row[0])

    def lock_game(self, game_id: str, timeout_s: float) -> Any:
        key = f"move:{game_id}"
        begun = time.monotonic()
        try:
            connection = self.lock_pool.getconn(timeout_s)
        except psycopg_pool_timeout() as error:
            raise GameLockTimeoutError(game_id) from error
        except self._errors as error:
            raise StorageUnavailableError(f"{self.where}: {error}") from error
        try:
            left_s = max(0.001, timeout_s - (time.monotonic() - begun))
            wait = f"{max(1, round(left_s * 1000))}ms"
            connection.execute("SELECT set_config('lock_timeout', %s, false)", (wait,))
            connection.execute("SELECT pg_advisory_lock(hashtextextended(%s, 0))", (key,))
            connection.execute("SELECT set_config('lock_timeout', '0', false)")
            connection.commit()
        except self._lock_timeout as error:
            connection.rollback()
            connection.execute("SELECT set_config('lock_timeout', '0', false)")
            connection.commit()
            self.lock_pool.putconn(connection)
            raise GameLockTimeoutError(game_id) from error
        except self._errors as error:
            self.lock_pool.putconn(connection)
            raise StorageUnavailableError(f"{self.where}: {error}") from error
        except BaseException:
            self.lock_pool.putconn(connection)
            raise
        return (connection, key)

    def unlock_game(self, handle: Any) -> None:
        connection, key = handle
        try:
            connection.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", (key,))
            connection.commit()
        except self._errors:
            log.warning("the move lock of %s went with its connection", key)
        finally:
            self.lock_pool.putconn(connection)

    def pool_stats(self) -> dict[str, int]:
        stats = self.pool.get_stats()
        return {
            "size": int(stats.get("pool_size", 0)),
            "idle": int(stats.get("pool_available", 0)),
            "waiting": int(stats.get("requests_waiting", 0)),
        }

    def close(self) -> None:
        self.pool.close()
        self.lock_pool.close()


def psycopg_pool_timeout() -> type[BaseException]:
    """psycopg_pool's timeout (imported only where PostgreSQL is used)."""
    import psycopg_pool

    return psycopg_pool.PoolTimeout


def _redacted(url: str) -> str:
    """The URL without its password, for messages and logs."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
    return urlunsplit(parts._replace(netloc=netloc))
