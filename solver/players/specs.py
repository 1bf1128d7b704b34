"""The engines, declared once, and seat specs (`"greedy"`, `{"engine": "ismcts", "limits": {...}}`)
turned into players.

Every player sees only a seat's position (docs/api.md §2.2) and answers a
move, so an engine can never peek at hidden cards. `make_player` reads the
seat specs of docs/api.md §3. `ENGINES` is the one list of engines: the
service's schemas, `GET /v1/rules`, the CLI's help and the web page's form are
built from it, so a new engine is one entry here (and its words on the page).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from solver.game.errors import ErrorCode, TanError
from solver.players.base import Player
from solver.players.searching import SearchPlayer
from solver.players.simple import GreedyPlayer, RandomPlayer
from solver.search import Limits
from solver.search.config import OPTIONS, PRESETS

__all__ = ["ENGINES", "Engine", "make_player", "search_options", "searches", "searching", "simple"]

_PLAYER_FIELDS = ("setup", "sees_hands")
"""`SearchPlayer` fields a seat spec may give beside the search options."""


def search_options(engine: str = "ismcts") -> dict[str, Any]:
    """The options of a search seat with the engine's defaults: the public options of its
    `SearchConfig` (`solver.search.config.OPTIONS`, so a new search option is a seat option at
    once), then `SearchPlayer`'s `setup` and `sees_hands`."""
    options = PRESETS[engine].config.options()
    defaults = {player_field.name: player_field.default for player_field in dataclasses.fields(SearchPlayer)}
    options.update((name, defaults[name]) for name in _PLAYER_FIELDS)
    return options


SEARCH_LIMITS = Limits(iterations=None, time_ms=100)
"""A search seat's limits per move when its spec gives none."""


@dataclass(frozen=True)
class Engine:
    """An engine a seat may be: its `name`, what it is, how to `build` its player from the rest of
    a seat spec, whether it `searches` (takes `limits` per move, `threads` and `options`), its
    `limits` when the spec gives none, and `label`: the key of its name in the web page's words
    (`service/static/words.js`; the page shows `meaning` where that has no entry)."""

    name: str
    meaning: str
    build: Callable[[dict[str, Any]], Player]
    searches: bool = False
    limits: Limits | None = None
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return f"engine_{self.name}"

    def to_json(self) -> dict[str, Any]:
        """The engine as `GET /v1/rules` lists it."""
        return {
            "name": self.name,
            "description": self.meaning,
            "label": self.label,
            "searches": self.searches,
            "limits": self.limits.to_json() if self.limits is not None else None,
            "options": dict(self.options),
        }


def simple(player: Callable[[], Player]) -> Callable[[dict[str, Any]], Player]:
    """The builder of an engine that takes no options."""

    def build(data: dict[str, Any]) -> Player:
        made = player()
        limits = data.pop("limits", None)
        data.pop("threads", None)
        if data or limits is not None:
            extra = sorted(data) + (["limits"] if limits is not None else [])
            raise TanError(
                f"engine {made.name} takes no options: {', '.join(extra)}", ErrorCode.UNKNOWN_ENGINE
            )
        return made

    return build


def searching(name: str) -> Callable[[dict[str, Any]], Player]:
    """The builder of the search engine `name` (`SearchPlayer` over `Solver` with the preset of that
    name, `solver.search.config.PRESETS`, and the seat spec's options over it)."""

    def build(data: dict[str, Any]) -> Player:
        data = dict(data)
        limits = data.pop("limits", None)
        threads = data.pop("threads", 1)
        unknown = sorted(set(data) - set(OPTIONS) - set(_PLAYER_FIELDS))
        if unknown:
            raise TanError(
                f"engine {name} has no option(s) {', '.join(unknown)} "
                f"(known: {', '.join([*OPTIONS, *_PLAYER_FIELDS])})", ErrorCode.UNKNOWN_ENGINE
            )
        setup = data.pop("setup", "search")
        sees_hands = data.pop("sees_hands", False)
        if not isinstance(sees_hands, bool):
            raise TanError(f"engine {name}: sees_hands must be true or false", ErrorCode.UNKNOWN_ENGINE)
        try:
            return SearchPlayer(
                name,
                Limits.from_json(limits) if limits is not None else SEARCH_LIMITS,
                threads,
                data,
                setup,
                sees_hands,
            )
        except TanError as error:
            raise TanError(f"engine {name}: {error}", error.code) from None

    return build


ENGINES: dict[str, Engine] = {
    **{
        name: Engine(name, preset.meaning, searching(name), searches=True, limits=SEARCH_LIMITS,
                     options=search_options(name))
        for name, preset in PRESETS.items()
    },
    "greedy": Engine("greedy", "the search's greedy policy: no look-ahead", simple(GreedyPlayer)),
    "random": Engine("random", "uniformly random legal moves", simple(RandomPlayer)),
}
"""Every engine a seat may be, by name, in the order the faces list them."""


def searches(name: Any) -> bool:
    """Whether `name` is an engine that searches (takes limits per move)."""
    engine = ENGINES.get(name) if isinstance(name, str) else None
    return engine is not None and engine.searches


def make_player(spec: str | dict[str, Any] | Player) -> Player:
    """A player from a seat spec: a name, or `{"engine": name, "limits": {...}, ...options}`."""
    if not isinstance(spec, str | dict):
        return spec
    data: dict[str, Any] = {"engine": spec} if isinstance(spec, str) else dict(spec)
    name = data.pop("engine", None)
    engine = ENGINES.get(name) if isinstance(name, str) else None
    if engine is None:
        raise TanError(
            f"unknown engine {name!r} (expected one of {', '.join(ENGINES)})",
            ErrorCode.UNKNOWN_ENGINE,
        )
    return engine.build(data)
