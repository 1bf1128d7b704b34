"""The HTTP face of Tấn (SPEC §3): for now only the health check and a placeholder page.

`tan serve` runs this app with uvicorn. The `/v1` API arrives with the
service proper; this module keeps the app importable and its two routes honest.
"""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse

STATIC = Path(__file__).resolve().parent / "static"


def _version() -> str:
    try:
        return importlib.metadata.version("tan")
    except importlib.metadata.PackageNotFoundError:
        return "0+unknown"


VERSION = _version()

app = FastAPI(
    title="Tấn",
    summary="Solver and hint service for bài Tấn / Durak",
    version=VERSION,
)


@app.get("/healthz", tags=["service"])
def healthz() -> dict[str, str]:
    """Liveness: the service answers, and which version it is."""
    return {"status": "ok", "version": VERSION}


@app.get("/", include_in_schema=False)
def index() -> FileResponse:
    """The web page (a placeholder until the game page arrives)."""
    return FileResponse(STATIC / "index.html", media_type="text/html")
