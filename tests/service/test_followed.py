"""PUT and GET /v1/followed/{id} (docs/api.md §3): a game followed at a table kept under its
secret id, on both stores — replaced by a later PUT, refused unchanged when malformed, gone once
expired by the sweep."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import anyio

from service.deps import services_of
from tests.support.service import TestClient, error, make_client, make_settings

ID = "f0llowed-game-id_0123456789"
RECORD: dict[str, Any] = {
    "rules": "durak", "players": 2, "seat": 0, "hand": ["6s", "7s", "8s", "9s", "Ts", "Js"], "trump": "7c",
    "first_attacker": 1, "events": [{"seat": 1, "move": "attack 6h"}],
}


def test_a_followed_game_is_kept_replaced_and_read_back(database: Path | str) -> None:
    with make_client(make_settings(database)) as client:
        assert client.get(f"/v1/followed/{ID}").status_code == 404
        kept = client.put(f"/v1/followed/{ID}", json={"record": RECORD})
        assert kept.status_code == 200, kept.text
        read = client.get(f"/v1/followed/{ID}").json()
        assert read["id"] == ID
        assert read["record"]["events"] == [{"seat": 1, "move": {"action": "attack", "card": "6h"}}]
        longer = {**RECORD, "events": [*RECORD["events"], {"seat": 0, "move": "take"}]}
        client.put(f"/v1/followed/{ID}", json={"record": longer})
        assert len(client.get(f"/v1/followed/{ID}").json()["record"]["events"]) == 2
        # A malformed game is refused, and what was stored stays.
        error(client.put(f"/v1/followed/{ID}", json={"record": {**RECORD, "seat": 5}}), 422, "invalid_seat")
        error(client.put(f"/v1/followed/{ID}", json={}), 422, "invalid_request")
        assert len(client.get(f"/v1/followed/{ID}").json()["record"]["events"]) == 2
        # The id is a long secret: a short one is not taken.
        error(client.get("/v1/followed/short"), 422, "invalid_request")


def test_a_position_and_its_events_are_kept_too(database: Path | str) -> None:
    position = {
        "rules": "durak", "players": 2, "seat": 0, "hand": ["6s", "7s", "8s", "9s", "Ts", "Js"],
        "hand_counts": [6, 6], "trump": "7c", "stock": 24, "attacker": 1, "defender": 0, "to_move": 1,
    }
    events = [{"seat": 1, "move": "attack 6h"}]
    with make_client(make_settings(database)) as client:
        kept = client.put(f"/v1/followed/{ID}", json={"position": position, "events": events})
        assert kept.status_code == 200, kept.text
        read = client.get(f"/v1/followed/{ID}").json()
        assert read["events"] == events and read["position"]["hand_counts"] == [6, 6]


def test_the_sweep_deletes_followed_games_left_too_long(database: Path | str) -> None:
    settings = make_settings(database, abandoned_ttl_s=60)
    with make_client(settings) as client:
        other = ID.replace("0", "1")
        client.put(f"/v1/followed/{ID}", json={"record": RECORD})
        client.put(f"/v1/followed/{other}", json={"record": RECORD})
        services = services_of(client.app)  # type: ignore[arg-type]
        with services.store.transaction() as db:
            db.execute("UPDATE followed SET updated_at = ? WHERE id = ?", (time.time() - 120, ID))
        anyio.run(services.games.sweep)
        assert client.get(f"/v1/followed/{ID}").status_code == 404
        assert client.get(f"/v1/followed/{other}").status_code == 200  # stored a moment ago


def test_a_lone_surrogate_is_refused_before_anything_is_stored(database: Path | str) -> None:
    """`"\\ud800"` is valid JSON but no character: refused 422 with where it stands, nothing kept
    (it was stored and then answered 500 on every read); a surrogate pair is one character, kept."""
    headers = {"content-type": "application/json"}
    lone = {"record": {**RECORD, "seats": ["A", "\ud800"]}}
    with make_client(make_settings(database)) as client:
        refused = client.put(f"/v1/followed/{ID}", content=json.dumps(lone), headers=headers)
        assert "body.record.seats[1]" in error(refused, 422, "invalid_request")
        assert client.get(f"/v1/followed/{ID}").status_code == 404
        key = json.dumps({"record": RECORD, "\udfff": 1})
        error(client.put(f"/v1/followed/{ID}", content=key, headers=headers), 422, "invalid_request")
        assert client.get(f"/v1/followed/{ID}").status_code == 404
        paired = {"record": {**RECORD, "seats": ["B\U0001F0A1", "b"]}}  # an escape pair: one character
        kept = client.put(f"/v1/followed/{ID}", content=json.dumps(paired), headers=headers)
        assert kept.status_code == 200, kept.text
        assert client.get(f"/v1/followed/{ID}").json()["record"]["seats"][0] == "B\U0001F0A1"


def _long_record(events: int) -> dict[str, Any]:
    """A record of `events` attacks: read on arrival but never replayed, so it may be long."""
    return {**RECORD, "events": [{"seat": 1, "move": "attack 6h"}] * events}


def test_a_client_keeps_at_most_its_cap_of_followed_games(database: Path | str) -> None:
    """`TAN_MAX_FOLLOWED_PER_CLIENT` games a client: a new one past it is 429 and nothing is kept,
    replacing one it keeps is taken, and another client has its own count (one address stored 200
    followed games of 64 KB in 8 s, issue 64)."""
    settings = make_settings(database, max_followed_per_client=2)
    first, second, third = (ID.replace("0", digit) for digit in "123")
    with make_client(settings) as client:
        for followed_id in (first, second):
            assert client.put(f"/v1/followed/{followed_id}", json={"record": RECORD}).status_code == 200
        refused = client.put(f"/v1/followed/{third}", json={"record": RECORD})
        assert "TAN_MAX_FOLLOWED_PER_CLIENT" in error(refused, 429, "too_many_requests")
        assert client.get(f"/v1/followed/{third}").status_code == 404  # nothing was kept
        longer = {**RECORD, "events": [*RECORD["events"], {"seat": 0, "move": "take"}]}
        assert client.put(f"/v1/followed/{first}", json={"record": longer}).status_code == 200
        other = TestClient(client.app, client=("198.51.100.7", 50_000))
        assert other.put(f"/v1/followed/{third}", json={"record": RECORD}).status_code == 200
        assert len(client.get(f"/v1/followed/{first}").json()["record"]["events"]) == 2


def test_a_clients_followed_games_are_capped_in_bytes(database: Path | str) -> None:
    """`TAN_MAX_FOLLOWED_BYTES_PER_CLIENT` bytes of followed games a client: a game that would take
    it past them is 413 and nothing is kept, while a smaller one still fits, and a game replaced
    counts at its new size."""
    settings = make_settings(database, max_followed_bytes_per_client=65_536)
    first, second, third = (ID.replace("0", digit) for digit in "123")
    with make_client(settings) as client:
        assert client.put(f"/v1/followed/{first}", json={"record": _long_record(600)}).status_code == 200
        refused = client.put(f"/v1/followed/{second}", json={"record": _long_record(600)})
        assert "TAN_MAX_FOLLOWED_BYTES_PER_CLIENT" in error(refused, 413, "too_large")
        assert client.get(f"/v1/followed/{second}").status_code == 404
        assert client.put(f"/v1/followed/{second}", json={"record": RECORD}).status_code == 200
        # The first one made small: the long one fits now.
        assert client.put(f"/v1/followed/{first}", json={"record": RECORD}).status_code == 200
        assert client.put(f"/v1/followed/{third}", json={"record": _long_record(600)}).status_code == 200
