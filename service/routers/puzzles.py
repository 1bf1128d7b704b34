"""Puzzles (docs/api.md §3, "Puzzles"): positions where one move is clearly best.

`GET /v1/puzzles` answers the shipped set (`service/static/puzzles.json`, built from
the engine's own games by `python -m solver.tools.puzzles`, which the file's
`made_by` records), read once, without a search. `POST /v1/puzzles` takes a game
record — a player's own game — and answers the puzzles among its seat's
decisions (`solver.search.puzzles`): at most `TAN_MAX_PUZZLE_CHECKS` of them
searched, one after another in one slot of the search pool, each within the
request's limits capped as a hint's; the game's mistakes come first.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from service.capacity import SEARCH_ROUTE
from service.deps import ServicesDep
from service.errors import error_responses
from service.schemas import PuzzlesRequest, PuzzlesResponse
from solver.game.notation import parse_record
from solver.search import StopFlag

__all__ = ["SHIPPED", "router", "shipped"]

router = APIRouter(prefix="/v1", tags=["puzzles"])

SHIPPED = Path(__file__).resolve().parents[1] / "static" / "puzzles.json"
"""The shipped puzzles, so a newcomer has puzzles from the first visit."""


@lru_cache(maxsize=1)
def shipped() -> dict[str, Any]:
    """The shipped set as `GET /v1/puzzles` answers it (read once)."""
    data = json.loads(SHIPPED.read_text())
    return {"puzzles": data["puzzles"], "made_by": data.get("made_by"), "checked": None}


@router.get("/puzzles", response_model=PuzzlesResponse)
def shipped_puzzles() -> JSONResponse:
    """The shipped puzzles: positions from the engine's own games where one move is clearly best
    (proven by the exact solver, or by a wide margin of the search), each with its answer, every
    move's score and the answer's line; `made_by` says how the set was made."""
    return JSONResponse(shipped())


@router.post(
    "/puzzles", response_model=PuzzlesResponse, responses=error_responses(413, 422, 429, 503),
    openapi_extra=SEARCH_ROUTE,
)
async def record_puzzles(body: PuzzlesRequest, request: Request, services: ServicesDep) -> JSONResponse:
    """Puzzles from a game record (a player's own game): some of its seat's decisions, chosen by
    `seed`, each searched within `limits` (capped as a hint's) and kept where one move is clearly
    best; the decisions where the game's move was not the answer (`missed`) first. An impossible
    record is refused (422, with the index of its first bad event)."""
    searcher = services.searcher
    limits = searcher.limits(body.limits.to_json() if body.limits is not None else None)
    record = parse_record(body.record)  # its JSON, or its text (docs/notation.md)
    searcher.check_review_size(record)

    def work(stop: StopFlag) -> dict[str, Any]:
        puzzles, checked = searcher.puzzles(record, limits, body.seed, stop)
        return {"puzzles": [puzzle.to_json() for puzzle in puzzles], "made_by": None, "checked": checked}

    return JSONResponse(await services.pool.run(work, request))
