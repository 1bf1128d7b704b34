"""`GET /healthz`, `GET /readyz` and `GET /metrics`: is the service up, can it serve, and how is it
doing."""

from __future__ import annotations

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from service.deps import ServicesDep
from service.errors import error_responses
from service.schemas import HealthResponse, ReadyResponse
from service.version import VERSION

__all__ = ["router"]

router = APIRouter(tags=["service"])


# Both probes answer HEAD as GET would, without the body (RFC 9110 §9.3.2), as some probes send it;
# left out of the schema, where HEAD is implied by GET.
@router.get("/healthz", response_model=HealthResponse)
@router.head("/healthz", include_in_schema=False)
async def healthz() -> dict[str, str]:
    """Liveness: the service answers, and which version it is. Answered on the event loop, never
    behind a search or a worker thread, so it is prompt however busy the searches are."""
    return {"status": "ok", "version": VERSION}


@router.get("/readyz", response_model=ReadyResponse, responses=error_responses(503))
@router.head("/readyz", include_in_schema=False)
async def readyz(services: ServicesDep) -> dict[str, str]:
    """Readiness: the game store can be read and written now (one small write, in a worker thread),
    else 503 `storage_unavailable` with `Retry-After`. `/healthz` stays the liveness check: a full
    disk makes the service unready, not dead."""
    await anyio.to_thread.run_sync(services.store.probe)
    return {"status": "ready", "version": VERSION}


@router.get(
    "/metrics",
    response_class=Response,
    responses={200: {"content": {"text/plain": {}}, "description": "Prometheus text format"}},
)
async def metrics(request: Request) -> Response:
    """Prometheus metrics: requests and latency per route, searches running and refused,
    search iterations (their rate is iterations per second)."""
    return Response(generate_latest(request.app.state.metrics.registry), media_type=CONTENT_TYPE_LATEST)
