"""The solver's error codes: every code has a meaning, and each exception carries its code."""

from __future__ import annotations

import pytest

from solver.game.errors import (
    CardError,
    ErrorCode,
    GameOverError,
    IllegalMoveError,
    MoveError,
    NotYourTurnError,
    PositionError,
    RulesError,
    TanError,
)


@pytest.mark.parametrize("code", list(ErrorCode))
def test_every_code_has_a_meaning(code: ErrorCode) -> None:
    assert code.meaning and code.meaning[0].islower()


def test_the_game_package_knows_no_http() -> None:
    """HTTP statuses and the service's own codes live in `service.errors` (docs/api.md §3)."""
    assert not hasattr(ErrorCode.INVALID_CARD, "status") and not hasattr(ErrorCode, "for_status")
    assert not {"unauthorized", "storage_unavailable", "too_large", "invalid_request"} & set(ErrorCode)


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (TanError, ErrorCode.INVALID_INPUT),
        (CardError, ErrorCode.INVALID_CARD),
        (RulesError, ErrorCode.UNKNOWN_RULES),
        (MoveError, ErrorCode.INVALID_MOVE),
        (IllegalMoveError, ErrorCode.ILLEGAL_MOVE),
        (NotYourTurnError, ErrorCode.NOT_YOUR_TURN),
        (GameOverError, ErrorCode.GAME_OVER),
        (PositionError, ErrorCode.INVALID_POSITION),
    ],
)
def test_each_exception_carries_its_code(error: type[TanError], code: ErrorCode) -> None:
    raised = error("what went wrong")
    assert raised.code is code and raised.message == "what went wrong"
    assert isinstance(raised, ValueError)
    assert error("x", ErrorCode.COUNT_MISMATCH).code is ErrorCode.COUNT_MISMATCH
