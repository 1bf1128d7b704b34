"""The SQLite game store: WAL mode, optimistic appends, exact rebuilds after a restart."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from service.store import GameStore, StaleGameError
from tests.support.service import bearer, create, make_client, make_settings, move, view


def test_wal_mode_and_round_trip(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "sub" / "games.db")
    with sqlite3.connect(store.path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    store.create("g1", {"format": 1, "x": [1, 2]}, [(0, "attack 7c")], "playing")
    record = store.load("g1")
    assert record is not None
    assert record.setup == {"format": 1, "x": [1, 2]} and record.moves == ((0, "attack 7c"),)
    assert store.plies("g1") == 1 and store.load("nope") is None and store.plies("nope") is None


def test_a_stale_append_is_refused(tmp_path: Path) -> None:
    """Two writers that read the same ply: the second one's moves are not stored."""
    store = GameStore(tmp_path / "games.db")
    store.create("g", {"format": 1}, [], "playing")
    store.append("g", 0, [(0, "attack 7c"), (1, "take")], "playing")
    with pytest.raises(StaleGameError):
        store.append("g", 0, [(0, "attack 8c")], "playing")
    with pytest.raises(StaleGameError):
        store.append("missing", 0, [(0, "take")], "playing")
    record = store.load("g")
    assert record is not None and record.moves == ((0, "attack 7c"), (1, "take"))


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    GameStore(path)
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version = 99")
    with pytest.raises(RuntimeError, match="schema 99"):
        GameStore(path)


@pytest.mark.parametrize(
    ("rules", "seats"),
    [
        ("tan", ["human", "random", "greedy", "random"]),
        ("durak", ["greedy", "human", "random"]),
        ({"preset": "perevodnoy", "defender_empty": "refill"}, ["human", "random"]),
        ({"preset": "tan", "trump_ace_last_loses": True, "max_attack": 4}, ["human", "greedy"]),
    ],
)
def test_every_preset_is_rebuilt_exactly(tmp_path: Path, rules: object, seats: list[str]) -> None:
    path = tmp_path / "games.db"
    with make_client(make_settings(path)) as client:
        game = create(client, rules=rules, seats=seats, seed=17)
        human = seats.index("human")
        body = view(client, game, human)
        for _ in range(40):
            if body["status"] == "over":
                break
            body = move(client, game, human, body["legal_moves"][-1]).json()
    with make_client(make_settings(path, game_cache=0)) as client:
        answer = client.get(
            f"/v1/games/{game['id']}", params={"seat": human}, headers=bearer(game["tokens"][human])
        )
        assert answer.json() == body
