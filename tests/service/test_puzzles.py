"""Puzzles over HTTP (docs/api.md §3, "Puzzles"): the shipped set, and the puzzles of a posted
record."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from service.routers.puzzles import SHIPPED
from solver.game.moves import Move
from solver.game.position import Position
from solver.search import Limits, Solver
from solver.search.puzzles import clear_best
from solver.search.review import Decision, decisions
from tests.support.records import BLUNDER, GOOD, endgame_record
from tests.support.service import TestClient, error, make_client, make_settings

LIMITS = {"iterations": 300}


def unforced(record: Any) -> list[Decision]:
    return [decision for decision in decisions(record) if not decision.forced]


def post(client: TestClient, record: Any, **extra: Any) -> Any:
    return client.post("/v1/puzzles", json={"record": record, "limits": LIMITS, **extra})


def test_the_shipped_set_is_served_with_how_it_was_made(client: TestClient) -> None:
    answer = client.get("/v1/puzzles")
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data == {**json.loads(SHIPPED.read_text()), "checked": None}
    made_by = data["made_by"]
    assert made_by["command"].startswith("python -m solver.tools.puzzles")
    assert {"seed", "commit", "games", "limits", "engine"} <= set(made_by)
    puzzles = data["puzzles"]
    assert 12 <= len(puzzles) <= 60 and len(SHIPPED.read_bytes()) < 100_000
    assert len({puzzle["id"] for puzzle in puzzles}) == len(puzzles)
    assert any(puzzle["answer"]["proven"] for puzzle in puzzles)
    assert any(not puzzle["answer"]["proven"] for puzzle in puzzles)
    for puzzle in puzzles:
        position = Position.from_json(puzzle["position"])  # a position /v1/hint takes
        assert position.to_move == position.seat == puzzle["seat"]
        legal = {move.notation for move in position.legal_moves()}
        assert {row["notation"] for row in puzzle["moves"]} == legal and len(legal) > 1
        assert puzzle["answer"]["notation"] == puzzle["moves"][0]["notation"]
        line = puzzle["line"]
        assert line is None or line["moves"][0]["notation"] == puzzle["answer"]["notation"]


def test_a_shipped_puzzle_is_what_the_hint_answers(client: TestClient) -> None:
    """`source` repeats the search: the hint of the position, seed and limits has the same clear best."""
    puzzles = json.loads(SHIPPED.read_text())["puzzles"]
    for proven in (True, False):
        puzzle = next(p for p in puzzles if p["answer"]["proven"] is proven)
        source = puzzle["source"]
        hint = Solver().hint(Position.from_json(puzzle["position"]), Limits.from_json(source["limits"]),
                             seed=source["seed"])
        assert hint.best == Move.from_json(puzzle["answer"]["move"])
        assert clear_best(hint) is proven


def test_a_posted_record_gives_its_mistakes_as_puzzles(tmp_path: Path) -> None:
    with make_client(make_settings(tmp_path / "games.db", max_puzzle_checks=64)) as client:
        answer = post(client, endgame_record(BLUNDER).to_json(), seed=5)
        again = post(client, endgame_record(BLUNDER).to_json(), seed=5).json()
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["made_by"] is None and data["checked"] == len(unforced(endgame_record(BLUNDER)))
    assert data["puzzles"] and data["puzzles"][0]["missed"] is True  # the game's mistakes first
    last = next(p for p in data["puzzles"] if p["played"] == Move.parse(BLUNDER).to_json())
    assert last["missed"] is True and last["answer"]["notation"] == GOOD
    assert last["answer"]["proven"] is True and last["answer"]["outcome"] == "win"
    assert again == data  # the same record, seed and iterations: the same puzzles


def test_a_posted_record_checks_at_most_the_setting(tmp_path: Path) -> None:
    with make_client(make_settings(tmp_path / "games.db", max_puzzle_checks=1)) as client:
        data = post(client, endgame_record(BLUNDER).to_json(), seed=5).json()
    assert data["checked"] == 1 and len(data["puzzles"]) <= 1 < len(unforced(endgame_record(BLUNDER)))


def test_bad_requests_are_refused_in_the_apis_shape(client: TestClient) -> None:
    record = endgame_record().to_json()
    illegal = {**record, "events": [*record["events"]]}
    illegal["events"][2] = {"seat": 0, "move": "attack Ah"}
    assert error(post(client, illegal), 422, "illegal_move").startswith("events[2]: ")
    error(post(client, {**record, "hand": ["Zz"]}), 422, "invalid_card")
    error(client.post("/v1/puzzles", json={"limits": LIMITS}), 422, "invalid_request")
    error(client.post("/v1/puzzles", json={"record": record, "limits": {"iterations": 0}}), 422, "bad_limits")
    error(client.post("/v1/puzzles", json={"record": record, "seed": -1}), 422, "invalid_request")
