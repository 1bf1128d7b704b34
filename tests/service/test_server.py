"""End to end: a real `tan serve` process, a whole game over HTTP, Ctrl-C, and a restart."""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import shutil
import socket
import stat
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from service.process import ServiceProcess as Server
from tests.support.positions import to_move_position
from tests.support.service import create, make_client, make_settings, move, view


def test_a_whole_game_over_http_then_ctrl_c_and_a_restart(tmp_path: Path) -> None:
    database = tmp_path / "games.db"
    server = Server(database, default_iterations=100, max_iterations=1000, max_time_ms=500)
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=30.0) as http:
            answer = http.post("/v1/games", json={"rules": "durak", "seats": ["human", "greedy"], "seed": 31})
            assert answer.status_code == 201, answer.text
            created = answer.json()
            game_id, token = created["id"], created["tokens"][0]
            auth = {"Authorization": f"Bearer {token}"}
            body = created["game"]
            plies = 0
            while body["status"] == "playing":
                assert body["position"]["to_move"] == 0 and body["legal_moves"]
                if plies % 5 == 0:
                    hint = http.get(
                        f"/v1/games/{game_id}/hint", params={"seat": 0, "iterations": 50}, headers=auth
                    )
                    assert hint.status_code == 200, hint.text
                    chosen = hint.json()["best"]
                else:
                    chosen = body["legal_moves"][plies % len(body["legal_moves"])]
                answer = http.post(
                    f"/v1/games/{game_id}/moves", json={"seat": 0, "move": chosen}, headers=auth
                )
                assert answer.status_code == 200, answer.text
                body = answer.json()
                plies += 1
                assert plies < 500
            assert body["scores"] is not None and len(body["history"]) > plies
            assert http.get("/metrics").text.count("tan_http_requests_total") > 3
    finally:
        status = server.stop()
    assert status == 0  # Ctrl-C shuts the server down cleanly

    with Server(database) as again, httpx.Client(base_url=again.url, timeout=30.0) as http:
        stored = http.get(f"/v1/games/{game_id}", params={"seat": 0}, headers=auth)
        assert stored.status_code == 200
        assert stored.json() == body


def test_the_server_names_no_software_and_sends_the_security_headers(tmp_path: Path) -> None:
    with Server(tmp_path / "games.db") as server, httpx.Client(base_url=server.url, timeout=30.0) as http:
        for path in ("/", "/healthz", "/v1/rules", "/v1/nothing"):
            answer = http.get(path)
            assert "server" not in answer.headers, path
            assert answer.headers["x-content-type-options"] == "nosniff", path
        for path in ("/healthz", "/readyz"):  # probes may send HEAD: answered as GET, without a body
            answer = http.head(path)
            assert answer.status_code == 200 and answer.content == b"", path


def _running(http: httpx.Client) -> float:
    lines = http.get("/metrics").text.splitlines()
    return float(next(line for line in lines if line.startswith("tan_searches_running")).split()[1])


def test_a_search_stops_when_its_client_hangs_up(tmp_path: Path) -> None:
    """A 10-minute hint whose client goes away frees its search slot at once: the search reads a
    stop flag the server sets on the disconnect."""
    settings = {"max_searches": 1, "max_time_ms": 600_000, "max_iterations": 10**12}
    body = json.dumps({"position": to_move_position(), "limits": {"iterations": 10**12, "time_ms": 600_000}})
    server = Server(tmp_path / "games.db", **settings)
    with server, httpx.Client(base_url=server.url, timeout=30) as http:
        client = socket.create_connection(("127.0.0.1", server.port))
        client.sendall(
            f"POST /v1/hint HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n{body}".encode()
        )
        wait = threading.Event()
        for _ in range(3000):  # hang guards, not timings: unstopped, the search runs for 10 minutes
            if _running(http) == 1:
                break
            wait.wait(0.01)
        assert _running(http) == 1
        client.close()
        for _ in range(3000):
            if _running(http) == 0:
                break
            wait.wait(0.01)
        assert _running(http) == 0, "the search went on after its client hung up"
        hint = http.post("/v1/hint", json={"position": to_move_position(), "limits": {"iterations": 100}})
        assert hint.status_code == 200


def _read_all(connection: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (a hang guard of 30 s)."""
    connection.settimeout(30)
    data = b""
    while chunk := connection.recv(65536):
        data += chunk
    return data


def _code(answer: bytes) -> str:
    return str(json.loads(answer.partition(b"\r\n\r\n")[2])["code"])


def test_slow_clients_are_cut_off_and_connections_are_limited(tmp_path: Path) -> None:
    """Headers or a body that do not come in time: 408 and the connection closed. Past the
    concurrency limit, a new request is answered 503 at once."""
    settings = {"header_timeout_s": 0.3, "body_timeout_s": 0.3, "limit_concurrency": 4}
    with Server(tmp_path / "games.db", **settings) as server:
        address = ("127.0.0.1", server.port)
        with socket.create_connection(address) as slow:
            slow.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")  # the headers never end
            answer = _read_all(slow)
        assert answer.startswith(b"HTTP/1.1 408 ") and _code(answer) == "request_timeout"
        head = answer.partition(b"\r\n\r\n")[0].decode().lower()
        expected = (
            "x-content-type-options: nosniff", "x-frame-options: deny", "referrer-policy: no-referrer",
            "content-security-policy: default-src 'none'; frame-ancestors 'none'",
        )  # fmt: skip
        for header in expected:
            assert header in head, head  # the server's own answer carries what every answer does
        with socket.create_connection(address) as trickle:
            trickle.sendall(
                b"POST /v1/moves HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Content-Length: 100\r\n\r\n{"  # 1 byte of 100
            )
            answer = _read_all(trickle)
        assert answer.startswith(b"HTTP/1.1 408 ") and _code(answer) == "request_timeout"
        idle = [socket.create_connection(address) for _ in range(4)]
        try:
            with httpx.Client(base_url=server.url, timeout=30.0) as http:
                assert http.get("/healthz").status_code == 503
        finally:
            for connection in idle:
                connection.close()
        with httpx.Client(base_url=server.url, timeout=30.0) as http:
            assert http.get("/healthz").status_code == 200


def test_a_store_unavailable_at_start_leaves_the_server_unready_until_it_comes(tmp_path: Path) -> None:
    """The database's folder cannot be made (a file stands where it should be, a real error even
    for root): the server still starts, `/healthz` answers 200, `/readyz` and whatever needs the
    store 503 storage_unavailable with Retry-After; once the folder can be made, the store opens on
    the next use and games are stored (docs/api.md §3)."""
    disk = tmp_path / "disk"
    disk.write_text("a file where the database's folder should be")
    database = disk / "games.db"
    request = {"rules": "durak", "seats": ["human", "human"], "seed": 3}
    with Server(database, retry_after_s=2) as server, httpx.Client(base_url=server.url, timeout=30.0) as http:
        assert http.get("/healthz").status_code == 200 and http.get("/metrics").status_code == 200
        for answer in (http.get("/readyz"), http.post("/v1/games", json=request)):
            assert answer.status_code == 503, answer.text
            assert answer.json()["code"] == "storage_unavailable" and answer.headers["retry-after"] == "2"
        disk.unlink()
        ready = http.get("/readyz")
        assert ready.status_code == 200 and ready.json()["status"] == "ready"
        created = http.post("/v1/games", json=request)
        assert created.status_code == 201, created.text
        auth = {"Authorization": f"Bearer {created.json()['tokens'][0]}"}
        read = http.get(f"/v1/games/{created.json()['id']}", params={"seat": 0}, headers=auth)
        assert read.status_code == 200, read.text
    assert stat.S_IMODE(database.stat().st_mode) == 0o600


@contextlib.contextmanager
def _read_only(folder: Path) -> Iterator[list[str]]:
    """A way to serve `folder` read-only for real: yields the wrapper the server runs under.

    As root (where file permissions stop no write) a private mount namespace binds the folder onto
    itself read-only, for the server's process alone; as anyone else the folder and its files lose
    their write permission for the while."""
    if os.geteuid() != 0:
        files = [(path, stat.S_IMODE(path.stat().st_mode)) for path in [*folder.iterdir(), folder]]
        for path, mode in files:
            path.chmod(mode & ~0o222)
        try:
            yield []
        finally:
            for path, mode in files:
                path.chmod(mode)
        return
    script = f"mount --bind {shlex.quote(str(folder))} {shlex.quote(str(folder))} && " \
        f"mount -o remount,bind,ro {shlex.quote(str(folder))}"
    if shutil.which("unshare") is None or subprocess.run(
        ["unshare", "-m", "sh", "-c", script], capture_output=True, check=False
    ).returncode != 0:
        reason = ("running as root without a mount namespace (unshare -m, mount --bind): no way to "
                  "make a folder read-only for real")
        if os.environ.get("CI"):
            pytest.fail(f"{reason}; make test installs util-linux and mount")
        pytest.skip(reason)
    yield ["unshare", "-m", "sh", "-c", f'{script} && exec "$@"', "sh"]


def test_on_a_read_only_disk_reads_are_served_and_writes_refused(tmp_path: Path) -> None:
    """The disk under the database is read-only (for real: see `_read_only`): the server starts,
    a stored game's views and tracker are served from the file as it is, a move and a new game are
    503 storage_unavailable and change nothing, and `/readyz` says the store cannot be written."""
    folder = tmp_path / "data"
    database = folder / "games.db"
    request = {"rules": "durak", "seats": ["human", "human"], "seed": 3, "first_attacker": 0}
    with make_client(make_settings(database)) as client:
        game = create(client, **request)
        lead = view(client, game, 0)["legal_moves"][0]
        assert move(client, game, 0, lead).status_code == 200
        seen = [view(client, game, seat) for seat in (0, 1)]
    assert not (folder / "games.db-wal").exists()  # the last connection closed: all is in the file
    auth = [{"Authorization": f"Bearer {token}"} for token in game["tokens"]]
    with _read_only(folder) as wrapper, Server(database, wrapper=wrapper) as server, httpx.Client(
        base_url=server.url, timeout=30.0
    ) as http:
        url = f"/v1/games/{game['id']}"
        for seat in (0, 1):
            answer = http.get(url, params={"seat": seat}, headers=auth[seat])
            assert answer.status_code == 200, answer.text
            assert answer.json() == seen[seat]
        tracker = http.get(f"{url}/tracker", params={"seat": 1}, headers=auth[1])
        assert tracker.status_code == 200, tracker.text
        reply = seen[1]["legal_moves"][0]
        refused = [
            http.post(f"{url}/moves", json={"seat": 1, "move": reply}, headers=auth[1]),
            http.post("/v1/games", json=request),
            http.get("/readyz"),
        ]
        for answer in refused:
            assert answer.status_code == 503, answer.text
            assert answer.json()["code"] == "storage_unavailable"
        assert http.get("/healthz").status_code == 200
        assert http.get(url, params={"seat": 1}, headers=auth[1]).json() == seen[1]


@contextlib.contextmanager
def _small_disk(folder: Path, fill: Path, full: Path) -> Iterator[list[str]]:
    """A 2 MiB disk for real under `folder`, for the server alone: yields the wrapper it runs under.
    Once `fill` exists a filler writes the disk to its last byte, then `full` appears (both outside
    the disk). A private mount namespace mounts it, so only as root with `unshare -m`."""
    if os.geteuid() != 0 or shutil.which("unshare") is None or subprocess.run(
        ["unshare", "-m", "sh", "-c", f"mount -t tmpfs -o size=64k tmpfs {shlex.quote(str(folder))}"],
        capture_output=True, check=False,
    ).returncode != 0:
        reason = "a disk that fills for real needs root and a mount namespace (unshare -m, mount -t tmpfs)"
        if os.environ.get("CI"):
            pytest.fail(f"{reason}; make test installs util-linux and mount")
        pytest.skip(reason)
    disk, fill_q, full_q = (shlex.quote(str(path)) for path in (folder, fill, full))
    filler = (  # waits at most 60 s for its cue, so it never outlives the test
        f"(for _ in $(seq 1200); do [ -e {fill_q} ] && break; sleep 0.05; done; "
        f"dd if=/dev/zero of={disk}/filler bs=4096 2>/dev/null; touch {full_q}) &"
    )
    script = f"mount -t tmpfs -o size=2m tmpfs {disk} || exit 1; {filler} exec \"$@\""
    try:
        yield ["unshare", "-m", "sh", "-c", script, "sh"]
    finally:
        fill.touch()


def test_on_a_full_disk_reads_are_served_and_writes_refused(tmp_path: Path) -> None:
    """The disk under a SQLite store fills to its last byte (for real: see `_small_disk`) while the
    server is idle: a stored game's views and a followed game are still read, while a move, a
    followed game kept and `/readyz` answer 503 storage_unavailable and change nothing. Every read
    answered 503 too (issue 64): SQLite deletes its log's index when the last connection closes,
    and a full disk cannot hold a new one."""
    folder, fill, full = tmp_path / "data", tmp_path / "fill", tmp_path / "full"
    folder.mkdir()
    followed = "/v1/followed/a-followed-game-id_0123456789"
    record = {"rules": "durak", "players": 2, "seat": 0, "hand": ["6s", "7s", "8s", "9s", "Ts", "Js"],
              "trump": "7c", "first_attacker": 1, "events": [{"seat": 1, "move": "attack 6h"}]}
    with _small_disk(folder, fill, full) as wrapper, Server(folder / "games.db", wrapper=wrapper) as server, \
            httpx.Client(base_url=server.url, timeout=30.0) as http:
        created = http.post("/v1/games", json={"rules": "durak", "seats": ["human", "human"], "seed": 3,
                                               "first_attacker": 0})
        assert created.status_code == 201, created.text
        game = created.json()
        url, auth = f"/v1/games/{game['id']}", [{"Authorization": f"Bearer {t}"} for t in game["tokens"]]
        lead = game["game"]["legal_moves"][0]
        assert http.post(f"{url}/moves", json={"seat": 0, "move": lead}, headers=auth[0]).status_code == 200
        assert http.put(followed, json={"record": record}).status_code == 200
        seen = [http.get(url, params={"seat": seat}, headers=auth[seat]).json() for seat in (0, 1)]
        fill.touch()
        for _ in range(1200):  # the filler's cue taken; it ends within seconds
            if full.exists():
                break
            threading.Event().wait(0.05)
        assert full.exists(), "the disk did not fill"
        for seat in (0, 1):
            answer = http.get(url, params={"seat": seat}, headers=auth[seat])
            assert answer.status_code == 200, answer.text
            assert answer.json() == seen[seat]
        assert http.get(followed).status_code == 200
        reply = seen[1]["legal_moves"][0]
        refused = [
            http.post(f"{url}/moves", json={"seat": 1, "move": reply}, headers=auth[1]),
            http.put(followed, json={"record": {**record, "events": []}}),
            http.get("/readyz"),
        ]
        for answer in refused:
            assert answer.status_code == 503, answer.text
            assert answer.json()["code"] == "storage_unavailable"
        assert http.get("/healthz").status_code == 200
        assert http.get(url, params={"seat": 1}, headers=auth[1]).json() == seen[1]
        assert http.get(followed).json()["record"]["events"] == [{"seat": 1, "move": {"action": "attack",
                                                                                     "card": "6h"}}]


def test_a_client_cannot_pick_its_address_unless_a_proxy_is_named(tmp_path: Path) -> None:
    """By default no proxy is trusted: a local process sending X-Forwarded-For is still the address
    it connects from, so it cannot step past the per-client cap (one game being played here). With
    `TAN_FORWARDED_ALLOW_IPS` naming the proxy (this host), the forwarded address is the client."""
    request = {"rules": "durak", "seats": ["human", "greedy"], "seed": 1}

    def create_as(http: httpx.Client, address: str) -> int:
        return http.post("/v1/games", json=request, headers={"X-Forwarded-For": address}).status_code

    for trusted, second in (({}, 429), ({"forwarded_allow_ips": "127.0.0.1"}, 201)):
        settings = {"max_playing_per_client": 1, **trusted}
        with Server(tmp_path / f"games-{second}.db", **settings) as server, httpx.Client(
            base_url=server.url, timeout=30.0
        ) as http:
            assert create_as(http, "198.51.100.1") == 201
            assert create_as(http, "198.51.100.2") == second, trusted
