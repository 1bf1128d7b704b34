"""Questions about a position (docs/api.md §2.2): its legal moves, a hint, an evaluation, what may
come next in a game followed at a table (a record, or a position and its events), and a record in
both its forms (JSON and text).

Searches run in the bounded search pool, off the event loop: a request waits in
its short queue when every slot is busy, and is answered 503 with `Retry-After`
when the queue is full or no slot comes free in time. A search whose client
hangs up stops at once. A record's replay runs in the slot too, within the
answer's time limit. Before that, the body is read into a record or a position in a parse thread
(service/parsing.py), so that a large one never holds the event loop.
"""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from service.capacity import SEARCH_ROUTE
from service.deps import ServicesDep
from service.engine import Searcher
from service.errors import ApiError, ServiceCode, error_responses
from service.schemas import (
    ConvertRequest,
    ConvertResponse,
    EvaluateRequest,
    EvaluateResponse,
    HintRequest,
    HintResponse,
    MovesRequest,
    MovesResponse,
    NextRequest,
    NextResponse,
)
from solver.game.follow import NextEntries, after_position, after_record
from solver.game.notation import parse_record, record_to_text
from solver.game.position import Position
from solver.game.record import Record
from solver.search import Evaluation, Hint, StopFlag
from solver.search.beliefs import History, read_record
from solver.search.calibration import calibrated_hint, record_score_map

__all__ = ["router"]

router = APIRouter(prefix="/v1", tags=["positions"])


def seen(body: HintRequest | EvaluateRequest, to_move: Searcher | None = None) -> Position | Record:
    """The request's position, or its record (read, not replayed: a replay is as dear as a search
    and runs in the search slot, within the answer's time); with `to_move`, a bare position's seat
    must be the one to move (a hint), checked at once, without a slot. Run in a parse thread."""
    if (body.position is None) == (body.record is None):
        raise ApiError(ServiceCode.INVALID_REQUEST, "give exactly one of position and record")
    if body.position is not None:
        position = Position.from_json(body.position.to_json())
        if to_move is not None:
            to_move.check_to_move(position)
        return position
    return parse_record(body.record)  # its JSON, or its text (docs/notation.md)


def replayed(given: Position | Record) -> tuple[Position, History | None, float]:
    """The position (and the history the record shows) and when the answer began: before the
    replay (run in the search slot), so that the answer's time limit covers it."""
    begun = time.perf_counter()
    if isinstance(given, Position):
        return given, None, begun
    position, history = read_record(given)
    return position, history, begun


@router.post("/moves", response_model=MovesResponse, responses=error_responses(413, 422))
def moves(body: MovesRequest, services: ServicesDep) -> JSONResponse:
    """The legal moves of the seat to move, which must be the position's seat."""
    position = Position.from_json(body.position.to_json())
    services.searcher.check_to_move(position)
    return JSONResponse(
        {"to_move": position.to_move, "moves": [move.to_json() for move in position.legal_moves()]}
    )


def _followed_game(body: NextRequest) -> tuple[Record | None, Position | None]:
    """The record, or the position, of a `POST /v1/next` body, read (in a parse thread)."""
    if body.record is not None:
        return Record.from_json(body.record), None
    assert body.position is not None
    return None, Position.from_json(body.position.to_json())


@router.post(
    "/next", response_model=NextResponse, responses=error_responses(413, 422, 429, 503),
    openapi_extra=SEARCH_ROUTE,
)
async def next_entries(body: NextRequest, request: Request, services: ServicesDep) -> JSONResponse:
    """The seat's view after a record (or a position and the events after it), and what may come
    next: the moves of the seat to move as far as the seat can tell (any seat's: for another seat,
    every legal move of a card it might hold), or the cards the seat drew with the last move.

    For following a real game at a table, and playing on from a position (docs/api.md §3). The
    replay runs in a search slot, as a record's does for a hint.
    """
    if (body.position is None) == (body.record is None):
        raise ApiError(ServiceCode.INVALID_REQUEST, "give exactly one of position and record")
    if body.record is not None and body.events is not None:
        raise ApiError(ServiceCode.INVALID_REQUEST, "events go with a position; a record holds its own")
    record, position = await services.parsing.run(_followed_game, body)
    events = body.events or []

    def work(_stop: StopFlag) -> NextEntries:
        if record is not None:
            return after_record(record)
        assert position is not None
        return after_position(position, events)

    answer = await services.pool.run(work, request)
    return JSONResponse(answer.to_json())


@router.post(
    "/records/convert", response_model=ConvertResponse, responses=error_responses(413, 422, 429, 503),
    openapi_extra=SEARCH_ROUTE,
)
async def convert_record(body: ConvertRequest, request: Request, services: ServicesDep) -> JSONResponse:
    """A game record, given as JSON (docs/api.md §2.3) or as text (docs/notation.md), in both forms:
    for saving and sharing a game, and opening one again (the web page's import and export). The
    text is written by replaying the record (its bouts), in a search slot; a record that cannot
    have happened is refused with the index of its first bad event, a malformed text with its line.
    """
    record = await services.parsing.run(parse_record, body.record)

    def work(_stop: StopFlag) -> dict[str, Any]:
        return {"record": record.to_json(), "text": record_to_text(record)}

    return JSONResponse(await services.pool.run(work, request))


@router.post(
    "/hint", response_model=HintResponse, responses=error_responses(413, 422, 429, 503),
    openapi_extra=SEARCH_ROUTE,
)
async def hint(body: HintRequest, request: Request, services: ServicesDep) -> JSONResponse:
    """Ranked moves for the seat to move, best first, with scores, 95% intervals and visits.

    `limits` are capped by the server (and always get a time limit); with the same
    position, `seed` and an iteration limit that stops the search, the answer repeats.
    """
    searcher = services.searcher
    limits = searcher.limits(body.limits.to_json() if body.limits is not None else None)
    given = await services.parsing.run(seen, body, searcher)  # a bare position's turn checked there too

    def work(stop: StopFlag) -> Hint:
        position, history, begun = replayed(given)
        found = searcher.hint(position, limits, body.seed, body.multipv, body.algorithm, history=history,
                              stop=stop, begun=begun, pv=body.pv, others=body.others)
        # A record whose other seats are one engine (a stored game's): that game's scale (calibration.py).
        return calibrated_hint(found, record_score_map(given)) if isinstance(given, Record) else found

    answer = await services.pool.run(work, request)
    return JSONResponse(answer.to_json())


@router.post(
    "/evaluate", response_model=EvaluateResponse, responses=error_responses(413, 422, 429, 503),
    openapi_extra=SEARCH_ROUTE,
)
async def evaluate(body: EvaluateRequest, request: Request, services: ServicesDep) -> JSONResponse:
    """How good the position is for its seat: expected score (docs/rules.md §1.5), every seat's
    expected score and chance to lose. `exact` where the value is proven."""
    searcher = services.searcher
    limits = searcher.limits(body.limits.to_json() if body.limits is not None else None)
    given = await services.parsing.run(seen, body)

    def work(stop: StopFlag) -> Evaluation:
        position, history, begun = replayed(given)
        return searcher.evaluate(position, limits, body.seed, history, stop, begun, others=body.others)

    answer = await services.pool.run(work, request)
    return JSONResponse(answer.to_json())
