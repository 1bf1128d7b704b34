"""A stored game's records (docs/api.md §3): `GET /v1/games/{id}/record?seat=k` at any moment, in
JSON and as text, gives the game's own hint when sent to `POST /v1/hint`; every game of a match is
reviewed by its number."""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from solver.game.notation import record_from_text, record_to_text
from solver.game.record import Record
from tests.support.records import endgame_record
from tests.support.service import (
    TestClient,
    bearer,
    create,
    error,
    finished_job,
    make_client,
    make_settings,
    move,
    view,
)

SIDE_RULES = {"preset": "tan", "redeal_without_trump": True, "tribute": True, "all_trumps_wins": True,
              "trump_swap": True, "take_when_beaten": True}
# The iterations stop each search, and the time (the server's cap, raised here) is far more than they
# and the weighing of the few worlds need, however loaded the machine, so the same search answers
# both ways (docs/api.md §3, "Limits").
ASK = {"iterations": 300, "time_ms": 60_000, "seed": 3}


@pytest.fixture
def unhurried(tmp_path: Path) -> Iterator[TestClient]:
    settings = make_settings(tmp_path / "games.db", particles=1024, max_time_ms=60_000)
    with make_client(settings) as test_client:
        yield test_client


def searched(hint: dict[str, Any]) -> dict[str, Any]:
    """A hint without its clock: what the same search answers every time."""
    stats = {k: v for k, v in hint["stats"].items() if k not in ("time_ms", "iterations_per_s")}
    return {**hint, "stats": stats}


def record_of(client: TestClient, stored: dict[str, Any], **params: Any) -> Any:
    """`GET /v1/games/{id}/record` for seat 0, with its token."""
    return client.get(f"/v1/games/{stored['id']}/record", params={"seat": 0, **params},
                      headers=bearer(stored["tokens"][0]))


@pytest.mark.long
def test_a_seats_record_gives_the_games_own_hint_at_every_moment(unhurried: TestClient) -> None:
    """Through a match under the side rules: at each of seat 0's decisions the record (JSON, and
    text) sent to POST /v1/hint answers the very hint the game's hint endpoint answers."""
    client = unhurried
    game = create(client, rules=SIDE_RULES, seats=["human", "random"], seed=7, match={"games": 2})
    token = bearer(game["tokens"][0])
    seen, compared, games = view(client, game, 0), 0, set()
    for step in range(400):
        if seen["status"] == "over":
            break
        if step % 5 == 0:
            own = client.get(f"/v1/games/{game['id']}/hint", params={"seat": 0, **ASK}, headers=token)
            assert own.status_code == 200, own.text
            answer = record_of(client, game)
            assert answer.status_code == 200, answer.text
            record = answer.json()
            text = record_of(client, game, format="text")
            assert text.status_code == 200 and text.headers["content-type"].startswith("text/plain")
            assert record_from_text(text.text).to_json() == Record.from_json(record).to_json()
            limits = {"iterations": ASK["iterations"], "time_ms": ASK["time_ms"]}
            for given in (record, text.text):
                body = {"record": given, "limits": limits, "seed": ASK["seed"]}
                posted = client.post("/v1/hint", json=body)
                assert posted.status_code == 200, posted.text
                assert searched(posted.json()) == searched(own.json())
            compared += 1
            games.add(seen["position"].get("match", {}).get("game"))
        answer = move(client, game, 0, seen["legal_moves"][0])
        assert answer.status_code == 200, answer.text
        seen = answer.json()
    assert compared >= 4 and games == {1, 2}


def test_a_record_is_refused_for_a_game_the_match_has_not_reached(client: TestClient) -> None:
    game = create(client, rules="durak", seats=["human", "random"], seed=2, match={"games": 3})
    assert "games 1 to 1" in error(record_of(client, game, game=2), 422, "invalid_input")
    error(record_of(client, game, format="pdf"), 422, "invalid_request")
    error(client.get(f"/v1/games/{game['id']}/record", params={"seat": 0}), 401, "unauthorized")


def _play_game(client: TestClient, game: dict[str, Any], number: int) -> dict[str, Any]:
    """Seat 0 plays its first legal move until game `number` of the match has ended."""
    seen = view(client, game, 0)
    for _ in range(400):
        match = seen["match"]
        if seen["status"] == "over" or match["game"] > number:
            return seen
        answer = move(client, game, 0, seen["legal_moves"][0])
        assert answer.status_code == 200, answer.text
        seen = answer.json()
    raise AssertionError("the game did not end")


@pytest.mark.long
def test_every_game_of_a_match_is_reviewed_by_its_number(client: TestClient) -> None:
    game = create(client, rules=SIDE_RULES, seats=["human", "random"], seed=4, match={"games": 2})
    path, token = f"/v1/games/{game['id']}/analysis", bearer(game["tokens"][0])
    limits = {"iterations": 200}
    error(client.get(path, params={"seat": 0, "game": 1, **limits}, headers=token), 409, "game_not_over")
    seen = _play_game(client, game, 1)
    assert seen["status"] == "playing" and seen["match"]["game"] == 2
    first = client.get(path, params={"seat": 0, "game": 1, **limits}, headers=token)
    assert first.status_code == 200, first.text[:300]
    record = record_of(client, game, game=1).json()
    assert record["match"]["game"] == 1
    plays = [i for i, event in enumerate(record["events"]) if event.get("seat") == 0
             and event["move"]["action"] not in ("redeal", "keep", "pick", "swap")]
    assert [reviewed["index"] for reviewed in first.json()["moves"]] == plays
    error(client.get(path, params={"seat": 0, "game": 2, **limits}, headers=token), 409, "game_not_over")
    error(client.get(path, params={"seat": 0, **limits}, headers=token), 409, "game_not_over")
    _play_game(client, game, 2)
    second = client.post(path, params={"seat": 0, "game": 2, **limits}, headers=token)
    job = finished_job(client, second)
    assert job["status"] == "done" and job["result"]["moves"]
    last = client.get(path, params={"seat": 0, **limits}, headers=token)  # the last game, by default
    assert last.status_code == 200 and [m["index"] for m in last.json()["moves"]] == [
        m["index"] for m in job["result"]["moves"]
    ]


def test_the_manual_shows_both_forms(client: TestClient) -> None:
    """OpenAPI: the record endpoint answers JSON or text, and the requests that read a record take
    its JSON object or its text."""
    schema = client.get("/openapi.json").json()
    answer = schema["paths"]["/v1/games/{game_id}/record"]["get"]
    assert set(answer["responses"]["200"]["content"]) == {"application/json", "text/plain"}
    assert {"seat", "game", "format"} <= {parameter["name"] for parameter in answer["parameters"]}
    for request in ("HintRequest", "EvaluateRequest", "AnalyzeRequest"):
        field = schema["components"]["schemas"][request]["properties"]["record"]
        kinds = {option.get("type") for option in field.get("anyOf", [field])}
        assert {"object", "string"} <= kinds and "notation.md" in field["description"], request


def test_analyze_takes_a_records_text(client: TestClient) -> None:
    text = record_to_text(endgame_record())
    queued = client.post("/v1/analyze", json={"record": text, "limits": {"iterations": 100}})
    assert queued.status_code == 202, queued.text
    assert finished_job(client, queued)["status"] == "done"
    bad = client.post("/v1/analyze", json={"record": text.replace("[Seat", "[Chair")})
    assert "line 3: unknown header" in error(bad, 422, "invalid_record")


def test_a_stored_games_record_carries_the_day_it_was_created(client: TestClient) -> None:
    """The date header of the text notation (docs/notation.md): a stored game's record has the day
    (UTC) the game was created, in JSON and in its text."""
    before = datetime.datetime.now(datetime.UTC).date().isoformat()
    stored = create(client, rules="durak", seats=["human", "greedy"], seed=3)
    after = datetime.datetime.now(datetime.UTC).date().isoformat()
    data = record_of(client, stored).json()
    assert data["date"] in {before, after}
    text = record_of(client, stored, format="text").text
    assert record_from_text(text).date == data["date"]
    assert Record.from_json(data).date == data["date"]


def test_a_record_converts_to_both_forms_and_a_bad_one_is_refused(client: TestClient) -> None:
    """POST /v1/records/convert: a record given as JSON or as text answers both canonical forms,
    the library's own; a malformed text is refused with its line, an impossible record with the
    index of its first bad event, and nothing else is answered."""
    record = endgame_record()
    for given in (record.to_json(), record_to_text(record)):
        answer = client.post("/v1/records/convert", json={"record": given})
        assert answer.status_code == 200, answer.text
        assert answer.json() == {"record": record.to_json(), "text": record_to_text(record)}
    text = record_to_text(record)
    bad = client.post("/v1/records/convert", json={"record": text.replace("[Seat", "[Chair")})
    assert "line 3: unknown header" in error(bad, 422, "invalid_record")
    impossible = {**record.to_json(), "events": [{"seat": 1, "move": "defend 6s with 7s"}]}  # seat 0 leads
    refused = error(client.post("/v1/records/convert", json={"record": impossible}), 422, "not_your_turn")
    assert refused.startswith("events[0]")
    error(client.post("/v1/records/convert", json={}), 422, "invalid_request")


def test_a_record_with_a_lone_surrogate_is_refused_not_answered_500(client: TestClient) -> None:
    """A seat named `"\\udc00"` (JSON, but no character) is refused where it stands, as 422."""
    given = {**endgame_record().to_json(), "seats": ["\udc00", "B"]}
    answer = client.post("/v1/records/convert", content=json.dumps({"record": given}),
                         headers={"content-type": "application/json"})
    assert "body.record.seats[0]" in error(answer, 422, "invalid_request")
