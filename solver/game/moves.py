"""Moves: the five actions of a bout and the four of the setup, as JSON and as text (docs/api.md §2.1).

A `Move` is a small immutable value. `Move.parse` accepts the JSON object, the
text notation (`attack 7c`, `defend 7c with 9c`, `take`, `pass`, `transfer 7h`,
and before the first lead `redeal`, `keep`, `pick 0`, `swap`) or a `Move`, so
every entry point — CLI, HTTP, Python — reads moves the same way.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from solver.game.cards import Card
from solver.game.errors import MoveError

__all__ = ["SETUP_ACTIONS", "Action", "Move"]


class Action(enum.StrEnum):
    """What a seat does. `attack` covers both the lead and a throw-in."""

    ATTACK = "attack"
    DEFEND = "defend"
    TAKE = "take"
    PASS = "pass"
    TRANSFER = "transfer"
    # The setup (docs/rules.md §1.7).
    REDEAL = "redeal"
    KEEP = "keep"
    PICK = "pick"
    SWAP = "swap"


_NEEDS_CARD = {Action.ATTACK, Action.DEFEND, Action.TRANSFER}
_BARE = {Action.TAKE, Action.PASS, Action.REDEAL, Action.KEEP, Action.SWAP}
SETUP_ACTIONS = frozenset({Action.REDEAL, Action.KEEP, Action.PICK, Action.SWAP})


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """One move. `card` for attack/defend/transfer; `target` (the attack card) for defend;
    `choice` (0 or 1: which of the two new hands) for pick."""

    action: Action
    card: Card | None = None
    target: Card | None = None
    choice: int | None = None

    def __post_init__(self) -> None:
        # Loose fields (`Move("attack", "7♣")`) are read once here, so a `Move` always
        # holds an `Action` and `Card`s whatever built it.
        if not isinstance(self.action, Action):
            object.__setattr__(self, "action", _action(self.action))
        if self.card is not None and not isinstance(self.card, Card):
            object.__setattr__(self, "card", Card.parse(self.card))
        if self.target is not None and not isinstance(self.target, Card):
            object.__setattr__(self, "target", Card.parse(self.target))
        if (self.card is not None) != (self.action in _NEEDS_CARD):
            raise MoveError(f"{self.action.value} {'needs' if self.card is None else 'takes no'} card")
        if (self.target is not None) != (self.action is Action.DEFEND):
            raise MoveError(f"{self.action.value} {'needs' if self.target is None else 'takes no'} target")
        if self.action is Action.PICK:
            if isinstance(self.choice, bool) or self.choice not in (0, 1):
                raise MoveError(f"pick needs a set, 0 or 1, not {self.choice!r}")
        elif self.choice is not None:
            raise MoveError(f"{self.action.value} takes no set")

    # -- constructors -----------------------------------------------------------------

    @classmethod
    def attack(cls, card: Card | str) -> Move:
        return cls(Action.ATTACK, Card.parse(card))

    @classmethod
    def defend(cls, target: Card | str, card: Card | str) -> Move:
        return cls(Action.DEFEND, Card.parse(card), Card.parse(target))

    @classmethod
    def take(cls) -> Move:
        return cls(Action.TAKE)

    @classmethod
    def pass_(cls) -> Move:
        return cls(Action.PASS)

    @classmethod
    def redeal(cls) -> Move:
        return cls(Action.REDEAL)

    @classmethod
    def keep(cls) -> Move:
        return cls(Action.KEEP)

    @classmethod
    def pick(cls, choice: int) -> Move:
        return cls(Action.PICK, choice=choice)

    @classmethod
    def swap(cls) -> Move:
        return cls(Action.SWAP)

    @classmethod
    def transfer(cls, card: Card | str) -> Move:
        return cls(Action.TRANSFER, Card.parse(card))

    @classmethod
    def parse(cls, data: Any) -> Move:
        """A move from JSON, from text notation, or a `Move` itself."""
        if isinstance(data, Move):
            return data
        if isinstance(data, str):
            return cls.from_text(data)
        if isinstance(data, dict):
            return cls.from_json(data)
        raise MoveError(f"not a move: {data!r} (expected an object or text such as 'attack 7c')")

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Move:
        """docs/api.md §2.1 JSON: `{"action": "defend", "card": "9c", "target": "7c"}`.

        Absent and null fields are the same; a card or target that the action does
        not take is refused rather than dropped, since the sender meant something else.
        """
        if not isinstance(data, dict):
            raise MoveError(f"not a move: {data!r} (expected an object such as {{\"action\": \"take\"}})")
        if "action" not in data:
            raise MoveError(f"not a move: {data!r} (no action)")
        action = _action(data["action"])
        extra = set(data) - {"action", "card", "target", "set"}
        if extra:
            raise MoveError(f"unknown field(s) in move: {', '.join(sorted(map(str, extra)))}")
        card = data.get("card")
        target = data.get("target")
        if action in _NEEDS_CARD and card is None:
            raise MoveError(f"{action.value} needs a card")
        if action not in _NEEDS_CARD and card is not None:
            raise MoveError(f"{action.value} takes no card, got {card!r}")
        if action is Action.DEFEND and target is None:
            raise MoveError("defend needs a target (the attack card it beats)")
        if action is not Action.DEFEND and target is not None:
            raise MoveError(f"{action.value} takes no target, got {target!r}")
        choice = data.get("set")
        if action is Action.PICK and choice is None:
            raise MoveError("pick needs a set, 0 or 1")
        if action is not Action.PICK and choice is not None:
            raise MoveError(f"{action.value} takes no set, got {choice!r}")
        return cls(
            action,
            Card.parse(card) if card is not None else None,
            Card.parse(target) if target is not None else None,
            choice,
        )

    @classmethod
    def from_text(cls, text: str) -> Move:
        """Text notation: `attack 7c`, `defend 7c with 9c`, `take`, `pass`, `transfer 7h`,
        `redeal`, `keep`, `pick 0`, `swap`."""
        words = text.split()
        if not words:
            raise MoveError("empty move text")
        action = _action(words[0].lower())
        rest = words[1:]
        if action in _BARE and not rest:
            return cls(action)
        if action is Action.PICK and len(rest) == 1 and rest[0] in ("0", "1"):
            return cls(action, choice=int(rest[0]))
        if action in (Action.ATTACK, Action.TRANSFER) and len(rest) == 1:
            return cls(action, Card.parse(rest[0]))
        if action is Action.DEFEND and len(rest) == 3 and rest[1].lower() == "with":
            return cls(action, Card.parse(rest[2]), Card.parse(rest[0]))
        raise MoveError(
            f"not a move: {text!r} "
            "(expected 'attack 7c', 'defend 7c with 9c', 'take', 'pass', 'transfer 7h', "
            "'redeal', 'keep', 'pick 0', 'pick 1' or 'swap')"
        )

    # -- output -----------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"action": self.action.value}
        if self.card is not None:
            out["card"] = str(self.card)
        if self.target is not None:
            out["target"] = str(self.target)
        if self.choice is not None:
            out["set"] = self.choice
        return out

    @property
    def is_setup(self) -> bool:
        """A move of the setup phase (docs/rules.md §1.7)."""
        return self.action in SETUP_ACTIONS

    @property
    def notation(self) -> str:
        if self.action is Action.DEFEND:
            return f"defend {self.target} with {self.card}"
        if self.action is Action.PICK:
            return f"pick {self.choice}"
        if self.card is not None:
            return f"{self.action.value} {self.card}"
        return self.action.value

    def __str__(self) -> str:
        return self.notation

    def __repr__(self) -> str:
        return f"Move.parse({self.notation!r})"


def _action(value: Any) -> Action:
    try:
        return Action(value)
    except ValueError:
        allowed = ", ".join(action.value for action in Action)
        raise MoveError(f"unknown action {value!r} (expected one of {allowed})") from None
