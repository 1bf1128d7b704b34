"""Matches and side rules over HTTP: games in a row, standings, and the setup's secrets kept."""

from __future__ import annotations

import random
from typing import Any

import pytest

from service.games import LiveGame
from service.setup import GameSetup
from service.views import view as view_of
from solver.game.phases import seen_by
from solver.game.reference import Game, random_deck
from solver.game.rules import Rules
from tests.support.games import ordered_deck
from tests.support.service import TestClient, bearer, create, error, move, public_of, view
from tests.support.sweeps import sample_seed, sampled

# Two tan hands, hearts trump (the 9h turned up): seat 1 holds no trump.
TRUMPLESS_1 = [
    ["2h", "3s", "4s", "5s", "6s", "7s", "8s", "9s"],
    ["2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c"],
]


def test_a_match_of_three_games_against_an_engine(client: TestClient) -> None:
    rules = {"preset": "tan", "tribute": True, "trump_swap": True, "take_when_beaten": True}
    game = create(client, rules=rules, seats=["human", "greedy"], seed=5, match={"games": 3})
    numbers = set()
    answer: dict[str, Any] = game["game"]
    assert answer["lead"] == {"seat": 0, "reason": "seat0"}  # tan: seat 0 leads the first game
    for _ in range(2000):
        if answer["status"] == "over":
            break
        block = answer["match"]
        if block["game"] not in numbers and block["previous"] is not None:
            # A later game: its last winner leads (the dealer when nobody won), until a swap cedes it.
            last = block["previous"]
            assert last["played"] is True
            expected = (
                ("last_winner", last["winner"]) if last["winner"] is not None else ("dealer", block["dealer"])
            )
            swapped = [entry["seat"] for entry in answer["history"]
                       if entry["game"] == block["game"] and entry["move"]["action"] == "swap"]
            if swapped:  # tan's trump swap cedes the lead to the seat after the swapper
                expected = ("trump_swap", 1 - swapped[0])
            assert (answer["lead"]["reason"], answer["lead"]["seat"]) == expected
        numbers.add(block["game"])
        assert block["games"] == 3 and len(block["standings"]) == 2
        assert answer["position"]["match"]["game"] == block["game"]
        legal = answer["legal_moves"]
        assert legal, answer["position"]
        reply = move(client, game, 0, legal[-1])
        assert reply.status_code == 200, reply.text
        answer = reply.json()
    assert answer["status"] == "over" and numbers == {1, 2, 3}
    block = answer["match"]
    assert len(block["trump_suits"]) == 3 and block["previous"]["game"] == 3
    standings = block["standings"]
    assert sum(s["won"] for s in standings) + sum(s["lost"] for s in standings) >= 3
    assert {entry["game"] for entry in answer["history"]} == {1, 2, 3}
    error(move(client, game, 0, "take"), 422, "game_over")
    again = view(client, game, 0)
    assert again["match"]["standings"] == standings  # a restart replays the same match


def test_a_game_its_dealer_lost_at_once_says_nothing_was_played_in_it(client: TestClient) -> None:
    """Two seats, trump repeat after 2 games: a game dealt with the last game's trump suit is lost by
    its dealer at once (docs/rules.md §1.9); the match block's `previous.played` says so, and its
    record is refused, while a game played through says `played`."""
    repeats = played = 0
    for seed in range(12):
        game = create(client, rules={"preset": "durak", "trump_repeat_limit": 2}, seats=["human", "greedy"],
                      seed=seed, match={"games": 3})
        answer: dict[str, Any] = game["game"]
        while answer["status"] != "over" and answer["match"]["game"] == 1:
            answer = move(client, game, 0, answer["legal_moves"][-1]).json()
        last = answer["match"]["previous"]
        assert last["played"] is (not last["trump_repeat"]), last
        if last["trump_repeat"]:
            repeats += 1
            record = client.get(f"/v1/games/{game['id']}/record", params={"seat": 0, "game": last["game"]},
                                headers=bearer(game["tokens"][0]))
            error(record, 422, "invalid_input")
        else:
            played += 1
        if repeats and played:  # both kinds of game seen: the rest of the seeds add nothing
            break
    assert repeats >= 1 and played >= 1


def test_bad_match_requests_are_refused(client: TestClient) -> None:
    for bad in ({"games": 0}, {"games": "three"}, {"rounds": 2}):
        answer = client.post("/v1/games", json={"rules": "tan", "seats": ["human", "greedy"], "match": bad})
        error(answer, 422, "invalid_request")


def test_a_redeal_keeps_its_secrets(client: TestClient) -> None:
    """Seat 1 holds no trump: only it learns that it may redeal, only it sees the offered hands,
    and everyone knows its shown hand went back into the stock."""
    rules = Rules.preset_named("tan", redeal_without_trump=True)
    hands = TRUMPLESS_1
    deck = ordered_deck(rules, hands, "9h")
    game = create(client, rules={"preset": "tan", "redeal_without_trump": True}, seats=["human", "human"],
                  deck=deck)
    # Seat 0 leads and holds the 2h: asked first all the same, it may only keep (docs/rules.md §1.7).
    first = view(client, game, 0)
    assert first["position"]["setup"]["step"] == "redeal" and first["legal_moves"] == [{"action": "keep"}]
    assert view(client, game, 1)["position"]["to_move"] is None
    assert move(client, game, 0, "keep").status_code == 200
    other, mine = view(client, game, 0), view(client, game, 1)
    assert other["position"]["phase"] == "setup" and other["position"]["to_move"] is None
    assert other["position"]["setup"]["step"] is None and other["legal_moves"] == []
    assert mine["position"]["to_move"] == 1 and mine["position"]["setup"]["step"] == "redeal"
    assert {m["action"] for m in mine["legal_moves"]} == {"redeal", "keep"}
    error(client.get(f"/v1/games/{game['id']}/hint", params={"seat": 0}, headers=bearer(game["tokens"][0])),
          422, "not_your_turn")
    assert move(client, game, 1, "redeal").status_code == 200
    other, mine = view(client, game, 0), view(client, game, 1)
    assert mine["position"]["setup"]["step"] == "pick" and len(mine["position"]["setup"]["sets"]) == 2
    assert "sets" not in other["position"]["setup"] and other["position"]["to_move"] == 1
    shown = set(mine["position"]["setup"]["shown"])
    assert shown == set(other["position"]["setup"]["shown"]) == set(hands[1])
    hint = client.get(f"/v1/games/{game['id']}/hint", params={"seat": 1, "iterations": 300},
                      headers=bearer(game["tokens"][1]))
    assert hint.status_code == 200 and {m["notation"] for m in hint.json()["moves"]} == {"pick 0", "pick 1"}
    assert move(client, game, 1, "pick 1").status_code == 200
    other = view(client, game, 0)
    assert set(other["position"]["in_stock"]) == shown and other["position"].get("phase", "play") == "play"


def test_a_keep_is_seen_only_by_the_seat_that_kept(client: TestClient) -> None:
    rules = Rules.preset_named("tan", redeal_without_trump=True)
    game = create(client, rules={"preset": "tan", "redeal_without_trump": True}, seats=["human", "human"],
                  deck=ordered_deck(rules, TRUMPLESS_1, "9h"))
    assert move(client, game, 0, "keep").status_code == 200  # asked first, with nothing to decide
    assert move(client, game, 1, "keep").status_code == 200
    assert [(entry["seat"], entry["notation"]) for entry in view(client, game, 1)["history"]] == [(1, "keep")]
    mine = view(client, game, 0)
    assert [(entry["seat"], entry["notation"]) for entry in mine["history"]] == [(0, "keep")]
    # expected_ply counts the moves the seat sees: a keep it may not see does not count.
    lead = {"seat": 0, "move": mine["legal_moves"][0], "expected_ply": 1}
    answer = client.post(f"/v1/games/{game['id']}/moves", json=lead, headers=bearer(game["tokens"][0]))
    assert answer.status_code == 200, answer.text


def test_a_tribute_and_its_inspection_stay_between_giver_and_receiver(client: TestClient) -> None:
    """Three humans play game 1 of a match out; in game 2 the loser's tribute card is known to the
    giver and the receiver only, and only the receiver sees the giver's hand (tribute_inspect)."""
    rules = {"preset": "tan", "tribute": True}
    for seed in range(30):
        game = create(client, rules=rules, seats=["human"] * 3, seed=seed, match={"games": 2})
        answer = view(client, game, 0)
        while answer["match"]["game"] == 1:
            seat = answer["position"]["to_move"]
            answer = move(client, game, seat, view(client, game, seat)["legal_moves"][0]).json()
        tribute = answer["match"]["tribute"]
        if tribute is not None:
            break
    else:
        raise AssertionError("no seed gives a tribute in game 2")
    giver, receiver = tribute["giver"], tribute["receiver"]
    other = ({0, 1, 2} - {giver, receiver}).pop()
    card = view(client, game, receiver)["match"]["tribute"]["card"]
    assert view(client, game, giver)["match"]["tribute"]["card"] == card
    assert "card" not in view(client, game, other)["match"]["tribute"]
    receiver_view = view(client, game, receiver)["position"]
    giver_view = view(client, game, giver)["position"]
    other_view = view(client, game, other)["position"]
    assert card in receiver_view["hand"] and card in giver_view["known"][str(receiver)]
    assert card not in other_view["known"].get(str(receiver), [])
    seen = set(receiver_view["known"].get(str(giver), []))
    assert seen and seen <= set(giver_view["hand"])  # the giver's hand as it was, less any card played
    assert not other_view["known"].get(str(giver))


def test_a_secret_swap_decision_is_not_in_the_history(client: TestClient) -> None:
    """Three seats; seat 0 holds no trump and redeals, seat 2 holds the 2h under the Kh: after the
    pick, seat 2 decides in secret whether to swap. Seats 0 and 1 see nobody to move, in their
    position and in the history's `after` alike — it must not tell them who holds the low trump —
    and seat 2's secret keep leaves their history as it was."""
    rules = {"preset": "tan", "redeal_without_trump": True, "trump_swap": True}
    hands = [
        ["3s", "4s", "5s", "6s", "7s", "8s", "9s", "Ts"],
        ["3h", "3c", "4c", "5c", "6c", "7c", "8c", "9c"],
        ["2h", "3d", "4d", "5d", "6d", "7d", "8d", "9d"],
    ]
    deck = ordered_deck(Rules.from_json(rules), hands, "Kh")
    game = create(client, rules=rules, seats=["human"] * 3, deck=deck)
    assert view(client, game, 0)["position"]["setup"]["step"] == "redeal"
    assert move(client, game, 0, "redeal").status_code == 200
    assert move(client, game, 0, "pick 0").status_code == 200
    for seat in (1, 2, 0, 1):  # the rest of the redeal round, then the swap round up to seat 2
        assert move(client, game, seat, "keep").status_code == 200
    decider = view(client, game, 2)
    assert decider["position"]["to_move"] == 2 and decider["position"]["setup"]["step"] == "swap"
    # The others' keeps since its own are not in its history either.
    assert [(entry["seat"], entry["notation"]) for entry in decider["history"][-1:]] == [(2, "keep")]
    for seat in (0, 1):
        seen = view(client, game, seat)
        assert seen["position"]["to_move"] is None
        assert [entry["after"] for entry in seen["history"]][-1] == public_of(seen["position"])
        assert all(entry["after"]["to_move"] in (0, seat, None) for entry in seen["history"]), seen["history"]
    before = [view(client, game, seat)["history"] for seat in (0, 1)]
    assert move(client, game, 2, "keep").status_code == 200
    assert [view(client, game, seat)["history"] for seat in (0, 1)] == before
    assert view(client, game, 2)["history"][-1]["after"]["to_move"] == 0


SIDE_RULES = ("tribute", "all_trumps_wins", "take_when_beaten", "twos_last", "trump_repeat_limit")


def _random_side_rules(rng: random.Random) -> tuple[Rules, int, int]:
    """Rules with the two secret setup decisions (a redeal, a swap) and a random mix of the other
    side rules, a seat count and a match length."""
    preset = rng.choice(["tan", "tan", "durak", "perevodnoy"])
    options: dict[str, Any] = {"redeal_without_trump": True, "trump_swap": True}
    for name in SIDE_RULES:
        if rng.random() < 0.5 and not (name == "twos_last" and preset != "tan"):
            options[name] = 2 if name == "trump_repeat_limit" else True
    rules = Rules.preset_named(preset, **options)
    return rules, rng.randint(rules.min_players, min(rules.max_players, 4)), rng.randint(1, 3)


@pytest.mark.parametrize("seed", sampled(range(16), 4, "history-entries"))
def test_every_history_entry_shows_what_its_seat_saw_then(seed: int) -> None:
    """Random side-rule games and matches of human seats, random legal moves: every entry of each
    seat's history shows in `after` exactly what that seat's position showed right after the move
    (docs/api.md §3) — nobody to move while another seat decides in secret, in a match the next
    game's deal after a game's last move — and the entries are the moves the seat saw."""
    rng = random.Random(f"after-{sample_seed()}-{seed}")  # TAN_TEST_SAMPLE_SEED draws other games
    rules, players, games = _random_side_rules(rng)
    deal_seed = rng.getrandbits(63)
    deck = [str(card) for card in random_deck(rules, deal_seed)]
    data: dict[str, Any] = {
        "format": 1, "rules": rules.to_json(), "players": players,
        "deck": deck, "first_attacker": Game.deal(rules, players, deck=deck).leader,
        "seats": ["human"] * players, "seed": deal_seed, "engine_seed": 0, "shuffled": True,
        "token_hashes": [None] * players,
    }  # fmt: skip
    if games > 1:
        data["match"] = {"games": games}
    setup = GameSetup.from_json(data)
    live = LiveGame("game", setup, LiveGame.new_match(setup))
    seen: list[list[dict[str, Any]]] = []  # by ply, by seat: the public part of the seat's position
    for _ply in range(1500):
        if live.over:
            break
        mover = live.game.to_move
        assert mover is not None
        live.play(rng.choice(live.game.legal_moves()), mover)
        seen.append([public_of(live.position(seat).to_json()) for seat in range(players)])
    for seat in range(players):
        history = view_of(live, seat)["history"]
        plies = [ply for ply, (_n, mover, made) in enumerate(live.history) if seen_by(made, mover, seat)]
        assert [entry["notation"] for entry in history] == [live.history[ply][2].notation for ply in plies]
        for entry, ply in zip(history, plies, strict=True):
            assert entry["after"] == seen[ply][seat], (seat, ply, entry)
