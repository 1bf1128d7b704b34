"""The game store on SQLite and on PostgreSQL: optimistic appends, exact rebuilds after a restart,
migrations, expiry, the per-client cap, the store unavailable; SQLite's WAL mode and file modes.

Every test that takes `database` runs once on each store: a SQLite file, and a fresh database
of a real PostgreSQL server that a fixture starts (tests/support/postgres.py)."""

from __future__ import annotations

import os
import sqlite3
import stat
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from service.deps import open_store, services_of
from service.settings import Settings
from service.store import (
    SCHEMA_VERSION,
    GameStore,
    PostgresStore,
    SqliteStore,
    StaleGameError,
    StorageUnavailableError,
    TooManyFollowedError,
    TooManyGamesError,
)
from tests.support.postgres import Cluster
from tests.support.service import (
    TestClient,
    bearer,
    create,
    error,
    make_client,
    make_settings,
    move,
    play_out,
    view,
)

_opened: list[GameStore] = []


def store_of(database: Path | str) -> GameStore:
    """A store on `database`, closed after the test (`_close_stores`)."""
    store = open_store(make_settings(database))
    _opened.append(store)
    return store


@pytest.fixture(autouse=True)
def _close_stores() -> Iterator[None]:
    yield
    while _opened:
        _opened.pop().close()


def test_sqlite_runs_in_wal_mode(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "sub" / "games.db")
    with sqlite3.connect(store.path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_settings_url_names_postgresql_and_anything_else_a_file() -> None:
    url = "postgresql://tan:secret@db.example:5432/tan"
    assert Settings(database=url).database == url
    assert Settings(database="games.db").database == Path("games.db")


def test_round_trip(database: Path | str) -> None:
    store = store_of(database)
    store.create("g1", {"format": 1, "x": [1, 2]}, [(0, "attack 7c")], "playing")
    record = store.load("g1")
    assert record is not None
    assert record.setup == {"format": 1, "x": [1, 2]} and record.moves == ((0, "attack 7c"),)
    assert store.plies("g1") == 1 and store.load("nope") is None and store.plies("nope") is None


def test_a_read_sees_one_snapshot_while_a_sweep_deletes(database: Path | str) -> None:
    """A game read as its row and then its moves, deleted between the two, reads whole: a reader
    that raced the sweep used to find the row and none of its moves (a 500 on PostgreSQL)."""
    store = store_of(database)
    store.create("g1", {"format": 1}, [(0, "attack 7c"), (1, "take")], "over")
    with store.transaction(write=False) as reader:
        row = reader.execute("SELECT plies FROM games WHERE id = ?", ("g1",)).fetchone()
        with store.transaction() as sweeper:
            sweeper.execute("DELETE FROM moves WHERE game_id = ?", ("g1",))
            sweeper.execute("DELETE FROM games WHERE id = ?", ("g1",))
        moves = reader.execute("SELECT seat, move FROM moves WHERE game_id = ?", ("g1",)).fetchall()
    assert row is not None and row[0] == len(moves) == 2
    assert store.load("g1") is None


def test_a_stale_append_is_refused(database: Path | str) -> None:
    """Two writers that read the same ply: the second one's moves are not stored."""
    store = store_of(database)
    store.create("g", {"format": 1}, [], "playing")
    store.append("g", 0, [(0, "attack 7c"), (1, "take")], "playing")
    with pytest.raises(StaleGameError):
        store.append("g", 0, [(0, "attack 8c")], "playing")
    with pytest.raises(StaleGameError):
        store.append("missing", 0, [(0, "take")], "playing")
    record = store.load("g")
    assert record is not None and record.moves == ((0, "attack 7c"), (1, "take"))


def test_racing_appends_store_one_move_per_ply(database: Path | str) -> None:
    """Eight writers append at the same ply at once, each with its own move: exactly one is stored,
    the others are told the game moved on."""
    store = store_of(database)
    store.create("g", {"format": 1}, [], "playing")
    start = threading.Barrier(8)
    outcomes: list[str] = []

    def write(seat: int) -> None:
        start.wait()
        try:
            store.append("g", 0, [(seat, f"attack {seat + 2}c")], "playing")
            outcomes.append("stored")
        except StaleGameError:
            outcomes.append("stale")

    threads = [threading.Thread(target=write, args=(seat,)) for seat in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["stale"] * 7 + ["stored"]
    record = store.load("g")
    assert record is not None and record.plies == 1


def _set_version(database: Path | str, version: int) -> None:
    store = store_of(database)
    with store.transaction() as db:
        if isinstance(store, SqliteStore):
            db.execute(f"PRAGMA user_version = {version}")
        else:
            db.execute("UPDATE tan_schema SET version = ?", (version,))
    store.close()


def test_a_newer_schema_is_refused(database: Path | str) -> None:
    _set_version(database, 99)
    with pytest.raises(RuntimeError, match="schema 99"):
        store_of(database)


@pytest.mark.parametrize(
    ("rules", "seats"),
    [
        ("tan", ["human", "random", "greedy", "random"]),
        ("durak", ["greedy", "human", "random"]),
        ({"preset": "perevodnoy", "defender_empty": "refill"}, ["human", "random"]),
        ({"preset": "tan", "trump_ace_last_loses": True, "max_attack": 4}, ["human", "greedy"]),
    ],
)
def test_every_preset_is_rebuilt_exactly(database: Path | str, rules: object, seats: list[str]) -> None:
    path = database
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


def test_the_database_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    """Every deck is in it in plain text: the file, its WAL and shared-memory files are 0600 whatever
    the umask, a new folder 0700, and a file left open to others by an older server is narrowed."""
    old_umask = os.umask(0o022)
    try:
        path = tmp_path / "new" / "games.db"
        store = SqliteStore(path)
        store.create("g", {"format": 1}, [], "playing")
        with sqlite3.connect(path) as db:  # hold the WAL and shared-memory files open
            db.execute("SELECT 1 FROM games").fetchall()
            for file in (path, tmp_path / "new" / "games.db-wal", tmp_path / "new" / "games.db-shm"):
                assert stat.S_IMODE(file.stat().st_mode) == 0o600, file
        assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
        loose = tmp_path / "loose.db"
        sqlite3.connect(loose).close()
        loose.chmod(0o644)
        SqliteStore(loose)
        assert stat.S_IMODE(loose.stat().st_mode) == 0o600
    finally:
        os.umask(old_umask)


def test_the_default_database_is_in_the_users_data_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TAN_DATABASE", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", "/srv/data")
    assert Settings().database == Path("/srv/data/tan/games.db")
    monkeypatch.setenv("XDG_DATA_HOME", "relative")  # not absolute: ignored, as the XDG spec says
    assert Settings().database == Path.home() / ".local" / "share" / "tan" / "games.db"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert Settings().database == Path.home() / ".local" / "share" / "tan" / "games.db"


def _unavailable_then_back(client: TestClient, game: dict[str, Any], down: Callable[[], None],
                           up: Callable[[], None]) -> None:
    """While the store is `down`, a move, a read, a new game and /readyz answer 503
    storage_unavailable with Retry-After and /healthz stays 200; once it is `up`, all is well and
    the refused move was not stored."""
    lead = view(client, game, 0)["legal_moves"][0]
    assert client.get("/readyz").json()["status"] == "ready"
    down()
    answers = [
        move(client, game, 0, lead),
        client.get(f"/v1/games/{game['id']}", params={"seat": 0}, headers=bearer(game["tokens"][0])),
        client.post("/v1/games", json={"rules": "durak", "seats": ["human", "human"]}),
        client.get("/readyz"),
    ]
    for answer in answers:
        error(answer, 503, "storage_unavailable")
        assert answer.headers["retry-after"] == "3"
    assert client.get("/healthz").json()["status"] == "ok"
    up()
    assert client.get("/readyz").status_code == 200
    assert view(client, game, 0)["history"] == []  # the refused move was not stored
    assert move(client, game, 0, lead).status_code == 200


def test_a_sqlite_store_that_cannot_be_used_answers_503_and_readyz_says_so(tmp_path: Path) -> None:
    """A database SQLite cannot open (here a folder where the file was, a real operational error
    even for root)."""
    path = tmp_path / "games.db"
    aside = tmp_path / "aside"
    names = ("games.db", "games.db-wal", "games.db-shm")

    def down() -> None:
        aside.mkdir()
        for name in names:
            if (tmp_path / name).exists():
                (tmp_path / name).rename(aside / name)
        path.mkdir()

    def up() -> None:
        path.rmdir()
        for name in names:
            if (aside / name).exists():
                (aside / name).rename(tmp_path / name)

    with make_client(make_settings(path, retry_after_s=3, game_cache=0)) as client:
        game = create(client, rules="durak", seats=["human", "human"], seed=3, first_attacker=0)
        _unavailable_then_back(client, game, down, up)


def test_a_postgresql_store_that_cannot_be_reached_answers_503_and_readyz_says_so(postgres: Cluster) -> None:
    """A database that refuses connections, its open ones cut (as when its server restarts)."""
    url = postgres.database()
    name = url.rsplit("/", 1)[1]

    def down() -> None:
        postgres.admin(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
        postgres.admin(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'")

    def up() -> None:
        postgres.admin(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")

    def down_and_unmeasured() -> None:
        down()
        assert "tan_database_bytes NaN" in client.get("/metrics").text

    settings = make_settings(url, retry_after_s=3, game_cache=0, database_timeout_s=1)
    with make_client(settings) as client:
        game = create(client, rules="durak", seats=["human", "human"], seed=3, first_attacker=0)
        _unavailable_then_back(client, game, down_and_unmeasured, up)
    # And a database that cannot be reached at all: the store is made (a server still starts and
    # its /readyz says 503), and every use of it is refused until it can be reached.
    unreachable = PostgresStore(f"postgresql://tan@127.0.0.1:{postgres.port}/nowhere", timeout=0.5)
    try:
        with pytest.raises(StorageUnavailableError):
            unreachable.probe()
    finally:
        unreachable.close()


def test_expiry_deletes_finished_and_abandoned_games_only(database: Path | str) -> None:
    store = store_of(database)
    for game_id, status in (("done", "over"), ("idle", "playing"), ("fresh", "playing"), ("recent", "over")):
        store.create(game_id, {"format": 1}, [(0, "attack 7c")], status)
    with store.transaction() as db:
        db.execute("UPDATE games SET updated_at = 100 WHERE id IN ('done', 'idle')")
        db.execute("UPDATE games SET updated_at = 300 WHERE id IN ('fresh', 'recent')")
    assert store.counts() == {"playing": 2, "over": 2}
    # Finished games go after 150, games being played only after 50: 'idle' stays this time.
    assert store.expire(finished_before=200, idle_before=50) == 1
    assert store.load("done") is None and store.load("idle") is not None
    assert store.expire(finished_before=200, idle_before=200) == 1
    assert store.load("idle") is None and store.load("fresh") is not None and store.load("recent") is not None
    with store.transaction(write=False) as db:
        assert db.execute("SELECT count(*) FROM moves").fetchone()[0] == 2  # their moves went too
    assert store.size() > 0


SCHEMA_1 = (
    "CREATE TABLE games (id TEXT PRIMARY KEY, setup TEXT NOT NULL, plies INTEGER NOT NULL DEFAULT 0,"
    " status TEXT NOT NULL, created_at REAL NOT NULL, updated_at REAL NOT NULL)",
    "CREATE TABLE moves (game_id TEXT NOT NULL REFERENCES games(id), ply INTEGER NOT NULL,"
    " seat INTEGER NOT NULL, move TEXT NOT NULL, PRIMARY KEY (game_id, ply))",
    "INSERT INTO games VALUES ('g', '{\"format\": 1}', 0, 'playing', 1, 1)",
)


def _schema_1(database: Path | str) -> None:
    """A store as the first Tấn left it: no client column, version 1 (SQLite's user_version; on
    PostgreSQL the first schema had no version table)."""
    if isinstance(database, Path):
        with sqlite3.connect(database) as db:
            db.executescript(";".join(SCHEMA_1) + "; PRAGMA user_version = 1;")
        return
    import psycopg

    with psycopg.connect(database, autocommit=True) as db:
        for statement in SCHEMA_1:
            db.execute(statement)  # type: ignore[arg-type]


def _version(store: GameStore) -> int:
    with store.transaction(write=False) as db:
        if isinstance(store, SqliteStore):
            return int(db.execute("PRAGMA user_version").fetchone()[0])
        return int(db.execute("SELECT version FROM tan_schema").fetchone()[0])


def test_a_store_of_the_first_schema_gains_the_client_column(database: Path | str) -> None:
    _schema_1(database)
    store = store_of(database)
    assert store.load("g") is not None and store.playing("someone") == 0
    store.create("h", {"format": 1}, [], "playing", client="someone", max_playing=1)
    with pytest.raises(TooManyGamesError):
        store.create("i", {"format": 1}, [], "playing", client="someone", max_playing=1)
    store.create("j", {"format": 1}, [], "playing", client="another", max_playing=1)
    # Its followed games came with schema 3, their client and size with schema 6 (reviews with schema 5).
    store.keep_followed("f" * 22, {"record": {}}, client="someone", max_games=1)
    with pytest.raises(TooManyFollowedError):
        store.keep_followed("g" * 22, {"record": {}}, client="someone", max_games=1)
    assert _version(store) == SCHEMA_VERSION
    assert _version(store_of(database)) == SCHEMA_VERSION  # opened again: nothing more to do


def test_racing_creations_keep_a_clients_cap(database: Path | str) -> None:
    """Six games of one client created at once with a cap of two: two are stored."""
    store = store_of(database)
    start = threading.Barrier(6)
    outcomes: list[str] = []

    def deal(number: int) -> None:
        start.wait()
        try:
            store.create(f"g{number}", {"format": 1}, [], "playing", client="someone", max_playing=2)
            outcomes.append("stored")
        except TooManyGamesError:
            outcomes.append("refused")

    threads = [threading.Thread(target=deal, args=(number,)) for number in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["refused"] * 4 + ["stored"] * 2
    assert store.playing("someone") == 2


def test_racing_followed_games_keep_a_clients_cap(database: Path | str) -> None:
    """Six followed games of one client kept at once with a cap of two: two are stored (the count
    and the insert are one step, on PostgreSQL too)."""
    store = store_of(database)
    start = threading.Barrier(6)
    outcomes: list[str] = []

    def keep(number: int) -> None:
        start.wait()
        try:
            store.keep_followed(f"followed-game-{number:09d}", {"record": {}}, client="someone", max_games=2)
            outcomes.append("stored")
        except TooManyFollowedError:
            outcomes.append("refused")

    threads = [threading.Thread(target=keep, args=(number,)) for number in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["refused"] * 4 + ["stored"] * 2


def test_a_client_may_have_only_so_many_games_being_played(database: Path | str) -> None:
    with make_client(make_settings(database, max_playing_per_client=2)) as client:
        first = create(client, rules="durak", seats=["human", "greedy"], seed=1)
        create(client, rules="durak", seats=["human", "greedy"], seed=2)
        refused = client.post("/v1/games", json={"rules": "durak", "seats": ["human", "greedy"]})
        assert "2 games being played" in error(refused, 429, "too_many_requests")
        play_out(client, first)
        create(client, rules="durak", seats=["human", "greedy"], seed=4)  # one finished: room again


def test_the_sweep_deletes_expired_games_and_the_metrics_show_the_store(database: Path | str) -> None:
    settings = make_settings(database, finished_ttl_s=0.001, abandoned_ttl_s=3600,
                             sweep_interval_s=0.02)
    with make_client(settings) as client:
        over = create(client, rules="durak", seats=["human", "greedy"], seed=3)
        play_out(client, over)
        playing = create(client, rules="durak", seats=["human", "greedy"], seed=4)
        store = services_of(client.app).store  # type: ignore[arg-type]
        counted = 'tan_games_stored{status="playing"} 1.0'

        def swept() -> bool:  # the game gone, and a sweep since both games were stored
            return store.load(over["id"]) is None and counted in client.get("/metrics").text

        event = threading.Event()
        for _ in range(1000):  # a hang guard, not a timing: the sweep runs every 20 ms
            if swept():
                break
            event.wait(0.01)
        assert swept()
        assert view(client, playing, 0)["status"] == "playing"  # not abandoned yet
        gone = client.get(f"/v1/games/{over['id']}", params={"seat": 0}, headers=bearer("x"))
        error(gone, 404, "not_found")
        metrics = client.get("/metrics").text
        size = next(line for line in metrics.splitlines() if line.startswith("tan_database_bytes "))
        assert float(size.split()[1]) > 0
        assert 'tan_games_stored{status="over"} 0.0' in metrics
        assert "tan_games_expired_total 1.0" in metrics
        pooled = next(line for line in metrics.splitlines()
                      if line.startswith('tan_database_connections{state="size"}'))
        assert (float(pooled.split()[1]) >= 1) == isinstance(database, str)  # a pool on PostgreSQL only


def test_an_id_outside_the_id_alphabet_is_refused_before_the_store(database: Path | str) -> None:
    """Ids are URL-safe base64: a NUL (which PostgreSQL's driver refused with a 500), a space or a
    dot names no game and no job, and is refused 422 on either store; a well-formed unknown id is
    404, and a real game still answers."""
    with make_client(make_settings(database)) as client:
        game = create(client, rules="durak", seats=["human", "greedy"], seed=3, first_attacker=0)
        headers = bearer(game["tokens"][0])
        for bad in ("a%00b", "a%20b", "a.b"):
            error(client.get(f"/v1/games/{bad}", params={"seat": 0}, headers=headers), 422, "invalid_request")
            error(client.get(f"/v1/jobs/{bad}"), 422, "invalid_request")
        error(client.get("/v1/games/unknown-id_0", params={"seat": 0}, headers=headers), 404, "not_found")
        error(client.get("/v1/jobs/unknown-id_0"), 404, "not_found")
        assert client.get(f"/v1/games/{game['id']}", params={"seat": 0}, headers=headers).status_code == 200


def test_a_review_is_kept_with_its_game_and_goes_with_it(database: Path | str) -> None:
    """A finished review is kept under its key with the game (replaced when kept again), and the
    sweep that deletes the game deletes its reviews; none is kept for a game that is gone."""
    store = store_of(database)
    store.create("g", {"format": 1}, [(0, "attack 7c")], "over")
    assert store.review("g", "seat=0:game=1:iterations=5000:seed=0") is None
    assert store.keep_review("g", "seat=0:game=1:iterations=5000:seed=0", {"moves": [1]})
    assert store.keep_review("g", "seat=0:game=1:iterations=5000:seed=0", {"moves": [2]})
    assert store.review("g", "seat=0:game=1:iterations=5000:seed=0") == {"moves": [2]}
    assert store.review("g", "seat=0:game=1:iterations=200:seed=0") is None
    assert not store.keep_review("gone", "seat=0:game=1:iterations=5000:seed=0", {"moves": []})
    with store.transaction() as db:
        db.execute("UPDATE games SET updated_at = 100 WHERE id = 'g'")
    assert store.expire(finished_before=200, idle_before=50) == 1
    with store.transaction(write=False) as db:
        assert db.execute("SELECT count(*) FROM reviews").fetchone()[0] == 0
