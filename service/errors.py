"""Every error answer is `{"detail": "...", "code": "..."}` (docs/api.md §3).

- `TanError` from the solver (bad cards, positions, moves, rules, limits) → 422
  with its stable code; the message names the field or card.
- FastAPI's request validation → 422 with code `invalid_request` and a readable
  `detail` naming each field at fault.
- `ApiError` (tokens, unknown games, capacity) → its own status and code.
- `StorageUnavailableError` (SQLite could not read or write: a full or read-only
  disk, a locked file) → 503 `storage_unavailable` with `Retry-After`, logged.
- Starlette's `HTTPException` (unknown path, wrong method) → its status, a code.
- Anything else is a bug: logged, then 500 with code `internal`.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from service.store import StorageUnavailableError
from solver.game.errors import ErrorCode, TanError

__all__ = [
    "ApiError",
    "ErrorResponse",
    "error_responses",
    "install_error_handlers",
    "readable_validation_errors",
]

log = logging.getLogger("service")

class ErrorResponse(BaseModel):
    """The shape of every error answer (docs/api.md §3)."""

    detail: str = Field(description="what is wrong, naming the field or card at fault")
    code: ErrorCode = Field(description="a stable machine-readable reason: " + "; ".join(
        f"`{code.value}` ({code.status}): {code.meaning}" for code in ErrorCode
    ))

    model_config = {
        "json_schema_extra": {
            "examples": [{"detail": "hand[2]: not a card: 'Zz'", "code": ErrorCode.INVALID_CARD.value}]
        }
    }


_DESCRIPTIONS = {
    401: "no bearer token for a seat that needs one (answered before the game is looked up)",
    403: "a wrong token for this seat, or a seat that is not yours",
    404: "no game with this id (asked with a token)",
    409: "`conflict`: the game kept changing while this move was played, retry; "
    "`game_moved_on`: the game is past the move's `expected_ply`, read it again; "
    "`game_not_over`: a review of a game still being played",
    413: "the request body is too large",
    429: "`too_many_requests`: this client already has as many games being played as it may, or "
    "as many requests are at work on this game as may be, or as many searches running or waiting "
    "as may be (Retry-After)",
    422: "invalid input: see `code` ("
    + ", ".join(code.value for code in ErrorCode if code.status == 422)
    + ")",
    503: "`busy`: every search slot is busy and the queue full (or no slot came free in time); "
    "`storage_unavailable`: the game store cannot be read or "
    "written now; retry after the Retry-After header's seconds",
}


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI `responses` entries for these error statuses, all with `ErrorResponse`."""
    return {status: {"model": ErrorResponse, "description": _DESCRIPTIONS[status]} for status in statuses}


class ApiError(Exception):
    """An answer other than 422-from-the-solver: a code of the catalogue (its status), message, headers."""

    def __init__(self, code: ErrorCode, detail: str, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(detail)
        self.code = code
        self.status = code.status
        self.detail = detail
        self.headers = dict(headers or {})


def _answer(
    status: int, detail: str, code: ErrorCode, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    body = {"detail": detail, "code": code.value}
    return JSONResponse(body, status_code=status, headers=dict(headers or {}))


def _location(loc: Sequence[Any]) -> str:
    """`("body", "position", "hand", 2)` → `position.hand[2]`."""
    parts: list[str] = []
    for item in loc:
        if isinstance(item, int):
            parts.append(f"[{item}]")
        elif parts or item not in ("body",):
            parts.append(("." if parts else "") + str(item))
    return "".join(parts) or "body"


def readable_validation_errors(errors: Sequence[Mapping[str, Any]]) -> str:
    """Pydantic's error list as one line a person can read: `field: message; …`."""
    lines: list[str] = []
    for error in errors:
        kind = error.get("type", "")
        loc = _location(error.get("loc", ()))
        if kind == "json_invalid":
            reason = (error.get("ctx") or {}).get("error", "invalid JSON")
            lines.append(f"the request body is not valid JSON: {reason}")
        elif loc == "body" and kind in ("missing", "model_attributes_type", "dict_type"):
            lines.append("the request body must be a JSON object (Content-Type: application/json)")
        else:
            lines.append(f"{loc}: {error.get('msg', 'invalid')}")
    # Unions report each alternative; the same line twice says nothing new.
    return "; ".join(dict.fromkeys(lines)) or "invalid request"


def install_error_handlers(app: FastAPI) -> None:
    """Render every error as docs/api.md §3's `{"detail", "code"}`."""

    @app.exception_handler(TanError)
    async def _tan_error(request: Request, error: TanError) -> JSONResponse:
        return _answer(error.code.status, error.message, error.code)

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, error: ApiError) -> JSONResponse:
        return _answer(error.status, error.detail, error.code, error.headers)

    @app.exception_handler(StorageUnavailableError)
    async def _storage_error(request: Request, error: StorageUnavailableError) -> JSONResponse:
        log.warning("storage unavailable on %s %s: %s", request.method, request.url.path, error)
        retry = str(request.app.state.settings.retry_after_s)
        detail = f"the game store cannot be read or written now; nothing was changed; retry in {retry} s"
        return _answer(503, detail, ErrorCode.STORAGE_UNAVAILABLE, {"Retry-After": retry})

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, error: RequestValidationError) -> JSONResponse:
        return _answer(422, readable_validation_errors(error.errors()), ErrorCode.INVALID_REQUEST)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
        detail = error.detail if isinstance(error.detail, str) else str(error.detail)
        code = ErrorCode.for_status(error.status_code)
        return _answer(error.status_code, detail, code, error.headers)

    @app.exception_handler(Exception)
    async def _internal_error(request: Request, error: Exception) -> JSONResponse:
        # A bug, not bad input: bad input is validated before it gets this far.
        log.exception("internal error on %s %s", request.method, request.url.path)
        return _answer(500, "internal server error", ErrorCode.INTERNAL)
