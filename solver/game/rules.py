"""Rule presets and options (docs/rules.md §1.6).

`Rules` is frozen: a game, a position and a search all hold the same value and
nothing can change it under them. `Rules.from_json` accepts what docs/rules.md §1.6
allows in JSON — a preset name, or `{"preset": name, option: value, …}` — and
every refusal is a `RulesError` whose message names the option.

Each option is declared once, as a field of `Rules` (`option(default, meaning, …)`); its type is
the field's. `RULE_OPTIONS` reads those declarations, and everything that lists the options —
`GET /v1/rules`, the OpenAPI, the CLI's help, the web page's side-rule form — reads `RULE_OPTIONS`.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from solver.game.bounds import MAX_SEATS
from solver.game.errors import RulesError

__all__ = [
    "OPTION_DOCS",
    "PRESETS",
    "RULE_OPTIONS",
    "DefenderEmpty",
    "FirstAttacker",
    "RefillOrder",
    "RuleOption",
    "Rules",
    "Throwers",
    "option",
]


class RefillOrder(enum.StrEnum):
    """Who draws first after a bout (docs/rules.md §1.4)."""

    ATTACKER_DEFENDER_OTHERS = "attacker_defender_others"
    ATTACKER_OTHERS_DEFENDER = "attacker_others_defender"


class DefenderEmpty(enum.StrEnum):
    """What happens when the defender's hand empties during a bout (docs/rules.md §1.4)."""

    END_BOUT = "end_bout"
    REFILL = "refill"


class FirstAttacker(enum.StrEnum):
    """Who leads the first bout (docs/rules.md §1.6)."""

    SEAT0 = "seat0"
    LOWEST_TRUMP = "lowest_trump"


class Throwers(enum.StrEnum):
    """Who may throw in (docs/rules.md §1.4, "Throwing in"); finished seats never do."""

    ALL = "all"
    NEIGHBOURS = "neighbours"
    ATTACKER = "attacker"


def option(
    default: Any, meaning: str, *, toggle: Any = None, requires: Mapping[str, Any] | None = None
) -> Any:
    """Declare a `Rules` option once: its default (the `tan` preset's), what it means, and, for a
    side rule a player switches on with one tick (the web page's form), `toggle`: the value the
    tick gives it — for a house rule a player picks from a list (a choice), the tuple of choices
    the form offers; `requires`: the options it needs to mean anything (`twos_last`: a 52-card
    deck). Its type is the field's. `RULE_OPTIONS`, `GET /v1/rules`, the CLI and the page read it."""
    return dataclasses.field(
        default=default, metadata={"meaning": meaning, "toggle": toggle, "requires": dict(requires or {})}
    )


@dataclass(frozen=True)
class Rules:
    """Every option of docs/rules.md §1.6. Build it with `Rules.preset(...)` or `from_json`."""

    preset: str = "tan"
    deck: int = option(52, "cards in the deck: 52 (2-A) or 36 (6-A)")
    hand_size: int = option(8, "cards dealt to each seat and refilled up to after each bout")
    min_players: int = option(2, "fewest seats the preset allows")
    max_players: int = option(4, "most seats the preset allows")
    max_attack: int | None = option(
        None, "most attack cards in one bout (null: only the defender's hand limits it)"
    )
    first_bout_max_attack: int | None = option(
        None, "replaces max_attack until the first successful defence of the game"
    )
    throw_in_after_take: bool = option(
        False, "after the defender takes, the attackers may still throw in cards"
    )
    throwers: Throwers = option(
        Throwers.ALL,
        "who may throw in: all (every seat but the defender), neighbours (the defender's two) or "
        "attacker (the main attacker alone)",
        toggle=tuple(Throwers),
    )
    refill_order: RefillOrder = option(
        RefillOrder.ATTACKER_DEFENDER_OTHERS,
        "who draws first after a bout: attacker_defender_others or attacker_others_defender"
    )
    transfer: bool = option(
        False, "the defender may pass the attack on with a card of the same rank (perevodnoy)"
    )
    defender_empty: DefenderEmpty = option(
        DefenderEmpty.END_BOUT, "a defender whose hand empties mid-bout: end_bout, or refill and go on"
    )
    trump_ace_last_loses: bool = option(
        False, "a seat left holding only the trump ace with an empty stock loses (thối A chủ)"
    )
    first_attacker: FirstAttacker = option(
        FirstAttacker.SEAT0, "who leads the first bout: seat0 or lowest_trump"
    )
    # The seeds' side rules (docs/rules.md §1.7-§1.9), all off in every preset.
    redeal_without_trump: bool = option(
        False, "xả chủ: a seat dealt no trump may show its hand and pick one of two new ones", toggle=True
    )
    tribute: bool = option(
        False,
        "cúng chủ (matches): the last game's loser gives its highest trump to the last game's winner",
        toggle=True
    )
    tribute_inspect: bool | None = option(
        None, "the tribute's receiver sees the giver's hand (null: whenever tribute is on)"
    )
    all_trumps_wins: bool = option(
        False, "thắng trắng: a seat whose hand is all trumps before the first lead wins at once", toggle=True
    )
    trump_swap: bool = option(
        False, "đổi 2 chủ / đổi 6 chủ: the lowest trump's holder may swap it for the trump card", toggle=True
    )
    trump_swap_cedes_lead: bool = option(True, "a seat that swaps does not lead: the seat after it does")
    take_when_beaten: bool = option(
        False, "a defender who beat every card may still take the table once all have passed", toggle=True
    )
    twos_last: bool = option(
        False,
        "đút 2: a 2 may be led, thrown in or transferred only from a hand of 2s (52 cards)",
        toggle=True, requires={"deck": 52}
    )
    trump_repeat_limit: int | None = option(
        None, "thua trắng (matches): the dealer loses when one trump suit comes this many games", toggle=3
    )


    def __post_init__(self) -> None:
        if isinstance(self.deck, bool) or not isinstance(self.deck, int) or self.deck not in (36, 52):
            raise RulesError(f"deck must be 36 or 52, not {self.deck!r}")
        for name in ("hand_size", "min_players", "max_players"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise RulesError(f"{name} must be a positive whole number, not {value!r}")
        if not 2 <= self.min_players <= self.max_players <= MAX_SEATS:
            raise RulesError(
                f"players must lie within 2-{MAX_SEATS}: got {self.min_players}-{self.max_players}"
            )
        for name in ("max_attack", "first_bout_max_attack"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise RulesError(f"{name} must be null or a positive whole number, not {value!r}")
        for name in _FLAGS:
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"{name} must be true or false, not {getattr(self, name)!r}")
        if self.tribute_inspect is not None and not isinstance(self.tribute_inspect, bool):
            raise RulesError(f"tribute_inspect must be true, false or null, not {self.tribute_inspect!r}")
        limit = self.trump_repeat_limit
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 2):
            raise RulesError(f"trump_repeat_limit must be null or a whole number from 2 up, not {limit!r}")
        if self.twos_last and self.deck != 52:
            raise RulesError("twos_last needs a deck with 2s: it is played with 52 cards, not 36")
        if self.hand_size * self.min_players > self.deck:
            raise RulesError(
                f"{self.min_players} hands of {self.hand_size} cards do not fit a {self.deck}-card deck"
            )

    # -- construction ------------------------------------------------------------------

    @classmethod
    def preset_named(cls, name: str, **overrides: Any) -> Rules:
        """A preset, with options replaced by `overrides` (names as in docs/rules.md §1.6)."""
        if not isinstance(name, str) or name not in PRESETS:
            raise RulesError(f"unknown rules preset {name!r} (expected one of {', '.join(PRESETS)})")
        return PRESETS[name].with_options(**overrides)

    def with_options(self, **overrides: Any) -> Rules:
        """A copy with some options changed; unknown names and bad values are refused."""
        if not overrides:
            return self
        known = {field.name for field in dataclasses.fields(self)} - {"preset"}
        changes: dict[str, Any] = {}
        for name, value in overrides.items():
            if name == "players":
                raise RulesError("players is not a rules option: give it beside rules")
            if name not in known:
                raise RulesError(f"unknown rules option {name!r}")
            changes[name] = _coerce(name, value)
        return dataclasses.replace(self, **changes)

    @classmethod
    def from_json(cls, data: Any) -> Rules:
        """docs/rules.md §1.6: a preset name or `{"preset": name, option: value, …}`."""
        if isinstance(data, Rules):
            return data
        if isinstance(data, str):
            return cls.preset_named(data)
        if isinstance(data, dict):
            options = dict(data)
            name = options.pop("preset", "tan")
            return cls.preset_named(name, **options)
        raise RulesError(f"rules must be a preset name or an object, not {data!r}")

    def to_json(self) -> dict[str, Any]:
        """The full option set, with the preset it started from; `from_json` reads it back."""
        out: dict[str, Any] = {}
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            out[field.name] = value.value if isinstance(value, enum.Enum) else value
        return out

    # -- questions ---------------------------------------------------------------------

    def check_players(self, players: int) -> None:
        """Refuse a seat count outside the preset's range or too large for the deck."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise RulesError(f"players must be a whole number, not {players!r}")
        if not self.min_players <= players <= self.max_players:
            raise RulesError(
                f"{self.preset} is played by {self.min_players}-{self.max_players} players, not {players}"
            )
        if players * self.hand_size > self.deck:
            raise RulesError(
                f"{players} hands of {self.hand_size} cards do not fit a {self.deck}-card deck"
            )

    @property
    def inspects_tribute(self) -> bool:
        """Whether the tribute's receiver sees the giver's hand (`tribute_inspect`, by default `tribute`)."""
        return self.tribute if self.tribute_inspect is None else self.tribute and self.tribute_inspect

    @property
    def has_setup(self) -> bool:
        """Whether a game has a setup phase before the first lead (docs/rules.md §1.7)."""
        return self.redeal_without_trump or self.tribute or self.all_trumps_wins or self.trump_swap

    def attack_cap(self, defended_once: bool) -> int | None:
        """The `max_attack` in force: `first_bout_max_attack` until a defence (docs/rules.md §1.4)."""
        if not defended_once and self.first_bout_max_attack is not None:
            return self.first_bout_max_attack
        return self.max_attack


@dataclass(frozen=True)
class RuleOption:
    """One option of docs/rules.md §1.6 as every face lists it: its JSON `type` (integer, integer
    or null, boolean, boolean or null, or choice with its `choices`), its `default` as JSON (the
    `tan` preset's), its meaning, and for a side rule the form offers the `toggle` value (a
    list of choices for a house rule picked from a list) and what it `requires` (see `option`)."""

    name: str
    type: str
    default: Any
    meaning: str
    choices: tuple[str, ...] | None = None
    toggle: Any = None
    requires: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The option as `GET /v1/rules` lists it."""
        return {
            "name": self.name,
            "description": self.meaning,
            "type": self.type,
            "choices": list(self.choices) if self.choices is not None else None,
            "default": self.default,
            "toggle": self.toggle,
            "requires": dict(self.requires),
        }


def _json(value: Any) -> Any:
    """An option's value as JSON: an enum's member by its value."""
    return value.value if isinstance(value, enum.Enum) else value


def _declared(rules_field: dataclasses.Field[Any], hint: Any) -> RuleOption:
    """The `RuleOption` a field of `Rules` declares, its type read from the field's annotation."""
    args = typing.get_args(hint) if isinstance(hint, types.UnionType) else ()
    choices: tuple[str, ...] | None = None
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        kind, choices = "choice", tuple(member.value for member in hint)
    elif hint is bool:
        kind = "boolean"
    elif bool in args and type(None) in args:
        kind = "boolean or null"
    elif int in args and type(None) in args:
        kind = "integer or null"
    else:
        kind = "integer"
    default = rules_field.default
    toggle = rules_field.metadata["toggle"]
    return RuleOption(
        name=rules_field.name,
        type=kind,
        default=_json(default),
        meaning=rules_field.metadata["meaning"],
        choices=choices,
        toggle=[_json(value) for value in toggle] if isinstance(toggle, tuple) else toggle,
        requires=rules_field.metadata["requires"],
    )


_HINTS = typing.get_type_hints(Rules)
_FIELDS = [rules_field for rules_field in dataclasses.fields(Rules) if rules_field.name != "preset"]

RULE_OPTIONS: dict[str, RuleOption] = {
    rules_field.name: _declared(rules_field, _HINTS[rules_field.name]) for rules_field in _FIELDS
}
"""Every rules option, in declaration order: what `GET /v1/rules`, the CLI's help and the web
page's side-rule form list."""

OPTION_DOCS: dict[str, str] = {name: declared.meaning for name, declared in RULE_OPTIONS.items()}

_FLAGS = tuple(name for name, declared in RULE_OPTIONS.items() if declared.type == "boolean")
_ENUMS: dict[str, type[enum.Enum]] = {
    name: _HINTS[name] for name, declared in RULE_OPTIONS.items() if declared.type == "choice"
}


def _coerce(name: str, value: Any) -> Any:
    if name in _ENUMS:
        try:
            return _ENUMS[name](value)
        except ValueError:
            allowed = ", ".join(member.value for member in _ENUMS[name])
            raise RulesError(f"{name} must be one of {allowed}, not {value!r}") from None
    return value


_DURAK = Rules(
    preset="durak",
    deck=36,
    hand_size=6,
    min_players=2,
    max_players=6,
    max_attack=6,
    throw_in_after_take=True,
    refill_order=RefillOrder.ATTACKER_OTHERS_DEFENDER,
    first_attacker=FirstAttacker.LOWEST_TRUMP,
    trump_swap_cedes_lead=False,
)

PRESETS: dict[str, Rules] = {
    "tan": Rules(),
    "durak": _DURAK,
    "perevodnoy": dataclasses.replace(_DURAK, preset="perevodnoy", transfer=True),  # Durak with transfers
}

