"""Capacity (503 with Retry-After), metrics, settings, CORS and the last-resort 500."""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from service.deps import services_of
from service.main import create_app
from service.settings import Settings
from tests.support.positions import to_move_position
from tests.support.service import TestClient, bearer, create, error, make_client, make_settings, move, view


@pytest.fixture
def one_slot(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(make_settings(tmp_path / "g.db", max_searches=1, retry_after_s=2)) as client:
        yield client


def _hold_the_slot(client: TestClient) -> threading.Event:
    """Occupy every search slot until the returned event is set."""
    release = threading.Event()
    started = threading.Event()

    def work() -> None:
        started.set()
        release.wait(10)

    services_of(client.app).pool.submit(work)  # type: ignore[arg-type]
    assert started.wait(5)
    return release


def _wait_until_free(client: TestClient) -> None:
    pool = services_of(client.app).pool  # type: ignore[arg-type]
    for _ in range(500):
        if pool.running == 0:
            return
        time.sleep(0.01)
    raise AssertionError("the search slot was never freed")


def _queue_hints(
    client: TestClient, request: dict[str, Any], count: int, answers: list[Any]
) -> list[threading.Thread]:
    """`count` hints posted from threads (their answers land in `answers`), once all are queued."""
    pool = services_of(client.app).pool  # type: ignore[arg-type]
    expected = pool.waiting + count
    threads = [threading.Thread(target=lambda: answers.append(client.post("/v1/hint", json=request)))
               for _ in range(count)]
    for thread in threads:
        thread.start()
    for _ in range(2000):  # a hang guard: every request reaches the queue
        if pool.waiting == expected:
            break
        time.sleep(0.01)
    assert pool.waiting == expected
    return threads


def test_full_pool_answers_503_with_retry_after(one_slot: TestClient) -> None:
    release = _hold_the_slot(one_slot)
    try:
        request = {"position": to_move_position(), "limits": {"iterations": 100}}
        answer = one_slot.post("/v1/hint", json=request)
        error(answer, 503, "busy")
        assert answer.headers["retry-after"] == "2"
        error(one_slot.post("/v1/evaluate", json=request), 503, "busy")
        # Cheap questions need no slot.
        assert one_slot.post("/v1/moves", json={"position": to_move_position()}).status_code == 200
        assert one_slot.get("/healthz").status_code == 200
    finally:
        release.set()
    _wait_until_free(one_slot)
    assert one_slot.post("/v1/hint", json=request).status_code == 200
    metrics = one_slot.get("/metrics").text
    assert "tan_searches_rejected_total 2.0" in metrics


def test_a_busy_pool_changes_no_stored_game(one_slot: TestClient) -> None:
    searching = {"engine": "ismcts", "limits": {"iterations": 30}}
    game = one_slot.post(
        "/v1/games", json={"rules": "durak", "seats": ["human", searching], "seed": 3}
    ).json()
    first = game["game"]
    release = _hold_the_slot(one_slot)
    try:
        if first["position"]["to_move"] == 0:
            answer = one_slot.post(
                f"/v1/games/{game['id']}/moves",
                json={"seat": 0, "move": first["legal_moves"][0]},
                headers=bearer(game["tokens"][0]),
            )
            error(answer, 503, "busy")
        # A new game whose engine must lead is refused whole.
        created = one_slot.post(
            "/v1/games",
            json={"rules": "durak", "seats": [searching, "human"], "first_attacker": 0, "seed": 4},
        )
        error(created, 503, "busy")
        hint = one_slot.get(
            f"/v1/games/{game['id']}/hint", params={"seat": 0}, headers=bearer(game["tokens"][0])
        )
        error(hint, 503, "busy")
    finally:
        release.set()
    _wait_until_free(one_slot)
    again = one_slot.get(f"/v1/games/{game['id']}", params={"seat": 0}, headers=bearer(game["tokens"][0]))
    assert again.json() == first


def test_metrics(client: TestClient) -> None:
    client.post("/v1/hint", json={"position": to_move_position(), "limits": {"iterations": 100}})
    client.post("/v1/hint", json={"position": {}})
    client.get("/v1/games/abc", params={"seat": 0}, headers=bearer("x"))
    text = client.get("/metrics").text
    assert 'tan_http_requests_total{method="POST",route="/v1/hint",status="200"} 1.0' in text
    assert 'tan_http_requests_total{method="POST",route="/v1/hint",status="422"} 1.0' in text
    assert 'tan_http_requests_total{method="GET",route="/v1/games/{game_id}",status="404"} 1.0' in text
    assert 'tan_http_request_seconds_bucket{le="0.25",method="POST",route="/v1/hint"}' in text
    assert "tan_searches_running 0.0" in text and "tan_search_slots 2.0" in text
    assert 'tan_searches_total{kind="hint"} 1.0' in text
    assert "tan_search_iterations_total 100.0" in text
    assert "tan_search_iterations_per_second_count 1.0" in text


def test_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAN_PORT", "9001")
    monkeypatch.setenv("TAN_MAX_SEARCHES", "3")
    monkeypatch.setenv("TAN_CORS_ORIGINS", "http://a.test, http://b.test")
    monkeypatch.setenv("TAN_DATABASE", "/tmp/x.db")
    settings = Settings()
    assert (settings.port, settings.max_searches) == (9001, 3)
    assert settings.cors_origins == ["http://a.test", "http://b.test"]
    assert str(settings.database) == "/tmp/x.db"
    assert Settings(_env_file=None).host == "127.0.0.1"  # type: ignore[call-arg]
    monkeypatch.setenv("TAN_MAX_SEARCHES", "0")
    with pytest.raises(ValueError):
        Settings()


def test_no_cors_by_default_and_cors_when_set(client: TestClient, tmp_path: Path) -> None:
    preflight: dict[str, Any] = {
        "Origin": "http://a.test",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type",
    }
    assert "access-control-allow-origin" not in client.options("/v1/hint", headers=preflight).headers
    with make_client(make_settings(tmp_path / "c.db", cors_origins=["http://a.test"])) as cors:
        answer = cors.options("/v1/hint", headers=preflight)
        assert answer.headers["access-control-allow-origin"] == "http://a.test"
        assert (
            "access-control-allow-origin"
            not in cors.options("/v1/hint", headers={**preflight, "Origin": "http://evil.test"}).headers
        )


def test_an_unexpected_failure_is_a_500_in_the_error_format(tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path / "e.db"))

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("boom")

    with TestClient(app, raise_server_exceptions=False) as client:
        services_of(app).searcher.hint = broken  # type: ignore[method-assign]
        answer = client.post("/v1/hint", json={"position": to_move_position()})
        assert answer.status_code == 500
        assert answer.json() == {"detail": "internal server error", "code": "internal"}
        assert "boom" not in answer.text


def test_the_gate_refuses_searches_before_reading_them(one_slot: TestClient) -> None:
    release = _hold_the_slot(one_slot)
    try:
        answer = one_slot.post(
            "/v1/hint", content=b"not even JSON", headers={"content-type": "application/json"}
        )
        error(answer, 503, "busy")
        assert answer.headers["retry-after"] == "2"
        # Other requests still read and judge their body.
        error(
            one_slot.post("/v1/moves", content=b"{", headers={"content-type": "application/json"}),
            422,
            "invalid_request",
        )
    finally:
        release.set()
    _wait_until_free(one_slot)


def test_search_threads_run_below_the_event_loop(client: TestClient) -> None:
    pool = services_of(client.app).pool  # type: ignore[arg-type]
    base = os.getpriority(os.PRIO_PROCESS, 0)
    inside = pool.submit(lambda: os.getpriority(os.PRIO_PROCESS, threading.get_native_id())).result()
    assert inside == min(base + 5, 19)
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == base


def test_every_answer_carries_the_security_headers(tmp_path: Path) -> None:
    """No sniffing or framing anywhere, the page's own content security policy, and no caching of
    the API's answers (they hold hands and tokens) — on errors too, a 500 included."""
    app = create_app(make_settings(tmp_path / "h.db"))
    with TestClient(app, raise_server_exceptions=False) as client:
        game = client.post("/v1/games", json={"rules": "durak", "seats": ["human", "greedy"], "seed": 1})
        answers = {
            "page": client.get("/"),
            "script": client.get("/static/js/app.js"),
            "docs": client.get("/docs"),
            "health": client.get("/healthz"),
            "rules": client.get("/v1/rules"),
            "created": game,
            "view": client.get(
                f"/v1/games/{game.json()['id']}", params={"seat": 0}, headers=bearer(game.json()["tokens"][0])
            ),
            "unknown path": client.get("/v1/nothing"),
            "unauthorized": client.get(f"/v1/games/{game.json()['id']}", params={"seat": 0}),
            "too large": client.post(
                "/v1/hint", content=b"x" * 70_000, headers={"content-type": "application/json"}
            ),
        }

        def broken(*args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("boom")

        services_of(app).searcher.hint = broken  # type: ignore[method-assign]
        answers["internal"] = client.post("/v1/hint", json={"position": to_move_position()})
    assert answers["internal"].status_code == 500 and answers["too large"].status_code == 413
    for name, answer in answers.items():
        headers = answer.headers
        assert headers["x-content-type-options"] == "nosniff", name
        assert headers["x-frame-options"] == "DENY", name
        assert "frame-ancestors 'none'" in headers["content-security-policy"], name
        api = name not in ("page", "script", "docs", "health")
        assert (headers.get("cache-control") == "no-store") == api, name
    page = answers["page"].headers["content-security-policy"]
    assert "script-src 'self';" in page and "connect-src 'self';" in page and "unsafe-inline" not in page
    assert answers["created"].json()["tokens"][0]
    assert answers["view"].json()["position"]["hand"]


def test_a_burst_waits_in_the_queue_and_beyond_it_is_refused(tmp_path: Path) -> None:
    """One slot, a queue of two: while the slot is held, two hints wait (first come, first served)
    and a third is refused at once, before its body is read; once the slot is free both waiting
    hints are answered."""
    settings = make_settings(tmp_path / "q.db", max_searches=1, queue_size=2, queue_wait_s=60)
    with make_client(settings) as client:
        release = _hold_the_slot(client)
        request = {"position": to_move_position(), "limits": {"iterations": 100}}
        answers: list[Any] = []
        try:
            waiting = _queue_hints(client, request, 2, answers)
            assert answers == []
            refused = client.post(
                "/v1/hint", content=b"not even JSON", headers={"content-type": "application/json"}
            )
            assert "the queue is full" in error(refused, 503, "busy")
            assert "tan_searches_waiting 2.0" in client.get("/metrics").text
        finally:
            release.set()
        for thread in waiting:
            thread.join(30)
        assert [answer.status_code for answer in answers] == [200, 200]
        _wait_until_free(client)


def test_a_request_waits_no_longer_than_the_queue_deadline(tmp_path: Path) -> None:
    settings = make_settings(tmp_path / "q.db", max_searches=1, queue_size=4, queue_wait_s=0.05,
                             retry_after_s=3)
    with make_client(settings) as client:
        release = _hold_the_slot(client)
        try:
            answer = client.post("/v1/hint", json={"position": to_move_position()})
            assert "none came free within 0.05 s" in error(answer, 503, "busy")
            assert answer.headers["retry-after"] == "3"
            assert services_of(client.app).pool.waiting == 0  # it left the queue
        finally:
            release.set()
        _wait_until_free(client)
        assert client.post("/v1/hint", json={"position": to_move_position()}).status_code == 200


def test_one_client_gets_only_its_share_of_the_search_queue(tmp_path: Path) -> None:
    """With two searches a client, a client with two hints waiting is refused a third at once
    (429, Retry-After), while another client's hint still queues and is answered."""
    settings = make_settings(
        tmp_path / "c.db", max_searches=1, queue_size=8, queue_wait_s=60, max_searches_per_client=2,
        retry_after_s=3,
    )
    with make_client(settings) as client:
        other = TestClient(client.app, client=("192.0.2.7", 40000))
        pool = services_of(client.app).pool  # type: ignore[arg-type]
        release = _hold_the_slot(client)  # held by the server itself: nobody's share
        request = {"position": to_move_position(), "limits": {"iterations": 100}}
        answers: list[Any] = []
        try:
            waiting = _queue_hints(client, request, 2, answers)
            assert pool.searches_of("testclient") == 2
            refused = client.post("/v1/evaluate", json=request)
            assert "2 searches running or waiting" in error(refused, 429, "too_many_requests")
            assert refused.headers["retry-after"] == "3"
            assert pool.waiting == 2  # the refused one never queued
            waiting += _queue_hints(other, request, 1, answers)
            assert pool.searches_of("192.0.2.7") == 1
        finally:
            release.set()
        for thread in waiting:
            thread.join(30)
        assert [answer.status_code for answer in answers] == [200, 200, 200]
        _wait_until_free(client)
        assert pool.searches_of("testclient") == 0 and pool.searches_of("192.0.2.7") == 0
        assert client.post("/v1/hint", json=request).status_code == 200  # its share is back


def test_engine_replies_count_against_the_movers_share(tmp_path: Path) -> None:
    """A move an engine answers takes a search of the mover's share: with a share of one already
    waiting in the queue, the move is refused 429 and nothing is stored."""
    settings = make_settings(
        tmp_path / "m.db", max_searches=1, queue_size=8, queue_wait_s=60, max_searches_per_client=1
    )
    with make_client(settings) as client:
        game = create(client, rules="durak", seats=["human", "greedy"], seed=5, first_attacker=0)
        before = view(client, game, 0)
        release = _hold_the_slot(client)
        request = {"position": to_move_position(), "limits": {"iterations": 100}}
        answers: list[Any] = []
        try:
            (hinting,) = _queue_hints(client, request, 1, answers)
            attack = before["legal_moves"][0]
            refused = move(client, game, 0, attack)
            error(refused, 429, "too_many_requests")
        finally:
            release.set()
        hinting.join(30)
        assert answers[0].status_code == 200
        assert view(client, game, 0)["history"] == before["history"]


def test_a_body_that_is_not_json_gets_the_documented_answer_on_every_operation(client: TestClient) -> None:
    """docs/api.md §3, "Errors": a body not sent as JSON is 415 `unsupported_media_type`, one the
    server cannot read (not UTF-8) 400 `bad_request` — on each of the operations that take a body,
    whose OpenAPI entries list both; JSON with a charset or a `+json` type is JSON."""
    schema = client.get("/openapi.json").json()
    operations = [
        (path, method) for path, entries in schema["paths"].items()
        for method, entry in entries.items() if "requestBody" in entry
    ]  # fmt: skip
    assert len(operations) == 10, operations
    body = b'{"rules": "durak", "seats": ["human", "human"]}'
    for path, method in operations:
        assert {"400", "415"} <= set(schema["paths"][path][method]["responses"]), path
        url = path.replace("{game_id}", "nosuchgame").replace("{followed_id}", "no-such-followed-game-id")
        for kind in ("text/plain", "application/x-www-form-urlencoded", None):
            headers = {"content-type": kind} if kind is not None else {}
            answer = client.request(method, url, content=body, headers=headers)
            assert "Content-Type: application/json" in error(answer, 415, "unsupported_media_type"), path
        latin = '{"rules": "durak", "seats": ["hümän"]}'.encode("latin-1")
        unreadable = client.request(method, url, content=latin, headers={"content-type": "application/json"})
        assert "UTF-8" in error(unreadable, 400, "bad_request"), path
    position = json.dumps({"position": to_move_position()}).encode()
    for kind in ("application/json; charset=utf-8", "application/vnd.tan+json"):
        assert client.post("/v1/moves", content=position, headers={"content-type": kind}).status_code == 200
    # An empty body is a missing one: the shape is wrong, whatever the type.
    error(client.post("/v1/moves", headers={"content-type": "text/plain"}), 422, "invalid_request")


def test_a_body_nested_too_deeply_is_refused_as_such_on_every_operation(client: TestClient) -> None:
    """JSON nested deeper than the reader goes is 400 `bad_request` saying so on each operation that
    takes a body; it was refused as "JSON must be UTF-8" (issue 64, finding 7)."""
    schema = client.get("/openapi.json").json()
    nested = b"[" * 20_000 + b"]" * 20_000  # within the body cap
    for path, entries in schema["paths"].items():
        for method, entry in entries.items():
            if "requestBody" not in entry:
                continue
            url = path.replace("{game_id}", "nosuchgame").replace("{followed_id}", "no-such-followed-game-id")
            answer = client.request(method, url, content=nested, headers={"content-type": "application/json"})
            detail = error(answer, 400, "bad_request")
            assert "nested too deeply" in detail and "UTF-8" not in detail, (path, detail)


def test_a_405_names_every_method_its_path_takes(client: TestClient) -> None:
    """A method no operation of a path takes is 405 with an `Allow` header naming every method the
    path takes, as the OpenAPI lists them (with HEAD beside GET for the probes, which leave it out of
    the schema); it named only the first route's (`GET /v1/followed/{id}` and `PUT`, issue 64)."""
    schema = client.get("/openapi.json").json()
    ids = {"{game_id}": "nosuchgame", "{followed_id}": "no-such-followed-game-id", "{job_id}": "nosuchjob"}
    shared = 0
    for path, entries in schema["paths"].items():
        url = path
        for name, value in ids.items():
            url = url.replace(name, value)
        documented = {method.upper() for method in entries}
        shared += len(documented) > 1
        answer = client.request("PATCH", url)
        assert "PATCH" in error(answer, 405, "method_not_allowed"), path
        allowed = set(answer.headers["allow"].split(", "))
        assert documented <= allowed and allowed - documented <= {"HEAD"}, (path, allowed)
    assert shared >= 3  # followed games, jobs, a game's analysis


def test_the_openapi_lists_storage_unavailable_wherever_the_store_is_read(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    for path, entries in schema["paths"].items():
        if path.startswith("/v1/games"):
            for method, entry in entries.items():
                assert "503" in entry["responses"], (method, path)


def test_the_probes_answer_head(client: TestClient) -> None:
    """`HEAD /healthz` and `HEAD /readyz` answer as GET does, without a body (RFC 9110 §9.3.2)."""
    for path in ("/healthz", "/readyz"):
        answer = client.head(path)
        assert answer.status_code == 200 and answer.content == b"", path
        assert answer.headers["x-frame-options"] == "DENY"
