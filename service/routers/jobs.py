"""`GET /v1/jobs/{id}` (docs/api.md §3, "Jobs"): a review job's progress, and its review once done;
`DELETE /v1/jobs/{id}` cancels it."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path
from fastapi.responses import JSONResponse

from service.deps import ServicesDep
from service.errors import error_responses
from service.schemas import ID_PATTERN, JobResponse

__all__ = ["job_answer", "router"]

router = APIRouter(prefix="/v1/jobs", tags=["jobs"])

JobId = Annotated[
    str, Path(description="the job's id from the 202 that queued it", max_length=64, pattern=ID_PATTERN)
]


def job_answer(job: dict[str, object], status_code: int = 200) -> JSONResponse:
    """A job's view; a new one (202) says where to read it next (`Location`)."""
    headers = {"Location": f"/v1/jobs/{job['id']}"} if status_code == 202 else None
    return JSONResponse(job, status_code=status_code, headers=headers)


@router.get("/{job_id}", response_model=JobResponse, responses=error_responses(404, 422))
async def read_job(job_id: JobId, services: ServicesDep) -> JSONResponse:
    """The job: its status (`queued`, `running`, `done`, `failed`, `cancelled`), its progress
    (decisions done of total, never going back), and once done its review, as `POST /v1/analyze`
    describes."""
    return job_answer(await services.jobs.read(job_id))


@router.delete("/{job_id}", response_model=JobResponse, responses=error_responses(404, 422))
async def cancel_job(job_id: JobId, services: ServicesDep) -> JSONResponse:
    """Cancel the job: a queued or running one becomes `cancelled` (its worker stops at the
    decision it is on and stores nothing more; it no longer counts against the client's jobs); one
    that has ended is answered as it is. Whoever has the id may cancel it, as they may read it."""
    return job_answer(await services.jobs.cancel(job_id))
