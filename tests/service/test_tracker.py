"""The card tracker of a stored game (`GET /v1/games/{id}/tracker`, docs/api.md §3): its shape, that
it adds up, that it never shows a hidden hand, its tokens, the setup, and the beliefs setting."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from service.schemas import TrackerResponse
from solver.game.position import Position
from tests.support.service import (
    TestClient,
    bearer,
    create,
    error,
    make_client,
    make_settings,
    move,
    replay,
    view,
)

TRACKER_KEYS = {"seat", "gone", "known", "cards", "beliefs", "ess"}
MODES = {"uniform", "weighted", "tempered", "collapsed"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    # Fewer worlds than the default keep the many reads of a whole game quick; the ESS floor is the same.
    with make_client(make_settings(tmp_path / "games.db", particles=4096)) as test_client:
        yield test_client


def tracker(client: TestClient, game: dict[str, Any], seat: int) -> dict[str, Any]:
    """`GET /v1/games/{id}/tracker?seat=k` with the seat's token, which must succeed."""
    answer = client.get(
        f"/v1/games/{game['id']}/tracker", params={"seat": seat}, headers=bearer(game["tokens"][seat])
    )
    assert answer.status_code == 200, answer.text
    body = dict(answer.json())
    TrackerResponse.model_validate(body, strict=True)
    return body


def check_adds_up(body: dict[str, Any], position: dict[str, Any]) -> None:
    """The tracker agrees with the seat's view: the discard, the known cards, exactly the cards the
    seat cannot see, rows adding up to 1 and each seat's column to its hidden cards."""
    seat, players = position["seat"], position["players"]
    assert set(body) == TRACKER_KEYS and body["seat"] == seat
    assert body["gone"] == position["discard"]
    assert body["known"] == {
        str(other): position["known"].get(str(other), []) for other in range(players) if other != seat
    }
    seen = Position.from_json(position)
    assert list(body["cards"]) == [str(card) for card in seen.unseen_cards()]
    assert not set(body["cards"]) & set(position["hand"])  # the seat's own cards are not guessed at
    for row in body["cards"].values():
        assert len(row) == players + 1 and row[seat] == 0.0
        assert all(0.0 <= chance <= 1.0 for chance in row)
        assert sum(row) == pytest.approx(1.0, abs=1e-5)
    hidden = seen.hidden_slots().seats
    for other in range(players):
        column = sum(row[other] for row in body["cards"].values())
        assert column == pytest.approx(hidden.get(other, 0), abs=1e-3)
    assert body["beliefs"] in MODES
    assert (body["ess"] is None) == (body["beliefs"] in ("uniform", "collapsed"))


def check_no_leak(body: dict[str, Any], position: dict[str, Any], hands: list[set[str]]) -> None:
    """While a hand's place among the unseen cards is not forced, the tracker gives chances, not its
    cards: some chance lies strictly between 0 and 1, and its true cards get less than all of it."""
    hidden = Position.from_json(position).hidden_slots().seats
    for other, count in hidden.items():
        if count == 0 or count == len(body["cards"]):
            continue  # nothing hidden, or every unseen card is in this hand: no guess to leak
        column = {card: row[other] for card, row in body["cards"].items()}
        assert any(0.001 < chance < 0.999 for chance in column.values()), column
        true = hands[other] - set(position["known"].get(str(other), []))
        assert sum(column[card] for card in true) < count - 0.01, (other, true, column)


def test_the_tracker_adds_up_for_every_seat_and_leaks_no_hand(client: TestClient) -> None:
    """Two humans and greedy play a whole game; the humans read their trackers in turn after every
    move, whether or not they are to move, and both once the game is over."""
    game = create(client, rules="durak", seats=["human", "human", "greedy"], seed=4)
    rng = random.Random(4)
    body = game["game"]
    weighed = set()
    for ply in range(400):
        reference = replay(game, body["history"], seed=4)
        hands = [{str(card) for card in hand} for hand in reference.hands]
        for seat in (0, 1) if body["status"] == "over" else (ply % 2,):
            position = view(client, game, seat)["position"]
            answer = tracker(client, game, seat)
            check_adds_up(answer, position)
            check_no_leak(answer, position, hands)
            weighed.add(answer["beliefs"])
        if body["status"] == "over":
            break
        seat = body["position"]["to_move"]
        legal = view(client, game, seat)["legal_moves"]
        answer = move(client, game, seat, rng.choice(legal))
        assert answer.status_code == 200, answer.text
        body = answer.json()
    assert body["status"] == "over"
    assert weighed & {"weighted", "tempered"}  # greedy's moves were weighed
    assert tracker(client, game, 0) == tracker(client, game, 0)  # a fixed seed: the same answer


def test_tokens_and_errors(client: TestClient) -> None:
    game = create(client, rules="durak", seats=["human", "human", "greedy"], seed=3)
    url = f"/v1/games/{game['id']}/tracker"
    error(client.get(url, params={"seat": 0}), 401, "unauthorized")
    error(client.get(url, params={"seat": 0}, headers=bearer("wrong")), 404, "not_found")
    error(client.get(url, params={"seat": 0}, headers=bearer(game["tokens"][1])), 403, "forbidden")
    error(client.get(url, params={"seat": 2}, headers=bearer(game["tokens"][0])), 403, "engine_seat")
    error(client.get(url, params={"seat": 3}, headers=bearer(game["tokens"][0])), 422, "invalid_seat")
    error(client.get(url, headers=bearer(game["tokens"][0])), 422, "invalid_request")
    error(client.get("/v1/games/nope/tracker", params={"seat": 0}, headers=bearer("x")), 404, "not_found")
    assert tracker(client, game, 1)["seat"] == 1


def test_the_setup_is_uniform_even_while_another_seat_decides_in_secret(client: TestClient) -> None:
    """Seed 3 deals seat 0 the 2 of trumps under trump swap: it decides, and seat 1 may not even see
    that it does (docs/rules.md §1.7). Nothing is weighed before the first lead."""
    game = create(client, rules={"preset": "tan", "trump_swap": True}, seats=["human", "human"], seed=3)
    deciding, waiting = view(client, game, 0)["position"], view(client, game, 1)["position"]
    assert deciding["phase"] == "setup" and deciding["to_move"] == 0 and waiting["to_move"] is None
    for seat, position in ((0, deciding), (1, waiting)):
        answer = tracker(client, game, seat)
        check_adds_up(answer, position)
        assert answer["beliefs"] == "uniform"
    rows = {tuple(row) for row in tracker(client, game, 1)["cards"].values()}
    assert rows == {(round(8 / 43, 6), 0.0, round(35 / 43, 6))}  # 8 hidden of seat 0's, 35 in the stock
    assert move(client, game, 0, "keep").status_code == 200
    check_adds_up(tracker(client, game, 1), view(client, game, 1)["position"])


def test_with_beliefs_off_the_tracker_is_uniform(tmp_path: Path) -> None:
    for beliefs in (True, False):
        settings = make_settings(tmp_path / f"games-{beliefs}.db", beliefs=beliefs, particles=4096)
        with make_client(settings) as client:
            game = create(client, rules="durak", seats=["human", "greedy"], seed=5)
            body = game["game"]
            for _ in range(6):
                if body["status"] == "playing":
                    body = move(client, game, 0, body["legal_moves"][0]).json()
            answer = tracker(client, game, 0)
            check_adds_up(answer, body["position"])
            if beliefs:
                assert answer["beliefs"] in ("weighted", "tempered") and answer["ess"] > 0
            else:
                assert answer["beliefs"] == "uniform" and answer["ess"] is None
