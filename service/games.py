"""Games played over HTTP: creation, seat views, human moves, engine replies, hints (docs/api.md §3).

A game lives in the store (`service.store`) as its set-up (`service.setup`) and
move list and, while in use, in memory as a `LiveGame` (`service.live`) rebuilt by
replaying them. A change is computed on a copy of the game — the human move and
the engine replies it sets off (`service.engine_seats`), the engines searching in
the search pool — then written to the store in one transaction that checks nobody
moved first (optimistic concurrency: if somebody did, the move is tried again on
the new state). Only then does it become the game everyone sees (`service.views`),
so bad input never changes stored state. One move of a game is computed at a time,
across replicas (`service.leases.GameLocks`), so an engine reply is computed once;
reads, hints and trackers never wait for it.

The handlers are coroutines: searches are awaited in the search pool, and the
store and replays run in worker threads, so the event loop (and `/healthz`)
always answers at once.

Secrets: each human seat has a bearer token (`secrets.token_urlsafe`); only its
SHA-256 is stored, and tokens are compared in constant time.
"""

from __future__ import annotations

import contextlib
import datetime
import hmac
import secrets
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from typing import Any

import anyio

from service.capacity import SearchPool
from service.engine import Searcher
from service.engine_seats import EngineSeats
from service.errors import ApiError, ServiceCode
from service.leases import GameLocks, places
from service.live import LiveGame
from service.metrics import Metrics
from service.settings import Settings
from service.setup import HUMAN, GameSetup, hash_secret, seat_of_request
from service.store import GameRecord, GameStore, StaleGameError, TooManyGamesError
from service.views import checked_view
from solver.game.cards import parse_cards
from solver.game.errors import ErrorCode, GameOverError, RulesError, TanError
from solver.game.moves import Move
from solver.game.notation import record_to_text
from solver.game.position import Position
from solver.game.record import Record
from solver.game.reference import Game, random_deck
from solver.game.rules import Rules
from solver.search import Hint, StopFlag, Tracker
from solver.search.beliefs import History
from solver.search.calibration import ScoreMap, calibrated_hint, calibrated_review
from solver.search.review import Review

__all__ = ["GameManager", "LiveGame"]

_WRITE_ATTEMPTS = 3


class GameManager:
    """Creates, loads, shows and advances games; one instance per app."""

    def __init__(self, store: GameStore, searcher: Searcher, pool: SearchPool, metrics: Metrics,
                 settings: Settings) -> None:
        self.store = store
        self.searcher = searcher
        self.pool = pool
        self.metrics = metrics
        self.settings = settings
        self.engines = EngineSeats(searcher, pool, settings, metrics)
        self.cache_size = settings.game_cache
        self._cache: OrderedDict[str, LiveGame] = OrderedDict()
        self._cache_lock = threading.Lock()  # guards the dictionaries only, never a game or a search
        self._flights: weakref.WeakValueDictionary[str, _Flight] = weakref.WeakValueDictionary()
        self._working = places(  # requests at work, by game (in the database on PostgreSQL)
            store,
            "game",
            settings.max_requests_per_game,
            settings.retry_after_s,
            settings.lease_s,
            lambda game_id, cap: f"{cap} requests for game {game_id} are already at work",
        )
        # One move of a game at a time, across replicas: an engine reply is computed once.
        self._moving = GameLocks(store, settings.engine_budget_ms / 1000.0 + settings.queue_wait_s + 5.0)

    # -- the cache ------------------------------------------------------------------------------

    def _remember(self, live: LiveGame) -> None:
        if self.cache_size <= 0:
            return
        with self._cache_lock:
            self._cache[live.id] = live
            self._cache.move_to_end(live.id)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)

    def _forget(self, game_id: str) -> None:
        with self._cache_lock:
            self._cache.pop(game_id, None)

    def _fresh(self, game_id: str, seat: int, token: str | None) -> LiveGame:
        """The game as stored now, once `token` is shown to be `seat`'s (a worker thread calls
        this): cached if no move was added since, else replayed — only for the seat's holder, so a
        wrong token costs a read of the stored set-up, never a replay.

        A cached `LiveGame` is never changed once shared: a move makes a new one.
        """
        found = self._authorized(game_id, seat, token)
        return found if isinstance(found, LiveGame) else self._rebuilt(found)

    def _authorized(self, game_id: str, seat: int, token: str | None) -> LiveGame | GameRecord:
        """The cached game if it is the stored one, else the stored record, once `token` is shown
        to be `seat`'s (a read of the store, no replay)."""
        with self._cache_lock:
            cached = self._cache.get(game_id)
        if cached is not None and self.store.plies(game_id) == cached.stored_plies:
            self.authorize(game_id, cached.setup, seat, token)
            return cached
        record = self.store.load(game_id)
        if record is None:
            raise _unknown(game_id)
        self.authorize(game_id, GameSetup.from_json(record.setup, f"game {game_id}"), seat, token)
        return record

    def _rebuilt(self, record: GameRecord) -> LiveGame:
        """The stored game replayed, once however many requests ask for it at the same time: the
        first replays it while the others wait for its result in the cache."""
        with self._cache_lock:
            flight = self._flights.get(record.id)
            if flight is None:
                flight = self._flights[record.id] = _Flight()
        with flight.lock:
            with self._cache_lock:
                cached = self._cache.get(record.id)
            if cached is not None and cached.stored_plies == record.plies:
                return cached
            live = LiveGame.rebuild(record)
            self._remember(live)
            return live

    def _admitted(self, game_id: str) -> contextlib.AbstractAsyncContextManager[None]:
        """One of at most `max_requests_per_game` requests at work on this game (429 beyond, with
        Retry-After): one game's requests cannot pile up in the worker threads or the search
        queue while others wait."""
        return self._working.holding(game_id)

    @contextlib.asynccontextmanager
    async def _working_on(self, game_id: str, seat: int, token: str | None) -> AsyncIterator[LiveGame]:
        """The game for `seat`'s holder while the block runs as one of the game's admitted
        requests: the token is checked first (a wrong one never counts against the game's cap),
        then the cap, and only then is the game replayed if it must be."""
        self.require_token(seat, token)
        found = await anyio.to_thread.run_sync(self._authorized, game_id, seat, token)
        async with self._admitted(game_id):
            if isinstance(found, LiveGame):
                yield found
            else:
                yield await anyio.to_thread.run_sync(self._rebuilt, found)

    async def sweep(self) -> int:
        """Delete the games that ended `finished_ttl_s` ago and those nobody has moved in for
        `abandoned_ttl_s` (and the games followed at a table stored as long ago); note the store's
        counts in the metrics. Returns how many stored games went."""
        now = time.time()
        s = self.settings

        def expire() -> tuple[int, dict[str, int]]:
            gone = self.store.expire(now - s.finished_ttl_s, now - s.abandoned_ttl_s)
            self.store.expire_leases()  # those a replica that died could not give back
            self.store.expire_followed(now - s.abandoned_ttl_s)  # games followed at a table, left
            return gone, self.store.counts()

        gone, counts = await anyio.to_thread.run_sync(expire)
        self.metrics.games_expired.inc(gone)
        for status, count in counts.items():
            self.metrics.games_stored.labels(status).set(count)
        return gone

    async def _load(self, game_id: str, seat: int, token: str | None) -> LiveGame:
        return await anyio.to_thread.run_sync(self._fresh, game_id, seat, token)

    # -- seats and tokens -----------------------------------------------------------------------

    @staticmethod
    def require_token(seat: int, token: str | None) -> None:
        """401 without a token, before the game is even looked up: a caller without one cannot
        tell a game that exists from one that does not (both answer 401)."""
        if not token:
            raise ApiError(
                ServiceCode.UNAUTHORIZED,
                f"seat {seat} needs its token: send the header 'Authorization: Bearer <token>'",
                {"WWW-Authenticate": "Bearer"},
            )

    def authorize(self, game_id: str, setup: GameSetup, seat: int, token: str | None) -> None:
        """Raise unless `token` is `seat`'s in the game `game_id` of this stored set-up: 401 for no
        token; 404, as for no such game, for a token of none of its seats; and to the holder of
        another seat, 422 for no such seat, 403 for an engine seat or another seat's token.

        A token of no seat learns nothing of the game: a 403 (or a 422 naming the seat count, or
        a 403 naming an engine) told a stranger that the game exists and what its seats are (issue
        64); one seat's holder already knows them."""
        self.require_token(seat, token)
        assert token is not None
        digest = hash_secret(token)
        # Every seat's hash is compared, in constant time each, whichever matches.
        hashes = [expected for expected in setup.token_hashes if expected is not None]
        held = [hmac.compare_digest(digest, expected) for expected in hashes]
        if not any(held):
            raise _unknown(game_id)
        players = setup.players
        if isinstance(seat, bool) or seat not in range(players):
            raise TanError(f"seat: no seat {seat!r} in this {players}-seat game", ErrorCode.INVALID_SEAT)
        spec = setup.seats[seat]
        if not isinstance(spec, str):
            raise ApiError(
                ServiceCode.ENGINE_SEAT,
                f"seat {seat} is played by the {spec.engine} engine: nobody may act or look for it",
            )
        expected = setup.token_hashes[seat]
        assert expected is not None
        if not hmac.compare_digest(digest, expected):
            raise ApiError(ServiceCode.FORBIDDEN, f"wrong token for seat {seat}: it is another seat's")

    # -- reading ------------------------------------------------------------------------------

    async def read(self, game_id: str, seat: int, token: str | None) -> dict[str, Any]:
        """`GET /v1/games/{id}?seat=k`."""
        async with self._working_on(game_id, seat, token) as live:
            return await anyio.to_thread.run_sync(checked_view, live, seat)

    # -- creating and playing -------------------------------------------------------------------

    async def create(
        self, request: Any, address: str | None = None
    ) -> tuple[str, list[str | None], dict[str, Any]]:
        """`POST /v1/games`: deal, let engines play until a human must act, store. Returns
        the id, the tokens and the view of the first human seat. A game of engines only is
        refused: it would play a whole game inside one request (`tan arena` plays those).

        The client at `address` may have `max_playing_per_client` games being played: checked
        before the engines play, and again as the game is stored (429 beyond)."""
        client = None if address is None else hash_secret(f"client:{address}")
        cap = self.settings.max_playing_per_client
        if client is not None and await anyio.to_thread.run_sync(self.store.playing, client) >= cap:
            raise _too_many(cap)
        rules = Rules.from_json(request.rules)
        seats = [seat_of_request(spec) for spec in request.seats]
        if HUMAN not in seats:
            raise TanError(
                "seats: a stored game needs a human seat (engines against each other: `tan arena`)",
                ErrorCode.INVALID_INPUT,
            )
        players = request.players if request.players is not None else len(seats)
        try:
            rules.check_players(players)
        except RulesError as error:
            raise RulesError(f"players: {error}", ErrorCode.BAD_PLAYERS) from None
        if len(seats) != players:
            raise TanError(f"seats: {len(seats)} seats given for {players} players", ErrorCode.COUNT_MISMATCH)
        seed = request.seed if request.seed is not None else secrets.randbits(63)
        deck = request.deck if request.deck is not None else [str(card) for card in random_deck(rules, seed)]
        first = Game.deal(rules, players, deck=deck, first_attacker=request.first_attacker)  # checks the deck
        tokens = [secrets.token_urlsafe(32) if spec == HUMAN else None for spec in seats]
        game_id = secrets.token_urlsafe(12)
        setup = GameSetup(
            rules=rules.to_json(),
            players=players,
            deck=[str(card) for card in parse_cards(deck)],
            first_attacker=first.leader,
            seats=seats,
            seed=seed,
            # The engines' (and the tracker's) randomness, apart from the deal's: a deal replayed
            # from its seed does not replay the engines' choices.
            engine_seed=secrets.randbits(63),
            shuffled=request.deck is None,
            token_hashes=[None if token is None else hash_secret(token) for token in tokens],
            match_games=request.match.games if request.match is not None else None,
            date=datetime.datetime.now(datetime.UTC).date().isoformat(),
        )
        live = LiveGame(game_id, setup, LiveGame.new_match(setup))
        played = await self.engines.advance(live, address)
        viewer = next((seat for seat, spec in enumerate(seats) if spec == HUMAN), 0)
        answer = await anyio.to_thread.run_sync(checked_view, live, viewer)
        moves = [(mover, move.notation) for _number, mover, move in live.history]
        try:
            await anyio.to_thread.run_sync(
                self.store.create, game_id, setup.to_json(), moves, live.status, client, cap
            )
        except TooManyGamesError:
            raise _too_many(cap) from None
        self._remember(live)
        self.metrics.games_created.inc()
        self.metrics.moves_played.labels("engine").inc(played)
        return game_id, tokens, answer

    async def play(
        self,
        game_id: str,
        seat: int,
        move_input: Any,
        token: str | None,
        expected_ply: int | None = None,
        address: str | None = None,
    ) -> dict[str, Any]:
        """`POST /v1/games/{id}/moves`: a human seat's move, then the engines' replies.

        Computed on a copy with no lock held, then appended only if the stored game
        is still the one the move was played on; otherwise tried again on the new state —
        unless `expected_ply` (the length of the seat's history when it chose) says which
        state the move was meant for: a game that has moved on is then refused (409).
        """
        async with self._working_on(game_id, seat, token), self._moving.holding(game_id):
            return await self._play(game_id, seat, move_input, token, expected_ply, address)

    async def _play(
        self,
        game_id: str,
        seat: int,
        move_input: Any,
        token: str | None,
        expected_ply: int | None,
        address: str | None,
    ) -> dict[str, Any]:
        for _attempt in range(_WRITE_ATTEMPTS):
            stored = await self._load(game_id, seat, token)
            seen = stored.seen_plies(seat)
            if expected_ply is not None and expected_ply != seen:
                raise ApiError(
                    ServiceCode.GAME_MOVED_ON,
                    f"expected_ply is {expected_ply} but seat {seat}'s history holds {seen} moves: the "
                    "game has moved on (an earlier try of this move may have been stored); read it again",
                )
            move = Move.parse(move_input)
            if stored.over:
                raise GameOverError(f"the game is over: cannot {move}")
            cap = self.settings.max_game_moves
            if stored.game_plies >= cap:
                raise TanError(
                    f"cannot {move}: this game has reached {cap} moves, the most a stored game may hold "
                    "(TAN_MAX_GAME_MOVES); it takes no more",
                    ErrorCode.INVALID_MOVE,
                )
            live = stored.copy()
            live.play(move, seat)
            played = 1 + await self.engines.advance(live, address)
            answer = await anyio.to_thread.run_sync(checked_view, live, seat)
            moves = [(mover, made.notation) for _number, mover, made in live.history[stored.plies:]]
            try:
                await anyio.to_thread.run_sync(self.store.append, game_id, stored.stored_plies, moves,
                                               live.status)
            except StaleGameError:
                self._forget(game_id)  # somebody moved first: read the game again and re-check the move
                continue
            self._remember(live)
            self.metrics.moves_played.labels("human").inc()
            self.metrics.moves_played.labels("engine").inc(played - 1)
            return answer
        raise ApiError(
            ServiceCode.CONFLICT, f"game {game_id} kept changing while this move was played; retry"
        )

    async def hint(
        self,
        game_id: str,
        seat: int,
        token: str | None,
        run: Callable[[Position, History, StopFlag], Hint],
        request: Any = None,
    ) -> Hint:
        """`GET /v1/games/{id}/hint?seat=k`: `run` searches what `seat` has seen (its position and
        the game's history from its view), in a search slot. When every other seat is one engine
        with a fitted score map (the greedy player), the scores are its calibrated win chances
        (solver/search/calibration.py)."""
        async with self._working_on(game_id, seat, token) as live:
            position = live.position(seat)
            self.searcher.check_to_move(position)
            hint = await self.pool.run(lambda stop: run(position, live.history_of(seat), stop), request)
            return calibrated_hint(hint, live.score_map(seat))

    async def tracker(self, game_id: str, seat: int, token: str | None, request: Any = None) -> Tracker:
        """`GET /v1/games/{id}/tracker?seat=k`: where the cards `seat` cannot see probably lie, from
        its view and what it saw the others do, whoever is to move and after the end, with a seed
        fixed by the game's engine seed and ply. Weighing a long history is as dear as a search, so
        it runs in a search slot (counted against the client's share); the answer is kept with the
        game's state, so asking again before the next move costs nothing."""
        async with self._working_on(game_id, seat, token) as live:
            cached = live.trackers.get(seat)
            if cached is not None:
                return cached

            def track(stop: StopFlag) -> Tracker:
                history = live.history_of(seat) if self.searcher.settings.beliefs else None
                seed = self.searcher.tracker_seed(live.setup.engine_seed, live.plies)
                tracker = self.searcher.track(live.position(seat), history, seed, stop)
                if not stop.is_set():  # a stopped one weighed fewer worlds: not the answer to keep
                    live.trackers[seat] = tracker
                return tracker

            return await self.pool.run(track, request)

    async def record(
        self, game_id: str, seat: int, token: str | None, number: int | None = None, text: bool = False
    ) -> dict[str, Any] | str:
        """`GET /v1/games/{id}/record?seat=k`: what `seat` has seen of game `number` of the match (by
        default the one being played) so far, as JSON or as `text` (docs/notation.md), made in a
        worker thread (the deal replayed, and for the text the record too)."""

        def made() -> dict[str, Any] | str:
            record = live.record(seat, number)
            return record_to_text(record) if text else record.to_json()

        async with self._working_on(game_id, seat, token) as live:
            return await anyio.to_thread.run_sync(made)

    @staticmethod
    def _over(live: LiveGame, game_id: str, number: int | None) -> None:
        """409 `game_not_over` while game `number` of the match (by default the last) is played."""
        if not live.game_over(number):
            which = f"game {game_id}" if number is None else f"game {number} of match {game_id}"
            raise ApiError(ServiceCode.GAME_NOT_OVER, f"{which} is still being played: its review comes once "
                           "it is over")

    async def record_of(
        self, game_id: str, seat: int, token: str | None, request: Any = None, number: int | None = None
    ) -> tuple[Record, ScoreMap | None, int]:
        """What `seat` saw of a finished game (in a match, of game `number`, by default the last), as
        a record to review (`POST /v1/games/{id}/analysis`), made in a search slot, the map its
        review's scores are calibrated with, as the game's hints are (solver/search/calibration.py),
        and the game's number (1 for a single game); 409 `game_not_over` while it is being played."""
        async with self._working_on(game_id, seat, token) as live:
            self._over(live, game_id, number)
            record = await self.pool.run(lambda _stop: live.record(seat, number), request)
            return record, live.score_map(seat), live.match.number if number is None else number

    async def kept_review(
        self, game_id: str, seat: int, token: str | None, key: Callable[[int], str], number: int | None = None
    ) -> dict[str, Any] | None:
        """`GET /v1/games/{id}/review?seat=k`: the review of game `number` (by default the last) kept
        with the game when its job ended, under `key(number)` (service/jobs.py `review_key`), read
        without a search; None when none is kept (not an error: a page asks before queueing one)."""
        async with self._working_on(game_id, seat, token) as live:
            number = live.match.number if number is None else number
            return await anyio.to_thread.run_sync(self.store.review, game_id, key(number))

    async def analysis(
        self,
        game_id: str,
        seat: int,
        token: str | None,
        run: Callable[[Record, StopFlag], Review],
        request: Any = None,
        number: int | None = None,
    ) -> Review:
        """`GET /v1/games/{id}/analysis?seat=k`: once the game is over, `run` reviews the decisions of
        `seat`, from its record of the game, in a search slot (where the record is made too); its
        scores are calibrated as the game's hints are (solver/search/calibration.py), so that both
        show one quantity."""
        async with self._working_on(game_id, seat, token) as live:
            self._over(live, game_id, number)
            reviewed = await self.pool.run(lambda stop: run(live.record(seat, number), stop), request)
            return calibrated_review(reviewed, live.score_map(seat))


class _Flight:
    """The lock of one game's replay, while some request waits for it (`GameManager._rebuilt`)."""

    __slots__ = ("__weakref__", "lock")

    def __init__(self) -> None:
        self.lock = threading.Lock()


def _unknown(game_id: str) -> ApiError:
    """The 404 of a game that is not there, or that the token shown holds no seat of: alike."""
    return ApiError(ServiceCode.NOT_FOUND, f"no game with id {game_id!r}")


def _too_many(cap: int) -> ApiError:
    return ApiError(
        ServiceCode.TOO_MANY_REQUESTS,
        f"this client already has {cap} games being played: finish one (or leave it; an abandoned game "
        "is deleted after a while) before dealing another",
    )
