"""Every error Tấn answers, in one catalogue: `ErrorCode`, and the exceptions that carry one.

A refusal of input is a `TanError` (a `ValueError`) holding an `ErrorCode`;
the service answers it as 422 `{"detail": message, "code": code}`, the `tan`
command as one line and exit status 2, so the message must name the field or
card at fault. The service's own refusals (tokens, unknown games, capacity)
use the same catalogue with their HTTP status (docs/api.md §3, "Errors").
"""

from __future__ import annotations

import enum

__all__ = [
    "CardError",
    "ErrorCode",
    "GameOverError",
    "IllegalMoveError",
    "MoveError",
    "NotYourTurnError",
    "PositionError",
    "RulesError",
    "TanError",
]


class ErrorCode(enum.StrEnum):
    """A stable, machine-readable reason; `status` is the HTTP status the service answers with."""

    # Input the solver refuses (422).
    INVALID_INPUT = "invalid_input"
    INVALID_REQUEST = "invalid_request"
    INVALID_CARD = "invalid_card"
    DUPLICATE_CARD = "duplicate_card"
    CARD_NOT_IN_DECK = "card_not_in_deck"
    COUNT_MISMATCH = "count_mismatch"
    INCONSISTENT_TURN = "inconsistent_turn"
    INVALID_POSITION = "invalid_position"
    INVALID_SEAT = "invalid_seat"
    BAD_PLAYERS = "bad_players"
    UNKNOWN_RULES = "unknown_rules"
    INVALID_MOVE = "invalid_move"
    ILLEGAL_MOVE = "illegal_move"
    NOT_YOUR_TURN = "not_your_turn"
    GAME_OVER = "game_over"
    BAD_LIMITS = "bad_limits"
    BAD_ALGORITHM = "bad_algorithm"
    UNKNOWN_ENGINE = "unknown_engine"
    BAD_ARENA = "bad_arena"
    INVALID_RECORD = "invalid_record"
    # The service's own answers.
    BAD_REQUEST = "bad_request"
    UNAUTHORIZED = "unauthorized"
    FORBIDDEN = "forbidden"
    ENGINE_SEAT = "engine_seat"
    NOT_FOUND = "not_found"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    NOT_ACCEPTABLE = "not_acceptable"
    CONFLICT = "conflict"
    GAME_NOT_OVER = "game_not_over"
    GAME_MOVED_ON = "game_moved_on"
    REQUEST_TIMEOUT = "request_timeout"
    TOO_LARGE = "too_large"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    TOO_MANY_REQUESTS = "too_many_requests"
    INTERNAL = "internal"
    BUSY = "busy"
    STORAGE_UNAVAILABLE = "storage_unavailable"
    HTTP_ERROR = "http_error"

    @property
    def status(self) -> int:
        """The HTTP status of an answer with this code."""
        return _STATUS.get(self, 422)

    @property
    def meaning(self) -> str:
        """What the code says, in a phrase (for the README and the API's manual)."""
        return _MEANING[self]

    @classmethod
    def for_status(cls, status: int) -> ErrorCode:
        """The code of a bare HTTP error with this status (an unknown path, a wrong method…)."""
        for code, code_status in _STATUS.items():
            if code_status == status and code not in (cls.ENGINE_SEAT, cls.GAME_NOT_OVER,
                                                      cls.GAME_MOVED_ON, cls.STORAGE_UNAVAILABLE):
                return code
        return cls.INVALID_REQUEST if status == 422 else cls.HTTP_ERROR


_STATUS: dict[ErrorCode, int] = {
    ErrorCode.BAD_REQUEST: 400,
    ErrorCode.UNAUTHORIZED: 401,
    ErrorCode.FORBIDDEN: 403,
    ErrorCode.ENGINE_SEAT: 403,
    ErrorCode.NOT_FOUND: 404,
    ErrorCode.METHOD_NOT_ALLOWED: 405,
    ErrorCode.NOT_ACCEPTABLE: 406,
    ErrorCode.CONFLICT: 409,
    ErrorCode.GAME_NOT_OVER: 409,
    ErrorCode.GAME_MOVED_ON: 409,
    ErrorCode.REQUEST_TIMEOUT: 408,
    ErrorCode.TOO_LARGE: 413,
    ErrorCode.UNSUPPORTED_MEDIA_TYPE: 415,
    ErrorCode.TOO_MANY_REQUESTS: 429,
    ErrorCode.INTERNAL: 500,
    ErrorCode.BUSY: 503,
    ErrorCode.STORAGE_UNAVAILABLE: 503,
    ErrorCode.HTTP_ERROR: 400,
}

_MEANING: dict[ErrorCode, str] = {
    ErrorCode.INVALID_INPUT: "input that cannot be used (the message says which)",
    ErrorCode.INVALID_REQUEST: "a request body or query that does not have the documented shape",
    ErrorCode.INVALID_CARD: "text that is not a card",
    ErrorCode.DUPLICATE_CARD: "a card shown in two places",
    ErrorCode.CARD_NOT_IN_DECK: "a card the rules' deck does not have (2c in 36 cards)",
    ErrorCode.COUNT_MISMATCH: "counts that do not add up (hands, stock, table, discard against the deck)",
    ErrorCode.INCONSISTENT_TURN: "turn fields that contradict each other or the table",
    ErrorCode.INVALID_POSITION: "a missing, mistyped or unknown field, or a table no play could build",
    ErrorCode.INVALID_SEAT: "a seat number outside the game",
    ErrorCode.BAD_PLAYERS: "a seat count the rules do not allow",
    ErrorCode.UNKNOWN_RULES: "an unknown preset or rules option, or a bad option value",
    ErrorCode.INVALID_MOVE: "text or JSON that is not a move",
    ErrorCode.ILLEGAL_MOVE: "a move the rules do not allow here (the message says why)",
    ErrorCode.NOT_YOUR_TURN: "a move, hint or move list for a seat that is not to move",
    ErrorCode.GAME_OVER: "a move or hint after the game has ended",
    ErrorCode.BAD_LIMITS: "search limits that are not positive numbers, or unknown limit fields",
    ErrorCode.BAD_ALGORITHM: "an unknown search algorithm or playout policy",
    ErrorCode.UNKNOWN_ENGINE: "an unknown engine, or an option the engine does not have",
    ErrorCode.BAD_ARENA: "an arena that cannot run as asked (engines, seats, workers, SPRT, results file)",
    ErrorCode.INVALID_RECORD: "a game record that is malformed or whose events cannot have happened",
    ErrorCode.BAD_REQUEST: "a request the server cannot read",
    ErrorCode.UNAUTHORIZED: "no bearer token for a seat that needs one",
    ErrorCode.FORBIDDEN: "a wrong token for this seat",
    ErrorCode.ENGINE_SEAT: "a seat played by an engine: nobody may act or look for it",
    ErrorCode.NOT_FOUND: "no game with this id, or no such path",
    ErrorCode.METHOD_NOT_ALLOWED: "a method the path does not take",
    ErrorCode.NOT_ACCEPTABLE: "an answer format the server cannot give",
    ErrorCode.CONFLICT: "the game kept changing while this move was played; retry",
    ErrorCode.GAME_NOT_OVER: "a review of a stored game that is still being played",
    ErrorCode.GAME_MOVED_ON: "a move whose expected_ply is not the length of the seat's history: the "
    "game moved on since the move was chosen (an earlier try may have been stored); read it again",
    ErrorCode.REQUEST_TIMEOUT: "a request whose headers or body came too slowly; the connection is closed",
    ErrorCode.TOO_LARGE: "a request body over the size limit",
    ErrorCode.UNSUPPORTED_MEDIA_TYPE: "a body that is not JSON",
    ErrorCode.TOO_MANY_REQUESTS: "too many at once: this client's games being played, or requests at "
    "work on one game",
    ErrorCode.INTERNAL: "a bug in the server (logged); the request changed nothing it should not",
    ErrorCode.BUSY: "every search slot is busy and the queue full, or no slot came free in time; retry "
    "after the Retry-After header's seconds",
    ErrorCode.STORAGE_UNAVAILABLE: "the game store cannot be read or written now (a full or read-only "
    "disk, a locked or missing file); nothing was changed; retry after the Retry-After header's seconds",
    ErrorCode.HTTP_ERROR: "another HTTP error",
}


class TanError(ValueError):
    """Base of every input error; `code` is the stable machine-readable reason."""

    code: ErrorCode = ErrorCode.INVALID_INPUT

    def __init__(self, message: str, code: ErrorCode | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = ErrorCode(code)

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""


class CardError(TanError):
    """Text that is not a card; the message quotes the text."""

    code = ErrorCode.INVALID_CARD


class RulesError(TanError):
    """An unknown preset or option, or options that cannot be played together."""

    code = ErrorCode.UNKNOWN_RULES


class MoveError(TanError):
    """Text or JSON that is not a move at all."""

    code = ErrorCode.INVALID_MOVE


class IllegalMoveError(TanError):
    """A well-formed move that the rules do not allow here; says why."""

    code = ErrorCode.ILLEGAL_MOVE


class NotYourTurnError(IllegalMoveError):
    """A move (or a hint, or a move list) for a seat that is not to move."""

    code = ErrorCode.NOT_YOUR_TURN


class GameOverError(IllegalMoveError):
    """A move (or a hint) after the game has ended."""

    code = ErrorCode.GAME_OVER


class PositionError(TanError):
    """A position (docs/api.md §2.2) that is malformed or impossible; `code` says which."""

    code = ErrorCode.INVALID_POSITION
