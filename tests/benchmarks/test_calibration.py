"""The calibration benchmark reads arena records and fits the score maps Tấn ships."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import calibration
from solver.cli import main as tan
from solver.search.calibration import MAPS_FORMAT, ScoreMap

# The arenas' sizes: a deal of each in the default suite, the full arenas under `-m long`.
SMALL_OR_FULL = pytest.mark.parametrize(
    "full", [pytest.param(False, id="small"), pytest.param(True, marks=pytest.mark.long, id="full")]
)


@pytest.mark.long
@SMALL_OR_FULL
def test_fit_map_writes_a_map_per_opponent_that_does_not_search(tmp_path: Path, full: bool) -> None:
    games = tmp_path / "games.jsonl"
    assert tan(["arena", "--rules", "durak", "--engines", "ismcts,greedy", "--iterations", "40",
                "--deals", "4" if full else "1", "--seed", "3", "--workers", "1", "--out", str(games),
                "--no-progress"]) == 0
    selfplay = tmp_path / "self.jsonl"
    assert tan(["arena", "--rules", "durak", "--engines", "ismcts,pimc", "--iterations", "40",
                "--deals", "2" if full else "1", "--seed", "3", "--workers", "1", "--out", str(selfplay),
                "--no-progress"]) == 0
    maps_file = tmp_path / "maps.json"
    status = calibration.main([str(games), str(selfplay), "--correct", "--output", str(tmp_path / "r.json"),
                               "--plot", str(tmp_path / "r.png"), "--fit-map", str(maps_file)])
    assert status == 0
    data = json.loads(maps_file.read_text())
    assert data["format"] == MAPS_FORMAT
    maps = [ScoreMap.from_json(entry) for entry in data["maps"]]
    assert [(m.against, m.rules.preset, m.players) for m in maps] == [("greedy", "durak", 2)]  # not pimc
    records = [json.loads(line) for line in games.read_text().splitlines()]
    ismcts = sum(
        1
        for record in records
        for _ply, seat, _score in record["predictions"]
        if record["engines"][seat] == "ismcts" and _score not in (0.0, 0.5, 1.0)  # proven values: not fitted
    )
    assert maps[0].predictions == ismcts > 0 and maps[0].source == "games.jsonl"
    report = json.loads((tmp_path / "r.json").read_text())
    assert "durak 2p ismcts vs greedy" in report["groups"]


@pytest.mark.long
@SMALL_OR_FULL
def test_fit_map_against_a_searching_seat_it_is_told_of(tmp_path: Path, full: bool) -> None:
    """Self-play gives the engine's map against itself when the opponent's label is named."""
    games = tmp_path / "self.jsonl"
    lineup = ('[{"engine": "ismcts", "name": "weighted"}, '
              '{"engine": "ismcts", "beliefs": false, "name": "uniform"}]')
    assert tan(["arena", "--rules", "durak", "--engines", lineup, "--iterations", "40",
                "--deals", "3" if full else "1", "--seed", "5", "--workers", "1", "--out", str(games),
                "--no-progress"]) == 0
    maps_file = tmp_path / "maps.json"
    common = [str(games), "--output", str(tmp_path / "r.json"), "--plot", str(tmp_path / "r.png"),
              "--fit-map", str(maps_file)]
    assert calibration.main(common) == 0
    assert json.loads(maps_file.read_text())["maps"] == []  # nobody said who these seats are
    assert calibration.main([*common, "--map-seat", "weighted", "--map-opponent", "uniform=ismcts"]) == 0
    maps = [ScoreMap.from_json(entry) for entry in json.loads(maps_file.read_text())["maps"]]
    assert [(m.against, m.rules.preset, m.players) for m in maps] == [("ismcts", "durak", 2)]
    records = [json.loads(line) for line in games.read_text().splitlines()]
    weighted = sum(
        1
        for record in records
        for _ply, seat, score in record["predictions"]
        if record["engines"][seat] == "weighted" and score not in (0.0, 0.5, 1.0)
    )
    assert maps[0].predictions == weighted > 0


def test_self_play_of_one_spec_is_one_engine(tmp_path: Path) -> None:
    """Self-play of one seat spec labels its seats `#1` and `#2`: one group, and its map against
    itself from every seat's predictions."""
    games = tmp_path / "self.jsonl"
    assert tan(["arena", "--rules", "durak", "--engines", '["ismcts","ismcts"]', "--iterations", "40",
                "--deals", "1", "--seed", "5", "--workers", "1", "--out", str(games), "--no-progress"]) == 0
    records = [json.loads(line) for line in games.read_text().splitlines()]
    assert sorted(records[0]["engines"]) == ["ismcts@40it#1", "ismcts@40it#2"]
    maps_file = tmp_path / "maps.json"
    assert calibration.main([str(games), "--output", str(tmp_path / "r.json"), "--plot",
                             str(tmp_path / "r.png"), "--fit-map", str(maps_file),
                             "--map-seat", "ismcts@40it", "--map-opponent", "ismcts@40it=ismcts"]) == 0
    report = json.loads((tmp_path / "r.json").read_text())
    assert list(report["groups"]) == ["durak 2p ismcts@40it vs ismcts@40it"]
    maps = [ScoreMap.from_json(entry) for entry in json.loads(maps_file.read_text())["maps"]]
    unproven = sum(1 for record in records for _ply, _seat, score in record["predictions"]
                   if score not in (0.0, 0.5, 1.0))
    assert [(m.against, m.predictions) for m in maps] == [("ismcts", unproven)]
    assert report["groups"]["durak 2p ismcts@40it vs ismcts@40it"]["predictions"] == len(
        [p for record in records for p in record["predictions"]])


def test_fit_map_keeps_the_maps_it_does_not_fit_again(tmp_path: Path) -> None:
    """A second run's maps replace only those of the same opponent, rules, seats and model, so the
    shipped file is remade by one run per set of games (a value's maps beside the playouts')."""
    games = tmp_path / "games.jsonl"
    assert tan(["arena", "--rules", "durak", "--engines", "ismcts,greedy", "--iterations", "40",
                "--deals", "1", "--seed", "3", "--workers", "1", "--out", str(games), "--no-progress"]) == 0
    maps_file = tmp_path / "maps.json"
    common = [str(games), "--output", str(tmp_path / "r.json"), "--plot", str(tmp_path / "r.png"),
              "--fit-map", str(maps_file)]

    def shipped() -> list[tuple[str, str]]:
        return [(m["against"], m["model"]) for m in json.loads(maps_file.read_text())["maps"]]

    assert calibration.main([*common, "--map-model", "playouts"]) == 0
    assert shipped() == [("greedy", "playouts")]
    assert calibration.main([*common, "--map-model", "value-durak-2+policy-durak-2"]) == 0
    assert shipped() == [("greedy", "value-durak-2+policy-durak-2"), ("greedy", "playouts")]
    assert calibration.main([*common, "--map-model", "value-durak-2+policy-durak-2"]) == 0
    assert shipped() == [("greedy", "value-durak-2+policy-durak-2"), ("greedy", "playouts")]
