"""Helpers for the service tests: a test app on its own database, and the calls every test makes."""

from __future__ import annotations

import threading
import warnings
from pathlib import Path
from typing import Any

from service.main import create_app
from service.settings import Settings
from solver.game.moves import Move
from solver.game.reference import Game
from solver.game.rules import Rules

with warnings.catch_warnings():
    # Starlette asks for `httpx2` under its test client; `httpx` still works.
    warnings.filterwarnings("ignore", message=".*httpx2")
    from fastapi.testclient import TestClient

__all__ = [
    "FAST",
    "TestClient",
    "bearer",
    "create",
    "error",
    "finished_job",
    "make_client",
    "make_settings",
    "move",
    "play_out",
    "public_of",
    "replay",
    "view",
]

FAST: dict[str, Any] = {
    "default_iterations": 300,
    "max_iterations": 5_000,
    "default_time_ms": 500,
    "max_time_ms": 2_000,
    "max_searches": 2,
    "queue_size": 0,  # a busy pool answers 503 at once; the queue's own tests set it
    "engine_budget_ms": 5_000,
    "job_poll_s": 0.2,  # a job queued here wakes the app's worker at once
}


def make_settings(path: Path | str, **overrides: Any) -> Settings:
    """Settings for a test app: its own database (a SQLite file, or a PostgreSQL URL) and small limits."""
    return Settings(database=path, **{**FAST, **overrides})


def make_client(settings: Settings) -> TestClient:
    return TestClient(create_app(settings))


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def error(answer: Any, status: int, code: str) -> str:
    """Assert the error shape of docs/api.md §3 with this status and code; return the message."""
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert set(body) == {"detail", "code"}, body
    assert body["code"] == code, body
    assert isinstance(body["detail"], str) and body["detail"]
    return str(body["detail"])


def create(client: TestClient, **request: Any) -> dict[str, Any]:
    """`POST /v1/games`, which must succeed."""
    answer = client.post("/v1/games", json=request)
    assert answer.status_code == 201, answer.text
    assert answer.headers["location"] == f"/v1/games/{answer.json()['id']}"
    return dict(answer.json())


def view(client: TestClient, game: dict[str, Any], seat: int, token: str | None = None) -> dict[str, Any]:
    """`GET /v1/games/{id}?seat=k` with the seat's token, which must succeed."""
    token = token if token is not None else game["tokens"][seat]
    answer = client.get(f"/v1/games/{game['id']}", params={"seat": seat}, headers=bearer(token))
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def public_of(position: dict[str, Any]) -> dict[str, Any]:
    """What a seat sees in public of its position (docs/api.md §2.2 JSON): the fields of a history
    entry's `after` (docs/api.md §3)."""
    keys = ("table", "hand_counts", "stock", "attacker", "defender", "to_move", "taking")
    return {**{key: position[key] for key in keys}, "discard": len(position.get("discard", []))}


def play_out(client: TestClient, game: dict[str, Any], seat: int = 0) -> dict[str, Any]:
    """`seat` plays its last legal move until the game is over; the last view."""
    seen = view(client, game, seat)
    for _ in range(500):
        if seen["status"] == "over":
            return seen
        answer = move(client, game, seat, seen["legal_moves"][-1])
        assert answer.status_code == 200, answer.text
        seen = dict(answer.json())
    raise AssertionError("the game did not end")


def move(client: TestClient, game: dict[str, Any], seat: int, played: Any) -> Any:
    """`POST /v1/games/{id}/moves` for a seat, with its token; the raw answer."""
    return client.post(
        f"/v1/games/{game['id']}/moves",
        json={"seat": seat, "move": played},
        headers=bearer(game["tokens"][seat]),
    )


def replay(game: dict[str, Any], history: list[dict[str, Any]], rules: str = "durak", seed: int = 0) -> Game:
    """The full game on this side, from the same deal and the public history."""
    reference = Game.deal(Rules.from_json(rules), len(game["tokens"]), seed=seed)
    for entry in history:
        reference.play(Move.parse(entry["notation"]), entry["seat"])
    return reference


def finished_job(client: Any, queued: Any, watch: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A 202 job answer followed at its `Location` until the job is done or failed; the last view.
    Each view read on the way is added to `watch` when given. (The waits are a hang guard, not a
    timing: a worker takes the job within a poll.)"""
    assert queued.status_code == 202, queued.text
    location = queued.headers["location"]
    assert location == f"/v1/jobs/{queued.json()['id']}"
    event = threading.Event()
    for _ in range(12_000):
        job = client.get(location)
        assert job.status_code == 200, job.text
        body = dict(job.json())
        if watch is not None:
            watch.append(body)
        if body["status"] in ("done", "failed"):
            return body
        event.wait(0.01)
    raise AssertionError(f"job {location} did not end")
