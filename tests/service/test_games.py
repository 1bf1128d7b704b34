"""Stored games: creation, seat views, tokens, moves, engine replies, hints, races, restarts."""

from __future__ import annotations

import contextlib
import secrets
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from service.deps import services_of
from service.engine_seats import engine_seed
from service.live import LiveGame
from service.schemas import GameCreatedResponse
from solver.game.cards import Card, deck
from solver.game.errors import ErrorCode, PositionError
from solver.game.position import Position
from solver.game.reference import random_deck
from solver.game.rules import Rules
from solver.players import SearchPlayer
from solver.search.calibration import score_map
from tests.support.games import ordered_deck
from tests.support.service import (
    TestClient,
    bearer,
    create,
    error,
    make_client,
    make_settings,
    move,
    public_of,
    replay,
    view,
)

GAME_KEYS = {
    "id", "status", "seat", "position", "legal_moves", "unplayable", "scores", "loser", "history", "seats",
    "lead",
}


# -- creation and views -----------------------------------------------------------------------


def test_create_human_against_greedy(client: TestClient) -> None:
    game = create(client, rules="durak", players=2, seats=["human", "greedy"], seed=7)
    assert game["tokens"][0] and game["tokens"][1] is None
    body = game["game"]
    assert set(body) == GAME_KEYS and body["status"] == "playing" and body["seat"] == 0
    assert body["seats"] == [{"kind": "human"}, {"kind": "engine", "engine": "greedy", "limits": None}]
    # The engine moved first if it leads; either way the human is to move now.
    assert body["position"]["to_move"] == 0 and body["legal_moves"]
    assert all(entry["seat"] == 1 for entry in body["history"])
    reference = replay(game, body["history"], seed=7)
    assert body["position"] == Position.from_game(reference, 0).to_json()
    GameCreatedResponse.model_validate(game, strict=True)
    assert body == view(client, game, 0)


def test_a_view_says_why_each_card_cannot_be_played(client: TestClient) -> None:
    """`unplayable`: every card of the hand of the seat to move that no legal move plays, with the
    rules' reason (docs/api.md §3), so a page re-derives none; nothing for a seat not to move."""
    game = create(client, rules="durak", players=2, seats=["human", "human"], seed=11)
    first = view(client, game, 0)["position"]["to_move"]
    other = 1 - first
    leading = view(client, game, first)
    assert leading["unplayable"] == {} and view(client, game, other)["unplayable"] == {}
    lead = min((m for m in leading["legal_moves"] if m["action"] == "attack"), key=lambda m: m["card"])
    assert move(client, game, first, lead).status_code == 200
    defending = view(client, game, other)
    playable = {m["card"] for m in defending["legal_moves"] if m.get("card")}
    hand = set(defending["position"]["hand"])
    assert set(defending["unplayable"]) == hand - playable
    assert view(client, game, first)["unplayable"] == {}
    for card, why in defending["unplayable"].items():
        assert why["reason"] == "does_not_beat" and card in why["detail"]
        refused = move(client, game, other, {"action": "defend", "card": card, "target": lead["card"]})
        assert refused.status_code == 422 and refused.json()["code"] == "illegal_move"


def test_players_defaults_to_the_seats(client: TestClient) -> None:
    game = create(client, rules="tan", seats=["human", "random", "greedy"], seed=1)
    assert game["game"]["position"]["players"] == 3


def test_a_view_says_who_leads_and_why_and_a_hint_what_its_chances_are(client: TestClient) -> None:
    """The view's `lead` (docs/rules.md §1.2) and a hint's `chance` (§1.5) come from the server, so a
    page words them without working out a rule: with two seats a hint's chances are to win, with
    three or more not to be the loser."""
    deck = [str(card) for card in random_deck(Rules.from_json("durak"), 99)]
    named = create(client, rules="durak", seats=["human", "human"], deck=deck, first_attacker=1)
    assert named["game"]["lead"] == {"seat": 1, "reason": "named"}
    for players in (2, 3):
        game = create(client, rules="durak", seats=["human"] + ["human"] * (players - 1), seed=9)
        position = game["game"]["position"]
        lead = game["game"]["lead"]
        assert lead["reason"] == "lowest_trump" and lead["seat"] == position["attacker"]
        to_move = position["to_move"]
        answer = client.get(f"/v1/games/{game['id']}/hint", params={"seat": to_move, "iterations": 100},
                            headers=bearer(game["tokens"][to_move]))
        assert answer.status_code == 200, answer.text
        assert answer.json()["chance"] == ("win" if players == 2 else "not_loser")
    seat0 = create(client, rules="tan", seats=["human", "greedy"], seed=1)
    assert seat0["game"]["lead"] == {"seat": 0, "reason": "seat0"}


def test_an_ordered_deck_and_first_attacker(client: TestClient) -> None:
    deck = [str(card) for card in random_deck(Rules.from_json("durak"), 99)]
    game = create(client, rules="durak", seats=["human", "human"], deck=deck, first_attacker=1)
    position = view(client, game, 0)["position"]
    assert set(position["hand"]) == set(deck[0:12:2])  # docs/rules.md §1.2: one card at a time to seats 0, 1
    assert position["trump"] == deck[12] and position["attacker"] == 1 and position["to_move"] == 1
    # Loose card text is read and stored canonically.
    loose = ["10" + card[1] if card[0] == "T" else card for card in deck]
    again = create(client, rules="durak", seats=["human", "human"], deck=loose, first_attacker=1)
    assert view(client, again, 0)["position"]["hand"] == position["hand"]


def test_custom_rules(client: TestClient) -> None:
    game = create(client, rules={"preset": "durak", "transfer": True}, seats=["human", "human"], seed=2)
    assert game["game"]["position"]["rules"]["transfer"] is True


def test_a_game_of_engines_only_is_refused(client: TestClient) -> None:
    """Engines against each other would run a whole game inside one request: that is `tan arena`'s
    job. A game needs a human seat."""
    answer = client.post(
        "/v1/games",
        json={"rules": "durak", "seats": ["greedy", {"engine": "ismcts", "limits": {"iterations": 50}}]},
    )
    assert "needs a human seat" in error(answer, 422, "invalid_input")


@pytest.mark.parametrize(
    ("request_body", "code"),
    [
        ({"rules": "nonsense", "seats": ["human", "greedy"]}, "unknown_rules"),
        ({"rules": "durak", "seats": ["human", "stockfish"]}, "unknown_engine"),
        (
            {"rules": "durak", "seats": ["human", {"engine": "greedy", "limits": {"iterations": 5}}]},
            "unknown_engine",
        ),
        (
            {"rules": "durak", "seats": ["human", {"engine": "ismcts", "limits": {"iterations": 0}}]},
            "bad_limits",
        ),
        ({"rules": "durak", "players": 3, "seats": ["human", "greedy"]}, "count_mismatch"),
        ({"rules": "tan", "seats": ["human"] * 5}, "bad_players"),
        ({"rules": "durak", "seats": ["human", "greedy"], "first_attacker": 2}, "invalid_seat"),
        ({"rules": "durak", "seats": ["human", "greedy"], "deck": ["6s"] * 36}, "duplicate_card"),
        ({"rules": "durak", "seats": ["human", "greedy"], "deck": ["2s"]}, "card_not_in_deck"),
        ({"rules": "durak", "seats": ["human", "greedy"], "deck": ["6s", "7s"]}, "count_mismatch"),
        ({"rules": "durak", "seats": ["human", "greedy"], "deck": ["6x"]}, "invalid_card"),
        ({"rules": "durak", "seats": []}, "invalid_request"),
        ({"rules": "durak", "seats": ["human", "greedy"], "seed": -3}, "invalid_request"),
        ({"rules": "durak", "seats": ["human", {"engine": "ismcts", "depth": 3}]}, "invalid_request"),
    ],
)
def test_create_errors(client: TestClient, request_body: dict[str, Any], code: str) -> None:
    error(client.post("/v1/games", json=request_body), 422, code)


# -- tokens and privacy -----------------------------------------------------------------------


def test_tokens(client: TestClient) -> None:
    game = create(client, rules="durak", seats=["human", "human"], seed=3)
    url = f"/v1/games/{game['id']}"
    error(client.get(url, params={"seat": 0}), 401, "unauthorized")
    assert client.get(url, params={"seat": 0}).headers["www-authenticate"] == "Bearer"
    error(client.get(url, params={"seat": 0}, headers={"Authorization": "Basic abc"}), 401, "unauthorized")
    # A token of no seat is answered as for no such game; another seat's token is refused.
    error(client.get(url, params={"seat": 0}, headers=bearer("wrong")), 404, "not_found")
    error(client.get(url, params={"seat": 0}, headers=bearer(game["tokens"][1])), 403, "forbidden")
    error(client.get(url, params={"seat": 2}, headers=bearer(game["tokens"][0])), 422, "invalid_seat")
    error(client.get(url), 422, "invalid_request")
    error(client.get(url, params={"seat": "x"}), 422, "invalid_request")
    # Moving and hints need the token too.
    to_move = game["game"]["position"]["to_move"]
    legal = view(client, game, to_move)["legal_moves"][0]
    other = game["tokens"][1 - to_move]
    answer = client.post(f"{url}/moves", json={"seat": to_move, "move": legal}, headers=bearer(other))
    error(answer, 403, "forbidden")
    error(client.post(f"{url}/moves", json={"seat": to_move, "move": legal}), 401, "unauthorized")
    error(client.get(f"{url}/hint", params={"seat": to_move}), 401, "unauthorized")
    error(client.get(f"{url}/hint", params={"seat": to_move}, headers=bearer(other)), 403, "forbidden")
    assert view(client, game, to_move)["history"] == []  # nothing was played


def test_engine_seats_cannot_be_read_or_moved(client: TestClient) -> None:
    game = create(client, rules="durak", seats=["human", "greedy"], seed=4)
    url = f"/v1/games/{game['id']}"
    error(client.get(url, params={"seat": 1}, headers=bearer(game["tokens"][0])), 403, "engine_seat")
    answer = client.post(f"{url}/moves", json={"seat": 1, "move": "take"}, headers=bearer(game["tokens"][0]))
    error(answer, 403, "engine_seat")


def test_unknown_game(client: TestClient) -> None:
    error(client.get("/v1/games/nope", params={"seat": 0}, headers=bearer("x")), 404, "not_found")
    answer = client.post("/v1/games/nope/moves", json={"seat": 0, "move": "take"}, headers=bearer("x"))
    error(answer, 404, "not_found")
    error(client.get("/v1/games/nope/hint", params={"seat": 0}, headers=bearer("x")), 404, "not_found")


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("GET", "", None),
        ("POST", "/moves", {"seat": 1, "move": "take"}),
        ("GET", "/hint", None),
        ("GET", "/tracker", None),
        ("GET", "/analysis", None),
    ],
)
def test_without_a_token_an_unknown_game_looks_like_a_known_one(
    client: TestClient, method: str, path: str, body: dict[str, Any] | None
) -> None:
    """A caller without a token learns nothing of which games exist: a game, an unknown id and an
    engine's seat answer the same 401."""
    game = create(client, rules="durak", seats=["greedy", "human"], seed=4)
    answers = [
        client.request(method, f"/v1/games/{game_id}{path}", params={"seat": seat}, json=body)
        for game_id, seat in ((game["id"], 1), ("x" * len(game["id"]), 1), (game["id"], 0))
    ]
    for answer in answers:
        error(answer, 401, "unauthorized")
        assert answer.headers["www-authenticate"] == "Bearer"


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("GET", "", None),
        ("POST", "/moves", {"seat": 1, "move": "take"}),
        ("GET", "/hint", None),
        ("GET", "/tracker", None),
        ("GET", "/record", None),
        ("GET", "/analysis", None),
        ("POST", "/analysis", None),
    ],
)
def test_with_a_token_of_no_seat_a_game_looks_like_an_unknown_one(
    client: TestClient, method: str, path: str, body: dict[str, Any] | None
) -> None:
    """A token that is none of the game's seats learns nothing of it (issue 64): its human seat, its
    engine seat and a seat it does not have answer as an unknown id does — 404, the same words —
    where a 403 said the game exists and a 422 or `engine_seat` told its seats."""
    game = create(client, rules="durak", seats=["greedy", "human", "ismcts"], seed=4)
    unknown = "x" * len(game["id"])
    answers = [
        client.request(method, f"/v1/games/{game_id}{path}", params={"seat": seat}, json=body,
                       headers=bearer("a-token-of-no-seat"))
        for game_id, seat in ((game["id"], 1), (game["id"], 0), (game["id"], 7), (unknown, 1))
    ]
    details = [error(answer, 404, "not_found") for answer in answers]
    assert {detail.replace(game["id"], unknown) for detail in details} == {details[-1]}
    known, unknown = answers[:2]
    assert (known.text, sorted(known.headers.items())) == (unknown.text, sorted(unknown.headers.items()))


def _cards_in(value: Any) -> set[str]:
    """Every card text anywhere in a JSON answer (notation is split into words)."""
    found: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in ("id", "tokens"):
                found |= _cards_in(item)
    elif isinstance(value, list):
        for item in value:
            found |= _cards_in(item)
    elif isinstance(value, str):
        for word in value.split():
            with contextlib.suppress(ValueError):
                found.add(str(Card.parse(word)))
    return found


def test_no_answer_shows_another_seats_hidden_cards(client: TestClient) -> None:
    """Play a whole game against greedy; after every answer, compare with the full game."""
    game = create(client, rules="durak", seats=["human", "greedy"], seed=12)
    answers = [game]
    body = game["game"]
    for _ply in range(300):
        reference = replay(game, body["history"], seed=12)
        hidden = {str(card) for card in reference.hands[1]} - set(body["position"]["known"].get("1", []))
        for answer in answers:
            assert not (_cards_in(answer) & hidden), answer
        if body["status"] == "over":
            break
        hint = client.get(
            f"/v1/games/{game['id']}/hint",
            params={"seat": 0, "iterations": 50},
            headers=bearer(game["tokens"][0]),
        )
        assert hint.status_code == 200, hint.text
        answer = move(client, game, 0, body["legal_moves"][-1])
        assert answer.status_code == 200, answer.text
        body = answer.json()
        answers = [body, hint.json(), view(client, game, 0)]
    assert body["status"] == "over" and body["scores"] is not None
    assert sorted(body["scores"]) in ([0.0, 1.0], [0.5, 0.5])


# -- moves ------------------------------------------------------------------------------------


def test_moves_as_json_or_text_and_the_errors(client: TestClient) -> None:
    game = create(client, rules="durak", seats=["human", "human"], seed=8)
    first = game["game"]["position"]["to_move"]
    other = 1 - first
    legal = view(client, game, first)["legal_moves"]
    lead = legal[0]
    error(move(client, game, other, lead), 422, "not_your_turn")
    error(move(client, game, first, "attack"), 422, "invalid_move")
    error(move(client, game, first, {"action": "fly"}), 422, "invalid_move")
    error(move(client, game, first, "attack Zz"), 422, "invalid_card")
    error(move(client, game, first, "take"), 422, "illegal_move")
    missing = next(
        str(card)
        for card in random_deck(Rules.from_json("durak"), 1)
        if {"action": "attack", "card": str(card)} not in legal
    )
    assert missing in error(move(client, game, first, f"attack {missing}"), 422, "illegal_move")
    error(
        client.post(
            f"/v1/games/{game['id']}/moves", json={"seat": first}, headers=bearer(game["tokens"][first])
        ),
        422,
        "invalid_request",
    )
    assert view(client, game, first)["history"] == []
    # Text notation works, and the answer is the moving seat's view.
    answer = move(client, game, first, f"attack {lead['card']}")
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["seat"] == first
    assert [{key: entry[key] for key in ("seat", "move", "notation")} for entry in body["history"]] == [
        {"seat": first, "move": lead, "notation": f"attack {lead['card']}"}
    ]
    assert body["legal_moves"] == [] and body["position"]["to_move"] == other
    assert view(client, game, other)["legal_moves"]


def test_game_over_refuses_moves_and_hints(client: TestClient) -> None:
    game = create(client, rules="durak", seats=["human", "random"], seed=21)
    body = game["game"]
    while body["status"] == "playing":
        body = move(client, game, 0, body["legal_moves"][0]).json()
    error(move(client, game, 0, "take"), 422, "game_over")
    hint = client.get(f"/v1/games/{game['id']}/hint", params={"seat": 0}, headers=bearer(game["tokens"][0]))
    error(hint, 422, "game_over")
    assert view(client, game, 0)["status"] == "over"


def test_a_stored_games_hint_reads_the_game_so_far(client: TestClient) -> None:
    """Hints inside a stored game weigh the hidden hands by what the other seat did in it."""
    game = create(client, rules="durak", seats=["human", "greedy"], seed=5)
    body = game["game"]
    url = f"/v1/games/{game['id']}/hint"
    answers = []
    while body["status"] == "playing" and len(answers) < 6:
        answer = client.get(url, params={"seat": 0, "iterations": 100}, headers=bearer(game["tokens"][0]))
        assert answer.status_code == 200, answer.text
        answers.append(answer.json()["stats"])
        body = move(client, game, 0, body["legal_moves"][0]).json()
    assert answers[-1]["beliefs"] in ("weighted", "tempered") and answers[-1]["ess"] > 0


def test_a_hint_against_greedy_gives_calibrated_win_chances(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Against the greedy engine the search's scores go through the shipped score map (same
    moves, same order, each score mapped); against the searching engine through its own map
    (fitted on self-play); against a human they do not."""
    game = create(client, rules="durak", seats=["human", "greedy"], seed=5)
    url = f"/v1/games/{game['id']}/hint"
    params = {"seat": 0, "iterations": 300, "seed": 2}
    calibrated = client.get(url, params=params, headers=bearer(game["tokens"][0])).json()
    assert calibrated["stats"]["calibrated"] == "greedy (durak, 2 seats)"
    monkeypatch.setattr(LiveGame, "score_map", lambda _live, _seat: None)
    raw = client.get(url, params=params, headers=bearer(game["tokens"][0])).json()
    monkeypatch.undo()
    assert raw["stats"]["calibrated"] is None
    mapped = score_map(Rules.from_json("durak"), 2, ["greedy"])
    assert mapped is not None
    assert [m["notation"] for m in calibrated["moves"]] == [m["notation"] for m in raw["moves"]]
    # The answers are rounded to 6 places: the raw one rounded, mapped, moves by the map's slope.
    for fixed, searched in zip(calibrated["moves"], raw["moves"], strict=True):
        assert fixed["score"] == pytest.approx(mapped(searched["score"]), abs=2e-5)
    assert calibrated["evaluation"]["score"] == pytest.approx(mapped(raw["evaluation"]["score"]), abs=2e-5)
    for seats, label in (
        (["human", "ismcts"], "ismcts (durak, 2 seats)"),
        (["human", "human"], None),
        (["human", "random"], None),  # no map: nobody measured it
    ):
        other = create(client, rules="durak", seats=seats, seed=5, first_attacker=0)
        answer = client.get(
            f"/v1/games/{other['id']}/hint", params=params, headers=bearer(other["tokens"][0])
        ).json()
        assert answer["stats"]["calibrated"] == label


def test_a_stored_games_hint_answers_lines_with_pv(client: TestClient) -> None:
    game = create(client, rules="durak", seats=["human", "greedy"], seed=5)
    url = f"/v1/games/{game['id']}/hint"
    params = {"seat": 0, "iterations": 500, "seed": 2}
    lined = client.get(url, params={**params, "pv": 4}, headers=bearer(game["tokens"][0])).json()
    plain = client.get(url, params=params, headers=bearer(game["tokens"][0])).json()
    assert all("line" not in move for move in plain["moves"])
    assert lined["moves"][0]["line"]["moves"][0]["move"] == lined["best"]
    assert all(len(value["line"]["moves"]) <= 4 for value in lined["moves"] if value["line"])
    for value in lined["moves"]:
        del value["line"]
    assert lined["moves"] == plain["moves"]  # the same search, calibrated the same way
    answer = client.get(url, params={**params, "pv": 17}, headers=bearer(game["tokens"][0]))
    error(answer, 422, "invalid_request")


def test_hint_for_a_seat(client: TestClient) -> None:
    game = create(client, rules="durak", seats=["human", "human"], seed=9)
    to_move = game["game"]["position"]["to_move"]
    url = f"/v1/games/{game['id']}/hint"
    answer = client.get(
        url,
        params={"seat": to_move, "iterations": 200, "seed": 4, "multipv": 1},
        headers=bearer(game["tokens"][to_move]),
    )
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["seat"] == to_move and len(body["moves"]) == 1 and body["stats"]["iterations"] == 200
    assert body["best"] in view(client, game, to_move)["legal_moves"]
    waiting = 1 - to_move
    error(
        client.get(url, params={"seat": waiting}, headers=bearer(game["tokens"][waiting])),
        422,
        "not_your_turn",
    )
    error(
        client.get(url, params={"seat": to_move, "iterations": 0}, headers=bearer(game["tokens"][to_move])),
        422,
        "bad_limits",
    )
    error(
        client.get(url, params={"seat": to_move, "algorithm": "x"}, headers=bearer(game["tokens"][to_move])),
        422,
        "invalid_request",
    )


def test_racing_moves_never_both_apply(client: TestClient) -> None:
    game = create(client, rules="durak", seats=["human", "human"], seed=10)
    to_move = game["game"]["position"]["to_move"]
    legal = view(client, game, to_move)["legal_moves"]
    barrier = threading.Barrier(len(legal))
    statuses: list[int] = []

    def play(chosen: dict[str, Any]) -> None:
        barrier.wait()
        statuses.append(move(client, game, to_move, chosen).status_code)

    threads = [threading.Thread(target=play, args=(chosen,)) for chosen in legal]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [200] + [422] * (len(legal) - 1)
    assert len(view(client, game, to_move)["history"]) == 1


# -- persistence ------------------------------------------------------------------------------


def test_a_restart_continues_a_stored_game(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with make_client(make_settings(path)) as client:
        game = create(client, rules="durak", seats=["human", "greedy"], seed=13)
        body = move(client, game, 0, game["game"]["legal_moves"][0]).json()
        before = view(client, game, 0)
    assert before == body
    with make_client(make_settings(path)) as client:  # a new app on the same file
        assert view(client, game, 0) == before
        answer = move(client, game, 0, before["legal_moves"][0])
        assert answer.status_code == 200, answer.text
        assert answer.json()["history"][: len(before["history"])] == before["history"]
        assert len(answer.json()["history"]) > len(before["history"])


def test_two_apps_on_one_file_see_each_others_moves(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with make_client(make_settings(path)) as one, make_client(make_settings(path)) as two:
        game = create(one, rules="durak", seats=["human", "human"], seed=14)
        to_move = game["game"]["position"]["to_move"]
        view(two, game, to_move)  # `two` caches the game
        lead = game["game"]["legal_moves"] or view(one, game, to_move)["legal_moves"]
        assert move(one, game, to_move, lead[0]).status_code == 200
        # `two` notices the stored move and refuses the same seat's second lead.
        error(move(two, game, to_move, lead[1]), 422, "not_your_turn")
        assert view(two, game, to_move)["history"] == view(one, game, to_move)["history"]


def test_a_transfer_past_a_small_cap_plays_on(client: TestClient) -> None:
    """perevodnoy with max_attack 1: attack As, transfer Ac, defend As with 7d is legal (transfers
    are not held to the cap). A game once got stuck here: the move was stored, then every read of
    the game failed with 422."""
    rules = Rules.preset_named("perevodnoy", max_attack=1)
    hands = [["As", "7d", "8s", "9s", "Ts", "Js"], ["Ac", "7c", "8c", "9c", "Tc", "Jc"]]
    deck = ordered_deck(rules, hands, "6d")
    game = create(client, rules={"preset": "perevodnoy", "max_attack": 1}, seats=["human", "human"],
                  deck=deck, first_attacker=0)
    for seat, played in ((0, "attack As"), (1, "transfer Ac"), (0, "defend As with 7d")):
        answer = move(client, game, seat, played)
        assert answer.status_code == 200, answer.text
    for seat in (0, 1):
        assert view(client, game, seat)["status"] == "playing"
    assert view(client, game, 0)["legal_moves"] == [{"action": "take"}]  # Ac is not beaten by a spade


def test_a_view_that_cannot_be_built_is_a_bug_and_nothing_is_stored(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = create(client, rules="durak", seats=["human", "human"], seed=10)
    to_move = game["game"]["position"]["to_move"]
    legal = view(client, game, to_move)["legal_moves"]
    real = LiveGame.position

    def broken(self: LiveGame, seat: int) -> Position:
        if self.plies:
            raise PositionError("no position", ErrorCode.INCONSISTENT_TURN)
        return real(self, seat)

    monkeypatch.setattr(LiveGame, "position", broken)
    with pytest.raises(RuntimeError):  # the test client re-raises the server's error
        move(client, game, to_move, legal[0])
    monkeypatch.undo()
    assert view(client, game, to_move)["history"] == []


def test_each_history_entry_shows_the_table_after_it(client: TestClient) -> None:
    """Every move of the history carries what everyone saw after it (docs/api.md §3): the last one
    is the position now, and each earlier one is the position the game passed through, for every
    seat alike — so a page can show the engines' replies one move at a time."""
    game = create(client, rules="durak", players=3, seats=["human", "greedy", "greedy"], seed=5)
    seen = 0
    for _ in range(200):
        body = view(client, game, 0)
        history = body["history"]
        if history:
            assert history[-1]["after"] == public_of(body["position"])
        for index in range(seen, len(history)):
            moved = history[index]["after"]
            assert sum(moved["hand_counts"]) + moved["stock"] + moved["discard"] + sum(
                1 if pair["defense"] is None else 2 for pair in moved["table"]
            ) == 36
        seen = len(history)
        if body["status"] == "over":
            break
        answer = move(client, game, 0, body["legal_moves"][0])
        assert answer.status_code == 200, answer.text
        assert answer.json()["history"][: len(history)] == history  # the past never changes
    assert body["status"] == "over"
    # A table built by the moves alone: attacks add a pair, a defence covers one, and the table
    # only empties when a bout ends.
    for before, entry in zip(body["history"], body["history"][1:], strict=False):
        table = [dict(pair) for pair in before["after"]["table"]]
        if entry["move"]["action"] in ("attack", "transfer"):
            table.append({"attack": entry["move"]["card"], "defense": None})
        elif entry["move"]["action"] == "defend":
            card, target = entry["move"]["card"], entry["move"]["target"]
            table = [{**pair, "defense": card} if pair["attack"] == target else pair for pair in table]
        assert entry["after"]["table"] in (table, [])


def test_a_retried_move_after_a_lost_answer_is_refused_with_409(client: TestClient) -> None:
    """The first try of a move was stored but its answer lost: the retry, naming the ply it was
    chosen at, gets 409 game_moved_on instead of being tried on the new state; the right ply plays."""
    game = create(client, rules="durak", seats=["human", "human"], seed=3, first_attacker=0)
    before = view(client, game, 0)
    lead = before["legal_moves"][0]
    ply = len(before["history"])
    url = f"/v1/games/{game['id']}/moves"
    sent = {"seat": 0, "move": lead, "expected_ply": ply}
    first = client.post(url, json=sent, headers=bearer(game["tokens"][0]))
    assert first.status_code == 200 and len(first.json()["history"]) == ply + 1
    retry = client.post(url, json=sent, headers=bearer(game["tokens"][0]))
    assert "has moved on" in error(retry, 409, "game_moved_on")
    assert view(client, game, 0)["history"] == first.json()["history"]  # nothing more was stored
    defender = view(client, game, 1)
    reply = {"seat": 1, "move": defender["legal_moves"][-1], "expected_ply": len(defender["history"])}
    assert client.post(url, json=reply, headers=bearer(game["tokens"][1])).status_code == 200
    error(client.post(url, json={**reply, "expected_ply": -1}, headers=bearer(game["tokens"][1])),
          422, "invalid_request")


def test_the_deal_seed_is_shown_only_once_the_game_is_over(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without a seed the server draws 63 bits; the view shows the seed only at the end (it deals
    every hand), and the same seed then deals the same game again."""
    drawn: list[int] = []
    real = secrets.randbits
    monkeypatch.setattr(secrets, "randbits", lambda bits: drawn.append(bits) or real(bits))
    game = create(client, rules="durak", seats=["human", "random"], first_attacker=0)
    assert drawn == [63, 63]  # the deal's seed and the engines' own
    body = game["game"]
    assert "seed" not in body
    while body["status"] == "playing":
        body = move(client, game, 0, body["legal_moves"][-1]).json()
        assert body["status"] == "over" or "seed" not in body
    seed = body["seed"]
    assert 0 <= seed < 2**63
    again = create(client, rules="durak", seats=["human", "human"], seed=seed, first_attacker=0)
    assert again["game"]["position"]["hand"] == game["game"]["position"]["hand"]
    dealt = create(client, rules="durak", seats=["human", "random"], deck=[str(c) for c in deck(36)],
                   first_attacker=0)
    body = dealt["game"]
    while body["status"] == "playing":
        body = move(client, dealt, 0, body["legal_moves"][-1]).json()
    assert "seed" not in body  # a game dealt from a given deck has no seed that replays it


def test_the_engines_seed_is_not_the_deals(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same deal twice: the engines' seeds differ between the games, and neither is derived
    from the deal's seed, so replaying a deal does not replay the engines' choices."""
    services = services_of(client.app)  # type: ignore[arg-type]
    seeds: list[int] = []
    real = services.games.engines.player

    def player(seat: Any, *args: Any) -> Any:
        made = real(seat, *args)
        choose = made.choose

        def chosen(position: Any, seed: int = 0, history: Any = None) -> Any:
            seeds.append(seed)
            return choose(position, seed, history)

        made.choose = chosen  # type: ignore[method-assign]
        return made

    monkeypatch.setattr(services.games.engines, "player", player)
    for _ in range(2):
        create(client, rules="durak", seats=["random", "human"], seed=5, first_attacker=0)
    assert len(seeds) == 2 and seeds[0] != seeds[1]
    assert engine_seed(5, 0) not in seeds


def test_an_engine_seats_options_reach_its_player(client: TestClient) -> None:
    """An engine seat is built by the library's make_player from its stored seat: its options are
    kept, shown and used; an option the engine does not take, or the server's threads, is refused
    and nothing is stored."""
    engine = {"engine": "ismcts", "limits": {"iterations": 100},
              "options": {"exploration": 0.4, "exact_cards": 6}}
    game = create(client, rules="durak", seats=["human", engine], seed=6, first_attacker=1)
    seats = game["game"]["seats"]
    assert seats[1] == {"kind": "engine", "engine": "ismcts", "limits": {"iterations": 100},
                        "options": {"exploration": 0.4, "exact_cards": 6}}
    services = services_of(client.app)  # type: ignore[arg-type]
    live = services.games._cache[game["id"]]
    player = services.games.engines.player(live.setup.seats[1])
    assert isinstance(player, SearchPlayer)
    config = player.solver.config
    assert (config.exploration, config.exact_cards, player.limits.iterations) == (0.4, 6, 100)
    assert player.threads == services.settings.threads
    for options, code in (({"nonsense": 1}, "unknown_engine"), ({"threads": 8}, "unknown_engine"),
                          ({"exact_average": -1}, "bad_algorithm"), ({"noise": 0}, "unknown_engine"),
                          ({"exploration": "high"}, "bad_algorithm"), ({"beliefs": 1}, "bad_algorithm")):
        refused = client.post("/v1/games", json={"rules": "durak", "seats": [
            "human", {"engine": "ismcts", "options": options}]})
        error(refused, 422, code)
    bad = client.post("/v1/games", json={"rules": "durak", "seats": ["human", {"engine": "greedy",
                                                                               "options": {"x": 1}}]})
    error(bad, 422, "unknown_engine")


def test_what_a_seat_saw_is_kept_up_to_date_move_by_move(client: TestClient) -> None:
    """An engine reads what its seat saw from a reader kept up to date as moves are played, never a
    replay of the whole game: after a game of moves it is what a replay from the deal reads."""
    engine = {"engine": "ismcts", "limits": {"iterations": 50}}
    game = create(client, rules="durak", seats=["human", engine], seed=8, first_attacker=0)
    body = game["game"]
    for _ in range(12):
        if body["status"] == "over":
            break
        body = move(client, game, 0, body["legal_moves"][0]).json()
    services = services_of(client.app)  # type: ignore[arg-type]
    live = services.games._cache[game["id"]]
    assert 1 in live.readers  # the engine's seat's reader, kept since its first move
    kept = live.history_of(1)
    record = services.store.load(game["id"])
    assert record is not None
    replayed = LiveGame.rebuild(record).history_of(1)
    assert len(kept.states) == len(replayed.states) and np.array_equal(kept.ops, replayed.ops)
