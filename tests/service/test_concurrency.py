"""Searches never block what does not need them: health, views, other games; and the engine budget."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from service.deps import services_of
from service.live import LiveGame
from solver.game.position import Position
from solver.game.reference import Game
from solver.game.rules import Rules
from solver.players import GreedyPlayer
from tests.support.positions import to_move_position
from tests.support.service import (
    TestClient,
    bearer,
    create,
    error,
    make_client,
    make_settings,
    move,
    view,
)

HANG_GUARD_S = 20.0  # only against a hang: a blocked call never returns at all


def in_thread(call: Callable[[], Any]) -> tuple[threading.Thread, list[Any]]:
    """Run `call` in a thread; its result lands in the list."""
    out: list[Any] = []
    thread = threading.Thread(target=lambda: out.append(call()), daemon=True)
    thread.start()
    return thread, out


def finished(call: Callable[[], Any]) -> Any:
    """`call`'s result, from a thread that must finish (a hang fails the test instead of hanging it)."""
    thread, out = in_thread(call)
    thread.join(HANG_GUARD_S)
    assert not thread.is_alive(), "the call is blocked behind the running searches"
    return out[0]


def wait_until(condition: Callable[[], bool]) -> None:
    event = threading.Event()
    for _ in range(2000):
        if condition():
            return
        event.wait(0.01)
    raise AssertionError("the searches never started")


@pytest.fixture
def gated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """An app with one search slot whose searches wait at a gate until the test opens it."""
    gate = threading.Event()
    with make_client(make_settings(tmp_path / "games.db", max_searches=1)) as client:
        services = services_of(client.app)  # type: ignore[arg-type]
        real_hint, real_move = services.searcher.hint, services.games.engines.move

        def slow_hint(*args: Any, **kwargs: Any) -> Any:
            gate.wait(HANG_GUARD_S)
            return real_hint(*args, **kwargs)

        def slow_move(*args: Any, **kwargs: Any) -> Any:
            gate.wait(HANG_GUARD_S)
            return real_move(*args, **kwargs)

        monkeypatch.setattr(services.searcher, "hint", slow_hint)
        monkeypatch.setattr(services.games.engines, "move", slow_move)
        yield client, services, gate
        gate.set()


def test_health_and_reads_answer_while_every_search_slot_is_busy(gated: Any) -> None:
    client, services, gate = gated
    game = create(client, rules="durak", seats=["human", "human"], seed=3)
    searching, result = in_thread(lambda: client.post("/v1/hint", json={"position": to_move_position()}))
    wait_until(lambda: services.pool.running == services.pool.slots)
    health = finished(lambda: client.get("/healthz"))
    assert health.status_code == 200 and health.json()["status"] == "ok"
    assert finished(lambda: view(client, game, 0))["status"] == "playing"
    url = f"/v1/games/{game['id']}/tracker"
    tracker = finished(lambda: client.get(url, params={"seat": 0}, headers=bearer(game["tokens"][0])))
    assert tracker.status_code == 503 and tracker.headers["retry-after"]  # it weighs like a search: a slot
    busy = finished(lambda: client.post("/v1/hint", json={"position": to_move_position()}))
    assert busy.status_code == 503 and busy.headers["retry-after"]
    gate.set()
    searching.join(HANG_GUARD_S)
    assert result[0].status_code == 200
    tracker = client.get(url, params={"seat": 0}, headers=bearer(game["tokens"][0]))
    assert tracker.status_code == 200 and tracker.json()["cards"]


def test_no_lock_is_held_while_an_engine_searches(gated: Any) -> None:
    """While the engine replies to seat 0's move, seat 0 can still read the game (the old view)."""
    client, services, gate = gated
    game = create(client, rules="durak", seats=["human", {"engine": "ismcts", "limits": {"iterations": 200}}],
                  seed=4, first_attacker=0)
    lead = view(client, game, 0)["legal_moves"][0]
    playing, result = in_thread(lambda: move(client, game, 0, lead))
    wait_until(lambda: services.pool.running == services.pool.slots)
    during = finished(lambda: view(client, game, 0))
    assert during["history"] == []  # nothing is stored until the engine has replied
    gate.set()
    playing.join(HANG_GUARD_S)
    assert result[0].status_code == 200, result[0].text
    after = view(client, game, 0)
    assert len(after["history"]) >= 2 and after["history"][0]["move"] == lead


def test_engines_past_their_budget_play_the_greedy_move(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the request's engine budget spent, search engines play greedy moves: two ismcts seats
    then play exactly the greedy engine's moves until the human must act, and no search is run."""
    services = services_of(client.app)  # type: ignore[arg-type]
    monkeypatch.setattr(services.games.engines, "deadline", lambda: float("-inf"))
    searched: list[Any] = []
    monkeypatch.setattr(services.games.engines, "player", lambda *args, **kwargs: searched.append(args))
    engine = {"engine": "ismcts", "limits": {"iterations": 500}}
    game = create(client, rules="durak", seats=[engine, engine, "human"], seed=12, first_attacker=0)
    history = game["game"]["history"]
    assert history and not searched
    replayed = Game.deal(Rules.preset_named("durak"), 3, seed=12, first_attacker=0)
    greedy = GreedyPlayer()
    for entry in history:
        seat = replayed.to_move
        assert entry["seat"] == seat != 2
        expected = greedy.choose(Position.from_game(replayed, seat))
        assert entry["notation"] == expected.notation
        replayed.play(expected, seat)
    assert replayed.to_move == 2


def test_an_engine_searches_at_most_what_is_left_of_the_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each engine search gets the smaller of its own time limit and what is left of the request's
    engine budget, so the engines' replies end within about the budget."""
    with make_client(make_settings(tmp_path / "games.db", engine_budget_ms=300, max_time_ms=2_000)) as client:
        services = services_of(client.app)  # type: ignore[arg-type]
        limits: list[float] = []
        real = services.games.engines.player

        def player(*args: Any, **kwargs: Any) -> Any:
            made = real(*args, **kwargs)
            limits.append(made.limits.time_ms)
            return made

        monkeypatch.setattr(services.games.engines, "player", player)
        engine = {"engine": "ismcts", "limits": {"iterations": 200, "time_ms": 2_000}}
        create(client, rules="durak", seats=[engine, engine, "human"], seed=12, first_attacker=0)
    assert limits and all(0 < limit <= 300 for limit in limits)
    assert limits == sorted(limits, reverse=True)  # the budget only shrinks


def test_a_wrong_token_never_replays_the_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Authorization comes first: with nothing cached, requests with a wrong token cost a read of the
    stored set-up, never a replay of the game; the seat's holder then gets it replayed once."""
    with make_client(make_settings(tmp_path / "games.db", game_cache=0)) as client:
        game = create(client, rules="durak", seats=["human", "human"], seed=3)
        replays: list[str] = []
        real = LiveGame.rebuild
        monkeypatch.setattr(LiveGame, "rebuild", lambda record: replays.append(record.id) or real(record))
        url = f"/v1/games/{game['id']}"
        for _ in range(5):
            assert client.get(url, params={"seat": 0}, headers=bearer("wrong")).status_code == 404
            assert client.get(f"{url}/tracker", params={"seat": 1}, headers=bearer("x")).status_code == 404
            answer = client.post(f"{url}/moves", json={"seat": 0, "move": "take"}, headers=bearer("x"))
            assert answer.status_code == 404
        assert replays == []
        view(client, game, 0)
        assert replays == [game["id"]]


def test_requests_at_work_on_one_game_are_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With one request allowed at work on a game, a second one waits for nothing: 429 with
    Retry-After at once, while other games and the health check answer."""
    gate = threading.Event()
    settings = make_settings(tmp_path / "games.db", max_requests_per_game=1, retry_after_s=2)
    with make_client(settings) as client:
        services = services_of(client.app)  # type: ignore[arg-type]
        real_hint = services.searcher.hint

        def slow_hint(*args: Any, **kwargs: Any) -> Any:
            gate.wait(HANG_GUARD_S)
            return real_hint(*args, **kwargs)

        monkeypatch.setattr(services.searcher, "hint", slow_hint)
        game = create(client, rules="durak", seats=["human", "human"], seed=3, first_attacker=0)
        other = create(client, rules="durak", seats=["human", "human"], seed=4)
        url = f"/v1/games/{game['id']}"
        auth = bearer(game["tokens"][0])
        try:
            hinting, result = in_thread(lambda: client.get(f"{url}/hint", params={"seat": 0}, headers=auth))
            wait_until(lambda: services.pool.running == 1)
            second = finished(lambda: client.get(url, params={"seat": 0}, headers=auth))
            error(second, 429, "too_many_requests")
            assert second.headers["retry-after"] == "2"
            assert finished(lambda: view(client, other, 0))["status"] == "playing"
            assert finished(lambda: client.get("/healthz")).status_code == 200
        finally:
            gate.set()
        hinting.join(HANG_GUARD_S)
        assert result[0].status_code == 200
        assert view(client, game, 0)["status"] == "playing"  # the game's own requests work again
