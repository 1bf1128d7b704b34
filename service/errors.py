"""Every error answer is `{"detail": "...", "code": "..."}` (docs/api.md §3), and the one
catalogue of the codes it may carry: the solver's `ErrorCode`s (all 422) and the service's
own `ServiceCode`s, each with its HTTP status and meaning (`CATALOGUE`, `status_of`).

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

import enum
import logging
from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Mount

from service.store import StorageUnavailableError
from solver.game.errors import ErrorCode, TanError

__all__ = [
    "CATALOGUE",
    "AnswerCode",
    "ApiError",
    "ErrorResponse",
    "ServiceCode",
    "error_responses",
    "install_error_handlers",
    "readable_validation_errors",
    "status_of",
]

log = logging.getLogger("service")


class ServiceCode(enum.StrEnum):
    """The service's own answers: requests, tokens, games and capacity; `status` is the HTTP status."""

    INVALID_REQUEST = "invalid_request"
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
        return _STATUS[self]

    @property
    def meaning(self) -> str:
        """What the code says, in a phrase (for the API's manual)."""
        return _MEANING[self]

    @classmethod
    def for_status(cls, status: int) -> ServiceCode:
        """The code of a bare HTTP error with this status (an unknown path, a wrong method…)."""
        for code, code_status in _STATUS.items():
            if code_status == status and code not in (cls.INVALID_REQUEST, cls.ENGINE_SEAT, cls.GAME_NOT_OVER,
                                                      cls.GAME_MOVED_ON, cls.STORAGE_UNAVAILABLE):
                return code
        return cls.INVALID_REQUEST if status == 422 else cls.HTTP_ERROR


_STATUS: dict[ServiceCode, int] = {
    ServiceCode.INVALID_REQUEST: 422,
    ServiceCode.BAD_REQUEST: 400,
    ServiceCode.UNAUTHORIZED: 401,
    ServiceCode.FORBIDDEN: 403,
    ServiceCode.ENGINE_SEAT: 403,
    ServiceCode.NOT_FOUND: 404,
    ServiceCode.METHOD_NOT_ALLOWED: 405,
    ServiceCode.NOT_ACCEPTABLE: 406,
    ServiceCode.CONFLICT: 409,
    ServiceCode.GAME_NOT_OVER: 409,
    ServiceCode.GAME_MOVED_ON: 409,
    ServiceCode.REQUEST_TIMEOUT: 408,
    ServiceCode.TOO_LARGE: 413,
    ServiceCode.UNSUPPORTED_MEDIA_TYPE: 415,
    ServiceCode.TOO_MANY_REQUESTS: 429,
    ServiceCode.INTERNAL: 500,
    ServiceCode.BUSY: 503,
    ServiceCode.STORAGE_UNAVAILABLE: 503,
    ServiceCode.HTTP_ERROR: 400,
}

_MEANING: dict[ServiceCode, str] = {
    ServiceCode.INVALID_REQUEST: "a request body or query that does not have the documented shape",
    ServiceCode.BAD_REQUEST: "a request the server cannot read (a body that is not UTF-8, or nested too "
    "deeply)",
    ServiceCode.UNAUTHORIZED: "no bearer token for a seat that needs one",
    ServiceCode.FORBIDDEN: "another seat's token for this seat",
    ServiceCode.ENGINE_SEAT: "a seat played by an engine: nobody may act or look for it",
    ServiceCode.NOT_FOUND: "no game with this id, or none whose seats the token holds (alike), or no such "
    "path",
    ServiceCode.METHOD_NOT_ALLOWED: "a method the path does not take",
    ServiceCode.NOT_ACCEPTABLE: "an answer format the server cannot give",
    ServiceCode.CONFLICT: "the game kept changing while this move was played; retry",
    ServiceCode.GAME_NOT_OVER: "a review of a stored game that is still being played",
    ServiceCode.GAME_MOVED_ON: "a move whose expected_ply is not the length of the seat's history: the "
    "game moved on since the move was chosen (an earlier try may have been stored); read it again",
    ServiceCode.REQUEST_TIMEOUT: "a request whose headers or body came too slowly; the connection is closed",
    ServiceCode.TOO_LARGE: "a request body over the size limit, or followed games over this client's bytes",
    ServiceCode.UNSUPPORTED_MEDIA_TYPE: "a body sent without a JSON Content-Type (application/json)",
    ServiceCode.TOO_MANY_REQUESTS: "too many at once: this client's games being played, followed games "
    "kept, searches or jobs, or requests at work on one game",
    ServiceCode.INTERNAL: "a bug in the server (logged); the request changed nothing it should not",
    ServiceCode.BUSY: "every search slot is busy and the queue full, or no slot came free in time; retry "
    "after the Retry-After header's seconds",
    ServiceCode.STORAGE_UNAVAILABLE: "the game store cannot be read or written now (a full or read-only "
    "disk, a locked or missing file); nothing was changed; retry after the Retry-After header's seconds",
    ServiceCode.HTTP_ERROR: "another HTTP error",
}

AnswerCode = ErrorCode | ServiceCode
"""A code an error answer may carry: the solver's or the service's."""

CATALOGUE: tuple[AnswerCode, ...] = (*ErrorCode, *ServiceCode)
"""Every code the service answers with, the solver's first (docs/api.md §3, "Errors")."""


def status_of(code: AnswerCode) -> int:
    """The HTTP status of an answer with this code: 422 for every refusal of the solver."""
    return code.status if isinstance(code, ServiceCode) else 422


class ErrorResponse(BaseModel):
    """The shape of every error answer (docs/api.md §3)."""

    detail: str = Field(description="what is wrong, naming the field or card at fault")
    code: ErrorCode | ServiceCode = Field(description="a stable machine-readable reason: " + "; ".join(
        f"`{code.value}` ({status_of(code)}): {code.meaning}" for code in CATALOGUE
    ))

    model_config = {
        "json_schema_extra": {
            "examples": [{"detail": "hand[2]: not a card: 'Zz'", "code": ErrorCode.INVALID_CARD.value}]
        }
    }


_DESCRIPTIONS = {
    400: "`bad_request`: a body the server cannot read (not UTF-8, or nested too deeply)",
    401: "no bearer token for a seat that needs one (answered before the game is looked up)",
    403: "another seat's token for this seat (`forbidden`), or an engine's seat (`engine_seat`)",
    404: "no game with this id, or none the token holds a seat of: alike (asked with a token)",
    409: "`conflict`: the game kept changing while this move was played, retry; "
    "`game_moved_on`: the game is past the move's `expected_ply`, read it again; "
    "`game_not_over`: a review of a game still being played",
    413: "`too_large`: the request body is too large, or (a followed game) this client's followed games "
    "would take more bytes than it may keep; nothing was stored",
    415: "`unsupported_media_type`: a body not sent as JSON (`Content-Type: application/json`)",
    429: "`too_many_requests`: this client already has as many games being played, followed games "
    "kept, or searches running or waiting as it may, or as many requests are at work on this game "
    "as may be (Retry-After, except for games and followed games: they wait for one to end)",
    422: "invalid input: see `code` ("
    + ", ".join(code.value for code in CATALOGUE if status_of(code) == 422)
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

    def __init__(self, code: AnswerCode, detail: str, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(detail)
        self.code = code
        self.status = status_of(code)
        self.detail = detail
        self.headers = dict(headers or {})


def _answer(
    status: int, detail: str, code: AnswerCode, headers: Mapping[str, str] | None = None
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


_UNREADABLE_BODY = "There was an error parsing the body"
"""FastAPI's 400 for a body it cannot decode (not UTF-8, or nested too deeply for the JSON reader),
said more plainly in the answer."""


def unreadable_body(cause: BaseException | None) -> str:
    """What is wrong with a body FastAPI could not read, from the error that stopped it."""
    if isinstance(cause, RecursionError):
        return "the request body is nested too deeply to be read: no request nests objects and lists so far"
    if isinstance(cause, UnicodeDecodeError):
        return "the request body cannot be read: JSON must be UTF-8 text"
    return "the request body cannot be read as JSON"


_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def allowed_methods(request: Request) -> list[str]:
    """Every method the app's routes take at the request's path, in `_METHODS`' order (a 405's
    `Allow` header): Starlette names only the first route that matched the path, though several may
    share it (`GET` and `PUT /v1/followed/{id}`). Each method is asked of the routes as a request
    would be; a mounted app (the page's files) answers for itself."""
    routes = [route for route in request.app.router.routes if not isinstance(route, Mount)]
    return [
        method for method in _METHODS
        if any(route.matches({**request.scope, "method": method})[0] is Match.FULL for route in routes)
    ]  # fmt: skip


def install_error_handlers(app: FastAPI) -> None:
    """Render every error as docs/api.md §3's `{"detail", "code"}`."""

    @app.exception_handler(TanError)
    async def _tan_error(request: Request, error: TanError) -> JSONResponse:
        return _answer(status_of(error.code), error.message, error.code)

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, error: ApiError) -> JSONResponse:
        return _answer(error.status, error.detail, error.code, error.headers)

    @app.exception_handler(StorageUnavailableError)
    async def _storage_error(request: Request, error: StorageUnavailableError) -> JSONResponse:
        log.warning("storage unavailable on %s %s: %s", request.method, request.url.path, error)
        retry = str(request.app.state.settings.retry_after_s)
        detail = f"the game store cannot be read or written now; nothing was changed; retry in {retry} s"
        return _answer(503, detail, ServiceCode.STORAGE_UNAVAILABLE, {"Retry-After": retry})

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, error: RequestValidationError) -> JSONResponse:
        return _answer(422, readable_validation_errors(error.errors()), ServiceCode.INVALID_REQUEST)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
        detail = error.detail if isinstance(error.detail, str) else str(error.detail)
        headers = dict(error.headers or {})
        if error.status_code == 400 and detail == _UNREADABLE_BODY:
            detail = unreadable_body(error.__cause__)
        if error.status_code == 405:
            methods = allowed_methods(request)
            if methods:
                headers["Allow"] = ", ".join(methods)
                detail = f"{request.url.path} does not take {request.method}: it takes {headers['Allow']}"
        code = ServiceCode.for_status(error.status_code)
        return _answer(error.status_code, detail, code, headers)

    @app.exception_handler(Exception)
    async def _internal_error(request: Request, error: Exception) -> JSONResponse:
        # A bug, not bad input: bad input is validated before it gets this far.
        log.exception("internal error on %s %s", request.method, request.url.path)
        return _answer(500, "internal server error", ServiceCode.INTERNAL)
