"""Games in SQLite (WAL mode): the set-up of each game and its move list.

A game is stored as what is needed to rebuild it exactly: its set-up (rules
with every option, seats, the ordered deck, the first attacker, the seed of
its engines, the hashes of its seat tokens) and the moves played, one row per
ply. Loading deals the same deck and replays the moves through the reference
rules, so no pickled state is ever read back.

Writes are optimistic: `append` runs in a `BEGIN IMMEDIATE` transaction and
applies only if the game's stored ply count is still the one the caller read,
so two racing writers can never both add a move at the same ply.

Storage stays bounded: `expire` deletes finished games and games nobody has
moved in for a while (the service sweeps periodically), and `create` refuses a
client more games still being played than its cap. A client is kept only as a
hash of its address.
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
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

__all__ = ["GameRecord", "GameStore", "StaleGameError", "StorageUnavailableError", "TooManyGamesError"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id         TEXT PRIMARY KEY,
    setup      TEXT NOT NULL,
    plies      INTEGER NOT NULL DEFAULT 0,
    status     TEXT NOT NULL,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    client     TEXT
);
CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL REFERENCES games(id),
    ply     INTEGER NOT NULL,
    seat    INTEGER NOT NULL,
    move    TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
CREATE TABLE IF NOT EXISTS probe (
    id INTEGER PRIMARY KEY,
    at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS games_by_age ON games (status, updated_at);
CREATE INDEX IF NOT EXISTS games_by_client ON games (client, status);
"""
# Schema 1 had no client column: a store of it gains one (its games belong to no client).
_MIGRATIONS = {1: "ALTER TABLE games ADD COLUMN client TEXT;"}
_SCHEMA_VERSION = 2

log = logging.getLogger("service")
T = TypeVar("T")


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


class StorageUnavailableError(Exception):
    """SQLite could not read or write the file (an operational error: a full or read-only disk, a
    file locked past the timeout, missing or unreadable); the service answers 503
    `storage_unavailable`, and nothing was stored."""


class TooManyGamesError(Exception):
    """The client already has as many games being played as it may."""


class StaleGameError(Exception):
    """The game changed since it was read: another writer added a move first."""


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


class GameStore:
    """Games in one SQLite file. Each call opens its own connection, so any thread may call."""

    def __init__(self, path: Path | str) -> None:
        """A store on the file at `path`, created (with its folder and schema) if it can be now.

        A file that cannot be opened now (a missing or read-only disk, a folder that is a file)
        does not stop the service: the store is unavailable (`StorageUnavailableError`, so
        `/readyz` answers 503) and opening it is tried again on every use, so it comes up once the
        disk does. A file of a schema this Tấn cannot read is a `RuntimeError` at once."""
        self.path = Path(path)
        self._opened = False
        self._opening = threading.Lock()
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
            with self._connection() as db:
                db.execute("PRAGMA journal_mode=WAL")
                version = self._version(db)
                if version in _MIGRATIONS:
                    db.executescript(_MIGRATIONS[version])
                db.executescript(_SCHEMA)
                db.execute(f"PRAGMA user_version = {_SCHEMA_VERSION}")
            self._opened = True

    def _version(self, db: sqlite3.Connection) -> int:
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        if version not in (0, *_MIGRATIONS, _SCHEMA_VERSION):
            raise RuntimeError(f"{self.path}: game store schema {version}, this Tấn reads {_SCHEMA_VERSION}")
        return version

    @contextmanager
    def _connect(self, timeout: float = 10.0) -> Iterator[sqlite3.Connection]:
        """A connection for one call to a store that is open (opened now if it was not yet)."""
        self._open()
        with self._connection(timeout) as db:
            yield db

    @contextmanager
    def _connection(self, timeout: float = 10.0, uri: str | None = None) -> Iterator[sqlite3.Connection]:
        """A connection for one call; SQLite's operational errors come out as
        `StorageUnavailableError` (a transaction left open is rolled back as the connection closes)."""
        try:
            if uri is None:
                db = sqlite3.connect(self.path, timeout=timeout, isolation_level=None)
            else:
                db = sqlite3.connect(uri, timeout=timeout, isolation_level=None, uri=True)
            try:
                db.execute("PRAGMA synchronous=NORMAL")
                db.execute("PRAGMA foreign_keys=ON")
                yield db
            finally:
                db.close()
        except sqlite3.OperationalError as error:
            raise StorageUnavailableError(f"{self.path}: {error}") from error

    def _read(self, query: Callable[[sqlite3.Connection], T]) -> T:
        """Run a read-only `query`. On a read-only disk or file SQLite cannot open a WAL database
        without creating its `-shm` file, so there the file is read as immutable — true of it while
        nobody can write it, and exact while no write-ahead log holds what the file lacks."""
        try:
            with self._connect() as db:
                return query(db)
        except StorageUnavailableError:
            if not self._unwritable():
                raise
        with self._connection(uri=self.path.resolve().as_uri() + "?mode=ro&immutable=1") as db:
            if self._version(db) != _SCHEMA_VERSION:
                raise StorageUnavailableError(f"{self.path}: a store of an older schema on a read-only disk")
            return query(db)

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

    def probe(self, timeout: float = 2.0) -> None:
        """Read and write the file once (for `/readyz`): raises `StorageUnavailableError` when
        games could not be stored now."""
        with self._connect(timeout) as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                db.execute("SELECT count(*) FROM games").fetchone()
                db.execute("INSERT OR REPLACE INTO probe (id, at) VALUES (1, ?)", (time.time(),))
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

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
        with self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                if (
                    client is not None
                    and max_playing is not None
                    and status == "playing"
                    and self._playing(db, client) >= max_playing
                ):
                    raise TooManyGamesError(client)
                db.execute(
                    "INSERT INTO games (id, setup, plies, status, created_at, updated_at, client) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (game_id, json.dumps(setup), len(moves), status, now, now, client),
                )
                db.executemany(
                    "INSERT INTO moves (game_id, ply, seat, move) VALUES (?, ?, ?, ?)",
                    [(game_id, ply, seat, move) for ply, (seat, move) in enumerate(moves)],
                )
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    @staticmethod
    def _playing(db: sqlite3.Connection, client: str) -> int:
        row = db.execute(
            "SELECT count(*) FROM games WHERE client = ? AND status = 'playing'", (client,)
        ).fetchone()
        return int(row[0])

    def playing(self, client: str) -> int:
        """How many games `client` has that are still being played."""
        return self._read(lambda db: self._playing(db, client))

    def expire(self, finished_before: float, idle_before: float) -> int:
        """Delete the games that ended before `finished_before` and those still being played whose
        last move is older than `idle_before` (abandoned); returns how many went."""
        with self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                old = "(status != 'playing' AND updated_at < ?) OR (status = 'playing' AND updated_at < ?)"
                db.execute(
                    f"DELETE FROM moves WHERE game_id IN (SELECT id FROM games WHERE {old})",
                    (finished_before, idle_before),
                )
                gone = db.execute(f"DELETE FROM games WHERE {old}", (finished_before, idle_before)).rowcount
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        return int(gone)

    def counts(self) -> dict[str, int]:
        """How many games are stored, by status (`playing`, `over`)."""
        query = "SELECT status, count(*) FROM games GROUP BY status"
        rows = self._read(lambda db: db.execute(query).fetchall())
        return {"playing": 0, "over": 0} | {str(status): int(count) for status, count in rows}

    def size(self) -> int:
        """Bytes the store takes on disk: the file and its write-ahead log."""
        total = 0
        for file in (self.path, self.path.with_name(self.path.name + "-wal")):
            with contextlib.suppress(OSError):  # no file, or no folder (the store is unavailable)
                total += file.stat().st_size
        return total

    def load(self, game_id: str) -> GameRecord | None:
        """The stored game, or None."""

        def read(db: sqlite3.Connection) -> tuple[Any, list[Any]] | None:
            db.execute("BEGIN")
            try:
                row = db.execute("SELECT setup, plies, status FROM games WHERE id = ?", (game_id,)).fetchone()
                if row is None:
                    return None
                moves = db.execute(
                    "SELECT seat, move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
                ).fetchall()
            finally:
                db.execute("COMMIT")
            return row, moves

        found = self._read(read)
        if found is None:
            return None
        row, moves = found
        setup, plies, status = row
        if len(moves) != plies:
            raise RuntimeError(f"game {game_id}: {plies} plies recorded but {len(moves)} moves stored")
        return GameRecord(game_id, json.loads(setup), tuple((int(s), str(m)) for s, m in moves), status)

    def plies(self, game_id: str) -> int | None:
        """How many moves the stored game has (None: no such game): a cheap freshness check."""
        row = self._read(lambda db: db.execute("SELECT plies FROM games WHERE id = ?", (game_id,)).fetchone())
        return None if row is None else int(row[0])

    def append(self, game_id: str, after: int, moves: Sequence[tuple[int, str]], status: str) -> None:
        """Add `moves` after ply `after`, only if the game still has exactly `after` plies."""
        with self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                row = db.execute("SELECT plies FROM games WHERE id = ?", (game_id,)).fetchone()
                if row is None or int(row[0]) != after:
                    raise StaleGameError(game_id)
                db.executemany(
                    "INSERT INTO moves (game_id, ply, seat, move) VALUES (?, ?, ?, ?)",
                    [(game_id, after + i, seat, move) for i, (seat, move) in enumerate(moves)],
                )
                db.execute(
                    "UPDATE games SET plies = ?, status = ?, updated_at = ? WHERE id = ?",
                    (after + len(moves), status, time.time(), game_id),
                )
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
