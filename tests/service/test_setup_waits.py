"""Through the service: a seat waiting in the setup learns nothing of the others' cards
(docs/rules.md §1.7; issue 64, finding 1).

Two games of two human seats are dealt from decks that differ only in where one
card lies (tests/solver/game/test_setup_waits.py makes the pairs); seat 0 plays
the same moves in both, seat 1 keeps. At every step until the first lead, seat
0's view, its hint and a move it may not make answer the same in both games.
"""

from __future__ import annotations

from typing import Any

from service.deps import services_of
from solver.game.rules import Rules
from tests.solver.game.test_setup_waits import deck_pairs
from tests.support.games import ordered_deck
from tests.support.service import TestClient, bearer, create, move, view

RULES = {"preset": "tan", "redeal_without_trump": True, "trump_swap": True}
# Seat 1 holds 2h, the lowest trump; seat 0 holds none.
LOW_TRUMP_1 = [["3s", "4s", "5s", "6s", "7s", "8s", "9s", "Ts"],
               ["2h", "3c", "4c", "5c", "6c", "7c", "8c", "9c"]]


def _seen(client: TestClient, game: dict[str, Any]) -> dict[str, Any]:
    """Seat 0's view (without the game's id), its hint's refusal, a keep's answer when not its turn."""
    seen = view(client, game, 0)
    seen.pop("id")
    asked = seen["position"]["to_move"] == 0
    answers: dict[str, Any] = {"view": seen}
    if not asked:
        token = bearer(game["tokens"][0])
        hint = client.get(f"/v1/games/{game['id']}/hint", params={"seat": 0}, headers=token)
        answers["hint"] = (hint.status_code, hint.json())
        keep = client.post(f"/v1/games/{game['id']}/moves", json={"seat": 0, "move": "keep"}, headers=token)
        answers["keep"] = (keep.status_code, keep.json())
    return answers


def _advance(client: TestClient, game: dict[str, Any], seat_0_moves: list[Any]) -> None:
    """Seat 0 plays its first legal move when asked; otherwise seat 1 keeps, or picks set 0."""
    if seat_0_moves:
        answer = move(client, game, 0, seat_0_moves[0])
    else:
        legal = view(client, game, 1)["legal_moves"]
        answer = move(client, game, 1, {"action": "keep"} if {"action": "keep"} in legal else legal[0])
    assert answer.status_code == 200, answer.text


def test_seat_0_sees_the_same_setup_wherever_seat_1_holds_a_card(client: TestClient) -> None:
    rules = Rules.from_json(RULES)
    compared = 0
    for seed in range(3):
        for what, held_deck, stock_deck in deck_pairs(rules, 2, seed):
            games = [create(client, rules=RULES, seats=["human", "human"], deck=[str(c) for c in cards],
                            first_attacker=seed % 2) for cards in (held_deck, stock_deck)]
            for step in range(12):
                held, elsewhere = (_seen(client, game) for game in games)
                assert held == elsewhere, (what, step)
                if held["view"]["position"].get("phase", "play") == "play":
                    break
                for game in games:
                    _advance(client, game, held["view"]["legal_moves"])
                compared += 1
            else:
                raise AssertionError("the setup never ended")
    assert compared >= 6


def test_a_game_stored_before_every_seat_was_asked_still_plays(client: TestClient) -> None:
    """A game stored when only the holder of the lowest trump was asked holds seat 1's keep alone:
    it is rebuilt with seat 0's keep (it had nothing to decide) played, and goes on; its store keeps
    counting the moves it holds."""
    made = create(client, rules={"preset": "tan", "trump_swap": True}, seats=["human", "human"],
                  deck=ordered_deck(Rules.preset_named("tan", trump_swap=True), LOW_TRUMP_1, "Kh"),
                  first_attacker=0)
    store = services_of(client.app).store  # type: ignore[arg-type]
    stored = store.load(made["id"])
    assert stored is not None and stored.moves == ()
    store.create("legacy-game", stored.setup, [(1, "keep")], "playing")
    legacy = {**made, "id": "legacy-game"}
    seen = view(client, legacy, 0)
    assert seen["position"].get("phase", "play") == "play" and seen["position"]["to_move"] == 0
    assert move(client, legacy, 0, seen["legal_moves"][0]).status_code == 200
    assert store.plies("legacy-game") == 2
    assert [entry["notation"] for entry in view(client, legacy, 1)["history"]][-2:-1] == ["keep"]
