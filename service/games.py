"""Games played over HTTP: creation, seat views, human moves, engine replies, hints (docs/api.md §3).

A game lives in the store (`service.store`) as its set-up and move list and,
while in use, in memory as a reference `Game` rebuilt by replaying them. A
change is computed on a copy of the game — the human move and the engine
replies it sets off, the engines searching in the search pool with no lock
held — then written to the store in one transaction that checks nobody moved
first (optimistic concurrency: if somebody did, the move is tried again on the
new state). Only then does it become the game everyone sees, so bad input
never changes stored state and a slow search never blocks another request.

The handlers are coroutines: searches are awaited in the search pool, and the
store and replays run in worker threads, so the event loop (and `/healthz`)
always answers at once.

Secrets: each human seat has a bearer token (`secrets.token_urlsafe`); only its
SHA-256 is stored, and tokens are compared in constant time. A seat's view
shows its own hand and what it has seen (`Position.from_game`, with `known`);
engine seats' hands are never shown to anyone.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import anyio

from service.capacity import SearchPool
from service.engine import Searcher
from service.errors import ApiError, ServiceCode
from service.leases import GameLocks, places
from service.metrics import Metrics
from service.settings import Settings
from service.store import GameRecord, GameStore, StaleGameError, TooManyGamesError
from solver.game.cards import Card, parse_cards
from solver.game.errors import ErrorCode, GameOverError, RulesError, TanError
from solver.game.match import Match
from solver.game.moves import Move
from solver.game.phases import seen_by
from solver.game.position import Position
from solver.game.record import Record
from solver.game.reference import Game, random_deck
from solver.game.rules import Rules
from solver.players import ENGINES, make_player, searches
from solver.search import Hint, Limits, StopFlag, Tracker
from solver.search.beliefs import History, HistoryReader
from solver.search.calibration import ScoreMap, calibrated_hint, score_map
from solver.search.review import Decision, decisions

__all__ = ["GameManager", "LiveGame"]

T = TypeVar("T")
HUMAN = "human"
_SETUP_FORMAT = 1
_WRITE_ATTEMPTS = 3


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class LiveGame:
    """A stored game rebuilt in memory: its match (a single game is a match of one, shown
    without the match block), its history of `(game number, seat, move)` and, beside each move,
    what everyone saw of the table after it (`after`: see `public_state`)."""

    id: str
    setup: dict[str, Any]
    match: Match
    history: list[tuple[int, int, Move]] = field(default_factory=list)
    after: list[dict[str, Any]] = field(default_factory=list)

    @property
    def game(self) -> Game:
        """The game being played (the last one, once the match is over)."""
        return self.match.game

    @property
    def is_match(self) -> bool:
        return "match" in self.setup

    @property
    def seats(self) -> list[str | dict[str, Any]]:
        seats: list[str | dict[str, Any]] = self.setup["seats"]
        return seats

    @property
    def plies(self) -> int:
        return len(self.history)

    @property
    def over(self) -> bool:
        return self.match.over

    def seen_plies(self, seat: int) -> int:
        """How many moves `seat`'s history shows: every move but another seat's secret keep."""
        return sum(1 for _number, mover, move in self.history if seen_by(move, mover, seat))

    @property
    def status(self) -> str:
        return "over" if self.over else "playing"

    def is_human(self, seat: int) -> bool:
        return self.seats[seat] == HUMAN

    def score_map(self, seat: int) -> ScoreMap | None:
        """The map from `seat`'s searched scores to its win chances against the other seats, when
        they are all one engine that has one (solver/search/calibration.py)."""
        engines: list[str] = []
        for other, spec in enumerate(self.seats):
            if other == seat:
                continue
            if not isinstance(spec, dict):  # a human: nobody knows how it plays
                return None
            engines.append(str(spec["engine"]))
        return score_map(self.game.rules, len(self.seats), engines)

    def position(self, seat: int) -> Position:
        """What `seat` sees now (with the match block in a match)."""
        return Position.from_game(self.game, seat, match=self.match.info() if self.is_match else None)

    def history_of(self, seat: int) -> History:
        """What `seat` has seen the others do in the game being played (for weighted beliefs):
        the game replayed from its deal, every move shown to the seat's history reader."""
        game = self.match.dealt.clone()
        reader = HistoryReader(seat, game.trump)
        for number, mover, move in self.history:
            if number != self.match.number:
                continue
            before = game.clone()
            game.play(move, mover)
            reader.observe(mover, move, before, game)
        return reader.history()
    def record(self, seat: int) -> Record:
        """What `seat` saw of the game (docs/api.md §2.3): its dealt hand, every public move and its
        own draws, from the stored deal and moves. Only a single game has one for now."""
        if self.is_match:
            raise TanError("the games of a match cannot be reviewed yet, only a single game",
                           ErrorCode.INVALID_INPUT)
        match = self.new_match(self.setup)
        first = match.game.clone()
        history: list[tuple[int, Move]] = []
        draws: list[tuple[int, list[Card]]] = []
        for ply, (_number, mover, move) in enumerate(self.history):
            match.play(move, mover)
            history.append((mover, move))
            if match.game.drawn[seat]:
                draws.append((ply, list(match.game.drawn[seat])))
        return Record.of_game(first, seat, parse_cards(self.setup["deck"]), history, draws)

    def copy(self) -> LiveGame:
        return LiveGame(self.id, self.setup, self.match.clone(), list(self.history), list(self.after))

    def play(self, move: Move, seat: int) -> None:
        number = self.match.number
        self.match.play(move, seat)
        self.history.append((number, seat, move))
        self.after.append(public_state(self.game))

    @staticmethod
    def new_match(setup: dict[str, Any]) -> Match:
        """The match a stored set-up deals (its first game from the stored deck)."""
        rules = Rules.from_json(setup["rules"])
        games = setup["match"]["games"] if "match" in setup else 1
        return Match(rules, setup["players"], games, int(setup["seed"]), deck=setup["deck"],
                     first_attacker=setup["first_attacker"])

    @classmethod
    def rebuild(cls, record: GameRecord) -> LiveGame:
        """Deal the stored deck and replay the stored moves (the reference rules check each one)."""
        setup = record.setup
        if setup.get("format") != _SETUP_FORMAT:
            raise RuntimeError(f"game {record.id}: unknown set-up format {setup.get('format')!r}")
        live = cls(record.id, setup, cls.new_match(setup))
        for seat, text in record.moves:
            live.play(Move.parse(text), seat)
        return live


class GameManager:
    """Creates, loads, shows and advances games; one instance per app."""

    def __init__(self, store: GameStore, searcher: Searcher, pool: SearchPool, metrics: Metrics,
                 settings: Settings) -> None:
        self.store = store
        self.searcher = searcher
        self.pool = pool
        self.metrics = metrics
        self.settings = settings
        self.cache_size = settings.game_cache
        self._cache: OrderedDict[str, LiveGame] = OrderedDict()
        self._cache_lock = threading.Lock()  # guards the dictionary only, never a game or a search
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
        with self._cache_lock:
            cached = self._cache.get(game_id)
        if cached is not None and self.store.plies(game_id) == cached.plies:
            self.authorize(cached.setup, seat, token)
            return cached
        record = self.store.load(game_id)
        if record is None:
            raise ApiError(ServiceCode.NOT_FOUND, f"no game with id {game_id!r}")
        self.authorize(record.setup, seat, token)
        live = LiveGame.rebuild(record)
        self._remember(live)
        return live

    def _admitted(self, game_id: str) -> contextlib.AbstractAsyncContextManager[None]:
        """One of at most `max_requests_per_game` requests at work on this game (429 beyond, with
        Retry-After): one game's requests cannot pile up in the worker threads or the search
        queue while others wait."""
        return self._working.holding(game_id)

    async def sweep(self) -> int:
        """Delete the games that ended `finished_ttl_s` ago and those nobody has moved in for
        `abandoned_ttl_s`; note the store's counts in the metrics. Returns how many went."""
        now = time.time()
        s = self.settings

        def expire() -> tuple[int, dict[str, int]]:
            gone = self.store.expire(now - s.finished_ttl_s, now - s.abandoned_ttl_s)
            self.store.expire_leases()  # those a replica that died could not give back
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
    def _seat_spec(spec: Any) -> str | dict[str, Any]:
        """A seat spec of the request, checked: `"human"` or `{"engine": name, "limits": ...}`."""
        if isinstance(spec, str):
            if spec == HUMAN:
                return HUMAN
            engine, limits = spec, None
        else:
            engine, limits = spec.engine, spec.limits.to_json() if spec.limits is not None else None
        if engine not in ENGINES:
            raise TanError(
                f"seats: unknown seat kind {engine!r} (expected human or one of {', '.join(ENGINES)})",
                ErrorCode.UNKNOWN_ENGINE,
            )
        if searches(engine):
            if limits is not None:
                Limits.from_json(limits)  # refuse bad limits now, not at the engine's first move
            return {"engine": engine, "limits": limits}
        make_player({"engine": engine, "limits": limits} if limits is not None else engine)
        return {"engine": engine, "limits": None}

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

    def authorize(self, setup: dict[str, Any], seat: int, token: str | None) -> None:
        """Raise unless `token` is `seat`'s in the game of this stored set-up: 422 for no such
        seat, 403 for an engine seat or a wrong token, 401 for no token."""
        players = int(setup["players"])
        if isinstance(seat, bool) or seat not in range(players):
            raise TanError(f"seat: no seat {seat!r} in this {players}-seat game", ErrorCode.INVALID_SEAT)
        spec = setup["seats"][seat]
        if spec != HUMAN:
            engine = spec["engine"] if isinstance(spec, dict) else spec
            raise ApiError(
                ServiceCode.ENGINE_SEAT,
                f"seat {seat} is played by the {engine} engine: nobody may act or look for it",
            )
        expected = setup["token_hashes"][seat]
        self.require_token(seat, token)
        assert token is not None
        if not hmac.compare_digest(_hash(token), expected):
            raise ApiError(ServiceCode.FORBIDDEN, f"wrong token for seat {seat}")

    # -- views ----------------------------------------------------------------------------------

    @staticmethod
    def view(live: LiveGame, seat: int) -> dict[str, Any]:
        """The game as `seat` sees it (docs/api.md §3, `GET /v1/games/{id}`)."""
        game = live.game
        seats: list[dict[str, Any]] = []
        for spec in live.seats:
            if spec == HUMAN:
                seats.append({"kind": "human"})
            else:
                assert isinstance(spec, dict)
                seats.append({"kind": "engine", "engine": spec["engine"], "limits": spec.get("limits")})
        position = live.position(seat)
        legal = position.legal_moves() if position.to_move == seat else []
        view = {
            "id": live.id,
            "status": live.status,
            "seat": seat,
            "position": position.to_json(),
            "legal_moves": [move.to_json() for move in legal],
            "scores": None if game.scores is None else list(game.scores),
            "loser": game.loser,
            "history": [
                {**({"game": number} if live.is_match else {}), "seat": mover, "move": move.to_json(),
                 "notation": move.notation, "after": after}
                for (number, mover, move), after in zip(live.history, live.after, strict=True)
                if seen_by(move, mover, seat)
            ],
            "seats": seats,
        }
        if live.is_match:
            view["match"] = _match_view(live.match, seat)
        if live.over and live.setup.get("shuffled", True):
            view["seed"] = int(live.setup["seed"])  # only now: it deals every hand (and the match's next)
        return view

    def _checked_view(self, live: LiveGame, seat: int) -> dict[str, Any]:
        """`seat`'s view, once every seat's view of the game has been built: a game whose views
        cannot be built is a bug (500, logged), never bad input, and is not stored."""
        try:
            for other in range(live.game.players):
                live.position(other)
            return self.view(live, seat)
        except TanError as error:
            message = f"game {live.id}: no view of the game after ply {live.plies}: {error}"
            raise RuntimeError(message) from error

    async def read(self, game_id: str, seat: int, token: str | None) -> dict[str, Any]:
        """`GET /v1/games/{id}?seat=k`."""
        self.require_token(seat, token)
        live = await self._load(game_id, seat, token)
        async with self._admitted(game_id):
            return await anyio.to_thread.run_sync(self._checked_view, live, seat)

    # -- engines --------------------------------------------------------------------------------

    @staticmethod
    def _engine_to_move(live: LiveGame) -> bool:
        game = live.game
        return not live.over and game.to_move is not None and not live.is_human(game.to_move)

    def _engines_play(self, live: LiveGame, stop: StopFlag | None = None) -> int:
        """Engine seats move on `live` until a human must act or the match ends; returns how many
        moves they played.

        Each search gets at most what is left of the request's engine budget, and past it the
        engines play greedy moves, so this ends within about the budget.
        """
        played = 0
        deadline = self.searcher.engine_deadline()
        seed = _engine_seed(live.setup)
        while self._engine_to_move(live):
            seat = live.game.to_move
            assert seat is not None
            spec = live.seats[seat]
            assert isinstance(spec, dict)
            left_ms = (deadline - time.monotonic()) * 1000.0
            hurry = left_ms < 1.0 or (stop is not None and stop.is_set())
            history = live.history_of(seat) if searches(spec["engine"]) and not hurry else None
            move = self.searcher.engine_move(
                spec, live.position(seat), self.searcher.engine_seed(seed, live.plies), hurry=hurry,
                history=history, time_left_ms=left_ms, stop=stop,
            )
            live.play(move, seat)
            played += 1
        return played

    async def _advance(self, live: LiveGame, address: str | None = None) -> int:
        """Let the engines reply on `live`, in a search slot (the queue's, then 503, when none is
        free) whatever the engines: every engine move counts against the slots, and against the
        share of the client at `address` whose move or new game they answer."""
        if not self._engine_to_move(live):
            return 0
        return await self.pool.run(lambda stop: self._engines_play(live, stop), client=address)

    # -- creating and playing -------------------------------------------------------------------

    async def create(
        self, request: Any, address: str | None = None
    ) -> tuple[str, list[str | None], dict[str, Any]]:
        """`POST /v1/games`: deal, let engines play until a human must act, store. Returns
        the id, the tokens and the view of the first human seat. A game of engines only is
        refused: it would play a whole game inside one request (`tan arena` plays those).

        The client at `address` may have `max_playing_per_client` games being played: checked
        before the engines play, and again as the game is stored (429 beyond)."""
        client = None if address is None else _hash(f"client:{address}")
        cap = self.settings.max_playing_per_client
        if client is not None and await anyio.to_thread.run_sync(self.store.playing, client) >= cap:
            raise _too_many(cap)
        rules = Rules.from_json(request.rules)
        seats = [self._seat_spec(spec) for spec in request.seats]
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
        setup: dict[str, Any] = {
            "format": _SETUP_FORMAT,
            "rules": rules.to_json(),
            "players": players,
            "deck": [str(card) for card in parse_cards(deck)],
            "first_attacker": first.leader,
            "seats": seats,
            "seed": seed,
            # The engines' (and the tracker's) randomness, apart from the deal's: a deal replayed
            # from its seed does not replay the engines' choices.
            "engine_seed": secrets.randbits(63),
            "shuffled": request.deck is None,  # the deck came from the seed
            "token_hashes": [None if token is None else _hash(token) for token in tokens],
        }
        if request.match is not None:
            setup["match"] = {"games": request.match.games}
        live = LiveGame(game_id, setup, LiveGame.new_match(setup))
        played = await self._advance(live, address)
        viewer = next((seat for seat, spec in enumerate(seats) if spec == HUMAN), 0)
        answer = await anyio.to_thread.run_sync(self._checked_view, live, viewer)
        moves = [(mover, move.notation) for _number, mover, move in live.history]
        try:
            await anyio.to_thread.run_sync(self.store.create, game_id, setup, moves, live.status, client, cap)
        except TooManyGamesError:
            raise _too_many(cap) from None
        self._remember(live)
        self.metrics.games_created.inc()
        self.metrics.moves_played.labels("engine").inc(played)
        viewer = next((seat for seat, spec in enumerate(seats) if spec == HUMAN), 0)
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
        self.require_token(seat, token)
        await self._load(game_id, seat, token)  # authorized before it counts against the game's cap
        async with self._admitted(game_id), self._moving.holding(game_id):
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
            live = stored.copy()
            live.play(move, seat)
            played = 1 + await self._advance(live, address)
            answer = await anyio.to_thread.run_sync(self._checked_view, live, seat)
            moves = [(mover, made.notation) for _number, mover, made in live.history[stored.plies:]]
            try:
                await anyio.to_thread.run_sync(self.store.append, game_id, stored.plies, moves, live.status)
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
        self.require_token(seat, token)
        live = await self._load(game_id, seat, token)
        async with self._admitted(game_id):
            position = live.position(seat)
            self.searcher.check_to_move(position)
            hint = await self.pool.run(lambda stop: run(position, live.history_of(seat), stop), request)
            return calibrated_hint(hint, live.score_map(seat))

    async def tracker(self, game_id: str, seat: int, token: str | None) -> Tracker:
        """`GET /v1/games/{id}/tracker?seat=k`: where the cards `seat` cannot see probably lie, from
        its view and what it saw the others do, whoever is to move and after the end. No search: it
        runs in a worker thread, not a search slot, with a seed fixed by the game's engine seed and ply."""
        self.require_token(seat, token)
        live = await self._load(game_id, seat, token)

        def track() -> Tracker:
            history = live.history_of(seat) if self.searcher.settings.beliefs else None
            seed = self.searcher.tracker_seed(_engine_seed(live.setup), live.plies)
            return self.searcher.track(live.position(seat), history, seed)

        async with self._admitted(game_id):
            return await anyio.to_thread.run_sync(track)

    async def record_of(self, game_id: str, seat: int, token: str | None) -> Record:
        """What `seat` saw of a finished game, as a record to review (`POST /v1/games/{id}/analysis`);
        409 `game_not_over` while it is being played."""
        self.require_token(seat, token)
        live = await self._load(game_id, seat, token)
        if not live.over:
            raise ApiError(
                ServiceCode.GAME_NOT_OVER,
                f"game {game_id} is still being played: its review comes once it is over",
            )
        async with self._admitted(game_id):
            return await anyio.to_thread.run_sync(live.record, seat)

    async def analysis(
        self,
        game_id: str,
        seat: int,
        token: str | None,
        run: Callable[[int, list[Decision], StopFlag], T],
        request: Any = None,
    ) -> T:
        """`GET /v1/games/{id}/analysis?seat=k`: once the game is over, `run` reviews the decisions of
        `seat`, from its record of the game, in a search slot."""
        self.require_token(seat, token)
        live = await self._load(game_id, seat, token)
        if not live.over:
            raise ApiError(
                ServiceCode.GAME_NOT_OVER,
                f"game {game_id} is still being played: its review comes once it is over",
            )
        async with self._admitted(game_id):
            found = await anyio.to_thread.run_sync(lambda: decisions(live.record(seat)))
            return await self.pool.run(lambda stop: run(seat, found, stop), request)


def _too_many(cap: int) -> ApiError:
    return ApiError(
        ServiceCode.TOO_MANY_REQUESTS,
        f"this client already has {cap} games being played: finish one (or leave it; an abandoned game "
        "is deleted after a while) before dealing another",
    )


def _engine_seed(setup: dict[str, Any]) -> int:
    """The seed of a game's engines and card tracker (a game stored before it had its own: the deal's)."""
    return int(setup.get("engine_seed", setup["seed"]))


def public_state(game: Game) -> dict[str, Any]:
    """What every seat sees of `game` (docs/api.md §3, a history entry's `after`): the table, each
    hand's size, the stock and discard sizes, the bout's attacker and defender, who is to move and
    whether the defender takes — so a page can show a reply of several moves one move at a time.
    After the last move of a match's game it is the next game's deal."""
    return {
        "table": [{"attack": str(pair.attack), "defense": None if pair.defense is None else str(pair.defense)}
                  for pair in game.table],
        "hand_counts": [len(hand) for hand in game.hands],
        "stock": len(game.stock),
        "discard": len(game.discard),
        "attacker": game.attacker,
        "defender": game.defender,
        "to_move": game.to_move,
        "taking": game.taking,
    }


def _tribute_view(tributed: tuple[int, int, Card] | None, seat: int) -> dict[str, Any] | None:
    """Who gave a tribute to whom; the card only to the two of them (docs/rules.md §1.7)."""
    if tributed is None:
        return None
    giver, receiver, card = tributed
    view: dict[str, Any] = {"giver": giver, "receiver": receiver}
    if seat in (giver, receiver):
        view["card"] = str(card)
    return view


def _match_view(match: Match, seat: int) -> dict[str, Any]:
    """The match block of a game answer (docs/api.md §3): standings, dealer, the last game."""
    previous = match.previous
    last: dict[str, Any] | None = None
    if previous is not None:
        last = {**previous.to_json(), "tribute": _tribute_view(previous.tribute, seat)}
    playing = match.number == len(match.results) + 1
    return {
        "game": match.number,
        "games": match.games,
        "standings": [standing.to_json() for standing in match.standings()],
        "dealer": match.dealer,
        "trump_suits": [result.trump.letter for result in match.results],
        "previous": last,
        "tribute": _tribute_view(match.game.tributed, seat) if playing else None,
        "sitting_out": match.info().sitting_out,
    }
