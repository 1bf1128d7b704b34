"""GET /healthz, GET /v1/rules, POST /v1/moves, /v1/hint, /v1/evaluate and their error codes."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from service.deps import services_of
from service.errors import CATALOGUE, ServiceCode
from service.main import VERSION
from solver.game.moves import Move
from solver.game.position import Position
from solver.game.reference import Game
from solver.game.rules import OPTION_DOCS, PRESETS, Rules, Throwers
from solver.search import Limits
from solver.search.labels import LABELS
from solver.search.lines import PV
from tests.support.positions import (
    finished_position,
    open_endgame,
    to_move_position,
    waiting_position,
)
from tests.support.service import TestClient, error, make_client, make_settings

HINT_KEYS = {"seat", "best", "moves", "evaluation", "chance", "stats"}
MOVE_KEYS = {"move", "notation", "score", "ci95", "visits", "exact", "loss", "label"}
STATS_KEYS = {
    "algorithm",
    "iterations",
    "worlds",
    "time_ms",
    "iterations_per_s",
    "stop_reason",
    "seed",
    "threads",
    "beliefs",
    "ess",
    "calibrated",
    "model",
    "opponent_policy",
    "value_mix",
}


# -- service ----------------------------------------------------------------------------------


def test_healthz(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok", "version": VERSION}


def test_index_page_and_docs(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert client.get("/redoc").status_code == 404  # ReDoc fetches its logo from outside
    html = client.get("/docs")
    assert html.status_code == 200
    assets = re.findall(r'(?:src|href)="([^"]+)"', html.text)
    assert assets and all(asset.startswith("/static-offline-docs/") for asset in assets), assets
    for asset in assets:
        assert client.get(asset).status_code == 200, asset
    schema = client.get("/openapi.json").json()
    for path in (
        "/v1/rules",
        "/v1/moves",
        "/v1/hint",
        "/v1/evaluate",
        "/v1/games",
        "/v1/games/{game_id}",
        "/v1/games/{game_id}/moves",
        "/v1/games/{game_id}/hint",
    ):
        assert path in schema["paths"]
    assert "examples" in schema["components"]["schemas"]["HintRequest"]
    components = schema["components"]["schemas"]
    codes = components["ErrorCode"]["enum"] + components["ServiceCode"]["enum"]
    assert codes == [code.value for code in CATALOGUE]  # the manual lists the whole catalogue


def test_error_answers_use_the_catalogue(client: TestClient) -> None:
    assert error(client.get("/v1/nowhere"), 404, ServiceCode.NOT_FOUND)
    assert error(client.delete("/v1/rules"), 405, ServiceCode.METHOD_NOT_ALLOWED)


def test_rules_lists_presets_and_every_option(client: TestClient) -> None:
    body = client.get("/v1/rules").json()
    assert set(body["presets"]) == set(PRESETS)
    assert body["presets"]["durak"]["deck"] == 36 and body["presets"]["tan"]["max_attack"] is None
    options = {option["name"]: option for option in body["options"]}
    assert set(options) == set(OPTION_DOCS)
    assert all(option["description"] for option in options.values())
    assert options["refill_order"]["type"] == "choice"
    assert "attacker_others_defender" in options["refill_order"]["choices"]
    assert options["transfer"]["type"] == "boolean" and options["max_attack"]["type"] == "integer or null"
    assert "ismcts" in body["engines"]
    bounds = body["review_labels"]
    assert [(bound["label"], bound["below"]) for bound in bounds] == [
        (label.value, below) for label, below in LABELS
    ]


def test_who_may_throw_in_is_a_rule_option_picked_from_a_list(client: TestClient) -> None:
    """Issue 62: `throwers` reaches GET /v1/rules as a choice the page offers as a list."""
    options = {option["name"]: option for option in client.get("/v1/rules").json()["options"]}
    throwers = options["throwers"]
    assert throwers["type"] == "choice" and throwers["default"] == "all"
    assert throwers["choices"] == throwers["toggle"] == ["all", "neighbours", "attacker"]


def throw_in_game(rules: dict[str, Any], players: int) -> Game:
    """A seeded random game played until the main attacker may pass a throw-in."""
    game = Game.deal(Rules.from_json(rules), players, seed=7)
    rng = random.Random(7)
    while not (game.table and game.to_move == game.attacker and Move.parse("pass") in game.legal_moves()):
        game.play(rng.choice(game.legal_moves()))
    return game


def test_a_hint_follows_who_may_throw_in(client: TestClient) -> None:
    """Issue 62: at 4 seats, once the main attacker has passed a throw-in, the seat after the
    defender is to move when everyone throws in; with the main attacker alone the bout is over,
    so that position is refused (`inconsistent_turn`), and the hint answers under each rule."""
    game = throw_in_game({"preset": "durak"}, 4)
    game.play("pass")
    passed = Position.from_game(game, game.to_move).to_json()
    assert passed["to_move"] == (passed["defender"] + 1) % 4 and passed["passed"] == [passed["attacker"]]
    answer = client.post("/v1/hint", json={"position": passed, "limits": {"iterations": 100}, "seed": 1})
    assert answer.status_code == 200, answer.text
    alone = {**passed, "rules": {"preset": "durak", "throwers": "attacker"}}
    refused = client.post("/v1/hint", json={"position": alone, "limits": {"iterations": 100}})
    error(refused, 422, "inconsistent_turn")
    game = throw_in_game({"preset": "durak", "throwers": "attacker"}, 4)
    position = Position.from_game(game, game.to_move).to_json()
    assert Position.from_json(position).rules.throwers is Throwers.ATTACKER
    answer = client.post("/v1/hint", json={"position": position, "limits": {"iterations": 100}, "seed": 1})
    assert answer.status_code == 200, answer.text
    assert {"action": "pass"} in [move["move"] for move in answer.json()["moves"]]


def test_a_rule_option_that_keeps_the_game_keeps_the_shipped_model(client: TestClient) -> None:
    """Issue 62 part 0: who leads first changes no position the model valued; a side rule does."""
    for rules, model in (
        ({"preset": "durak", "first_attacker": "seat0"}, "value-durak-2+policy-durak-2"),
        ({"preset": "durak", "take_when_beaten": True}, "playouts"),
    ):
        game = Game.deal(Rules.from_json(rules), 2, seed=5)
        position = Position.from_game(game, game.to_move).to_json()
        answer = client.post("/v1/hint", json={"position": position, "limits": {"iterations": 60}, "seed": 1})
        assert answer.status_code == 200, answer.text
        assert answer.json()["stats"]["model"] == model, rules


def test_unknown_path_and_method(client: TestClient) -> None:
    error(client.get("/v1/nothing"), 404, "not_found")
    error(client.get("/v1/hint"), 405, "method_not_allowed")


# -- moves ------------------------------------------------------------------------------------


def test_moves_lists_the_legal_moves(client: TestClient) -> None:
    position = to_move_position()
    body = client.post("/v1/moves", json={"position": position}).json()
    assert body["to_move"] == position["seat"]
    assert body["moves"] and all("action" in move for move in body["moves"])


def test_moves_of_a_seat_not_to_move(client: TestClient) -> None:
    error(client.post("/v1/moves", json={"position": waiting_position()}), 422, "not_your_turn")


def test_moves_of_a_finished_game(client: TestClient) -> None:
    error(client.post("/v1/moves", json={"position": finished_position()}), 422, "game_over")


# -- hint -------------------------------------------------------------------------------------


def test_hint_shape_and_ranking(client: TestClient) -> None:
    position = to_move_position()
    answer = client.post(
        "/v1/hint", json={"position": position, "limits": {"iterations": 400}, "seed": 3, "multipv": 2}
    )
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert set(body) == HINT_KEYS and set(body["stats"]) == STATS_KEYS and body["chance"] == "win"
    assert body["seat"] == position["seat"]
    assert 1 <= len(body["moves"]) <= 2 and all(set(move) == MOVE_KEYS for move in body["moves"])
    assert body["best"] == body["moves"][0]["move"]
    assert body["stats"]["iterations"] == 400 and body["stats"]["seed"] == 3
    assert body["stats"]["threads"] == 1
    lo, hi = body["evaluation"]["ci95"]
    assert 0 <= lo <= body["evaluation"]["score"] <= hi <= 1


LINE_KEYS = {"moves", "score", "exact"}
LINE_MOVE_KEYS = {"seat", "move", "notation", "visits", "score"}


def test_hint_lines_are_asked_for_with_pv(client: TestClient) -> None:
    """`pv` adds each move's line (docs/api.md §3, "Lines"); without it the answer has none, and a
    depth past the declared bound is refused before any search."""
    position = to_move_position(seed=5)
    request = {"position": position, "limits": {"iterations": 1000}, "seed": 3}
    body = client.post("/v1/hint", json={**request, "pv": 3}).json()
    assert all(set(move) == MOVE_KEYS | {"line"} for move in body["moves"])
    for move in body["moves"]:
        line = move["line"]
        if move["visits"] == 0:
            assert line is None
            continue
        assert set(line) == LINE_KEYS and all(set(ply) == LINE_MOVE_KEYS for ply in line["moves"])
        assert 1 <= len(line["moves"]) <= 3 and line["moves"][0]["move"] == move["move"]
        assert line["moves"][0]["seat"] == position["seat"] and line["exact"] is False
    plain = client.post("/v1/hint", json=request).json()
    assert all(set(move) == MOVE_KEYS for move in plain["moves"])
    assert [move["visits"] for move in plain["moves"]] == [move["visits"] for move in body["moves"]]
    error(client.post("/v1/hint", json={**request, "pv": PV.maximum + 1}), 422, "invalid_request")
    error(client.post("/v1/hint", json={**request, "pv": -1}), 422, "invalid_request")


def test_the_pv_option_is_declared_once(client: TestClient) -> None:
    """The schema, the stored game's query parameter and `GET /v1/rules` read solver.search.lines.PV."""
    schema = client.get("/openapi.json").json()
    request = schema["components"]["schemas"]["HintRequest"]["properties"]["pv"]
    assert (request["default"], request["minimum"], request["maximum"]) == (PV.default, 0, PV.maximum)
    assert request["description"] == PV.meaning
    parameters = schema["paths"]["/v1/games/{game_id}/hint"]["get"]["parameters"]
    query = next(parameter for parameter in parameters if parameter["name"] == "pv")
    assert query["schema"]["maximum"] == PV.maximum and query["description"] == PV.meaning
    assert "line" in schema["components"]["schemas"]["MoveValueOut"]["properties"]
    assert client.get("/v1/rules").json()["limits"]["pv"] == PV.maximum


def test_a_hint_against_a_known_greedy_opponent_models_it_so_from_the_first_move(client: TestClient) -> None:
    """`others` (hints and evaluations): greedy known, the others are the greedy heuristic in three
    iterations of four and the leaves played out, where a bare position read alone leaves them
    searched and the net at the leaves; the kinds come from the beliefs' list, anything else is
    refused before any search."""
    request = {"position": to_move_position("durak", 2, seed=5), "limits": {"iterations": 300}, "seed": 3}
    read = client.post("/v1/hint", json=request).json()["stats"]
    known = client.post("/v1/hint", json={**request, "others": "greedy"}).json()["stats"]
    default = ("value-durak-2+policy-durak-2", 0.0, 1.0)
    assert (read["model"], read["opponent_policy"], read["value_mix"]) == default
    assert (known["model"], known["opponent_policy"], known["value_mix"]) == ("playouts", 0.75, 0.0)
    schema = client.get("/openapi.json").json()["components"]["schemas"]["HintRequest"]["properties"]
    assert {"greedy", "engine"} <= set(json.dumps(schema["others"]).replace('"', " ").split())
    error(client.post("/v1/hint", json={**request, "others": "expert"}), 422, "invalid_request")
    evaluated = client.post("/v1/evaluate", json={**request, "others": "greedy"}).json()["stats"]
    assert (evaluated["model"], evaluated["opponent_policy"]) == ("playouts", 0.75)
    error(client.post("/v1/evaluate", json={**request, "others": 1}), 422, "invalid_request")


def test_hint_is_reproducible_with_a_seed(client: TestClient) -> None:
    request = {"position": to_move_position(seed=5), "limits": {"iterations": 300}, "seed": 11}
    first, second = (client.post("/v1/hint", json=request).json() for _ in range(2))
    assert first["moves"] == second["moves"]


def test_hint_with_pimc_and_defaults(client: TestClient) -> None:
    body = client.post("/v1/hint", json={"position": to_move_position(), "algorithm": "pimc"}).json()
    assert body["stats"]["algorithm"] == "pimc"
    assert body["stats"]["iterations"] <= 300  # the test settings' default iterations


def test_hint_of_an_open_endgame_is_exact(client: TestClient) -> None:
    body = client.post("/v1/hint", json={"position": open_endgame(4)}).json()
    assert body["evaluation"]["exact"] is True and all(move["exact"] for move in body["moves"])


def test_a_large_open_endgame_is_searched_when_the_exact_solve_runs_out_of_time(client: TestClient) -> None:
    """Solving 9 cards a hand exactly can take minutes; the time limit stops it and the tree
    search answers instead, within the same limits."""
    answer = client.post("/v1/hint", json={"position": open_endgame(9), "limits": {"time_ms": 1000}})
    assert answer.status_code == 200, answer.text
    stats = answer.json()["stats"]
    assert stats["algorithm"] == "ismcts" and stats["stop_reason"] in ("iterations", "time")
    assert 0 < stats["iterations"] <= 5_000  # the settings' cap (no limit was asked)
    assert answer.json()["evaluation"]["exact"] is False


def test_hint_time_limit_is_capped(tmp_path: Path) -> None:
    settings = make_settings(tmp_path / "g.db", max_iterations=10**9, max_time_ms=100)
    with make_client(settings) as client:
        asked = {"iterations": 10**12, "time_ms": 10**9}
        assert services_of(client.app).searcher.limits(asked) == Limits(iterations=10**9, time_ms=100)  # type: ignore[arg-type]
        body = client.post("/v1/hint", json={"position": to_move_position(plies=2), "limits": asked}).json()
    assert body["stats"]["stop_reason"] == "time"
    assert body["stats"]["iterations"] < 10**9


def test_hint_of_a_seat_not_to_move(client: TestClient) -> None:
    error(client.post("/v1/hint", json={"position": waiting_position()}), 422, "not_your_turn")


def test_hint_of_a_finished_game(client: TestClient) -> None:
    error(client.post("/v1/hint", json={"position": finished_position()}), 422, "game_over")


@pytest.mark.parametrize(
    "limits",
    [
        {"iterations": 0},
        {"time_ms": -5},
        {"iterations": None, "time_ms": None},
        {"iterations": -1, "time_ms": 9},
    ],
)
def test_bad_limits(client: TestClient, limits: dict[str, Any]) -> None:
    answer = client.post("/v1/hint", json={"position": to_move_position(), "limits": limits})
    assert "iterations" in error(answer, 422, "bad_limits") or "time_ms" in answer.json()["detail"]


def test_nan_time_limit(client: TestClient) -> None:
    body = '{"position": ' + json.dumps(to_move_position()) + ', "limits": {"time_ms": NaN}}'
    answer = client.post("/v1/hint", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 422 and answer.json()["code"] in ("bad_limits", "invalid_request")


# -- evaluate ---------------------------------------------------------------------------------


def test_evaluate(client: TestClient) -> None:
    position = waiting_position()
    body = client.post("/v1/evaluate", json={"position": position, "limits": {"iterations": 300}}).json()
    assert set(body) == {"seat", "score", "ci95", "exact", "scores", "p_lose", "chance", "cards", "stats"}
    assert body["seat"] == position["seat"] and len(body["scores"]) == 2 and len(body["p_lose"]) == 2
    assert body["chance"] == "win"  # two seats: the chance to win
    assert body["exact"] is False and body["stats"]["iterations"] == 300


def test_evaluate_of_a_finished_game_is_exact(client: TestClient) -> None:
    position = finished_position()
    body = client.post("/v1/evaluate", json={"position": position}).json()
    assert body["exact"] is True and sorted(body["scores"]) in ([0.0, 1.0], [0.5, 0.5])


# -- the error codes of bad positions ---------------------------------------------------------


def _broken(change: dict[str, Any]) -> dict[str, Any]:
    return {**to_move_position(), **change}


def test_invalid_card(client: TestClient) -> None:
    position = to_move_position()
    position["hand"] = [*position["hand"][:-1], "Zz"]
    detail = error(client.post("/v1/hint", json={"position": position}), 422, "invalid_card")
    assert "Zz" in detail and "hand" in detail


def test_duplicate_card(client: TestClient) -> None:
    position = to_move_position(plies=20)
    assert position["discard"] or position["table"]
    card = position["hand"][0]
    position["known"] = {str(1 - position["seat"]): [card]}
    detail = error(client.post("/v1/moves", json={"position": position}), 422, "duplicate_card")
    assert card in detail


def test_card_not_in_deck(client: TestClient) -> None:
    position = to_move_position()
    position["hand"] = [*position["hand"][:-1], "2c"]
    assert "2c" in error(client.post("/v1/moves", json={"position": position}), 422, "card_not_in_deck")


def test_count_mismatch(client: TestClient) -> None:
    position = to_move_position()
    position["hand_counts"] = [count + 1 for count in position["hand_counts"]]
    assert "hand_counts" in error(
        client.post("/v1/moves", json={"position": position}), 422, "count_mismatch"
    )


def test_inconsistent_turn(client: TestClient) -> None:
    position = to_move_position()
    position["defender"] = position["attacker"]
    error(client.post("/v1/moves", json={"position": position}), 422, "inconsistent_turn")


def test_unknown_rules(client: TestClient) -> None:
    assert "nonsense" in error(
        client.post("/v1/moves", json={"position": _broken({"rules": "nonsense"})}), 422, "unknown_rules"
    )
    error(
        client.post("/v1/moves", json={"position": _broken({"rules": {"preset": "durak", "colour": 1}})}),
        422,
        "unknown_rules",
    )


def test_invalid_seat_and_players(client: TestClient) -> None:
    error(client.post("/v1/moves", json={"position": _broken({"seat": 7})}), 422, "invalid_seat")
    error(client.post("/v1/moves", json={"position": _broken({"players": 9})}), 422, "bad_players")


def test_invalid_position(client: TestClient) -> None:
    position = to_move_position(plies=1)
    position["known"] = {"x": []}
    error(client.post("/v1/moves", json={"position": position}), 422, "invalid_position")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "position"),
        ({"position": {"rules": "durak"}}, "position.players"),
        ({"position": "durak"}, "position"),
        ({"position": {**to_move_position(), "hand": 5}}, "position.hand"),
        ({"position": {**to_move_position(), "players": True}}, "position.players"),
        ({"position": {**to_move_position(), "colour": "red"}}, "position.colour"),
        ({"position": to_move_position(), "seed": -1}, "seed"),
        ({"position": to_move_position(), "multipv": 0}, "multipv"),
        ({"position": to_move_position(), "algorithm": "alphabeta"}, "algorithm"),
        ({"position": to_move_position(), "limits": {"iterations": "many"}}, "limits.iterations"),
        ({"position": to_move_position(), "limits": {"depth": 3}}, "limits.depth"),
    ],
)
def test_request_validation_is_readable(client: TestClient, body: dict[str, Any], field: str) -> None:
    assert field in error(client.post("/v1/hint", json=body), 422, "invalid_request")


def test_body_that_is_not_json(client: TestClient) -> None:
    answer = client.post("/v1/hint", content=b"{nope", headers={"content-type": "application/json"})
    assert "JSON" in error(answer, 422, "invalid_request")
    answer = client.post("/v1/hint", content=b"[1, 2]", headers={"content-type": "application/json"})
    assert "JSON object" in error(answer, 422, "invalid_request")
    answer = client.post("/v1/hint", content=b"", headers={"content-type": "application/json"})
    error(answer, 422, "invalid_request")


def test_body_too_large(client: TestClient, settings: Any) -> None:
    big = b'{"position": "' + b"x" * settings.max_body_bytes + b'"}'
    error(
        client.post("/v1/hint", content=big, headers={"content-type": "application/json"}), 413, "too_large"
    )

    def chunks() -> Any:
        yield big[:100]
        yield big[100:]

    error(
        client.post("/v1/moves", content=chunks(), headers={"content-type": "application/json"}),
        413,
        "too_large",
    )


def test_a_record_instead_of_a_position(client: TestClient) -> None:
    """A record is searched at the position it replays to, its history weighing the worlds; a
    record with an impossible event names it."""
    from solver.game.record import Record
    from solver.game.reference import Game, random_deck
    from solver.game.rules import Rules

    rules = Rules.preset_named("durak")
    deck = random_deck(rules, 4)
    game = Game.deal(rules, 2, deck=deck)
    history: list[tuple[int, Move]] = []
    while len(history) < 14 or game.to_move != 0:
        seat = game.to_move
        assert seat is not None
        move = game.legal_moves()[0]
        game.play(move, seat)
        history.append((seat, move))
    record = Record.of_game(Game.deal(rules, 2, deck=deck), 0, deck, history).to_json()
    position = Position.from_game(game, 0).to_json()
    ask = {"limits": {"iterations": 400}, "seed": 3}
    by_record = client.post("/v1/hint", json={"record": record, **ask}).json()
    by_position = client.post("/v1/hint", json={"position": position, **ask}).json()
    notations = [sorted(move["notation"] for move in answer["moves"]) for answer in (by_record, by_position)]
    assert notations[0] == notations[1] == sorted(move.notation for move in game.legal_moves())
    assert by_position["stats"]["beliefs"] == "uniform" and by_position["stats"]["ess"] is None
    assert by_record["stats"]["beliefs"] in ("weighted", "tempered") and by_record["stats"]["ess"] > 0
    evaluation = client.post("/v1/evaluate", json={"record": record, **ask})
    assert evaluation.status_code == 200
    cards = evaluation.json()["cards"]
    assert set(cards) == {str(card) for card in Position.from_game(game, 0).unseen_cards()}
    record["events"].insert(0, {"seat": 1 - record["first_attacker"], "move": "take"})
    detail = error(client.post("/v1/hint", json={"record": record}), 422, "not_your_turn")
    assert detail.startswith("events[0]:")
    both = {"record": record, "position": position}
    error(client.post("/v1/hint", json=both), 422, "invalid_request")
    error(client.post("/v1/hint", json={}), 422, "invalid_request")
