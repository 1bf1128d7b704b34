"""The error catalogue: every code has a status and a meaning, and the docs list them all."""

from __future__ import annotations

import re
from pathlib import Path

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

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("code", list(ErrorCode))
def test_every_code_has_a_status_and_a_meaning(code: ErrorCode) -> None:
    assert 400 <= code.status < 600
    assert code.meaning and code.meaning[0].islower()


def test_every_code_is_in_the_api_docs_with_its_status() -> None:
    docs = (ROOT / "docs" / "api.md").read_text()
    rows = dict(re.findall(r"^\| `([a-z_]+)` \| (\d{3}|the error's)", docs, re.M))
    assert set(rows) == {code.value for code in ErrorCode}
    for code in ErrorCode:
        if rows[code.value].isdigit():
            assert int(rows[code.value]) == code.status, code


def test_every_code_is_in_the_readme() -> None:
    readme = (ROOT / "README.md").read_text()
    missing = [code.value for code in ErrorCode if f"`{code.value}`" not in readme]
    assert not missing


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


def test_a_bare_http_status_maps_to_a_code() -> None:
    assert ErrorCode.for_status(404) is ErrorCode.NOT_FOUND
    assert ErrorCode.for_status(403) is ErrorCode.FORBIDDEN
    assert ErrorCode.for_status(422) is ErrorCode.INVALID_REQUEST
    assert ErrorCode.for_status(418) is ErrorCode.HTTP_ERROR
