"""The engine loop: engine seats reply to a move until a human must act or the match ends.

Each engine seat is a player of the library (`solver.players.make_player`) built from
its stored seat (`service.setup.EngineSeat`): its engine, its options, and for a
search engine its limits capped by the server, the server's threads, beliefs and
particles, and the request's stop flag. Each move gets at most what is left of
the request's engine budget (`engine_budget_ms`); past it the engines play the
greedy move, so a request always ends. The loop runs in one slot of the search
pool, counted against the share of the client whose move it answers.
"""

from __future__ import annotations

import random
import time

from service.capacity import SearchPool
from service.engine import Searcher
from service.live import LiveGame
from service.metrics import Metrics
from service.settings import Settings
from service.setup import EngineSeat, seat_spec
from solver.game.moves import Move
from solver.players import GreedyPlayer, SearchPlayer, make_player
from solver.players.base import Player
from solver.search import Limits, StopFlag

__all__ = ["EngineSeats", "engine_seed"]


def engine_seed(game_seed: int, ply: int) -> int:
    """A reproducible per-move seed for engine seats, fixed by the game's engine seed (not the
    deal's) and the ply."""
    return random.Random(f"{game_seed}:{ply}").getrandbits(63)


class EngineSeats:
    """Builds engine seats' players and lets them play."""

    def __init__(self, searcher: Searcher, pool: SearchPool, settings: Settings, metrics: Metrics) -> None:
        self.searcher = searcher
        self.pool = pool
        self.settings = settings
        self.metrics = metrics

    def player(
        self, seat: EngineSeat, time_left_ms: float | None = None, stop: StopFlag | None = None
    ) -> Player:
        """The library's player of `seat`: a search engine within its capped limits and at most
        `time_left_ms`, on the server's threads, beliefs and particles (a seat's particles at most
        the server's), stopped by `stop`."""
        if not seat.searches:
            return make_player(seat_spec(seat))
        s = self.settings
        limits = self.searcher.limits(seat.limits)
        if time_left_ms is not None and limits.time_ms is not None:
            limits = Limits(iterations=limits.iterations, time_ms=min(limits.time_ms, time_left_ms))
        spec = seat_spec(seat, limits, beliefs=s.beliefs, particles=s.particles)
        spec["particles"] = min(int(spec["particles"]), s.particles)
        spec["threads"] = s.threads
        player = make_player(spec)
        if isinstance(player, SearchPlayer):
            player.solver.stop = stop
        return player

    @staticmethod
    def to_move(live: LiveGame) -> bool:
        """Whether an engine seat is to move in `live`."""
        game = live.game
        return not live.over and game.to_move is not None and not live.is_human(game.to_move)

    def move(self, live: LiveGame, deadline: float, stop: StopFlag | None = None) -> Move:
        """The move of the engine seat to move in `live`, within what is left until `deadline`."""
        seat = live.game.to_move
        assert seat is not None
        spec = live.setup.seats[seat]
        assert isinstance(spec, EngineSeat)
        left_ms = (deadline - time.monotonic()) * 1000.0
        position = live.position(seat)
        seed = engine_seed(live.setup.engine_seed, live.plies)
        if left_ms < 1.0 or (stop is not None and stop.is_set()):
            return GreedyPlayer().choose(position, seed)  # the budget is spent: hurry
        player = self.player(spec, left_ms, stop)
        reads = isinstance(player, SearchPlayer) and player.reads_history
        history = live.history_of(seat) if reads else None
        begun = time.perf_counter()
        move = player.choose(position, seed, history)
        if isinstance(player, SearchPlayer):
            visits = sum((player.last_visits or {}).values())
            self.metrics.record_search("engine", visits, (time.perf_counter() - begun) * 1000.0)
        return move

    def deadline(self) -> float:
        """The monotonic time after which this request's engine seats hurry."""
        return time.monotonic() + self.settings.engine_budget_ms / 1000.0

    def play(self, live: LiveGame, stop: StopFlag | None = None) -> int:
        """Engine seats move on `live` until a human must act, the match ends or the game holds
        `max_game_moves` moves; returns how many moves they played (runs in a search slot)."""
        played = 0
        deadline = self.deadline()
        while self.to_move(live) and live.game_plies < self.settings.max_game_moves:
            seat = live.game.to_move
            assert seat is not None
            live.play(self.move(live, deadline, stop), seat)
            played += 1
        return played

    async def advance(self, live: LiveGame, address: str | None = None) -> int:
        """Let the engines reply on `live`, in a search slot (the queue's, then 503, when none is
        free) whatever the engines: every engine move counts against the slots, and against the
        share of the client at `address` whose move or new game they answer."""
        if not self.to_move(live):
            return 0
        return await self.pool.run(lambda stop: self.play(live, stop), client=address)
