"""Through the service: a seat waiting in the setup learns nothing of the others' cards
(docs/rules.md §1.7; issue 64, finding 1).

Two games of two human seats are dealt from decks that differ only in where one
card lies (tests/solver/game/test_setup_waits.py makes the pairs); seat 0 plays
the same moves in both, seat 1 keeps. At every step until the first lead, seat
0's view, its hint and a move it may not make answer the same in both games.
"""

from __future__ import annotations

from typing import Any

from solver.game.rules import Rules
from tests.solver.game.test_setup_waits import deck_pairs
from tests.support.service import TestClient, bearer, create, move, view

RULES = {"preset": "tan", "redeal_without_trump": True, "trump_swap": True}


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
