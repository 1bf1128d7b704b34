"""A stored game's set-up, typed: its rules, seats, deck, first attacker, seeds and token hashes.

`GameSetup` is what `service.store` keeps of a game besides its moves (as JSON,
format 1, the same as before it was typed), and everything needed to deal it
again. A seat is `HUMAN` or an `EngineSeat`: an engine of the library's
registry (`solver.players.ENGINES`) with its per-move limits and options, built
by the library's `make_player` (service/engine_seats.py), so every option the
library accepts reaches a stored game.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from solver.game.errors import ErrorCode, TanError
from solver.players import ENGINES, make_player, searches
from solver.search import Limits

__all__ = ["HUMAN", "SETUP_FORMAT", "EngineSeat", "GameSetup", "Seat", "hash_secret", "seat_of_request"]

HUMAN = "human"
SETUP_FORMAT = 1


def hash_secret(secret: str) -> str:
    """The SHA-256 kept of a token (or of a client's address), never the thing itself."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class EngineSeat:
    """A seat an engine plays: its name, its per-move limits (None: the server's defaults), and
    the options the library's engine takes (`make_player`)."""

    engine: str
    limits: dict[str, Any] | None = None
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def searches(self) -> bool:
        return searches(self.engine)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"engine": self.engine, "limits": self.limits}
        if self.options:
            data["options"] = dict(self.options)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> EngineSeat:
        return cls(str(data["engine"]), data.get("limits"), dict(data.get("options") or {}))


Seat = str | EngineSeat
"""`HUMAN`, or an engine's seat."""


def seat_of_request(spec: Any) -> Seat:
    """A seat spec of `POST /v1/games`, checked: `"human"`, an engine's name, or `{"engine": name,
    "limits": ..., "options": ...}`. The engine is built once by `make_player`, so an option it
    does not take (or a bad value) is refused now, not at its first move."""
    if isinstance(spec, str):
        if spec == HUMAN:
            return HUMAN
        seat = EngineSeat(spec)
    else:
        limits = spec.limits.to_json() if spec.limits is not None else None
        seat = EngineSeat(spec.engine, limits, dict(spec.options or {}))
    if seat.engine not in ENGINES:
        raise TanError(
            f"seats: unknown seat kind {seat.engine!r} (expected human or one of {', '.join(ENGINES)})",
            ErrorCode.UNKNOWN_ENGINE,
        )
    if "threads" in seat.options:
        raise TanError("seats: threads is the server's (TAN_THREADS), not a seat's", ErrorCode.UNKNOWN_ENGINE)
    if seat.limits is not None:
        Limits.from_json(seat.limits)  # refuse bad limits now
    make_player({**seat_spec(seat), **({"limits": seat.limits} if seat.limits is not None else {})})
    return seat


def seat_spec(seat: EngineSeat, limits: Limits | None = None, **server: Any) -> dict[str, Any]:
    """The library's seat spec of `seat` (`make_player`), with `limits` for a search engine and
    the `server`'s own options (threads, beliefs, …) under the seat's."""
    spec: dict[str, Any] = {"engine": seat.engine}
    if seat.searches:
        spec.update(server)
        spec.update(seat.options)
        if limits is not None:
            spec["limits"] = limits.to_json()
        elif seat.limits is not None:
            spec["limits"] = seat.limits
    elif seat.options:
        spec.update(seat.options)
    return spec


@dataclass(frozen=True)
class GameSetup:
    """What deals a stored game again, and who may act in it."""

    rules: dict[str, Any]
    players: int
    deck: list[str]
    first_attacker: int
    seats: list[Seat]
    seed: int
    engine_seed: int  # the engines' and the tracker's randomness, apart from the deal's
    shuffled: bool  # the deck came from the seed (so the seed is shown once the game is over)
    token_hashes: list[str | None]
    match_games: int | None = None  # a match of this many games; None: a single game
    date: str | None = None  # the day it was created (UTC, YYYY-MM-DD): its records' date; None before

    @property
    def is_match(self) -> bool:
        return self.match_games is not None

    def is_human(self, seat: int) -> bool:
        return self.seats[seat] == HUMAN

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": SETUP_FORMAT,
            "rules": self.rules,
            "players": self.players,
            "deck": list(self.deck),
            "first_attacker": self.first_attacker,
            "seats": [seat if isinstance(seat, str) else seat.to_json() for seat in self.seats],
            "seed": self.seed,
            "engine_seed": self.engine_seed,
            "shuffled": self.shuffled,
            "token_hashes": list(self.token_hashes),
        }
        if self.match_games is not None:
            data["match"] = {"games": self.match_games}
        if self.date is not None:
            data["date"] = self.date
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any], where: str = "a stored game") -> GameSetup:
        """A stored set-up (a game stored before it had an engine seed of its own: the deal's)."""
        if data.get("format") != SETUP_FORMAT:
            raise RuntimeError(f"{where}: unknown set-up format {data.get('format')!r}")
        seats: list[Seat] = [
            seat if isinstance(seat, str) else EngineSeat.from_json(seat) for seat in data["seats"]
        ]
        return cls(
            rules=data["rules"],
            players=int(data["players"]),
            deck=list(data["deck"]),
            first_attacker=int(data["first_attacker"]),
            seats=seats,
            seed=int(data["seed"]),
            engine_seed=int(data.get("engine_seed", data["seed"])),
            shuffled=bool(data.get("shuffled", True)),
            token_hashes=list(data["token_hashes"]),
            match_games=int(data["match"]["games"]) if "match" in data else None,
            date=str(data["date"]) if data.get("date") is not None else None,
        )
