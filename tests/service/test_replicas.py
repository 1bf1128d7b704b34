"""Two `tan serve` replicas on one PostgreSQL database (real processes, a real server): a game
played through both, racing moves with and without `expected_ply`, a replica killed with -9
mid-move, and the per-game and per-client limits counted across both.

Every wait is a hang guard, never a timing; seeds fix every deal.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from service.process import ServiceProcess
from tests.support.postgres import Cluster

ENGINE = {"engine": "ismcts", "limits": {"iterations": 100}}
SMALL = {"default_iterations": 200, "max_iterations": 1_000_000, "max_time_ms": 4_000, "job_workers": 0,
         "max_searches": 1, "queue_size": 4}


class Replica:
    """One replica and an HTTP client to it."""

    def __init__(self, url: str, **settings: Any) -> None:
        self.server = ServiceProcess(url, **{**SMALL, **settings})
        self.server.start()
        self.http = httpx.Client(base_url=self.server.url, timeout=60)

    def metric(self, name: str) -> float:
        """The value of one metric line (its name with labels), 0 when absent."""
        for line in self.http.get("/metrics").text.splitlines():
            if line.startswith(name + " "):
                return float(line.split()[1])
        return 0.0

    def close(self) -> None:
        self.http.close()
        self.server.stop()


@pytest.fixture
def replicas(postgres: Cluster, request: pytest.FixtureRequest) -> Iterator[tuple[Replica, Replica]]:
    settings = getattr(request, "param", {})
    url = postgres.database()
    first = Replica(url, **settings)
    try:
        second = Replica(url, **settings)
    except BaseException:
        first.close()
        raise
    try:
        yield first, second
    finally:
        first.close()
        second.close()


def auth(game: dict[str, Any], seat: int = 0) -> dict[str, str]:
    return {"Authorization": f"Bearer {game['tokens'][seat]}"}


def new_game(replica: Replica, seed: int, **request: Any) -> dict[str, Any]:
    body = {"rules": "durak", "seats": ["human", ENGINE], "seed": seed, "first_attacker": 0, **request}
    answer = replica.http.post("/v1/games", json=body)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def read(replica: Replica, game: dict[str, Any]) -> dict[str, Any]:
    answer = replica.http.get(f"/v1/games/{game['id']}", params={"seat": 0}, headers=auth(game))
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def play(replica: Replica, game: dict[str, Any], move: Any, expected_ply: int | None) -> httpx.Response:
    body: dict[str, Any] = {"seat": 0, "move": move}
    if expected_ply is not None:
        body["expected_ply"] = expected_ply
    return replica.http.post(f"/v1/games/{game['id']}/moves", json=body, headers=auth(game))


def engine_searches(*replicas: Replica) -> float:
    return sum(replica.metric('tan_searches_total{kind="engine"}') for replica in replicas)


def engine_moves(view: dict[str, Any]) -> int:
    return sum(1 for entry in view["history"] if entry["seat"] == 1)


@pytest.mark.long
def test_a_game_played_alternately_through_both(replicas: tuple[Replica, Replica]) -> None:
    first, second = replicas
    game = new_game(first, seed=11)
    view = game["game"]
    for turn in range(300):
        if view["status"] == "over":
            break
        replica = (first, second)[turn % 2]
        if turn == 2:
            hint = replica.http.get(f"/v1/games/{game['id']}/hint", params={"seat": 0, "iterations": 100},
                                    headers=auth(game))
            assert hint.status_code == 200, hint.text
        answer = play(replica, game, view["legal_moves"][0], len(view["history"]))
        assert answer.status_code == 200, answer.text
        view = answer.json()
    assert view["status"] == "over"
    assert read(first, game) == read(second, game) == view
    tracker = second.http.get(f"/v1/games/{game['id']}/tracker", params={"seat": 0}, headers=auth(game))
    assert tracker.status_code == 200, tracker.text
    assert engine_searches(first, second) == engine_moves(view)  # every engine reply computed once


def _race(calls: list[Any]) -> list[httpx.Response]:
    """Make the calls at once, each from its own thread; their answers in order."""
    start = threading.Barrier(len(calls))
    answers: list[Any] = [None] * len(calls)

    def call(index: int) -> None:
        start.wait()
        answers[index] = calls[index]()

    threads = [threading.Thread(target=call, args=(index,)) for index in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


@pytest.mark.long
def test_racing_moves_are_stored_once_and_replied_to_once(replicas: tuple[Replica, Replica]) -> None:
    """The same move sent to both replicas at once: with `expected_ply` one is played and the other
    answered 409 game_moved_on; without, the second is played on the game as the first left it, or
    refused as bad input. Either way each engine reply is computed once, by one replica."""
    first, second = replicas
    game = new_game(first, seed=12)
    view = read(second, game)
    for turn in range(40):
        if view["status"] == "over":
            break
        move, ply = view["legal_moves"][0], len(view["history"])
        guarded = turn % 2 == 0
        expected = ply if guarded else None
        answers = _race([lambda r=replica, m=move, e=expected: play(r, game, m, e)  # type: ignore[misc]
                         for replica in (first, second)])
        statuses = sorted(answer.status_code for answer in answers)
        if guarded:
            assert statuses == [200, 409], [answer.text for answer in answers]
            refused = next(answer for answer in answers if answer.status_code == 409)
            assert refused.json()["code"] == "game_moved_on"
        else:
            assert statuses[0] == 200 and statuses[1] in (200, 422), [answer.text for answer in answers]
        view = read(first, game)
        assert read(second, game) == view
    assert engine_searches(first, second) == engine_moves(view)


def test_a_replica_killed_mid_move_loses_nothing_acknowledged(replicas: tuple[Replica, Replica]) -> None:
    """A replica killed with -9 while its engine searches: the moves answered before are all stored,
    the one in flight is not, and the other replica goes on at once (the move lock died with it)."""
    first, second = replicas
    slow = {"engine": "ismcts", "limits": {"iterations": 1_000_000, "time_ms": 4_000}}
    game = new_game(second, seed=13, seats=["human", slow])
    view = game["game"]
    answer = play(second, game, view["legal_moves"][0], len(view["history"]))
    assert answer.status_code == 200, answer.text
    view = answer.json()
    outcome: list[Any] = []

    def in_flight(move: Any, ply: int) -> None:
        try:
            outcome.append(play(first, game, move, ply))
        except httpx.HTTPError as error:
            outcome.append(error)

    event = threading.Event()
    for _ in range(20):  # moves the engine need not answer (it took, and the seat throws in) are played on
        acknowledged = view["history"]
        move, ply = view["legal_moves"][0], len(view["history"])
        outcome.clear()
        thread = threading.Thread(target=in_flight, args=(move, ply))
        thread.start()
        for _ in range(6000):  # a hang guard: until the engine searches on the first replica, or it answered
            if first.metric("tan_searches_running") >= 1 or not thread.is_alive():
                break
            event.wait(0.01)
        if thread.is_alive():
            break
        thread.join()
        assert isinstance(outcome[0], httpx.Response) and outcome[0].status_code == 200, outcome
        view = outcome[0].json()
    else:
        raise AssertionError("the engine never searched in 20 moves")
    assert first.server.process is not None
    first.server.process.send_signal(signal.SIGKILL)
    thread.join()
    assert isinstance(outcome[0], httpx.HTTPError)  # never acknowledged
    stored = read(second, game)
    assert stored["history"] == acknowledged  # nothing acknowledged lost, nothing half stored
    answer = play(second, game, move, ply)
    assert answer.status_code == 200, answer.text
    assert answer.json()["history"][: len(acknowledged)] == acknowledged


@pytest.mark.parametrize(
    "replicas", [{"max_requests_per_game": 1, "max_searches_per_client": 1, "max_playing_per_client": 2}],
    indirect=True,
)
def test_the_limits_hold_across_both_replicas(replicas: tuple[Replica, Replica]) -> None:
    first, second = replicas
    game = new_game(first, seed=14, seats=["human", "greedy"])
    other = new_game(second, seed=15, seats=["human", "greedy"])
    refused = first.http.post("/v1/games", json={"rules": "durak", "seats": ["human", "greedy"]})
    assert refused.status_code == 429 and refused.json()["code"] == "too_many_requests"
    again = second.http.post("/v1/games", json={"rules": "durak", "seats": ["human", "greedy"]})
    assert again.status_code == 429
    outcome: list[httpx.Response] = []
    long_hint = {"seat": 0, "iterations": 1_000_000, "time_ms": 4_000}
    thread = threading.Thread(target=lambda: outcome.append(first.http.get(
        f"/v1/games/{game['id']}/hint", params=long_hint, headers=auth(game))))
    thread.start()
    event = threading.Event()
    for _ in range(6000):  # a hang guard: until the hint searches on the first replica
        if first.metric("tan_searches_running") >= 1:
            break
        event.wait(0.01)
    busy_game = second.http.get(f"/v1/games/{game['id']}", params={"seat": 0}, headers=auth(game))
    assert busy_game.status_code == 429, busy_game.text  # the game's one place is the first's
    assert busy_game.headers["retry-after"]
    busy_client = second.http.get(f"/v1/games/{other['id']}/hint", params={"seat": 0, "iterations": 50},
                                  headers=auth(other))
    assert busy_client.status_code == 429, busy_client.text  # the client's one search is the first's
    thread.join()
    assert outcome[0].status_code == 200, outcome[0].text
    assert read(second, game)["id"] == game["id"]  # the places are free again
    hint = second.http.get(f"/v1/games/{other['id']}/hint", params={"seat": 0, "iterations": 50},
                           headers=auth(other))
    assert hint.status_code == 200, hint.text
