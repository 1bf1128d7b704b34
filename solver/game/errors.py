"""The error hierarchy: every refusal is a `ValueError` with a stable `code`.

The codes are SPEC §3's; the service turns any `TanError` into a 422 answer
`{"detail": message, "code": code}`, so the message must name the field or
card at fault.
"""

from __future__ import annotations

__all__ = [
    "CardError",
    "GameOverError",
    "IllegalMoveError",
    "MoveError",
    "NotYourTurnError",
    "PositionError",
    "RulesError",
    "TanError",
]


class TanError(ValueError):
    """Base of every input error; `code` is the stable machine-readable reason."""

    code = "invalid_input"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""


class CardError(TanError):
    """Text that is not a card; the message quotes the text."""

    code = "invalid_card"


class RulesError(TanError):
    """An unknown preset or option, or options that cannot be played together."""

    code = "unknown_rules"


class MoveError(TanError):
    """Text or JSON that is not a move at all."""

    code = "invalid_move"


class IllegalMoveError(TanError):
    """A well-formed move that the rules do not allow here; says why."""

    code = "illegal_move"


class NotYourTurnError(IllegalMoveError):
    """A move by a seat that is not to move."""

    code = "not_your_turn"


class GameOverError(IllegalMoveError):
    """A move after the game has ended."""

    code = "game_over"


class PositionError(TanError):
    """A SPEC §2.2 position that is malformed or impossible; `code` says which."""

    code = "invalid_position"
