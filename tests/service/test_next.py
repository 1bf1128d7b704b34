"""POST /v1/next (docs/api.md §3): what a seat following a game at a table sees, and what may be
entered next — from a record or from a position and its events — and GET /v1/rules' decks."""

from __future__ import annotations

from typing import Any

from solver.game.cards import Card, deck
from solver.game.position import Position
from solver.game.reference import Game, random_deck
from solver.game.rules import Rules
from tests.support.games import ordered_deck
from tests.support.service import TestClient, error

NEXT_KEYS = {"position", "to_move", "moves", "movers", "tributes", "all_trumps", "draw", "scores"}


def _dealt(seed: int = 5) -> Game:
    rules = Rules.preset_named("durak")
    return Game.deal(rules, 2, deck=random_deck(rules, seed), first_attacker=1)


def _record(dealt: Game, events: list[dict[str, Any]]) -> dict[str, Any]:
    """Seat 0's record of the game dealt as `dealt`, after `events`."""
    game = dealt
    return {
        "rules": "durak", "players": 2, "seat": 0, "hand": sorted(str(card) for card in game.hands[0]),
        "trump": str(game.trump), "first_attacker": 1, "events": events,
    }


def test_a_record_answers_the_view_and_another_seats_possible_moves(client: TestClient) -> None:
    game = _dealt()
    answer = client.post("/v1/next", json={"record": _record(game, [])})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert set(body) == NEXT_KEYS
    assert body["position"] == Position.from_game(game, 0).to_json()
    assert body["to_move"] == 1 and body["draw"] is None
    mine = {str(card) for card in game.hands[0]}
    cards = {move["card"] for move in body["moves"]}
    assert all(move["action"] == "attack" for move in body["moves"])
    assert not cards & mine and str(game.trump) not in cards and len(cards) == 36 - 6 - 1


def test_the_seats_own_moves_are_its_legal_ones(client: TestClient) -> None:
    game = _dealt()
    dealt = game.clone()
    lead = f"attack {sorted(game.hands[1])[0]}"
    game.play(lead, 1)
    events = [{"seat": 1, "move": lead}]
    body = client.post("/v1/next", json={"record": _record(dealt, events)}).json()
    assert body["to_move"] == 0
    assert body["moves"] == [move.to_json() for move in game.legal_moves()]
    game.play("take", 0)
    game.play("pass", 1)
    events += [{"seat": 0, "move": "take"}, {"seat": 1, "move": "pass"}]
    taken = client.post("/v1/next", json={"record": _record(dealt, events)}).json()
    assert taken["draw"] is None  # the taker holds more than a hand: it draws nothing
    assert taken["to_move"] == 1 and taken["position"] == Position.from_game(game, 0).to_json()


def test_a_draw_is_asked_for_then_named(client: TestClient) -> None:
    # The first deal where seat 0 can beat seat 1's lowest lead: the defence ends the bout, and
    # seat 0 draws one card after seat 1 (refill order: the attacker first).
    for seed in range(100):
        game = _dealt(seed)
        dealt = game.clone()
        lead = f"attack {sorted(game.hands[1])[0]}"
        game.play(lead, 1)
        beat = next((m for m in game.legal_moves() if m.action.value == "defend"), None)
        if beat is not None:
            break
    assert beat is not None
    game.play(beat, 0)
    game.play("pass", 1)
    events = [{"seat": 1, "move": lead}, {"seat": 0, "move": beat.to_json()}, {"seat": 1, "move": "pass"}]
    owing = client.post("/v1/next", json={"record": _record(dealt, events)}).json()
    assert owing["draw"]["count"] == 1 and owing["draw"]["with"] == []
    assert owing["to_move"] is None and owing["moves"] == []
    assert str(game.drawn[0][0]) in owing["draw"]["from"] and str(game.trump) not in owing["draw"]["from"]
    assert owing["position"]["stock"] == len(game.stock) + 1 and len(owing["position"]["hand"]) == 5
    events.append({"draw": [str(game.drawn[0][0])]})
    named = client.post("/v1/next", json={"record": _record(dealt, events)}).json()
    assert named["draw"] is None and named["position"] == Position.from_game(game, 0).to_json()
    assert named["to_move"] == 0  # the defence stood: seat 0 leads


def test_a_position_and_its_events(client: TestClient) -> None:
    game = _dealt(8)
    start = Position.from_game(game, 0).to_json()
    lead = {"seat": 1, "move": "attack " + str(sorted(game.hands[1])[0])}
    body = client.post("/v1/next", json={"position": start, "events": [lead]}).json()
    game.play(lead["move"], 1)
    assert body["position"] == Position.from_game(game, 0).to_json()
    assert body["to_move"] == 0 and body["moves"] == [move.to_json() for move in game.legal_moves()]
    alone = client.post("/v1/next", json={"position": start}).json()
    assert alone["to_move"] == 1 and {"action": "attack", "card": lead["move"][7:]} in alone["moves"]


def test_bad_input_is_refused_with_its_code(client: TestClient) -> None:
    game = _dealt()
    record = _record(game, [])
    start = Position.from_game(game, 0).to_json()
    error(client.post("/v1/next", json={}), 422, "invalid_request")
    error(client.post("/v1/next", json={"record": record, "position": start}), 422, "invalid_request")
    error(client.post("/v1/next", json={"record": record, "events": []}), 422, "invalid_request")
    mine = sorted(str(card) for card in game.hands[0])[0]
    bad = _record(game, [{"seat": 1, "move": f"attack {mine}"}])
    assert error(client.post("/v1/next", json={"record": bad}), 422, "illegal_move").startswith("events[0]")
    out_of_turn = {"seat": 0, "move": f"attack {mine}"}
    error(client.post("/v1/next", json={"position": start, "events": [out_of_turn]}), 422, "not_your_turn")
    short = {**record, "hand": record["hand"][:5]}
    error(client.post("/v1/next", json={"record": short}), 422, "count_mismatch")


def test_the_rules_list_each_decks_cards(client: TestClient) -> None:
    decks = client.get("/v1/rules").json()["decks"]
    assert decks == {"36": [str(card) for card in deck(36)], "52": [str(card) for card in deck(52)]}


def test_side_rule_entries_name_who_may_move_and_the_cards_they_show(client: TestClient) -> None:
    """Under xả chủ and đổi 2 chủ the seat cannot see another seat's secret decision: each seat that
    may act next is offered with its moves, a redeal with the hand it may show; the seat's own redeal
    names the hands offered to it."""
    rules = {"preset": "tan", "redeal_without_trump": True, "trump_swap": True}
    # Hearts trump (9h turned up); seat 1 leads and holds 2h; seat 0 holds no trump.
    hands = [
        ["3s", "4s", "5s", "6s", "7s", "8s", "9s", "Ts"], ["2h", "3c", "4c", "5c", "6c", "7c", "8c", "9c"],
    ]
    deck = ordered_deck(Rules.preset_named("tan"), hands, "9h")
    record = {"rules": rules, "players": 2, "seat": 0, "hand": hands[0], "trump": "9h",
              "first_attacker": 1, "events": []}
    body = client.post("/v1/next", json={"record": record}).json()
    assert body["to_move"] is None and body["moves"] == [] and body["tributes"] == body["all_trumps"] == []
    movers = {mover["seat"]: mover for mover in body["movers"]}
    assert {"action": "redeal"} in movers[1]["moves"] and movers[1]["shown"]["count"] == 8
    shown = movers[1]["shown"]["from"]
    assert not set(shown) & set(hands[0]) and all(card[-1] != "h" for card in shown)
    mine = movers[0]
    assert {"action": "redeal"} in mine["moves"] and {"action": "keep"} in mine["moves"]
    assert mine["shown"]["with"] == sorted(hands[0], key=Card.parse) and mine["sets"]["count"] == 8
    offered = deck[17:33]  # the stock's two top hands, under the trump card at deck[16]
    assert set(offered) <= set(mine["sets"]["from"])
    redeal = {"seat": 0, "move": "redeal", "shown": hands[0], "sets": [offered[:8], offered[8:]]}
    picking = client.post("/v1/next", json={"record": {**record, "events": [redeal]}}).json()
    assert picking["to_move"] == 0
    assert picking["moves"] == [{"action": "pick", "set": 0}, {"action": "pick", "set": 1}]
    unseen = {**redeal, "sets": [[hands[1][0], *offered[1:8]], offered[8:]]}  # 3c: unseen by seat 0
    assert client.post("/v1/next", json={"record": {**record, "events": [unseen]}}).status_code == 200
    own_card = {**redeal, "sets": [[hands[0][0], *offered[1:8]], offered[8:]]}
    error(client.post("/v1/next", json={"record": {**record, "events": [own_card]}}), 422, "duplicate_card")


def test_a_records_result_is_checked_as_every_other_endpoint_checks_it(client: TestClient) -> None:
    """A record whose `result` the game did not end with (here: not over at all) is refused 422
    `invalid_record` by `POST /v1/next` with the words `/v1/hint` and `/v1/records/convert` use; it
    was answered as if no result were given (issue 64, finding 7)."""
    game = _dealt()
    lead = f"attack {sorted(game.hands[1])[0]}"
    record = {**_record(game, [{"seat": 1, "move": lead}]), "result": [1, 0]}
    details = {
        path: error(client.post(path, json={"record": record}), 422, "invalid_record")
        for path in ("/v1/next", "/v1/hint", "/v1/records/convert")
    }
    assert len(set(details.values())) == 1 and "result" in details["/v1/next"], details
