"""Post-game review (docs/api.md §3): every decision of a record's seat against the engine's best.

`POST /v1/analyze` queues the review as a job (service/jobs.py) and answers 202
with its id and `Location: /v1/jobs/{id}`, where its progress and, once done,
the review are read. A worker replays the record and reviews one decision after
another, each in a slot of the search pool, with a fixed iteration budget, so the
same record, limits and seed give the same review; a stopped worker stores nothing
of a step cut short. A seat of more than `TAN_MAX_REVIEW_DECISIONS` moves is
refused before anything is queued.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from service.deps import ServicesDep
from service.errors import error_responses
from service.routers.jobs import job_answer
from service.schemas import AnalyzeRequest, JobResponse
from solver.game.notation import parse_record

__all__ = ["router"]

router = APIRouter(prefix="/v1", tags=["reviews"])


@router.post(
    "/analyze",
    status_code=202,
    response_model=JobResponse,
    responses=error_responses(413, 422, 429, 503),
)
async def analyze(body: AnalyzeRequest, request: Request, services: ServicesDep) -> JSONResponse:
    """Queue a review of every decision the record's seat made in play: the move played, the
    engine's choice, both expected scores, the loss and its label (good, inaccuracy, mistake,
    blunder; forced for a single legal move), and a summary. Answers 202 with the job; an
    impossible record is refused at once (422, with the index of its first bad event) and
    nothing is queued."""
    requested = body.limits.to_json() if body.limits is not None else None
    services.searcher.job_limits(requested)  # refuse bad limits before replaying
    record = await services.parsing.run(parse_record, body.record)  # its JSON, or its text (notation.md)
    services.searcher.check_review_size(record)  # before the replay and the queue
    address = request.client.host if request.client is not None else None
    job = await services.jobs.submit("analyze", record, requested, body.seed, client=address, request=request)
    return job_answer(job, 202)
