"""The solver's error codes, `ErrorCode`, and the exceptions that carry one.

A refusal of input is a `TanError` (a `ValueError`) holding an `ErrorCode`:
what is wrong with cards, positions, moves, rules, records, search limits,
engines or arenas, so the message must name the field or card at fault. This
package knows nothing of HTTP: the service answers every `TanError` as 422
`{"detail": message, "code": code}` and adds its own codes for tokens, unknown
games and capacity (`service.errors`, docs/api.md §3 "Errors"); the `tan`
command prints one line and exits with status 2.
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
    "Refusal",
    "RulesError",
    "TanError",
]


class ErrorCode(enum.StrEnum):
    """A stable, machine-readable reason the solver refuses input; `meaning` says it in a phrase."""

    INVALID_INPUT = "invalid_input"
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

    @property
    def meaning(self) -> str:
        """What the code says, in a phrase (for the API's manual)."""
        return _MEANING[self]


_MEANING: dict[ErrorCode, str] = {
    ErrorCode.INVALID_INPUT: "input that cannot be used (the message says which)",
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
    ErrorCode.BAD_ALGORITHM: "an unknown search algorithm, or a bad search option value",
    ErrorCode.UNKNOWN_ENGINE: "an unknown engine, or an option the engine does not have",
    ErrorCode.BAD_ARENA: "an arena that cannot run as asked (engines, seats, workers, SPRT, results file)",
    ErrorCode.INVALID_RECORD: "a game record that is malformed or whose events cannot have happened",
}


class Refusal(enum.StrEnum):
    """Why the rules refuse a well-formed move (an `IllegalMoveError`'s `reason`): stable, so a page
    can say it in its own words (a game view's `unplayable`, docs/api.md §3); `meaning` in a phrase."""

    GAME_OVER = "game_over"
    NOT_YOUR_TURN = "not_your_turn"
    SETUP = "setup"
    NOT_HELD = "not_held"
    TWOS_LAST = "twos_last"
    MUST_LEAD = "must_lead"
    MUST_ANSWER = "must_answer"
    NO_TARGET = "no_target"
    DOES_NOT_BEAT = "does_not_beat"
    NO_TRANSFER = "no_transfer"
    ALREADY_BEATEN = "already_beaten"
    OTHER_RANK = "other_rank"
    NO_ROOM = "no_room"
    LAST_WORD = "last_word"
    THROW_IN_ONLY = "throw_in_only"
    RANK_NOT_ON_TABLE = "rank_not_on_table"
    ATTACK_LIMIT = "attack_limit"

    @property
    def meaning(self) -> str:
        """What the reason says, in a phrase (for the API's manual)."""
        return _REFUSAL_MEANING[self]


_REFUSAL_MEANING: dict[Refusal, str] = {
    Refusal.GAME_OVER: "the game is over",
    Refusal.NOT_YOUR_TURN: "another seat is to move",
    Refusal.SETUP: "before the first lead only the setup's decisions may be made, and after it none (§1.7)",
    Refusal.NOT_HELD: "the seat does not hold the card",
    Refusal.TWOS_LAST: "đút 2: a 2 is led, thrown in or transferred only from a hand of 2s (§1.8)",
    Refusal.MUST_LEAD: "the table is empty: the seat must lead a card",
    Refusal.MUST_ANSWER: "the defender must beat, take or transfer",
    Refusal.NO_TARGET: "the target is not an unbeaten attack card on the table",
    Refusal.DOES_NOT_BEAT: "the card beats no unbeaten attack card (that takes a higher card of its suit, "
    "or a trump)",
    Refusal.NO_TRANSFER: "transfer is off in these rules",
    Refusal.ALREADY_BEATEN: "no transfer once an attack card is beaten",
    Refusal.OTHER_RANK: "a transfer needs a card of the attack cards' rank",
    Refusal.NO_ROOM: "the next seat holds too few cards to face one more attack card",
    Refusal.LAST_WORD: "every card is beaten: the defender may take the table or pass (let the defence "
    "stand)",
    Refusal.THROW_IN_ONLY: "a thrower may throw in a card or pass",
    Refusal.RANK_NOT_ON_TABLE: "only a card of a rank on the table may be thrown in",
    Refusal.ATTACK_LIMIT: "the bout already holds as many attack cards as allowed",
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
    """A well-formed move that the rules do not allow here; says why, in words and (where the
    readable engine refused it) as a `Refusal`."""

    code = ErrorCode.ILLEGAL_MOVE

    def __init__(self, message: str, code: ErrorCode | None = None, reason: Refusal | None = None) -> None:
        super().__init__(message, code)
        self.reason = reason


class NotYourTurnError(IllegalMoveError):
    """A move (or a hint, or a move list) for a seat that is not to move."""

    code = ErrorCode.NOT_YOUR_TURN


class GameOverError(IllegalMoveError):
    """A move (or a hint) after the game has ended."""

    code = ErrorCode.GAME_OVER


class PositionError(TanError):
    """A position (docs/api.md §2.2) that is malformed or impossible; `code` says which."""

    code = ErrorCode.INVALID_POSITION
