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
from tests.support.service import error, make_client, make_settings

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
