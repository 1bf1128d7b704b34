"""Seat specs: `"greedy"`, `{"engine": "ismcts", "limits": {...}}`, turned into players.

Every player sees only a seat's position (docs/api.md §2.2) and answers a
move, so an engine can never peek at hidden cards. `make_player` reads the
seat specs of docs/api.md §3.
"""

from __future__ import annotations

from typing import Any

from solver.game.errors import ErrorCode, TanError
from solver.players.base import Player
from solver.players.searching import SearchPlayer
from solver.players.simple import GreedyPlayer, RandomPlayer
from solver.search import Limits

__all__ = ["ENGINES", "SEARCH_ENGINES", "make_player"]

SEARCH_ENGINES = ("ismcts", "pimc")
ENGINES = ("ismcts", "pimc", "greedy", "random")


def make_player(spec: str | dict[str, Any] | Player) -> Player:
    """A player from a seat spec: a name, or `{"engine": name, "limits": {...}, ...options}`."""
    if not isinstance(spec, str | dict):
        return spec
    data: dict[str, Any] = {"engine": spec} if isinstance(spec, str) else dict(spec)
    engine = data.pop("engine", None)
    limits = data.pop("limits", None)
    threads = data.pop("threads", 1)
    if engine == "random":
        player: Player = RandomPlayer()
    elif engine == "greedy":
        player = GreedyPlayer()
    elif engine in SEARCH_ENGINES:
        allowed = {
            "exploration", "policy", "noise", "prior", "opponent_policy",
            "pimc_worlds", "exact_cards", "exact_budget", "practical", "setup", "beliefs", "particles",
            "sees_hands", "value", "value_depth", "value_mix", "policy_opponent", "policy_playouts", "policy_prior",
        }
        unknown = sorted(set(data) - allowed)
        if unknown:
            raise TanError(f"engine {engine} has no option(s) {', '.join(unknown)}", ErrorCode.UNKNOWN_ENGINE)
        setup = data.pop("setup", "search")
        sees_hands = data.pop("sees_hands", False)
        if not isinstance(sees_hands, bool):
            raise TanError(f"engine {engine}: sees_hands must be true or false", ErrorCode.UNKNOWN_ENGINE)
        try:
            return SearchPlayer(
                engine,
                Limits.from_json(limits) if limits is not None else Limits(iterations=None, time_ms=100),
                threads,
                data,
                setup,
                sees_hands,
            )
        except TypeError as error:
            raise TanError(f"engine {engine}: {error}", ErrorCode.UNKNOWN_ENGINE) from None
    else:
        raise TanError(
            f"unknown engine {engine!r} (expected one of {', '.join(ENGINES)})",
            ErrorCode.UNKNOWN_ENGINE,
        )
    if data or limits is not None:
        extra = sorted(data) + (["limits"] if limits is not None else [])
        raise TanError(f"engine {engine} takes no options: {', '.join(extra)}", ErrorCode.UNKNOWN_ENGINE)
    return player
