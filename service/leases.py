"""Limits that hold across replicas: places counted in the database under leases that run out, and
a lock on each game's moves.

One process on SQLite counts in memory (`service.quota.Quota`), as it always did:
`LocalQuota` is its asynchronous face. Replicas on one PostgreSQL database count
in the database instead (`SharedQuota`): a request takes one of a key's places
as a row of the `leases` table, in a transaction that makes the count and the
insert one step, and gives it back when it ends; a replica killed with -9
cannot give its places back, so each runs out after `lease_s` (longer than any
request may last: its budgets bound it) and is then free again.

`GameLocks` make one move of a game at a time, across every replica: the
engine's reply to a move is computed once, even when two replicas receive
moves for one game at once — the second waits, then plays on the game as the
first left it (or is refused: `expected_ply`). On PostgreSQL the lock is an
advisory lock held by one connection, gone the moment a replica dies; on SQLite
an `asyncio.Lock` per game.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import AsyncIterator, Callable
from typing import Protocol

import anyio

from service.errors import ApiError, ServiceCode
from service.quota import Quota, refuse
from service.store import GameLockTimeoutError, GameStore

__all__ = ["GameLocks", "LocalQuota", "Places", "SharedQuota", "places"]


class Places(Protocol):
    """At most `cap` holders of a key at once (429 with Retry-After beyond)."""

    cap: int

    def held(self, key: str) -> int: ...

    def holding(self, key: str) -> contextlib.AbstractAsyncContextManager[None]: ...


class LocalQuota:
    """`Quota`'s places, counted in this process's memory, behind the asynchronous face."""

    def __init__(self, quota: Quota) -> None:
        self.quota = quota
        self.cap = quota.cap

    def held(self, key: str) -> int:
        return self.quota.held(key)

    @contextlib.asynccontextmanager
    async def holding(self, key: str) -> AsyncIterator[None]:
        with self.quota.holding(key):
            yield


class SharedQuota:
    """Places counted in the store's `leases` table, under `prefix`: every replica on the database
    sees the same count."""

    def __init__(
        self,
        store: GameStore,
        prefix: str,
        cap: int,
        retry_after_s: int,
        lease_s: float,
        refusal: Callable[[str, int], str],
        refused: Callable[[], None] | None = None,
    ) -> None:
        self.store = store
        self.prefix = prefix
        self.cap = cap
        self.retry_after_s = retry_after_s
        self.lease_s = lease_s
        self.refusal = refusal
        self.refused = refused

    def held(self, key: str) -> int:
        """Places of `key` held now, by every replica."""
        return self.store.leases(f"{self.prefix}:{key}")

    @contextlib.asynccontextmanager
    async def holding(self, key: str) -> AsyncIterator[None]:
        name, holder = f"{self.prefix}:{key}", secrets.token_hex(8)
        taken = await anyio.to_thread.run_sync(self.store.take_lease, name, holder, self.cap, self.lease_s)
        if not taken:
            raise refuse(key, self.cap, self.retry_after_s, self.refusal, self.refused)
        try:
            yield
        finally:
            with anyio.CancelScope(shield=True):  # given back even when the request is cancelled
                await anyio.to_thread.run_sync(self.store.drop_lease, name, holder)


def places(
    store: GameStore,
    prefix: str,
    cap: int,
    retry_after_s: int,
    lease_s: float,
    refusal: Callable[[str, int], str],
    refused: Callable[[], None] | None = None,
) -> Places:
    """Places shared by the replicas of a PostgreSQL store, else counted in memory."""
    if store.kind == "postgresql":
        return SharedQuota(store, prefix, cap, retry_after_s, lease_s, refusal, refused)
    return LocalQuota(Quota(cap, retry_after_s, refusal, refused))


class GameLocks:
    """One move at a time per game: across the replicas of a PostgreSQL store, else in this process.
    A wait longer than `timeout_s` answers 409 `conflict` (retry)."""

    def __init__(self, store: GameStore, timeout_s: float) -> None:
        self.store = store
        self.timeout_s = timeout_s
        self.shared = store.kind == "postgresql"
        self._local: dict[str, tuple[asyncio.Lock, int]] = {}

    @contextlib.asynccontextmanager
    async def holding(self, game_id: str) -> AsyncIterator[None]:
        if self.shared:
            async with self._shared(game_id):
                yield
            return
        lock, users = self._local.get(game_id, (asyncio.Lock(), 0))
        self._local[game_id] = (lock, users + 1)
        try:
            try:
                await asyncio.wait_for(lock.acquire(), self.timeout_s)
            except TimeoutError:
                raise self._busy(game_id) from None
            try:
                yield
            finally:
                lock.release()
        finally:
            lock, users = self._local[game_id]
            if users <= 1:
                del self._local[game_id]
            else:
                self._local[game_id] = (lock, users - 1)

    @contextlib.asynccontextmanager
    async def _shared(self, game_id: str) -> AsyncIterator[None]:
        try:
            handle = await anyio.to_thread.run_sync(self.store.lock_game, game_id, self.timeout_s)
        except GameLockTimeoutError:
            raise self._busy(game_id) from None
        try:
            yield
        finally:
            with anyio.CancelScope(shield=True):
                await anyio.to_thread.run_sync(self.store.unlock_game, handle)

    def _busy(self, game_id: str) -> ApiError:
        return ApiError(
            ServiceCode.CONFLICT,
            f"game {game_id} was busy with another move for {self.timeout_s:g} s; retry",
        )
