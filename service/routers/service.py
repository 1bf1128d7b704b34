"""`GET /healthz` and `GET /metrics`: is the service up, and how is it doing."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from service.schemas import HealthResponse
from service.version import VERSION

__all__ = ["router"]

router = APIRouter(tags=["service"])


@router.get("/healthz", response_model=HealthResponse)
async def healthz() -> dict[str, str]:
    """Liveness: the service answers, and which version it is. Answered on the event loop, never
    behind a search or a worker thread, so it is prompt however busy the searches are."""
    return {"status": "ok", "version": VERSION}


@router.get(
    "/metrics",
    response_class=Response,
    responses={200: {"content": {"text/plain": {}}, "description": "Prometheus text format"}},
)
async def metrics(request: Request) -> Response:
    """Prometheus metrics: requests and latency per route, searches running and refused,
    search iterations (their rate is iterations per second)."""
    return Response(generate_latest(request.app.state.metrics.registry), media_type=CONTENT_TYPE_LATEST)
