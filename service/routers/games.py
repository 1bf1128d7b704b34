"""Games played over HTTP (docs/api.md §3): create, read a seat's view, move, ask a hint, track
the cards, review.

Human seats act with their bearer token; engine seats play by themselves
until a human must act or the game ends. Games are stored in SQLite.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response

from service.capacity import SEARCH_ROUTE
from service.deps import ServicesDep, TokenDep
from service.errors import error_responses
from service.jobs import review_key
from service.routers.jobs import job_answer
from service.schemas import (
    DEFAULT_ALGORITHM,
    ID_PATTERN,
    MAX_SEED,
    RECORD_ANSWERS,
    AlgorithmName,
    AnalysisResponse,
    GameCreatedResponse,
    GameCreateRequest,
    GameMoveRequest,
    GameResponse,
    HintResponse,
    JobResponse,
    RecordFormat,
    TrackerResponse,
)
from solver.game.bounds import MAX_MATCH_GAMES
from solver.search import ALGORITHMS
from solver.search.lines import PV

__all__ = ["router"]

router = APIRouter(prefix="/v1/games", tags=["games"])

GameId = Annotated[
    str, Path(description="the game's id from POST /v1/games", max_length=64, pattern=ID_PATTERN)
]
SeatQuery = Annotated[int, Query(description="whose view: a human seat, with its token")]
GameQuery = Annotated[
    int | None,
    Query(ge=1, le=MAX_MATCH_GAMES,
          description="in a match, which game (from 1; default: the one being played, or the last)"),
]


@router.post(
    "",
    status_code=201,
    response_model=GameCreatedResponse,
    responses=error_responses(413, 422, 429, 503),
)
async def create_game(body: GameCreateRequest, request: Request, services: ServicesDep) -> JSONResponse:
    """Deal a new game. Engine seats move at once until a human must act. A client (an address)
    may have `TAN_MAX_PLAYING_PER_CLIENT` games being played at once (429 beyond).

    The answer holds one secret token per human seat (null for engines): keep it,
    it is shown only here. `game` is the first human seat's view.
    """
    address = request.client.host if request.client is not None else None
    game_id, tokens, view = await services.games.create(body, address)
    return JSONResponse(
        {"id": game_id, "tokens": tokens, "game": view},
        status_code=201,
        headers={"Location": f"/v1/games/{game_id}"},
    )


@router.get(
    "/{game_id}", response_model=GameResponse, responses=error_responses(401, 403, 404, 422, 429, 503)
)
async def read_game(game_id: GameId, seat: SeatQuery, services: ServicesDep, token: TokenDep) -> JSONResponse:
    """A seat's view: its position (docs/api.md §2.2), its legal moves when it is to move, the
    status, scores once over, and the public history of moves."""
    return JSONResponse(await services.games.read(game_id, seat, token))


@router.post(
    "/{game_id}/moves",
    response_model=GameResponse,
    responses=error_responses(401, 403, 404, 409, 413, 422, 429, 503),
)
async def play_move(
    game_id: GameId, body: GameMoveRequest, request: Request, services: ServicesDep, token: TokenDep
) -> JSONResponse:
    """Play a human seat's move (JSON or text notation); engine seats then reply until a human
    must act or the game ends. Answers the moving seat's view, like GET. With `expected_ply` (the
    length of the seat's `history` when it chose), a game that has moved on answers 409
    `game_moved_on`, so a retry after a lost answer is never played twice or misread."""
    address = request.client.host if request.client is not None else None
    answer = await services.games.play(game_id, body.seat, body.move, token, body.expected_ply, address)
    return JSONResponse(answer)


@router.get(
    "/{game_id}/hint",
    response_model=HintResponse,
    responses=error_responses(401, 403, 404, 422, 429, 503),
    openapi_extra=SEARCH_ROUTE,
)
async def game_hint(
    game_id: GameId,
    seat: SeatQuery,
    request: Request,
    services: ServicesDep,
    token: TokenDep,
    iterations: Annotated[int | None, Query(description="search iterations (capped)")] = None,
    time_ms: Annotated[float | None, Query(description="search time in ms (capped)")] = None,
    seed: Annotated[int, Query(ge=0, le=MAX_SEED, description="search seed")] = 0,
    multipv: Annotated[int | None, Query(ge=1, le=1000, description="answer only the best N moves")] = None,
    algorithm: Annotated[AlgorithmName, Query(description=" or ".join(ALGORITHMS))] = DEFAULT_ALGORITHM,
    pv: Annotated[int, Query(ge=0, le=PV.maximum, description=PV.meaning)] = PV.default,
) -> JSONResponse:
    """A hint for the seat to move, from everything that seat has seen in this game."""
    searcher = services.searcher
    requested = {
        name: value for name, value in (("iterations", iterations), ("time_ms", time_ms)) if value is not None
    }
    limits = searcher.limits(requested or None)
    answer = await services.games.hint(
        game_id,
        seat,
        token,
        lambda position, history, stop: searcher.hint(
            position, limits, seed, multipv, algorithm, history=history, stop=stop, pv=pv
        ),
        request,
    )
    return JSONResponse(answer.to_json())


@router.get(
    "/{game_id}/tracker",
    response_model=TrackerResponse,
    responses=error_responses(401, 403, 404, 422, 429, 503),
    openapi_extra=SEARCH_ROUTE,
)
async def game_tracker(
    game_id: GameId, seat: SeatQuery, request: Request, services: ServicesDep, token: TokenDep
) -> JSONResponse:
    """The seat's card tracker: the discard pile, the cards known in each other hand, and for every
    card the seat cannot see the chance it lies in each hand or the stock, weighed by what the seat
    saw the others do. No search, but weighing a long game is as dear as one: it takes a search slot
    (and counts against the client's searches); asked again before the next move it is answered at
    once. Answered whoever is to move, and after the end."""
    tracker = await services.games.tracker(game_id, seat, token, request)
    return JSONResponse(tracker.to_json())


@router.get(
    "/{game_id}/record",
    responses={**error_responses(401, 403, 404, 422, 429, 503), **RECORD_ANSWERS},
)
async def game_record(
    game_id: GameId,
    seat: SeatQuery,
    services: ServicesDep,
    token: TokenDep,
    game: GameQuery = None,
    format: Annotated[
        RecordFormat, Query(description="`json` (docs/api.md §2.3) or `text` (docs/notation.md)")
    ] = "json",
) -> Response:
    """The seat's record of the game at this moment (docs/api.md §2.3): its dealt hand, every public
    move and what the side rules showed it, its own draws, in a match the game's place in it. Sent
    to `POST /v1/hint` (or `/v1/analyze`) it gives what the game's own endpoints give."""
    record = await services.games.record(game_id, seat, token, game, text=format == "text")
    return PlainTextResponse(record) if isinstance(record, str) else JSONResponse(record)


@router.get(
    "/{game_id}/analysis",
    response_model=AnalysisResponse,
    responses=error_responses(401, 403, 404, 409, 422, 429, 503),
    openapi_extra=SEARCH_ROUTE,
)
async def game_analysis(
    game_id: GameId,
    seat: SeatQuery,
    request: Request,
    services: ServicesDep,
    token: TokenDep,
    iterations: Annotated[int | None, Query(description="search iterations per decision (capped)")] = None,
    time_ms: Annotated[float | None, Query(description="search time per decision in ms (capped)")] = None,
    seed: Annotated[int, Query(ge=0, le=MAX_SEED, description="seed of the review")] = 0,
    game: GameQuery = None,
) -> JSONResponse:
    """Once the game is over (in a match, game `game`; 409 `game_not_over` before), a review of the
    seat's decisions from everything it saw, as `POST /v1/analyze` answers for its record."""
    searcher = services.searcher
    requested = {
        name: value for name, value in (("iterations", iterations), ("time_ms", time_ms)) if value is not None
    } or None
    searcher.limits(requested)  # refuse bad limits before taking a slot
    answer = await services.games.analysis(
        game_id, seat, token,
        lambda record, stop: searcher.review(record, requested, seed, stop, same_seed=True),
        request,
        game,
    )
    return JSONResponse(answer.to_json())


@router.get(
    "/{game_id}/review",
    response_model=AnalysisResponse | None,
    responses=error_responses(401, 403, 404, 422, 429, 503),
)
async def kept_review(
    game_id: GameId,
    seat: SeatQuery,
    services: ServicesDep,
    token: TokenDep,
    iterations: Annotated[int | None, Query(description="search iterations per decision (capped)")] = None,
    seed: Annotated[int, Query(ge=0, le=MAX_SEED, description="seed of the review")] = 0,
    game: GameQuery = None,
) -> JSONResponse:
    """The review of the seat's decisions in game `game` (by default the last) kept with the game
    once its job (`POST /v1/games/{id}/analysis` with these iterations and seed) was done: read,
    not searched, so a page reloaded shows it at once; `null` when none is kept (yet)."""
    limits = services.searcher.job_limits({"iterations": iterations} if iterations is not None else None)
    answer = await services.games.kept_review(
        game_id, seat, token, lambda number: review_key(seat, number, limits, seed), game
    )
    return JSONResponse(answer)


@router.post(
    "/{game_id}/analysis",
    status_code=202,
    response_model=JobResponse,
    responses=error_responses(401, 403, 404, 409, 422, 429, 503),
)
async def queue_game_analysis(
    game_id: GameId,
    seat: SeatQuery,
    request: Request,
    services: ServicesDep,
    token: TokenDep,
    iterations: Annotated[int | None, Query(description="search iterations per decision (capped)")] = None,
    seed: Annotated[int, Query(ge=0, le=MAX_SEED, description="seed of the review")] = 0,
    game: GameQuery = None,
) -> JSONResponse:
    """Once the game is over (in a match, game `game`; 409 `game_not_over` before), queue a review
    of the seat's decisions
    as a job (202, `Location: /v1/jobs/{id}`): each decision searched `iterations` times whatever
    the clock, so the review repeats, with the seed as the game's hints are and its scores
    calibrated as theirs. Its progress and answer are read at `GET /v1/jobs/{id}`."""
    requested = {"iterations": iterations} if iterations is not None else None
    services.searcher.job_limits(requested)  # refuse bad limits before replaying
    record, mapped, number = await services.games.record_of(game_id, seat, token, request, game)
    services.searcher.check_review_size(record)  # before the replay and the queue
    address = request.client.host if request.client is not None else None
    # Searched with the hint's seed and calibrated as the game's hints are: one scale for both; kept
    # with the game once done (`number`: GET /v1/games/{id}/review reads it).
    # The name it is kept under is that of the budget asked (what GET .../review is asked with), not
    # the one the job runs with once TAN_MAX_JOB_ITERATIONS has shared the job's work out.
    key = review_key(seat, number, services.searcher.job_limits(requested), seed)
    extra = {"game": game_id, "seat": seat, "number": number, "same_seed": True, "review_key": key,
             "score_map": None if mapped is None else mapped.to_json()}
    job = await services.jobs.submit(
        "review", record, requested, seed, client=address, extra=extra, request=request
    )
    return job_answer(job, 202)
