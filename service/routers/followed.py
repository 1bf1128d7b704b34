"""`PUT /v1/followed/{id}` and `GET /v1/followed/{id}` (docs/api.md §3, "Following a game at a
table"): a game followed at a real table, kept on the server under a secret id its client chose,
so it can be opened again on another device or after the browser lost it.

The game is what `POST /v1/next` takes — a record, or a position and its events — read on
arrival (a malformed one is refused and nothing is stored) but not replayed: `POST /v1/next`
judges its events when it is opened. The id is the secret: whoever has it may read and replace it.
A client keeps at most so many followed games, of so many bytes in all (service/settings.py); the
body is read in a parse thread (service/parsing.py), never on the event loop.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Path, Request
from fastapi.responses import Response

from service.deps import ServicesDep
from service.errors import ApiError, ServiceCode, error_responses
from service.schemas import FollowedResponse, NextRequest
from service.setup import hash_secret
from service.store import TooManyFollowedError
from solver.game.position import Position
from solver.game.record import Record, RecordError

__all__ = ["router"]

router = APIRouter(prefix="/v1/followed", tags=["positions"])

FollowedId = Annotated[
    str,
    Path(
        description="the game's secret id, chosen by its client: 22 to 64 letters, digits, `-` or `_`",
        pattern=r"^[A-Za-z0-9_-]{22,64}$",
    ),
]


def _game_of(body: NextRequest) -> dict[str, Any]:
    """The game as sent, once read: exactly one of a record and a position (with its events)."""
    if (body.position is None) == (body.record is None):
        raise ApiError(ServiceCode.INVALID_REQUEST, "give exactly one of position and record")
    if body.record is not None:
        if body.events is not None:
            raise ApiError(ServiceCode.INVALID_REQUEST, "events go with a position; a record holds its own")
        return {"record": Record.from_json(body.record).to_json()}
    position = Position.from_json(body.position.to_json())  # type: ignore[union-attr]
    events = body.events or []
    if not all(isinstance(event, dict) for event in events):
        raise RecordError("an event must be an object")
    return {"position": position.to_json(), "events": events}


def _answer(followed_id: str, text: str) -> Response:
    """The answer `{"id", …the game}` from the game's JSON text, as stored: put together without
    encoding the game again (a long one takes milliseconds to encode, which the loop must not)."""
    return Response(f'{{"id": {json.dumps(followed_id)}, {text[1:]}', media_type="application/json")


def _read(body: NextRequest) -> str:
    """The game sent, read and written as the JSON text to store (in a parse thread)."""
    return json.dumps(_game_of(body))


def _too_much(error: TooManyFollowedError) -> ApiError:
    """The answer to a followed game past its client's cap: 429 for one game too many, 413 for too
    many bytes (a smaller game may still fit); nothing was stored."""
    if error.kind == "games":
        return ApiError(
            ServiceCode.TOO_MANY_REQUESTS,
            f"this client already keeps {error.cap} followed games (TAN_MAX_FOLLOWED_PER_CLIENT): replace "
            "one of them, or wait until one expires; nothing was stored",
        )
    return ApiError(
        ServiceCode.TOO_LARGE,
        f"this client's followed games would take {error.held} bytes, over its {error.cap} "
        "(TAN_MAX_FOLLOWED_BYTES_PER_CLIENT): replace one of them with less, or wait until one expires; "
        "nothing was stored",
    )


@router.put(
    "/{followed_id}", response_model=FollowedResponse, responses=error_responses(413, 422, 429, 503)
)
async def keep_followed(
    followed_id: FollowedId, body: NextRequest, request: Request, services: ServicesDep
) -> Response:
    """Store the followed game under its id (replacing what was there); answered as `GET` would. A
    client (an address) may keep `TAN_MAX_FOLLOWED_PER_CLIENT` followed games (429 beyond) of
    `TAN_MAX_FOLLOWED_BYTES_PER_CLIENT` bytes in all (413 beyond); replacing one counts it once."""
    text = await services.parsing.run(_read, body)
    address = request.client.host if request.client is not None else None
    client = None if address is None else hash_secret(f"client:{address}")
    settings = services.settings
    try:
        await anyio.to_thread.run_sync(
            services.store.keep_followed, followed_id, text, client, settings.max_followed_per_client,
            settings.max_followed_bytes_per_client,
        )
    except TooManyFollowedError as error:
        raise _too_much(error) from None
    return _answer(followed_id, text)


@router.get("/{followed_id}", response_model=FollowedResponse, responses=error_responses(404, 422, 503))
async def read_followed(followed_id: FollowedId, services: ServicesDep) -> Response:
    """The followed game stored under the id; 404 for none (never stored, or expired)."""
    text = await anyio.to_thread.run_sync(services.store.followed_text, followed_id)
    if text is None:
        raise ApiError(ServiceCode.NOT_FOUND, "no followed game with this id")
    return _answer(followed_id, text)
