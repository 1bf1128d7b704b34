"""Bodies are read in the parse threads (service/parsing.py), never on the event loop: a 62 KB
record takes ~50 ms to read, and eight clients sending such records held the loop so that
`/healthz` waited behind them (issue 64). The reading of records and positions is watched where
it runs; the real functions do the reading."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from solver.game.position import Position
from solver.game.record import Record
from tests.support.positions import to_move_position
from tests.support.service import make_client, make_settings

RECORD: dict[str, Any] = {
    "rules": "durak", "players": 2, "seat": 0, "hand": ["6s", "7s", "8s", "9s", "Ts", "Js"], "trump": "7c",
    "first_attacker": 1, "events": [{"seat": 1, "move": "attack 6h"}],
}
FOLLOWED = "/v1/followed/a-followed-game-id_0123456789"


def _on_the_loop() -> bool:
    """Whether this thread runs an event loop now (the app's, in the test client's thread)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, bool, str]]:
    """Each reading of a record or a position from JSON: what, whether on an event loop, the thread."""
    seen: list[tuple[str, bool, str]] = []
    for kind in (Record, Position):
        real = kind.__dict__["from_json"].__func__

        def watched(cls: Any, *args: Any, real: Any = real, **kwargs: Any) -> Any:
            seen.append((cls.__name__, _on_the_loop(), threading.current_thread().name))
            return real(cls, *args, **kwargs)

        monkeypatch.setattr(kind, "from_json", classmethod(watched))
    return seen


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("PUT", FOLLOWED, {"record": RECORD}),
        ("PUT", FOLLOWED, {"position": to_move_position()}),
        ("POST", "/v1/next", {"record": RECORD}),
        ("POST", "/v1/next", {"position": to_move_position()}),
        ("POST", "/v1/records/convert", {"record": RECORD}),
        ("POST", "/v1/hint", {"record": RECORD, "limits": {"iterations": 50}}),
        ("POST", "/v1/hint", {"position": to_move_position(), "limits": {"iterations": 50}}),
        ("POST", "/v1/evaluate", {"position": to_move_position(), "limits": {"iterations": 50}}),
        ("POST", "/v1/analyze", {"record": RECORD, "limits": {"iterations": 50}}),
    ],
)
def test_a_body_is_read_in_a_parse_thread(
    tmp_path: Path, reads: list[tuple[str, bool, str]], method: str, path: str, body: dict[str, Any]
) -> None:
    settings = make_settings(tmp_path / "games.db", job_workers=0)  # no worker to read the job meanwhile
    with make_client(settings) as client:
        answer = client.request(method, path, json=body)
        assert answer.status_code in (200, 202), answer.text
    assert reads, "the body was read"
    assert not [read for read in reads if read[1]], reads  # none on the event loop
    assert reads[0][2].startswith("tan-parse"), reads  # the first, the body's: in a parse thread


def test_a_malformed_body_is_refused_from_the_parse_thread_with_its_code(tmp_path: Path) -> None:
    """An error raised while reading in a parse thread is answered as it was on the loop."""
    with make_client(make_settings(tmp_path / "games.db")) as client:
        answer = client.post("/v1/hint", json={"record": {**RECORD, "seat": 5}})
        assert answer.status_code == 422 and answer.json()["code"] == "invalid_seat", answer.text


def test_a_review_worker_reads_its_job_off_the_event_loop(
    tmp_path: Path, reads: list[tuple[str, bool, str]]
) -> None:
    """The job worker runs on the app's loop: the record it reads back from the job is read in a
    thread as well (~50 ms for a long record)."""
    with make_client(make_settings(tmp_path / "games.db")) as client:
        answer = client.post("/v1/analyze", json={"record": RECORD, "limits": {"iterations": 50}})
        assert answer.status_code == 202, answer.text
        where = answer.headers["location"]
        for _ in range(600):  # a hang guard: until the worker has done the job
            job = client.get(where).json()
            if job["status"] != "queued" and job["status"] != "running":
                break
            threading.Event().wait(0.05)
        assert job["status"] == "done", job
    assert len(reads) >= 2, reads  # the body's, and the worker's
    assert not [read for read in reads if read[1]], reads
