"""Questions about a position (docs/api.md §2.2): its legal moves, a hint, an evaluation.

Searches run in the bounded search pool, off the event loop: a request waits in
its short queue when every slot is busy, and is answered 503 with `Retry-After`
when the queue is full or no slot comes free in time. A search whose client
hangs up stops at once.
"""

from __future__ import annotations

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from service.capacity import SEARCH_ROUTE
from service.deps import ServicesDep
from service.errors import ApiError, ServiceCode, error_responses
from service.schemas import (
    EvaluateRequest,
    EvaluateResponse,
    HintRequest,
    HintResponse,
    MovesRequest,
    MovesResponse,
)
from solver.game.position import Position
from solver.game.record import Record
from solver.search.beliefs import History, read_record

__all__ = ["router"]

router = APIRouter(prefix="/v1", tags=["positions"])


async def seen_position(body: HintRequest | EvaluateRequest) -> tuple[Position, History | None]:
    """The request's position, or the position its record replays to and the history it shows
    (replayed in a worker thread)."""
    if (body.position is None) == (body.record is None):
        raise ApiError(ServiceCode.INVALID_REQUEST, "give exactly one of position and record")
    if body.position is not None:
        return Position.from_json(body.position.to_json()), None
    record = Record.from_json(body.record)
    return await anyio.to_thread.run_sync(read_record, record)


@router.post("/moves", response_model=MovesResponse, responses=error_responses(413, 422))
def moves(body: MovesRequest, services: ServicesDep) -> JSONResponse:
    """The legal moves of the seat to move, which must be the position's seat."""
    position = Position.from_json(body.position.to_json())
    services.searcher.check_to_move(position)
    return JSONResponse(
        {"to_move": position.to_move, "moves": [move.to_json() for move in position.legal_moves()]}
    )


@router.post(
    "/hint", response_model=HintResponse, responses=error_responses(413, 422, 429, 503),
    openapi_extra=SEARCH_ROUTE,
)
async def hint(body: HintRequest, request: Request, services: ServicesDep) -> JSONResponse:
    """Ranked moves for the seat to move, best first, with scores, 95% intervals and visits.

    `limits` are capped by the server (and always get a time limit); with the same
    position, `seed` and an iteration limit that stops the search, the answer repeats.
    """
    position, history = await seen_position(body)
    searcher = services.searcher
    limits = searcher.limits(body.limits.to_json() if body.limits is not None else None)
    searcher.check_to_move(position)
    answer = await services.pool.run(
        lambda stop: searcher.hint(
            position, limits, body.seed, body.multipv, body.algorithm, history=history, stop=stop
        ),
        request,
    )
    return JSONResponse(answer.to_json())


@router.post(
    "/evaluate", response_model=EvaluateResponse, responses=error_responses(413, 422, 429, 503),
    openapi_extra=SEARCH_ROUTE,
)
async def evaluate(body: EvaluateRequest, request: Request, services: ServicesDep) -> JSONResponse:
    """How good the position is for its seat: expected score (docs/rules.md §1.5), every seat's
    expected score and chance to lose. `exact` where the value is proven."""
    position, history = await seen_position(body)
    searcher = services.searcher
    limits = searcher.limits(body.limits.to_json() if body.limits is not None else None)
    answer = await services.pool.run(
        lambda stop: searcher.evaluate(position, limits, body.seed, history, stop), request
    )
    return JSONResponse(answer.to_json())
