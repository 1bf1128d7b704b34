"""Post-game review (docs/api.md §3): every decision of a record's seat against the engine's best.

A review replays the record and runs one search per decision, one after another, in a single
slot of the search pool (after the queue, 503 with `Retry-After` when none is free); each
decision's time is capped within its share of `TAN_ANALYSIS_BUDGET_MS` and what is left of it,
and a hang-up stops it, so it always ends. A seat of more than `TAN_MAX_REVIEW_DECISIONS` moves
is refused before a slot is taken.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from service.capacity import SEARCH_ROUTE
from service.deps import ServicesDep
from service.errors import error_responses
from service.schemas import AnalysisResponse, AnalyzeRequest
from solver.game.record import Record

__all__ = ["router"]

router = APIRouter(prefix="/v1", tags=["reviews"])


@router.post(
    "/analyze",
    response_model=AnalysisResponse,
    responses=error_responses(413, 422, 429, 503),
    openapi_extra=SEARCH_ROUTE,
)
async def analyze(body: AnalyzeRequest, request: Request, services: ServicesDep) -> JSONResponse:
    """Review every decision the record's seat made in play: the move played, the engine's choice,
    both expected scores, the loss and its label (good, inaccuracy, mistake, blunder; forced for
    a single legal move), and a summary. An impossible record is refused with the index of its
    first bad event."""
    searcher = services.searcher
    requested = body.limits.to_json() if body.limits is not None else None
    searcher.limits(requested)  # refuse bad limits before replaying or taking a slot
    record = Record.from_json(body.record)
    searcher.check_review_size(record)  # before a slot
    answer = await services.pool.run(
        lambda stop: searcher.review(record, requested, body.seed, stop), request
    )
    return JSONResponse(answer.to_json())
