"""Every request within its budget and its caps (issue 24): replays and trackers take search slots,
the per-game cap comes before a replay, stored games and reviews have a length cap, and a review
whose client hangs up frees its slot."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import pytest

from benchmarks.long_game import long_record, record_json
from service.deps import Services, services_of
from service.games import LiveGame
from service.leases import LocalQuota
from service.process import ServiceProcess
from service.settings import Settings
from service.setup import GameSetup
from solver.game.reference import random_deck
from solver.game.rules import Rules
from solver.players import GreedyPlayer
from tests.support.positions import to_move_position
from tests.support.records import endgame_record
from tests.support.service import TestClient, bearer, create, error, make_client, make_settings, move, view

HANG_GUARD_S = 30.0  # only against a hang: a slot that never comes free fails the test


class Holder:
    """Real work holding search slots (or a client's share of them) until `release()`."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.gate = threading.Event()
        self.threads: list[threading.Thread] = []

    def slot(self) -> None:
        """Take a free slot of the pool with work that waits at the gate."""
        self.services.pool.submit(lambda: self.gate.wait(HANG_GUARD_S))
        assert self.services.pool.running >= 1

    def share(self, client: str) -> None:
        """Hold one search of `client` (queued or running) until the gate opens."""
        pool = self.services.pool
        held = pool.searches_of(client)

        def run() -> None:
            asyncio.run(pool.run(lambda _stop: self.gate.wait(HANG_GUARD_S), client=client))

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        self.threads.append(thread)
        wait_until(lambda: pool.searches_of(client) > held)

    def release(self) -> None:
        self.gate.set()
        for thread in self.threads:
            thread.join(HANG_GUARD_S)
        wait_until(lambda: self.services.pool.running == 0)


def wait_until(condition: Callable[[], bool]) -> None:
    pause = threading.Event()
    for _ in range(3000):
        if condition():
            return
        pause.wait(0.01)
    raise AssertionError("the condition never came true")


@pytest.fixture
def one_slot(tmp_path: Path) -> Iterator[tuple[TestClient, Services, Holder]]:
    with make_client(make_settings(tmp_path / "games.db", max_searches=1)) as client:
        services = services_of(client.app)  # type: ignore[arg-type]
        holder = Holder(services)
        yield client, services, holder
        holder.release()


def play_one(client: TestClient, game: dict[str, Any]) -> None:
    """The seat to move plays its first legal move (a game of human seats)."""
    seat = view(client, game, 0)["position"]["to_move"]
    legal = view(client, game, seat)["legal_moves"]
    assert move(client, game, seat, legal[0]).status_code == 200


def bad_record() -> dict[str, Any]:
    """The hand-made record with an impossible last event (seat 1 does not move there)."""
    record = endgame_record().to_json()
    return {**record, "events": [*record["events"], {"seat": 1, "move": "attack 6d"}]}


def test_a_record_is_replayed_only_in_a_search_slot(one_slot: Any) -> None:
    """With every slot busy and no queue, a record is refused 503 before it is replayed (it was
    replayed first, in a worker thread, and its bad event answered 422)."""
    client, _services, holder = one_slot
    holder.slot()
    for path in ("/v1/analyze", "/v1/hint", "/v1/evaluate"):
        busy = client.post(path, json={"record": bad_record()})
        assert busy.status_code == 503 and busy.headers["retry-after"], (path, busy.text)
    holder.release()
    for path in ("/v1/analyze", "/v1/hint", "/v1/evaluate"):
        message = error(client.post(path, json={"record": bad_record()}), 422, "illegal_move")
        assert message.startswith("events[")


def test_the_tracker_takes_a_search_slot_and_keeps_its_answer(tmp_path: Path) -> None:
    """Busy slots: the tracker waits (here 0.2 s) and is refused; once answered, the same state's
    tracker is kept with the game and answered without a slot. (A queue of one, so that the gate
    in front of search routes lets the request through to its kept answer.)"""
    settings = make_settings(tmp_path / "games.db", max_searches=1, queue_size=1, queue_wait_s=0.2)
    with make_client(settings) as client:
        holder = Holder(services_of(client.app))  # type: ignore[arg-type]
        try:
            tracker_checks(client, holder)
        finally:
            holder.release()


def tracker_checks(client: TestClient, holder: Holder) -> None:
    game = create(client, rules="durak", seats=["human", "human"], seed=5)
    url, seat0 = f"/v1/games/{game['id']}/tracker", bearer(game["tokens"][0])
    holder.slot()
    busy = client.get(url, params={"seat": 0}, headers=seat0)
    assert busy.status_code == 503 and busy.headers["retry-after"]
    holder.release()
    first = client.get(url, params={"seat": 0}, headers=seat0)
    assert first.status_code == 200
    again = Holder(holder.services)
    again.slot()
    try:  # the same state's tracker again: kept with the game, no slot needed
        kept = client.get(url, params={"seat": 0}, headers=seat0)
        assert kept.status_code == 200 and kept.json() == first.json()
    finally:
        again.release()
    play_one(client, game)
    after = client.get(url, params={"seat": 0}, headers=seat0)
    assert after.status_code == 200 and after.json()["cards"] != first.json()["cards"]


def test_the_tracker_counts_against_the_clients_searches(tmp_path: Path) -> None:
    settings = make_settings(tmp_path / "games.db", max_searches_per_client=1)
    with make_client(settings) as client:
        services = services_of(client.app)  # type: ignore[arg-type]
        game = create(client, rules="durak", seats=["human", "human"], seed=6)
        holder = Holder(services)
        holder.share("testclient")  # the test client's address
        try:
            url = f"/v1/games/{game['id']}/tracker"
            refused = client.get(url, params={"seat": 0}, headers=bearer(game["tokens"][0]))
            assert error(refused, 429, "too_many_requests") and refused.headers["retry-after"]
        finally:
            holder.release()


def test_the_per_game_cap_is_checked_before_the_game_is_replayed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = make_settings(tmp_path / "games.db", max_requests_per_game=1)
    with make_client(settings) as client:
        services = services_of(client.app)  # type: ignore[arg-type]
        game = create(client, rules="durak", seats=["human", "human"], seed=8)
        play_one(client, game)
        replays: list[str] = []
        rebuild = LiveGame.rebuild

        def counted(record: Any) -> LiveGame:
            replays.append(record.id)
            return rebuild(record)

        monkeypatch.setattr(LiveGame, "rebuild", staticmethod(counted))
        services.games._forget(game["id"])  # as after a restart: the next read replays it
        working = services.games._working
        assert isinstance(working, LocalQuota)  # SQLite: the places are counted in memory
        with working.quota.holding(game["id"]):  # one request at work on the game
            url = f"/v1/games/{game['id']}"
            refused = client.get(url, params={"seat": 0}, headers=bearer(game["tokens"][0]))
            assert error(refused, 429, "too_many_requests")
            wrong = client.get(url, params={"seat": 0}, headers=bearer("not-the-token"))
            assert error(wrong, 404, "not_found")  # the token first: a stranger never counts
        assert replays == []
        view(client, game, 0)
        assert replays == [game["id"]]


def test_many_reads_at_once_replay_a_game_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with make_client(make_settings(tmp_path / "games.db")) as client:
        services = services_of(client.app)  # type: ignore[arg-type]
        game = create(client, rules="durak", seats=["human", "human"], seed=9)
        replays: list[str] = []
        entered = threading.Barrier(2, timeout=HANG_GUARD_S)
        rebuild = LiveGame.rebuild

        def counted(record: Any) -> LiveGame:
            replays.append(record.id)
            entered.wait()  # the second read comes in while the first replays
            return rebuild(record)

        monkeypatch.setattr(LiveGame, "rebuild", staticmethod(counted))
        services.games._forget(game["id"])
        manager = services.games
        record = services.store.load(game["id"])
        assert record is not None
        first = threading.Thread(target=lambda: manager._rebuilt(record), daemon=True)
        first.start()
        wait_until(lambda: len(replays) == 1)
        second = threading.Thread(target=lambda: manager._rebuilt(record), daemon=True)
        second.start()
        entered.wait()
        first.join(HANG_GUARD_S)
        second.join(HANG_GUARD_S)
        assert replays == [game["id"]]


def test_a_stored_game_takes_no_move_past_its_cap(tmp_path: Path) -> None:
    with make_client(make_settings(tmp_path / "games.db", max_game_moves=3)) as client:
        game = create(client, rules="durak", seats=["human", "human"], seed=10)
        for _ in range(3):
            play_one(client, game)
        before = view(client, game, 0)
        seat = before["position"]["to_move"]
        legal = view(client, game, seat)["legal_moves"]
        message = error(move(client, game, seat, legal[0]), 422, "invalid_move")
        assert "3 moves" in message and "TAN_MAX_GAME_MOVES" in message
        assert view(client, game, 0) == before


def test_engines_stop_at_the_game_cap(tmp_path: Path) -> None:
    with make_client(make_settings(tmp_path / "games.db", max_game_moves=1)) as client:
        game = create(client, rules="durak", seats=["greedy", "human"], seed=11, first_attacker=0)
        assert len(view(client, game, 1)["history"]) == 1  # the engine's lead, and no more


def test_a_review_of_too_many_decisions_is_refused(tmp_path: Path) -> None:
    with make_client(make_settings(tmp_path / "games.db", max_review_decisions=5)) as client:
        answer = client.post("/v1/analyze", json={"record": endgame_record().to_json()})
        message = error(answer, 422, "invalid_record")
        assert "at most 5" in message and "TAN_MAX_REVIEW_DECISIONS" in message


def test_the_per_client_search_limit_is_on_by_default(tmp_path: Path) -> None:
    assert Settings(database=tmp_path / "games.db").max_searches_per_client == 4


def test_a_games_history_kept_move_by_move_is_the_replayed_one() -> None:
    """The readers `LiveGame.play` keeps up to date give what a replay from the deal gives."""
    rules = Rules.preset_named("durak")
    setup = GameSetup.from_json({"format": 1, "rules": rules.to_json(), "players": 3, "seed": 4,
                                 "first_attacker": 0, "deck": [str(card) for card in random_deck(rules, 4)],
                                 "seats": ["human", "human", "human"], "token_hashes": [None] * 3})
    kept = LiveGame("kept", setup, LiveGame.new_match(setup))
    for seat in range(3):
        kept.history_of(seat)  # from now on kept move by move
    player = GreedyPlayer()
    ply = 0
    while not kept.over and ply < 60:
        mover = kept.game.to_move
        assert mover is not None
        kept = kept.copy()
        kept.play(player.choose(kept.position(mover), ply), mover)
        ply += 1
    fresh = LiveGame("fresh", setup, LiveGame.new_match(setup), list(kept.history), list(kept.after))
    for seat in range(3):
        one, other = kept.history_of(seat), fresh.history_of(seat)
        assert one.decisions == other.decisions > 0
        assert np.array_equal(one.ops, other.ops)


def test_a_long_review_never_holds_the_slots_against_others(tmp_path: Path) -> None:
    """A real server, one slot, the long record reviewed with default limits: it is queued as a job
    (202 at once, nothing held by the request), and while its worker reviews it decision by
    decision, each in the slot, a hint gets the slot between two decisions (before jobs, the
    review held its slot for minutes, and a hung-up one went on)."""
    body = {"record": record_json(long_record(1, 0))}
    server = ServiceProcess(tmp_path / "games.db", max_searches=1, queue_size=1, queue_wait_s=HANG_GUARD_S,
                            max_review_decisions=1000, job_workers=1)
    with server, httpx.Client(base_url=server.url, timeout=HANG_GUARD_S) as http:
        queued = http.post("/v1/analyze", json=body)
        assert queued.status_code == 202, queued.text
        where = queued.headers["location"]

        def running() -> float:
            for line in http.get("/metrics").text.splitlines():
                if line.startswith("tan_searches_running "):
                    return float(line.split()[1])
            raise AssertionError("no tan_searches_running in /metrics")

        wait_until(lambda: running() == 1)  # the worker has the only slot
        hint = http.post("/v1/hint", json={"position": to_move_position(), "limits": {"iterations": 50}})
        assert hint.status_code == 200, hint.text
        job = http.get(where).json()
        assert job["status"] in ("queued", "running") and job["progress"]["done"] < job["progress"]["total"]
